#!/bin/sh
# run.sh [CASE...]: the golden tests, every kind of them, several cases at
# a time (all of them without arguments; make check runs it so).  A case
# is an input beside its expected files, and each expected file's
# extension names what is compared with it, as cproc's runtests does:
#
#   CASE.silk (tests/golden/*/, tests/amdgpu/golden/), silkc in its directory:
#     CASE.ast      stdout of `silkc check --dump-ast CASE.silk`
#     CASE.err      stderr of `silkc check CASE.silk`; the exit status must
#                   be 1 when it holds an error, else 0
#     CASE.ir       stdout of `silkc compile -O0 --emit=ir CASE.silk`: the IR
#                   as lowered, before any pass; the compile must succeed
#     CASE.ARCH.ll  stdout of `silkc compile --arch ARCH --emit=llvm -o -
#                   CASE.silk`: the AMDGPU LLVM IR; the compile must succeed
#   CASE.report (tests/report/golden/), `silk-occ report` in the source tree:
#     CASE.txt      the text report
#     CASE.json     --format json, which check_schema must also accept
#     CASE.csv      --format csv, which check_csv must find saying what the
#                   JSON says
#     CASE.md       --format markdown
#
# A first line `// silkc: ARGS` (in a .report, `// silk-occ: ARGS`, its
# files and options) adds ARGS to every command of the case.  A line
# `// env: VAR=VALUE...` sets those for the commands (SILK_PTXAS=none: the
# compiler's estimate).  A line `// targets: T...` makes CASE.err what
# `silkc compile --arch T -o -` (LLVM IR or PTX) prints for each T: a
# refusal in a back end.  Every command runs with NO_COLOR.  A report case
# needs ptxas (unless SILK_PTXAS=none) and is skipped without it.
#
# UPDATE=1 rewrites every expected file from what is printed now (review
# the diff before committing it); a case with none starts as CASE.err, or
# CASE.txt and CASE.json.  Prints each failing or skipped case and a
# summary; exits 0, 1 when a case fails, 77 when one was skipped.  make
# check sets SILKC, SILK_OCC, CHECK_SCHEMA and CHECK_CSV; by hand they are
# the in-tree build's: sh tests/golden/run.sh tests/golden/parse/CASE.silk
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
SILKC=${SILKC:-$top/src/silkc} SILK_OCC=${SILK_OCC:-$top/src/silk-occ}
CHECK_SCHEMA=${CHECK_SCHEMA:-$top/tests/report/check_schema}
CHECK_CSV=${CHECK_CSV:-$top/tests/report/check_csv}
export SILKC SILK_OCC CHECK_SCHEMA CHECK_CSV
[ -n "${GOLDEN_PTXAS:-}" ] || { # yes or no, found once for all the cases
    GOLDEN_PTXAS=yes
    "$SILK_OCC" report "$top/tests/report/inputs/kernels.ptx" --arch sm_80 >/dev/null 2>&1
    [ $? -eq 3 ] && GOLDEN_PTXAS=no
    export GOLDEN_PTXAS
}

