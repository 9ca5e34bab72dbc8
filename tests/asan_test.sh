#!/bin/sh
# AddressSanitizer + UBSan (+ LeakSanitizer at exit) run of the scheduler conformance
# checks and SSSP: no leak, no use after free (the skip-list SMQ's epoch reclamation),
# no out-of-bounds access. Usage: asan_test.sh SOURCE_DIR WORK_DIR
set -eu
src=$1
work=$2/asan
echo "asan: configuring and building its own variant in $work (the first run in a build folder takes minutes; later runs rebuild only what changed)"
cmake -S "$src" -B "$work" -DORDO_ASAN=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DORDO_INPUTS_DIR=/nonexistent >/dev/null
cmake --build "$work" --target stress_main alloc_fail test_compress test_reorder -j2 >/dev/null
export ASAN_OPTIONS="detect_leaks=1 abort_on_error=1"
export UBSAN_OPTIONS="halt_on_error=1 print_stacktrace=1"
export ORDO_STRESS_SCALE=${ORDO_STRESS_SCALE:-10}
export ORDO_STRESS_MAX_THREADS=${ORDO_STRESS_MAX_THREADS:-8}
"$work/tests/stress_main"
# every allocation failing in turn: each failure path must also free what it holds
"$work/tests/alloc_fail" "$src/tests/fixtures"
# the compressed CSR's check and decoder on damaged data: no read outside the buffers
"$work/tests/test_compress" --verbose=0
# renumbering, the input ids and their native section (forged ids refused cleanly)
"$work/tests/test_reorder" --verbose=0
echo "asan test passed"
