#!/bin/sh
# advice_agreement.sh: silkc's -Wocc-limit and `silk-occ report` give the
# same advice (issue 12, item 3).  For every example and every valid golden
# program with a fixed-size kernel (an @launch), on five targets, the
# register caps -Wocc-limit suggests from `silkc check --arch T` must be
# exactly the caps of the report's section 4 (launch_bounds_advice) that
# ptxas showed to be a safe gain (within the cap, no spills), each for the
# same kernel at the same block size.  Both choose through the engine's
# policy (occupancy/policy.c); this test keeps it so.
#
# Needs ptxas (the caps are suggested only from its figures) and jq; exits
# 77 naming what is missing.  Files are checked two at a time.  Run by make
# check, which sets SILKC, SILK_OCC and SILK_SRCDIR.
set -u
: "${SILKC:?}" "${SILK_OCC:?}" "${SILK_SRCDIR:?}"
TARGETS="sm_75 sm_80 sm_86 sm_90 sm_120"
# compare FILE: one line "FILE: T: ..." per disagreement on stdout.  One
# silkc check and one report for the five targets (each line and report
# names its target), not one of each per target: the same comparisons.
compare() {
    f=$1
    out=$work/$(echo "$f" | tr / _)
    arch_list=$(echo $TARGETS | tr ' ' ,)
    "$SILKC" check --arch "$arch_list" "$f" 2>"$out.err" >/dev/null
    "$SILK_OCC" report "$f" --arch "$arch_list" --format json --check-caps >"$out.json" 2>/dev/null ||
        { echo "$f: $arch_list: silk-occ report failed"; return; }
    for t in $TARGETS; do
        sed -n "s/.*warning: on $t: max_regs \([0-9]*\) would give [0-9]* CTAs\/SM of \([0-9]*\) threads.*ptxas fits '\([^']*\)'.*/\3 \2 \1/p" \
            "$out.err" | sort >"$out.$t.warn"
        jq -r --arg t "$t" '.reports[] | select(.arch == $t and .launch_bounds.reqntid != null)
               | .launch_bounds_advice as $a
               | select($a.applies and $a.checked_with_ptxas and $a.spill_stores_at_cap == 0
                        and $a.spill_loads_at_cap == 0 and $a.registers_at_cap <= $a.max_registers)
               | "\(.kernel) \(.selected.threads) \($a.max_registers)"' "$out.json" |
            sort >"$out.$t.report"
        cmp -s "$out.$t.warn" "$out.$t.report" ||
            echo "$f: $t: -Wocc-limit [$(tr '\n' ';' <"$out.$t.warn")] report [$(tr '\n' ';' <"$out.$t.report")]"
    done
}

if [ "${1:-}" = --one ]; then # one file, from xargs below, in its $work
    compare "$2"
    exit 0
fi

command -v jq >/dev/null 2>&1 || { echo "SKIP: advice_agreement.sh: no jq"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
NO_COLOR=1
export NO_COLOR
unset SILK_PTXAS

"$SILKC" compile "$SILK_SRCDIR/examples/saxpy.silk" --arch sm_90 --emit=cubin \
    -o "$work/probe.cubin" 2>"$work/err"
if [ $? -eq 3 ]; then
    echo "SKIP: advice_agreement.sh: $(cat "$work/err")"
    exit 77
fi

# The programs: the examples, and the golden programs whose expected
# diagnostics are empty (they compile), that fix a kernel's size.
list() {
    for f in "$SILK_SRCDIR"/examples/*.silk; do echo "$f"; done
    for f in "$SILK_SRCDIR"/tests/golden/*/*.silk; do
        err=${f%.silk}.err
        [ -f "$err" ] && [ ! -s "$err" ] && echo "$f"
    done
}

list | while read -r f; do grep -l '@launch' "$f"; done >"$work/files"
export SILKC SILK_OCC SILK_SRCDIR work NO_COLOR
xargs -P2 -n1 sh "$0" --one <"$work/files" >"$work/diffs"
n=$(wc -l <"$work/files")
if [ -s "$work/diffs" ]; then
    cat "$work/diffs"
    echo "FAIL: advice_agreement.sh: $(wc -l <"$work/diffs") disagreements over $n programs"
    exit 1
fi
agreed=$(cat "$work"/*.report 2>/dev/null | wc -l)
# examples/sgemm.silk alone has a safe cap on sm_80 and sm_90: a test that
# compared nothing would prove nothing.
if [ "$agreed" -lt 2 ]; then
    echo "FAIL: advice_agreement.sh: only $agreed caps advised over $n programs"
    exit 1
fi
echo "PASS: advice_agreement.sh: $n programs on $TARGETS, $agreed caps named alike"
exit 0
