#!/bin/sh
# exec_cli.sh: `silkc exec` end to end (issue 13, item 3): a kernel's
# buffers after a run, and every bad argument refused with one line naming
# the option, exit 2.  Run by `make check` from the build directory (SILKC
# overrides); exits 77 (skipped) without a C compiler for the CPU backend.
set -u
silkc=${SILKC:-$PWD/src/silkc}
command -v "${CC:-cc}" >/dev/null 2>&1 || { echo "SKIP: no C compiler (cc) for the CPU backend"; exit 77; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
status=0
fail() { echo "FAIL: $*"; status=1; }

cat > k.silk <<'SILK'
@launch(64)
kernel scale(n: u64, x: tensor<f32>[n], s: f32, y: tensor<i32>[n]) {
  let i = ctx.gid
  if i < n {
    x[i] = x[i] * s
    y[i] = i32(ctx.cta) - 1
  }
}
SILK

# expect STATUS "STDERR" ARGS...: the exit status and the one line.
expect() {
    want_status=$1 want=$2
    shift 2
    "$silkc" exec "$@" >out 2>err
    got=$?
    [ "$got" -eq "$want_status" ] || fail "exec $*: exit $got, want $want_status ($(cat err))"
    [ "$(cat err)" = "$want" ] || fail "exec $*: stderr
  got:  $(cat err)
  want: $want"
}

# A run: 70 items in CTAs of 64 (a partial last CTA), y is the CTA index - 1.
expect 0 "" k.silk --kernel scale --grid 70 --arg 70 --buf f32:70:2 --arg 1.5 --buf i32:70:9 --dump
head -1 out | grep -qx "buffer 1: f32\[70\]" || fail "--dump: $(head -1 out)"
sed -n 2p out | grep -qx "3 3 3 3 3 3 3 3" || fail "--dump x: $(sed -n 2p out)"
tail -1 out | grep -qx "0 0 0 0 0 0" || fail "--dump y's last CTA: $(tail -1 out)"
sed -n 12p out | grep -qx -- "-1 -1 -1 -1 -1 -1 -1 -1" || fail "--dump y's first CTA: $(sed -n 12p out)"
# --out: the bytes of both buffers, 70 * 4 each.
expect 0 "" k.silk --kernel scale --grid 70 --arg 70 --buf f32:70:random --arg 2 --buf i32:70:0 --out b.bin
[ "$(wc -c < b.bin)" -eq 560 ] || fail "--out wrote $(wc -c < b.bin) bytes, want 560"
# The same seed, the same bytes; another seed, others.
"$silkc" exec k.silk --kernel scale --grid 70 --arg 70 --buf f32:70:random --arg 2 --buf i32:70:0 --out c.bin
cmp -s b.bin c.bin || fail "--buf random is not the same for the same seed"
"$silkc" exec k.silk --kernel scale --grid 70 --arg 70 --buf f32:70:random --arg 2 --buf i32:70:0 --seed 2 --out d.bin
cmp -s b.bin d.bin && fail "--seed 2 gave the bytes of --seed 1"

E="silkc: error:"
expect 2 "$E --kernel: give the kernel to run, as --kernel saxpy" k.silk --grid 64
expect 2 "$E --grid: give the work items, as --grid 1024" k.silk --kernel scale
expect 2 "$E --grid: '0' is not a whole number from 1 to 18446744073709551615" k.silk --kernel scale --grid 0
expect 2 "$E --grid: '-5' is not a whole number from 1 to 18446744073709551615" k.silk --kernel scale --grid -5
expect 2 "$E --workspace: '2048' is not a whole number from 1 to 1024" k.silk --kernel scale --grid 64 --workspace 2048
expect 2 "$E --kernel given twice; 'silkc --help' shows usage" k.silk --kernel scale --kernel scale --grid 64
expect 2 "$E --kernel nope: no such kernel in the program" k.silk --kernel nope --grid 64 --arg 1
expect 2 "$E --workspace 128: kernel scale runs CTAs of 64 threads (@launch)" \
    k.silk --kernel scale --grid 64 --workspace 128 --arg 1 --buf f32:1:0 --arg 1 --buf i32:1:0
expect 2 "$E --kernel scale takes 4 parameters, and 1 --arg and --buf were given" k.silk --kernel scale --grid 64 --arg 1
expect 2 "$E --buf 'u32:4:0': parameter 2 (x) is a tensor<f32>[n]" \
    k.silk --kernel scale --grid 64 --arg 4 --buf u32:4:0 --arg 1 --buf i32:4:0
expect 2 "$E --buf 'f32:4:0': parameter 1 (n) is of type u64, given with --arg" \
    k.silk --kernel scale --grid 64 --buf f32:4:0 --buf f32:4:0 --arg 1 --buf i32:4:0
expect 2 "$E --arg 'x': not a value of parameter 3 (s: f32)" \
    k.silk --kernel scale --grid 64 --arg 4 --buf f32:4:0 --arg x --buf i32:4:0
expect 2 "$E --buf 'f32:4': give TYPE:COUNT:INIT, as f32:1024:random" \
    k.silk --kernel scale --grid 64 --arg 4 --buf f32:4 --arg 1 --buf i32:4:0
expect 2 "$E --buf 'q8:4:0': unknown type 'q8' (i8 u8 i16 u16 i32 u32 i64 u64 f16 f32 f64)" \
    k.silk --kernel scale --grid 64 --arg 4 --buf q8:4:0 --arg 1 --buf i32:4:0
expect 2 "$E --buf 'f32:0:0': the count must be a whole number from 1 to 2^32" \
    k.silk --kernel scale --grid 64 --arg 4 --buf f32:0:0 --arg 1 --buf i32:4:0
expect 2 "$E --buf 'f32:4:abc': INIT must be a number or 'random'" \
    k.silk --kernel scale --grid 64 --arg 4 --buf f32:4:abc --arg 1 --buf i32:4:0
expect 2 "$E --buf 'i32:4:1.5': INIT must be a number or 'random'" \
    k.silk --kernel scale --grid 64 --arg 4 --buf f32:4:0 --arg 1 --buf i32:4:1.5
# A kernel that faults: exit 1, one line with the place.
cat > div.silk <<'SILK'
@launch(64)
kernel diverge(out: tensor<u32>[64]) {
  if ctx.tid < 40 {
    sync()
  } else {
    sync()
  }
  out[ctx.tid] = ctx.tid
}
SILK
expect 1 "div.silk:4:5: kernel diverge, CTA 0, thread 0: a barrier not reached by every thread: thread 40 waits at div.silk:6:5 instead" \
    div.silk --kernel diverge --grid 64 --buf u32:64:0
# Accesses outside the memory a kernel may touch: a buffer's end (one CTA
# of 64, so the first thread past it is the one named; the tensor's extent
# is larger than its buffer), and a shared array's extent.
cat > oob.silk <<'SILK'
@launch(64)
kernel over(n: u64, x: tensor<f32>[n]) {
  x[ctx.gid] = 1.0
}
@launch(64)
kernel shared_over(out: tensor<u32>[64]) {
  shared s: u32[64]
  s[ctx.tid + 1] = ctx.tid
  sync()
  out[ctx.tid] = s[ctx.tid]
}
SILK
expect 1 "oob.silk:3:3: kernel over, CTA 0, thread 40: a store of 4 bytes at byte 160 of buffer 1, which has 160 bytes" \
    oob.silk --kernel over --grid 64 --arg 64 --buf f32:40:0
expect 1 "oob.silk:8:5: kernel shared_over, CTA 0, thread 63: index 64 of s is out of its extent 64 (dimension 1)" \
    oob.silk --kernel shared_over --grid 64 --buf u32:64:0
# Each index against its own extent: a column past the row, though still
# inside the buffer.
cat > ext.silk <<'SILK'
@launch(64)
kernel two(rows: u64, cols: u64, m: tensor<f32>[rows, cols]) {
  let r = ctx.gid / 8
  let c = ctx.gid % 8
  if r < rows {
    m[r, c + 1] = 1.0
  }
}
SILK
expect 1 "ext.silk:6:10: kernel two, CTA 0, thread 7: index 8 of m is out of its extent 8 (dimension 2)" \
    ext.silk --kernel two --grid 64 --arg 8 --arg 8 --buf f32:64:0
# Shuffles of other types than the IR's 32 bits (lowered as two shuffles
# of a 64-bit value's halves, or widened and narrowed back), over two
# warps: each lane's value is computed below from its source lane (lane =
# tid % 32; a source lane outside the warp gives the lane's own value).
cat > shfl.silk <<'SILK'
@launch(64)
kernel shuffles(a: tensor<u64>[64], e: tensor<i64>[64], b: tensor<f64>[64], c: tensor<i8>[64],
                d: tensor<f16>[64], f: tensor<u8>[64]) {
  let i = ctx.tid
  let lane = ctx.lane
  a[i] = shfl_xor((u64(lane) << 32) | u64(4294967295u32 - lane), 5u32)
  e[i] = shfl_down(-(i64(lane) << 32) - 1, 1u32)
  b[i] = shfl_up(f64(lane) * 0.5 - 3.25, 2u32)
  c[i] = shfl_up(i8(lane) - 16, 1u32)
  d[i] = shfl(f16(lane) * 0.25 - 2.0, 31u32 - lane)
  f[i] = u8(shfl_xor(lane % 3u32 == 0u32, 1u32))
}
SILK
awk '
function bxor(x, y,   r, b) { r = 0; for (b = 1; b <= 16; b *= 2) if (int(x / b) % 2 != int(y / b) % 2) r += b; return r }
function dump(name, fmt, k,   i, s) {
    print name
    for (i = 0; i < 64; i++) {
        s = s (i % 8 ? " " : "") sprintf(fmt, v[k, i])
        if (i % 8 == 7) { print s; s = "" }
    }
}
BEGIN {
    for (i = 0; i < 64; i++) {
        l = i % 32
        x = bxor(l, 5); v[1, i] = x * 4294967296 + (4294967295 - x)
        x = l < 31 ? l + 1 : l; v[2, i] = -(x * 4294967296) - 1
        x = l >= 2 ? l - 2 : l; v[3, i] = x * 0.5 - 3.25
        x = l >= 1 ? l - 1 : l; v[4, i] = x - 16
        x = 31 - l; v[5, i] = x * 0.25 - 2
        x = bxor(l, 1); v[6, i] = x % 3 == 0 ? 1 : 0
    }
    dump("buffer 1: u64[64]", "%.0f", 1); dump("buffer 2: i64[64]", "%.0f", 2)
    dump("buffer 3: f64[64]", "%g", 3); dump("buffer 4: i8[64]", "%.0f", 4)
    dump("buffer 5: f16[64]", "%g", 5); dump("buffer 6: u8[64]", "%.0f", 6)
}' >shfl.want
expect 0 "" shfl.silk --kernel shuffles --grid 64 --buf u64:64:0 --buf i64:64:0 --buf f64:64:0 \
    --buf i8:64:0 --buf f16:64:0 --buf u8:64:0 --dump
diff shfl.want out >shfl.diff || fail "shuffles of u64, i64, f64, i8, f16 and bool: $(head -n 6 shfl.diff)"
# The same, as a reader checks it: lane 0 of a has lane 5's halves; e's
# last lane its own; c's first two lanes lane 0's -16.
sed -n 2p out | grep -q "^25769803770 21474836475 " || fail "shfl_xor of u64 lane 0: $(sed -n 2p out)"
sed -n 14p out | grep -q " -133143986177 -133143986177$" || fail "shfl_down of i64 lane 31: $(sed -n 14p out)"
sed -n 29p out | grep -q "^-16 -16 -15 -14 " || fail "shfl_up of i8: $(sed -n 29p out)"
# Compound shifts on other widths than i32, with counts of other types (an
# element loaded and stored as its own u16, so 21 << 12 wraps), and a tile
# shifted by unsuffixed literals.
cat > shift.silk <<'SILK'
@launch(32)
kernel shifts(a: tensor<u64>[32], b: tensor<i8>[32], c: tensor<u16>[32], t: tensor<u32>[32], p: tensor<u32>[32]) {
  let lane = ctx.lane
  var x: u64 = u64(lane) + 1
  x <<= 40
  x >>= 3
  a[lane] = x
  var y: i8 = -1 - i8(lane)
  y >>= 1
  y <<= 2
  b[lane] = y
  c[lane] <<= 12
  c[lane] >>= 3u64
  p = (t << 3) | (1 << (t & 7))
}
SILK
expect 0 "" shift.silk --kernel shifts --grid 32 --buf u64:32:0 --buf i8:32:0 --buf u16:32:21 \
    --buf u32:32:9 --buf u32:32:0 --dump
sed -n 2p out | grep -qx "137438953472 274877906944 412316860416 549755813888 687194767360 824633720832 962072674304 1099511627776" ||
    fail "u64 <<= 40, >>= 3: $(sed -n 2p out)"
sed -n 7p out | grep -qx -- "-4 -4 -8 -8 -12 -12 -16 -16" || fail "i8 >>= 1, <<= 2: $(sed -n 7p out)"
sed -n 12p out | grep -qx "2560 2560 2560 2560 2560 2560 2560 2560" || fail "u16 element <<= 12, >>= 3u64: $(sed -n 12p out)"
sed -n 22p out | grep -qx "74 74 74 74 74 74 74 74" || fail "tile (t << 3) | (1 << (t & 7)): $(sed -n 22p out)"
# compile refuses the CPU target, which only exec runs.
"$silkc" compile k.silk --arch cpu -o k.c 2>err
[ $? -eq 2 ] || fail "compile --arch cpu: want exit 2"
exit $status
