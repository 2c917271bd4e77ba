#!/bin/sh
# silkc_warnings.sh: the occupancy warnings of `silkc compile` and
# `silkc check --arch` (compiler/occ_warn.c), end to end on sm_90.  Each of
# -Wocc-low, -Wocc-limit, -Wspill, -Wtail and -Wblock-size fires on the
# case in tests/cli/warnings/ built for it (pressure.silk's `squeezed` for
# -Wspill), at the @launch attribute or the launch block, with the caret
# line; -Werror=NAME makes it an error (exit 1, and the PTX is removed);
# -Wno-NAME silences it; examples/saxpy.silk gets none of them.
#
# By default the figures are the estimate (SILK_PTXAS=none): exact texts,
# marked "(estimated)".  With the argument `ptxas` (silkc_warnings_ptxas.sh)
# the same with the real ptxas, exiting 77 when there is none.  Run by make
# check, which sets SILKC and SILK_SRCDIR.
set -u
: "${SILKC:?}" "${SILK_SRCDIR:?}"
mode=${1:-estimate}
if [ "$mode" = ptxas ]; then
    unset SILK_PTXAS
    mark="" mark_re=""
else
    SILK_PTXAS=none
    export SILK_PTXAS
    mark=" (estimated)" mark_re=" \\(estimated\\)"
