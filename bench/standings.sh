#!/bin/sh
# standings.sh - remeasures every generated block of bench/RESULTS.md (the standings) on
# the binaries of build/ and regenerates the page: every app with every scheduler on the
# yardsticks, SSSP over SMQ's and OBIM's parameters, the schedulers alone (throughput,
# rank error), on a shared machine (noise), loading. Each result file is made anew in bench/results/ (gzip JSON
# lines) with the command recorded in it; about 60 minutes on a 2-vCPU machine.
# Usage: bench/standings.sh [PART...]   (parts: apps heat mono rank shared load; default
# all)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/.."
[ -s bench/data/road2k.ordo ] || sh bench/yardsticks.sh --fallback >/dev/null
ob=bench/ordo-bench
# fresh NAME CMD...: runs an ordo-bench command into a new bench/results/NAME.jsonl.gz
# (the old one goes first: appending would resume it instead; git keeps the old one)
fresh() {
	name=$1
	shift
	rm -f "bench/results/$name.jsonl.gz"
	"$@" -q --out "bench/results/$name.jsonl.gz"
}
parts=${*:-apps heat mono rank shared load}
for part in $parts; do
	case $part in
	apps)
		fresh apps $ob compare --apps sssp,bfs,astar,mst,kcore --inputs yardsticks \
			--threads 1,2 --trials 1 --rounds 2 --timeout 30 ;;
	heat)
		fresh heat-smq $ob run --apps sssp --inputs road2k --threads 2 \
			--wl 'smq:steal_prob={1,2,4,8,16},steal_size={1,2,4,8,16}' --trials 3 --rounds 3
		fresh heat-obim $ob run --apps sssp --inputs road2k --threads 2 \
			--wl 'obim:chunk={16,32,64,128,256},delta={4..16:2}' --trials 3 --rounds 3 ;;
	mono)
		fresh mono $ob mono --threads 1,2 --rounds 5 ;;
	rank)
		fresh rank $ob rank --threads 1,2 --ops 200000 --rounds 3
		fresh rank-smq $ob rank --wl 'smq:steal_prob={1,4,16},steal_size={1,4,16}' \
			--threads 2 --ops 200000 --rounds 3 ;;
	shared)
		fresh seats-final $ob run --apps sssp,bfs --inputs yardsticks --wl smq:pq=bucket \
			--wl obim --wl mq-opt --threads 1,2 --trials 3 --rounds 3 --noise none \
			--noise spin:1 --noise oversub:8 ;;
	load)
		# the text yardstick comes from ../shared's generator only
		if [ ! -s bench/data/road2k.gr ]; then
			echo "standings.sh: load skipped: bench/data/road2k.gr is made from ../shared" \
				"(bench/yardsticks.sh), which is not beside this clone" >&2
			continue
		fi
		fresh load $ob load --inputs bench/data/road2k.gr,bench/data/road2k.ordo \
			--threads 1,2 --rounds 5 ;;
	*)
		echo "standings.sh: unknown part '$part' (apps heat mono rank shared load)" >&2
		exit 2 ;;
	esac
done
$ob page
