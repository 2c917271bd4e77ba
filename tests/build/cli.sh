#!/bin/sh
# cli.sh: `silkc build` and `silkc run` end to end (issue 14): the outputs
# (default names, --emit=c, whole or absent, never over an input), the
# runtime and the C compiler found or their absence said in one line
# (exit 3), a program's exit status and a signal passed through by run,
# the program stops for a misuse, a CPU-backend check's line on stderr
# (run --race and build --race too), and every bad command line refused.
# Run by `make check` from the build directory (SILKC overrides); exits
# 77 (skipped) without a C compiler.
set -u
silkc=${SILKC:-$PWD/src/silkc}
cc=${CC:-cc}
command -v "$cc" >/dev/null 2>&1 || { echo "SKIP: no C compiler ($cc) for silkc build"; exit 77; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
status=0
fail() { echo "FAIL: $*"; status=1; }
E="silkc: error:"

cat > k.silk <<'SILK'
import { Buffer } from "std/gpu"

@launch(64)
kernel add_one(n: u64, x: tensor<u32>[n]) {
  if ctx.gid < n {
    x[ctx.gid] = x[ctx.gid] + 1
  }
}

fn main() -> i32 {
  let n: u64 = 100
  let x = Buffer.alloc(n * 4)
  for i in 0..n {
    x.upload_i32(i, i32(i))
  }
  attr(label=first) gpu (grid=128, workspace=64) {
    add_one(n, x.address);
  }
  println("x[99] =", x.download_i32(99))
  x.release()
  return 3
}
SILK
cat > lib.silk <<'SILK'
attr(device=gpu) fn fill(out: u64) {
  store<u64>(out + ctx.gid * 8, 1)
}
SILK

# expect STATUS "STDERR" COMMAND...: the exit status and all of stderr.
expect() {
    want_status=$1 want=$2
    shift 2
    "$@" >out 2>err
    got=$?
    [ "$got" -eq "$want_status" ] || fail "$*: exit $got, want $want_status ($(cat err))"
    [ "$(cat err)" = "$want" ] || fail "$*: stderr
  got:  $(cat err)
  want: $want"
}

# ---- build: the program, its default name, its exit status ------------------------------
expect 0 "" "$silkc" build k.silk -o prog
SILK_BACKEND=cpu ./prog >out 2>err
[ $? -eq 3 ] || fail "./prog: exit $?, want main's 3"
[ "$(cat out)" = "x[99] = 100" ] || fail "./prog printed: $(cat out)"
[ -x prog ] || fail "prog is not executable"
expect 0 "" "$silkc" build k.silk
[ -x k ] || fail "silkc build k.silk made no ./k"
# --emit=c: the C to -o, or FILE.c; clean under -Wall -Wextra -Werror
expect 0 "" "$silkc" build k.silk --emit=c
[ -s k.c ] || fail "--emit=c made no k.c"
grep -q '/\* attr(label=first) \*/' k.c || fail "the launch's metadata is not in the C as a comment"
grep -q 'silkrt_dispatch(&silk_at_k_16_21, "label=first", "add_one"' k.c ||
    fail "the launch passes no place and metadata: $(grep silkrt_dispatch k.c)"
"$cc" -std=gnu11 -Wall -Wextra -Werror -fsyntax-only -I "$SILK_SRCDIR/std/runtime" k.c ||
    fail "k.c is not clean under $cc -Wall -Wextra -Werror"
expect 0 "" "$silkc" build k.silk --emit=c -o - 
cmp -s out k.c || fail "--emit=c -o - differs from the file"

# ---- run: the program's output and status passed through, nothing left behind ------------
mkdir tmp
expect 3 "" env TMPDIR="$work/tmp" SILK_BACKEND=cpu "$silkc" run k.silk -- one two
[ "$(cat out)" = "x[99] = 100" ] || fail "run printed: $(cat out)"
[ -z "$(ls tmp)" ] || fail "run left $(ls tmp) in TMPDIR"
SILK_BACKEND=cpu SILK_VERBOSE=1 "$silkc" run k.silk >out 2>err
grep -q "^silkrt: dispatch add_one at k.silk:16:21 attr(label=first): grid=128 workspace=64" err ||
    fail "SILK_VERBOSE=1 shows no dispatch with its place and metadata: $(cat err)"
cat > minus.silk <<'SILK'
fn main() -> i32 {
  return -1
}
SILK
expect 255 "" "$silkc" run minus.silk
cat > none.silk <<'SILK'
fn main() {
  println("main returns nothing")
}
SILK
expect 0 "" "$silkc" run none.silk
[ "$(cat out)" = "main returns nothing" ] || fail "run none.silk printed: $(cat out)"
# A signal that ends the program: 128 + N.
cat > forever.silk <<'SILK'
fn main() {
  var n: u64 = 0
  while true {
    n += 1
  }
}
SILK
"$silkc" build forever.silk -o forever || fail "forever.silk does not build"
TMPDIR="$work/tmp" "$silkc" run forever.silk >out 2>err &
runner=$!
for _ in $(seq 100); do
    child=$(pgrep -P "$runner" -x forever) && break
    sleep 0.1
done
[ -n "${child:-}" ] && kill -KILL "$child"
wait "$runner"
got=$?
[ "$got" -eq 137 ] || fail "a program killed by SIGKILL: silkc run exited $got, want 137"
[ -z "$(ls tmp)" ] || fail "run left $(ls tmp) in TMPDIR after the signal"

# ---- the program stops for a misuse: its place, exit status 70 ------------------------------
cat > twice.silk <<'SILK'
import { Buffer } from "std/gpu"

fn main() {
  let b = Buffer.alloc(64)
  b.release()
  b.release()
}
SILK
SILK_BACKEND=cpu "$silkc" run twice.silk >out 2>err
got=$?
[ "$got" -eq 70 ] || fail "a buffer released twice: exit $got, want 70"
grep -Eqx "twice.silk:6:5: Buffer.release: the buffer at 0x[0-9a-f]+ was released before" err ||
    fail "a buffer released twice: $(cat err)"

# ---- the CPU backend's checks in a whole program (issue 22, items 13 and 14) ----------------
# A check that fires writes its line to stderr, whatever the program does
# with the status: a barrier some threads exit without reaching; with
# --race (run and build), a race, which without it goes unchecked.
cat > checks.silk <<'SILK'
import { Buffer } from "std/gpu"

@launch(64)
kernel half(out: tensor<u32>[64]) {
  if ctx.tid < 40 {
    sync()
  }
  out[ctx.tid] = ctx.tid
}

@launch(64)
kernel shift(out: tensor<u32>[64]) {
  shared s: u32[64]
  s[ctx.tid] = ctx.tid
  out[ctx.tid] = s[(ctx.tid + 63) % 64]
}

fn main() -> i32 {
  let out = Buffer.alloc(64 * 4)
  gpu (grid=64, workspace=64) {
    half(out.address);
  }
  gpu (grid=64, workspace=64) {
    shift(out.address);
  }
  println("done")
  return 0
}
SILK
DIV="checks.silk:6:5: kernel half, CTA 0, thread 0: a barrier not reached by every thread: thread 40 has exited"
RACE="checks.silk:15:3: kernel shift, CTA 0, thread 1: a shared-memory load of 4 bytes at byte 0 of shared array s races with the store by thread 0 at checks.silk:14:3 (no barrier between them)"
expect 0 "$DIV" env SILK_BACKEND=cpu "$silkc" run checks.silk
[ "$(cat out)" = done ] || fail "run checks.silk printed: $(cat out)"
expect 0 "$DIV
$RACE" env SILK_BACKEND=cpu "$silkc" run --race checks.silk
expect 0 "" "$silkc" build --race checks.silk -o checked
expect 0 "$DIV
$RACE" env SILK_BACKEND=cpu ./checked

# ---- the source's own errors: exit 1 -------------------------------------------------------
expect 1 "$E the program has no fn main: a program starts there (fn main() or fn main() -> i32)" \
    "$silkc" build lib.silk -o prog2
[ -e prog2 ] && fail "a program without main was written"
cat > bad_main.silk <<'SILK'
fn main(n: u64) -> u64 {
  return n
}
SILK
expect 1 "bad_main.silk:1:4: error: fn main takes no parameters and returns an i32 or nothing
    1 | fn main(n: u64) -> u64 {
      |    ^~~~" "$silkc" build bad_main.silk
cat > task_main.silk <<'SILK'
task fn main() {
}
SILK
expect 1 "task_main.silk:1:9: error: fn main cannot be a task: the program ends when it returns
    1 | task fn main() {
      |         ^~~~" "$silkc" build task_main.silk
cat > two.silk <<'SILK'
fn main() {
}
SILK
expect 1 "two.silk:1:4: error: a second fn main: a program has one
    1 | fn main() {
      |    ^~~~
none.silk:1:4: note: the first fn main is here
    1 | fn main() {
      |    ^~~~" "$silkc" build none.silk two.silk -o prog3
cat > typo.silk <<'SILK'
fn main() {
  oops()
}
SILK
expect 1 "typo.silk:2:3: error: unknown function 'oops'
    2 |   oops()
      |   ^~~~" "$silkc" build typo.silk -o prog4
[ -e prog4 ] && fail "a program with errors was written"

# ---- outputs: never over an input, whole or absent ---------------------------------------
cp k.silk keep.silk
expect 2 "$E k.silk: the output would overwrite the input k.silk" "$silkc" build k.silk -o k.silk
expect 2 "$E k.silk: the output would overwrite the input k.silk" "$silkc" build k.silk --emit=c -o k.silk
cmp -s k.silk keep.silk || fail "a refused -o changed k.silk"
expect 2 "$E -o: give the program's name (the source is standard input)" sh -c "\"$silkc\" build - < k.silk"
expect 2 "$E nodir/prog: cannot create: No such file or directory" "$silkc" build k.silk -o nodir/prog

# ---- the runtime and the C compiler ------------------------------------------------------
expect 3 "$E SILK_RUNTIME_DIR=$work/nowhere: no libsilkrt.a there" \
    env SILK_RUNTIME_DIR="$work/nowhere" "$silkc" build k.silk -o prog5
mkdir rt
cp "$(dirname "$silkc")/../std/runtime/libsilkrt.a" rt/
expect 3 "$E SILK_RUNTIME_DIR=$work/rt: no silkrt.h there" \
    env SILK_RUNTIME_DIR="$work/rt" "$silkc" build k.silk -o prog5
cp "$SILK_SRCDIR/std/runtime/silkrt.h" rt/
expect 0 "" env SILK_RUNTIME_DIR="$work/rt" "$silkc" build k.silk -o prog5
[ -x prog5 ] || fail "SILK_RUNTIME_DIR=rt made no program"
# A silkc outside any build tree finds the installed runtime, or says it cannot.
mkdir -p elsewhere/bin
cp "$silkc" elsewhere/bin/silkc
if ! elsewhere/bin/silkc build k.silk -o prog6 >out 2>err; then
    grep -q "^$E cannot find the runtime (libsilkrt.a and silkrt.h): not beside silkc's build tree nor in .*; set SILK_RUNTIME_DIR to the directory that holds them$" err ||
        fail "no runtime: $(cat err)"
fi
# --emit=c needs neither the runtime nor a C compiler.
expect 0 "" env SILK_RUNTIME_DIR="$work/nowhere" CC=/nonexistent PATH=/nonexistent \
    "$silkc" build k.silk --emit=c -o k2.c
expect 3 "$E silkc build needs a C compiler, and none was found (install gcc, or set CC)" \
    env -u CC PATH=/nonexistent "$silkc" build k.silk -o prog7
printf '#!/bin/sh\necho "fakecc: cannot compile" >&2\nexit 1\n' > fakecc
chmod +x fakecc
# Our C refused: a compiler bug, exit 1 as for the PTX (silkc(1), EXIT STATUS).
expect 1 "$E $work/fakecc rejected the program's C (a compiler bug; silkc build --emit=c writes that C):
fakecc: cannot compile" env CC="$work/fakecc" "$silkc" build k.silk -o prog8
[ -e prog8 ] && fail "a failed compile left prog8"

# ---- a host expression as long as the source: linear, no deep recursion ------------------
awk 'BEGIN {
    printf "fn main() -> i32 {\n  var x: u64 = 1\n  let y = x"
    for (i = 1; i < 30000; i++) printf " + x"
    printf "\n  let z = 1"
    for (i = 0; i < 30000; i++) printf " + 2"
    printf "\n  if y != 30000 || z != 60001 {\n    return 1\n  }\n  return 0\n}\n"
}' > long.silk
expect 0 "" timeout 60 "$silkc" run long.silk

# ---- command lines ------------------------------------------------------------------------
expect 2 "$E --arch cpu: every program carries its kernels for the CPU backend; --arch names the GPU targets" \
    "$silkc" build k.silk --arch cpu
expect 2 "$E --arch: unknown target 'sm_10' (sm_75 to sm_121, gfx90a, gfx942, gfx1100, gfx1201)" "$silkc" build k.silk --arch sm_10
expect 2 "$E --emit: 'ptx' is not c (silkc build writes a program, or its C); 'silkc --help' shows usage" \
    "$silkc" build k.silk --emit=ptx
expect 2 "$E unknown option '-o'; 'silkc --help' shows usage" "$silkc" run k.silk -o x
expect 2 "$E no input files; 'silkc --help' shows usage" "$silkc" run -- a b
# Several targets: each one's PTX in the program, oldest first.
expect 0 "" "$silkc" build k.silk --arch sm_80,sm_90 --emit=c -o k3.c
grep -q '{"sm_80", silk_ptx_sm_80},' k3.c && grep -q '{"sm_90", silk_ptx_sm_90},' k3.c ||
    fail "--arch sm_80,sm_90: $(grep -A3 'SilkrtPtx silk_program_ptx' k3.c)"
exit $status
