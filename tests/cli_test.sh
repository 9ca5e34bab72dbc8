#!/bin/sh
# Command-line behaviour of the tools: --help, exit status 2 with a file:line message
# on bad input, no partial output file left behind, conversions that round-trip, and
# generators that give byte-identical files for 1 and 2 threads.
#   cli_test.sh BIN_DIR TESTS_DIR [WRONG_APP]
set -eu
bin=$1
tests=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$bin/ordo-convert" --help | grep -q -- '--symmetrize' || fail "convert --help"
"$bin/ordo-gen" --help | grep -q 'road' || fail "gen --help"
# ordo-gen --help lists only what it accepts: its seed lives in the spec
! "$bin/ordo-gen" --help | grep -q -- "--seed" || fail "ordo-gen --help lists --seed"
! "$bin/ordo-gen" road:W=4,H=4 --seed 3 -o "$tmp/q.ordo" 2>/dev/null || fail "ordo-gen accepted --seed"

# malformed input: status 2, message with file:line, nothing written
set +e
"$bin/ordo-convert" "$tests/malformed/gr_id_big.gr" "$tmp/out.ordo" 2>"$tmp/err"
st=$?
set -e
[ $st -eq 2 ] || fail "status $st for a malformed file"
grep -q "gr_id_big.gr:2: arc head (node id) 9 out of range" "$tmp/err" || fail "message: $(cat "$tmp/err")"
[ -z "$(ls -A "$tmp" | grep -v '^err$')" ] || fail "output left behind: $(ls "$tmp")"

# missing file: status 3 (I/O)
set +e
"$bin/ordo-convert" "$tmp/nope.gr" "$tmp/out.ordo" 2>/dev/null
st=$?
set -e
[ $st -eq 3 ] || fail "status $st for a missing file"

# bad option values: status 2
set +e
"$bin/ordo-convert" "$tests/fixtures/tiny.gr" "$tmp/o.gr" --random-weights 5:1 2>/dev/null
st=$?
set -e
[ $st -eq 2 ] || fail "status $st for a bad --random-weights"

# generators are deterministic across thread counts, in every output format
for fmt in ordo gr txt; do
	"$bin/ordo-gen" road:W=120,H=90,seed=3 -t 1 -o "$tmp/a.$fmt" 2>/dev/null
	"$bin/ordo-gen" road:W=120,H=90,seed=3 -t 2 -o "$tmp/b.$fmt" 2>/dev/null
	cmp -s "$tmp/a.$fmt" "$tmp/b.$fmt" || fail "road .$fmt differs between 1 and 2 threads"
done
cmp -s "$tmp/a.co" "$tmp/b.co" || fail "road .co differs between 1 and 2 threads"
"$bin/ordo-gen" rmat:scale=10,ef=4 -t 1 -o "$tmp/r1.ordo" 2>/dev/null
"$bin/ordo-gen" rmat:scale=10,ef=4 -t 2 -o "$tmp/r2.ordo" 2>/dev/null
cmp -s "$tmp/r1.ordo" "$tmp/r2.ordo" || fail "rmat differs between 1 and 2 threads"

# --seed of ordo-convert seeds --random-weights (like --weight-seed); kron = rmat
"$bin/ordo-convert" "$tests/fixtures/sym.mtx" --random-weights 1:9 --seed 3 -o "$tmp/w1.txt" 2>/dev/null
"$bin/ordo-convert" "$tests/fixtures/sym.mtx" --random-weights 1:9 --weight-seed 3 -o "$tmp/w2.txt" 2>/dev/null
cmp -s "$tmp/w1.txt" "$tmp/w2.txt" || fail "--seed and --weight-seed differ"
"$bin/ordo-gen" kron:scale=6 -o "$tmp/k.ordo" 2>/dev/null || fail "kron generator"

# DIMACS text -> native -> DIMACS text gives the same arcs
"$bin/ordo-convert" "$tmp/a.gr" "$tmp/c.ordo" --coords "$tmp/a.co" 2>/dev/null
"$bin/ordo-convert" "$tmp/c.ordo" "$tmp/d.gr" 2>/dev/null
tail -n +2 "$tmp/a.gr" >"$tmp/a.body"
tail -n +2 "$tmp/d.gr" >"$tmp/d.body"
cmp -s "$tmp/a.body" "$tmp/d.body" || fail "DIMACS round trip"
test -s "$tmp/d.co" || fail "sibling .co not written"
# a failure after the graph was written leaves no output at all
set +e
"$bin/ordo-convert" "$tests/fixtures/tiny.gr" -o "$tmp/late.ordo" --no-coords --coords-out "$tmp/late.co" 2>"$tmp/late.err"
st=$?
set -e
[ $st -eq 2 ] && grep -q "has no coordinates" "$tmp/late.err" || fail "--coords-out without coordinates: $st $(cat "$tmp/late.err")"
[ ! -e "$tmp/late.ordo" ] && [ ! -e "$tmp/late.co" ] || fail "a failed conversion left output behind"
# SIGINT while writing removes the temporary file, and a set of files (a .gr and its
# .co) lands whole or not at all (issue 31, item 2). The interrupt is sent once the .co
# is being written, seen by polling the folder; a run that finished first is retried.
mkdir "$tmp/sig"
hit=0
for try in 1 2 3 4 5 6; do
	rm -f "$tmp/sig/"* "$tmp/sig/".ordo-part-* 2>/dev/null || true
	"$bin/ordo-gen" road:W=1500,H=1500 -o "$tmp/sig/big.gr" 2>/dev/null &
	pid=$!
	k=0
	while [ $k -lt 20000 ] && ! ls -a "$tmp/sig" | grep -q 'big\.co\.tmp\.'; do
		k=$((k + 1))
		kill -0 $pid 2>/dev/null || break
	done
	if kill -INT $pid 2>/dev/null; then
		wait $pid 2>/dev/null || true
		if [ ! -e "$tmp/sig/big.gr" ] && [ ! -e "$tmp/sig/big.co" ]; then
			hit=1
		fi
	else
		wait $pid 2>/dev/null || true
	fi
	# whenever the signal landed: both files or neither, and nothing else
	left=$(ls -a "$tmp/sig" | grep -v -e '^\.\.*$' -e '^big\.gr$' -e '^big\.co$' || true)
	[ -z "$left" ] || fail "SIGINT left files behind: $left"
	if [ -e "$tmp/sig/big.gr" ]; then gr=1; else gr=0; fi
	if [ -e "$tmp/sig/big.co" ]; then co=1; else co=0; fi
	[ $gr -eq $co ] || fail "SIGINT left half a set: $(ls "$tmp/sig")"
	[ $hit -eq 1 ] && break
done
[ $hit -eq 1 ] || fail "could not interrupt ordo-gen while it wrote the .co in 6 tries"
# a failure at the second file of a set leaves neither
set +e
"$bin/ordo-gen" road:W=30,H=30 -o "$tmp/sig/set.gr" --coords-out "$tmp/no/such/dir/set.co" 2>"$tmp/set.err"
st=$?
set -e
[ $st -ne 0 ] || fail "ordo-gen wrote into a folder that does not exist"
[ -z "$(ls -A "$tmp/sig" | grep set)" ] || fail "a failed set left files: $(ls -A "$tmp/sig")"
# an edge list keeps n through a round trip (ordo's header states it): trailing
# isolated nodes are not lost; an id beyond it is an error naming the header
"$bin/ordo-convert" "$tests/fixtures/isolated.graph" -o "$tmp/iso.txt" 2>/dev/null
"$bin/ordo-convert" "$tmp/iso.txt" --info 2>/dev/null | grep -q "nodes 3$" || fail "edge list round trip lost the isolated node"
cp "$tmp/iso.txt" "$tmp/iso_cut.txt"
echo "7 0" >>"$tmp/iso.txt"
set +e
"$bin/ordo-convert" "$tmp/iso.txt" --info >/dev/null 2>"$tmp/iso.err"
st=$?
set -e
[ $st -eq 2 ] && grep -q "expected 2 arcs, as the header line '# written by ordo: ...' declares, found 3" "$tmp/iso.err" || fail "an arc added to ordo's edge list: $st $(cat "$tmp/iso.err")"
sed -i 's/ 2 arcs,/ 3 arcs,/' "$tmp/iso.txt" # the counts agree again: the id is the fault
set +e
"$bin/ordo-convert" "$tmp/iso.txt" --info >/dev/null 2>"$tmp/iso.err"
st=$?
set -e
[ $st -eq 2 ] && grep -q "header line '# written by ordo: 3 nodes'" "$tmp/iso.err" || fail "id beyond the header's n: $st $(cat "$tmp/iso.err")"
# cut at a line end: fewer arcs than declared is an error, not a smaller graph
sed -i '$d' "$tmp/iso_cut.txt"
set +e
"$bin/sssp" "$tmp/iso_cut.txt" -n 1 >/dev/null 2>"$tmp/iso.err"
st=$?
set -e
[ $st -eq 2 ] && grep -q "expected 2 arcs.*found 1 (truncated file?)" "$tmp/iso.err" || fail "a cut edge list: $st $(cat "$tmp/iso.err")"
# Ctrl-C with stdout redirected: the finished trials' reports are in the file, and the
# binary says how far it got (exit 130)
"$bin/sssp" --gen road:W=300,H=300 -n 100000 -t 1 >"$tmp/int.out" 2>"$tmp/int.err" &
int_pid=$!
for i in $(seq 200); do [ "$(grep -c '^trial' "$tmp/int.out" 2>/dev/null)" -ge 2 ] && break; sleep 0.05; done
kill -INT $int_pid
set +e
wait $int_pid
st=$?
set -e
[ $st -eq 130 ] && grep -q "interrupted after [0-9]* of 100000 trials" "$tmp/int.err" &&
	[ "$(grep -c '^trial' "$tmp/int.out")" -ge 2 ] ||
	fail "Ctrl-C: status $st, $(grep -c '^trial' "$tmp/int.out") trial lines, $(cat "$tmp/int.err")"
