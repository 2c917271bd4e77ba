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

for n in 1 1000 65536; do
    run "saxpy-$n" "$examples/saxpy.silk" --kernel saxpy --grid "$n" --arg "$n" \
        --buf f32:1:random --buf "f32:$n:random" --buf "f32:$n:random"
done
for n in 100 5000 100000; do
    run "reduce-$n" "$examples/reduce.silk" --kernel reduce --grid 65536 --arg "$n" \
        --buf "f32:$n:random" --buf f32:1:0
done
for rc in 32x32 64x96 128x64; do
    r=${rc%x*} c=${rc#*x}
    run "transpose-$rc" "$examples/transpose.silk" --kernel transpose --grid $((r / 32 * c / 32 * 256)) \
        --arg "$r" --arg "$c" --buf "f32:$((r * c)):random" --buf "f32:$((r * c)):0"
    run "stencil-$rc" "$examples/stencil.silk" --kernel stencil --grid $((r / 8 * c / 32 * 256)) \
        --arg "$r" --arg "$c" --buf "f32:$((r * c)):random" --buf "f32:$((r * c)):0"
done
for n in 1 777 20000; do
    run "histogram-$n" "$examples/histogram.silk" --kernel histogram --grid $((64 * 256)) --arg "$n" \
        --buf "u8:$n:random" --buf u32:256:0
done
for mnk in 32x32x32 64x32x96 96x64x32; do
    m=${mnk%%x*} rest=${mnk#*x} n=${rest%x*} k=${rest#*x}
    run "sgemm-$mnk" "$examples/sgemm.silk" --kernel sgemm --grid $((m / 32 * n / 32 * 256)) \
        --arg "$m" --arg "$n" --arg "$k" --buf "f32:$((m * k)):random" \
        --buf "f32:$((k * n)):random" --buf "f32:$((m * n)):0"
done

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
