#!/bin/sh
# load.sh - graph loading throughput on the yardstick road2k (DIMACS text, 241 MB) and
# its native conversion, at 1 and 2 threads, RUNS runs each (default 5); prints the
# medians as a markdown table. Usage: bench/load.sh [RUNS]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${ORDO_BIN:-$here/../build/algorithms}
runs=${1:-5}
data=$(sh "$here/yardsticks.sh")
med() { sort -g | awk '{a[NR]=$1} END{print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
gr="$data/road2k.gr"
nat="$data/road2k.ordo"
mb=$(stat -c %s "$gr")
echo "| threads | DIMACS parse s | parse MB/s | build s | text load total s | peak RSS MiB | native load s | native GB/s of CSR |"
echo "|---|---|---|---|---|---|---|---|"
for t in 1 2; do
	: >/tmp/ordo_load.$$
	for i in $(seq "$runs"); do
		/usr/bin/time -f "RSS %M" "$bin/ordo-convert" "$gr" -t "$t" --info 2>&1 >/dev/null |
			sed -n 's/.*weighted in \([0-9.]*\) s (parse \([0-9.]*\) s = [0-9]* MB\/s, build \([0-9.]*\) s).*/T \1 \2 \3/p; s/^RSS \([0-9]*\)/R \1/p' >>/tmp/ordo_load.$$
		"$bin/ordo-convert" "$nat" -t "$t" --info 2>&1 >/dev/null |
			sed -n 's/.*weighted in \([0-9.]*\) s.*/N \1/p' >>/tmp/ordo_load.$$
	done
	total=$(awk '$1=="T"{print $2}' /tmp/ordo_load.$$ | med)
	parse=$(awk '$1=="T"{print $3}' /tmp/ordo_load.$$ | med)
	build=$(awk '$1=="T"{print $4}' /tmp/ordo_load.$$ | med)
	rss=$(awk '$1=="R"{print $2/1024}' /tmp/ordo_load.$$ | med)
	nat_s=$(awk '$1=="N"{print $2}' /tmp/ordo_load.$$ | med)
	csr=$("$bin/ordo-convert" "$nat" --info 2>/dev/null | awk '/CSR/{print $2}')
	awk -v t="$t" -v p="$parse" -v b="$build" -v tt="$total" -v r="$rss" -v n="$nat_s" -v mb="$mb" -v csr="$csr" \
		'BEGIN{printf "| %d | %.3f | %.0f | %.3f | %.3f | %.0f | %.3f | %.2f |\n", t, p, mb/1e6/p, b, tt, r, n, csr*1048576/1e9/n}'
	rm -f /tmp/ordo_load.$$
done
