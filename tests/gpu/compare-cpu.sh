#!/bin/sh
# compare-cpu.sh: the CPU backend against a real GPU.  Every example
# kernel on the shapes of tests/cpu/shapes.sh, and a few of silkgen's
# random programs, each run twice with the same inputs (--seed 7):
# `silkc exec --backend cuda` on GPU 0 and `silkc exec` on the CPU
# backend; the buffers they write (--out) are compared by bufcmp.c.
#
#   tests/gpu/compare-cpu.sh BUILDDIR [OUTDIR]
#
#   BUILDDIR  the configured build tree (BUILDDIR/src/silkc; bufcmp and
#             silkgen are made there if missing)
#   OUTDIR    where each run's files go (default: a temporary directory,
#             removed at the end): NAME.cuda.err and NAME.cpu.err, and for
#             a run that differs both buffers, NAME.cuda.bin, NAME.cpu.bin
#
# ctx.sms is the device's (%nsmid, read by a one-thread kernel first) on
# both, so that a kernel reading it sees the same number.
#
# What must agree, and why:
# - integers bit for bit, everywhere: the CPU backend gives integer
#   operations PTX's results (docs/cpu-backend.md), and integer atomics
#   (histogram's, silkgen's accumulators) commute;
# - floats bit for bit (a NaN equals any NaN: the GPU makes them
#   canonical) for saxpy, transpose, stencil, sgemm and the silkgen
#   programs: both sides round every f32/f64 operation to nearest even,
#   the PTX names .rn on each (ptxas may not contract) and the CPU's C is
#   built with -ffp-contract=off, fma is fused on both, and each output
#   element is computed in one order by one thread;
# - reduce's total within 2(C-1)u / (1 - (C-1)u) * sum|x_i|, u = 2^-24,
#   sum|x_i| the magnitudes of its input (bufcmp's sum=1), where C is the
#   number of CTAs that have elements (min(256, ceil(n/256)) of the 256
#   its grid starts): each CTA's partial sum p_j is computed in the same
#   order on both, but the float atomics add the C partials in the order
#   the CTAs finish, and two orders of summing C floats differ by at most
#   twice the error bound of recursive summation, (C-1)u sum|p_j| /
#   (1 - (C-1)u), with sum|p_j| <= sum|x_i|.  The bound is the worst case
#   (bufcmp prints the largest difference seen against it); what it
#   cannot see, the reduction inside a CTA, the n = 100 shape checks bit
#   for bit, since there C = 1.  The input buffer is compared bit for bit.
# - silkgen programs that call the approximate functions (sin, cos, exp,
#   log, rsqrt) are not compared: the GPU's approximations differ from
#   the C library's, and the difference can reach integers through
#   floor, ceil and conversions.  The first COMPARE_SEEDS programs
#   (default 6) of seeds 1 to 200 without them are run.
#
# Prints one line per run, `PASS: NAME: same...` or `FAIL: NAME: why`,
# and a summary.  Exit 0 when every run agrees, 1 when one differs or
# fails, 2 for a usage error, 77 (with the reason) when there is no CUDA
# driver or GPU.  Run by tests/gpu/verify.sh on a machine with a GPU; not
# part of make check (bufcmp's verdicts are: tests/gpu/bufcmp.sh).
set -u
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 BUILDDIR [OUTDIR]" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=$(cd "$1" && pwd) || exit 2
silkc=$build/src/silkc
bufcmp=$build/tests/gpu/bufcmp
silkgen=$build/tests/difftest/silkgen
examples=$src/examples
seeds=${COMPARE_SEEDS:-6}
# The backend compared with the CPU's: cuda.  `COMPARE_BACKEND=cpu`
# compares the CPU backend with itself, which tests this script where
# there is no GPU: every run must agree.
gpu=${COMPARE_BACKEND:-cuda}

[ -x "$silkc" ] || { echo "compare-cpu: no $silkc (build first: make)" >&2; exit 2; }
[ -x "$bufcmp" ] || make -C "$build" tests/gpu/bufcmp >/dev/null ||
    { echo "compare-cpu: cannot build $bufcmp" >&2; exit 2; }
[ -x "$silkgen" ] || make -C "$build" tests/difftest/silkgen >/dev/null ||
    { echo "compare-cpu: cannot build $silkgen" >&2; exit 2; }
