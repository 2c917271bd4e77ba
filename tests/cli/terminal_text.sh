#!/bin/sh
# terminal_text.sh: outside text reaches the terminal escaped (issue 22,
# items 4 and 12): a kernel name, an amdhsa.target or a file name holding
# ESC in every people's format and in CSV, a source line holding ESC in a
# diagnostic with its caret still under the span, and option values cut
# to 60 bytes; then the smaller fixes of item 12 (the header's dynamic
# shared memory, --grid near 2^64, --arg's u64, verify with no driver).
# Exact text throughout.  Run by make check, which sets SILK_OCC, SILKC,
# SILK_TEST_DATA and CRAFT_CUBIN; the cases needing ptxas, a C compiler or
# the CUDA runtime are left out without them.
set -u
: "${SILK_OCC:?}" "${SILKC:?}" "${SILK_TEST_DATA:?}" "${CRAFT_CUBIN:?}"
srcdir=$(cd "$SILK_TEST_DATA/../.." && pwd)
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ESC=$(printf '\033')

# run STATUS PROGRAM ARGS...: stdout in out, stderr in err.
run() {
    want=$1
    shift
    timeout 60 "$@" >out 2>err
    got=$?
    [ "$got" = "$want" ] || fail "$*: exit $got, want $want ($(head -c 300 err))"
}
# has FILE LINE: FILE holds LINE exactly.
has() {
    grep -Fqx -- "$2" "$1" || fail "$1 lacks the line '$2':
$(head -c 1500 "$1")"
}
# raw FILE: no ESC byte in FILE.
raw() {
    grep -q "$ESC" "$1" && fail "$1: an ESC byte reached the terminal"
}

# ---- item 4: names from files, in every format ----------------------------------
name=$(printf 'k\033[2J|x')
file=$(printf 'f\033[1m.cubin')
"$CRAFT_CUBIN" "$file" "$name" maxntid 128 1 1 || fail "craft_cubin"
run 0 "$SILK_OCC" report "$file" --arch sm_90
raw out
has out 'k\x1b[2J|x (f\x1b[1m.cubin) on sm_90 (Hopper, compute capability 9.0)'
run 0 "$SILK_OCC" report "$file" --arch sm_90 --format markdown
raw out
has out '## `k\x1b[2J|x` on sm_90'
has out '- **Input:** `f\x1b[1m.cubin`'
run 0 "$SILK_OCC" report "$file" --arch sm_90 --format csv
raw out
[ "$(sed -n 2p out | cut -d, -f1-5)" = '"f\x1b[1m.cubin","k\x1b[2J|x","k\x1b[2J|x","nvidia","sm_90"' ] ||
    fail "csv: $(sed -n 2p out | cut -d, -f1-5)"

# A .hsaco whose kernel name and amdhsa.target hold ESC: the same bytes'
# length, so the MessagePack stays valid.
pinned=$SILK_TEST_DATA/amdgpu/pinned.gfx942.hsaco
perl -0pe 's/\xa5\.name\xa6pinned/\xa5.name\xa6pi\x1b[1m/' "$pinned" >name.hsaco
perl -0pe 's/amdhsa--gfx942/amdhsa--gfx\x1b42/' "$pinned" >target.hsaco
run 0 "$SILK_OCC" report name.hsaco --arch gfx942
raw out
has out 'pi\x1b[1m (name.hsaco) on gfx942 (CDNA3, wave64)'
has out '     hipModuleLaunchKernel(f, (n + 127) / 128, 1, 1, 128, 1, 1, 0, stream, args, NULL);'
has out '     hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, pi\x1b[1m, 128, 0);'
run 2 "$SILK_OCC" report target.hsaco --arch gfx942
has err 'silk-occ report: warning: target.hsaco: a code object for gfx\x1b42, which --arch does not name'
has err 'silk-occ report: error: the input has no kernels'

