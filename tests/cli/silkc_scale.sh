#!/bin/sh
# silkc_scale.sh: inputs whose size or shape once crashed the compiler or
# made it quadratic (issue 11, items 1, 2, 16, 17).  Each run has a time
# limit (timeout) far below what the quadratic or crashing version took,
# and generous for a loaded machine; the C stack is the usual 8 MiB.
#   - a 32,000-term `1.0 + 1.0 + ...` checks, compiles and is reported
#     (it overflowed the stack; 16,000 terms took 1.1 s);
#   - a 100,000-term tile sum compiles (it overflowed the stack);
#   - 20,000 statements in one kernel compile (over 60 s before: CSE);
#   - 5,000 ifs in a row compile (the dominator walk overflowed the stack);
#   - branchy kernels compile under a memory limit as well: 10,000 ifs with
#     lets, 5,000 loops, 50,000 '&&' and 5,000 64-bit divisions (each took
#     gigabytes, growing as its size squared: bit sets of every register for
#     every block, a flag per block for every loop, a table by register for
#     every branch arm, the variable map copied at every edge, the rest of a
#     block copied at every split);
#   - parentheses, and a postfix chain, nested past 200 levels are the
#     nesting error at the level that passes the limit;
#   - a file with CR line ends (classic Mac) is lines, not one comment;
#   - the source line under a diagnostic is cut to 256 bytes around the
#     caret on a 1 MB line.
# Run by make check, which sets SILKC and SILK_OCC.  ptxas is not needed:
# SILK_PTXAS=none makes compile use the estimate.
set -u
: "${SILKC:?}" "${SILK_OCC:?}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 99 # diagnostics then name the files as written here
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ulimit -s 8192 2>/dev/null || true
SILK_PTXAS=none
export SILK_PTXAS

# run LIMIT CMD...: the command's exit status, 124 when past LIMIT seconds.
run() {
    limit=$1
    shift
    timeout "$limit" "$@" > "$work/out" 2> "$work/err"
}

header='kernel k(o: tensor<f32>[1024], u: tensor<u32>[1024]) {'

# ---- a long chain of one operator ------------------------------------------------
awk -v h="$header" 'BEGIN { printf "%s\n  o[ctx.tid] = 1.0", h
    for (i = 1; i < 32000; i++) printf " + 1.0"
    printf "\n}\n" }' > sum.silk
run 20 "$SILKC" check sum.silk || fail "check of 32,000 terms exited $?"
run 30 "$SILKC" compile --arch sm_90 --emit=ptx sum.silk -o "$work/sum.ptx" ||
    fail "compile of 32,000 terms exited $?"
grep -q 'st\.global\.f32' "$work/sum.ptx" 2>/dev/null || fail "32,000 terms: no store in the PTX"
run 30 "$SILK_OCC" report sum.silk --arch sm_90 || fail "report of 32,000 terms exited $?"
grep -q '^k (sum\.silk) on sm_90' "$work/out" || fail "report of 32,000 terms: no section for k"

awk -v h="$header" 'BEGIN { printf "%s\n  if u[0] > 0u32", h
    for (i = 1; i < 20000; i++) printf " && u[%d] > 0u32", i % 1024
    printf " {\n    o[0] = 1.0\n  }\n}\n" }' > and.silk
run 20 "$SILKC" check and.silk || fail "check of 20,000 '&&' exited $?"

# a tile expression of 100,000 terms (it overflowed the stack)
awk 'BEGIN { printf "kernel k(o: tensor<f32>[16, 16]) {\n  let t: tile<f32>[16, 16] = o[0 +: 16, 0 +: 16]\n"
    printf "  let s: tile<f32>[16, 16] = t"
    for (i = 1; i < 100000; i++) printf " + t"
    printf "\n  o[0 +: 16, 0 +: 16] = s\n}\n" }' > tile.silk
run 30 "$SILKC" compile --arch sm_90 --emit=ptx tile.silk -o tile.ptx || fail "compile of a 100,000-term tile sum exited $?"

