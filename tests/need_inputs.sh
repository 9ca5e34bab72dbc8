#!/bin/sh
# need_inputs.sh DIR COMMAND... - runs COMMAND when the shared real graphs are in DIR;
# (or in $ORDO_INPUTS, which the tests also honour); otherwise says why and exits 77, which ctest reports as skipped (SKIP_RETURN_CODE).
dir=${ORDO_INPUTS:-$1}
shift
if [ ! -d "$dir" ]; then
	why="$dir not found: the shared real graphs are not beside this clone (configure with -DORDO_INPUTS_DIR=... or set ORDO_INPUTS to a folder with road/ and social/ and their SOURCES.md to run these tests; for real graphs of your own, inputs/fetch.sh downloads public ones: inputs/fetch.sh --list)"
	echo "skipped: $why"
	# ctest shows no output of a skipped test: tests/skipped.sh prints this after the run
	if [ -n "${ORDO_SKIP_NOTE:-}" ]; then
		mkdir -p "$(dirname "$ORDO_SKIP_NOTE")" &&
			echo "$(basename "$ORDO_SKIP_NOTE" .txt): $why" >"$ORDO_SKIP_NOTE"
	fi
	exit 77
fi
exec "$@"