# A source line with ESC, quoted by silkc as clang does, the caret under
# the span counted in the escape's width; the path escaped too.
printf 'kernel k(x: f32) {\n  /* \033[2J */ let y = z\n}\n' >"$(printf 'e\033[1m.silk')"
run 1 "$SILKC" check "$(printf 'e\033[1m.silk')"
raw err
[ "$(cat err)" = "e\\x1b[1m.silk:2:22: error: unknown name 'z'
    2 |   /* <U+001B>[2J */ let y = z
      |                             ^" ] || fail "silkc check, ESC before the caret:
$(cat err)"
printf '\tlet q = \033 + 1\n' >u.silk
run 1 "$SILKC" check u.silk
[ "$(head -3 err)" = "u.silk:1:10: error: unexpected byte 0x1B
    1 | 	let q = <U+001B> + 1
      | 	        ^~~~~~~~" ] || fail "silkc check, ESC under the caret:
$(cat err)"

# A file name with ESC in an error, of both programs.
run 2 "$SILK_OCC" report "$(printf 'no\033[1m.ptx')" --arch sm_90
[ "$(cat err)" = 'silk-occ report: error: no\x1b[1m.ptx: cannot read: No such file or directory' ] ||
    fail "report, a missing file: $(cat err)"
run 2 "$SILKC" check "$(printf 'no\033[1m.silk')"
[ "$(cat err)" = 'silkc: error: no\x1b[1m.silk: cannot read: No such file or directory' ] ||
    fail "silkc, a missing file: $(cat err)"

# A message that quotes the source: an import's path.
printf 'import { f } from "./a\033[2Jb.silk"\n' >imp.silk
run 1 "$SILKC" check imp.silk
raw err
has err "imp.silk:1:1: error: cannot read './a\\x1b[2Jb.silk': No such file or directory"

# ---- item 12: option values quoted short and escaped ----------------------------
long=$(printf "x\033[2J%0120000d" 0)
cut="x\\x1b[2J$(printf '%055d' 0)..." # 5 bytes of the first 60, then 55 zeros
run 2 "$SILK_OCC" calc --arch sm_90 --threads "$long" --regs 32
[ "$(cat err)" = "silk-occ calc: error: --threads: '$cut' is not a number" ] ||
    fail "calc: $(head -c 300 err)"
run 2 "$SILK_OCC" "$long"
[ "$(cat err)" = "silk-occ: error: unknown command '$cut'; 'silk-occ --help' lists the commands" ] ||
    fail "silk-occ: $(head -c 300 err)"
run 2 "$SILKC" check "-W$long" u.silk
W="'-Wx\\x1b[2J$(printf '%053d' 0)...'"
[ "$(cat err)" = "silkc: error: unknown warning option $W; 'silkc --help' shows usage" ] ||
    fail "silkc -W: $(head -c 300 err)"
run 2 "$SILKC" exec u.silk --kernel k --grid "$long"
[ "$(cat err)" = "silkc: error: --grid: '$cut' is not a whole number from 1 to 18446744073709551615" ] ||
    fail "silkc --grid: $(head -c 300 err)"

# ---- item 12: the header states the dynamic shared memory asked for; ptxas's words --
if command -v ptxas >/dev/null 2>&1; then
    dynamic=$srcdir/tests/report/inputs/dynamic.ptx
    run 0 "$SILK_OCC" report "$dynamic" --arch sm_90 --dyn-smem 300K
    usage='  8 registers per thread (ptxas -v), 0 B static +'
    spills='dynamic shared memory, 1 barrier, spills 0 B stored / 0 B loaded per thread'
    has out "$usage 300 KiB $spills"
    has out '     none: no permitted block size has a resident CTA on sm_90'
    run 0 "$SILK_OCC" report "$dynamic" --arch sm_90 --dyn-smem '300K+threads*1024'
    has out "$usage 364 KiB to 492 KiB $spills"
    # ptxas quotes the token it stopped at, here an ESC in a kernel's name.
    printf '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k\033[2J()\n{\n  ret;\n}\n' >e.ptx
    run 2 "$SILK_OCC" report e.ptx --arch sm_90
    raw err
    has err "ptxas e.ptx, line 4; fatal   : Parsing error near '\\x1b': syntax error"
else
    echo "note: no ptxas: the --dyn-smem header and ptxas message cases are left out"
fi

# ---- item 12: silkc exec's grid bound and --arg's type ----------------------------
if command -v "${CC:-cc}" >/dev/null 2>&1; then
    cat >k.silk <<'SILK'
@launch(64)
kernel scale(n: u64, x: tensor<f32>[n]) {
  if ctx.gid < n {
    x[ctx.gid] = x[ctx.gid] * 2.0
  }
}
SILK
    E="silkc: error:"
    run 2 "$SILKC" exec k.silk --kernel scale --grid 18446744073709551600 --arg 1 --buf f32:1:1
    [ "$(cat err)" = "$E --grid 18446744073709551600: more than 2^32 - 1 CTAs of 64 threads" ] ||
        fail "--grid near 2^64: $(cat err)"
    run 2 "$SILKC" exec k.silk --kernel scale --grid 274877906945 --arg 1 --buf f32:1:1
    [ "$(cat err)" = "$E --grid 274877906945: more than 2^32 - 1 CTAs of 64 threads" ] ||
        fail "--grid past 2^32 CTAs: $(cat err)"
    run 2 "$SILKC" exec k.silk --kernel scale --grid 64 --arg x --buf f32:1:1
    [ "$(cat err)" = "$E --arg 'x': not a value of parameter 1 (n: u64)" ] || fail "--arg u64: $(cat err)"
    # The IR keeps only a u64's width: -1 is still no u64.
    run 2 "$SILKC" exec k.silk --kernel scale --grid 64 --arg -1 --buf f32:1:1
    [ "$(cat err)" = "$E --arg '-1': not a value of parameter 1 (n: u64)" ] || fail "--arg -1 u64: $(cat err)"
    # A fault of the CPU backend names the source's path as the terminal
    # shows it: the path is in the module's tables, escaped when written.
    cp k.silk "$(printf 'f\033[1m.silk')"
    run 1 "$SILKC" exec "$(printf 'f\033[1m.silk')" --kernel scale --grid 64 --arg 64 --buf f32:1:1
    raw err
    grep -q '^f\\x1b\[1m\.silk:4:5: kernel scale, CTA 0, thread 1: ' err ||
        fail "a fault line in a file named with ESC: $(cat err)"
else
    echo "note: no C compiler: the silkc exec cases are left out"
fi

# ---- item 12: verify with no driver names the library ---------------------------
"$SILK_OCC" verify >out 2>err
if grep -q "configure did not find" err; then
    echo "note: built without the CUDA runtime: the no-driver case is left out"
elif ! PATH=$PATH:/sbin:/usr/sbin command -v ldconfig >/dev/null 2>&1; then
    echo "note: no ldconfig to tell whether libcuda.so.1 is installed: the no-driver case is left out"
elif PATH=$PATH:/sbin:/usr/sbin ldconfig -p | grep -q 'libcuda\.so\.1 '; then
    echo "note: libcuda.so.1 is installed: the no-driver case is left out"
else
    why='libcuda.so.1: cannot open shared object file: No such file or directory'
    V="silk-occ verify: error: no CUDA device:"
    [ "$(cat err)" = "$V the NVIDIA driver (libcuda.so.1) cannot be loaded: $why" ] ||
        fail "verify with no driver: $(cat err)"
fi

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "terminal_text: all cases pass"