# ---- long kernels ---------------------------------------------------------------------
awk -v h="$header" 'BEGIN { print h
    for (i = 0; i < 20000; i++) printf "  o[%d] = o[%d] * 2.0 + 1.0\n", i % 1024, i * 7 % 1024
    print "}" }' > statements.silk
run 30 "$SILKC" compile --arch sm_90 --emit=ptx statements.silk -o "$work/statements.ptx" ||
    fail "compile of 20,000 statements exited $? (quadratic CSE took over 60 s)"

awk -v h="$header" 'BEGIN { print h
    for (i = 0; i < 5000; i++) printf "  if u[%d] > 3u32 {\n    o[%d] = 1.0\n  }\n", i % 1024, i % 1024
    print "}" }' > ifs.silk
run 30 "$SILKC" compile --arch sm_90 --emit=ptx ifs.silk -o "$work/ifs.ptx" ||
    fail "compile of 5,000 ifs exited $?"

# ---- branchy kernels -------------------------------------------------------------------
# compile_limited NAME WHAT: compiles NAME.silk with the estimate, in 30 s
# and 1 GiB of address space (not under AddressSanitizer, which reserves
# terabytes), and checks the estimate's row for k.
memory_limit=1048576 # KiB
grep -q __asan_init "$SILKC" 2>/dev/null && memory_limit=unlimited
compile_limited() {
    (ulimit -v $memory_limit && run 30 "$SILKC" compile --arch sm_90 --emit=ptx "$1.silk" -o "$work/$1.ptx")
    status=$?
    [ $status -eq 0 ] || fail "$2: compile exited $status (124: past 30 s; 3: out of memory, as a quadratic table did)"
    (ulimit -v $memory_limit && run 30 "$SILKC" compile --arch sm_90 --resource-usage "$1.silk" -o "$work/$1.ptx")
    grep -q "^sm_90 *k *$3 " "$work/out" || fail "$2: the estimate is not $3: $(grep '^sm_90' "$work/out")"
}

awk -v h="$header" 'BEGIN { print h; print "  let i = ctx.tid"; print "  var acc: f32 = 0.0"
    for (k = 0; k < 10000; k++) {
        printf "  let a%d = u[(i + %du32) %% 1024u32]\n  if a%d > 3u32 {\n", k, k, k
        printf "    let b%d = f32(a%d) * 2.0\n    acc = acc + b%d\n  }\n", k, k, k
    }
    print "  o[i] = acc"; print "}" }' > lets_ifs.silk
compile_limited lets_ifs "10,000 ifs with lets" "~10"

awk -v h="$header" 'BEGIN { print h; print "  let i = ctx.tid"; print "  var acc: f32 = 0.0"
    for (k = 0; k < 5000; k++) {
        printf "  let a%d = u[(i + %du32) %% 1024u32]\n  for j in 0..4u32 step 1 {\n", k, k
        printf "    acc = acc + f32(a%d + j)\n  }\n", k
    }
    print "  o[i] = acc"; print "}" }' > loops.silk
compile_limited loops "5,000 loops" "~11"

awk -v h="$header" 'BEGIN { printf "%s\n  if u[0] > 0u32", h
    for (i = 1; i < 50000; i++) printf " &&\n    u[%d] > 0u32", i % 1024
    printf " {\n    o[0] = 1.0\n  }\n}\n" }' > and_compile.silk
compile_limited and_compile "50,000 '&&'" "~10"

awk 'BEGIN { print "kernel k(n: u64, o: tensor<u64>[1024], u: tensor<u64>[1024]) {"; print "  let i = ctx.gid"
    for (k = 0; k < 5000; k++) printf "  o[(i + %du64) %% 1024u64] = u[(i + %du64) %% 1024u64] / n\n", k, k
    print "}" }' > divisions.silk
