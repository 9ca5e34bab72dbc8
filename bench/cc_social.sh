#!/bin/sh
# cc_social.sh - ordo's components (at its default, Afforest) beside GAPBS's cc (Afforest) on
# soc-Slashdot0902 of ../shared/inputs, kernel milliseconds, 3 interleaved rounds x 5
# trials at 1 and 2 threads, every trial verified by both; prints the medians and
# ordo's time over GAPBS's. (The yardsticks, road2k and rmat20: bench/peers.py --apps components.)
#
#   sh bench/cc_social.sh GAPBS_DIR [BIN_DIR (build/algorithms)]
#
# GAPBS_DIR holds GAPBS's cc and converter (`make` there), built outside this tree. The
# graph is decompressed into a scratch folder and converted once for each side: GAPBS's
# converter symmetrises it (-s), ordo-convert with --symmetrize --dedup.
set -eu
gapbs=${1:?usage: cc_social.sh GAPBS_DIR [BIN_DIR]}
bin=${2:-build/algorithms}
inputs=${ORDO_INPUTS:-$(dirname "$0")/../../shared/inputs}
src=$inputs/social/soc-Slashdot0902.txt.zst
[ -r "$src" ] || { echo "cc_social.sh: $src is missing (../shared/inputs)" >&2; exit 77; }
for tool in "$gapbs/cc" "$gapbs/converter" "$bin/components" "$bin/ordo-convert"; do
	[ -x "$tool" ] || { echo "cc_social.sh: $tool not found (build it first)" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
zstd -dc "$src" | grep -v '^#' >"$tmp/g.el"
"$gapbs/converter" -f "$tmp/g.el" -s -b "$tmp/g.sg" >/dev/null
"$bin/ordo-convert" "$tmp/g.el" --symmetrize --dedup -o "$tmp/g.ordo" 2>/dev/null
for r in 1 2 3; do
	for t in 1 2; do
		OMP_NUM_THREADS=$t "$gapbs/cc" -f "$tmp/g.sg" -n 5 -v |
			awk -v t="$t" '/^Trial Time/ {print "gapbs", t, $3 * 1000}
			               /^Verification:/ && $2 != "PASS" {print "FAIL gapbs"; exit 1}'
		"$bin/components" "$tmp/g.ordo" -t "$t" -n 5 --format json -q |
			sed -n 's/.*"time_s":\([0-9.e-]*\).*"verify":"\([A-Z]*\)".*/\1 \2/p' |
			awk -v t="$t" '$2 != "PASS" {print "FAIL ordo"; exit 1} {print "ordo", t, $1 * 1000}'
	done
done >"$tmp/times"
! grep -q FAIL "$tmp/times" || { echo "cc_social.sh: a run did not verify" >&2; exit 1; }
echo "| app | graph | threads | GAPBS ms | ordo ms | ordo / GAPBS |"
echo "|---|---|---|---|---|---|"
for t in 1 2; do
	g=$(awk -v t="$t" '$1 == "gapbs" && $2 == t {print $3}' "$tmp/times" | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
	o=$(awk -v t="$t" '$1 == "ordo" && $2 == t {print $3}' "$tmp/times" | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
	awk -v t="$t" -v g="$g" -v o="$o" 'BEGIN {printf "| components | soc-Slashdot0902 | %d | %.2f | %.2f | %.2f |\n", t, g, o, o / g}'
done
echo "(medians of 15 trials per side: 3 interleaved rounds x 5)"