if [ "${1:-}" != --case ]; then # the driver
    GOLDEN_WORK=$(mktemp -d)
    export GOLDEN_WORK
    trap 'rm -rf "$GOLDEN_WORK"' EXIT
    results=$GOLDEN_WORK/results
    if [ $# -eq 0 ]; then # the slowest (ptxas) first
        find "$top/tests/report/golden" -name '*.report' | sort
        find "$top/tests/amdgpu/golden" "$top/tests/golden" -mindepth 1 -name '*.silk' | sort
    else
        printf '%s\n' "$@"
    fi | xargs -P "$(nproc 2>/dev/null || echo 2)" -I{} sh "$0" --case {} >"$results"
    grep -v '^PASS ' "$results"
    passed=$(grep -c '^PASS ' "$results") failed=$(grep -c '^FAIL ' "$results")
    skipped=$(grep -c '^SKIP ' "$results")
    kinds=$(sed -n 's/^PASS [^ ]*://p' "$results" | tr ' ' '\n' | grep . | sort | uniq -c |
        awk '{ printf "%s %s .%s", sep, $1, $2; sep = "," }')
    echo "golden: $passed passed, $failed failed, $skipped skipped; compared:$kinds"
    [ "$failed" -gt 0 ] && exit 1
    [ "$skipped" -gt 0 ] && exit 77
    [ "$passed" -gt 0 ]
    exit
fi

case_file=$2
case $case_file in /*) ;; *) case_file=$PWD/$case_file ;; esac
dir=${case_file%/*} base=${case_file##*/}
name=${base%.*}
work=$GOLDEN_WORK/$$ # the driver's scratch directory, removed by it
set -f # the arguments hold globs (--kernel, --dyn-smem) for the tools, not the shell
args="" env_vars="" targets="" first=yes
while IFS= read -r line; do # the first line's arguments, the leading comments' directives
    case $line in
    "// silkc:"* | "// silk-occ:"*) [ $first = yes ] && args=${line#*:} ;;
    "// env:"*) env_vars=${line#*:} ;;
    "// targets:"*) targets=${line#*:} ;;
    //*) ;;
    *) break ;;
    esac
    first=no
done <"$case_file"
NO_COLOR=1
# shellcheck disable=SC2086,SC2163
export NO_COLOR $env_vars
status=0 compared=""

compare() { # EXPECTED ACTUAL: the one UPDATE=1 rule
    compared="$compared ${1##*.}"
    if [ "${UPDATE:-0}" = 1 ]; then
        cp "$2" "$1"
    elif ! diff -u "$1" "$2"; then
        echo "FAIL: $1 differs (UPDATE=1 rewrites it)"
        status=1
    fi
}
tool() { # OUT COMMAND...: stdout to OUT; a failure is the case's
    dest=$1
    shift
    "$@" >"$dest" 2>"$work.err" && return
    echo "FAIL: $base: exit $? from $*: $(cat "$work.err")"
    status=1
    return 1
}
diagnostics() { # CODE [TARGET]: CASE.err against $work.err; exit 1 when it holds an error, else 0
    if [ -z "${2:-}" ] || [ "$2" = "$first_target" ]; then
        compare "$name.err" "$work.err"
    elif compared="$compared err" && ! diff -u "$name.err" "$work.err"; then
        echo "FAIL: $name.err differs from the stderr for $2" # the first target's, even under UPDATE=1
        status=1
    fi
    want=0
    grep -q -e ': error: ' -e '"kind": *"error"' "$name.err" && want=1
    [ "$1" -eq "$want" ] || { echo "FAIL: $base${2:+ for $2}: exit status $1, expected $want"; status=1; }
}

