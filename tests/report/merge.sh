#!/bin/sh
# merge.sh: silk-occ merge of a report's JSON gives the report itself.
# Each golden report case (tests/report/golden/CASE.report) has its JSON
# beside its text, CSV and markdown; merge of CASE.json with the case's
# options (its inputs left out) must print each of them byte for byte,
# and the JSON itself but for "tool" (merge runs no ptxas or nvcc; with
# jq).  No toolkit is needed: the figures are the JSON's, the register
# caps and unbounded compiles the JSON recorded.  Left out: persistent,
# whose Silk @persistent attribute the JSON does not record.  Run by make
# check (SILK_OCC, SILK_SRCDIR).
set -u
: "${SILK_OCC:?}" "${SILK_SRCDIR:?}"
cd "$SILK_SRCDIR" || exit 99
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0 cases=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
reports=$(ls tests/report/golden/*.report)
set -f # the options hold '*' (--dyn-smem 4*threads+256) and '<' (--kernel scale<8>)
for report in $reports; do
    case=${report%.report}
    name=${case##*/}
    [ -f "$case.json" ] && [ "$name" != persistent ] || continue
    args=$(sed -n '1s|^// silk-occ: ||p' "$report")
    envs=$(sed -n 's|^// env: ||p' "$report")
    set --
    for a in $args; do
        [ -f "$a" ] || set -- "$@" "$a" # the inputs are the JSON's now
    done
    cases=$((cases + 1))
    for pair in txt:text csv:csv md:markdown; do
        ext=${pair%%:*}
        [ -f "$case.$ext" ] || continue
        # shellcheck disable=SC2086 # $envs: VAR=VALUE words
        env $envs NO_COLOR=1 "$SILK_OCC" merge "$case.json" "$@" --format "${pair#*:}" \
            >"$work/out" 2>"$work/err" || fail "$name $ext: exit $? ($(head -1 "$work/err"))"
        cmp -s "$work/out" "$case.$ext" || fail "$name: merge --format ${pair#*:} is not $case.$ext"
    done
    if command -v jq >/dev/null 2>&1; then
        # shellcheck disable=SC2086
        env $envs NO_COLOR=1 "$SILK_OCC" merge "$case.json" "$@" --format json |
            jq 'del(.tool)' >"$work/out.json"
        jq 'del(.tool)' "$case.json" >"$work/want.json"
        cmp -s "$work/out.json" "$work/want.json" || fail "$name: merge --format json is not $case.json"
    fi
done
[ $cases -gt 10 ] || fail "only $cases golden cases found"
[ $failures = 0 ] && echo "PASS: merge of $cases golden reports gives each report"
[ $failures = 0 ]