fi
cases="$SILK_SRCDIR/tests/cli/warnings"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL ($mode): $*"; failures=$((failures + 1)); }
NO_COLOR=1
export NO_COLOR
cp "$cases"/*.silk "$SILK_SRCDIR/tests/data/silk/pressure.silk" "$SILK_SRCDIR/examples/saxpy.silk" "$work/"
cd "$work" || exit 99

if [ "$mode" = ptxas ]; then
    "$SILKC" compile saxpy.silk --arch sm_90 --emit=cubin -o probe.cubin 2>err
    if [ $? -eq 3 ]; then
        echo "SKIP: silkc_warnings.sh ptxas: $(cat err)"
        exit 77
    fi
fi

# build CASE [OPTION...]: compile CASE for sm_90 to out.ptx; stderr in err, status in rc.
build() {
    file=$1
    shift
    rm -f out.ptx
    "$SILKC" compile "$file" --arch sm_90 -o out.ptx "$@" 2>err
    rc=$?
}

# expect CASE NAME LINE TEXT: TEXT (a grep -E pattern) is the -WNAME warning at
# CASE:LINE:1 with its source line below it; -Werror=NAME and -Wno-NAME work.
expect() {
    file=$1 name=$2 line=$3 text=$4
    build "$file"
    [ $rc -eq 0 ] || fail "$file: exited $rc: $(cat err)"
    grep -Eq "^$file:$line:[0-9]+: warning: on sm_90$mark_re: $text \\[-W$name\\]\$" err ||
        fail "$file: no -W$name warning matching '$text': $(cat err)"
    grep -A1 "\\[-W$name\\]" err | sed -n 2p | grep -Eq "^ +$line \\| " ||
        fail "$file: the -W$name warning has no source line $line: $(cat err)"
    [ -f out.ptx ] || fail "$file: a warning removed the PTX"
    build "$file" "-Werror=$name"
    [ $rc -eq 1 ] || fail "$file -Werror=$name exited $rc, not 1"
    grep -q "error: on sm_90.*\\[-Werror=$name\\]" err || fail "$file -Werror=$name: $(cat err)"
    [ ! -f out.ptx ] || fail "$file -Werror=$name left out.ptx behind"
    build "$file" "-Wno-$name"
    [ $rc -eq 0 ] || fail "$file -Wno-$name exited $rc"
    ! grep -q "\\[-W$name\\]" err || fail "$file -Wno-$name still warns: $(cat err)"
}

pct='[0-9.]+%'
expect occ_low.silk occ-low 3 \
    "theoretical occupancy of 'big_tile' is 12\\.5% at 64 threads per CTA \\(4 CTAs per SM, 8 of 64 warps; limited by shared memory \\(50176 bytes per CTA\\)\\), below 25%"
expect occ_limit.silk occ-limit 4 \
    "@launch\\(256\\) would give 8 CTAs/SM of 256 threads \\(100% occupancy\\) instead of 17 of 64 \\(53\\.1%\\)"
expect tail.silk tail 12 \
    "the 1100 CTAs of 'fill' make 1 full wave and a last one 4\\.2% full on H100 SXM5 80GB \\(132 SMs x 8 CTAs = 1056 per wave\\): 47\\.9% of the launch's CTA slots idle"
expect pressure.silk spill 8 \
    "'squeezed' spills registers to local memory: [1-9][0-9]* bytes stored and [1-9][0-9]* bytes loaded per thread, at 32 registers"
expect block_size.silk block-size 4 \
    "CTAs of 1024 threads at [0-9]+ registers per thread: registers let only [12] reside on an SM \\($pct occupancy\\), so a barrier or a CTA's end stalls (all|half) of its warps; @launch\\(256\\) would allow [0-9]+ \\($pct\\)"

# the estimate's own figures, exactly
if [ "$mode" = estimate ]; then
    build pressure.silk
    grep -q "'squeezed' spills registers to local memory: 112 bytes stored and 112 bytes loaded per thread, at 32 registers" err ||
        fail "estimate: squeezed's spills: $(cat err)"
fi

# a clean kernel: none of them
build saxpy.silk
[ $rc -eq 0 ] && [ ! -s err ] || fail "saxpy.silk: exited $rc with: $(cat err)"
build saxpy.silk -Werror
[ $rc -eq 0 ] || fail "saxpy.silk -Werror exited $rc: $(cat err)"

# -Werror makes every one an error; one warning per target
build occ_low.silk -Werror
[ $rc -eq 1 ] || fail "occ_low.silk -Werror exited $rc"
"$SILKC" compile occ_low.silk --arch sm_90,sm_80 -o out.ptx -Wno-occ-limit 2>err
[ "$(grep -c '\[-Wocc-low\]' err)" = 2 ] || fail "two targets: not one -Wocc-low each: $(cat err)"
grep -q "warning: on sm_80$mark: theoretical occupancy" err || fail "no sm_80 warning: $(cat err)"

# silkc check: only with --arch; then the same warning, and nothing written
"$SILKC" check occ_low.silk 2>err || fail "check exited $?"
[ ! -s err ] || fail "check without --arch warned: $(cat err)"
"$SILKC" check occ_low.silk --arch sm_90 -Wno-occ-limit 2>err || fail "check --arch exited $?"
grep -q "^occ_low.silk:3:1: warning: on sm_90$mark: theoretical occupancy of 'big_tile' is 12.5%" err ||
    fail "check --arch: $(cat err)"
"$SILKC" check occ_low.silk --arch sm_90 -Werror=occ-low 2>/dev/null
[ $? -eq 1 ] || fail "check --arch -Werror=occ-low did not exit 1"
"$SILKC" check occ_low.silk --arch sm_42 2>/dev/null
[ $? -eq 2 ] || fail "check --arch sm_42 did not exit 2"

# several targets: one -Wocc-limit size for all, each target's own optimum
# a note, and the advice followed silences it on every target (-Werror)
"$SILKC" compile across.silk --arch sm_80,sm_90 -o out.ptx 2>err || fail "across.silk exited $?"
[ "$(grep -c '\[-Wocc-limit\]' err)" = 1 ] || fail "across.silk: not one -Wocc-limit: $(cat err)"
grep -q "^across.silk:7:1: warning: on sm_80, sm_90$mark: @launch(1024) is best over all these targets, lowest occupancy 100% (2 CTAs/SM on sm_80, 2 on sm_90), instead of 9.4% at 64 threads \[-Wocc-limit\]\$" err ||
    fail "across.silk: the warning: $(cat err)"
grep -q "^across.silk:7:1: note: on sm_90$mark alone, @launch(512) would give 4 CTAs/SM of 512 threads (100% occupancy); 1024 threads give 100% there\$" err ||
    fail "across.silk: the note: $(cat err)"
! grep -q "note: on sm_80" err || fail "across.silk: a note for sm_80, whose optimum is the advice: $(cat err)"
sed 's/@launch(64)/@launch(1024)/' across.silk >followed.silk
for arch in sm_80,sm_90 sm_80 sm_90; do
    "$SILKC" compile followed.silk --arch $arch -o out.ptx -Werror 2>err ||
        fail "across.silk with @launch(1024), --arch $arch -Werror exited $?: $(cat err)"
done
# one target: its own advice, as before
"$SILKC" compile across.silk --arch sm_90 -o out.ptx 2>err
grep -q "warning: on sm_90$mark: @launch(512) would give 4 CTAs/SM of 512 threads (100% occupancy) instead of 5 of 64 (15.6%)" err ||
    fail "across.silk on sm_90 alone: $(cat err)"

[ $failures -eq 0 ] || exit 1
echo "PASS: silkc_warnings.sh ($mode)"
