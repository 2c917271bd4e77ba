#!/bin/sh
# silkgen_check.sh: silkgen, the random program generator of the
# differential test (silkgen.c), writes valid Silk, the same for a seed
# every time, and the exec line its executor reads.
#
# For each seed 1..N (N = $SILKGEN_SEEDS, 200 by default; every fourth
# program --size medium, the others small), in parallel, one per core:
#   - silkgen SEED twice gives the same bytes;
#   - `silkc check` accepts the program with exit 0 and no diagnostic at
#     all (no warning either: the generator reads every variable);
#   - `silkc compile --arch sm_90` builds it with no diagnostic, with the
#     optimisation passes and at -O0; with ptxas (found as silkc finds
#     it), the optimised build is a cubin, so ptxas assembles it; the
#     occupancy warnings are off, as they are about speed, not validity;
#   - the first line, `// exec: --kernel K --grid G --workspace W ARGS`,
#     is well formed and matches kernel K as `silkc check --dump-ast`
#     shows it: G a multiple of W, W its @launch threads, one --arg per u64
#     parameter and one --buf TYPE:COUNT:INIT per tensor, in order, TYPE
#     its element type (one silkc exec has buffers of: not f16) and COUNT
#     the product of its extents (a named extent is that parameter's --arg).
# Then: the N programs are N different texts, and seed 1's program has the
# checksum pinned below, so that a seed names the same program on every
# machine (cksum, POSIX).  A change to the generator that changes what a
# seed writes updates the pin (SILKGEN_PRINT_PIN=1 prints the new one)
# and makes the seeds in old bug reports stale; say so in its commit.
#
# A program silkc fails on is a compiler bug (or the generator's): it is
# kept in $SILKGEN_KEEP (default tests/difftest/silkgen-failures, under
# the directory it runs in) with what silkc said,
# and the seed is printed, so `silkgen SEED [--size medium]` writes it
# again.  Exit 0 when every seed passes, 1 otherwise.
#
# The long run, for `make fuzz`-style hunting (not part of make check):
#   SILKGEN_SEEDS=5000 tests/difftest/silkgen_check.sh
# with SILKGEN and SILKC set as below; SILKGEN_FIRST=S starts at seed S
# (5001 to go on from there), SILKGEN_ARGS adds options to every silkgen
# run (seed 1's pin is then not checked).  make check sets SILKGEN and
# SILKC; by hand, from a build tree:
#   SILKGEN=tests/difftest/silkgen SILKC=src/silkc sh tests/difftest/silkgen_check.sh
set -u
: "${SILKGEN:?SILKGEN must name the silkgen to test (make check sets it)}"
: "${SILKC:?SILKC must name the silkc to test (make check sets it)}"
seeds=${SILKGEN_SEEDS:-200}
first=${SILKGEN_FIRST:-1}
keep=${SILKGEN_KEEP:-tests/difftest/silkgen-failures}
pin_seed1=4220790987:4459 # cksum of `silkgen 1`: see above

# ---- one seed (xargs runs this script again as `--one SEED`) -----------------

# silkc's diagnostics off: the occupancy warnings, which measure speed.
QUIET="-Wno-occ-low -Wno-occ-limit -Wno-spill -Wno-tail -Wno-block-size"

size_of() { # SEED: every fourth program is medium
    if [ $(($1 % 4)) -eq 0 ]; then echo medium; else echo small; fi
}

# Prints nothing when FILE's exec line matches its kernel, else why not.
check_exec() {
    line=$(sed -n 1p "$1")
    NO_COLOR=1 "$SILKC" check --dump-ast "$1" 2>&1 | awk -v line="$line" '
    function fail(msg) { if (!bad) print "exec line: " msg; bad = 1 }
    BEGIN {
        n = split(line, w, " ")
        if (w[1] != "//" || w[2] != "exec:" || w[3] != "--kernel" || w[5] != "--grid" ||
            w[7] != "--workspace")
            fail("not \"// exec: --kernel K --grid G --workspace W ...\"")
        kernel = w[4]; grid = w[6]; ws = w[8]
        if (grid !~ /^[1-9][0-9]*$/ || ws !~ /^[1-9][0-9]*$/)
            fail("--grid " grid " --workspace " ws ": not positive numbers")
        else if (ws % 32 || ws > 1024 || grid % ws)
            fail("--grid " grid " --workspace " ws ": not whole warps, or not whole CTAs")
        for (i = 9; i <= n; i += 2) {
            nargs++
            kind[nargs] = w[i]; val[nargs] = w[i + 1]
            if (w[i] == "--arg") {
                if (val[nargs] !~ /^[0-9]+$/ || length(val[nargs]) > 20)
                    fail("--arg " val[nargs] ": not a u64")
            } else if (w[i] == "--buf") {
                if (split(val[nargs], f, ":") != 3 ||
                    f[1] !~ /^(i8|i16|i32|i64|u8|u16|u32|u64|f32|f64)$/ ||
                    f[2] !~ /^[1-9][0-9]*$/ || f[3] !~ /^(random|-?[0-9]+(\.[0-9]+)?)$/)
                    fail("--buf " val[nargs] ": not TYPE:COUNT:INIT")
            } else {
                fail("\"" w[i] "\" is neither --arg nor --buf")
            }
        }
    }
    { match($0, /^ */); ind = RLENGTH }
    ind == 2 { inside = ($1 == "fn" && $2 == kernel && $3 == "[kernel]"); found += inside; next }
    !inside || done { next }
    ind == 4 && $1 == "attr" { launch = ($2 == "launch"); next }
    ind == 6 && launch && $1 == "int" { threads = $2; launch = 0; next }
    ind == 4 && $1 == "param" { np++; pname[np] = $2; next }
    ind == 4 { done = 1; next }
    ind == 6 && $1 == "type" { ptype[np] = $2; next }
    ind == 8 && $1 == "type" { elem[np] = $2; next }
    ind == 8 && $1 == "int" { ext[np] = ext[np] " " $2; next }
    ind == 8 && $1 == "name" { ext[np] = ext[np] " @" $2; next }
    END {
        if (!found)
            fail("silkc shows no kernel " kernel)
        else if (threads != ws)
            fail("--workspace " ws " is not the @launch threads, " threads)
        else if (np != nargs)
            fail(np " parameters, " nargs " bindings")
        for (i = 1; i <= np && !bad; i++) {
            if (ptype[i] == "u64") {
                if (kind[i] != "--arg")
                    fail("parameter " i " (" pname[i] ": u64) is bound by " kind[i])
                argval[pname[i]] = val[i]
                continue
            }
            split(val[i], f, ":")
            if (kind[i] != "--buf" || f[1] != elem[i])
                fail("parameter " i " (" pname[i] ": tensor<" elem[i] ">) is bound by " kind[i] " " val[i])
            count = 1
            k = split(ext[i], e, " ")
            for (j = 1; j <= k; j++)
                count *= e[j] ~ /^@/ ? argval[substr(e[j], 2)] : e[j]
            if (count != f[2])
                fail("parameter " i " (" pname[i] ") holds " count " elements, --buf says " f[2])
        }
    }'
}

