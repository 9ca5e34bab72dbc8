#!/bin/sh
# The conformance checks and the apps under schedule perturbation: a build with
# -DORDO_PERTURB=ON (runtime/perturb.h), then tests/perturb_main over PERTURB_SEEDS
# seeds (default 20) at PERTURB_THREADS threads (default 4: more than this machine's
# cores), every scheduler. A failure names its seed: rerun with
#   WORK_DIR/perturb/tests/perturb_main --first SEED --seeds 1
# Usage: perturb_test.sh SOURCE_DIR WORK_DIR
set -eu
src=$1
work=$2/perturb
echo "perturbation: building a -DORDO_PERTURB=ON variant in $work"
cmake -S "$src" -B "$work" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DORDO_PERTURB=ON \
	-DORDO_INPUTS_DIR=/nonexistent >/dev/null
cmake --build "$work" --target perturb_main test_scheduler_cases -j2 >/dev/null
"$work/tests/perturb_main" --seeds "${PERTURB_SEEDS:-20}" --threads "${PERTURB_THREADS:-4}"
# the scripted tests that run one side of a protocol inside the other's window (a
# perturbation hook at a named point; skipped in other builds)
"$work/tests/test_scheduler_cases" --filter 'smq/a_guest_never_pushes_into_a_host_that_parked_under_its_look'
