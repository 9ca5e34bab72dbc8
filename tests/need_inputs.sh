#!/bin/sh
# need_inputs.sh DIR COMMAND... - runs COMMAND when the shared real graphs are in DIR;
# (or in $ORDO_INPUTS, which the tests also honour); otherwise says why and exits 77, which ctest reports as skipped (SKIP_RETURN_CODE).
dir=${ORDO_INPUTS:-$1}
shift
if [ ! -d "$dir" ]; then
	echo "skipped: $dir not found: the shared real graphs are not beside this clone" \
		"(configure with -DORDO_INPUTS_DIR=... or set ORDO_INPUTS to run these tests)"
	exit 77
fi
exec "$@"
