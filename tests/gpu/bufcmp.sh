#!/bin/sh
# bufcmp.sh: the verdicts of tests/gpu/bufcmp, the comparison that
# tests/gpu/compare-cpu.sh makes of a GPU run's buffers against the CPU
# backend's, on files written here byte by byte to agree, to differ by
# one bit, to fall within a tolerance or just outside it, with NaNs,
# signed zeros and infinities.  Run by `make check` (BUFCMP overrides).
set -u
bufcmp=${BUFCMP:-$PWD/tests/gpu/bufcmp}
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
status=0
fail() { echo "FAIL: $*"; status=1; }

# le BYTES HEX...: each HEX value as BYTES little-endian bytes.
le() {
    n=$1
    shift
    for v in "$@"; do
        i=0
        while [ $i -lt "$n" ]; do
            # shellcheck disable=SC2059 # the format is the byte
            printf "\\$(printf %03o $(( (v >> (8 * i)) & 255 )))"
            i=$((i + 1))
        done
    done
}

# verdict STATUS "LINE" ARGS...: bufcmp ARGS exits STATUS printing LINE.
verdict() {
    want_status=$1 want=$2
    shift 2
    got=$("$bufcmp" "$@" 2>&1)
    rc=$?
    [ "$rc" -eq "$want_status" ] || fail "bufcmp $*: exit $rc, want $want_status ($got)"
    [ "$got" = "$want" ] || fail "bufcmp $*
  got:  $got
  want: $want"
}

# Integers: bit for bit.
{ le 4 7 0xffffffff; le 1 0xff 2; } > a
{ le 4 7 0xffffffff; le 1 0xff 2; } > b
{ le 4 7 0xfffffffe; le 1 0x01 2; } > c
verdict 0 "same" a b u32:2 i8:2
verdict 1 "DIFFERENT: buffer 1 (u32[2]) element 1: 4294967295 against 4294967294 (compared bit for bit); 1 element differs" \
    a c u32:2:random i8:2:0
{ le 4 7 0xffffffff; le 1 0x01 2; } > d
verdict 1 "DIFFERENT: buffer 2 (i8[2]) element 0: -1 against 1 (compared bit for bit); 1 element differs" \
    a d u32:2 i8:2

# f32: exact unless a tolerance is given.  1 and the next float up (2^-23 apart).
le 4 0x3f800000 0x40000000 0x3f800000 > one
le 4 0x3f800001 0x40000000 0x3f800001 > up
verdict 1 "DIFFERENT: buffer 1 (f32[3]) element 0: 1.00000012 against 1 (difference 1.19e-07, compared bit for bit); 2 elements differ" \
    up one f32:3
verdict 0 "same within tolerance: buffer 1 largest difference 1.19e-07 (allowed 1e-06)" \
    --tolerance 1:rel=1e-6 up one f32:3
verdict 1 "DIFFERENT: buffer 1 (f32[3]) element 0: 1.00000012 against 1 (difference 1.19e-07, allowed 1.1e-07); 2 elements differ" \
    --tolerance 1:rel=1e-8,abs=1e-7 up one f32:3
verdict 0 "same within tolerance: buffer 1 largest difference 1.19e-07 (allowed 2e-07)" \
    --tolerance 1:abs=2e-7 up one f32:3
# A NaN is any NaN (the GPU's canonical one, the CPU's with its payload),
# and never a number, whatever the tolerance.
le 4 0x7fc00000 0xffc00001 0x7f800001 > nan1
le 4 0x7fc12345 0x7fc00000 0xffffffff > nan2
le 4 0x7fc00000 0x3f800000 0x7f800001 > nan3
verdict 0 "same" nan1 nan2 f32:3
verdict 1 "DIFFERENT: buffer 1 (f32[3]) element 1: nan against 1 (a NaN equals only a NaN); 1 element differs" \
    --tolerance 1:abs=1e30 nan1 nan3 f32:3
