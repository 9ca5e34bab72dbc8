#!/bin/sh
# skipped.sh DIR - run by ctest after the tests (CTEST_CUSTOM_POST_TEST): prints why
# each skipped test was skipped, from the notes the tests left in DIR, since ctest
# itself shows "***Skipped" without the test's output.
dir=$1
[ -d "$dir" ] || exit 0
set -- "$dir"/*.txt
[ -e "$1" ] || exit 0
echo "Why tests were skipped:"
for f in "$@"; do
	sed 's/^/  /' "$f"
done
