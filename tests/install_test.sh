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
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
cc "$src/consumer/main.c" $(pkg-config --cflags --libs --static ordo) -o "$tmp/pc"
[ "$("$tmp/pc")" = "16 48" ] || { echo "FAIL: pkg-config consumer"; exit 1; }
echo "install test passed"