if [ $# -eq 2 ]; then
    out=$2
    mkdir -p "$out" || exit 2
    out=$(cd "$out" && pwd)
else
    out=$(mktemp -d) || exit 2
    trap 'rm -rf "$out"' EXIT
fi

# The device's ctx.sms, and whether there is a device at all.
cat > "$out/sms.silk" <<'SILK'
@launch(32)
kernel sms(out: tensor<u32>[1]) {
  if ctx.gid == 0 {
    out[0] = ctx.sms
  }
}
SILK
"$silkc" exec "$out/sms.silk" --backend "$gpu" --kernel sms --grid 1 --buf u32:1:0 --dump \
    > "$out/sms.txt" 2> "$out/sms.err"
case $? in
    0) ;;
    3) echo "compare-cpu: $(head -n 1 "$out/sms.err"); skipped"; exit 77 ;;
    *) echo "compare-cpu: the probe kernel failed on the GPU: $(head -n 1 "$out/sms.err")"; exit 1 ;;
esac
sms=$(sed -n 2p "$out/sms.txt")
case $sms in
    '' | 0 | *[!0-9]*) echo "compare-cpu: the probe kernel gave ctx.sms = '$sms'"; exit 1 ;;
esac
echo "compare-cpu: ctx.sms (%nsmid) on the GPU: $sms"

# tolerance NAME: bufcmp's --tolerance arguments for the run NAME.
tolerance() {
    case $1 in
        reduce-*)
            awk -v n="${1#reduce-}" 'BEGIN {
                c = int((n + 255) / 256); if (c > 256) c = 256
                u = 2 ^ -24
                printf "--tolerance 2:abs=%.9g,sum=1\n", 2 * (c - 1) * u / (1 - (c - 1) * u) }' ;;
    esac
}

status=0 runs=0 agree=0
# run NAME FILE ARGS...: both backends, then the comparison; ARGS from --kernel.
run() {
    name=$1 file=$2
    shift 2
    runs=$((runs + 1))
    specs=""
    take=0
    for word in "$@"; do
        [ $take -eq 1 ] && specs="$specs $word"
        take=0
        [ "$word" = --buf ] && take=1
    done
    if ! "$silkc" exec "$file" --backend "$gpu" --seed 7 "$@" --out "$out/$name.cuda.bin" \
            2> "$out/$name.cuda.err"; then
        echo "FAIL: $name: on the GPU: $(head -n 1 "$out/$name.cuda.err")"
        status=1
        return
    fi
    if ! "$silkc" exec "$file" --sms "$sms" --seed 7 "$@" --out "$out/$name.cpu.bin" \
            2> "$out/$name.cpu.err"; then
        echo "FAIL: $name: on the CPU backend: $(head -n 1 "$out/$name.cpu.err")"
        status=1
        return
    fi
    # shellcheck disable=SC2046,SC2086 # the tolerance and the specs are words
    verdict=$("$bufcmp" $(tolerance "$name") "$out/$name.cuda.bin" "$out/$name.cpu.bin" $specs 2>&1)
    if [ $? -eq 0 ]; then
        echo "PASS: $name: $verdict"
        agree=$((agree + 1))
        rm -f "$out/$name.cuda.bin" "$out/$name.cpu.bin"
    else
        echo "FAIL: $name: $verdict"
        status=1
    fi
}

. "$src/tests/cpu/shapes.sh"
example_runs

# silkgen's programs without the approximate functions.
seed=1 taken=0
while [ "$taken" -lt "$seeds" ] && [ "$seed" -le 200 ]; do
    size=small
    [ $((seed % 4)) -eq 0 ] && size=medium
    program=$out/silkgen-$seed.silk
    "$silkgen" "$seed" --size "$size" > "$program"
    if grep -Eq '(^|[^a-z_])(sin|cos|exp|log|rsqrt)\(' "$program"; then
        rm -f "$program"
    else
        exec_line=$(sed -n '1s|^// exec: ||p' "$program")
        # shellcheck disable=SC2086 # the exec line is words
        run "silkgen-$seed-$size" "$program" $exec_line
        taken=$((taken + 1))
    fi
    seed=$((seed + 1))
done
[ "$taken" -lt "$seeds" ] && echo "note: only $taken silkgen programs of seeds 1 to 200 have no approximate function"

echo "compare-cpu: $runs runs, $agree agree, $((runs - agree)) differ or failed"
exit $status
