#!/bin/sh
# run.sh: the IR pass tests.  Each tests/ir/PASS/CASE.ir is run through
# ir-opt (the verifier after every pass) and its output compared with
# CASE.out beside it.  The passes are the directory's name, unless the
# case's first line says otherwise: `# passes: fold dce` (`O`: the whole
# pipeline).  When ir-opt fails, what is compared is a line `# error` and
# its stderr (so a case can expect a rejection).  UPDATE=1 rewrites the
# expected files from what ir-opt prints now (review the diff before
# committing it).
# make check sets IR_OPT; by hand: IR_OPT=build/tests/ir/ir-opt sh run.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${IR_OPT:?IR_OPT must name the ir-opt to test (make check sets it)}"
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
passed=0 failed=0

for case_file in "$here"/*/*.ir; do
    dir=$(dirname "$case_file")
    name=${case_file%.ir}
    passes=$(sed -n '1s/^# passes: *//p' "$case_file")
    [ -n "$passes" ] || passes=$(basename "$dir")
    # shellcheck disable=SC2086
    "$IR_OPT" "$case_file" $passes >"$out" 2>"$err"
    code=$?
    if [ $code -ne 0 ]; then
        { echo "# error"; sed "s|^$dir/||" "$err"; } >"$out"
    fi
    if [ "${UPDATE:-0}" = 1 ]; then
        cp "$out" "$name.out"
    elif [ ! -f "$name.out" ]; then
        echo "FAIL: ${case_file#"$here"/} has no .out beside it"
        failed=$((failed + 1))
        continue
    elif ! diff -u "$name.out" "$out"; then
        echo "FAIL: ${case_file#"$here"/} (UPDATE=1 rewrites ${name#"$here"/}.out)"
        failed=$((failed + 1))
        continue
    fi
    passed=$((passed + 1))
done
echo "ir passes: $passed passed, $failed failed"
[ "$passed" -gt 0 ] && [ "$failed" -eq 0 ]
