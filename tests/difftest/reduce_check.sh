#!/bin/sh
# reduce_check.sh: tests/difftest/reduce.sh reduces a program with a
# difference between -O0 and the passes to a small one that keeps it, on
# a difference injected for the test, so that the test does not wait for
# a real optimiser bug: SILKC is a stand-in (written below) that is the
# real silkc for `check` and `exec --list`, and for a run checks the exec
# line against `exec --list` (the count of bindings, --arg or --buf for
# each parameter, and the --workspace, as exec would), writes a buffer file and, with the
# passes and a program holding an xor (^), one byte more.  So the
# interesting programs are the valid ones with an xor whose exec line
# fits their kernel, and a run costs no C compiler (C-Vise tries hundreds).
#
# Checked: the reduced program is a few lines, holds the xor, is accepted
# by the real `silkc check` (no error), lost the parameters its
# kernel no longer needs and their bindings, and its exec line binds its
# kernel with the real silkc; with the stand-in it still differs.  Then the
# errors: a program with no difference is refused (exit 1), as is a
# program with no exec line (exit 2); --crash keeps a program on which
# silkc dies by a signal (the stand-in's, for a program with a <<).
# Exits 77 (skipped) without cvise (C-Vise, Debian package cvise) or
# a C compiler.  Run by make check with SILKC and SILK_SRCDIR set.
set -u
: "${SILKC:?SILKC must name the silkc to test (make check sets it)}"
here=$(cd "$(dirname "$0")" && pwd)
reduce=${SILK_SRCDIR:+$SILK_SRCDIR/tests/difftest/reduce.sh}
reduce=${reduce:-$here/reduce.sh}
command -v "${CVISE:-cvise}" >/dev/null 2>&1 ||
    { echo "SKIP: cvise (C-Vise, Debian package cvise) not found: reduce.sh needs it"; exit 77; }
command -v "${CC:-cc}" >/dev/null 2>&1 || { echo "SKIP: no C compiler (cc) for the CPU backend"; exit 77; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
status=0
fail() { echo "FAIL: $*"; status=1; }

cat >fake-silkc <<EOF
#!/bin/sh
real='$SILKC'
EOF
cat >>fake-silkc <<'EOF'
# The real silkc, but for a kernel's run (see reduce_check.sh).
case "$1 $*" in
exec*--list* | check*) exec "$real" "$@" ;;
esac
shift
optimised=1 file="" out="" line="" prev=""
for a in "$@"; do
    case $prev in --out) out=$a ;; --arg | --buf) line="$line $prev" ;; esac
    case $a in -O0) optimised=0 ;; *.silk) file=$a ;; esac
    prev=$a
done
kernel=$(echo "$*" | sed 's/.*--kernel \([^ ]*\).*/\1/')
listed=$("$real" exec "$file" --list 2>/dev/null | awk -v k="$kernel" '
    $1 == k { printf "--workspace %s:", $3; for (i = 4; i <= NF; i += 2) printf " %s", $i }')
case " $* " in *" ${listed%%:*} "*) ;; *) echo "silkc: error: not the kernel's --workspace" >&2; exit 2 ;; esac
[ "${listed#*:}" = "$line" ] || { echo "silkc: error: the bindings are not the kernel's" >&2; exit 2; }
grep -q '<<' "$file" && kill -SEGV $$
printf 'buffers\n' >"$out"
[ "$optimised" = 1 ] && grep -q '\^' "$file" && printf 'x' >>"$out"
exit 0
EOF
chmod +x fake-silkc

# The program: a kernel of six parameters, two of which the xor needs
# (out and the n of its extent).
cat >big.silk <<'SILK'
// exec: --kernel mix --grid 64 --workspace 32 --arg 64 --buf u32:64:random --buf f32:64:random --arg 3 --buf u32:64:0 --buf f32:64:0
@launch(32)
kernel mix(n: u64, a: tensor<u32>[n], x: tensor<f32>[n], k: u64, out: tensor<u32>[n], y: tensor<f32>[n]) {
  shared s: u32[32]
  let i = ctx.gid
  var acc: u32 = 0
  for j in 0..k {
    acc = acc + a[i] * u32(j + 1)
  }
  s[ctx.tid] = acc
  sync()
  let left = s[(ctx.tid + 1) % 32]
  if i < n {
    out[i] = (acc ^ left) + 7
    y[i] = x[i] * 2.0 + f32(left & 5)
  }
  if ctx.tid == 0 {
    y[i] = y[i] + 1.0
  }
}
SILK