# a mapped graph truncated under a run: a clear message and status 3, not a bare bus error
"$bin/ordo-gen" road:W=500,H=500 -o "$tmp/map.ordo" --mappable >/dev/null 2>&1
"$bin/sssp" "$tmp/map.ordo" -n 100000 -t 1 --no-verify >/dev/null 2>"$tmp/bus.err" &
bus_pid=$!
for i in $(seq 100); do grep -q "^loaded" "$tmp/bus.err" && break; sleep 0.1; done
truncate -s 65536 "$tmp/map.ordo"
for i in $(seq 200); do kill -0 $bus_pid 2>/dev/null || break; sleep 0.1; done
kill $bus_pid 2>/dev/null && fail "sssp went on after its mapped graph was truncated"
set +e
wait $bus_pid
st=$?
set -e
[ $st -eq 3 ] && grep -q "bus error reading $tmp/map.ordo, which this run maps: the file was truncated" "$tmp/bus.err" ||
	fail "a truncated mapping: status $st, $(cat "$tmp/bus.err")"
# --mem-budget covers --gen: the generator's size is stated before anything is made
set +e
"$bin/sssp" --gen rmat:scale=31 --mem-budget 1G -n 1 >/dev/null 2>"$tmp/gen.err"
st=$?
set -e
[ $st -eq 2 ] && grep -q "rmat:scale=31: a graph of 2147483648 nodes and about 68719476736 arcs, which needs 1.3 TiB; the memory budget (--mem-budget) is 953.7 MiB" "$tmp/gen.err" || fail "--gen under --mem-budget: $st $(cat "$tmp/gen.err")"
# a native file rebuilt on load (-s, --dedup, --random-weights) keeps its coordinates
"$bin/ordo-convert" "$tmp/c.ordo" -s --dedup --weights-from-coords -o "$tmp/e.ordo" 2>"$tmp/e.err" ||
	fail "native + -s --dedup lost the coordinates: $(cat "$tmp/e.err")"
"$bin/ordo-convert" "$tmp/e.ordo" --info | grep -qi "coordinates" || fail "coordinates missing after the rebuild: $("$bin/ordo-convert" "$tmp/e.ordo" --info)"

# sssp: a verified run with machine-readable records, Galois spellings, errors
for b in sssp bfs astar mst ordo-convert ordo-gen; do
	[ -x "$bin/$b" ] || fail "$b was not built ($bin/$b missing)"
	"$bin/$b" --version | grep -q "^$b (ordo) [0-9.]*, git " || fail "$b --version"
	"$bin/$b" --version | grep -q "^build: .*NUMA=" || fail "$b --version: build options"
	"$bin/$b" -h | grep -q "^usage: $b" || fail "$b -h"
done
"$bin/sssp" --gen road:W=64,H=48 -n 2 --format json -t 2 >"$tmp/s.json" 2>"$tmp/s.err" || fail "sssp run: $(cat "$tmp/s.err")"
[ "$(grep -c '"verify":"PASS"' "$tmp/s.json")" = 2 ] || fail "sssp json: $(cat "$tmp/s.json")"
grep -q '"work_ratio":' "$tmp/s.json" || fail "sssp json lacks work_ratio"
grep -q '"scheduler":"[a-z]' "$tmp/s.json" || fail "sssp json lacks the scheduler"
grep -q 'summary: median time' "$tmp/s.err" || fail "sssp human summary on stderr"
"$bin/sssp" "$tmp/a.gr" -startNode 5 -delta 3 -t=2 --wl obim -n 1 >"$tmp/g.txt" || fail "galois flags"
grep -q "obim:delta=3" "$tmp/g.txt" || fail "-delta not applied: $(cat "$tmp/g.txt")"
grep -q "source 5 " "$tmp/g.txt" || fail "-startNode not applied"
grep -q "verification PASS" "$tmp/g.txt" || fail "verification line"
"$bin/sssp" "$tmp/a.gr" -n 1 -q --out "$tmp/r.csv"
"$bin/sssp" "$tmp/a.gr" -n 1 -q --out "$tmp/r.csv" --wl fifo
[ "$(grep -c '^algorithm,' "$tmp/r.csv")" = 1 ] || fail "csv header written once"
[ "$(wc -l <"$tmp/r.csv")" = 3 ] || fail "csv rows appended"
# --out alone: csv in the file, the human report stays on stdout
"$bin/sssp" "$tmp/a.gr" -n 1 --out "$tmp/r2.csv" >"$tmp/r2.txt"
grep -q "verification PASS" "$tmp/r2.txt" && ! grep -q '^algorithm,' "$tmp/r2.txt" ||
	fail "--out changed stdout: $(cat "$tmp/r2.txt")"
[ "$(grep -c '^sssp,' "$tmp/r2.csv")" = 1 ] || fail "--out file lacks its csv row"
set +e
"$bin/sssp" --gen road:W=8,H=8 --wl nope 2>"$tmp/e1"; st=$?
set -e
[ $st -eq 2 ] && grep -q "accepted: strict" "$tmp/e1" || fail "unknown scheduler: $st $(cat "$tmp/e1")"
set +e
"$bin/sssp" --gen road:W=8,H=8 --wl obim:chunk=0 2>"$tmp/e2"; st=$?
set -e
[ $st -eq 2 ] && grep -q "out of range" "$tmp/e2" || fail "bad parameter: $st"
"$bin/sssp" --wl help | grep -q "obim" || fail "--wl help"
# the prefetch pipeline: default depth in the records, 0 turns it off, 16 is refused
grep -q '"lookahead":9,"batch":64,' "$tmp/s.json" || fail "sssp json: default lookahead 9 and batch 64 not reported"
"$bin/sssp" --gen road:W=32,H=32 -n 1 --format json --lookahead 0 2>/dev/null | grep -q '"lookahead":0,"batch":0,.*"verify":"PASS"' ||
	fail "--lookahead 0: a pipeline or a batch"
"$bin/sssp" --gen road:W=32,H=32 -n 1 --format json --wl strict 2>/dev/null | grep -q '"lookahead":0,"batch":0,.*"verify":"PASS"' ||
	fail "strict: tasks held ahead"
"$bin/sssp" --gen road:W=32,H=32 -n 1 -t 2 --format csv --lookahead 7 --wl smq 2>/dev/null | grep -q '^sssp,.*,2,7,64,1,1,' ||
	fail "--lookahead 7 in csv"
set +e
"$bin/sssp" --gen road:W=8,H=8 --lookahead 16 2>"$tmp/e4"; st=$?
set -e
[ $st -eq 2 ] && grep -q -- "--lookahead 16: expected an integer in 0..15" "$tmp/e4" || fail "--lookahead 16: $st $(cat "$tmp/e4")"
set +e
"$bin/sssp" "$tests/malformed/gr_dup_p.gr" 2>/dev/null; st=$?
set -e
[ $st -eq 2 ] || fail "sssp on a malformed file: $st"
"$bin/sssp" --gen grid:W=30,H=30 -t 16 -n 1 -q --wl fifo || fail "16 threads"
"$bin/sssp" --gen grid:W=30,H=30 -t 2 -n 1 -q --bind compact || fail "--bind compact"
# a bound run puts its caller's CPU mask back: every trial gets the seats of the first
# (they once got one seat after the first trial, the caller pinned to one CPU)
"$bin/sssp" --gen grid:W=30,H=30 -t 2 -n 3 -q --bind compact --format json >"$tmp/b.json" ||
	fail "--bind compact, 3 trials"
seats=$(sed -n 's/.*"seats":\([0-9]*\).*/\1/p' "$tmp/b.json" | tr '\n' ' ')
want=$(($(nproc) < 2 ? $(nproc) : 2))
[ "$seats" = "$want $want $want " ] || fail "--bind compact: seats per trial $seats, expected $want each"
"$bin/sssp" --gen grid:W=30,H=30 -t 3 -n 1 -q --bind scatter || fail "--bind scatter"
set +e
OMP_PROC_BIND=close "$bin/sssp" --gen grid:W=8,H=8 --bind compact 2>"$tmp/e3"; st=$?
set -e
[ $st -eq 2 ] && grep -q "OMP_PROC_BIND" "$tmp/e3" || fail "--bind under OMP_PROC_BIND: $st"
"$bin/sssp" --gen road:W=40,H=40 -t 4 -n 1 --numa-fake 2 --wl smq:numa_k=4 >"$tmp/n.txt" ||
	fail "fake NUMA run"
