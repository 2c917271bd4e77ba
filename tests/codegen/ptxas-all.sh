#!/bin/sh
# ptxas-all.sh: every valid Silk program we have, compiled by silkc for
# every PTX target it supports, must be accepted by ptxas.
#
# The programs: each tests/golden/*/*.silk whose expected diagnostics
# (CASE.err) hold no error — a case with no .err records none — and each
# examples/*.silk.  A first line `// silkc: ARGS` adds ARGS to the
# command, run in the case's directory (so `-I pkgs` resolves), as
# tests/golden/run.sh does.  Each program is compiled once for all twelve
# targets (silkc compile --arch sm_75,...,sm_121) and each module is
# assembled with `ptxas --gpu-name T -o /dev/null`; programs run in
# parallel, one per core.  A failure prints the program, the target and
# the first lines of what silkc or ptxas said.  Summary:
# "N programs x 12 targets: M assembled"; passes when M is all of them.
#
# Run by make check, which sets SILKC and SILK_SRCDIR; ptxas is $SILK_PTXAS,
# or on PATH, or in /usr/local/cuda/bin.  Exit 77 when there is no ptxas.
set -u
: "${SILKC:?SILKC must name the silkc to test (make check sets it)}"
srcdir=${SILK_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
ptxas=${SILK_PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
if [ ! -x "$ptxas" ]; then
    echo "ptxas-all: ptxas not found (install the CUDA toolkit or set SILK_PTXAS); skipped"
    exit 77
fi
targets="sm_75 sm_80 sm_86 sm_87 sm_89 sm_90 sm_90a sm_100 sm_103 sm_110 sm_120 sm_121"

# One program: prints "OK target" per module assembled, or "FAIL ..." lines.
check_one() {
    f=$1
    dir=$(dirname "$f") name=$(basename "$f" .silk)
    out="$work/$(echo "$f" | tr '/' '_')"
    mkdir -p "$out"
    args=$(sed -n '1s|^// silkc: *||p' "$f")
    arch_list=$(echo "$targets" | tr ' ' ',')
    # The occupancy warnings are off: they would run ptxas a second time to
    # measure each kernel, and this test is about assembling.
    # shellcheck disable=SC2086
    if ! (cd "$dir" && NO_COLOR=1 "$SILKC" compile $args "$name.silk" --arch "$arch_list" \
            -Wno-occ-low -Wno-occ-limit -Wno-spill -Wno-tail -Wno-block-size \
            -o "$out/$name.ptx") >"$out/silkc.log" 2>&1; then
        echo "FAIL $f (all targets): silkc compile failed:"
        head -n 3 "$out/silkc.log" | sed 's/^/    /'
        return
    fi
    for t in $targets; do
        if "$ptxas" --gpu-name "$t" -o /dev/null "$out/$name.$t.ptx" >"$out/$t.log" 2>&1; then
            echo "OK $t"
        else
            echo "FAIL $f $t: ptxas rejected it:"
            head -n 3 "$out/$t.log" | sed 's/^/    /'
        fi
    done
}

# xargs runs this script again as `ptxas-all.sh --one PROGRAM`, one per core.
if [ "${1:-}" = --one ]; then
    check_one "$2"
    exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SILKC ptxas work

# The valid programs, one absolute path a line.
{
    for f in "$srcdir"/tests/golden/*/*.silk; do
        err=${f%.silk}.err
        if [ -f "$err" ] && grep -q -e ': error: ' -e '"kind": *"error"' "$err"; then
            continue
        fi
        echo "$f"
    done
    ls "$srcdir"/examples/*.silk
} > "$work/programs"

jobs=$(nproc 2>/dev/null || echo 2)
xargs -P "$jobs" -I{} sh "$0" --one {} <"$work/programs" >"$work/results"

programs=$(wc -l <"$work/programs")
n_targets=$(echo "$targets" | wc -w)
assembled=$(grep -c '^OK ' "$work/results")
grep -v '^OK ' "$work/results"
rejected=$(grep -c ': ptxas rejected it:$' "$work/results")
uncompiled=$(grep -c ': silkc compile failed:$' "$work/results")
echo "ptxas-all: $programs programs x $n_targets targets: $assembled assembled" \
    "($rejected rejected by ptxas; $uncompiled programs silkc could not compile)"
[ "$assembled" -eq $((programs * n_targets)) ]
