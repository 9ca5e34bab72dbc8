#!/bin/sh
# A build with ORDO_COUNT_WORK=OFF compiles cleanly, still verifies, and says in its
# records that the work counters are off. Usage: nocount_test.sh SOURCE_DIR WORK_DIR
set -eu
src=$1
work=$2/nocount
echo "nocount: configuring and building its own variant in $work (the first run in a build folder takes minutes; later runs rebuild only what changed)"
cmake -S "$src" -B "$work" -DORDO_COUNT_WORK=OFF -DORDO_BUILD_TESTS=OFF \
	-DCMAKE_C_FLAGS="-Werror" >/dev/null
cmake --build "$work" --target sssp -j2 >/dev/null
out=$("$work/algorithms/sssp" --gen road:W=60,H=60 -n 1 --format json -q)
echo "$out" | grep -q '"work_counters":"off"' || { echo "FAIL: $out"; exit 1; }
echo "$out" | grep -q '"verify":"PASS"' || { echo "FAIL: $out"; exit 1; }
echo "nocount test passed"