silk_case() {
    cd "$dir" || exit 99
    set +f
    set -- "$name".*.ll
    set -f
    [ -f "$1" ] || shift
    if [ $# = 0 ] && [ ! -f "$name.ast" ] && [ ! -f "$name.err" ] && [ ! -f "$name.ir" ]; then
        [ "${UPDATE:-0}" = 1 ] || { echo "FAIL: $base has no $name.ast, .err, .ir or .ARCH.ll"; exit 99; }
        : >"$name.err" # UPDATE=1 starts a case with no expected file as a diagnostics case
    fi
    # shellcheck disable=SC2086
    if [ -f "$name.ast" ]; then
        "$SILKC" check --dump-ast $args "$base" >"$work.out" 2>/dev/null
        compare "$name.ast" "$work.out"
    fi
    # shellcheck disable=SC2086
    [ -f "$name.ir" ] && tool "$work.out" "$SILKC" compile -O0 --emit=ir $args "$base" &&
        compare "$name.ir" "$work.out"
    for ll in "$@"; do
        arch=${ll#"$name".}
        # shellcheck disable=SC2086
        tool "$work.out" "$SILKC" compile --arch "${arch%.ll}" --emit=llvm -o - $args "$base" &&
            compare "$ll" "$work.out"
    done
    [ -f "$name.err" ] || return 0
    if [ -z "$targets" ]; then
        # shellcheck disable=SC2086
        "$SILKC" check $args "$base" >/dev/null 2>"$work.err"
        diagnostics $?
    fi
    # shellcheck disable=SC2086
    set -- $targets
    first_target=${1:-}
    for target in $targets; do
        emit=ptx
        case $target in gfx*) emit=llvm ;; esac
        # shellcheck disable=SC2086
        "$SILKC" compile --arch "$target" --emit=$emit -o - $args "$base" \
            >/dev/null 2>"$work.err"
        diagnostics $? "$target"
    done
}

# The JSON's "tool" versions (silk-occ's, and ptxas's, nvcc's, llc's where
# they ran) as VERSION: a golden file holds what the report says, not which
# release of the toolkit this machine has.  Which tools ran, and the null
# of one that did not, stay compared.
tool_versions() {
    t=$(printf '\t')
    sed -e "/^$t\"tool\":$t{/,/^$t}/{" \
        -e "s/^\($t$t\"version\":$t\)\"[^\"]*\"/\1\"VERSION\"/" \
        -e "s/^\($t$t\"ptxas\":$t\)\"[^\"]*\"/\1\"VERSION\"/" \
        -e "s/^\($t$t\"nvcc\":$t\)\"[^\"]*\"/\1\"VERSION\"/" \
        -e "s/^\($t$t\"llc\":$t\)\"[^\"]*\"/\1\"VERSION\"/" -e "}"
}

report_case() {
    cd "$top" || exit 99
    case " $env_vars " in *" SILK_PTXAS=none "*) ;; *)
        [ "$GOLDEN_PTXAS" = yes ] || { echo "no ptxas"; exit 77; } ;;
    esac
    e=${dir#"$top"/}/$name
    if [ ! -f "$e.txt" ] && [ ! -f "$e.json" ] && [ ! -f "$e.csv" ] && [ ! -f "$e.md" ]; then
        [ "${UPDATE:-0}" = 1 ] || { echo "FAIL: $base has no $name.txt, .json, .csv or .md"; exit 99; }
        : >"$e.txt" && : >"$e.json" # UPDATE=1 starts a case with no expected file so
    fi
    # shellcheck disable=SC2086
    [ -f "$e.txt" ] && tool "$work.out" "$SILK_OCC" report $args && compare "$e.txt" "$work.out"
    if [ -f "$e.json" ] || [ -f "$e.csv" ]; then # check_csv reads the JSON
        # shellcheck disable=SC2086
        if tool "$work.json" "$SILK_OCC" report $args --format json; then
            "$CHECK_SCHEMA" "$work.json" || { echo "FAIL: check_schema rejects its JSON"; status=1; }
            [ -f "$e.json" ] && tool_versions <"$work.json" >"$work.json.cmp" &&
                compare "$e.json" "$work.json.cmp"
        fi
    fi
    # shellcheck disable=SC2086
    if [ -f "$e.csv" ] && tool "$work.csv" "$SILK_OCC" report $args --format csv; then
        compare "$e.csv" "$work.csv"
        "$CHECK_CSV" "$work.csv" "$work.json" || { echo "FAIL: check_csv: its CSV and JSON disagree"; status=1; }
    fi
    # shellcheck disable=SC2086
    [ -f "$e.md" ] && tool "$work.out" "$SILK_OCC" report $args --format markdown &&
        compare "$e.md" "$work.out"
}

out=$(
    exec 2>&1
    case $base in
    *.report) report_case ;;
    *) silk_case ;;
    esac
    echo "compared:$compared"
    exit $status
)
code=$?
case $code in
0) echo "PASS ${case_file#"$top"/}:${out##*compared:}" ;;
77) echo "SKIP ${case_file#"$top"/}: $out" ;;
*) printf 'FAIL %s\n%s\n' "${case_file#"$top"/}" "${out%compared:*}" ;;
esac
exit $code
