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
# The kernels' C compiled once each, however many runs share it (cc_cache.sh).
mkdir "$work/cc-cache"
CC_CACHE_DIR=$work/cc-cache CC_CACHE_CC=${CC:-cc} CC=$(cd "$(dirname "$0")" && pwd)/cc_cache.sh
export CC_CACHE_DIR CC_CACHE_CC CC
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
expect 2 "$E --buf 'f32:4:0': parameter 3 (s) is of type f32, given with --arg" \
    k.silk --kernel scale --grid 64 --arg 4 --buf f32:4:0 --buf f32:4:0 --buf i32:4:0
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
# A barrier that some threads exit without reaching (issue 22, item 13):
# a condition not uniform across the CTA (one warp; the first 40 threads)
# and a loop whose barriers a thread counts by its index.  The line names
# the barrier's place and the first thread that skipped it; with --race
# too.  A condition uniform across the CTA is no fault.
cat > skip.silk <<'SILK'
@launch(64)
kernel warp0(out: tensor<u32>[64]) {
  if ctx.warp == 0 {
    sync()
  }
  out[ctx.tid] = ctx.tid
}
@launch(64)
kernel first40(out: tensor<u32>[64]) {
  shared s: u32[64]
  if ctx.tid < 40 {
    s[ctx.tid] = ctx.tid
    sync()
    out[ctx.tid] = s[(ctx.tid + 1) % 40]
  }
}
@launch(64)
kernel counted(out: tensor<u32>[64]) {
  var n: u32 = 0
  for i in 0..ctx.tid % 4 {
    sync()
    n += 1
  }
  out[ctx.tid] = n
}
@launch(64)
kernel uniform(n: u64, out: tensor<u32>[64]) {
  shared s: u32[64]
  if n > 3 {
    s[ctx.tid] = ctx.tid
    sync()
  }
  out[ctx.tid] = s[(ctx.tid + 1) % 64]
}
SILK
for race in "" --race; do
    expect 1 "skip.silk:4:5: kernel warp0, CTA 0, thread 0: a barrier not reached by every thread: thread 32 has exited" \
        skip.silk --kernel warp0 --grid 64 --buf u32:64:0 $race
    expect 1 "skip.silk:13:5: kernel first40, CTA 0, thread 0: a barrier not reached by every thread: thread 40 has exited" \
        skip.silk --kernel first40 --grid 64 --buf u32:64:0 $race
    expect 1 "skip.silk:21:5: kernel counted, CTA 0, thread 1: a barrier not reached by every thread: thread 0 has exited" \
        skip.silk --kernel counted --grid 64 --buf u32:64:0 $race
    expect 0 "" skip.silk --kernel uniform --grid 64 --arg 5 --buf u32:64:0 --dump $race
    sed -n 2p out | grep -qx "1 2 3 4 5 6 7 8" || fail "uniform $race: $(sed -n 2p out)"
