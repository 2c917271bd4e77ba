#!/bin/sh
# hostile_occ.sh: silk-occ on hostile input (issue 11): files that never
# end, numbers that do not fit, names with control characters, tables with
# extreme values, and option values that were once taken silently.  Each
# case checks the exact stderr and exit status (and stdout where it is the
# point), under a time limit, so that a hang or a runaway read fails the
# test instead of stalling it.  Run by make check, which sets SILK_OCC and
# SILK_TEST_DATA.
set -u
: "${SILK_OCC:?}" "${SILK_TEST_DATA:?}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
LIMIT=60 # seconds: each case takes well under one

# expect STATUS STDERR ARGS...: silk-occ ARGS exits STATUS with exactly
# STDERR on stderr; its stdout is left in $work/out.
expect() {
    want_status=$1 want=$2
    shift 2
    timeout $LIMIT "$SILK_OCC" "$@" >"$work/out" 2>"$work/err"
    got_status=$?
    got=$(cat "$work/err")
    [ "$got_status" = "$want_status" ] || fail "silk-occ $*: exit $got_status, want $want_status"
    [ "$got" = "$want" ] || fail "silk-occ $*: stderr
  got:  $got
  want: $want"
}

# expect_out WANT: the last run's stdout holds the line WANT exactly.
expect_line() {
    grep -Fqx -- "$1" "$work/out" || fail "stdout lacks the line '$1':
$(head -c 2000 "$work/out")"
}

C="silk-occ calc: error:"
A="silk-occ arch: error:"
R="silk-occ report: error:"
V="silk-occ verify: error:"
CALC="calc --arch sm_90 --threads 256 --regs 32"

# ---- item 13: every input file is read with a limit ---------------------------
for kind in ptx cubin silk; do
    ln -s /dev/zero "$work/zero.$kind"
    expect 2 "$R $work/zero.$kind: larger than the 256 MiB limit" report "$work/zero.$kind" --arch sm_90
done
ln -s /dev/zero "$work/zero.json"
expect 2 "$V --replay: $work/zero.json: larger than the 64 MiB limit" verify --replay "$work/zero.json"
ln -s /dev/zero "$work/zero.csv"
expect 2 "$A --arch-table: $work/zero.csv: larger than the 64 MiB limit" arch list --arch-table "$work/zero.csv"
# A NUL in a record is where the JSON ends: its position, never a negative one.
printf '\0\0\0' >"$work/nul.json"
expect 2 "$V --replay: $work/nul.json:1:1: not valid JSON" verify --replay "$work/nul.json"
printf '{\n  "schema": 1}\0' >"$work/nul-after.json"
expect 2 "$V --replay: $work/nul-after.json:2:15: not valid JSON" verify --replay "$work/nul-after.json"

if [ $failures -gt 0 ]; then
    echo "$failures failed"
    exit 1
fi
exit 0
