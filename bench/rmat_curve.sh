#!/bin/sh
# rmat_curve.sh [SCALES] [THREADS] - SSSP on generated R-MAT graphs (ef=16) over scales,
# plain and compressed (generated straight into the compressed form), one process each:
# the median kernel time of 3 trials, the time per arc, and the process's peak
# resident memory (GNU time). Prints a Markdown table. Default scales 18-23, 2 threads.
# Scale 24 needs about 7.2 GB plain; add it when the machine has room.
set -eu
scales=${1:-"18 19 20 21 22 23"}
threads=${2:-2}
bin=$(dirname "$0")/../build/algorithms
[ -x "$bin/sssp" ] || { echo "build first: $bin/sssp is missing" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "needs GNU time (/usr/bin/time, Debian package time)" >&2; exit 1; }
echo "| scale | arcs | plain ms | plain ns/arc | plain peak MiB | compressed ms | ns/arc | peak MiB | time c/p | memory c/p |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for s in $scales; do
	row="| $s"
	for form in plain compressed; do
		extra=""
		[ "$form" = compressed ] && extra="--compress"
		out=$(/usr/bin/time -f "peak %M" "$bin/sssp" --gen "rmat:scale=$s,ef=16" -t "$threads" -n 3 --no-verify $extra 2>&1)
		arcs=$(echo "$out" | sed -n 's/.* nodes, \([0-9]*\) arcs in.*/\1/p' | head -n 1)
		ms=$(echo "$out" | sed -n 's/^summary: median time \([0-9.]*\) s.*/\1/p' | awk '{printf "%.1f", $1 * 1000}')
		kib=$(echo "$out" | sed -n 's/^peak \([0-9]*\)$/\1/p')
		mib=$(awk "BEGIN { printf \"%.0f\", $kib / 1024 }")
		ns=$(awk "BEGIN { printf \"%.2f\", $ms * 1e6 / $arcs }")
		[ "$form" = plain ] && { row="$row | $arcs"; pms=$ms; pmib=$mib; }
		row="$row | $ms | $ns | $mib"
	done
	row="$row | $(awk "BEGIN { printf \"%.2fx\", $ms / $pms }") | $(awk "BEGIN { printf \"%.2fx\", $mib / $pmib }") |"
	echo "$row"
done
