#!/bin/sh
# kcore.sh - ordo's k-core beside Batagelj-Zaversnik, measured in the same process (the
# kcore binary times its sequential baseline too), on the yardsticks (road2k, rmat20;
# bench/yardsticks.sh makes them, or graphs of their shape from ordo's generators
# without ../shared, said on stderr) and soc-Slashdot0902 from ../shared/inputs when it
# is there (skipped, with a line on stderr, when not). ROUNDS interleaved rounds (default 3) of TRIALS trials (default 5) per graph,
# algorithm and thread count; prints the median kernel time, the median baseline time
# and baseline / kernel (above 1: ordo is faster).
#   bench/kcore.sh [--algo peel|bounds] [--threads 1,2]     (ORDO_BIN: build/algorithms)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${ORDO_BIN:-$here/../build/algorithms}
algo=peel threads=1,2
while [ $# -gt 0 ]; do
	case $1 in
	--algo) algo=$2; shift 2 ;;
	--threads) threads=$2; shift 2 ;;
	*) echo "usage: kcore.sh [--algo peel|bounds] [--threads 1,2]" >&2; exit 2 ;;
	esac
done
[ -x "$bin/kcore" ] || { echo "kcore.sh: build first ($bin/kcore)" >&2; exit 2; }
data=$(sh "$here/yardsticks.sh" --fallback)
graphs="$data/road2k.ordo $data/rmat20.ordo"
slash=${ORDO_SHARED:-$here/../../shared}/inputs/social/soc-Slashdot0902.txt.zst
if [ -f "$slash" ]; then graphs="$graphs $slash"; else echo "kcore.sh: no $slash: skipping soc-Slashdot0902" >&2; fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for r in $(seq "${ROUNDS:-3}"); do
	for g in $graphs; do
		for t in $(echo "$threads" | tr , ' '); do
			"$bin/kcore" "$g" -t "$t" -n "${TRIALS:-5}" --algo "$algo" --format json -q >>"$out"
		done
	done
	echo "kcore.sh: round $r done" >&2
done
python3 - "$out" "$algo" <<'PY'
import json, statistics, sys, os
recs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
assert all(r["verify"] == "PASS" for r in recs), "a run did not verify"
cells = {}
for r in recs:
    cells.setdefault((os.path.basename(r["input"]), r["threads"]), []).append(r)
print("| graph | threads | --algo %s ms | Batagelj-Zaversnik ms | BZ / ordo | work ratio |" % sys.argv[2])
print("|---|---|---|---|---|---|")
for (g, t), rs in sorted(cells.items()):
    k = statistics.median(x["time_s"] for x in rs) * 1e3
    b = statistics.median(x["baseline_time_s"] for x in rs) * 1e3
    w = statistics.median(x["work_ratio"] for x in rs)
    print("| %s | %d | %.1f | %.1f | %.2f | %.3f |" % (g, t, k, b, b / k, w))
print("(medians of %d trials per cell)" % len(rs))
PY
