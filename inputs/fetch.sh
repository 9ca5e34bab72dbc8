#!/bin/sh
# fetch.sh - download the public graphs people benchmark on, check them against the
# counts their headers declare, and convert them to ordo's native format.
#
#   inputs/fetch.sh [--dest DIR] [--base URL] [--bin DIR] [--keep] NAME...
#   inputs/fetch.sh --list
#
# NAME: usa-ny usa-bay usa-col usa-fla usa-nw usa-ne usa-cal usa-lks usa-e usa-w
#       usa-ctr usa     (DIMACS 9 USA-road-d, .gr + .co)
#       osm-luxembourg osm-belgium osm-netherlands osm-italy osm-great-britain
#       osm-germany osm-asia osm-europe     (DIMACS 10 street graphs, METIS + .xyz)
#       snap-livejournal snap-orkut snap-pokec snap-google snap-roadnet-ca
#                                               (SNAP edge lists)
# --base URL replaces every site (a directory laid out like the sites, e.g. a mirror
# or file:///path); --dest (default inputs/data, ignored by git) receives NAME.ordo;
# --bin is where ordo-convert lives (default: build/algorithms). The downloads are
# deleted after conversion unless --keep. Exit status: 0 all good, 1 a download or a
# check failed (the partial files are removed), 2 usage.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
dest="$here/data"
base=""
bin="$here/../build/algorithms"
keep=0

D9=http://www.diag.uniroma1.it/challenge9/data/USA-road-d
D10=https://sites.cc.gatech.edu/dimacs10/archive/data/streets
SNAP=https://snap.stanford.edu/data

# name | kind | site | remote file(s) | nodes | arcs (as ordo counts them)
catalogue() {
	cat <<'CAT'
usa-ny|dimacs|D9|USA-road-d.NY|264346|733846
usa-bay|dimacs|D9|USA-road-d.BAY|321270|800172
usa-col|dimacs|D9|USA-road-d.COL|435666|1057066
usa-fla|dimacs|D9|USA-road-d.FLA|1070376|2712798
usa-nw|dimacs|D9|USA-road-d.NW|1207945|2840208
usa-ne|dimacs|D9|USA-road-d.NE|1524453|3897636
usa-cal|dimacs|D9|USA-road-d.CAL|1890815|4657742
usa-lks|dimacs|D9|USA-road-d.LKS|2758119|6885658
usa-e|dimacs|D9|USA-road-d.E|3598623|8778114
usa-w|dimacs|D9|USA-road-d.W|6262104|15248146
usa-ctr|dimacs|D9|USA-road-d.CTR|14081816|34292496
usa|dimacs|D9|USA-road-d.USA|23947347|58333344
osm-luxembourg|metis|D10|luxembourg.osm|-|-
osm-belgium|metis|D10|belgium.osm|-|-
osm-netherlands|metis|D10|netherlands.osm|-|-
osm-italy|metis|D10|italy.osm|-|-
osm-great-britain|metis|D10|great-britain.osm|-|-
osm-germany|metis|D10|germany.osm|-|-
osm-asia|metis|D10|asia.osm|-|-
osm-europe|metis|D10|europe.osm|-|-
snap-livejournal|snap|SNAP|soc-LiveJournal1|-|-
snap-orkut|snap|SNAP|com-orkut.ungraph|-|-
snap-pokec|snap|SNAP|soc-pokec-relationships|-|-
snap-google|snap|SNAP|web-Google|-|-
snap-roadnet-ca|snap|SNAP|roadNet-CA|-|-
CAT
}

# the comment block at the top, without its '#'
help() { sed -n '2,/^[^#]/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0; }
usage() { echo "fetch.sh: $*; try 'fetch.sh --help'" >&2; exit 2; }
value() { [ $# -ge 2 ] && [ -n "$2" ] || usage "$1 needs a value"; }

while [ $# -gt 0 ]; do
	case "$1" in
	--dest) value "$@"; dest=$2; shift 2 ;;
	--base) value "$@"; base=$2; shift 2 ;;
	--bin) value "$@"; bin=$2; shift 2 ;;
	--keep) keep=1; shift ;;
	--list) # with the sizes the catalogue knows (DIMACS's, checked on every fetch)
		printf 'name\tkind\tremote file\tnodes\tarcs\n'
		catalogue | cut -d'|' -f1,2,4,5,6 | sed 's/|-|-$/|(its header says)|/' | tr '|' '\t'
		exit 0 ;;
	-h|--help) help ;;
	-*) usage "unknown option $1" ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || usage "no graph named (fetch.sh --list shows them)"
