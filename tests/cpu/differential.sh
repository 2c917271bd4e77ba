#!/bin/sh
# differential.sh: the optimiser proved on real runs (issue 13, item 4).
# Each kernel below is run by the CPU backend (silkc exec) on random
# inputs with a fixed seed (--seed 7), once as lowered (-O0) and once with
# the IR passes, and the buffers must be bit-identical (and both runs
# succeed).  One worker thread per run, so that float atomics add in one
# order; the runs themselves in parallel, one per core.
#
#   - Every example kernel on three shapes each (tests/cpu/shapes.sh,
#     shared with tests/gpu/compare-cpu.sh), a partial last CTA among them
#     where the kernel guards its tail.
#   - Every kernel of every valid golden program (a tests/golden/*/*.silk
#     that `silkc check` accepts, with its `// silkc: ARGS` first line, in
#     its directory), its exec line derived from `silkc exec --list`:
#     every integer parameter V, every float one 1.5, each tensor a
#     random buffer of the product of its extents (a named extent is an
#     integer parameter, so V), a CTA size "any" 256.  The first of four
#     derivations that runs cleanly at -O0 is compared: V = 300 over a
#     grid of 300 work items (with 256 threads, a partial last CTA); V =
#     the CTA size over one CTA (for the kernels that index by ctx.gid
#     without a guard); V = 300 with some u64 parameters that are no
#     tensor's extent buffers (--buf gives a u64 the buffer's address: the
#     seed's raw-address kernels, store<T>(out + ..., ...)), the first,
#     the first two, all but the first, or all of them, provided that two
#     -O0 runs give the same bytes (no address stored as a value); one CTA
#     with the buffers zero (a kernel that indexes by a buffer's values).
#   - A kernel no derivation runs (its -O0 run faults, or exec cannot
#     bind it) must be in tests/cpu/differential-skips, with why, and one
#     there must still be underivable; the list holds exactly
#     $skips_expected kernels, so that it cannot grow unnoticed: a new
#     skip changes the count here too, in the same commit, for a reason.
#
# silkgen's random programs are tests/difftest/differential.sh's.  Run by
# `make check` from the build directory (SILKC and SILK_SRCDIR override);
# exits 77 (skipped) without a C compiler, which the CPU backend needs.
set -u
skips_expected=0

# ---- one job (xargs runs this script again, a job a line) ----------------------

# exec NAME DIR LEVEL SUFFIX ARGS...: one run in DIR at LEVEL (-O0 or
# -O) into $out$SUFFIX.bin, what it said in $out.err.
exec_run() {
    dir=$1 level=$2 suffix=$3
    shift 3
    opt=$level
    [ "$level" = -O ] && opt=
    # shellcheck disable=SC2086 # $opt is empty or one word
    (cd "$dir" && "$silkc" exec "$@" $opt --workers 1 --seed 7 --out "$out$suffix.bin") \
        >/dev/null 2>"$out.err"
}

# compare NAME DIR ARGS...: FILE and exec's options in ARGS, run in DIR at
# -O0 and with the passes; prints PASS or FAIL.  With UNDERIVED=1, a -O0
# run that fails returns 1 instead, why in $out.err, as does with
# STABLE=1 a -O0 result that a second -O0 run does not give again.
compare() {
    name=$1 dir=$2
    shift 2
    out=$work/$(echo "$name" | tr '/:' '__')= # no name is another's prefix, for rm "$out"*
    if ! exec_run "$dir" -O0 -O0 "$@"; then
        [ "${UNDERIVED:-0}" = 1 ] && return 1
        echo "FAIL $name (-O0): $(head -n 3 "$out.err")"
        return 0
    fi
    if [ "${STABLE:-0}" = 1 ] && { ! exec_run "$dir" -O0 -O0again "$@" ||
            ! cmp -s "$out-O0.bin" "$out-O0again.bin"; }; then
        echo "two -O0 runs differ: an address stored as a value" >"$out.err"
        return 1
    fi
    if ! exec_run "$dir" -O -O "$@"; then
        echo "FAIL $name (-O): $(head -n 3 "$out.err")"
    elif cmp -s "$out-O0.bin" "$out-O.bin"; then
        echo "PASS $name"
    else
        echo "FAIL $name: -O0 and the passes give different buffers ($*)"
    fi
    rm -f "$out"*
}