compile_limited divisions "5,000 divisions" "~22"
[ "$(grep -c 'div\.u32' "$work/divisions.ptx" 2>/dev/null)" = 5000 ] ||
    fail "5,000 divisions: $(grep -c 'div\.u32' "$work/divisions.ptx" 2>/dev/null) 32-bit fast paths"

# ---- the nesting limit ----------------------------------------------------------------
# 300 parentheses: the body's block is level 1, the statement's expression
# 2, so the 199th '(' (column 16 + 198) opens the expression past 200.
awk -v h="$header" 'BEGIN { printf "%s\n  o[ctx.tid] = ", h
    for (i = 0; i < 300; i++) printf "("
    printf "1.0"
    for (i = 0; i < 300; i++) printf ")"
    printf "\n}\n" }' > parens.silk
run 10 "$SILKC" check parens.silk
status=$?
[ $status -eq 1 ] || fail "300 parentheses: exit $status, expected 1"
head -1 "$work/err" | grep -qx 'parens\.silk:2:215: error: nesting deeper than 200 levels' ||
    fail "300 parentheses: $(head -1 "$work/err")"

# 100,000 indexings of one name: each is a level, as a parenthesis is.
awk -v h="$header" 'BEGIN { printf "%s\n  o[ctx.tid] = o", h
    for (i = 0; i < 100000; i++) printf "[0]"
    printf "\n}\n" }' > index.silk
run 10 "$SILKC" check index.silk
status=$?
[ $status -eq 1 ] || fail "100,000 indexings: exit $status, expected 1 (a crash before)"
head -1 "$work/err" | grep -qx 'index\.silk:2:609: error: nesting deeper than 200 levels' ||
    fail "100,000 indexings: $(head -1 "$work/err")"

# ---- CR line ends -----------------------------------------------------------------------
printf 'kernel k(o: tensor<f32>[4]) {\r  // a comment\r  o[0] = 1.0\r  o[1] = x\r}\r' > cr_error.silk
run 10 "$SILKC" check cr_error.silk
status=$?
[ $status -eq 1 ] || fail "CR-only file with an error: exit $status, expected 1"
printf "cr_error.silk:4:10: error: unknown name 'x'\n    4 |   o[1] = x\n      |          ^\n" > "$work/cr_expected"
cmp -s "$work/err" "$work/cr_expected" || fail "CR-only file: $(cat "$work/err")"

printf 'kernel k(o: tensor<f32>[4]) {\r  // a comment\r  o[0] = 2.0\r}\r' > cr_ok.silk
run 10 "$SILKC" compile --arch sm_90 --emit=ptx cr_ok.silk -o "$work/cr_ok.ptx" ||
    fail "CR-only valid program: compile exited $?"
grep -q 'st\.global\.f32' "$work/cr_ok.ptx" 2>/dev/null || fail "CR-only valid program: no store in the PTX"

# ---- a long line under a diagnostic ---------------------------------------------------------
awk 'BEGIN { printf "kernel k(o: tensor<f32>[4]) { o[0] = 1.0"
    for (i = 0; i < 200000; i++) printf " + 1.0"
    printf " + @ }\n" }' > long.silk
run 10 "$SILKC" check long.silk
status=$?
[ $status -eq 1 ] || fail "1 MB line: exit $status, expected 1"
bytes=$(wc -c < "$work/err")
[ "$bytes" -lt 1000 ] || fail "1 MB line: $bytes bytes of diagnostics"
# The line's last 256 bytes after "...", the caret under the '@' (3 from the end).
{
    echo "long.silk:1:1200044: error: expected an expression, found '@'"
    printf '    1 | ...'
    head -1 long.silk | tail -c 257 # and its newline
    printf '      | '
    i=0
    while [ $i -lt 256 ]; do printf ' '; i=$((i + 1)); done # "..." and 253 bytes
    printf '^\n'
} > "$work/long_expected"
cmp -s "$work/err" "$work/long_expected" || { fail "1 MB line: the snippet differs:"; cat "$work/err"; }

[ $failures -eq 0 ]
