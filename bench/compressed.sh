#!/bin/sh
# compressed.sh - the compressed CSR against the plain one (issue 11):
#  1. bytes per arc of each graph, plain and compressed (ordo-convert --info);
#  2. peak memory of loading it: the plain .ordo, the compressed .ordo, and the text
#     form (DIMACS / edge list) built plain, straight into the compressed CSR, and so
#     with its arcs spilled to a temporary file (--spill-dir, in $TMPDIR or /tmp);
#  3. SSSP and BFS on plain vs compressed, 1 and 2 threads, obim and smq, side by side
#     in interleaved rounds (ordo-bench run), as a table of medians and their ratio.
# Graphs: the yardsticks road2k and rmat20 (bench/data or $ORDO_BENCH_DATA: the .ordo
# files bench/yardsticks.sh makes), and soc-Slashdot0902 with weights 1..255 from
# ../shared/inputs (skipped, with a note, where it is absent).
#   bench/compressed.sh [BUILD_DIR (build)] [ROUNDS (3; 0: parts 1 and 2 only)]
set -eu
build=${1:-build}
rounds=${2:-3}
here=$(cd "$(dirname "$0")" && pwd)
data=${ORDO_BENCH_DATA:-$here/data}
inputs=${ORDO_INPUTS:-$here/../../shared/inputs}
conv="$build/algorithms/ordo-convert"
cache="$build/bench-cache/compressed"
[ -x "$conv" ] || { echo "compressed.sh: $conv not found: build ordo first" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "compressed.sh: /usr/bin/time is needed (Debian: apt-get install time)" >&2; exit 2; }
mkdir -p "$cache"

graphs=""
for g in road2k rmat20; do
	if [ -f "$data/$g.ordo" ]; then
		graphs="$graphs $g"
	else
		echo "note: $data/$g.ordo is missing (bench/yardsticks.sh makes it): $g skipped" >&2
	fi
done
slash="$inputs/social/soc-Slashdot0902.txt.zst"
[ -f "$slash" ] || { echo "note: $slash is missing: soc-Slashdot0902 skipped" >&2; slash=""; }

# the compressed files, written once
for g in $graphs; do
	[ -f "$cache/$g.cz.ordo" ] ||
		"$conv" "$data/$g.ordo" --compress -o "$cache/$g.cz.ordo"
done

bpa() { # bytes per arc from --info
	"$conv" "$@" --info 2>/dev/null | sed -n 's/.*, \([0-9.]*\) bytes per arc.*/\1/p' | head -n 1
}
rss() { # peak resident MiB of ordo-convert --info on the arguments
	/usr/bin/time -f "RSS %M" "$conv" "$@" --info 2>&1 >/dev/null | sed -n 's/^RSS //p' |
		awk '{ printf "%.0f", $1 / 1024 }'
}

spill=${TMPDIR:-/tmp}
echo "## Bytes per arc and peak memory of loading (ordo-convert --info, $(nproc) CPUs)"
echo
echo "Peak resident MiB of loading: the .ordo as it is (plain or compressed), and the"
echo "text form (DIMACS .gr beside it, when there) built plain, straight into the"
echo "compressed CSR (--compress: the plain CSR never exists), and so with the arcs read"
echo "spilled to a temporary file (--spill-dir $spill)."
echo
echo "| graph | plain B/arc | compressed B/arc | plain .ordo | compressed .ordo | text, plain | text, --compress | text, --compress --spill-dir |"
echo "|---|---|---|---|---|---|---|---|"
for g in $graphs; do
	tp=- tc=- ts=-
	if [ -f "$data/$g.gr" ]; then
		tp=$(rss "$data/$g.gr" --no-coords)
		tc=$(rss "$data/$g.gr" --no-coords --compress)
		ts=$(rss "$data/$g.gr" --no-coords --compress --spill-dir "$spill")
	fi
	echo "| $g | $(bpa "$data/$g.ordo") | $(bpa "$cache/$g.cz.ordo") | $(rss "$data/$g.ordo") | $(rss "$cache/$g.cz.ordo") | $tp | $tc | $ts |"
done
if [ -n "$slash" ]; then
	w="--random-weights 1:255"
	# shellcheck disable=SC2086
	echo "| soc-Slashdot0902 (weights 1..255) | $(bpa "$slash" $w) | $(bpa "$slash" $w --compress) | - | - | $(rss "$slash" $w) | $(rss "$slash" $w --compress) | $(rss "$slash" $w --compress --spill-dir "$spill") |"
fi
echo

[ -n "$graphs" ] && [ "$rounds" -gt 0 ] || exit 0
out="$cache/runs.jsonl"
rm -f "$out"
files=""
for g in $graphs; do
	files="$files,$data/$g.ordo,$cache/$g.cz.ordo"
done
files=${files#,}
python3 "$here/ordo-bench" run --apps sssp,bfs --inputs "$files" --wl obim --wl smq \
	--threads 1,2 --rounds "$rounds" --trials 3 --build "$build" --out "$out" -q
echo "## SSSP and BFS, plain vs compressed ($rounds interleaved rounds x 3 trials)"
echo
python3 - "$out" <<'EOF'
import json, statistics, sys
t = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("status") != "ok":
        sys.exit("a run failed: " + line)
    c = r["cell"]
    cz = c["input"].endswith(".cz.ordo")
    name = c["input"].split("/")[-1].replace(".cz.ordo", "").replace(".ordo", "")
    key = (c["app"], name, c["wl"], c["threads"])
    t.setdefault(key, {}).setdefault(r["round"], {}).setdefault(cz, []).append(r["record"]["time_s"])
# the machine drifts between rounds: the ratio is taken within each round (plain and
# compressed ran next to each other), then its median over the rounds
print("| app | graph | scheduler | threads | plain ms | compressed ms | compressed / plain, per round | median |")
print("|---|---|---|---|---|---|---|---|")
for key in sorted(t):
    rounds = [t[key][k] for k in sorted(t[key]) if False in t[key][k] and True in t[key][k]]
    if not rounds:
        continue
    p = [x for r in rounds for x in r[False]]
    c = [x for r in rounds for x in r[True]]
    ratios = [statistics.median(r[True]) / statistics.median(r[False]) for r in rounds]
    print(f"| {key[0]} | {key[1]} | {key[2]} | {key[3]} | {statistics.median(p) * 1e3:.0f} "
          f"| {statistics.median(c) * 1e3:.0f} | {' '.join(f'{x:.2f}' for x in ratios)} "
          f"| {statistics.median(ratios):.2f} |")
EOF
