#!/bin/sh
# libFuzzer over every reader (ASan + UBSan), seeded with the fixtures, the malformed
# catalogue and tests/fuzz_regress (inputs earlier runs found, each also replayed once).
#   FUZZ_MODE=ci (default): deterministic - a fixed seed and FUZZ_RUNS (4000) inputs,
#     no time limit, so the same commit always gives the same verdict (CI);
#   FUZZ_MODE=open: open-ended for FUZZ_SECONDS (600), for finding new inputs (the
#     fuzz_open test, registered with -DORDO_LONG_TESTS=ON).
# A finding is saved under WORK_DIR/fuzz; add it to tests/fuzz_regress.
# Usage: fuzz_test.sh SOURCE_DIR WORK_DIR
set -eu
src=$1
work=$2/fuzz
mode=${FUZZ_MODE:-ci}
command -v clang >/dev/null 2>&1 || { echo "clang is missing (.ci/install-deps installs it)"; exit 1; }
echo "fuzz: configuring and building its own variant in $work (the first run in a build folder takes minutes; later runs rebuild only what changed)"
CC=clang cmake -S "$src" -B "$work" -DORDO_BUILD_TESTS=OFF -DORDO_NATIVE=OFF \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DCMAKE_C_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer" \
	-DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
cmake --build "$work" --target ordo_io -j2 >/dev/null
clang -g -O1 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined -I"$src/io" -I"$src/graph" -I"$src/runtime" \
	"$src/tests/fuzz_load.c" "$work/libordo_io.a" "$work/libordo_graph.a" \
	"$work/libordo_runtime.a" -lzstd -lnuma -lm -fopenmp -o "$work/fuzz_load"
export ASAN_OPTIONS="detect_leaks=1"
export UBSAN_OPTIONS="halt_on_error=1"
# the regression cases, each once
for f in "$src"/tests/fuzz_regress/*; do
	case $f in *.md) continue ;; esac
	"$work/fuzz_load" -timeout=10 -rss_limit_mb=4096 "$f" >"$work/regress.log" 2>&1 ||
		{ tail -n 20 "$work/regress.log"; echo "FAIL: regression input $f"; exit 1; }
done
corpus="$work/corpus-$mode"
rm -rf "$corpus"
mkdir -p "$corpus"
i=0
# native files of both layouts, also resealed after each mutation (prefix bit 128: the
# fuzzer recomputes their checksums, so forged sections reach the reader's checks)
natives=""
if [ -x "$2/algorithms/ordo-convert" ]; then
	"$2/algorithms/ordo-convert" "$src/tests/fixtures/tiny.gr" -o "$corpus/../tiny.ordo" >/dev/null &&
		natives="$corpus/../tiny.ordo"
	# and the mappable layout (raw sections in place), plain and compressed
	for f in tiny.gr tiny_cz.ordo; do
		"$2/algorithms/ordo-convert" "$src/tests/fixtures/$f" --mappable \
			-o "$corpus/../map-${f%.*}.ordo" 2>/dev/null &&
			natives="$natives $corpus/../map-${f%.*}.ordo"
	done
fi
for f in $natives "$src"/tests/fixtures/tiny_cz.ordo; do
	for b in 134 198; do
		i=$((i + 1))
		{ printf "\\$(printf %o "$b")"; cat "$f"; } >"$corpus/seed$i"
	done
done
for f in "$src"/tests/fixtures/* "$src"/tests/malformed/*; do
	for b in 0 1 2 3 4 5 6 7 15 70; do # prefix byte = format choice (+64: --compress)
		i=$((i + 1))
		{ printf "\\$(printf %o "$b")"; cat "$f"; } >"$corpus/seed$i"
	done
done
for f in "$src"/tests/fuzz_regress/*; do
	case $f in *.md) ;; *) cp "$f" "$corpus/" ;; esac
done
if [ "$mode" = open ]; then
	limit="-max_total_time=${FUZZ_SECONDS:-600}"
else
	limit="-runs=${FUZZ_RUNS:-4000} -seed=1"
fi
status=0
# shellcheck disable=SC2086
"$work/fuzz_load" $limit -max_len=4096 -timeout=10 -rss_limit_mb=4096 \
	-artifact_prefix="$work/" -print_final_stats=1 "$corpus" >"$work/fuzz.log" 2>&1 || status=$?
tail -n 12 "$work/fuzz.log"
if [ $status -ne 0 ]; then
	echo "FAIL: the fuzzer found a failing input (saved under $work/; add it to tests/fuzz_regress)"
	exit 1
fi
echo "fuzz test passed ($mode)"
