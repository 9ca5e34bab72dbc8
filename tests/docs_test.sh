#!/bin/sh
# docs_test.sh SRC BUILD - every command shown in a ```sh block of the project's
# READMEs and manuals runs as written and writes only under build/ (or files the
# repository already holds, byte for byte: the samples' own regeneration commands).
# The commands run in a copy of the tracked sources whose build/ is BUILD (so
# `build/algorithms/sssp` is this build's), one block after another, each line by
# `sh -e` in the copy's root. A block that must not run here is preceded by a line
# `<!-- docs-test: skip REASON -->`, and the reason is printed; synopses (usage lines
# with placeholders) are ```text blocks, not ```sh.
set -eu
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
copy=$tmp/clone
mkdir -p "$copy"
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
	(cd "$src" && git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf -) |
		(cd "$copy" && tar -xf -)
else
	(cd "$src" && tar --exclude=./.git --exclude='./build*' --exclude=./bench/data -cf - .) |
		(cd "$copy" && tar -xf -)
fi
ln -s "$build" "$copy/build"
(cd "$copy" && find . -path ./build -prune -o -type f -print | sort | xargs md5sum) >"$tmp/before"
docs=$(cd "$copy" && find . -path ./build -prune -o -path ./tests/fixtures -prune -o \
	\( -name README.md -o -name APPS.md \) -print | sort)
ran=0 skipped=0
for doc in $docs; do
	# blocks of doc: one file per block (its lines), or a .skip file with the reason
	rm -rf "$tmp/blocks"
	mkdir -p "$tmp/blocks"
	awk -v dir="$tmp/blocks" '
		BEGIN { n = 0; skip = "" }
		/^[ \t]*<!-- docs-test: skip / { skip = $0; sub(/^[ \t]*<!-- docs-test: skip /, "", skip); sub(/ -->.*$/, "", skip); next }
		/^[ \t]*```sh[ \t]*$/ { n++; inb = 1; f = sprintf("%s/%04d", dir, n); s = skip; skip = "";
			if (s != "") print s > (f ".skip"); else printf "" > f; next }
		/^[ \t]*```/ { if (inb) { inb = 0; close(f) } next }
		inb { if (s == "") print >> f; next }
		!/^[ \t]*$/ { skip = "" }
	' "$copy/$doc"
	for b in "$tmp"/blocks/*; do
		[ -e "$b" ] || continue
		case $b in
		*.skip)
			echo "docs: $doc block ${b##*/}: not run here: $(cat "$b")"
			skipped=$((skipped + 1))
			continue
			;;
		esac
		while IFS= read -r line; do
			case $line in '' | '#'*) continue ;; esac
			echo "docs: $doc: $line"
			(cd "$copy" && sh -ec "$line") >"$tmp/out" 2>&1 ||
				{ tail -n 20 "$tmp/out"; fail "$doc: this command failed as written: $line"; }
			ran=$((ran + 1))
		done <"$b"
	done
done
[ "$ran" -gt 0 ] || fail "no command found in any README's sh blocks"
# nothing written outside build/ but the tracked files, as they were
(cd "$copy" && find . -path ./build -prune -o -type f -print | sort | xargs md5sum) >"$tmp/after"
if ! cmp -s "$tmp/before" "$tmp/after"; then
	diff "$tmp/before" "$tmp/after" | head -n 20
	fail "the documented commands wrote outside build/ or changed a tracked file"
fi
# bench/LOG.md's index lists every section of the log, in order
log=$copy/bench/LOG.md
awk '/^## / && $0 != "## Index" {print substr($0, 4)}' "$log" >"$tmp/sections"
sed -n 's/^- \[\(.*\)\](#[^)]*): .*/\1/p' "$log" >"$tmp/indexed"
cmp -s "$tmp/sections" "$tmp/indexed" ||
	{ diff "$tmp/sections" "$tmp/indexed" | head; fail "bench/LOG.md's index does not list its sections (add a line for each new one)"; }
echo "docs test passed: $ran commands run as written, $skipped block(s) not run here (reasons above)"