grep -q "2 NUMA nodes, fake" "$tmp/n.txt" || fail "fake NUMA not reported: $(head -1 "$tmp/n.txt")"

# bfs, astar, mst: verified runs, their figures in the records, and clear errors
expect2() { # expect2 NAME PATTERN CMD...: exit status 2 and PATTERN on stderr
	name=$1 pat=$2
	shift 2
	set +e
	"$@" >/dev/null 2>"$tmp/x.err"
	st=$?
	set -e
	[ $st -eq 2 ] && grep -q -- "$pat" "$tmp/x.err" || fail "$name: status $st, $(cat "$tmp/x.err")"
}
# what ordo writes, ordo reads back as it was: a symmetric graph's .gr and .txt say so,
# and mst does not symmetrise them again (the claim is checked: a file that lost an arc
# is read as directed) (issue 44, trip 4)
"$bin/ordo-gen" road:W=30,H=30 -o "$tmp/sym.gr" >/dev/null 2>&1
"$bin/ordo-gen" road:W=30,H=30 -o "$tmp/sym.txt" >/dev/null 2>&1
for f in sym.gr sym.txt; do
	"$bin/mst" "$tmp/$f" -n 1 >/dev/null 2>"$tmp/sym.err" || fail "mst $f: $(cat "$tmp/sym.err")"
	grep -q "symmetric (as ordo wrote it; checked)" "$tmp/sym.err" && ! grep -q "not marked symmetric" "$tmp/sym.err" ||
		fail "mst on ordo's own $f: $(cat "$tmp/sym.err")"
done
lines=$(grep -vc '^#' "$tmp/sym.txt")
{ sed -n 1p "$tmp/sym.txt" | sed "s/ [0-9]* arcs/ $((lines - 1)) arcs/"; grep -v '^#' "$tmp/sym.txt" | sed '$d'; } >"$tmp/sym_cut.txt"
"$bin/ordo-convert" "$tmp/sym_cut.txt" --info 2>&1 | grep -q "the header says symmetric, but some arc lacks its reverse" ||
	fail "a symmetric claim that does not hold: $("$bin/ordo-convert" "$tmp/sym_cut.txt" --info 2>&1)"
# sssp's 32-bit labels: a graph whose distances pass them runs again in 64 bits (said,
# verified, the answer exact); --labels 32 refuses it; --labels takes auto, 32 or 64
"$bin/sssp" "$tests/fixtures/far.gr" -r 0 -n 2 -t 2 --output "$tmp/far.txt" >"$tmp/far.out" 2>&1 ||
	fail "sssp past 32-bit distances: $(cat "$tmp/far.out")"
grep -q "a distance passes 2147483646: 64-bit distances from this trial on" "$tmp/far.out" &&
	[ "$(grep -c 'verification PASS' "$tmp/far.out")" = 3 ] || fail "far.gr: $(cat "$tmp/far.out")"
grep -q "^3 2147483648$" "$tmp/far.txt" && grep -q "^4 2147483653$" "$tmp/far.txt" ||
	fail "far.gr's answer: $(cat "$tmp/far.txt")"
expect2 "sssp --labels 32 past 2^31" "--labels 32: a distance from node 0 passes 2147483646" "$bin/sssp" "$tests/fixtures/far.gr" -r 0 -n 1 --labels 32
expect2 "sssp --labels 16" "--labels 16: expected auto, 32 or 64" "$bin/sssp" "$tests/fixtures/far.gr" -n 1 --labels 16
# one rule for every tool's output path, checked before the work (issue 44, trip 10)
expect2 "ordo-gen -o DIR" "-o $tmp: a directory, not a file; give a file name" "$bin/ordo-gen" road:W=10,H=10 -o "$tmp"
expect2 "ordo-convert into a missing folder" "the folder $tmp/none does not exist (ordo creates no folders)" "$bin/ordo-convert" "$tests/fixtures/tiny.gr" -o "$tmp/none/x.ordo"
expect2 "sssp --output DIR" "--output $tmp: a directory, not a file" "$bin/sssp" "$tests/fixtures/tiny.gr" -n 1 --output "$tmp"
# options: no abbreviations, a suggestion for a misspelling, a note for more threads
# than CPUs (issue 44, trip 8)
expect2 "--thread" "write the option's whole name, --threads (ordo takes no abbreviations)" "$bin/sssp" "$tests/fixtures/tiny.gr" --thread 2
expect2 "--tirals" "unknown option '--tirals'; did you mean --trials?" "$bin/sssp" "$tests/fixtures/tiny.gr" --tirals 3
"$bin/sssp" "$tests/fixtures/tiny.gr" -n 1 -t 64 2>&1 >/dev/null | grep -q "note: 64 threads on the [0-9]* CPUs* of this process's affinity mask" ||
	[ "$(nproc)" -ge 64 ] || fail "-t 64 on $(nproc) CPUs ran without a word"
for app in bfs astar mst kcore components pagerank; do
	[ -x "$bin/$app" ] || fail "$app was not built"
	"$bin/$app" --help | grep -q -- "--wl" || fail "$app --help"
	"$bin/$app" --gen road:W=40,H=30 -n 2 -t 2 --wl smq --format json 2>"$tmp/$app.err" >"$tmp/$app.json" ||
		fail "$app run: $(cat "$tmp/$app.err")"
	[ "$(grep -c '"verify":"PASS"' "$tmp/$app.json")" = 2 ] || fail "$app json: $(cat "$tmp/$app.json")"
	grep -q '"trial":2,' "$tmp/$app.json" || fail "$app: trial is not a number"
	grep -q '"wl_steals":[0-9]' "$tmp/$app.json" || fail "$app: scheduler counters not named"
done
grep -q '"max_level":[0-9]' "$tmp/bfs.json" || fail "bfs figure max_level"
grep -q '"rounds_push":0,"rounds_pull":0' "$tmp/bfs.json" || fail "bfs with --wl runs the scheduler: $(cat "$tmp/bfs.json")"
# bfs: frontier rounds by default (a directed graph gets its transpose), each direction
"$bin/bfs" --gen rmat:scale=10,ef=8,sym=0 -n 2 -t 2 --format json >"$tmp/bfsf.json" 2>"$tmp/bfsf.err" ||
	fail "bfs frontier: $(cat "$tmp/bfsf.err")"
[ "$(grep -c '"verify":"PASS"' "$tmp/bfsf.json")" = 2 ] || fail "bfs frontier json: $(cat "$tmp/bfsf.json")"
grep -q '"rounds_push":[1-9][0-9]*,"rounds_pull":[0-9]' "$tmp/bfsf.json" || fail "bfs rounds: $(cat "$tmp/bfsf.json")"
"$bin/bfs" --gen rmat:scale=10,ef=8,sym=0 -n 1 >"$tmp/bfsf.txt" 2>&1 || fail "bfs frontier text"
grep -q "its transpose" "$tmp/bfsf.txt" || fail "bfs: the transpose is not reported: $(cat "$tmp/bfsf.txt")"
for d in auto pull rounds-push push; do
	"$bin/bfs" "$tests/fixtures/tiny.gr" --direction $d -n 2 -q --format csv >/dev/null ||
		fail "bfs --direction $d"
done
"$bin/bfs" "$tests/fixtures/tiny.gr" --direction pull -n 1 --format json |
	grep -q '"rounds_push":0,"rounds_pull":[1-9]' || fail "bfs --direction pull went push"
# --out naming a directory is refused before the graph is loaded (issue 31, item 3)
expect2 "--out a directory" "a directory, not a file" "$bin/sssp" --gen road:W=20,H=20 -n 1 --out "$tmp"
grep -q "generated\|loaded" "$tmp/x.err" && fail "--out a directory: the graph was loaded first: $(cat "$tmp/x.err")"
expect2 "bfs --direction bogus" "expected auto, push, pull or rounds-push" "$bin/bfs" "$tests/fixtures/tiny.gr" --direction up
expect2 "bfs --direction twice" "given twice" "$bin/bfs" "$tests/fixtures/tiny.gr" --direction pull --direction push
expect2 "bfs --alpha 0" "expected a number > 0" "$bin/bfs" "$tests/fixtures/tiny.gr" --alpha 0
# a long strip: small push rounds, handed over at round 32 on one thread (to a queue),
# on two only when asked (to the scheduler), never with --handoff-round 0
"$bin/bfs" --gen road:W=300,H=8 -n 1 -t 1 --format json | grep -q '"rounds_push":32,"rounds_pull":0,"handed_off":[1-9].*"verify":"PASS"' ||
	fail "bfs on a strip at 1 thread did not hand off at round 32"
