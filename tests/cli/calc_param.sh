#!/bin/sh
# calc_param.sh: `silk-occ calc --param NAME=VALUE` (issue 26, item 5):
# --smem and --dyn-smem as expressions of the block and of named
# parameters give the very answer of the literal sizes they stand for,
# whatever the order of the options; each way a name or an expression is
# wrong is one exact line and exit 2.  Run by make check, which sets
# SILK_OCC.
set -u
: "${SILK_OCC:?}"
status=0
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
E="silk-occ calc: error:"
base="calc --arch sm_90 --threads 256 --regs 64"

fail() {
    echo "FAIL: $*"
    status=1
}

# same ARGS -- ARGS: the two JSON answers are byte for byte equal.
same() {
    left=$(printf '%s\n' "$@" | sed '/^--$/,$d')
    right=$(printf '%s\n' "$@" | sed '1,/^--$/d')
    # shellcheck disable=SC2086
    (IFS='
'; "$SILK_OCC" $left --format json >"$work/left" 2>&1; "$SILK_OCC" $right --format json >"$work/right" 2>&1)
    cmp -s "$work/left" "$work/right" || fail "$(echo $left) differs from $(echo $right): $(diff "$work/left" "$work/right" | head -5)"
}

# expect STATUS TEXT ARGS...: stderr exactly TEXT, and the status.
expect() {
    want_status=$1 want=$2
    shift 2
    "$SILK_OCC" "$@" >"$work/out" 2>"$work/err"
    got=$?
    printf '%s\n' "$want" >"$work/want"
    [ "$got" = "$want_status" ] && cmp -s "$work/want" "$work/err" ||
        fail "silk-occ $*: exit $got (want $want_status): $(cat "$work/err")"
}

# (128+128)*32*2*3 = 49152: a tile's pipeline in shared memory.
# shellcheck disable=SC2086
same $base --dyn-smem 49152 -- $base --dyn-smem '(BLOCK_M+BLOCK_N)*BLOCK_K*2*STAGES' \
    --param BLOCK_M=128 --param BLOCK_N=128 --param BLOCK_K=32 --param STAGES=3
# shellcheck disable=SC2086
same $base --smem 12K --dyn-smem 8K -- $base --param KB=12 --smem 'KB*1K' --dyn-smem 'warps*1K'
# shellcheck disable=SC2086
same $base --dyn-smem 4096 -- $base --dyn-smem '16*threads'

"$SILK_OCC" $base --format json --dyn-smem '(BM+BN)*BK*2*S' --param BM=128 --param BN=128 \
    --param BK=32 --param S=3 | jq -c '[.dynamic_smem, .active_blocks_per_sm, .occupancy]' >"$work/got"
[ "$(cat "$work/got")" = "[49152,4,0.5]" ] || fail "the tile's figures: $(cat "$work/got")"

# shellcheck disable=SC2086
{
expect 2 "$E --dyn-smem '(BLOCK_M+BLOCK_Q)*2': 1:10: unknown name 'BLOCK_Q' (known: threads, warps, BLOCK_M, BLOCK_N); did you mean 'BLOCK_M'?" \
    $base --dyn-smem '(BLOCK_M+BLOCK_Q)*2' --param BLOCK_M=128 --param BLOCK_N=64
expect 2 "$E --smem 'TILE*4': 1:1: unknown name 'TILE' (the names are 'threads' and 'warps')" \
    $base --smem 'TILE*4'
expect 2 "$E --param: 'threads=3': the name is built in (the block's threads and warps)" \
    $base --param threads=3
expect 2 "$E --param: 'A' is not NAME=VALUE" $base --param A
expect 2 "$E --param: '=4': the name is empty" $base --param =4
expect 2 "$E --param: '2X=4': a name starts with a letter or '_'" $base --param 2X=4
expect 2 "$E --param: 'A-B=4': a name has only letters, digits and '_'" $base --param A-B=4
expect 2 "$E --param: 'A' given twice" $base --param A=1 --param A=2
expect 2 "$E --param A: '-3' is negative (at least 0)" $base --param A=-3
expect 2 "$E --param A: '1.5' is not a whole number" $base --param A=1.5
expect 2 "$E --dyn-smem 'A-4096': at 256 threads: 1:2: 1024 - 4096 is negative" \
    $base --dyn-smem 'A-4096' --param A=1024
expect 2 "$E --dyn-smem 'A*A*A*A*A': at 256 threads: 1:6: 281474976710656 * 65536 overflows 64 bits" \
    $base --dyn-smem 'A*A*A*A*A' --param A=65536
expect 2 "$E --dyn-smem: 300 KiB of shared memory per block is above the 227 KiB opt-in limit on sm_90" \
    $base --dyn-smem 'A*1K' --param A=300
expect 2 "$E --dyn-smem: an expression of threads or warps cannot be swept (--sweep threads keeps one size)" \
    calc --arch sm_90 --regs 64 --sweep threads --dyn-smem '16*threads'
}
exit $status
