#!/bin/sh
# colour.sh: both programs follow one colour rule (common/colour.h, issue
# 12): colour only at a terminal, none when NO_COLOR is non-empty or TERM
# is dumb, and silkc's -fcolor-diagnostics / -fno-color-diagnostics win
# over the rule.  Each program runs on a pseudo-terminal made by
# script(1) (skipped without it); silk-occ's text is bold there, silkc's
# diagnostics are in GCC's colours, both through an escape (ESC [).
# Run by make check, which sets SILKC and SILK_OCC.
set -u
: "${SILKC:?}" "${SILK_OCC:?}"
# Skipped without script(1), or where it cannot make a pseudo-terminal.
script -qec true /dev/null > /dev/null 2>&1 < /dev/null || exit 77
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
printf 'fn main() { let x: i32 = true; }\n' > "$work/bad.silk"
esc=$(printf '\033')

# at_terminal NO_COLOR TERM CMD: CMD's output on a terminal, into $work/out
# ("-" for NO_COLOR or TERM: unset).
at_terminal() {
    no_color=$1 term=$2
    shift 2
    (
        if [ "$no_color" = - ]; then unset NO_COLOR; else NO_COLOR=$no_color; export NO_COLOR; fi
        if [ "$term" = - ]; then unset TERM; else TERM=$term; export TERM; fi
        script -qec "$*" /dev/null
    ) > "$work/out" 2>&1 < /dev/null
}

# expect yes|no NO_COLOR TERM CMD: whether CMD's output at a terminal has colour.
expect() {
    want=$1
    shift
    at_terminal "$@"
    if grep -q "$esc\[" "$work/out"; then got=yes; else got=no; fi
    [ "$got" = "$want" ] || fail "NO_COLOR=$1 TERM=$2 $3...: colour $got, expected $want"
}

calc="'$SILK_OCC' calc --arch sm_90 --threads 256 --regs 32"
check="'$SILKC' check '$work/bad.silk'"
for program in "$calc" "$check"; do
    expect yes - xterm "$program"
    expect yes - - "$program"
    expect yes "" xterm "$program" # an empty NO_COLOR is no request
    expect no 1 xterm "$program"
    expect no - dumb "$program"
    expect no 1 dumb "$program"
done
# silkc's options win over the rule, both ways.
expect yes 1 dumb "'$SILKC' check -fcolor-diagnostics '$work/bad.silk'"
expect no - xterm "'$SILKC' check -fno-color-diagnostics '$work/bad.silk'"

# Not a terminal: never, whatever TERM says.
TERM=xterm "$SILK_OCC" calc --arch sm_90 --threads 256 --regs 32 > "$work/out" 2>&1
grep -q "$esc\[" "$work/out" && fail "silk-occ calc into a file: colour"
TERM=xterm "$SILKC" check "$work/bad.silk" > "$work/out" 2>&1
grep -q "$esc\[" "$work/out" && fail "silkc check into a file: colour"

[ "$failures" -eq 0 ]
