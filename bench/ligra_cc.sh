#!/bin/sh
# ligra_cc.sh - ordo's components (at its default, Afforest) beside Ligra's Components
# (label propagation over frontiers, the ligra/apps one) on road2k, rmat20 (the yardsticks,
# bench/yardsticks.sh) and soc-Slashdot0902 (../shared/inputs), kernel milliseconds, 3
# interleaved rounds x 5 trials at 1 and 2 threads; prints the medians and ordo's time
# over Ligra's. Every ordo trial is verified; Ligra's Components prints no answer to check.
#
#   sh bench/ligra_cc.sh LIGRA_DIR [BIN_DIR (build/algorithms)]
#
# LIGRA_DIR is a clone of jshun/ligra, built outside this tree: `make OPENMP=1 Components`
# in LIGRA_DIR/apps. Each graph is symmetrised and deduplicated once by ordo-convert
# and written twice: ordo's native file and Ligra's AdjacencyGraph text (the weights
# ordo-convert writes are cut off: Components reads an unweighted graph). A graph whose
# input is missing is skipped with a line saying so.
set -eu
ligra=${1:?usage: ligra_cc.sh LIGRA_DIR [BIN_DIR]}
bin=${2:-build/algorithms}
here=$(cd "$(dirname "$0")" && pwd)
data=${ORDO_BENCH_DATA:-$here/data}
inputs=${ORDO_INPUTS:-$here/../../shared/inputs}
lcc=$ligra/apps/Components
for tool in "$lcc" "$bin/components" "$bin/ordo-convert"; do
	[ -x "$tool" ] || { echo "ligra_cc.sh: $tool not found (build it first)" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
graphs=""
add() { # name, input file
	if [ ! -r "$2" ]; then
		echo "ligra_cc.sh: skipping $1: $2 is missing" >&2
		return
	fi
	"$bin/ordo-convert" "$2" --symmetrize --dedup -o "$tmp/$1.ordo" 2>"$tmp/log" &&
		"$bin/ordo-convert" "$tmp/$1.ordo" -o "$tmp/$1.w.adj" 2>"$tmp/log" ||
		{ cat "$tmp/log" >&2; echo "ligra_cc.sh: converting $2 failed" >&2; exit 1; }
	n=$(sed -n 2p "$tmp/$1.w.adj")
	m=$(sed -n 3p "$tmp/$1.w.adj")
	{ echo AdjacencyGraph; sed -n "2,$((3 + n + m))p" "$tmp/$1.w.adj"; } >"$tmp/$1.adj"
	rm -f "$tmp/$1.w.adj"
	graphs="$graphs $1"
}
add road2k "$data/road2k.ordo"
add rmat20 "$data/rmat20.ordo"
add soc-Slashdot0902 "$inputs/social/soc-Slashdot0902.txt.zst"
[ -n "$graphs" ] || { echo "ligra_cc.sh: no graph found (run bench/yardsticks.sh)" >&2; exit 77; }
for r in 1 2 3; do
	for g in $graphs; do
		for t in 1 2; do
			OMP_NUM_THREADS=$t "$lcc" -s -rounds 5 "$tmp/$g.adj" |
				awk -v g="$g" -v t="$t" '/^Running time/ {print "ligra", g, t, $4 * 1000}'
			"$bin/components" "$tmp/$g.ordo" -t "$t" -n 5 --format json -q |
				sed -n 's/.*"time_s":\([0-9.e-]*\).*"verify":"\([A-Z]*\)".*/\1 \2/p' |
				awk -v g="$g" -v t="$t" '$2 != "PASS" {print "FAIL ordo"; exit 1} {print "ordo", g, t, $1 * 1000}'
		done
	done
done >"$tmp/times"
! grep -q FAIL "$tmp/times" || { echo "ligra_cc.sh: an ordo run did not verify" >&2; exit 1; }
for g in $graphs; do # 15 times per side and cell, or a run failed (Ligra checks nothing)
	for t in 1 2; do
		for side in ligra ordo; do
			k=$(awk -v s="$side" -v g="$g" -v t="$t" '$1 == s && $2 == g && $3 == t' "$tmp/times" | wc -l)
			[ "$k" -eq 15 ] || { echo "ligra_cc.sh: $side on $g at $t threads gave $k of 15 times" >&2; exit 1; }
		done
	done
done
med() { # side, graph, threads
	awk -v s="$1" -v g="$2" -v t="$3" '$1 == s && $2 == g && $3 == t {print $4}' "$tmp/times" |
		sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'
}
echo "| app | graph | threads | Ligra ms | ordo ms | ordo / Ligra |"
echo "|---|---|---|---|---|---|"
for g in $graphs; do
	for t in 1 2; do
		l=$(med ligra "$g" "$t")
		o=$(med ordo "$g" "$t")
		awk -v g="$g" -v t="$t" -v l="$l" -v o="$o" \
			'BEGIN {printf "| components | %s | %d | %.2f | %.2f | %.2f |\n", g, t, l, o, o / l}'
	done
done
echo "(medians of 15 trials per side: 3 interleaved rounds x 5)"
