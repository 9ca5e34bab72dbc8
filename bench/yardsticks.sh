#!/bin/sh
# yardsticks.sh - makes the yardstick graphs of ../shared/BENCHMARKS.md (road2k, rmat20)
# with the independent generator in ../shared/tools, plus their native conversions,
# into $ORDO_BENCH_DATA (default bench/data, ignored by git). Prints the directory.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
data=${ORDO_BENCH_DATA:-$here/data}
shared=${ORDO_SHARED:-$here/../../shared}
bin=${ORDO_BIN:-$here/../build/algorithms}
mkdir -p "$data"
if [ ! -x "$data/gengraph" ]; then
	cc -O2 -o "$data/gengraph" "$shared/tools/gengraph.c" -lm
fi
[ -s "$data/road2k.gr" ] || (cd "$data" && ./gengraph road 2048 2048 7 road2k >&2)
[ -s "$data/rmat20.gr" ] || (cd "$data" && ./gengraph rmat 20 16 7 rmat20.gr >&2)
[ -s "$data/road2k.ordo" ] || "$bin/ordo-convert" "$data/road2k.gr" "$data/road2k.ordo" --coords "$data/road2k.co" 2>/dev/null
[ -s "$data/rmat20.ordo" ] || "$bin/ordo-convert" "$data/rmat20.gr" "$data/rmat20.ordo" 2>/dev/null
echo "$data"
