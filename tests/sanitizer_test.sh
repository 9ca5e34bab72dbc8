#!/bin/sh
# One sanitizer run in its own variant build (configured and built under WORK_DIR/KIND;
# the first run in a build folder takes minutes, later ones rebuild only what changed).
#   asan: AddressSanitizer + UBSan (+ LeakSanitizer at exit) over the scheduler
#     conformance checks and SSSP, every allocation failing in turn (each failure path
#     must free what it holds), the compressed CSR's check and decoder on damaged data,
#     and renumbering with forged input ids: no leak, no use after free (the skip-list
#     SMQ's epoch reclamation), no out-of-bounds access.
#   tsan: ThreadSanitizer over the conformance suite, the SSSP tests, every other app
#     with every scheduler up to 16 threads, and the targeted scheduler tests (SMQ's
#     version-word races, PMOD's adaptation, SprayList's marking race and reclamation;
#     built on a stand-in for Criterion, which cannot start under TSan: tests/crshim).
#     A clang build with LLVM's OpenMP runtime and its Archer tool, which tells TSan
#     about OpenMP's barriers (libgomp's would show as false races).
# Usage: sanitizer_test.sh asan|tsan SOURCE_DIR WORK_DIR
set -eu
kind=$1
src=$2
work=$3/$kind
export ORDO_STRESS_MAX_THREADS=${ORDO_STRESS_MAX_THREADS:-8}
configure() { # cmake options for the variant
	echo "$kind: configuring and building its own variant in $work (the first run in a build folder takes minutes; later runs rebuild only what changed)"
	cmake -S "$src" -B "$work" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DORDO_INPUTS_DIR=/nonexistent "$@" >/dev/null
}
case $kind in
asan)
	configure -DORDO_ASAN=ON
	cmake --build "$work" --target stress_main alloc_fail test_compress test_reorder -j2 >/dev/null
	export ASAN_OPTIONS="detect_leaks=1 abort_on_error=1"
	export UBSAN_OPTIONS="halt_on_error=1 print_stacktrace=1"
	export ORDO_STRESS_SCALE=${ORDO_STRESS_SCALE:-10}
	"$work/tests/stress_main"
	"$work/tests/alloc_fail" "$src/tests/fixtures"
	"$work/tests/test_compress" --verbose=0
	"$work/tests/test_reorder" --verbose=0
	;;
tsan)
	archer=$(ls /usr/lib/llvm-*/lib/libarcher.so 2>/dev/null | tail -n 1 || true)
	if ! command -v clang >/dev/null 2>&1 || [ -z "$archer" ]; then
		echo "clang or LLVM's OpenMP (libomp-dev with libarcher) is missing: install them (.ci/install-deps does)"
		exit 1
	fi
	CC=clang configure -DORDO_TSAN=ON
	cmake --build "$work" --target stress_main apps_inputs test_scheduler_cases_plain test_spraylist_plain -j2 >/dev/null
	export OMP_TOOL_LIBRARIES="$archer"
	export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 ignore_noninstrumented_modules=1"
	export ORDO_STRESS_SCALE=${ORDO_STRESS_SCALE:-20}
	"$work/tests/stress_main"
	"$work/tests/apps_inputs" --generated
	"$work/tests/test_scheduler_cases_plain"
	"$work/tests/test_spraylist_plain"
	;;
*)
	echo "usage: sanitizer_test.sh asan|tsan SOURCE_DIR WORK_DIR" >&2
	exit 2
	;;
esac
echo "$kind test passed"
