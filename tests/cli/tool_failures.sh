#!/bin/sh
# tool_failures.sh: a failing tool is one event with one message and one
# exit status in every command that runs it (issue 23, item 4; silkc(1),
# EXIT STATUS): `silkc check --arch`, `silkc compile` and `silkc build`
# alike.  Each tool is a fake named by $SILK_PTXAS, $SILK_LLC or $CC:
#   it refuses our code in its own words   exit 1 (a compiler bug)
#   it fails without a word                exit 3 (a broken tool)
#   it exits 0 without its output          exit 3
#   a signal ends it                       exit 3
#   it cannot be started                   exit 3
#   none is installed (AMD: no estimate)   exit 3
# The message is the one line (with the tool's words after it) that
# compiler/build_failure.c writes, exactly; `silkc exec`'s C compiler too.  Run by make check, which sets
# SILKC; needs no ptxas, llc or C compiler of its own.
set -u
: "${SILKC:?}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
cd "$work" || exit 99
cat > p.silk <<'SILK'
kernel k(o: tensor<u32>[64]) {
  o[ctx.tid] = ctx.tid
}

fn main() -> i32 {
  println("hi")
  return 0
}
SILK
printf '#!/bin/sh\necho "fatal: rejected"\nexit 2\n' > rejecting
printf '#!/bin/sh\nexit 4\n' > silent
printf '#!/bin/sh\nkill -9 $$\n' > killed
printf '#!/nonexistent/interpreter\n' > unstartable
chmod +x rejecting silent killed unstartable
E="silkc: error:"

# expect STATUS STDERR ENV... -- ARGS...: silkc ARGS under ENV exits
# STATUS with exactly STDERR.
expect() {
    want_status=$1 want=$2
    shift 2
    envs=""
    while [ "$1" != -- ]; do envs="$envs $1"; shift; done
    shift
    # shellcheck disable=SC2086
    env $envs "$SILKC" "$@" >out 2>err
    got=$?
    [ "$got" = "$want_status" ] || fail "$envs silkc $*: exit $got, want $want_status ($(cat err))"
    [ "$(cat err)" = "$want" ] || fail "$envs silkc $*: stderr
  got:  $(cat err)
  want: $want"
}

# ---- ptxas: the same in check --arch, compile and build ----------------------------------------
P="$work/rejecting rejected the PTX for sm_90 (a compiler bug; silkc compile --emit=ptx writes that PTX):
fatal: rejected"
for args in "check p.silk --arch sm_90" "compile p.silk --arch sm_90 --emit=cubin -o k.cubin" \
    "build p.silk --arch sm_90 -o prog"; do
    # shellcheck disable=SC2086
    {
        expect 1 "$E $P" SILK_PTXAS="$work/rejecting" -- $args
        expect 3 "$E $work/silent for sm_90 exited 4 without a message" SILK_PTXAS="$work/silent" -- $args
        expect 3 "$E /bin/true for sm_90 exited 0 without writing its output file" SILK_PTXAS=/bin/true -- $args
        expect 3 "$E $work/killed for sm_90 was killed by signal 9 (Killed)" SILK_PTXAS="$work/killed" -- $args
        expect 3 "$E cannot start $work/unstartable for sm_90: No such file or directory" \
            SILK_PTXAS="$work/unstartable" -- $args
    }
done
[ ! -e k.cubin ] && [ ! -e prog ] || fail "a failed ptxas left an output"
# With --emit=ptx the PTX is the user's file: the rejection names it, and keeps it.
expect 1 "$E $work/rejecting rejected k.ptx for sm_90 (a compiler bug):
fatal: rejected" SILK_PTXAS="$work/rejecting" -- compile p.silk --arch sm_90 --resource-usage -o k.ptx
[ -s k.ptx ] || fail "the rejected PTX was not kept"
# Two targets, each failure said: a broken tool (3) over a compiler bug (1).
printf '#!/bin/sh\ncase "$*" in *sm_80*) exit 4 ;; esac\necho "fatal: rejected"\nexit 2\n' > mixed
chmod +x mixed
expect 3 "$E $work/mixed rejected the PTX for sm_90 (a compiler bug; silkc compile --emit=ptx writes that PTX):
fatal: rejected
$E $work/mixed for sm_80 exited 4 without a message" \
    SILK_PTXAS="$work/mixed" -- compile p.silk --arch sm_90,sm_80 --emit=cubin -o k.cubin
# A tool that cannot start is said once, not once per target.
expect 3 "$E cannot start $work/unstartable for sm_90: No such file or directory" \
    SILK_PTXAS="$work/unstartable" -- compile p.silk --arch sm_90,sm_80 --emit=cubin -o k.cubin

# ---- llc (AMD): the same words; missing is an error too, there is no estimate ----------------
L="$work/rejecting rejected the LLVM IR for gfx942 (a compiler bug; silkc compile --emit=llvm writes that LLVM IR):
fatal: rejected"
need="(install llvm-19 and lld-19, or set SILK_LLC and SILK_LLD)"
for args in "compile p.silk --arch gfx942 -o k.hsaco" "build p.silk --arch gfx942 -o prog"; do
    # shellcheck disable=SC2086
    {
        expect 1 "$E $L" SILK_LLC="$work/rejecting" SILK_LLD=/bin/true -- $args
        expect 3 "$E $work/silent for gfx942 exited 4 without a message" \
            SILK_LLC="$work/silent" SILK_LLD=/bin/true -- $args
        expect 3 "$E $work/killed for gfx942 was killed by signal 9 (Killed)" \
            SILK_LLC="$work/killed" SILK_LLD=/bin/true -- $args
        expect 3 "$E gfx942: AMD targets need llc-19 (LLVM 19), and none was found $need" \
            SILK_LLC=none SILK_LLD=/bin/true -- $args
    }
done

# ---- the C compiler of silkc build: the same rule ----------------------------------------------
expect 1 "$E $work/rejecting rejected the program's C (a compiler bug; silkc build --emit=c writes that C):
fatal: rejected" CC="$work/rejecting" -- build p.silk -o prog
expect 3 "$E $work/killed was killed by signal 9 (Killed)" CC="$work/killed" -- build p.silk -o prog
expect 3 "$E $work/silent exited 4 without a message" CC="$work/silent" -- build p.silk -o prog
[ ! -e prog ] || fail "a failed C compiler left prog"
# exec's, for the CPU backend's C: the same.
X="exec p.silk --kernel k --grid 1 --buf u32:64:0"
# shellcheck disable=SC2086
expect 1 "$E $work/rejecting rejected the CPU backend's C (a compiler bug):
fatal: rejected" CC="$work/rejecting" -- $X
# shellcheck disable=SC2086
expect 3 "$E $work/killed was killed by signal 9 (Killed)" CC="$work/killed" -- $X

[ "$failures" = 0 ] && echo "tool_failures.sh: all passed"
[ "$failures" = 0 ]