# Signed zeros: -0 is not +0 bit for bit, but within any tolerance.
le 4 0x80000000 > mzero
le 4 0x00000000 > pzero
verdict 1 "DIFFERENT: buffer 1 (f32[1]) element 0: -0 against 0 (difference 0, compared bit for bit); 1 element differs" \
    mzero pzero f32:1
verdict 0 "same" --tolerance 1:abs=0 mzero pzero f32:1
# An infinity is only itself.
le 4 0x7f800000 > inf
le 4 0x7f7fffff > big
verdict 0 "same" --tolerance 1:rel=1 inf inf f32:1
verdict 1 "DIFFERENT: buffer 1 (f32[1]) element 0: inf against 3.40282347e+38 (an infinity equals only itself); 1 element differs" \
    --tolerance 1:rel=1 inf big f32:1
# f16 and f64, and a tolerance on the second buffer only.
{ le 2 0x3c00; le 8 0x3ff0000000000000; } > h1
{ le 2 0x3c01; le 8 0x3ff0000000000001; } > h2
verdict 1 "DIFFERENT: buffer 1 (f16[1]) element 0: 1.00097656 against 1 (difference 0.000977, compared bit for bit); 1 element differs" \
    h2 h1 f16:1 f64:1
verdict 1 "DIFFERENT: buffer 2 (f64[1]) element 0: 1.0000000000000002 against 1 (difference 2.22e-16, compared bit for bit); 1 element differs" \
    --tolerance 1:rel=1e-3 h2 h1 f16:1 f64:1
verdict 0 "same within tolerance: buffer 1 largest difference 0.000977 (allowed 0.001); buffer 2 largest difference 2.22e-16 (allowed 1e-15)" \
    --tolerance 1:rel=1e-3 --tolerance 2:abs=1e-15 h2 h1 f16:1 f64:1
# A reduction's bound per unit of its terms' magnitudes (sum=M): the
# terms 0.5, -1.5 and 2 in buffer 1 (4 in all), the totals 1 and its
# next float up in buffer 2.
{ le 4 0x3f000000 0xbfc00000 0x40000000; le 4 0x3f800000; } > terms
{ le 4 0x3f000000 0xbfc00000 0x40000000; le 4 0x3f800001; } > total_up
verdict 0 "same within tolerance: buffer 2 largest difference 1.19e-07 (allowed 1.2e-07)" \
    --tolerance 2:abs=3e-8,sum=1 total_up terms f32:3 f32:1
verdict 1 "DIFFERENT: buffer 2 (f32[1]) element 0: 1.00000012 against 1 (difference 1.19e-07, allowed 1.16e-07); 1 element differs" \
    --tolerance 2:abs=2.9e-8,sum=1 total_up terms f32:3 f32:1

# What cannot be compared: exit 2.
verdict 2 "bufcmp: up has 12 bytes, and the buffers 8" up one f32:2
verdict 2 "bufcmp: cannot read missing" missing one f32:3
verdict 2 "bufcmp: bad buffer spec 'q32:3'
usage: bufcmp [--tolerance N:abs=A[,rel=R][,sum=M]]... GOT WANT TYPE:COUNT[:INIT]..." up one q32:3
verdict 2 "bufcmp: no float buffer for '2:abs=1'
usage: bufcmp [--tolerance N:abs=A[,rel=R][,sum=M]]... GOT WANT TYPE:COUNT[:INIT]..." --tolerance 2:abs=1 a b u32:2 i8:2
verdict 2 "bufcmp: bad --tolerance '1:abs=-1'
usage: bufcmp [--tolerance N:abs=A[,rel=R][,sum=M]]... GOT WANT TYPE:COUNT[:INIT]..." --tolerance 1:abs=-1 up one f32:3
verdict 2 "bufcmp: no float buffer to sum for '2:abs=1,sum=3'
usage: bufcmp [--tolerance N:abs=A[,rel=R][,sum=M]]... GOT WANT TYPE:COUNT[:INIT]..." --tolerance 2:abs=1,sum=3 total_up terms f32:3 f32:1
exit $status
