#!/bin/sh
# yardsticks.sh - makes the yardstick graphs of ../shared/BENCHMARKS.md (road2k, rmat20)
# with the independent generator in ../shared/tools, plus their native conversions,
# into $ORDO_BENCH_DATA (default bench/data, ignored by git). Prints the directory.
# --fallback: without ../shared/tools, say so on stderr and make road2k.ordo and
# rmat20.ordo of the same shapes with ordo's own generators instead, in a folder of
# their own (DATA/ordo-gen) so that they are never taken for the yardsticks.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
data=${ORDO_BENCH_DATA:-$here/data}
shared=${ORDO_SHARED:-$here/../../shared}
bin=${ORDO_BIN:-$here/../build/algorithms}
if [ "${1:-}" = --fallback ] && [ ! -f "$shared/tools/gengraph.c" ]; then
	data=$data/ordo-gen
	echo "$(basename "$0"): the yardsticks need $shared/tools (ORDO_SHARED=DIR); using" \
		"ordo's own generators of the same shape in $data instead" >&2
	mkdir -p "$data"
	[ -s "$data/road2k.ordo" ] || "$bin/ordo-gen" road:W=2048,H=2048,seed=7 -o "$data/road2k.ordo" 2>/dev/null
	[ -s "$data/rmat20.ordo" ] || "$bin/ordo-gen" rmat:scale=20,ef=16,seed=7 -o "$data/rmat20.ordo" 2>/dev/null
	echo "$data"
	exit 0
fi
mkdir -p "$data"
if [ ! -x "$data/gengraph" ]; then
	cc -O2 -o "$data/gengraph" "$shared/tools/gengraph.c" -lm
fi
[ -s "$data/road2k.gr" ] || (cd "$data" && ./gengraph road 2048 2048 7 road2k >&2)
[ -s "$data/rmat20.gr" ] || (cd "$data" && ./gengraph rmat 20 16 7 rmat20.gr >&2)
[ -s "$data/road2k.ordo" ] || "$bin/ordo-convert" "$data/road2k.gr" "$data/road2k.ordo" --coords "$data/road2k.co" 2>/dev/null
[ -s "$data/rmat20.ordo" ] || "$bin/ordo-convert" "$data/rmat20.gr" "$data/rmat20.ordo" 2>/dev/null
echo "$data"