done
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
# --race: shared-memory races (two threads of a CTA, a byte, one writes,
# not both atomics, no barrier between them: within a warp and across
# warps; RAW, WAR, WAW; an atomic against a load), none when a sync()
# separates them, none for atomics against atomics nor for stores of the
# value already there; a shared load of bytes no thread of the CTA wrote
# (the shadow starts again with each CTA); a var read before it is
# assigned on some path.  The same at -O0 and with the passes.
cat > race.silk <<'SILK'
@launch(64)
kernel raw(out: tensor<u32>[64]) {
  shared s: u32[64]
  s[ctx.tid] = ctx.tid
  out[ctx.tid] = s[ctx.tid / 2 * 2]
}
@launch(64)
kernel raw_warps(out: tensor<u32>[64]) {
  shared s: u32[64]
  s[ctx.tid] = ctx.tid
  out[ctx.tid] = s[ctx.tid % 32]
}
@launch(64)
kernel war(out: tensor<u32>[64]) {
  shared s: u32[64]
  s[ctx.tid] = 0
  sync()
  out[ctx.tid] = s[(ctx.tid + 1) % 64]
  s[ctx.tid] = 1
}
@launch(64)
kernel waw(out: tensor<u32>[64]) {
  shared s: u32[2]
  s[ctx.tid % 2] = ctx.tid
  sync()
  out[ctx.tid] = s[0]
}
@launch(64)
kernel synced(out: tensor<u32>[64]) {
  shared s: u32[64]
  s[ctx.tid] = ctx.tid
  sync()
  out[ctx.tid] = s[(ctx.tid + 1) % 64]
  sync()
  s[ctx.tid] = 0
  shared same: u32[1]
  same[0] = 7
  sync()
  out[ctx.tid] += same[0]
}
@launch(64)
kernel atomics(out: tensor<u32>[64]) {
  shared n: u32[1]
  if ctx.tid == 0 {
    n[0] = 0
  }
  sync()
  atomic_add(n[0], 1)
  sync()
  out[ctx.tid] = n[0]
}
@launch(64)
kernel mixed(out: tensor<u32>[64]) {
  shared n: u32[1]
  if ctx.tid == 0 {
    n[0] = 0
  }
  sync()
  atomic_add(n[0], 1)
  out[ctx.tid] = n[0]
}
@launch(64)
kernel unwritten(out: tensor<u32>[64]) {
  shared pad: u32[4]
  shared buf: u32[64]
  pad[ctx.tid % 4] = 0
  if ctx.tid < 2 {
    buf[ctx.tid] = 7
  }
  sync()
  out[ctx.tid] = buf[ctx.tid]
}
@launch(64)
kernel later(out: tensor<u32>[128]) {
  shared s: u32[1]
  if ctx.cta == 0 && ctx.tid == 0 {
    s[0] = 1
  }
  sync()
  out[ctx.gid] = s[0]
}
@launch(64)
kernel unassigned(out: tensor<u32>[64]) {
  var x: u32
  if ctx.tid < 4 {
    x = 1
  }
  out[ctx.tid] = x
}
@launch(64)
kernel assigned(out: tensor<u32>[64]) {
  var x: u32
  if ctx.tid < 4 {
    x = 1
  } else {
    x = 2
  }
  var y: u32
  y = 0
  for i in 0..4 {
    y += x
  }
  out[ctx.tid] = y
}
@launch(64)
kernel read_first(out: tensor<u32>[64]) {
  shared s: u32[64]
  out[ctx.tid] = s[(ctx.tid + 1) % 64]
  s[ctx.tid] = ctx.tid
}
SILK
for opt in -O0 -O; do
    o=; [ "$opt" = -O0 ] && o=-O0
    expect 1 "race.silk:5:3: kernel raw, CTA 0, thread 1: a shared-memory load of 4 bytes at byte 0 of shared array s races with the store by thread 0 at race.silk:4:3 (no barrier between them)" \
        race.silk --kernel raw --grid 64 --buf u32:64:0 --race $o
    expect 1 "race.silk:11:3: kernel raw_warps, CTA 0, thread 32: a shared-memory load of 4 bytes at byte 0 of shared array s races with the store by thread 0 at race.silk:10:3 (no barrier between them)" \
        race.silk --kernel raw_warps --grid 64 --buf u32:64:0 --race $o
    expect 1 "race.silk:19:3: kernel war, CTA 0, thread 1: a shared-memory store of 4 bytes at byte 4 of shared array s races with the load by thread 0 at race.silk:18:3 (no barrier between them)" \
        race.silk --kernel war --grid 64 --buf u32:64:0 --race $o
    expect 1 "race.silk:24:3: kernel waw, CTA 0, thread 2: a shared-memory store of 4 bytes at byte 0 of shared array s races with the store by thread 0 at race.silk:24:3 (no barrier between them)" \
        race.silk --kernel waw --grid 64 --buf u32:64:0 --race $o
    expect 1 "race.silk:59:3: kernel mixed, CTA 0, thread 1: a shared-memory atomic of 4 bytes at byte 0 of shared array n races with the load by thread 0 at race.silk:60:3 (no barrier between them)" \
        race.silk --kernel mixed --grid 64 --buf u32:64:0 --race $o
    expect 1 "race.silk:71:3: kernel unwritten, CTA 0, thread 2: a shared-memory load of 4 bytes at byte 8 of shared array buf, which no thread of this CTA has written" \
        race.silk --kernel unwritten --grid 64 --buf u32:64:0 --race $o
    expect 1 "race.silk:80:3: kernel later, CTA 1, thread 0: a shared-memory load of 4 bytes at byte 0 of shared array s, which no thread of this CTA has written" \
        race.silk --kernel later --grid 128 --buf u32:128:0 --race $o
    expect 1 "race.silk:88:18: kernel unassigned, CTA 0, thread 4: x is read before it is assigned" \
        race.silk --kernel unassigned --grid 64 --buf u32:64:0 --race $o
    # The reading thread runs first (threads run in index order), so the
    # finding is at the other's store: the race it is, not a read of
    # memory never written.
    expect 1 "race.silk:109:3: kernel read_first, CTA 0, thread 1: a shared-memory store of 4 bytes at byte 4 of shared array s races with the load by thread 0 at race.silk:108:3 (no barrier between them)" \
        race.silk --kernel read_first --grid 64 --buf u32:64:0 --race $o
    expect 0 "" race.silk --kernel synced --grid 64 --buf u32:64:0 --race --dump $o
    sed -n 2p out | grep -qx "8 9 10 11 12 13 14 15" || fail "synced $opt: $(sed -n 2p out)"
    expect 0 "" race.silk --kernel atomics --grid 64 --buf u32:64:0 --race --dump $o
    sed -n 9p out | grep -qx "64 64 64 64 64 64 64 64" || fail "atomics $opt: $(sed -n 9p out)"
    expect 0 "" race.silk --kernel assigned --grid 64 --buf u32:64:0 --race --dump $o
    sed -n 2p out | grep -qx "4 4 4 4 8 8 8 8" || fail "assigned $opt: $(sed -n 2p out)"
