#!/bin/sh
# pip_test.sh SRC PYTHON - `pip install --no-build-isolation` of the Python package (a
# copy of algorithms/python, so the source tree gets no build folder) into a scratch
# target, then an import from there that runs and verifies an app.
set -eu
src=$1
py=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$py" -m pip --version >/dev/null 2>&1 || {
	why="$py has no pip (Debian: python3-pip; .ci/install-deps installs it)"
	echo "skipped: $why"
	if [ -n "${ORDO_SKIP_NOTE:-}" ]; then
		mkdir -p "$(dirname "$ORDO_SKIP_NOTE")" && echo "python_pip_install: $why" >"$ORDO_SKIP_NOTE"
	fi
	exit 77
}
cp -r "$src/algorithms/python" "$tmp/pkg"
rm -rf "$tmp/pkg/build" "$tmp/pkg"/*.egg-info
echo "pip: building the package with ordo's CMake build (about a minute on 2 cores)"
ORDO_SOURCE_DIR=$src "$py" -m pip install --no-build-isolation --no-deps --no-cache-dir \
	--target "$tmp/site" "$tmp/pkg" >"$tmp/pip.log" 2>&1 || {
	tail -n 30 "$tmp/pip.log"
	echo "FAIL: pip install"
	exit 1
}
cd "$tmp"
out=$(PYTHONPATH="$tmp/site" "$py" -c "
import ordo
g = ordo.load('$src/tests/fixtures/tiny.gr')
r = ordo.sssp(g, 0, scheduler='smq', threads=2)
print(ordo.__file__, list(r.dist), r.record['verify'])
")
echo "$out"
case $out in
"$tmp/site/ordo/__init__.py [0, 3, 4, 11, 12] PASS") ;;
*)
	echo "FAIL: the installed package: $out"
	exit 1
	;;
esac
echo "pip test passed"
