#!/bin/sh
# silkc_json_diag.sh: with -fdiagnostics-format=json every message of
# silkc is in the one JSON array on stderr, nothing else beside it (issue
# 23, item 4): a missing input file, a bad option value, an unknown option
# (before the format option too), a source error and a failing ptxas.  For
# each: the exit status, stderr parsed by jq as exactly one array, and its
# first element's "kind" and "message" (and empty "locations" for a
# message about no place in the source).  The text forms of the same cases
# are pinned by silkc_compile.sh and the others.  Run by make check, which
# sets SILKC; skipped without jq.
set -u
: "${SILKC:?}"
command -v jq >/dev/null 2>&1 || { echo "SKIP: silkc_json_diag.sh: no jq"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
cd "$work" || exit 99
cat > ok.silk <<'SILK'
kernel k(o: tensor<u32>[64]) {
  o[ctx.tid] = ctx.tid
}
SILK
cat > bad.silk <<'SILK'
kernel k(o: tensor<u32>[64]) {
  o[ctx.tid] = nope
}
SILK

# expect STATUS KIND MESSAGE LOCATIONS ARGS...: LOCATIONS is the length of
# the first element's "locations".
expect() {
    want=$1 kind=$2 message=$3 locations=$4
    shift 4
    SILK_PTXAS=/bin/false "$SILKC" "$@" >out 2>err
    rc=$?
    [ "$rc" = "$want" ] || fail "silkc $*: exit $rc, not $want: $(head -c 300 err)"
    jq -s -e 'length == 1 and (.[0] | type == "array")' err >/dev/null 2>&1 ||
        { fail "silkc $*: stderr is not one JSON array: $(head -c 300 err)"; return; }
    got=$(jq -r '.[0].kind' err)
    [ "$got" = "$kind" ] || fail "silkc $*: kind '$got', not '$kind'"
    got=$(jq -r '.[0].message' err)
    [ "$got" = "$message" ] || fail "silkc $*: message '$got', not '$message'"
    got=$(jq -r '.[0].locations | length' err)
    [ "$got" = "$locations" ] || fail "silkc $*: $got locations, not $locations"
}

J=-fdiagnostics-format=json
U="; 'silkc --help' shows usage"
expect 2 error "missing.silk: cannot read: No such file or directory" 0 check $J missing.silk
expect 2 error "--grid: '0' is not a whole number from 1 to 18446744073709551615" 0 \
    exec $J ok.silk --kernel k --grid 0
expect 2 error "--format: 'xml' is not text or json$U" 0 \
    compile $J ok.silk --arch sm_90 --resource-usage --format xml
expect 2 error "unknown option '--bogus'$U" 0 check $J --bogus ok.silk
expect 2 error "unknown option '--bogus'$U" 0 check --bogus $J ok.silk
expect 2 error "no input files$U" 0 check $J
expect 1 error "unknown name 'nope'" 1 check $J bad.silk
expect 3 error "/bin/false for sm_90 exited 1 without a message" 0 \
    compile $J ok.silk --arch sm_90 --emit=cubin -o k.cubin
[ ! -e k.cubin ] || fail "a failed ptxas left k.cubin"
# The build library's own failures (here its temporary directory) too.
(
    TMPDIR=/nonexistent
    export TMPDIR
    expect 3 error "cannot make a temporary directory in /nonexistent: No such file or directory" 0 \
        check $J ok.silk --arch sm_90
    exit $failures
) || failures=$((failures + 1))
# build says the same failure in the same words, with the same status.
expect 3 error "/bin/false for sm_90 exited 1 without a message" 0 \
    build $J ok.silk --arch sm_90 -o prog
# A clean run: the array is empty, and still the only thing on stderr.
SILK_PTXAS=/bin/false "$SILKC" check $J ok.silk >out 2>err ||
    fail "silkc check $J ok.silk: exit $?"
[ "$(cat err)" = "[]" ] || fail "a clean check: stderr '$(head -c 300 err)', not '[]'"

[ "$failures" = 0 ] && echo "silkc_json_diag.sh: all passed"
[ "$failures" = 0 ]