"$bin/bfs" --gen road:W=300,H=8 -n 1 -t 2 --handoff-round 32 --format json | grep -q '"rounds_push":32,"rounds_pull":0,"handed_off":[1-9].*"verify":"PASS"' ||
	fail "bfs on a strip at 2 threads with --handoff-round 32 did not hand off at round 32"
"$bin/bfs" --gen road:W=300,H=8 -n 1 -t 2 --format json | grep -q '"handed_off":0,"verify":"PASS"' ||
	fail "bfs on a strip at 2 threads handed off by default"
"$bin/bfs" --gen road:W=300,H=8 -n 1 -t 1 --handoff-round 0 --format json | grep -q '"handed_off":0,"verify":"PASS"' ||
	fail "bfs --handoff-round 0 handed off"
expect2 "bfs --handoff-round -1" "handoff-round" "$bin/bfs" "$tests/fixtures/tiny.gr" --handoff-round -1
grep -q '"target":[0-9]*,.*"distance":[0-9]' "$tmp/astar.json" || fail "astar target and distance"
grep -q '"forest_weight":[0-9]*,"forest_edges":1199,"components":1,' "$tmp/mst.json" || fail "mst figures: $(cat "$tmp/mst.json")"
grep -q '"source":null' "$tmp/mst.json" || fail "mst has no source"
grep -q '"degeneracy":[0-9]*,"max_core_size":[0-9]' "$tmp/kcore.json" || fail "kcore figures: $(cat "$tmp/kcore.json")"
# '-' reads standard input, sniffed from the same stream (a pipe cannot be opened twice)
zstd -dc "$tests/fixtures/tiny.gr.zst" | "$bin/sssp" - -n 1 -r 0 --format json 2>"$tmp/stdin.err" |
	grep -q '"verify":"PASS"' || fail "sssp - from a pipe: $(cat "$tmp/stdin.err")"
# a GAPBS file that says undirected but is not: read as directed, said so, k-core 1 (not 4)
"$bin/kcore" "$tests/fixtures/undirected_liar.sg" -n 1 --format json >"$tmp/liar.json" 2>"$tmp/liar.err" ||
	fail "kcore on undirected_liar.sg: $(cat "$tmp/liar.err")"
grep -q '"degeneracy":1,' "$tmp/liar.json" || fail "kcore of undirected_liar.sg: $(cat "$tmp/liar.json")"
grep -q "the file says undirected, but some arc lacks its reverse" "$tmp/liar.err" ||
	fail "the undirected claim's note: $(cat "$tmp/liar.err")"
# kcore: peeling by default (work counted in nodes + arcs), bounds with --algo or --wl
"$bin/kcore" --gen rmat:scale=10,ef=8 -n 1 -t 2 2>&1 | grep -q "level-synchronous peeling" || fail "kcore does not peel by default"
"$bin/kcore" --gen rmat:scale=10,ef=8 -n 1 -t 2 --format json | grep -q '"verify":"PASS"' || fail "kcore peel"
"$bin/kcore" --gen rmat:scale=10,ef=8 -n 1 --algo bounds 2>&1 | grep -q "level-synchronous" && fail "kcore --algo bounds peeled"
expect2 "--seats bogus" "expected auto, adapt, all or a count in 1..4096" "$bin/sssp" --gen road:W=20,H=20 -n 1 --seats 0
# seats: 4 workers, 1 running at a time, verified; with a budget of its own the same
"$bin/sssp" --gen road:W=48,H=48 -n 1 -t 4 --seats 1 --format json 2>/dev/null |
	grep -q '"seats":1,.*"verify":"PASS"' || fail "--seats 1: not verified or not reported"
"$bin/sssp" --gen road:W=48,H=48 -n 1 -t 4 --seats all --format json 2>/dev/null |
	grep -q '"seats":4,"seats_end":4,"parks":0,' || fail "--seats all: workers parked"
"$bin/sssp" --gen road:W=48,H=48 -n 2 -t 2 --coop-name "ordo-cli-test-$$" --format json 2>/dev/null |
	grep -c '"verify":"PASS"' | grep -q '^2$' || fail "--coop: two verified trials"
rm -f "/dev/shm/ordo-cli-test-$$"
"$bin/sssp" --gen road:W=20,H=20 -n 1 --wl reld --seats 1 2>&1 >/dev/null |
	grep -q "reld cannot hand a worker's tasks over" || fail "--seats with reld: no note"
expect2 "kcore --algo bogus" "expected peel or bounds" "$bin/kcore" --gen rmat:scale=8,ef=4 --algo up
# components: Afforest by default (work in nodes + arcs), label propagation with --algo lp or
# --wl; its figures; a bad --algo or --rounds is refused by name
"$bin/components" --gen rmat:scale=10,ef=4 -n 1 -t 2 2>&1 | grep -q "components: Afforest" || fail "components does not run Afforest by default"
"$bin/components" --gen rmat:scale=10,ef=4 -n 1 -t 2 --rounds 0 --format json | grep -q '"components":[0-9]*,"largest":[0-9]*,"verify":"PASS"' || fail "components --rounds 0"
"$bin/components" --gen rmat:scale=10,ef=4 -n 1 --algo lp 2>&1 | grep -q "Afforest" && fail "components --algo lp ran Afforest"
"$bin/components" --gen road:W=20,H=10 -n 1 --wl fifo --format json | grep -q '"components":1,"largest":200,"verify":"PASS"' || fail "components --wl fifo on a road"
# pagerank: its real figure in the records, its options refused by name
"$bin/pagerank" --gen rmat:scale=9,ef=4 -n 1 -t 2 --tolerance 1e-3 --format json | grep -q '"l1_error":[0-9.e-]*,"reference_iterations":[0-9]*,"verify":"PASS"' || fail "pagerank's record"
# a bucket width that gives every residual its own bucket is said, once; the app's own is not
[ "$("$bin/pagerank" --gen rmat:scale=8,ef=4 --wl obim:delta=10 -n 2 2>&1 | grep -c "every residual gets a bucket of its own")" = 1 ] || fail "pagerank: no note on obim:delta=10"
"$bin/pagerank" --gen rmat:scale=8,ef=4 --wl obim -n 1 2>&1 | grep -q "bucket of its own" && fail "pagerank: a note on obim's delta=56"
expect2 "pagerank --damping 1" "--damping 1: expected a number in (0, 1)" "$bin/pagerank" --gen rmat:scale=8,ef=4 --damping 1
expect2 "pagerank --tolerance x" "--tolerance x: expected a number > 0" "$bin/pagerank" --gen rmat:scale=8,ef=4 --tolerance x
expect2 "pagerank --omega 2" "--omega 2: expected a number in (0, 2)" "$bin/pagerank" --gen rmat:scale=8,ef=4 --omega 2
expect2 "pagerank --omega 0" "--omega 0: expected a number > 0" "$bin/pagerank" --gen rmat:scale=8,ef=4 --omega 0
# an over-relaxation past convergence: the sweeps fall back to Gauss-Seidel, say so, and pass
"$bin/pagerank" --gen rmat:scale=10,ef=8 -n 1 --omega 1.95 --tolerance 1e-6 2>&1 | grep -q "went on as plain Gauss-Seidel" || fail "pagerank --omega 1.95: no note of the fallback"
"$bin/pagerank" --gen rmat:scale=10,ef=8 -n 1 --omega 1.95 --tolerance 1e-6 --format json 2>/dev/null | grep -q '"verify":"PASS"' || fail "pagerank --omega 1.95 did not pass"
expect2 "components --algo bogus" "expected afforest or lp" "$bin/components" --gen rmat:scale=8,ef=4 --algo up
expect2 "components --rounds 99" "--rounds" "$bin/components" --gen rmat:scale=8,ef=4 --rounds 99
# A*: a fixed pair, the Galois spellings, the heuristic's report
"$bin/astar" "$tmp/a.gr" --coords "$tmp/a.co" -startNode 0 -destNode 10799 -n 1 >"$tmp/as.txt" || fail "astar fixed pair"
grep -q "source 0 target 10799" "$tmp/as.txt" || fail "astar pair not used: $(cat "$tmp/as.txt")"
grep -q "consistent up to" "$tmp/as.txt" || fail "astar heuristic scale not reported"
"$bin/astar" "$tmp/a.gr" --coords "$tmp/a.co" -r 0 --target 10799 -n 1 --heuristic-scale 1000 >"$tmp/as2.txt" 2>&1 || true
grep -q "NOT consistent" "$tmp/as2.txt" && grep -q "NOT admissible for target 10799" "$tmp/as2.txt" ||
	fail "astar override not judged: $(cat "$tmp/as2.txt")"
"$bin/astar" "$tmp/a.gr" --coords "$tmp/a.co" --pairs 2 -n 4 -q --format json >"$tmp/pairs.json" || fail "astar --pairs"
grep -o '"source":[0-9]*,"target":[0-9]*' "$tmp/pairs.json" >"$tmp/pairs.txt"
[ "$(sed -n 1p "$tmp/pairs.txt")" = "$(sed -n 3p "$tmp/pairs.txt")" ] && [ "$(sed -n 1p "$tmp/pairs.txt")" != "$(sed -n 2p "$tmp/pairs.txt")" ] ||
	fail "--pairs 2 does not cycle through two pairs: $(cat "$tmp/pairs.txt")"