SILKC=$work/fake-silkc sh "$reduce" -o small.silk big.silk >out 2>err
[ $? -eq 0 ] || fail "reduce.sh big.silk: $(cat out err)"
lines=$(wc -l <small.silk)
grep -q "^reduce.sh: big.silk: 19 lines to $((lines - 1)), [1-9] parameters dropped: small.silk\$" out ||
    fail "reduce.sh's line: $(cat out)"
[ "$lines" -le 10 ] || fail "the reduced program has $lines lines, want at most 10: $(cat small.silk)"
grep -q '\^' small.silk || fail "the reduced program lost the xor: $(cat small.silk)"
NO_COLOR=1 "$SILKC" check small.silk >check.log 2>&1 && ! grep -q 'error:' check.log ||
    fail "silkc check on the reduced program: $(cat check.log)"
params=$("$SILKC" exec small.silk --list 2>/dev/null | awk '$1 == "mix" { print (NF - 3) / 2 }')
[ "${params:-6}" -lt 6 ] || fail "no parameter dropped: $(cat small.silk)"
exec_line=$(sed -n '1s|^// exec: ||p' small.silk)
[ "$(echo "$exec_line" | grep -o -e '--arg' -e '--buf' | wc -l)" -eq "${params:-0}" ] ||
    fail "the exec line has not one binding a parameter: $exec_line"
# The real silkc binds the exec line (the stand-in runs no kernel, so the
# reduced one may fault: a usage error, exit 2, is what must not come).
# shellcheck disable=SC2086 # the exec line is words
"$SILKC" exec small.silk -O0 $exec_line --out a.bin 2>run.log
[ $? -ne 2 ] || fail "the reduced program's exec line with the real silkc: $(cat run.log)"
# shellcheck disable=SC2086
"$work/fake-silkc" exec small.silk -O0 $exec_line --out a.bin &&
    "$work/fake-silkc" exec small.silk $exec_line --out b.bin && ! cmp -s a.bin b.bin ||
    fail "the reduced program lost the difference"

# No difference: refused.
sed 's/\^/|/' big.silk >same.silk
SILKC=$work/fake-silkc sh "$reduce" same.silk >out 2>err
[ $? -eq 1 ] || fail "reduce.sh same.silk: want exit 1"
[ "$(cat err)" = "reduce.sh: same.silk: not a difference: -O0 does not run cleanly, or the passes give the same buffers (or silkc check does not accept it)" ] ||
    fail "reduce.sh same.silk: $(cat err)"
sed 1d big.silk >noline.silk
SILKC=$work/fake-silkc sh "$reduce" noline.silk >out 2>err
[ $? -eq 2 ] || fail "reduce.sh noline.silk: want exit 2"
[ "$(cat err)" = "reduce.sh: noline.silk: no // exec: first line, and no EXEC-OPTIONS" ] ||
    fail "reduce.sh noline.silk: $(cat err)"

# --crash: a << makes the stand-in die by SIGSEGV; the options given on
# the command line replace the (missing) exec line.
cat >crash.silk <<'SILK'
@launch(32)
kernel shift(n: u64, out: tensor<u32>[n], k: u32, extra: tensor<f32>[n]) {
  let i = ctx.gid
  let f = extra[i] * 2.0
  if i < n {
    extra[i] = f + 1.0
    out[i] = u32(i) << k
  }
}
SILK
SILKC=$work/fake-silkc sh "$reduce" --crash crash.silk --kernel shift --grid 64 --workspace 32 --arg 64 \
    --buf u32:64:0 --arg 3 --buf f32:64:random >out 2>err || fail "reduce.sh --crash: $(cat out err)"
grep -q '<<' crash.reduced.silk || fail "--crash lost the <<: $(cat crash.reduced.silk)"
grep -q 'extra\|f32' crash.reduced.silk && fail "--crash kept extra: $(cat crash.reduced.silk)"
[ "$(wc -l <crash.reduced.silk)" -le 8 ] || fail "--crash kept $(wc -l <crash.reduced.silk) lines"
# shellcheck disable=SC2046 # the exec line is words
"$SILKC" exec crash.reduced.silk -O0 $(sed -n '1s|^// exec: ||p' crash.reduced.silk) >/dev/null 2>run.log
[ $? -ne 2 ] || fail "--crash: the exec line with the real silkc: $(cat run.log)"
exit $status
