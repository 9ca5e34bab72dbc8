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
	[ "$(grep -c '"algorithm":"wcc".*"components":8974,"verify":"PASS"' "$tmp/app.json")" = 2 ] ||
		{ echo "FAIL: harness consumer records with $wl: $(cat "$tmp/app.json")"; exit 1; }
done
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
# the README's spelling: static libraries carry their dependencies in Libs
cc "$src/consumer/main.c" $(pkg-config --cflags --libs ordo) -o "$tmp/pc"
[ "$("$tmp/pc")" = "16 48" ] || { echo "FAIL: pkg-config consumer"; exit 1; }
cc "$src/consumer/app.c" $(pkg-config --cflags --libs ordo) -o "$tmp/pcapp"
"$tmp/pcapp" -n 1 -q || { echo "FAIL: pkg-config harness consumer"; exit 1; }
echo "install test passed"