# Prints "PASS SEED", or "FAIL SEED: why" and keeps the program.
check_one() {
    seed=$1
    size=$(size_of "$seed")
    # shellcheck disable=SC2086 # SILKGEN_ARGS: a list of options
    gen() { "$SILKGEN" "$seed" --size "$size" ${SILKGEN_ARGS:-}; }
    f="$work/$seed.silk"
    log="$work/$seed.log"
    # $QUIET and $emit are lists of options
    # shellcheck disable=SC2086
    if ! gen >"$f" 2>"$log" || ! gen >"$f.again" 2>>"$log"; then
        why="silkgen failed"
    elif ! cmp -s "$f" "$f.again"; then
        why="silkgen wrote two different programs"
    elif ! NO_COLOR=1 "$SILKC" check "$f" >"$log" 2>&1 || [ -s "$log" ]; then
        why="silkc check"
    elif ! NO_COLOR=1 "$SILKC" compile $QUIET --arch sm_90 $emit -o "$work/$seed.out" "$f" \
            >"$log" 2>&1 || [ -s "$log" ]; then
        why="silkc compile --arch sm_90 $emit"
    elif ! NO_COLOR=1 "$SILKC" compile -O0 $QUIET --arch sm_90 -o "$work/$seed.O0.ptx" "$f" \
            >"$log" 2>&1 || [ -s "$log" ]; then
        why="silkc compile -O0 --arch sm_90"
    else
        check_exec "$f" >"$log"
        if [ -s "$log" ]; then
            why="the exec line"
        else
            rm -f "$f.again" "$work/$seed.out"* "$work/$seed.O0"* "$log"
            echo "PASS $seed"
            return
        fi
    fi
    mkdir -p "$keep"
    cp "$f" "$keep/seed$seed.silk"
    cp "$log" "$keep/seed$seed.log"
    echo "FAIL $seed ($size): $why: $keep/seed$seed.silk"
    head -n 4 "$log" | sed 's/^/    /'
}

if [ "${1:-}" = --one ]; then
    check_one "$2"
    exit 0
fi

# ---- all seeds -------------------------------------------------------------------

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# ptxas, when silkc finds one, assembles each optimised build (--emit=cubin;
# silkc exits 3 without ptxas, and then only PTX is written).
"$SILKGEN" 1 >"$work/probe.silk" || { echo "silkgen_check: silkgen 1 failed"; exit 1; }
# shellcheck disable=SC2086
if NO_COLOR=1 "$SILKC" compile $QUIET --arch sm_90 --emit=cubin -o "$work/probe.cubin" \
        "$work/probe.silk" >/dev/null 2>&1 || [ $? -ne 3 ]; then
    emit=--emit=cubin
else
    emit=--emit=ptx
    echo "silkgen_check: no ptxas (silkc compile --emit=cubin exits 3): PTX only"
fi
export SILKGEN SILKC work keep emit QUIET

last=$((first + seeds - 1))
jobs=$(nproc 2>/dev/null || echo 2)
seq "$first" "$last" | xargs -P "$jobs" -I{} sh "$0" --one {} >"$work/results"

passed=$(grep -c '^PASS ' "$work/results")
grep -v '^PASS ' "$work/results"
status=0
[ "$passed" -eq "$seeds" ] || status=1

# N seeds, N programs.
distinct=$(for f in "$work"/[0-9]*.silk; do cksum <"$f"; done | sort -u | wc -l)
if [ "$passed" -eq "$seeds" ] && [ "$distinct" -ne "$seeds" ]; then
    echo "FAIL: $seeds seeds wrote only $distinct different programs"
    status=1
fi

# Seed 1 names one program everywhere.
pin=$("$SILKGEN" 1 | cksum | tr ' ' :)
if [ "${SILKGEN_PRINT_PIN:-0}" = 1 ]; then
    echo "silkgen_check: seed 1's pin is $pin"
elif [ -z "${SILKGEN_ARGS:-}" ] && [ "$pin" != "$pin_seed1" ]; then
    echo "FAIL: silkgen 1 wrote a program whose cksum is $pin, not $pin_seed1 (see the header)"
    status=1
fi

echo "silkgen_check: seeds $first..$last: $passed of $seeds programs valid ($emit), $distinct different"
exit $status
