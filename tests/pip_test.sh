#!/bin/sh
# pip_test.sh SRC PYTHON - algorithms/python/README.md's install command for the Python package, as written
# there but into scratch folders: a virtual environment made by PYTHON with
# --system-site-packages (Debian's Python refuses installs into itself, PEP 668; the
# environment sees Debian's NumPy), then `pip install --no-build-isolation` of a copy of
# algorithms/python (so the source tree gets no build folder), then an import from the
# environment that runs and verifies an app.
set -eu
src=$1
py=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
skip() {
	echo "skipped: $1"
	if [ -n "${ORDO_SKIP_NOTE:-}" ]; then
		mkdir -p "$(dirname "$ORDO_SKIP_NOTE")" && echo "python_pip_install: $1" >"$ORDO_SKIP_NOTE"
	fi
	exit 77
}
"$py" -m pip --version >/dev/null 2>&1 ||
	skip "$py has no pip (Debian: python3-pip; .ci/install-deps installs it)"
"$py" -m venv --system-site-packages "$tmp/venv" >"$tmp/venv.log" 2>&1 ||
	skip "$py cannot make a virtual environment (Debian: python3-venv; .ci/install-deps installs it): $(tail -n 1 "$tmp/venv.log")"
cp -r "$src/algorithms/python" "$tmp/pkg"
rm -rf "$tmp/pkg/build" "$tmp/pkg"/*.egg-info
echo "pip: building the package with ordo's CMake build (about a minute on 2 cores)"
ORDO_SOURCE_DIR=$src "$tmp/venv/bin/pip" install --no-build-isolation --no-deps --no-cache-dir \
	"$tmp/pkg" >"$tmp/pip.log" 2>&1 || {
	tail -n 30 "$tmp/pip.log"
	echo "FAIL: pip install into a virtual environment"
	exit 1
}
cd "$tmp"
out=$("$tmp/venv/bin/python" -c "
import ordo
g = ordo.load('$src/tests/fixtures/tiny.gr')
r = ordo.sssp(g, 0, scheduler='smq', threads=2)
print(ordo.__file__, list(r.dist), r.record['verify'])
")
echo "$out"
case $out in
"$tmp/venv/lib/"python3*"/site-packages/ordo/__init__.py [0, 3, 4, 11, 12] PASS") ;;
*)
	echo "FAIL: the installed package: $out"
	exit 1
	;;
esac
echo "pip test passed"
