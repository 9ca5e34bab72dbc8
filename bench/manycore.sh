#!/bin/sh
# manycore.sh - the measurements this 2-core machine cannot make, in one bounded run on a
# machine with more cores (issues 47 and 48): SSSP beside GAPBS and Wasp at 1..T threads,
# every scheduler's real T-thread work beside the linearized executor's --sim T, and
# kcore/mst scaling on the yardsticks (several processes at 1 and 2 threads).
#
#   bench/manycore.sh OUTDIR [THREADS]      (THREADS default 1,2,4,8,16)
#
# Environment: ORDO_BIN (ordo's algorithms folder), ORDO_GAPBS and ORDO_WASP (as for
# sssp_peers.py), ORDO_SHARED (a folder holding tools/gengraph.c) and ORDO_BENCH_DATA
# (where the yardsticks go). Each part has its own time limit (seconds: ORDO_MC_PEERS,
# ORDO_MC_SIM, ORDO_MC_APPS) and writes its figures to OUTDIR as it goes, so a part that
# runs out of time keeps what it measured; a part that fails is named in OUTDIR/parts.txt.
# ORDO_MC_PARTS (default "peers sim apps") chooses the parts, ORDO_MC_SIMP the P of the
# simulation part (default the largest thread count), ORDO_MC_APPLIST its apps
# (default "kcore mst").
set -u
out=${1:?usage: manycore.sh OUTDIR [THREADS]}
threads=${2:-1,2,4,8,16}
here=$(cd "$(dirname "$0")" && pwd)
bin=${ORDO_BIN:-$here/../build/algorithms}
mkdir -p "$out"
maxt=${threads##*,}
part() { echo "$1: $2 ($(date +%s))" >> "$out/parts.txt"; echo "manycore.sh: $1: $2" >&2; }

{ nproc; lscpu 2>/dev/null | grep -E "^(Model name|Socket|Core|Thread|NUMA node)"; } \
	> "$out/machine.txt"
# a binary that cannot run here (a missing library, an instruction this CPU lacks) stops
# everything at once, with the reason
if ! "$bin/sssp" --gen road:W=40,H=40 -n 1 -q > "$out/sanity.txt" 2>&1; then
	part sanity "ordo's sssp does not run: $(tail -c 300 "$out/sanity.txt")"; exit 3
fi
part sanity ok

t0=$(date +%s)
shared=${ORDO_SHARED:-$here/../../shared}
if [ ! -f "$shared/tools/gengraph.c" ]; then
	part yardsticks "not made: they need $shared/tools/gengraph.c (set ORDO_SHARED=DIR)"
	exit 3
fi
data=$(sh "$here/yardsticks.sh") || { part yardsticks failed; exit 3; }
if [ -n "${ORDO_GAPBS:-}" ]; then  # GAPBS's inputs, both at once
	mkdir -p "$ORDO_GAPBS/ordo-yardsticks"
	for g in road2k rmat20; do
		w=$ORDO_GAPBS/ordo-yardsticks/$g.wsg
		[ -s "$w" ] || { "$ORDO_GAPBS/converter" -f "$data/$g.gr" -wb "$w.part" \
			> /dev/null && mv "$w.part" "$w"; } &
	done
	wait
fi
part yardsticks "ok in $(( $(date +%s) - t0 )) s"

parts=${ORDO_MC_PARTS:-peers sim apps}
want() { case " $parts " in *" $1 "*) return 0 ;; esac; return 1; }

t0=$(date +%s)
if want peers; then
	timeout "${ORDO_MC_PEERS:-260}" python3 "$here/sssp_peers.py" --threads "$threads" \
		--rounds 3 --trials 3 --ordo wasp --raw "$out/peers.jsonl" \
		> "$out/peers.md" 2> "$out/peers.err"
	part peers "exit $? in $(( $(date +%s) - t0 )) s"
fi

t0=$(date +%s)
simp=${ORDO_MC_SIMP:-$maxt}
if want sim; then
	timeout "${ORDO_MC_SIM:-120}" python3 "$here/sim_sweep.py" \
		--graphs "$data/road2k.ordo,$data/rmat20.ordo" --workers "$simp" --real "$simp" \
		--trials 3 --jobs "$(( $(nproc) - 1 ))" --bin "$bin" > "$out/sim.md" 2> "$out/sim.err"
	part sim "exit $? in $(( $(date +%s) - t0 )) s"
fi

# kcore and mst: 5 processes at 1 and 2 threads on rmat20 (issue 48's unstable figure),
# one at every other thread count, road2k once per count
t0=$(date +%s)
want apps || exit 0
for g in rmat20 road2k; do
	for app in ${ORDO_MC_APPLIST:-kcore mst}; do
		for t in $(echo "$threads" | tr , ' '); do
			n=1
			[ "$g" = rmat20 ] && [ "$t" -le 2 ] && n=5
			i=0
			while [ $i -lt $n ] && [ $(( $(date +%s) - t0 )) -lt "${ORDO_MC_APPS:-110}" ]; do
				"$bin/$app" "$data/$g.ordo" -t "$t" -n 3 -q --format json \
					>> "$out/apps.jsonl" 2>> "$out/apps.err" || part apps "$app $g t$t failed"
				i=$((i + 1))
			done
		done
	done
done
part apps "done in $(( $(date +%s) - t0 )) s"
