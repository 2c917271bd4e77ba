#!/bin/sh
# across_advice.sh: -Wocc-limit built for several targets gives one size
# that a build for all of them can follow (issue 24, item 8).  Over a grid
# of kernels (shared memory per CTA from 2 to 47 KiB, @launch from 64 to
# 1024 threads) and sets of targets, `silkc check --arch LIST` advises at
# most one @launch size per kernel, and the kernel rewritten to it builds
# for the same targets with -Werror=occ-limit.  (Before the advice across
# targets, 56 of these 308 cases were advised two or more sizes.)  The
# compiler's estimate is used (SILK_PTXAS=none): the sizes depend on shared
# memory, which the estimate knows exactly.  Run by make check, which sets
# SILKC.
set -u
: "${SILKC:?}"
SILK_PTXAS=none NO_COLOR=1
export SILK_PTXAS NO_COLOR
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0 cases=0 advised=0
fail() { echo "FAIL: across_advice.sh: $*"; failures=$((failures + 1)); }

# kernel KIB THREADS > FILE
kernel() {
    cat <<EOF_KERNEL
@launch($2)
kernel k(out: tensor<f32>[64]) {
  shared tile: f32[$(($1 * 256))]
  tile[ctx.tid % 64] = 1.0
  sync()
  out[ctx.tid % 64] = tile[63 - ctx.tid % 64]
}
EOF_KERNEL
}

for targets in sm_80,sm_90 sm_75,sm_80,sm_86,sm_90,sm_120 sm_86,sm_120 sm_80,sm_86; do
    for kib in 2 6 10 14 20 24 28 33 40 44 47; do
        for threads in 64 96 128 256 384 512 1024; do
            cases=$((cases + 1))
            kernel $kib $threads >"$work/k.silk"
            "$SILKC" check --arch $targets "$work/k.silk" 2>"$work/err" >/dev/null
            sed -n 's/.* warning: .*: \(@launch([0-9]*)\) \(is best over all\|would give\).*/\1/p' \
                "$work/err" | sort -u >"$work/advice"
            n=$(wc -l <"$work/advice")
            [ "$n" -le 1 ] || { fail "$targets, $kib KiB, @launch($threads): $n sizes: $(tr '\n' ' ' <"$work/advice")"; continue; }
            [ "$n" -eq 1 ] || continue
            advised=$((advised + 1))
            sed "s/@launch($threads)/$(cat "$work/advice")/" "$work/k.silk" >"$work/followed.silk"
            "$SILKC" check --arch $targets -Werror=occ-limit "$work/followed.silk" 2>"$work/err" >/dev/null ||
                fail "$targets, $kib KiB, @launch($threads) -> $(cat "$work/advice"): still warns: $(grep occ-limit "$work/err" | head -1)"
        done
    done
done
[ $failures -eq 0 ] || exit 1
echo "PASS: across_advice.sh: $cases kernels x targets, $advised advised one size each, every advice followed without -Wocc-limit"
