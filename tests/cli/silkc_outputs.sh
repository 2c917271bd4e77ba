#!/bin/sh
# silkc_outputs.sh: the files `silkc compile` writes (issue 11, items 3-8,
# 15, 17): an output that is an input is refused (exit 2, the input's bytes
# unchanged), whether named by -o, by a link, or by the default name; an
# output is whole or absent after a file-size limit (exit 3, no temporary
# left, an earlier file as it was) or a -Werror failure; every write error
# is one, standard output on /dev/full included; -o - is standard output
# and -o /dev/stdout does not hang; -o /dev/null and a missing directory
# say what failed; names with a leading dash reach ptxas as files; a ptxas
# that exits 0 without its results is an error naming it; -o and
# --std-dir without a value are errors; and no temporary directory is left
# in $TMPDIR, a signal included.  Cases that need ptxas are skipped
# without it (the rest still run).  Run by make check, which sets SILKC
# and SILK_SRCDIR.
set -u
: "${SILKC:?}" "${SILK_SRCDIR:?}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
cd "$work" || exit 99
mkdir tmp
TMPDIR=$work/tmp
export TMPDIR
cp "$SILK_SRCDIR/examples/saxpy.silk" k.silk
cp "$SILK_SRCDIR/examples/sgemm.silk" big.silk
cp "$SILK_SRCDIR/tests/cli/warnings/occ_low.silk" w.silk
E="silkc: error:"
U="; 'silkc --help' shows usage"

# expect STATUS STDERR ARGS...: silkc ARGS exits STATUS with exactly STDERR
# (stdout in out).
expect() {
    want_status=$1 want=$2
    shift 2
    "$SILKC" "$@" >out 2>err
    got_status=$?
    [ "$got_status" = "$want_status" ] || fail "silkc $*: exit $got_status, want $want_status"
    [ "$(cat err)" = "$want" ] || fail "silkc $*: stderr
  got:  $(cat err)
  want: $want"
}
# no_leftovers CASE: no temporary beside the outputs, none in $TMPDIR.
no_leftovers() {
    [ -z "$(ls -A tmp)" ] || fail "$1: left $(ls -A tmp) in \$TMPDIR"
    [ -z "$(ls -A | grep '^\.')" ] || fail "$1: left $(ls -A | grep '^\.')"
}

"$SILKC" compile k.silk --arch sm_90 --emit=cubin -o probe.cubin 2>/dev/null
[ $? -ne 3 ] && have_ptxas=1 || have_ptxas=0
rm -f probe.cubin
[ $have_ptxas = 1 ] || echo "SKIP (no ptxas): the cases that need ptxas"

# ---- item 4: never over an input -------------------------------------------------
cp k.silk k.orig
expect 2 "$E k.silk: the output would overwrite the input k.silk" compile k.silk --arch sm_90 -o k.silk
cmp -s k.silk k.orig || fail "-o k.silk changed the source"
ln k.silk alias.silk
expect 2 "$E alias.silk: the output would overwrite the input k.silk" \
    compile k.silk --arch sm_90 -o alias.silk
cmp -s k.silk k.orig || fail "-o alias.silk (a hard link) changed the source"
expect 2 "$E k.silk: the output would overwrite the input k.silk" compile k.silk --emit=ir -o k.silk
# -Werror on a kernel that warns once deleted the file it was told to write.
cp w.silk w.orig
SILK_PTXAS=none
export SILK_PTXAS
expect 2 "$E w.silk: the output would overwrite the input w.silk" \
    compile w.silk --arch sm_90 -Werror -o w.silk
cmp -s w.silk w.orig || fail "-Werror -o w.silk changed the source"
# A failed build writes nothing, and leaves what was there.
echo old > w.ptx
"$SILKC" compile w.silk --arch sm_90 -Werror -o w.ptx 2>/dev/null
[ $? -eq 1 ] || fail "-Werror on a warning did not exit 1"
[ "$(cat w.ptx)" = old ] || fail "-Werror: w.ptx is not the earlier file"
unset SILK_PTXAS
# The default output name may be an input's own: a Silk file named k.ptx.
for ext in ptx h cubin; do
    cp k.silk "d.$ext"
    case $ext in ptx) emit=ptx ;; h) emit=header ;; cubin) emit=cubin ;; esac
    expect 2 "$E d.$ext: the output would overwrite the input d.$ext" \
        compile "d.$ext" --arch sm_90 --emit=$emit
    cmp -s "d.$ext" k.silk || fail "--emit=$emit over d.$ext changed it"
done
no_leftovers "inputs"

