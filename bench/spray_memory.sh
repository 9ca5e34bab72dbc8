#!/bin/sh
# spray_memory.sh - SprayList's memory high-water mark against the length of the run:
# the monotonic workload (bench/monotonic.c, 2^10 keys per thread prefilled, then
# pop + push) for longer and longer runs, each in its own process, with the peak
# resident set size from /usr/bin/time. With reclamation working the peak stays flat
# while the number of tasks grows; without it, it would grow by ~80 bytes per task.
#   bench/spray_memory.sh [BUILD_DIR (build)] [THREADS (2)] [SECONDS... (1 3 9)]
set -eu
build=${1:-build}
threads=${2:-2}
shift $(($# > 2 ? 2 : $#))
secs=${*:-1 3 9}
mono="$build/bench/monotonic"
[ -x "$mono" ] || { echo "spray_memory.sh: $mono not found: build ordo first" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "spray_memory.sh: /usr/bin/time is needed (Debian: apt-get install time)" >&2; exit 2; }
echo "| scheduler | threads | seconds | tasks (pop+push pairs) | peak RSS MiB |"
echo "|---|---|---|---|---|"
for wl in spraylist smq-sl; do
	for s in $secs; do
		out=$(/usr/bin/time -f "RSS %M" "$mono" -t "$threads" -s "$s" -k 10 --wl "$wl" --format csv 2>&1)
		pairs=$(echo "$out" | grep -v '^RSS' | tail -n 1 | awk -F, '{ print $(NF - 2) }')
		rss=$(echo "$out" | sed -n 's/^RSS //p')
		echo "| $wl | $threads | $s | $pairs | $(awk "BEGIN { printf \"%.1f\", $rss / 1024 }") |"
	done
done
