#!/bin/sh
# inputs/fetch.sh against a local directory laid out like the download sites (no
# network here): a DIMACS 9 graph with the real USA-road-d.NY counts, a DIMACS 10
# METIS graph with coordinates, a SNAP list with its "# Nodes: Edges:" header; then a
# header that lies and a missing download, which must fail and leave nothing behind.
set -eu
inputs=$1
bin=$2
fix=$(dirname "$0")/fixtures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
web="$tmp/web"
mkdir "$web"
awk 'BEGIN { n = 264346; m = 733846; print "c fake NY"; print "p sp " n " " m;
	for (i = 0; i < m; i++) print "a " (i % n + 1) " " ((i * 7 + 3) % n + 1) " " (i % 100 + 1) }' \
	>"$web/USA-road-d.NY.gr"
awk 'BEGIN { n = 264346; print "p aux sp co " n; for (i = 1; i <= n; i++) printf "v %d %d %d\n", i, i, -i }' \
	>"$web/USA-road-d.NY.co"
gzip "$web/USA-road-d.NY.gr" "$web/USA-road-d.NY.co"
cp "$fix/undirected.graph" "$web/luxembourg.osm.graph"
cp "$fix/undirected.xyz" "$web/luxembourg.osm.xyz"
bzip2 "$web/luxembourg.osm.graph" "$web/luxembourg.osm.xyz"
printf '# Directed graph\n# Nodes: 3 Edges: 3\n# FromNodeId\tToNodeId\n10\t20\n20\t1000\n10\t10\n' >"$web/web-Google.txt"
gzip "$web/web-Google.txt"

out="$tmp/out"
sh "$inputs/fetch.sh" --base "file://$web" --dest "$out" --bin "$bin" usa-ny osm-luxembourg snap-google
for g in usa-ny osm-luxembourg snap-google; do
	test -s "$out/$g.ordo" || { echo "FAIL: $g.ordo missing"; exit 1; }
done
"$bin/ordo-convert" "$out/usa-ny.ordo" --info | grep -q '^  nodes 264346$'
"$bin/ordo-convert" "$out/usa-ny.ordo" --info | grep -q '^  arcs 733846$'
"$bin/ordo-convert" "$out/usa-ny.ordo" --info | grep -q 'coordinates int32'
"$bin/ordo-convert" "$out/osm-luxembourg.ordo" --info | grep -q '^  arcs 8$'
"$bin/ordo-convert" "$out/osm-luxembourg.ordo" --info | grep -q 'coordinates double'
"$bin/ordo-convert" "$out/snap-google.ordo" --info | grep -q '^  nodes 3$'

# a header that does not match the content, and a download that does not exist
printf '# Nodes: 4 Edges: 3\n0 1\n1 2\n2 0\n' >"$web/roadNet-CA.txt"
gzip "$web/roadNet-CA.txt"
if sh "$inputs/fetch.sh" --base "file://$web" --dest "$out" --bin "$bin" snap-roadnet-ca 2>"$tmp/err"; then
	echo "FAIL: a lying header was accepted"; exit 1
fi
grep -q "expected '4 3'" "$tmp/err" || { cat "$tmp/err"; echo "FAIL: message"; exit 1; }
if sh "$inputs/fetch.sh" --base "file://$web" --dest "$out" --bin "$bin" snap-orkut 2>"$tmp/err"; then
	echo "FAIL: a missing download succeeded"; exit 1
fi
grep -q "download from .* failed (no network here? --base DIR reads a folder laid out like the sites" "$tmp/err" ||
	{ cat "$tmp/err"; echo "FAIL: a failed download does not mention --base"; exit 1; }
# --list shows sizes
sh "$inputs/fetch.sh" --list | grep -q "^usa-ny	dimacs	USA-road-d.NY	264346	733846$" ||
	{ sh "$inputs/fetch.sh" --list | head -3; echo "FAIL: --list without sizes"; exit 1; }
test ! -e "$out/snap-roadnet-ca.ordo" && test ! -e "$out/snap-orkut.ordo"
test -z "$(ls -A "$out" | grep -v '\.ordo$' || true)" || { ls -la "$out"; echo "FAIL: leftovers"; exit 1; }
# usage: --help to stdout with status 0; errors are one line on stderr with status 2,
# before anything is downloaded
sh "$inputs/fetch.sh" --help | grep -q "^NAME: usa-ny" || { echo "FAIL: --help"; exit 1; }
! sh "$inputs/fetch.sh" --help | grep -q "set -eu" || { echo "FAIL: --help shows code"; exit 1; }
for args in "--bogus" "" "--dest" "nosuch" "usa-ny --keep"; do
	set +e
	# shellcheck disable=SC2086 # the words are the arguments
	sh "$inputs/fetch.sh" --base "file://$web" --bin "$bin" --dest "$tmp/u" $args 2>"$tmp/err"
	st=$?
	set -e
	[ $st -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "try 'fetch.sh --help'" "$tmp/err" ||
		{ cat "$tmp/err"; echo "FAIL: usage error for '$args': status $st"; exit 1; }
done
test ! -e "$tmp/u" || { echo "FAIL: a usage error created $tmp/u"; exit 1; }
echo "fetch test passed"