expect2 "astar without coordinates" "^astar: .*tiny.gr has no node coordinates, and this app needs them" "$bin/astar" "$tests/fixtures/tiny.gr" --no-coords
# a DIMACS .gr brings its sibling .co (as ordo-convert writes them), and says so
"$bin/astar" "$tests/fixtures/tiny.gr" -n 1 >"$tmp/sib.out" 2>&1 || fail "astar with the sibling .co: $(cat "$tmp/sib.out")"
grep -q "coordinates from .*tiny.co" "$tmp/sib.out" || fail "sibling .co not reported: $(cat "$tmp/sib.out")"
grep -q "verification PASS" "$tmp/sib.out" || fail "astar with the sibling .co did not verify"
cp "$tests/fixtures/tiny.gr" "$tmp/sib.gr"
cp "$tests/malformed/co_count.co" "$tmp/sib.co"
expect2 "a broken sibling .co" "sibling coordinate file of .*--no-coords skips it" "$bin/sssp" "$tmp/sib.gr" -n 1
rm -f "$tmp/sib.gr" "$tmp/sib.co" "$tmp/sib.out"
# options that would be ignored are errors naming them
expect2 "--id-map alone" "in its input's order .*no ids to map" "$bin/sssp" "$tests/fixtures/tiny.gr" --id-map "$tmp/map.txt"
expect2 "--compact-ids on DIMACS" "compact-ids renumbers edge-list ids" "$bin/sssp" "$tests/fixtures/tiny.gr" --compact-ids
expect2 "--mtx-real on DIMACS" "mtx-real applies to Matrix Market" "$bin/ordo-convert" "$tests/fixtures/tiny.gr" "$tmp/x.ordo" --mtx-real round
expect2 "two weight sources" "choose one" "$bin/sssp" "$tests/fixtures/tiny.gr" --random-weights 1:9 --weights-from-coords
[ ! -e "$tmp/map.txt" ] && [ ! -e "$tmp/x.ordo" ] || fail "a refused run left a file"
expect2 "astar, wrong coordinate count" "expected 5 coordinate lines" "$bin/astar" "$tests/fixtures/tiny.gr" --coords "$tests/malformed/co_count.co"
expect2 "astar, target out of range" "target 5: the graph has nodes 0..4" "$bin/astar" "$tests/fixtures/tiny.gr" --coords "$tests/fixtures/tiny.co" -r 0 --target 5
expect2 "astar, source alone" "give --source and --target together" "$bin/astar" "$tests/fixtures/tiny.gr" --coords "$tests/fixtures/tiny.co" -r 0
expect2 "astar, bad scale" "heuristic-scale -1" "$bin/astar" --heuristic-scale -1
expect2 "bfs, source out of range" "source 9: the graph has nodes 0..4" "$bin/bfs" "$tests/fixtures/tiny.gr" -r 9
# MST: a directed input is symmetrised (and said), an unweighted one needs weights
"$bin/mst" "$tests/fixtures/tiny.gr" -n 1 >"$tmp/m.txt" 2>"$tmp/m.err" || fail "mst on tiny.gr: $(cat "$tmp/m.err")"
grep -q "symmetrised" "$tmp/m.err" || fail "mst does not say it symmetrised: $(cat "$tmp/m.err")"
grep -q "forest_weight 10 .*forest_edges 4 .*components 1 .*verification PASS" "$tmp/m.txt" || fail "mst on tiny: $(cat "$tmp/m.txt")"
grep -q "strict on one thread" "$tmp/m.txt" || fail "mst's work denominator not explained"
expect2 "mst, unweighted" "^mst: .*sparse.txt has no arc weights, and this app needs them" "$bin/mst" "$tests/fixtures/sparse.txt"
# refused before it is symmetrised (issue 31, item 11)
! "$bin/mst" "$tests/fixtures/sparse.txt" 2>&1 | grep -q "symmetrised" || fail "mst symmetrised before refusing an unweighted input"
"$bin/mst" "$tests/fixtures/sparse.txt" --random-weights 1:9 -n 1 -q || fail "mst with --random-weights"
# --out: the format follows the extension, other formats or apps are refused
"$bin/bfs" --gen road:W=20,H=20 -n 1 -q --out "$tmp/b.jsonl" && grep -q '^{"algorithm":"bfs"' "$tmp/b.jsonl" || fail "--out .jsonl"
expect2 "--out json file as csv" "holds json records" "$bin/bfs" --gen road:W=20,H=20 -n 1 --out "$tmp/b.jsonl" --format csv
"$bin/bfs" --gen road:W=20,H=20 -n 1 -q --out "$tmp/b.csv"
expect2 "--out another app's csv" "header is not mst's" "$bin/mst" --gen road:W=20,H=20 -n 1 --out "$tmp/b.csv"
set +e
"$bin/bfs" --gen road:W=20,H=20 -n 1 --out "$tmp/nodir/x.csv" 2>"$tmp/x.err"; st=$?
set -e
[ $st -eq 3 ] && grep -q "cannot create it in .*: No such file or directory" "$tmp/x.err" || fail "--out in a missing directory: $st $(cat "$tmp/x.err")"
"$bin/bfs" "$tests/malformed/gr_dup_p.gr" --out "$tmp/never.csv" 2>/dev/null && fail "malformed input accepted"
[ ! -e "$tmp/never.csv" ] || fail "a run that failed before its first trial left $tmp/never.csv"
# --compress: a compressed .ordo says so, loads compressed without the flag, every app
# verifies on it, and it converts back to the same arcs
"$bin/ordo-convert" "$tests/fixtures/tiny.gr" --compress -o "$tmp/c.ordo" --no-coords 2>/dev/null || fail "convert --compress"
"$bin/ordo-convert" "$tmp/c.ordo" --info >"$tmp/ci.txt" 2>/dev/null || fail "--info on a compressed .ordo"
grep -q "compressed CSR .* bytes per arc" "$tmp/ci.txt" || fail "--info does not report the compressed CSR: $(cat "$tmp/ci.txt")"
for app in sssp bfs mst kcore components pagerank; do
	"$bin/$app" "$tmp/c.ordo" -n 1 >"$tmp/c.txt" 2>"$tmp/c.err" || fail "$app on a compressed .ordo: $(cat "$tmp/c.err")"
	grep -q "verification PASS" "$tmp/c.txt" || fail "$app on a compressed .ordo: $(cat "$tmp/c.txt")"
	grep -q "compressed CSR" "$tmp/c.err" || fail "$app does not say the graph is compressed"
done
"$bin/sssp" --gen road:W=30,H=20 --compress -n 1 2>"$tmp/g.err" | grep -q "verification PASS" || fail "sssp --gen --compress"
grep -q "compressed CSR" "$tmp/g.err" || fail "a generated graph does not say it is compressed: $(cat "$tmp/g.err")"
"$bin/ordo-convert" "$tmp/c.ordo" -o "$tmp/back.txt" 2>/dev/null || fail "compressed .ordo to an edge list"
"$bin/ordo-convert" "$tests/fixtures/tiny.gr" -o "$tmp/orig.txt" 2>/dev/null
[ "$(grep -v '^#' "$tmp/back.txt" | sort)" = "$(grep -v '^#' "$tmp/orig.txt" | sort)" ] || fail "compressed round trip changed the arcs"
# --mappable: plain and compressed, every app verifies on the mapped graph and says it
# is mapped; --verify-mapped finds a changed weight; only native outputs can be mappable
"$bin/ordo-gen" road:W=30,H=20 -o "$tmp/mp.ordo" --mappable 2>/dev/null || fail "ordo-gen --mappable"
"$bin/ordo-convert" "$tmp/mp.ordo" --compress --mappable -o "$tmp/mc.ordo" 2>/dev/null || fail "convert --compress --mappable"
for f in mp mc; do
	"$bin/ordo-convert" "$tmp/$f.ordo" --info 2>/dev/null | grep -q "mapped from a mappable file" || fail "--info on $f.ordo does not say mapped"
	for app in sssp bfs astar mst kcore components pagerank; do
		"$bin/$app" "$tmp/$f.ordo" -n 1 >"$tmp/m.txt" 2>"$tmp/m.err" || fail "$app on $f.ordo: $(cat "$tmp/m.err")"
		grep -q "verification PASS" "$tmp/m.txt" || fail "$app on $f.ordo: $(cat "$tmp/m.txt")"
		grep -q "; mapped (" "$tmp/m.err" || fail "$app does not say $f.ordo is mapped: $(cat "$tmp/m.err")"
	done
