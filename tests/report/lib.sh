# lib.sh: what the report test scripts share (sourced by errors.sh and
# cuda.sh): a scratch directory, failure counting, and `expect`.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
P="silk-occ report: error:"

# expect STATUS MESSAGE ARGS...: stderr must be exactly MESSAGE.
expect() {
    want_status=$1 want=$2
    shift 2
    "$SILK_OCC" report "$@" >"$work/out" 2>"$work/err"
    got_status=$?
    got=$(cat "$work/err")
    [ "$got_status" = "$want_status" ] || fail "report $*: exit $got_status, want $want_status"
    [ "$got" = "$want" ] || fail "report $*: stderr
  got:  $got
  want: $want"
}
