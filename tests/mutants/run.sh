#!/bin/sh
# Mutants that must die (tests/mutants/MUTANTS): each patch plants one real bug in a
# scratch copy of the sources, built once with -DORDO_PERTURB=ON and rebuilt
# incrementally per mutant; its killing command must then fail - by an assertion, not
# by running past MUTANT_TIMEOUT (default 300 s). Every killing command first passes on
# the unmutated copy, so a kill means the test saw the bug. Prints the kill table and
# fails if any mutant survives, times out, or no longer applies.
# Usage: run.sh SOURCE_DIR WORK_DIR [NAME...]
set -u
src=$(cd "$1" && pwd)
work=$2/mutants
shift 2
limit=${MUTANT_TIMEOUT:-300}
scratch=$work/src
bld=$work/build
# a fresh build: objects left by an earlier run may hold its last mutant, and the copied
# sources keep their (older) times, so make would not rebuild them
rm -rf "$scratch" "$bld"
mkdir -p "$scratch" "$bld"
# the sources: the files git tracks (and new ones it does not ignore), else everything
# but build folders, git metadata and benchmark data
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
	(cd "$src" && git ls-files -z --cached --others --exclude-standard |
		tar --null -T - -cf -) | (cd "$scratch" && tar -xf -)
else
	(cd "$src" && tar --exclude=./.git --exclude='./build*' --exclude=./bench/data -cf - .) |
		(cd "$scratch" && tar -xf -)
fi
echo "mutants: configuring a perturbation build in $bld"
CC=${CC:-cc} cmake -S "$scratch" -B "$bld" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DORDO_PERTURB=ON \
	-DORDO_NATIVE=OFF -DORDO_INPUTS_DIR=/nonexistent >"$work/configure.log" 2>&1 ||
	{ tail -n 20 "$work/configure.log"; echo "FAIL: configure"; exit 1; }
table=$src/tests/mutants/MUTANTS
export FIX="$scratch/tests/fixtures"
chosen() {
	[ $# -eq 1 ] && return 0
	n=$1
	shift
	for a in "$@"; do [ "$a" = "$n" ] && return 0; done
	return 1
}
field() { echo "$1" | cut -d'|' -f"$2" | sed 's/^ *//; s/ *$//'; }
run_killer() { # targets, command, log -> rc (124: timed out)
	cmake --build "$bld" --target $1 -j2 >"$3" 2>&1 || return 200
	(cd "$bld" && eval "timeout $limit $2") >>"$3" 2>&1
}
results=$work/table
: >"$results"
grep -v '^#' "$table" | grep -v '^ *$' | while IFS= read -r line; do
	name=$(field "$line" 1)
	chosen "$name" "$@" || continue
	what=$(field "$line" 2)
	targets=$(field "$line" 3)
	cmd=$(field "$line" 4)
	patchf=$src/tests/mutants/$name.patch
	log=$work/$name.log
	# the test passes on the unmutated sources
	run_killer "$targets" "$cmd" "$log.base"
	rc=$?
	if [ $rc -ne 0 ]; then
		printf '%s|%s|%s|%s\n' "$name" "BASELINE FAILS (rc $rc)" "-" "$what" >>"$results"
		tail -n 15 "$log.base"
		continue
	fi
	if ! patch -d "$scratch" -p1 --dry-run -s <"$patchf" >/dev/null 2>&1; then
		printf '%s|%s|%s|%s\n' "$name" "PATCH NO LONGER APPLIES" "-" "$what" >>"$results"
		continue
	fi
	patch -d "$scratch" -p1 -s <"$patchf"
	start=$(date +%s)
	run_killer "$targets" "$cmd" "$log"
	rc=$?
	secs=$(($(date +%s) - start))
	patch -d "$scratch" -p1 -R -s <"$patchf"
	if [ $rc -eq 0 ]; then
		verdict="SURVIVED"
	elif [ $rc -eq 124 ]; then
		verdict="TIMED OUT (not an assertion)"
	elif [ $rc -eq 200 ]; then
		verdict="DOES NOT BUILD"
	else
		# the first line that says why (an assertion, a FAIL line, an abort message)
		verdict="killed (rc $rc)"
	fi
	why=$(grep -m1 -E 'FAIL|Assertion|read after reclamation|out of order|stale|claimed the node' "$log" |
		cut -c1-110)
	printf '%s|%s|%ss|%s\n' "$name" "$verdict" "$secs" "${why:-$what}" >>"$results"
done
echo
echo "kill table (mutant | verdict | time to kill | the failure it caused)"
awk -F'|' '{ printf "  %-24s %-30s %6s  %s\n", $1, $2, $3, $4 }' "$results"
n=$(wc -l <"$results")
bad=$(grep -cv '|killed (rc' "$results")
if [ "$n" -eq 0 ]; then
	echo "FAIL: no mutant matched"
	exit 1
fi
if [ "$bad" -ne 0 ]; then
	echo "FAIL: $bad of $n mutant(s) not killed by an assertion (logs in $work)"
	exit 1
fi
echo "mutants test passed: $n of $n killed"