done
"$bin/ordo-convert" "$tmp/mp.ordo" -o "$tmp/mz.ordo" 2>/dev/null
"$bin/ordo-gen" road:W=30,H=20 -o "$tmp/gz.ordo" 2>/dev/null
cmp -s "$tmp/mz.ordo" "$tmp/gz.ordo" || fail "a mappable file does not convert back to the generator's file"
# a weight changed: section 2's first frame entry gives where its data starts
table=$(od -An -tu8 -j $((128 + 48 * 2 + 24)) -N8 "$tmp/mp.ordo" | tr -d ' ')
at=$(od -An -tu8 -j "$table" -N8 "$tmp/mp.ordo" | tr -d ' ')
cp "$tmp/mp.ordo" "$tmp/mbad.ordo"
printf '\377' | dd of="$tmp/mbad.ordo" bs=1 seek=$((at + 41)) conv=notrunc 2>/dev/null
"$bin/sssp" "$tmp/mbad.ordo" -n 1 >/dev/null 2>&1 || fail "a changed weight is a valid graph, checksums unread"
set +e
"$bin/sssp" "$tmp/mbad.ordo" -n 1 --verify-mapped >/dev/null 2>"$tmp/x.err"; st=$?
set -e
[ $st -ne 0 ] && grep -q "section 2: checksum mismatch" "$tmp/x.err" || fail "--verify-mapped: $st $(cat "$tmp/x.err")"
expect2 "--mappable to a text format" "only a native (.ordo) output can be mapped" "$bin/ordo-convert" "$tmp/mp.ordo" -o "$tmp/x.gr" --mappable
[ ! -e "$tmp/x.gr" ] || fail "a refused --mappable left its output"
# --reorder: a renumbered graph answers every query as its input does, in input ids
"$bin/ordo-gen" road:W=40,H=30,seed=2 -o "$tmp/rd.ordo" 2>/dev/null
for order in rcm bfs degree hilbert; do
	"$bin/ordo-convert" "$tmp/rd.ordo" --reorder $order -o "$tmp/rd-$order.ordo" 2>"$tmp/r.err" || fail "--reorder $order: $(cat "$tmp/r.err")"
	grep -q "renumbered in $order order" "$tmp/r.err" || fail "--reorder $order is not said: $(cat "$tmp/r.err")"
	"$bin/ordo-convert" "$tmp/rd-$order.ordo" --info 2>/dev/null | grep -q "node order renumbered" || fail "--info on a renumbered graph"
	for app in sssp bfs astar; do
		# (sssp's "leaves:" line carries the time its search took)
		"$bin/$app" "$tmp/rd.ordo" -n 3 2>/dev/null | grep "^trial\|reached\|distance" | grep -v "^leaves:" >"$tmp/a0.txt"
		"$bin/$app" "$tmp/rd-$order.ordo" -n 3 2>/dev/null | grep "^trial\|reached\|distance" | grep -v "^leaves:" >"$tmp/a1.txt"
		[ "$(sed 's/time.*//' "$tmp/a0.txt")" = "$(sed 's/time.*//' "$tmp/a1.txt")" ] || fail "$app on a $order-renumbered graph: $(cat "$tmp/a0.txt" "$tmp/a1.txt")"
		grep -q "verification PASS" "$tmp/a1.txt" || fail "$app on a $order-renumbered graph did not verify"
	done
	"$bin/sssp" "$tmp/rd-$order.ordo" -r 77 -n 1 2>/dev/null | grep -q "^trial 1: source 77 " || fail "--source is not an input id"
	"$bin/mst" "$tmp/rd-$order.ordo" -n 1 2>/dev/null | grep -o "forest_weight [0-9]*" >"$tmp/m1.txt"
	"$bin/mst" "$tmp/rd.ordo" -n 1 2>/dev/null | grep -o "forest_weight [0-9]*" >"$tmp/m0.txt"
	cmp -s "$tmp/m0.txt" "$tmp/m1.txt" || fail "mst on a $order-renumbered graph"
done
"$bin/astar" "$tmp/rd-rcm.ordo" -r 0 --target 1199 -n 1 2>/dev/null | grep -o "distance [0-9]*" >"$tmp/s1.txt"
"$bin/astar" "$tmp/rd.ordo" -r 0 --target 1199 -n 1 2>/dev/null | grep -o "distance [0-9]*" >"$tmp/s0.txt"
[ -s "$tmp/s0.txt" ] && cmp -s "$tmp/s0.txt" "$tmp/s1.txt" || fail "astar --source/--target on a renumbered graph"
"$bin/sssp" --gen road:W=30,H=20 --reorder hilbert --compress -n 1 2>"$tmp/g.err" | grep -q "verification PASS" || fail "sssp --gen --reorder --compress"
grep -q "renumbered in hilbert" "$tmp/g.err" || fail "a generated graph does not say it was renumbered"
"$bin/ordo-convert" "$tmp/rd-rcm.ordo" -o "$tmp/rd-rcm.gr" --no-coords 2>"$tmp/r.err"
grep -q "only the native format keeps their input ids" "$tmp/r.err" || fail "no note that a text output loses the input ids"
# --id-map of a renumbered graph: "new old" pairs, the same from --reorder and from the
# renumbered file
"$bin/ordo-convert" "$tmp/rd.ordo" --reorder rcm --id-map "$tmp/map1.txt" -o "$tmp/rd2.gr" --no-coords 2>/dev/null
"$bin/ordo-convert" "$tmp/rd-rcm.ordo" --id-map "$tmp/map2.txt" --info >/dev/null 2>&1
[ "$(grep -v '^#' "$tmp/map1.txt")" = "$(grep -v '^#' "$tmp/map2.txt")" ] || fail "--id-map differs between --reorder and the renumbered file"
[ "$(grep -vc '^#' "$tmp/map1.txt")" = 1200 ] || fail "--id-map has not one line per node"
[ "$(grep -v '^#' "$tmp/map1.txt" | cut -d' ' -f2 | sort -n | uniq | wc -l)" = 1200 ] || fail "--id-map is not a permutation"
# the DIMACS file in the new order, read back and renumbered by the map, is the input
new0=$(awk '!/^#/ && $2 == 0 {print $1}' "$tmp/map1.txt")
"$bin/sssp" "$tmp/rd2.gr" -r "$new0" -n 1 2>/dev/null | grep -o "max_dist [0-9]*" >"$tmp/d1.txt"
"$bin/sssp" "$tmp/rd.ordo" -r 0 -n 1 2>/dev/null | grep -o "max_dist [0-9]*" >"$tmp/d0.txt"
[ -s "$tmp/d0.txt" ] && cmp -s "$tmp/d0.txt" "$tmp/d1.txt" || fail "source by the id map"
# sparse ids (--compact-ids) stay the input's ids: in -r, the answer file and the id map,
# also through a renumbering and a native file
"$bin/sssp" "$tests/fixtures/sparse.txt" --compact-ids --reorder bfs --id-map "$tmp/map3.txt" -r 20 -n 1 -q --output "$tmp/sp.txt" 2>/dev/null || fail "sssp on sparse ids from 20"
[ "$(grep -v '^#' "$tmp/map3.txt" | cut -d' ' -f2 | sort -n | tr '\n' ' ')" = "10 20 1000 " ] || fail "--id-map with --compact-ids and --reorder does not list the file's ids"
[ "$(grep -v '^#' "$tmp/sp.txt" | tr '\n' ' ')" = "10 unreached 20 0 1000 1 " ] || fail "the answer file of sparse ids: $(cat "$tmp/sp.txt")"
grep -q "source 20" "$tmp/sp.txt" || fail "the answer file names the sparse source id"
"$bin/ordo-convert" "$tests/fixtures/sparse.txt" --compact-ids -o "$tmp/sp.ordo" 2>/dev/null || fail "convert sparse ids"
"$bin/ordo-convert" "$tmp/sp.ordo" --info 2>/dev/null | grep -q "sparse input ids 10..1000 kept" || fail "--info of a native file with sparse ids"
"$bin/bfs" "$tmp/sp.ordo" -r 10 -n 1 -q --output "$tmp/spb.txt" 2>/dev/null || fail "bfs on a native file with sparse ids"
[ "$(grep -v '^#' "$tmp/spb.txt" | tr '\n' ' ')" = "10 0 20 1 1000 2 " ] || fail "bfs answer of sparse ids: $(cat "$tmp/spb.txt")"
expect2 "-r of an id the sparse graph lacks" "no node has that id" "$bin/sssp" "$tmp/sp.ordo" -r 2
expect2 "--reorder bogus" "expected rcm, bfs, degree or hilbert" "$bin/ordo-convert" "$tmp/rd.ordo" --reorder bogus -o "$tmp/x.ordo"
# ordo-convert refuses to replace its own input, and an extension that names no format
# (issue 31, item 4); --to names the format of any file name
cp "$tests/fixtures/tiny.gr" "$tmp/self.gr"
expect2 "convert onto its input" "is the input itself" "$bin/ordo-convert" "$tmp/self.gr" -o "$tmp/self.gr" --random-weights 100:200
cmp -s "$tests/fixtures/tiny.gr" "$tmp/self.gr" || fail "convert onto its input changed it"
ln -s "$tmp/self.gr" "$tmp/link.gr"
expect2 "convert onto its input by a link" "is the input itself" "$bin/ordo-convert" "$tmp/self.gr" -o "$tmp/link.gr"
expect2 "convert to an unknown extension" "names no format" "$bin/ordo-convert" "$tmp/self.gr" -o "$tmp/out.foo"
[ ! -e "$tmp/out.foo" ] || fail "an unknown extension still wrote a file"
"$bin/ordo-convert" "$tmp/self.gr" -o "$tmp/out.foo" --to edgelist 2>/dev/null || fail "--to edgelist with any name"
"$bin/ordo-convert" "$tmp/out.foo" --info 2>/dev/null | grep -q "nodes 5$" || fail "the --to edgelist output"
"$bin/ordo-convert" "$tmp/self.gr" -o "$tmp/out.el.zst" 2>/dev/null || fail "a compressed .el is an edge list"
expect2 "--reorder hilbert without coordinates" "needs node coordinates" "$bin/sssp" "$tests/fixtures/sparse.txt" --reorder hilbert
expect2 "--reorder with --spill-dir" "drop one of them" "$bin/sssp" "$tests/fixtures/tiny.gr" --compress --spill-dir "$tmp" --reorder rcm
[ ! -e "$tmp/x.ordo" ] || fail "a refused --reorder left a file"
# a Matrix Market file declared symmetric is marked so: apps do not symmetrise it again,
# and -s does not double its arcs (issue 31, item 5)
"$bin/ordo-convert" "$tests/fixtures/sym.mtx" -s --info 2>/dev/null >"$tmp/sym.info"
grep -q "arcs 4$" "$tmp/sym.info" && grep -q "symmetric$" "$tmp/sym.info" || fail "symmetric mtx: $(cat "$tmp/sym.info")"
"$bin/mst" "$tests/fixtures/sym.mtx" --random-weights 1:9 -n 1 >"$tmp/sym.out" 2>&1 || fail "mst on a symmetric mtx: $(cat "$tmp/sym.out")"
! grep -q "not marked symmetric" "$tmp/sym.out" || fail "a symmetric mtx was symmetrised again"
grep -q "symmetric (declared by the file)" "$tmp/sym.out" || fail "the load line does not say the file declared it symmetric"
# a baseline too short to time gives no speedup figure (issue 31, item 13)
# a generated R-MAT compressed straight away, its packed arcs waiting in a spill file
"$bin/sssp" --gen rmat:scale=12,ef=8 --compress --spill-dir "$tmp" -n 1 >"$tmp/spill.out" 2>&1 || fail "gen + spill: $(cat "$tmp/spill.out")"
grep -q "MiB of packed arcs spilled to" "$tmp/spill.out" && grep -q "verification PASS" "$tmp/spill.out" || fail "gen + spill: $(cat "$tmp/spill.out")"
expect2 "--spill-dir without --compress for a generator" "add --compress" "$bin/sssp" --gen rmat:scale=10 --spill-dir "$tmp"
# a generated graph is prepared as a file is (ordo_graph_prepare): a directed R-MAT
# symmetrised, weighed at random, renumbered and compressed, verified
"$bin/sssp" --gen rmat:scale=10,ef=4,sym=0 --symmetrize --random-weights 1:9 --reorder rcm --compress -n 1 >"$tmp/gprep.out" 2>&1 ||
	fail "gen + preparation: $(cat "$tmp/gprep.out")"
