#!/bin/sh
# shapes.sh: every example kernel on three grid shapes each (a partial
# last CTA among them where the kernel guards its tail), the runs that
# tests/cpu/differential.sh (-O0 against the passes) and
# tests/gpu/compare-cpu.sh (a GPU against the CPU backend) both make.
# Sourced, not run: example_runs calls the sourcing script's
#
#   run NAME FILE ARGS...
#
# once per shape, ARGS the `silkc exec` arguments from --kernel on, and
# needs $examples, the examples' directory.  NAME is KERNEL-SHAPE, as
# reduce-5000 (n = 5000): compare-cpu.sh reads the shape from it.
example_runs() {
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
}