done
# Without --race the same kernels run (the checks cost nothing then).
expect 0 "" race.silk --kernel raw --grid 64 --buf u32:64:0
expect 0 "" race.silk --kernel unassigned --grid 64 --buf u32:64:0 --dump
sed -n 2p out | grep -qx "1 1 1 1 0 0 0 0" || fail "unassigned without --race: $(sed -n 2p out)"
# Every example is a correct kernel: clean under --race, at -O0 and with
# the passes (a finding here is the checker's bug).
ex=${SILK_SRCDIR:-$(dirname "$0")/../..}/examples
for o in -O0 ""; do
    # shellcheck disable=SC2086 # $o is one word or none
    {
        expect 0 "" "$ex/saxpy.silk" --race $o --kernel saxpy --grid 1000 --arg 1000 \
            --buf f32:1:random --buf f32:1000:random --buf f32:1000:random
        expect 0 "" "$ex/reduce.silk" --race $o --kernel reduce --grid 65536 --arg 5000 \
            --buf f32:5000:random --buf f32:1:0
        expect 0 "" "$ex/transpose.silk" --race $o --kernel transpose --grid 1536 --arg 64 --arg 96 \
            --buf f32:6144:random --buf f32:6144:0
        expect 0 "" "$ex/stencil.silk" --race $o --kernel stencil --grid 6144 --arg 64 --arg 96 \
            --buf f32:6144:random --buf f32:6144:0
        expect 0 "" "$ex/histogram.silk" --race $o --kernel histogram --grid 16384 --arg 777 \
            --buf u8:777:random --buf u32:256:0
        expect 0 "" "$ex/sgemm.silk" --race $o --kernel sgemm --grid 512 --arg 64 --arg 32 --arg 96 \
            --buf f32:6144:random --buf f32:3072:random --buf f32:2048:0
    }
done
# Lowering's shared memory: a tile reduction (every lane stores the warp's
# sum to one slot, then bar.sync), and a @persistent loop over logical
# CTAs (bar.sync at the end of each iteration).
cat > lowered.silk <<'SILK'
@launch(64)
kernel sums(x: tensor<f32>[128], y: tensor<i32>[128], o: tensor<f32>[2]) {
  o[0] = sum(x)
  o[1] = f32(max(y))
}
@launch(32)
@persistent
kernel flip(n: u64, x: tensor<f32>[n, 32]) {
  shared s: f32[32]
  s[ctx.tid] = x[ctx.cta, ctx.tid]
  sync()
  x[ctx.cta, ctx.tid] = s[31 - ctx.tid]
}
SILK
expect 0 "" lowered.silk --race --kernel sums --grid 64 --buf f32:128:1 --buf i32:128:3 --buf f32:2:0 --dump
tail -1 out | grep -qx "128 3" || fail "sums under --race: $(tail -1 out)"
expect 0 "" lowered.silk --race --kernel flip --grid 320 --sms 4 --arg 10 --buf f32:320:random

