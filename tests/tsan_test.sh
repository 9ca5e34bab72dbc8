#!/bin/sh
# ThreadSanitizer run of the scheduler conformance suite, the SSSP tests, the other
# apps (BFS, A*, MST, k-core with every scheduler up to 16 threads) and the targeted
# scheduler tests (test_schedulers, test_spraylist): a separate
# clang build (-fsanitize=thread) with LLVM's OpenMP runtime and its Archer tool, which
# tells TSan about OpenMP's barriers (libgomp's would show as false races).
# Usage: tsan_test.sh SOURCE_DIR WORK_DIR
set -eu
src=$1
work=$2/tsan
archer=$(ls /usr/lib/llvm-*/lib/libarcher.so 2>/dev/null | tail -n 1 || true)
if ! command -v clang >/dev/null 2>&1 || [ -z "$archer" ]; then
	echo "clang or LLVM's OpenMP (libomp-dev with libarcher) is missing: install them (.ci/install-deps does)"
	exit 1
fi
echo "tsan: configuring and building its own variant in $work (the first run in a build folder takes minutes; later runs rebuild only what changed)"
CC=clang cmake -S "$src" -B "$work" -DORDO_TSAN=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DORDO_INPUTS_DIR=/nonexistent >/dev/null
cmake --build "$work" --target stress_main apps_inputs test_schedulers_plain test_spraylist_plain -j2 >/dev/null
export OMP_TOOL_LIBRARIES="$archer"
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 ignore_noninstrumented_modules=1"
export ORDO_STRESS_SCALE=${ORDO_STRESS_SCALE:-20}
export ORDO_STRESS_MAX_THREADS=${ORDO_STRESS_MAX_THREADS:-8}
"$work/tests/stress_main"
"$work/tests/apps_inputs" --generated
# the targeted scheduler tests too: SMQ's version-word races, PMOD's adaptation,
# SprayList's marking race and reclamation; built on a stand-in for Criterion, which
# cannot start under TSan (tests/crshim)
"$work/tests/test_schedulers_plain"
"$work/tests/test_spraylist_plain"
echo "tsan test passed"
