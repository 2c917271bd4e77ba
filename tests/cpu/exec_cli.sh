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
# compile refuses the CPU target, which only exec runs.
"$silkc" compile k.silk --arch cpu -o k.c 2>err
[ $? -eq 2 ] || fail "compile --arch cpu: want exit 2"
exit $status
