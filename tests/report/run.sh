#!/bin/sh
# run.sh: golden tests of `silk-occ report`: each case below is run in text
# (NO_COLOR) and JSON form from the source directory and compared with
# tests/report/golden/CASE.txt and CASE.json; every JSON output is then
# validated against docs/report-schema.json by check_schema.  The cases of
# FORMAT_CASES are also run as CSV and markdown (CASE.csv, CASE.md), and
# each CSV checked against the JSON by check_csv.  UPDATE=1 rewrites the
# expected files (review the diff before committing).
#
# Register counts come from ptxas -v, so the cases need ptxas, except the
# ones run with SILK_PTXAS=none (the compiler's estimate, marked so); without
# ptxas only those run, and the script exits 77 naming what was skipped.
#
# Checked by hand against the engine (silk-occ calc), this tree, ptxas 13.0:
#  - sgemm on sm_90: ptxas -v says 34 registers, 8192 bytes smem, 1 barrier;
#    `silk-occ calc --arch sm_90 --threads 256 --regs 34 --smem 8K` gives 6
#    CTAs/SM, registers limiting (warps 8, smem 25, CTA slots 32), 75.0%:
#    the row "> 256 6 25 8 32 6 75.0% registers" of sgemm.txt.
#  - kernels-ptx free_saxpy on a100-80gb: ptxas -v says 12 registers, no
#    smem, 0 barriers; `silk-occ calc --gpu a100-80gb --threads 96 --regs 12
#    --barriers 0` gives 21 CTAs/SM, warp slots limiting, 98.4%: the row
#    "96 42 164 21 32 21 98.4%" of kernels-ptx.txt; and at 64 threads 32
#    CTAs (warps and CTA slots both 32), 100%.
# Run by make check, which sets SILK_OCC, SILK_SRCDIR, CHECK_SCHEMA and
# CHECK_CSV.
set -u
set -f # the cases' arguments hold globs (--kernel, --dyn-smem) for silk-occ, not the shell
: "${SILK_OCC:?}" "${SILK_SRCDIR:?}" "${CHECK_SCHEMA:?}" "${CHECK_CSV:?}"
cd "$SILK_SRCDIR" || exit 99
golden=tests/report/golden
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
TARGETS=sm_75,sm_80,sm_86,sm_90,sm_120

# name|SILK_PTXAS value ("" to keep it)|arguments
cases() {
    for e in histogram reduce saxpy sgemm stencil transpose; do
        echo "$e||examples/$e.silk --arch $TARGETS --work 1000000"
    done
    echo "kernels-ptx||tests/report/inputs/kernels.ptx --gpu a100-80gb,l4 --work 100000 --block-sizes 96,1024"
    echo "pressure||tests/data/silk/pressure.silk --gpu h100-sxm,rtx-4090 --work 5000000"
    echo "estimated|none|examples/sgemm.silk --arch sm_80 --work 4096"
    # without --work: each kernel's work from its launch block's constant grid
    echo "launch-grid||examples/saxpy.silk examples/sgemm.silk --gpu h100-sxm,l4"
    # C++ kernels, dynamic shared memory over the block size, a .maxntid
    # that is no candidate, a 2-D work; then the same unsized: an upper bound
    echo "dynamic-ptx||tests/report/inputs/dynamic.ptx --gpu h100-sxm,a100-80gb --dyn-smem 4*threads+256 --work 4096x2048"
    echo "dynamic-unsized||tests/report/inputs/dynamic.ptx --arch sm_80 --kernel scale<8>"
    # a @persistent kernel: its launch with the persistent grid and the logical CTA count
    echo "persistent||tests/report/inputs/persistent.silk --gpu h100-sxm,a100-80gb"
}

have_ptxas=yes
"$SILK_OCC" report tests/report/inputs/kernels.ptx --arch sm_80 >/dev/null 2>&1
[ $? -eq 3 ] && have_ptxas=no
status=0 skipped=""
compare() { # expected actual
    if [ "${UPDATE:-0}" = 1 ]; then
        cp "$2" "$1"
    elif ! diff -u "$1" "$2"; then
        echo "FAIL: $1 differs (UPDATE=1 rewrites it)"
        status=1
    fi
}
run_case() { # name ptxas args...
    name=$1 ptxas=$2
    shift 2
    if [ -n "$ptxas" ]; then
        export SILK_PTXAS="$ptxas"
    fi
    # shellcheck disable=SC2068
    NO_COLOR=1 "$SILK_OCC" report "$@" >"$work/$name.txt" 2>"$work/$name.err" ||
        { echo "FAIL: $name: exit $?: $(cat "$work/$name.err")"; status=1; }
    "$SILK_OCC" report "$@" --format json >"$work/$name.json" 2>>"$work/$name.err" ||
        { echo "FAIL: $name --format json: exit $?"; status=1; }
    unset SILK_PTXAS
    compare "$golden/$name.txt" "$work/$name.txt"
    compare "$golden/$name.json" "$work/$name.json"
    "$CHECK_SCHEMA" "$work/$name.json" || status=1
}

tab=$(cases)
IFS='
'
for line in $tab; do
    name=${line%%|*} rest=${line#*|}
    ptxas=${rest%%|*} args=${rest#*|}
    if [ "$have_ptxas" = no ] && [ -z "$ptxas" ]; then
        skipped="$skipped $name"
        continue
    fi
    IFS=' '
    # shellcheck disable=SC2086
    run_case "$name" "$ptxas" $args
    IFS='
'
done

# --format csv and markdown for the cases below (their arguments,
# so the same kernels and targets; a bare architecture in "estimated"):
# golden CASE.csv and CASE.md, and each CSV read back with libcsv and
# compared cell by cell with the case's JSON by check_csv.
FORMAT_CASES="histogram reduce saxpy sgemm stencil transpose kernels-ptx pressure launch-grid estimated dynamic-ptx"
run_formats() { # name ptxas args...
    name=$1 ptxas=$2
    shift 2
    if [ -n "$ptxas" ]; then
        export SILK_PTXAS="$ptxas"
    fi
    for format in csv markdown; do
        ext=$format
        [ "$format" = markdown ] && ext=md
        "$SILK_OCC" report "$@" --format "$format" >"$work/$name.$ext" 2>"$work/$name.err" ||
            { echo "FAIL: $name --format $format: exit $?: $(cat "$work/$name.err")"; status=1; }
        compare "$golden/$name.$ext" "$work/$name.$ext"
    done
    unset SILK_PTXAS
    "$CHECK_CSV" "$work/$name.csv" "$work/$name.json" || status=1
}
for line in $tab; do
    name=${line%%|*} rest=${line#*|}
    ptxas=${rest%%|*} args=${rest#*|}
    case " $FORMAT_CASES " in *" $name "*) ;; *) continue ;; esac
    [ "$have_ptxas" = no ] && [ -z "$ptxas" ] && continue
    IFS=' '
    # shellcheck disable=SC2086
    run_formats "$name" "$ptxas" $args
    IFS='
'
done
if [ "$status" = 0 ] && [ -n "$skipped" ]; then
    echo "SKIP: run.sh: no ptxas, so not:$skipped"
    exit 77
fi
exit "$status"
