#!/bin/sh
# differential.sh: the optimiser proved on real runs (issue 13, item 4).
# Each example kernel, and DIFFERENTIAL_SEEDS random programs of silkgen,
# are run by the CPU backend (silkc exec) on random inputs with a fixed
# seed, once as lowered (-O0) and once with the IR passes, the examples on
# several grid shapes (a partial last CTA among them where the kernel
# guards its tail); the buffers must be bit-identical.  One worker
# thread, so that float atomics add in one order.  Run by `make check`
# from the build directory (SILKC and SILK_SRCDIR override); exits 77
# (skipped) without a C compiler, which the CPU backend needs.
set -u
silkc=${SILKC:-./src/silkc}
src=${SILK_SRCDIR:-$(dirname "$0")/../..}
examples=$src/examples
command -v "${CC:-cc}" >/dev/null 2>&1 || { echo "SKIP: no C compiler (cc) for the CPU backend"; exit 77; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
status=0 runs=0

# run NAME FILE ARGS...: -O0 against the passes; ARGS start with --kernel.
run() {
    name=$1 file=$2
    shift 2
    for level in -O0 -O; do
        opt=$level
        [ "$level" = -O ] && opt=
        # shellcheck disable=SC2086 # $opt is empty or one word
        if ! "$silkc" exec "$file" $opt --workers 1 --seed 7 "$@" \
                --out "$work/$name$level.bin" 2>"$work/err"; then
            echo "FAIL: $name ($level): $(cat "$work/err")"
            status=1
            return
        fi
    done
    runs=$((runs + 1))
    cmp -s "$work/$name-O0.bin" "$work/$name-O.bin" ||
        { echo "FAIL: $name: -O0 and the passes give different buffers"; status=1; }
}

# The examples on their shapes (shapes.sh, shared with tests/gpu/compare-cpu.sh).
. "$src/tests/cpu/shapes.sh"
example_runs

# Random programs (tests/difftest/silkgen.c): valid, free of undefined
# behaviour by construction, each with the exec line it runs with.
# DIFFERENTIAL_SEEDS (default 20: each run builds a module with cc) programs
# here; more for a longer hunt.
silkgen=${SILKGEN:-./tests/difftest/silkgen}
seeds=${DIFFERENTIAL_SEEDS:-20}
if [ -x "$silkgen" ]; then
    seed=1
    while [ "$seed" -le "$seeds" ]; do
        size=small
        [ $((seed % 4)) -eq 0 ] && size=medium
        "$silkgen" "$seed" --size "$size" > "$work/p$seed.silk"
        exec_line=$(sed -n '1s|^// exec: ||p' "$work/p$seed.silk")
        # shellcheck disable=SC2086 # the exec line is words
        run "silkgen-$seed-$size" "$work/p$seed.silk" $exec_line
        seed=$((seed + 1))
    done
else
    echo "note: $silkgen not built: the random programs did not run"
fi

echo "$runs runs, -O0 against the passes"
exit $status