# derive V GRID ADDRESSES INIT LISTED...: exec's options for the kernel
# `silkc exec --list` printed as LISTED (KERNEL --workspace W [--arg N:T |
# --buf N:E[EXTENTS]]...), over GRID work items (cta: one CTA), every
# integer parameter V (cta: the CTA size), each tensor's buffer filled with
# INIT.  The u64 parameters that are no tensor's extent are taken in turn
# by the letters of ADDRESSES, its last letter repeating: v a value V, a
# an address, a buffer of 8192 random u32 whose address exec passes (as a
# launch block passes a Buffer's .address, for load<T> and store<T>).
derive() {
    v=$1 grid=$2 addresses=$3 init=$4 kernel=$5 ws=$7
    shift 7
    [ "$ws" = any ] && ws=256
    [ "$grid" = cta ] && grid=$ws
    [ "$v" = cta ] && v=$ws
    extents=" $(echo "$*" | grep -o '\[[^]]*\]' | tr -c 'A-Za-z0-9_\n' ' ' | tr '\n' ' ') "
    printf -- '--kernel %s --grid %s --workspace %s' "$kernel" "$grid" "$ws"
    while [ $# -ge 2 ]; do
        name=${2%%:*} type=${2#*:}
        case $1:$type in
        --arg:f*) printf ' --arg 1.5' ;;
        --arg:u64)
            letter=$(printf %.1s "$addresses")
            case $extents in
            *" $name "*) printf ' --arg %s' "$v" ;;
            *)
                [ ${#addresses} -gt 1 ] && addresses=${addresses#?}
                if [ "$letter" = a ]; then printf ' --buf u32:8192:random'; else printf ' --arg %s' "$v"; fi ;;
            esac ;;
        --arg:*) printf ' --arg %s' "$v" ;;
        --buf:*)
            elem=${type%%\[*} dims=${type#*\[}
            count=$(echo "${dims%]}" | sed "s/[A-Za-z_][A-Za-z0-9_]*/$v/g; s/,/*/g")
            printf ' --buf %s:%s:%s' "$elem" "$(($count))" "$init" ;;
        esac
        shift 2
    done
}

# golden FILE LISTED...: one kernel of a golden program, by the first
# derivation that runs at -O0 (with addresses, twice with the same
# result: one that stores an address as a value, which changes from run
# to run, is no derivation); else "UNDERIVED NAME: why".
golden() {
    file=$1
    shift
    dir=$(dirname "$file")
    args=$(sed -n '1s|^// silkc: *||p' "$file")
    name=${file#"$src"/tests/golden/}:$1
    for shape in "300 300 v random" "cta cta v random" "300 300 av random" \
            "300 300 aav random" "300 300 va random" "300 300 a random" "cta cta v 0"; do
        stable=1
        case $shape in *" v "*) stable=0 ;; esac
        # shellcheck disable=SC2086,SC2046 # $shape and $args are words; derive's output too
        UNDERIVED=1 STABLE=$stable compare "$name" "$dir" $args "$(basename "$file")" \
            $(derive $shape "$@") && return
    done
    echo "UNDERIVED $name: $(head -n 1 "$out.err")"
    rm -f "$out"*
}

if [ "${1:-}" = --job ]; then
    shift
    "$@"
    exit 0
fi

# ---- all jobs -----------------------------------------------------------------

silkc=${SILKC:-$PWD/src/silkc}
src=${SILK_SRCDIR:-$(dirname "$0")/../..}
src=$(cd "$src" && pwd)
# shellcheck disable=SC2034 # shapes.sh reads it
examples=$src/examples
skips=$src/tests/cpu/differential-skips
command -v "${CC:-cc}" >/dev/null 2>&1 || { echo "SKIP: no C compiler (cc) for the CPU backend"; exit 77; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
export silkc src work
# The kernels' C compiled once each, however many runs share it
# (cc_cache.sh), and at cc -O0 (cc_O0.sh: both sides of the comparison
# alike, in half the time).
mkdir "$work/cc-cache"
CC_O0_CC=${CC:-cc} CC_CACHE_DIR=$work/cc-cache CC_CACHE_CC=$src/tests/cpu/cc_O0.sh
CC=$src/tests/cpu/cc_cache.sh
export CC_O0_CC CC_CACHE_DIR CC_CACHE_CC CC

# The examples on their shapes: shapes.sh calls run once per shape.
run() {
    name=$1 file=$2
    shift 2
    echo "compare $name $(dirname "$file") $(basename "$file") $*"
}
. "$src/tests/cpu/shapes.sh"
example_runs >"$work/jobs"

# The golden programs' kernels, as --list gives them.
for f in "$src"/tests/golden/*/*.silk; do
    dir=$(dirname "$f") base=$(basename "$f")
    args=$(sed -n '1s|^// silkc: *||p' "$f")
    # shellcheck disable=SC2086 # $args are words
    (cd "$dir" && "$silkc" check $args "$base") >/dev/null 2>&1 || continue
    # shellcheck disable=SC2086
    (cd "$dir" && "$silkc" exec $args "$base" --list) 2>/dev/null | sed "s|^|golden $f |"
done >>"$work/jobs"

jobs=$(nproc 2>/dev/null || echo 2)
xargs -P "$jobs" -L 1 sh "$0" --job <"$work/jobs" >"$work/results"

status=0
grep '^FAIL' "$work/results" && status=1
# The underivable kernels against the list of those known to be.
grep -v '^#' "$skips" | awk 'NF { print $1 }' | sort >"$work/listed"
sed -n 's/^UNDERIVED \([^ ]*\): .*/\1/p' "$work/results" | sort >"$work/underived"
comm -13 "$work/listed" "$work/underived" | while read -r k; do
    echo "FAIL $k: no derived exec line runs at -O0 ($(grep "^UNDERIVED $k: " "$work/results" |
        cut -d' ' -f3-)); fix the kernel, or list it in tests/cpu/differential-skips with why"
done | grep . && status=1
comm -23 "$work/listed" "$work/underived" | sed 's/$/: listed in differential-skips, but runs (or is gone): take it off the list/; s/^/FAIL /' |
    grep . && status=1
listed=$(wc -l <"$work/listed")
if [ "$listed" -ne "$skips_expected" ]; then
    echo "FAIL: tests/cpu/differential-skips lists $listed kernels, not $skips_expected (see the header)"
    status=1
fi

passed=$(grep -c '^PASS' "$work/results")
golden=$(grep -c '^golden ' "$work/jobs")
echo "$passed runs bit-identical at -O0 and with the passes: the examples on $(grep -c '^compare ' "$work/jobs") shapes, $((golden - listed)) of $golden golden kernels ($listed skipped, listed)"
exit $status