# NaN results are PTX's canonical NaN whatever went in (0/0, inf - inf,
# sqrt(-1), a constant 0.0 / 0.0 that the passes fold, a NaN input plus
# 1, min of two NaNs times 2 through a phi), and neg flips a NaN's sign
# only (of a canonical NaN too); f32, f16 and f64, at -O0 and with the
# passes, the buffers' exact bytes.  --buf's nan is the host's
# (0x7fc00000 in f32, 0x7ff8000000000000 in f64; f16's is made canonical).
cat > nan.silk <<'SILK'
@launch(32)
kernel nan(z32: tensor<f32>[1], o32: tensor<f32>[8], z16: tensor<f16>[1], o16: tensor<f16>[6],
           z64: tensor<f64>[1], o64: tensor<f64>[6]) {
  if ctx.tid != 0 {
    return
  }
  let a = z32[0]
  o32[0] = a / a
  let inf = 1.0 / a
  o32[1] = inf - inf
  o32[2] = sqrt(a - 1.0)
  o32[3] = 0.0 / 0.0
  let n = o32[5]
  o32[4] = n + 1.0
  o32[5] = -n
  o32[6] = -(a / a)
  var m: f32 = 1.0
  if a == 0.0 {
    m = min(n, n) * 2.0
  }
  o32[7] = m
  let h = z16[0]
  o16[0] = h / h
  let hinf = 1.0 / h
  o16[1] = hinf - hinf
  o16[2] = sqrt(h - 1.0)
  o16[3] = 0.0 / 0.0
  let hn = o16[5]
  o16[4] = hn + 1.0
  o16[5] = -hn
  let d = z64[0]
  o64[0] = d / d
  let dinf = 1.0 / d
  o64[1] = dinf - dinf
  o64[2] = sqrt(d - 1.0)
  o64[3] = 0.0 / 0.0
  let dn = o64[5]
  o64[4] = dn + 1.0
  o64[5] = -dn
}
SILK
f32=ffffff7fffffff7fffffff7fffffff7fffffff7f0000c0ffffffffffffffff7f
f16=ff7fff7fff7fff7fff7fffff
f64=ffffffffffffff7fffffffffffffff7fffffffffffffff7fffffffffffffff7fffffffffffffff7f000000000000f8ff
for o in -O0 ""; do
    # shellcheck disable=SC2086 # $o is one word or none
    expect 0 "" nan.silk $o --kernel nan --grid 32 --buf f32:1:0 --buf f32:8:nan --buf f16:1:0 \
        --buf f16:6:nan --buf f64:1:0 --buf f64:6:nan --out nan.bin
    got=$(od -An -tx1 -v nan.bin | tr -d ' \n')
    [ "$got" = "00000000${f32}0000${f16}0000000000000000$f64" ] || fail "NaN bits ${o:--O}: $got"
done

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
# A u64 division whose operands fit in 32 bits (the optimiser's 32-bit
# path) by zero: all ones, as div.u64 gives and -O0 computes, and the
# remainder the dividend.
cat > div0.silk <<'SILK'
@launch(32)
kernel div0(d: tensor<u64>[32], q: tensor<u64>[32], r: tensor<u64>[32]) {
  let x = u64(ctx.tid) + 5
  q[ctx.tid] = x / d[ctx.tid]
  r[ctx.tid] = x % d[ctx.tid]
}
SILK
for o in -O0 ""; do
    # shellcheck disable=SC2086 # $o is one word or none
    expect 0 "" div0.silk $o --kernel div0 --grid 32 --buf u64:32:0 --buf u64:32:1 --buf u64:32:1 --dump
    sed -n 7p out | grep -qx "18446744073709551615 18446744073709551615 18446744073709551615 18446744073709551615 18446744073709551615 18446744073709551615 18446744073709551615 18446744073709551615" ||
        fail "u64 / 0 ${o:--O}: $(sed -n 7p out)"
    sed -n 12p out | grep -qx "5 6 7 8 9 10 11 12" || fail "u64 % 0 ${o:--O}: $(sed -n 12p out)"