grep -q "random weights; nodes renumbered in rcm order" "$tmp/gprep.out" && grep -q "compressed CSR" "$tmp/gprep.out" &&
	grep -q "verification PASS" "$tmp/gprep.out" || fail "gen + preparation: $(cat "$tmp/gprep.out")"
expect2 "--coords for a generator" "applies to input files, not to a generated graph" "$bin/sssp" --gen rmat:scale=8 --coords "$tmp/x.co"
# (the baseline's time varies: the rule is checked on whichever side of 1 ms it fell)
"$bin/mst" --gen grid:W=2,H=2 -n 1 >"$tmp/tiny.out" 2>&1
line=$(grep summary "$tmp/tiny.out")
base=$(echo "$line" | sed -n 's/.*(baseline \([0-9.]*\) s.*/\1/p')
if [ "$base" = 0.0010 ]; then
	: # printed rounded: either side of 1 ms
elif awk "BEGIN { exit !($base < 0.001) }"; then
	echo "$line" | grep -q "speedup vs sequential baseline - (baseline 0.0[0-9]* s, too short to time)" || fail "tiny baseline: $line"
else
	echo "$line" | grep -q "speedup vs sequential baseline [0-9.]*x (baseline [0-9.]* s; median baseline over median time)" || fail "a timed baseline without its speedup, or without saying what it is: $line"
