#!/bin/sh
# Coverage-guided fuzzing of the readers (libFuzzer, ASan + UBSan), seeded with the
# fixtures and the malformed catalogue; FUZZ_SECONDS (default 60) in total.
# Usage: fuzz_test.sh SOURCE_DIR WORK_DIR
set -eu
src=$1
work=$2/fuzz
secs=${FUZZ_SECONDS:-60}
command -v clang >/dev/null 2>&1 || { echo "clang is missing (.ci/install-deps installs it)"; exit 1; }
CC=clang cmake -S "$src" -B "$work" -DORDO_BUILD_TESTS=OFF -DORDO_NATIVE=OFF \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DCMAKE_C_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer" \
	-DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
cmake --build "$work" --target ordo_io -j2 >/dev/null
clang -g -O1 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined -I"$src/io" -I"$src/graph" -I"$src/runtime" \
	"$src/tests/fuzz_load.c" "$work/libordo_io.a" "$work/libordo_graph.a" \
	"$work/libordo_runtime.a" -lzstd -lnuma -lm -fopenmp -o "$work/fuzz_load"
corpus="$work/corpus"
mkdir -p "$corpus"
i=0
for f in "$src"/tests/fixtures/* "$src"/tests/malformed/*; do
	for b in 0 1 2 3 4 5 6; do # prefix byte = format choice
		i=$((i + 1))
		{ printf "\\$(printf %o "$b")"; cat "$f"; } >"$corpus/seed$i"
	done
done
export ASAN_OPTIONS="detect_leaks=1"
export UBSAN_OPTIONS="halt_on_error=1"
status=0
"$work/fuzz_load" -max_total_time="$secs" -max_len=4096 -timeout=10 -rss_limit_mb=4096 \
	-artifact_prefix="$work/" -print_final_stats=1 "$corpus" >"$work/fuzz.log" 2>&1 || status=$?
tail -n 12 "$work/fuzz.log"
if [ $status -ne 0 ]; then
	echo "FAIL: the fuzzer found a failing input (saved under $work/)"
	exit 1
fi
echo "fuzz test passed"