for name in "$@"; do # every name is checked before anything is downloaded
	case "$name" in -*) usage "options go before the graph names: $name" ;; esac
	catalogue | grep -q "^$name|" || usage "unknown graph '$name' (fetch.sh --list shows them)"
done
conv="$bin/ordo-convert"
[ -x "$conv" ] || { echo "fetch.sh: $conv not found: build ordo first (or pass --bin)" >&2; exit 2; }
mkdir -p "$dest"

get() { # url out
	if command -v curl >/dev/null 2>&1; then
		curl -fsSL --retry 2 -o "$2" "$1"
	else
		wget -q -O "$2" "$1"
	fi
}

site_url() {
	if [ -n "$base" ]; then echo "$base"; return; fi
	case "$1" in D9) echo "$D9" ;; D10) echo "$D10" ;; SNAP) echo "$SNAP" ;; esac
}

# header counts declared by the file itself: "nodes arcs" as ordo counts them
declared() { # kind file
	case "$1" in
	dimacs) grep -m1 '^p sp' "$2" | awk '{print $3, $4}' ;;
	metis) grep -v '^%' "$2" | head -n 1 | awk '{print $1, 2*$2}' ;;
	snap) grep -m1 -i '^# *Nodes:' "$2" | sed 's/[^0-9 ]//g' | awk '{print $1, $2}' ;;
	esac
}

loaded() { # info output of ordo-convert: "nodes arcs"
	awk '/^  nodes /{n=$2} /^  arcs /{m=$2} END{print n, m}' "$1"
}

status=0
for name in "$@"; do
	line=$(catalogue | grep "^$name|")
	kind=$(echo "$line" | cut -d'|' -f2)
	site=$(site_url "$(echo "$line" | cut -d'|' -f3)")
	file=$(echo "$line" | cut -d'|' -f4)
	want_n=$(echo "$line" | cut -d'|' -f5)
	want_m=$(echo "$line" | cut -d'|' -f6)
	work=$(mktemp -d "$dest/.fetch-$name.XXXXXX")
	trap 'rm -rf "$work"' EXIT INT TERM
	echo "== $name ($kind) from $site"
	ok=1
	case "$kind" in
	dimacs)
		get "$site/$file.gr.gz" "$work/g.gr.gz" && get "$site/$file.co.gz" "$work/g.co.gz" \
			&& gzip -d "$work/g.gr.gz" "$work/g.co.gz" || ok=0
		in="$work/g.gr"; opts="--coords $work/g.co"; sample="$in" ;;
	metis)
		get "$site/$file.graph.bz2" "$work/g.graph.bz2" && get "$site/$file.xyz.bz2" "$work/g.xyz.bz2" \
			&& bzip2 -d "$work/g.graph.bz2" "$work/g.xyz.bz2" || ok=0
		in="$work/g.graph"; opts="--coords $work/g.xyz"; sample="$in" ;;
	snap)
		get "$site/$file.txt.gz" "$work/g.txt.gz" && gzip -d "$work/g.txt.gz" || ok=0
		in="$work/g.txt"; opts="--compact-ids --keep-self-loops"; sample="$in" ;;
	esac
	if [ $ok = 0 ]; then
		echo "fetch.sh: $name: download from $site failed (no network here? --base DIR reads a folder laid out like the sites, e.g. a mirror or files copied by hand)" >&2
		status=1; rm -rf "$work"; continue
	fi
	dec=$(declared "$kind" "$sample")
	[ "$want_n" != "-" ] && exp="$want_n $want_m" || exp="$dec"
	if [ -n "$dec" ] && [ "$dec" != "$exp" ]; then
		echo "fetch.sh: $name: header declares '$dec', the catalogue expects '$exp'" >&2
		status=1; rm -rf "$work"; continue
	fi
	# shellcheck disable=SC2086
	if ! "$conv" "$in" "$work/g.ordo" $opts --info >"$work/info" 2>"$work/log"; then
		cat "$work/log" >&2
		echo "fetch.sh: $name: conversion failed" >&2
		status=1; rm -rf "$work"; continue
	fi
	got=$(loaded "$work/info")
	if [ -n "$exp" ] && [ "$got" != "$exp" ]; then
		echo "fetch.sh: $name: loaded '$got' nodes/arcs, expected '$exp'" >&2
		status=1; rm -rf "$work"; continue
	fi
	mv "$work/g.ordo" "$dest/$name.ordo"
	if [ $keep = 1 ]; then
		for f in "$work"/g.*; do
			[ -e "$f" ] && mv "$f" "$dest/$name.${f##*/g.}"
		done
	fi
	rm -rf "$work"
	echo "   ok: $got nodes/arcs -> $dest/$name.ordo"
done
exit $status
