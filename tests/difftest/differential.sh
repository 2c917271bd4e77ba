#!/bin/sh
# differential.sh: silkgen's random programs (silkgen.c) prove the
# optimiser, as the examples and golden programs do in
# tests/cpu/differential.sh (issue 13, item 4).  Each program, valid and
# free of undefined behaviour by construction, is run with `silkc exec`
# by its own first line (`// exec: --kernel K --grid G ...`) at -O0 (the
# IR as lowered) and with the passes, on the same random inputs (--seed 7,
# --workers 1 so that float atomics add in one order), and the two runs
# must both succeed and write the same bytes.
#
# Seeds FIRST..FIRST+N-1, N = $DIFFERENTIAL_SEEDS (32 by default: make
# check's bounded run, seconds on two cores; each run builds a module with
# cc), FIRST = $DIFFERENTIAL_FIRST (default 1); every fourth program
# --size medium, the others small, as in silkgen_check.sh; in parallel,
# one per core.  `make fuzz-diff` is the long run (FUZZ_DIFF_SEEDS,
# default 2000, from FUZZ_DIFF_FIRST); by hand, from a build tree:
#
#   DIFFERENTIAL_SEEDS=500 SILKGEN=tests/difftest/silkgen SILKC=src/silkc \
#       sh tests/difftest/differential.sh
#
# A program whose runs differ, or on which silkc fails at either level,
# is a bug of the optimiser (or of the generator): it is kept in
# $DIFFERENTIAL_KEEP (default tests/difftest/differential-failures, under
# the directory the script runs in) as seedS.silk, with what silkc said
# (seedS.log) and both runs' bytes, and the line printed names the seed
# and the command that reduces it (tests/difftest/reduce.sh); the
# reduced program becomes a case of tests/difftest/regressions/.  Exit 0
# when every program agrees, 1 otherwise, 77 (skipped) without a C
# compiler for the CPU backend.
set -u
: "${SILKGEN:?SILKGEN must name the silkgen to run (make check sets it)}"
: "${SILKC:?SILKC must name the silkc to test (make check sets it)}"
seeds=${DIFFERENTIAL_SEEDS:-32}
first=${DIFFERENTIAL_FIRST:-1}
keep=${DIFFERENTIAL_KEEP:-tests/difftest/differential-failures}

# run LEVEL PROGRAM EXEC...: one run into PROGRAM.LEVEL.bin, its words in
# PROGRAM.log; exec's status.
run() {
    level=$1 program=$2
    shift 2
    opt=$level
    [ "$level" = -O ] && opt=
    # shellcheck disable=SC2086 # $opt is empty or one word
    "$SILKC" exec "$program" $opt --workers 1 --seed 7 "$@" --out "$program$level.bin" \
        >/dev/null 2>>"$program.log"
}

# Prints "PASS SEED", or "FAIL SEED: why" and keeps the program.
check_one() {
    seed=$1 size=small
    [ $((seed % 4)) -eq 0 ] && size=medium
    p=$work/seed$seed.silk
    "$SILKGEN" "$seed" --size "$size" >"$p" 2>"$p.log" || { echo "FAIL $seed: silkgen failed"; return; }
    exec_line=$(sed -n '1s|^// exec: ||p' "$p")
    why=""
    # shellcheck disable=SC2086 # the exec line is words
    if ! run -O0 "$p" $exec_line; then
        why="silkc exec -O0 failed"
    elif ! run -O "$p" $exec_line; then
        why="silkc exec (with the passes) failed where -O0 ran"
    elif ! cmp -s "$p-O0.bin" "$p-O.bin"; then
        why="-O0 and the passes give different buffers"
    else
        rm -f "$p"*
        echo "PASS $seed"
        return
    fi
    mkdir -p "$keep"
    cp "$p" "$p.log" "$keep/"
    cp "$p"-O*.bin "$keep/" 2>/dev/null
    echo "FAIL $seed ($size): $why: $keep/seed$seed.silk (reduce: tests/difftest/reduce.sh $keep/seed$seed.silk)"
    head -n 3 "$p.log" | sed 's/^/    /'
}

if [ "${1:-}" = --one ]; then
    check_one "$2"
    exit 0
fi

command -v "${CC:-cc}" >/dev/null 2>&1 || { echo "SKIP: no C compiler (cc) for the CPU backend"; exit 77; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
export SILKGEN SILKC work keep
# make check's seeds have their C compiled at cc -O0 (tests/cpu/cc_O0.sh:
# both sides of the comparison alike, in half the time); make fuzz-diff
# (DIFFERENTIAL_CC=as-built) compiles it as users get it, at -O2.
if [ "${DIFFERENTIAL_CC:-O0}" = O0 ]; then
    CC_O0_CC=${CC:-cc} CC=$(cd "$(dirname "$0")/../cpu" && pwd)/cc_O0.sh
    export CC_O0_CC CC
fi

last=$((first + seeds - 1))
jobs=$(nproc 2>/dev/null || echo 2)
seq "$first" "$last" | xargs -P "$jobs" -I{} sh "$0" --one {} >"$work/results"

passed=$(grep -c '^PASS ' "$work/results")
grep -v '^PASS ' "$work/results"
echo "differential: seeds $first..$last: $passed of $seeds programs bit-identical at -O0 and with the passes"
[ "$passed" -eq "$seeds" ]