# ---- item 5: whole or absent under a file-size limit ---------------------------------
# sgemm's PTX, IR and header are each over 2 KiB (ulimit -f counts 512- or
# 1024-byte blocks, by shell); the estimate (no ptxas) writes nothing else.
echo old > big.ptx
for case in "ptx:big.ptx:" "ir:big.ir:" "header:big.h:" "ptx:multi.ptx:multi.sm_90.ptx"; do
    emit=${case%%:*} rest=${case#*:} file=${rest%%:*} shown=${rest#*:}
    shown=${shown:-$file}
    archs=sm_90
    [ "$file" = multi.ptx ] && archs=sm_90,sm_80
    (ulimit -f 2; SILK_PTXAS=none exec "$SILKC" compile big.silk --arch $archs --emit=$emit \
        -o "$file") >out 2>err
    rc=$?
    [ $rc -eq 3 ] || fail "--emit=$emit -o $file under ulimit -f 2: exit $rc, want 3"
    grep -qx "$E $shown: cannot write: File too large" err ||
        fail "--emit=$emit -o $file under ulimit -f 2: $(cat err)"
done
[ "$(cat big.ptx)" = old ] || fail "ulimit -f 2: big.ptx is not the earlier file"
for f in big.ir big.h multi.ptx multi.sm_90.ptx multi.sm_80.ptx; do
    [ ! -e $f ] || fail "ulimit -f 2 left $f"
done
if [ $have_ptxas = 1 ]; then
    (ulimit -f 2; exec "$SILKC" compile big.silk --arch sm_90 --emit=cubin -o big.cubin) 2>err
    [ $? -ne 0 ] || fail "--emit=cubin under ulimit -f 2 exited 0"
    [ ! -e big.cubin ] || fail "--emit=cubin under ulimit -f 2 left big.cubin"
fi
no_leftovers "ulimit -f"

# ---- item 6: write errors ---------------------------------------------------------------
W="silkc: write error: No space left on device"
for args in "check k.silk --dump-ast" "compile k.silk --emit=ir" "compile k.silk --arch sm_90 -o -" \
    "compile k.silk --arch sm_90 --emit=header -o -" "--help" "--version"; do
    # shellcheck disable=SC2086
    "$SILKC" $args >/dev/full 2>err
    rc=$?
    [ $rc -eq 3 ] || fail "silkc $args >/dev/full: exit $rc, want 3"
    [ "$(cat err)" = "$W" ] || fail "silkc $args >/dev/full: $(cat err)"
done
expect 3 "$E /dev/full: cannot write: No space left on device" compile k.silk --emit=ir -o /dev/full

# ---- items 3 and 8: special outputs ----------------------------------------------------------
"$SILKC" compile k.silk --arch sm_90 -o k.ptx 2>err || fail "-o k.ptx: $(cat err)"
timeout 60 "$SILKC" compile k.silk --arch sm_90 -o /dev/stdout >stdout.ptx 2>err
rc=$?
[ $rc -eq 0 ] || fail "-o /dev/stdout: exit $rc (124: the ptxas hang): $(cat err)"
cmp -s stdout.ptx k.ptx || fail "-o /dev/stdout is not the PTX"
expect 0 "" compile k.silk --arch sm_90 -o -
cmp -s out k.ptx || fail "-o - is not the PTX"
expect 0 "" compile k.silk --arch sm_90 -o /dev/null
expect 0 "" compile k.silk --emit=ir -o -
grep -q '^kernel @saxpy' out || fail "--emit=ir -o -: $(head -3 out)"
expect 0 "" compile k.silk --arch sm_90 --emit=header -o -
grep -q '^static const char k_ptx_sm_90\[\] =$' out || fail "--emit=header -o -: no k_ptx_sm_90"
expect 2 "$E nodir/x.ptx: cannot create: No such file or directory" \
    compile k.silk --arch sm_90 -o nodir/x.ptx
expect 2 "$E -o -: standard output takes one target's PTX; give one --arch, or -o FILE for one file per target" \
    compile k.silk --arch sm_90,sm_80 -o -
[ ! -e ./- ] || fail "-o - wrote a file named -"

# ---- item 7: leading dashes -------------------------------------------------------------------
cp k.silk ./-k.silk
expect 0 "" compile ./-k.silk --arch sm_90 -o -v.ptx
grep -q '^\.target sm_90$' ./-v.ptx || fail "-o -v.ptx: no PTX"
if [ $have_ptxas = 1 ]; then
    expect 0 "" compile ./-k.silk --arch sm_90 --emit=cubin -o -v.cubin
    [ -s ./-v.cubin ] || fail "--emit=cubin -o -v.cubin: no cubin"
    expect 0 "" compile ./-k.silk --arch sm_90 --emit=cubin -o - --resource-usage
fi

# ---- item 15: a ptxas that does nothing --------------------------------------------------------
SILK_PTXAS=/bin/true
export SILK_PTXAS
expect 3 "$E /bin/true for sm_90 exited 0 without writing its output file" \
    compile k.silk --arch sm_90 --emit=cubin -o t.cubin
[ ! -e t.cubin ] || fail "SILK_PTXAS=/bin/true --emit=cubin left t.cubin"
# One ptxas run gives the figures and the cubin (issue 12), so measuring
# finds the missing cubin first.
expect 3 "$E /bin/true for sm_90 exited 0 without writing its output file" \
    compile k.silk --arch sm_90 --resource-usage -o t.ptx
[ ! -s out ] || fail "SILK_PTXAS=/bin/true --resource-usage printed a table: $(cat out)"
# One that fails without a word is broken too, not a rejection of our PTX.
SILK_PTXAS=/bin/false
expect 3 "$E /bin/false for sm_90 exited 1 without a message" compile k.silk --arch sm_90 -o t.ptx
# One that rejects the PTX, for check --arch, which writes no PTX to keep
# (it dereferenced the missing output path).
printf '#!/bin/sh\necho "ptxas fatal   : rejected"\nexit 1\n' > rejecting-ptxas
chmod +x rejecting-ptxas
SILK_PTXAS=$PWD/rejecting-ptxas
expect 1 "$E $SILK_PTXAS rejected the PTX for sm_90 (a compiler bug; silkc compile --emit=ptx writes that PTX):
ptxas fatal   : rejected" check k.silk --arch sm_90
unset SILK_PTXAS

# ---- item 17: options without their value, or given twice -------------------------------------------------
# The words of silk-occ's option loop, which silkc shares (options.h).
expect 2 "$E -o: needs a value$U" compile k.silk --arch sm_90 -o
expect 2 "$E -o: needs a value$U" compile k.silk --arch sm_90 -o ''
expect 2 "$E --std-dir: needs a value$U" check --std-dir '' k.silk
expect 2 "$E --std-dir: needs a value$U" check k.silk --std-dir
expect 2 "$E -I: needs a value$U" check k.silk -I
# A single-valued option given twice, and an empty --arch element.
expect 2 "$E -o given twice$U" compile k.silk --arch sm_90 -o a.ptx -o b.ptx
expect 2 "$E --arch given twice$U" compile k.silk --arch sm_90 --arch sm_80
expect 2 "$E --arch given twice$U" check k.silk --arch sm_90 --arch sm_80
expect 2 "$E --emit given twice$U" compile k.silk --arch sm_90 --emit=ptx --emit=ir
expect 2 "$E --format given twice$U" compile k.silk --arch sm_90 --resource-usage --format json --format text
expect 2 "$E --std-dir given twice$U" check k.silk --std-dir a --std-dir b
expect 2 "$E --arch: 'sm_90,' has an empty element" compile k.silk --arch sm_90,
expect 2 "$E --arch: ',sm_90' has an empty element" check k.silk --arch ,sm_90
expect 2 "$E --arch: 'sm_90,,sm_80' has an empty element" compile k.silk --arch sm_90,,sm_80
[ ! -e a.ptx ] && [ ! -e b.ptx ] || fail "-o given twice wrote a file"
no_leftovers "all the runs above"

# ---- a signal: no temporary left ------------------------------------------------------------------
# A ptxas that hangs; silkc is stopped while it waits.  A background job
# of a script ignores SIGINT, so env gives it back its default.
printf '#!/bin/sh\n: > "$SLOW_MARK"\nexec sleep 60\n' > slow
chmod +x slow
SLOW_MARK=$work/mark
export SLOW_MARK
for sig in TERM INT; do
    rm -f mark
    wrap=""
    if [ $sig = INT ]; then
        env --default-signal=INT true 2>/dev/null || { echo "SKIP: SIGINT (no env --default-signal)"; continue; }
        wrap="env --default-signal=INT"
    fi
    SILK_PTXAS=$work/slow $wrap "$SILKC" compile k.silk --arch sm_90 -o sig.ptx 2>err &
    pid=$!
    i=0
    while [ ! -e mark ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
    [ -e mark ] || fail "SIG$sig: the slow ptxas never started"
    kill -$sig $pid
    wait $pid
    rc=$?
    [ $rc -gt 128 ] || fail "SIG$sig: silkc exited $rc"
    [ ! -e sig.ptx ] || fail "SIG$sig left sig.ptx"
    no_leftovers "SIG$sig"
done

exit $((failures > 0))
