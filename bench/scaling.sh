#!/bin/sh
# scaling.sh - SSSP thread scaling on one graph for a few schedulers: every (threads,
# scheduler) pair is one `sssp` process of TRIALS verified trials from node 0, rounds
# interleaved, all records appended to OUT_DIR/scaling.csv; then a markdown table of
# medians (OUT_DIR/scaling.md) when python3 is there (else run --summary later).
#
# Made for a borrowed many-core machine that has no compiler or packages: it needs only
# a built `sssp` (with its shared libraries) and the graph file, so both can travel.
#
#   bench/scaling.sh [-b BIN_DIR] [-g GRAPH] [-t "1 2 4 8 16"] [-n TRIALS] [-r ROUNDS]
#                    [-o OUT_DIR] [SPEC...]
#   bench/scaling.sh --bundle BUILD_DIR   copy the non-libc shared libraries sssp needs
#                                         into BUILD_DIR/lib (the run adds it to
#                                         LD_LIBRARY_PATH)
#   bench/scaling.sh --summary CSV        print the markdown table of a CSV
#
# Defaults: BIN_DIR build/algorithms, GRAPH bench/data/road2k.ordo, threads 1 2 4 8 16,
# 3 trials, 2 rounds, OUT_DIR bench/out, schedulers obim:delta=12 smq smq:pq=radix.
set -eu
here=$(cd "$(dirname "$0")" && pwd)

summary() {
	python3 - "$1" <<'EOF'
import csv, statistics, sys
rows = {}
for r in csv.DictReader(open(sys.argv[1])):
    rows.setdefault((int(r["threads"]), r["scheduler"]), []).append(r)
base = {}
print("| threads | scheduler | time ms | work ratio | speedup vs its 1 thread | verified |")
print("|---|---|---|---|---|---|")
for (t, s) in sorted(rows, key=lambda k: (k[1], k[0])):
    rs = rows[(t, s)]
    tm = statistics.median(float(r["time_s"]) for r in rs)
    wr = statistics.median(float(r["work_ratio"]) for r in rs)
    if t == 1:
        base[s] = tm
    sp = f"{base[s] / tm:.2f}x" if s in base else ""
    ok = "all" if all(r["verify"] == "PASS" for r in rs) else "FAILED"
    print(f"| {t} | `{s}` | {tm * 1e3:.0f} | {wr:.3f} | {sp} | {ok} ({len(rs)}) |")
EOF
}

case "${1:-}" in
--bundle)
	b=${2:?--bundle needs a build directory}
	mkdir -p "$b/lib"
	ldd "$b/algorithms/sssp" | awk '/=> \// {print $3}' |
		grep -Ev '/(libc|libm|libpthread|libdl|librt|ld-linux[^/]*)\.so' |
		while read -r lib; do cp -L "$lib" "$b/lib/"; done
	ls "$b/lib"
	exit 0
	;;
--summary)
	summary "${2:?--summary needs a CSV file}"
	exit 0
	;;
esac

bin=build/algorithms graph=$here/data/road2k.ordo threads="1 2 4 8 16" trials=3 rounds=2
out=$here/out
while getopts b:g:t:n:r:o: opt; do
	case $opt in
	b) bin=$OPTARG ;;
	g) graph=$OPTARG ;;
	t) threads=$OPTARG ;;
	n) trials=$OPTARG ;;
	r) rounds=$OPTARG ;;
	o) out=$OPTARG ;;
	*) echo "usage: see the top of $0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- obim:delta=12 smq smq:pq=radix
[ -x "$bin/sssp" ] || { echo "scaling.sh: no sssp in $bin (build first, or -b)" >&2; exit 2; }
[ -r "$graph" ] || { echo "scaling.sh: cannot read $graph (bench/yardsticks.sh makes it)" >&2; exit 2; }
[ -d "$bin/../lib" ] && export LD_LIBRARY_PATH="$bin/../lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
mkdir -p "$out"
csv=$out/scaling.csv
rm -f "$csv"
echo "scaling.sh: $(nproc) CPUs, $(uname -m), $graph; threads $threads; $trials trials x $rounds rounds" >&2
r=1
while [ "$r" -le "$rounds" ]; do
	for spec in "$@"; do
		for t in $threads; do
			"$bin/sssp" "$graph" -r 0 -t "$t" --wl "$spec" -n "$trials" -q --out "$csv" >/dev/null ||
				echo "scaling.sh: $spec at $t threads failed (status $?)" >&2
		done
	done
	echo "scaling.sh: round $r of $rounds done" >&2
	r=$((r + 1))
done
if command -v python3 >/dev/null 2>&1; then
	summary "$csv" | tee "$out/scaling.md"
fi