done

# A u64 parameter bound by --buf gets the buffer's address, as a launch
# block passes a Buffer's .address: a raw store through it lands there,
# and one past its end is caught.
cat > raw.silk <<'SILK'
attr(device=gpu) fn poke(out: u64, n: u64) {
  if ctx.gid < n {
    store<u32>(out + ctx.gid * 4, u32(ctx.gid) * 3)
  }
}
SILK
expect 0 "" raw.silk --kernel poke --grid 64 --workspace 32 --buf u32:10:7 --arg 10 --dump
[ "$(sed -n 2,3p out | tr '\n' ' ')" = "0 3 6 9 12 15 18 21 24 27 " ] || fail "--buf for a u64 address: $(cat out)"
expect 1 "raw.silk:3:5: kernel poke, CTA 0, thread 10: a store of 4 bytes at byte 40 of buffer 1, which has 40 bytes" \
    raw.silk --kernel poke --grid 64 --workspace 32 --buf u32:10:7 --arg 11
# --list: each kernel with what an exec line needs, in the program's
# order; a device function is no kernel, a @persistent kernel's hidden
# count is not a parameter, the default CTA size is 256, and an
# attr(device=gpu) fn without @launch takes any.
cat > list.silk <<'SILK'
attr(device=gpu) fn twice(x: f32) -> f32 {
  return x * 2.0
}
@launch(64)
kernel scale(n: u64, x: tensor<f32>[n], s: f32, y: tensor<i32>[n]) {
  let i = ctx.gid
  if i < n {
    x[i] = twice(x[i]) * s
    y[i] = 1
  }
}
kernel grid2(rows: u64, cols: u64, m: tensor<u8>[rows, cols], k: tensor<f64>[4, 8], w: i32) {
  m[0, 0] = u8(w) + u8(k[0, 0])
}
@launch(128, 2)
@persistent
kernel chunks(count: u64, data: tensor<u16>[count, 128]) {
  if ctx.cta < count {
    data[ctx.cta, ctx.tid] = u16(1)
  }
}
attr(device=gpu) fn fill(out: tensor<u32>[64], value: u32) {
  out[ctx.tid] = value
}
SILK
cat > want <<'LIST'
scale --workspace 64 --arg n:u64 --buf x:f32[n] --arg s:f32 --buf y:i32[n]
grid2 --workspace 256 --arg rows:u64 --arg cols:u64 --buf m:u8[rows,cols] --buf k:f64[4,8] --arg w:i32
chunks --workspace 128 --arg count:u64 --buf data:u16[count,128]
fill --workspace any --buf out:u32[64] --arg value:u32
LIST
expect 0 "" list.silk --list
cmp -s want out || fail "--list: $(diff want out)"
expect 0 "" list.silk -O0 --list
cmp -s want out || fail "-O0 --list: $(diff want out)"
# A listed line runs as it says, its extents given values.
expect 0 "" list.silk --kernel scale --grid 70 --arg 70 --buf f32:70:1 --arg 3 --buf i32:70:0 --dump
sed -n 2p out | grep -qx "6 6 6 6 6 6 6 6" || fail "the listed scale: $(sed -n 2p out)"
expect 2 "$E --list prints the kernels and runs none: --grid has no use with it" list.silk --list --grid 64
expect 2 "$E --list prints the kernels and runs none: --kernel has no use with it" list.silk --kernel scale --list
expect 2 "$E --list prints the kernels and runs none: --buf has no use with it" list.silk --list --buf f32:1:0
# A program with an error: its diagnostic, exit 1, no list.
printf 'kernel bad(n: u64) {\n  let x = y\n}\n' > bad.silk
"$silkc" exec bad.silk --list >out 2>err
[ $? -eq 1 ] || fail "--list of a program with an error: want exit 1"
[ -s out ] && fail "--list of a program with an error printed: $(cat out)"
grep -q "^bad.silk:2:11: error: " err || fail "--list of a program with an error: $(cat err)"

# compile refuses the CPU target, which only exec runs.
"$silkc" compile k.silk --arch cpu -o k.c 2>err
[ $? -eq 2 ] || fail "compile --arch cpu: want exit 2"
exit $status
