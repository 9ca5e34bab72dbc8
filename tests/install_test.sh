#!/bin/sh
# `cmake --install` gives a usable package: a separate C project finds ordo with
# find_package(ordo) and with pkg-config, links, and runs.
set -eu
build=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
cmake -S "$src/consumer" -B "$tmp/b" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/b" >/dev/null
[ "$("$tmp/b/consumer")" = "16 48" ] || { echo "FAIL: find_package consumer"; exit 1; }
# a new operator (weakly connected components) on the installed harness, verified
# against its own baseline with several schedulers
for wl in obim:delta=8 smq spraylist; do
	"$tmp/b/consumer_app" -n 2 -t 2 --wl "$wl" --format json >"$tmp/app.json" 2>"$tmp/app.err" ||
		{ echo "FAIL: harness consumer with $wl: $(cat "$tmp/app.err")"; exit 1; }
	[ "$(grep -c '"algorithm":"wcc".*"components":8974,"rounds_push":0,"rounds_pull":0,"verify":"PASS"' "$tmp/app.json")" = 2 ] ||
		{ echo "FAIL: harness consumer records with $wl: $(cat "$tmp/app.json")"; exit 1; }
done
# its rounds form (the default without --wl): the giant component pushed and pulled,
# then label propagation; each direction verified, and auto pulls some rounds
for dir in auto pull rounds-push; do
	"$tmp/b/consumer_app" -n 1 -t 2 --direction $dir --format json >"$tmp/app.json" 2>"$tmp/app.err" ||
		{ echo "FAIL: harness consumer --direction $dir: $(cat "$tmp/app.err")"; exit 1; }
	grep -q '"components":8974,"rounds_push":[0-9]*,"rounds_pull":[0-9]*,"verify":"PASS"' "$tmp/app.json" ||
		{ echo "FAIL: harness consumer --direction $dir: $(cat "$tmp/app.json")"; exit 1; }
done
grep -q '"rounds_pull":0,' "$tmp/app.json" || { echo "FAIL: rounds-push pulled: $(cat "$tmp/app.json")"; exit 1; }
"$tmp/b/consumer_app" -n 1 -t 2 --format json | grep -q '"rounds_pull":[1-9]' ||
	{ echo "FAIL: harness consumer's default rounds pulled none"; exit 1; }
# the shared library: the same app on libordo.so, which exports the public API only
ldd "$tmp/b/consumer_app_shared" | grep -q "libordo.so" || { echo "FAIL: consumer_app_shared does not use libordo.so"; exit 1; }
"$tmp/b/consumer_app_shared" -n 1 -t 2 --wl smq --format json | grep -q '"components":8974,"rounds_push":0,"rounds_pull":0,"verify":"PASS"' ||
	{ echo "FAIL: harness consumer on libordo.so"; exit 1; }
lib=$(ls "$tmp/prefix"/lib*/libordo.so)
extra=$(nm -D --defined-only "$lib" | awk '{print $3}' | grep -v -E '^(ordo_|_init$|_fini$)' || true)
[ -z "$extra" ] || { echo "FAIL: libordo.so exports more than the public API: $(echo "$extra" | head -5)"; exit 1; }
nm -D --defined-only "$lib" | grep -q " ordo_load$" || { echo "FAIL: libordo.so lacks ordo_load"; exit 1; }
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
# the README's spelling: static libraries carry their dependencies in Libs
cc "$src/consumer/main.c" $(pkg-config --cflags --libs ordo) -o "$tmp/pc"
[ "$("$tmp/pc")" = "16 48" ] || { echo "FAIL: pkg-config consumer"; exit 1; }
# the operator guide's complete example, as installed beside the guide
[ -f "$tmp/prefix/share/doc/ordo/operator-guide.md" ] || { echo "FAIL: the operator guide is not installed"; exit 1; }
cmp -s "$tmp/prefix/share/ordo/examples/wcc.c" "$src/consumer/app.c" ||
	{ echo "FAIL: share/ordo/examples/wcc.c is not the guide's example"; exit 1; }
cc "$tmp/prefix/share/ordo/examples/wcc.c" $(pkg-config --cflags --libs ordo) -o "$tmp/pcapp"
"$tmp/pcapp" -n 1 -q || { echo "FAIL: pkg-config harness consumer"; exit 1; }
echo "install test passed"
