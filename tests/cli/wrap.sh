#!/bin/sh
# wrap.sh: `silk-occ wrap -- nvcc ...` and `silk-occ merge` (issue 25,
# item 3).  The build of tests/cli/inputs/wrap (a Makefile whose NVCC is
# the compiler) runs plain and wrapped: the wrapped compile's outputs,
# stdout and stderr are nvcc's own, each unit's OBJ.silk-occ.json is
# written and validates against docs/report-schema.json, and merge of the
# units gives exactly what silk-occ report of the objects gives, in every
# format.  Then a failing compile (nvcc's status, no report), a compiler
# killed by a signal, one not found, a failed analysis (a warning, exit
# 0), --expect-occupancy missed (exit 1 after the compile), SILK_OCC_WRAP=0,
# --output-dir, a hostile file name, and merge's refusals.
#
# Today's objects are cubins (-cubin): the door reads them.  The same
# build with -c (relocatable .o files) needs the door's reader of built
# binaries (issue 25, item 1); until silk-occ report reads a .o, that
# part says so and is left out.  Skipped (exit 77) without nvcc, ptxas
# and jq.  Run by make check (SILK_OCC, SILK_SRCDIR, CHECK_SCHEMA).
set -u
: "${SILK_OCC:?}" "${SILK_SRCDIR:?}" "${CHECK_SCHEMA:?}"
nvcc=${SILK_NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ptxas=${SILK_PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
if [ ! -x "$nvcc" ] || [ ! -x "$ptxas" ] || ! command -v jq >/dev/null 2>&1; then
    echo "SKIP: wrap needs nvcc and ptxas (CUDA toolkit) and jq, not all found"
    exit 77
fi
PATH=$(dirname "$ptxas"):$PATH; export PATH
unset SILK_OCC_WRAP
# The inner make prints as a make of its own, not as make check's child.
unset MAKEFLAGS MFLAGS MAKELEVEL
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
inputs=$SILK_SRCDIR/tests/cli/inputs/wrap
wrap="$SILK_OCC wrap --arch sm_90 -- $nvcc"

# build DIR MODE EXT NVCC: the test's Makefile in a fresh copy.
build() {
    mkdir -p "$1" && cp "$inputs"/*.cu "$inputs/Makefile" "$1"/ &&
        make -s --no-print-directory -C "$1" MODE="$2" EXT="$3" NVCC="$4" >"$1.out" 2>"$1.err"
}

build "$work/plain" -cubin cubin "$nvcc" || fail "plain build: exit $?"
build "$work/wrapped" -cubin cubin "$wrap" || fail "wrapped build: exit $? ($(cat "$work/wrapped.err"))"
for u in saxpy tile; do
    cmp -s "$work/plain/$u.cubin" "$work/wrapped/$u.cubin" || fail "$u.cubin differs from nvcc's"
    [ -f "$work/wrapped/$u.cubin.silk-occ.json" ] || fail "$u.cubin.silk-occ.json not written"
    [ -f "$work/plain/$u.cubin.silk-occ.json" ] && fail "plain build has a report"
    out=$("$CHECK_SCHEMA" --schema docs/report-schema.json \
        "$work/wrapped/$u.cubin.silk-occ.json" 2>&1) || fail "$u: not the schema: $out"
done
cmp -s "$work/plain.out" "$work/wrapped.out" || fail "stdout of the build differs: $(diff "$work/plain.out" "$work/wrapped.out")"
cmp -s "$work/plain.err" "$work/wrapped.err" || fail "stderr of the build differs: $(cat "$work/wrapped.err")"
ls "$work/wrapped" | grep -q 'tmp' && fail "a temporary file was left: $(ls "$work/wrapped")"

# The figures: saxpy 256 threads, 8 CTAs, 100%; tile 128 threads, 5 CTAs.
fig() { jq -r '.reports[] | "\(.symbol) \(.arch) \(.selected.threads) \(.selected.active_blocks_per_sm) \(.selected.occupancy)"' "$1"; }
got=$(fig "$work/wrapped/saxpy.cubin.silk-occ.json")
[ "$got" = "_Z5saxpyfPKfPfi sm_90 256 8 1" ] || fail "saxpy figures: $got"
got=$(fig "$work/wrapped/tile.cubin.silk-occ.json")
[ "$got" = "_Z8tile_sumPKfPf sm_90 128 5 0.3125" ] || fail "tile figures: $got"

# merge == report of the objects, in every format (the JSON without its
# "tool", which names the tools the run ran: merge runs none).
cd "$work/wrapped" || exit 1
"$SILK_OCC" report saxpy.cubin tile.cubin --format json | jq 'del(.tool)' >"$work/report.json"
"$SILK_OCC" merge saxpy.cubin.silk-occ.json tile.cubin.silk-occ.json --format json |
    jq 'del(.tool)' >"$work/merge.json" || fail "merge json: exit $?"
cmp -s "$work/report.json" "$work/merge.json" || fail "merge json differs: $(diff "$work/report.json" "$work/merge.json" | head -5)"
for format in text csv markdown; do
    "$SILK_OCC" report saxpy.cubin tile.cubin --format $format >"$work/report.$format"
    "$SILK_OCC" merge *.silk-occ.json --format $format >"$work/merge.$format" || fail "merge $format: exit $?"
    cmp -s "$work/report.$format" "$work/merge.$format" || fail "merge $format differs"
done
grep -q '^tile_sum(float const\*, float\*) (tile.cubin) on sm_90' "$work/merge.text" ||
    fail "merge text: no tile_sum heading"
# One kernel on two products of sm_90 is one kernel of sm_90.
"$SILK_OCC" report saxpy.cubin --gpu h100-sxm,h200 --format json >"$work/gpus.json"
got=$("$SILK_OCC" merge "$work/gpus.json" --format json | jq -r '[.reports[] | .arch] | join(" ")')
[ "$got" = "sm_90" ] || fail "products collapse: $got"
cd - >/dev/null || exit 1

# One compile alone: stdout and stderr as nvcc's (-E's text passes whole).
cd "$work/wrapped" || exit 1
"$nvcc" -E saxpy.cu >"$work/e.plain" 2>&1
$SILK_OCC wrap -- "$nvcc" -E saxpy.cu >"$work/e.wrapped" 2>&1
cmp -s "$work/e.plain" "$work/e.wrapped" || fail "-E output differs"
ls ./*.i.silk-occ.json saxpy.silk-occ.json 2>/dev/null && fail "-E wrote a report"

# A failing compile: nvcc's status and words, no report.
"$nvcc" -cubin -o broken.cubin broken.cu >"$work/b.plain" 2>&1; want=$?
$wrap -cubin -o broken.cubin broken.cu >"$work/b.wrapped" 2>&1; got=$?
[ $want -ne 0 ] && [ $got = $want ] || fail "broken: exit $got, nvcc's $want"
cmp -s "$work/b.plain" "$work/b.wrapped" || fail "broken: messages differ"
[ -f broken.cubin.silk-occ.json ] && fail "broken: a report"

# A compiler killed by a signal: so is wrap (the shell sees 128 + 15).
$SILK_OCC wrap -- sh -c 'kill -TERM $$' 2>/dev/null; got=$?
[ $got = 143 ] || fail "signal: exit $got"
# No such compiler: 127, one line.
out=$($SILK_OCC wrap -- ./no-such-nvcc -c x.cu 2>&1); got=$?
[ $got = 127 ] && [ "$out" = "silk-occ wrap: error: cannot run './no-such-nvcc': No such file or directory" ] ||
    fail "no compiler: exit $got, '$out'"

# A failed analysis is a warning: the build goes on (exit 0, no report).
out=$($SILK_OCC wrap --arch sm_11 -- "$nvcc" -cubin -arch=sm_90 -o w.cubin saxpy.cu 2>&1); got=$?
[ $got = 0 ] && [ -f w.cubin ] && [ ! -f w.cubin.silk-occ.json ] || fail "failed analysis: exit $got"
printf '%s\n' "$out" | grep -q "^silk-occ wrap: warning: no report for w.cubin (the build goes on)$" ||
    fail "failed analysis: '$out'"
printf '%s\n' "$out" | grep -q "error" && fail "failed analysis says error: '$out'"

# --expect-occupancy missed: exit 1 after a successful compile, the
# report written.
out=$($SILK_OCC wrap --expect-occupancy 50 -- "$nvcc" -cubin -arch=sm_90 -o e.cubin tile.cu 2>&1); got=$?
[ $got = 1 ] && [ -f e.cubin ] && [ -f e.cubin.silk-occ.json ] || fail "expect: exit $got"
[ "$out" = "silk-occ wrap: error: _Z8tile_sumPKfPf on sm_90: 31.2% occupancy at 128 threads, below --expect-occupancy 50%" ] ||
    fail "expect: '$out'"
$SILK_OCC wrap --expect-blocks-per-sm 5 -- "$nvcc" -cubin -arch=sm_90 -o e.cubin tile.cu || fail "expect met: exit $?"

# SILK_OCC_WRAP=0: the compile only.  --output-dir: the report there.
SILK_OCC_WRAP=0 $wrap -cubin -o off.cubin saxpy.cu || fail "off: exit $?"
[ -f off.cubin ] && [ ! -f off.cubin.silk-occ.json ] || fail "SILK_OCC_WRAP=0 wrote a report"
mkdir reports
$SILK_OCC wrap --output-dir reports -- "$nvcc" -cubin -arch=sm_90 -o dir.cubin saxpy.cu || fail "--output-dir: exit $?"
[ -f reports/dir.cubin.silk-occ.json ] && [ ! -f dir.cubin.silk-occ.json ] || fail "--output-dir: not there"

# A hostile name passes through as it is, to nvcc and into the JSON (a
# quote, a space, a backslash, a tab: nvcc itself runs its steps through
# a shell and refuses '"' and '$').
odd=$(printf "it's a back\\\\slash\ttab.cu")
cp saxpy.cu "$odd"
$wrap -cubin -arch=sm_90 -o "$odd.cubin" "$odd" || fail "hostile name: exit $?"
got=$(jq -r '.reports[0].file' "$odd.cubin.silk-occ.json" 2>/dev/null)
[ "$got" = "$odd.cubin" ] || fail "hostile name: file '$got'"
cd - >/dev/null || exit 1

# merge's refusals: one line, exit 2.
P="silk-occ merge: error:"
refused() { # refused WHAT EXPECTED ARGS...
    what=$1 want=$2; shift 2
    out=$("$SILK_OCC" merge "$@" 2>&1 >/dev/null); rc=$?
    [ $rc = 2 ] && [ "$out" = "$want" ] || fail "merge $what: exit $rc, '$out'"
}
printf '{"schema": "silk-occ/report/3",\n "reports": [1,' >"$work/cut.json"
refused "not JSON" "$P $work/cut.json:2:15: not valid JSON" "$work/cut.json"
echo '{"schema": "silk-occ/report/9", "reports": []}' >"$work/new.json"
refused "newer" "$P $work/new.json: a report of schema 'silk-occ/report/9'; this silk-occ reads silk-occ/report/3 (use the silk-occ that wrote it, or write it again)" "$work/new.json"
echo '{"name": "x"}' >"$work/other.json"
refused "other JSON" "$P $work/other.json: not a silk-occ report (no \"schema\": \"silk-occ/report/3\" and \"reports\" array; silk-occ report --format json writes one)" "$work/other.json"
refused "missing" "$P $work/none.json: cannot read: No such file or directory" "$work/none.json"
refused "a source" "$P $inputs/saxpy.cu: not a report's JSON (merge reads the .json files of silk-occ report --format json and silk-occ wrap)" "$inputs/saxpy.cu"
jq '.reports[0].resources.regs_per_thread = -3' "$work/wrapped/saxpy.cubin.silk-occ.json" >"$work/neg.json"
refused "bad figure" "$P $work/neg.json: reports[0].resources.regs_per_thread: missing, or not a count" "$work/neg.json"

# The same build with -c: relocatable objects, read by the door's
# reader of built binaries (issue 25, item 1).
build "$work/objects" -c o "$wrap" || fail "-c build: exit $? ($(cat "$work/objects.err"))"
for u in saxpy tile; do
    [ -f "$work/objects/$u.o" ] && [ -f "$work/objects/$u.o.silk-occ.json" ] || fail "-c: $u.o's report"
done
got=$(fig "$work/objects/tile.o.silk-occ.json")
[ "$got" = "_Z8tile_sumPKfPf sm_90 128 5 0.3125" ] || fail "-c tile figures: $got"
got=$("$SILK_OCC" merge "$work"/objects/*.silk-occ.json --format json | jq -r '.reports | length')
[ "$got" = 2 ] || fail "-c merge: $got entries"

# An object written over its source's name (-o tile.cu): nvcc's doing,
# but the report reads what the file holds now, machine code, and never
# hands the object to nvcc as CUDA source.
mkdir "$work/onto" && cp "$inputs/tile.cu" "$work/onto/tile.cu"
(cd "$work/onto" && $wrap -c -arch=sm_90 -o tile.cu tile.cu) >"$work/onto.out" 2>&1 ||
    fail "-o onto the source: exit $?"
[ ! -s "$work/onto.out" ] || fail "-o onto the source said: $(head -c 300 "$work/onto.out")"
got=$(jq -r '.reports[] | "\(.input) \(.symbol) \(.arch)"' "$work/onto/tile.cu.silk-occ.json")
[ "$got" = "binary _Z8tile_sumPKfPf sm_90" ] || fail "-o onto the source: $got"

[ $failures = 0 ] && echo "PASS: wrap and merge"
[ $failures = 0 ]
