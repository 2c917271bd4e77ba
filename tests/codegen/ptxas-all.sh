#!/bin/sh
# ptxas-all.sh: every valid Silk program we have, compiled by silkc for
# every PTX target it supports, must be accepted by ptxas.
#
# The programs: each tests/golden/*/*.silk whose expected diagnostics
# (CASE.err) hold no error — a case with no .err records none — and each
# examples/*.silk.  A first line `// silkc: ARGS` adds ARGS to the
# command, run in the case's directory (so `-I pkgs` resolves), as
# tests/golden/run.sh does.  Each program is compiled once for all twelve
# targets (silkc compile --arch sm_75,...,sm_121), programs in parallel,
# one per core.  Then each target's modules are assembled with `ptxas
# --gpu-name T -o /dev/null A.ptx B.ptx ...`, several to a run: ptxas
# takes a list of files, and a ptxas start per module was most of this
# test's time.  Modules share a run only when no module-scope name
# (.entry, .func, .global, .shared, .const, .extern included) is in two
# of them, so that no module can lean on another's definition; when a run
# fails, each of its modules is assembled alone to say which.  A failure
# prints the program, the target and the first lines of what silkc or
# ptxas said.  Summary: "N programs x 12 targets: M assembled"; passes
# when M is all of them.
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

# One program, compiled for every target: "COMPILED DIR NAME" (its modules
# are DIR/NAME.T.ptx), or "FAIL ..." lines.
compile_one() {
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
    echo "COMPILED $f $out/$name"
}

# One batch on one target: "OK T" per module assembled, else "FAIL" lines.
assemble() {
    t=$1
    shift
    batch=$work/batch.$t.$$
    : >"$batch.files"
    for m; do echo "${m#* }.$t.ptx" >>"$batch.files"; done
    # shellcheck disable=SC2046 # the modules are our own paths, no blanks
    if "$ptxas" --gpu-name "$t" -o /dev/null $(cat "$batch.files") >"$batch.log" 2>&1; then
        for m; do echo "OK $t"; done
        return
    fi
    for m; do
        f=${m%% *} module=${m#* }.$t.ptx
        if "$ptxas" --gpu-name "$t" -o /dev/null "$module" >"$batch.log" 2>&1; then
            echo "OK $t"
        else
            echo "FAIL $f $t: ptxas rejected it:"
            head -n 3 "$batch.log" | sed 's/^/    /'
        fi
    done
}

# batches T: "T PROGRAM MODULE ..." lines, each a ptxas run of modules
# whose module-scope names are all different (at most 32 to a run), from
# $work/compiled ("PROGRAM MODULE" a line).
batches() {
    while read -r f module; do
        printf '%s %s' "$f" "$module"
        # The names a module defines or declares at module scope.
        sed -n 's/^\.\(visible \|weak \|extern \)*\.\(entry\|func\|global\|shared\|const\)[ \t]/&/p' \
            "$module.$1.ptx" | sed -e 's/\.func[ \t]*([^)]*)/.func/' -e 's/[([;={].*//' |
            awk '{ printf " %s", $NF }'
        echo
    done <"$work/compiled" | awk -v t="$1" '
        {
            placed = 0
            for (b = 1; b <= n && !placed; b++) {
                if (size[b] >= 32) continue
                clash = 0
                for (i = 3; i <= NF; i++) if ((b, $i) in used) clash = 1
                if (!clash) placed = b
            }
            if (!placed) placed = ++n
            for (i = 3; i <= NF; i++) used[placed, $i] = 1
            size[placed]++
            members[placed] = members[placed] " " $1 "@" $2
        }
        END { for (b = 1; b <= n; b++) print t members[b] }'
}

# xargs runs this script again as `ptxas-all.sh --compile PROGRAM` and
# `ptxas-all.sh --assemble T PROGRAM@MODULE...`, one per core.
if [ "${1:-}" = --compile ]; then
    compile_one "$2"
    exit 0
fi
if [ "${1:-}" = --assemble ]; then
    t=$2
    shift 2
    for pm; do set -- "$@" "${pm%%@*} ${pm#*@}"; shift; done
    assemble "$t" "$@"
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
xargs -P "$jobs" -I{} sh "$0" --compile {} <"$work/programs" >"$work/compiled.log"
grep -v '^COMPILED ' "$work/compiled.log" >"$work/results"
sed -n 's/^COMPILED //p' "$work/compiled.log" >"$work/compiled"
export targets
for t in $targets; do batches "$t"; done | xargs -P "$jobs" -L 1 sh "$0" --assemble >>"$work/results"

programs=$(wc -l <"$work/programs")
n_targets=$(echo "$targets" | wc -w)
assembled=$(grep -c '^OK ' "$work/results")
grep -v '^OK ' "$work/results"
rejected=$(grep -c ': ptxas rejected it:$' "$work/results")
uncompiled=$(grep -c ': silkc compile failed:$' "$work/results")
echo "ptxas-all: $programs programs x $n_targets targets: $assembled assembled" \
    "($rejected rejected by ptxas; $uncompiled programs silkc could not compile)"
[ "$assembled" -eq $((programs * n_targets)) ]