fi
# repeated or conflicting options are refused in every binary (issue 31, item 9); errors
# name the program, not its path, and say what an app does not take
expect2 "-t twice" "^sssp: --threads given twice" "$bin/sssp" -t 1 -t 2
expect2 "--format twice" "^bfs: --format given twice" "$bin/bfs" --format csv --format json
expect2 "--verify and --no-verify" "give --verify or --no-verify, not both" "$bin/sssp" --no-verify --verify
expect2 "-startNode twice" "^sssp: --source given twice" "$bin/sssp" -startNode 1 -startNode 2
expect2 "ordo-gen -o twice" "^ordo-gen: --output given twice" "$bin/ordo-gen" road:W=4,H=4 -o "$tmp/x1.ordo" -o "$tmp/y1.ordo"
[ ! -e "$tmp/x1.ordo" ] && [ ! -e "$tmp/y1.ordo" ] || fail "ordo-gen -o twice wrote a file"
expect2 "ordo-convert -t twice" "^ordo-convert: --threads given twice" "$bin/ordo-convert" "$tests/fixtures/tiny.gr" --info -t 1 -t 2
expect2 "mst -r" "^mst: no source or target here" "$bin/mst" -r 3
expect2 "kcore --source" "^kcore: unknown option '--source'" "$bin/kcore" --source 3
expect2 "bfs --target" "^bfs: a source only" "$bin/bfs" --target 3
expect2 "--threads without a value" "^sssp: --threads needs a value" "$bin/sssp" --threads
# --delta where the scheduler has none: said, not silently dropped
"$bin/bfs" --gen road:W=10,H=10 --wl smq -d 4 -n 1 >/dev/null 2>"$tmp/d.err"
grep -q "^bfs: note: --delta 4 is not used: smq has no delta parameter" "$tmp/d.err" || fail "-d with smq: $(cat "$tmp/d.err")"
# a scheduler named alone takes the app's parameters: bfs's OBIM buckets levels one by
# one; the spec and -d still win (issue 31, item 6)
for case in "obim|obim:delta=0," "pmod|pmod:delta=0," "obim:delta=5|obim:delta=5," "obim -d 3|obim:delta=3,"; do
	args=${case%%|*} want=${case#*|}
	# shellcheck disable=SC2086
	"$bin/bfs" --gen road:W=10,H=10 --wl $args -n 1 --format csv 2>/dev/null >"$tmp/wl.csv"
	grep -q "$want" "$tmp/wl.csv" || fail "bfs --wl $args: expected $want in $(tail -1 "$tmp/wl.csv")"
done
# the records' fields listed in algorithms/APPS.md are the CSV header, and its
# scheduler columns are the counters --wl help lists (issue 44, trip 5)
apps_md=$tests/../algorithms/APPS.md
doc=$(awk '/^Each trial is one record/ {f = 1} f {print} f && /`thread_\*`/ {exit}' "$apps_md" |
	tr '\n' ' ' | sed 's/.*with the fields `\([^`]*\)`.*/\1/' | tr -s ' ')
[ -n "$doc" ] || fail "no field list found in $apps_md"
"$bin/sssp" --gen road:W=10,H=10 -n 1 --format csv 2>/dev/null | head -n 1 | tr , ' ' >"$tmp/hdr"
want="$doc reached max_dist verify mismatches first_mismatch work_counters"
case "$(cat "$tmp/hdr")" in
"$want "*) ;;
*) fail "APPS.md's record fields are not the CSV header: doc '$want', header '$(cat "$tmp/hdr")'" ;;
esac
wl_cols=$(sed "s/^$want //" "$tmp/hdr" | tr ' ' '\n' | sort)
help_cols=$("$bin/sssp" --wl help | sed -n 's/^ *counters *//p' | tr ' ' '\n' | grep . | sort -u)
[ "$wl_cols" = "$help_cols" ] || fail "the CSV's scheduler columns are not --wl help's counters: '$wl_cols' against '$help_cols'"
# bfs and kcore at their defaults run rounds of their own: the report names no
# scheduler and prints none of its counters; with --wl they run it (issue 44, trip 3)
"$bin/kcore" --gen road:W=10,H=10 -n 1 >"$tmp/k.txt" 2>&1
grep -q "with no scheduler (below)" "$tmp/k.txt" || fail "kcore's header names a scheduler: $(head -2 "$tmp/k.txt")"
! grep -q "smq\|steals" "$tmp/k.txt" || fail "kcore's peeling report speaks of SMQ: $(cat "$tmp/k.txt")"
"$bin/kcore" --gen road:W=10,H=10 -n 1 --wl smq >"$tmp/k.txt" 2>&1
grep -q "with smq:" "$tmp/k.txt" && grep -q "steals" "$tmp/k.txt" || fail "kcore --wl smq: $(cat "$tmp/k.txt")"
"$bin/bfs" --gen road:W=10,H=10 -n 1 -t 2 --format csv >"$tmp/b.csv" 2>"$tmp/b.err"
grep -q "with no scheduler (below)" "$tmp/b.err" || fail "bfs's header names a scheduler: $(head -2 "$tmp/b.err")"
"$bin/bfs" --gen road:W=10,H=10 -n 1 -t 2 --direction push 2>&1 | grep -q "with obim:delta=0," || fail "bfs --direction push names no scheduler"
# sssp's delta, when nothing sets it, comes from the graph, and the report says so
# (issue 48, item 3); the spec's, -d's and a scheduler without one are left alone
"$bin/sssp" --gen road:W=10,H=10 -n 1 --format csv >"$tmp/h.csv" 2>"$tmp/h.err"
hd=$(sed -n 's/^delta \([0-9]*\) from the graph: mean weight [0-9.]*, mean degree [0-9.]*, a 1024-node ball [0-9]* levels deep (.*); --delta D .*/\1/p' "$tmp/h.err")
[ -n "$hd" ] || fail "sssp does not say its delta from the graph: $(cat "$tmp/h.err")"
grep -q "obim:delta=$hd," "$tmp/h.csv" || fail "sssp's record is not run with delta $hd: $(tail -1 "$tmp/h.csv")"
for case in "--wl obim:delta=7|obim:delta=7," "-d 5|obim:delta=5," "--wl smq|smq:"; do
	args=${case%%|*} want=${case#*|}
	# shellcheck disable=SC2086
	"$bin/sssp" --gen road:W=10,H=10 $args -n 1 --format csv >"$tmp/h.csv" 2>"$tmp/h.err"
	grep -q "$want" "$tmp/h.csv" || fail "sssp $args: expected $want in $(tail -1 "$tmp/h.csv")"
	! grep -q "from the graph" "$tmp/h.err" || fail "sssp $args still takes the graph's delta"
done
"$bin/bfs" --gen road:W=10,H=10 -n 1 2>&1 | grep -q "from the graph" && fail "bfs takes a distance delta"
# at two threads and more, neighbours' distances are prefetched for reading on a graph of
# many arcs per node and for writing on a sparse one (issue 48), and the report says which
"$bin/sssp" --gen rmat:scale=10,ef=16 -n 1 -t 2 2>&1 | grep -q "prefetched for reading (mean degree [0-9.]* > 10)" || fail "sssp on a dense graph does not prefetch for reading"
"$bin/sssp" --gen road:W=10,H=10 -n 1 -t 2 2>&1 | grep -q "prefetched for writing (mean degree [0-9.]* <= 10)" || fail "sssp on a grid does not prefetch for writing"
"$bin/sssp" --gen road:W=10,H=10 -n 1 -t 1 2>&1 | grep -q "prefetched for" && fail "sssp at one thread names a prefetch it does not choose"
# astar's, on a high-diameter graph, is a tenth of a ball's reach, and its record says
# the shift it ran with
"$bin/astar" --gen road:W=64,H=64 -n 1 --format csv >"$tmp/a.csv" 2>"$tmp/a.err"
ad=$(sed -n 's/^delta \([0-9]*\) from the graph: mean weight [0-9.]*, mean degree [0-9.]*, a 1024-node ball [0-9]* levels deep (high diameter, goal-directed: width = mean weight x ball depth \/ 10); --delta D .*/\1/p' "$tmp/a.err")
[ -n "$ad" ] || fail "astar does not say its delta from a ball's reach: $(cat "$tmp/a.err")"
grep -q "obim:delta=$ad," "$tmp/a.csv" || fail "astar's record is not run with delta $ad: $(tail -1 "$tmp/a.csv")"
"$bin/sssp" --gen road:W=64,H=64 -n 1 2>&1 | grep -q "^delta [0-9]* from the graph: .*(high diameter: width = 8 mean weights)" || fail "sssp on a road graph does not keep 8 mean weights"
# mst's scheduler, when the user names none, follows the graph's diameter: SMQ on a road
# graph, obim on a social one, and the report says so (issue 48, item 3); --wl and
# --delta keep theirs
"$bin/mst" --gen road:W=64,H=64 -n 1 --format csv >"$tmp/m.csv" 2>"$tmp/m.err"
grep -q "^scheduler smq:pq=bucket from the graph: a 1024-node ball [0-9]* levels deep (high diameter; obim otherwise); --wl or --delta sets it" "$tmp/m.err" || fail "mst on a grid does not say its scheduler from the graph: $(cat "$tmp/m.err")"
grep -q ',"smq:[^"]*pq=bucket[^"]*",' "$tmp/m.csv" || fail "mst on a grid does not run smq:pq=bucket: $(tail -1 "$tmp/m.csv")"
for case in "road:W=64,H=64 --wl obim|obim:delta=0," "road:W=64,H=64 -d 3|obim:delta=3," "rmat:scale=10,ef=8|obim:delta=0,"; do
	args=${case%%|*} want=${case#*|}
	# shellcheck disable=SC2086
	"$bin/mst" --gen $args -n 1 --format csv >"$tmp/m.csv" 2>"$tmp/m.err"
	grep -q "$want" "$tmp/m.csv" || fail "mst $args: expected $want in $(tail -1 "$tmp/m.csv")"
	! grep -q "from the graph" "$tmp/m.err" || fail "mst $args still takes the graph's scheduler"
done
# --help: options only, wrapped at 80 columns; the scheduler table is --wl help's
for app in sssp bfs astar mst kcore components pagerank ordo-convert; do
	"$bin/$app" --help >"$tmp/help.txt"
	[ "$(awk 'length > 80' "$tmp/help.txt" | wc -l)" -eq 0 ] || fail "$app --help has lines over 80 columns"
	! grep -q "ordo-bench\|SUPPRESS" "$tmp/help.txt" || fail "$app --help"
done
"$bin/sssp" --help | grep -q "the file's format$" || fail "--format's help is cut short"
! "$bin/sssp" --help | grep -q "steal_prob" || fail "sssp --help still holds the scheduler table"
"$bin/sssp" --wl help | grep -q "steal_prob" || fail "--wl help lost the scheduler table"
# 1-based input formats: the report says its ids are 0-based
"$bin/sssp" "$tests/fixtures/tiny.gr" -n 1 2>/dev/null | grep -q "node ids: 0-based, here and in the options (the dimacs file's node 1 is node 0)" || fail "DIMACS ids not explained"
! "$bin/sssp" --gen road:W=5,H=5 -n 1 2>/dev/null | grep -q "node ids:" || fail "a generated graph's ids explained"
# a wrong answer: exit status 1 and a FAIL line on stderr, with -q too (issue 31, item 11)
if [ -n "${3:-}" ]; then
	set +e
	"$3" -n 2 -q >"$tmp/wrong.out" 2>"$tmp/wrong.err"
	st=$?
	set -e
	[ $st -eq 1 ] || fail "a wrong answer exits $st"
	[ ! -s "$tmp/wrong.out" ] || fail "-q printed on stdout: $(cat "$tmp/wrong.out")"
	grep -q "^wrong_app: verification FAIL in 2 of 2 trials; trial 1: 1 mismatch, first: node 0 has value 1, expected 0" "$tmp/wrong.err" ||
		fail "-q with a wrong answer: $(cat "$tmp/wrong.err")"
	set +e
	"$3" -n 1 --format json >"$tmp/wrong.json" 2>/dev/null
	st=$?
	set -e
	[ $st -eq 1 ] && grep -q '"verify":"FAIL"' "$tmp/wrong.json" || fail "a wrong answer's record: $st $(cat "$tmp/wrong.json")"
	# a check that never calls ordo_check_init still passes when nothing is wrong
	"$3" -n 1 --right --format json >"$tmp/right.json" 2>/dev/null || fail "a right answer: $(cat "$tmp/right.json")"
	grep -q '"verify":"PASS","mismatches":0' "$tmp/right.json" || fail "a right answer's record: $(cat "$tmp/right.json")"
	# an app that needs self-loops gets them (ORDO_APP_NEEDS_SELF_LOOPS), which the
	# loader drops for every other app
	printf '0 1\n1 1\n2 2\n2 0\n' >"$tmp/loops.txt"
	"$3" "$tmp/loops.txt" -n 1 --right --format json >"$tmp/loops.json" 2>/dev/null || fail "wrong_app on loops.txt"
	grep -q '"self_loops":2,' "$tmp/loops.json" || fail "an app needing self-loops lost them: $(cat "$tmp/loops.json")"
	"$bin/components" "$tmp/loops.txt" -n 1 2>&1 | grep -q "self-loop" || fail "components kept the self-loops or did not say it dropped them"
fi
echo "cli test passed"
