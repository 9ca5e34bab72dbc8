#!/bin/sh
# reorder.sh [ROUNDS] [OUT.jsonl] - what each node order (--reorder) gives the apps on
# the yardsticks: SSSP, BFS and MST with one scheduler on road2k and rmat20 as made and
# renumbered in every order (rmat20 has no coordinates, so no hilbert), at 1 and 2
# threads, side by side in interleaved rounds (bench/ordo-bench run). The renumbered
# copies are made once beside the yardsticks (ORDO_BENCH_DATA, or bench/data), with
# the time each renumbering took; queries are the same on every copy (input ids).
# Without ../shared the graphs come from ordo's own generators (said on stderr).
#   WL=SPEC APPS=sssp,bfs,mst THREADS=1,2 TRIALS=3 override the defaults.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${ORDO_BIN:-$here/../build/algorithms}
rounds=${1:-3}
out=${2:-$here/results/reorder.jsonl}
wl=${WL:-smq:pq=bucket}
[ -x "$bin/ordo-convert" ] || { echo "reorder.sh: build first ($bin/ordo-convert)" >&2; exit 2; }
# without ../shared: the same shapes from ordo's own generators (said on stderr)
data=$(sh "$here/yardsticks.sh" --fallback)
inputs=""
for g in road2k rmat20; do
	inputs="$inputs${inputs:+,}$data/$g.ordo"
	for o in rcm bfs degree hilbert; do
		[ $g = rmat20 ] && [ $o = hilbert ] && continue
		f=$data/$g-$o.ordo
		if [ ! -e "$f" ]; then
			"$bin/ordo-convert" "$data/$g.ordo" --reorder $o -o "$f.part" --to native 2>"$f.err" ||
				{ cat "$f.err" >&2; exit 1; }
			mv "$f.part" "$f"
			echo "$g: $(grep -o "renumbered in $o order in [0-9.]* s" "$f.err")" >&2
			rm -f "$f.err"
		fi
		inputs="$inputs,$f"
	done
done
python3 "$here/ordo-bench" run --apps "${APPS:-sssp,bfs,mst}" --inputs "$inputs" --wl "$wl" \
	--threads "${THREADS:-1,2}" --trials "${TRIALS:-3}" --rounds "$rounds" --out "$out" -q
python3 "$here/ordo-bench" report "$out"
