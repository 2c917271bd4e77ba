#!/bin/sh
# option_rules.sh: silkc and silk-occ read their command lines by the same
# rules, one loop over getopt_long (src/options.c; issue 23, item 8):
# --opt=VALUE and --opt VALUE, -o FILE and -oFILE, a long option by an
# unambiguous prefix, options and files in any order, `--` ending the
# options; and the same words for a line refused: "unknown option 'X'",
# "X: needs a value", "X given twice", each after the program's prefix
# (silkc adds its pointer to --help to each, silk-occ to the unknown
# option).  Run by make check, which sets SILKC, SILK_OCC and SILK_SRCDIR.
set -u
: "${SILKC:?}" "${SILK_OCC:?}" "${SILK_SRCDIR:?}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
cd "$work" || exit 99
cp "$SILK_SRCDIR/examples/saxpy.silk" k.silk
cp k.silk ./-k.silk
E="silkc: error:"
U="; 'silkc --help' shows usage"
C="silk-occ calc: error:"
CALC="calc --arch sm_90 --threads 256"

# expect STATUS STDERR PROGRAM ARGS...: exits STATUS with exactly STDERR.
expect() {
    want_status=$1 want=$2 program=$3
    shift 3
    "$program" "$@" >out 2>err
    got_status=$?
    [ "$got_status" = "$want_status" ] || fail "$program $*: exit $got_status, want $want_status"
    [ "$(cat err)" = "$want" ] || fail "$program $*: stderr
  got:  $(cat err)
  want: $want"
}

# ---- values: after '=' or as the next word, in any order with the files ----
"$SILKC" compile k.silk --arch sm_90 -o - >spaced.ptx 2>err || fail "--arch sm_90: $(cat err)"
for args in "--arch=sm_90 k.silk -o -" "k.silk --arc sm_90 -o-" "--emit ptx --arch sm_90 -o - k.silk" \
    "--emit=ptx -o - k.silk --arch=sm_90"; do
    # shellcheck disable=SC2086
    "$SILKC" compile $args >got.ptx 2>err || fail "silkc compile $args: $(cat err)"
    cmp -s spaced.ptx got.ptx || fail "silkc compile $args: not the PTX of --arch sm_90"
done
# POSIXLY_CORRECT, which would stop getopt at the first file, changes nothing.
POSIXLY_CORRECT=1 "$SILKC" compile k.silk --arch sm_90 -o - >got.ptx 2>err &&
    cmp -s spaced.ptx got.ptx || fail "POSIXLY_CORRECT: $(cat err)"
"$SILKC" compile k.silk --arch sm_90 -ok.ptx 2>err && cmp -s spaced.ptx k.ptx ||
    fail "-oFILE: $(cat err)"
"$SILK_OCC" calc --arch=sm_90 --threads=256 --regs=32 >eq.txt 2>err || fail "calc with '=': $(cat err)"
"$SILK_OCC" calc --arch sm_90 --threads 256 --regs 32 >sp.txt 2>err || fail "calc spaced: $(cat err)"
cmp -s eq.txt sp.txt || fail "silk-occ calc: --opt=VALUE and --opt VALUE differ"

# ---- `--` ends the options: a file may then start with a dash ----
expect 0 "" "$SILKC" check -- -k.silk
# Without it the word is a group of short options, and its first unknown
# letter is named.
expect 2 "$E unknown option '-k'$U" "$SILKC" check -k.silk

# ---- the refusals, in both programs' words ----
expect 2 "$E unknown option '--bogus'$U" "$SILKC" check k.silk --bogus
expect 2 "$C unknown option '--bogus'; 'silk-occ help calc' lists them" "$SILK_OCC" $CALC --bogus
expect 2 "$E unknown option '-x'$U" "$SILKC" check k.silk -xy
expect 2 "$C unknown option '-x'; 'silk-occ help calc' lists them" "$SILK_OCC" $CALC -xy
expect 2 "$E --kernel: needs a value$U" "$SILKC" exec k.silk --kernel
expect 2 "$E -o: needs a value$U" "$SILKC" build k.silk -o
expect 2 "$C --regs: needs a value" "$SILK_OCC" $CALC --regs
expect 2 "$E --grid given twice$U" "$SILKC" exec k.silk --kernel saxpy --grid 2 --grid 4
expect 2 "$C --regs given twice" "$SILK_OCC" $CALC --regs 32 --regs 64
# Options that add may come again: -I, -W, --arg.
expect 0 "" "$SILKC" check k.silk -I a -I b -Wall -Wno-all
# A flag given to a command that has no such option is unknown to it.
expect 2 "$E unknown option '--kernel'$U" "$SILKC" compile k.silk --arch sm_90 --kernel k
expect 2 "$E unknown option '-o'$U" "$SILKC" run k.silk -o x
# -h and --help, wherever they come, print the usage on stdout.
for h in -h --help; do
    "$SILKC" compile k.silk "$h" >out 2>err || fail "silkc compile $h: exit $?"
    grep -q '^usage: silkc' out && [ ! -s err ] || fail "silkc compile $h: $(head -c 200 out err)"
done

[ "$failures" = 0 ] && echo "option_rules.sh: all passed"
[ "$failures" = 0 ]
