#!/bin/sh
# diff.sh: `silk-occ diff OLD.json NEW.json`, the gate for CI.  First on
# small reports written here by hand (no toolkit needed): a lost CTA, an
# improvement, a neutral change, an occupancy drop at a new block size
# that --tolerance forgives, kernels added and removed, each format's exact
# lines, the JSON against docs/diff-schema.json, identical reports, a
# hostile kernel name, and the inputs refused (exit 2).  Then on two real
# builds of tests/cli/diff/{old,new}.cu, whose figures ptxas -v confirms:
# grow loses 3 CTAs on sm_90, squeeze starts spilling, retired is removed,
# fresh added, steady unchanged.  That part is skipped (exit 77, saying
# what is missing) without nvcc and ptxas.  Run by make check (SILK_OCC,
# SILK_SRCDIR, CHECK_SCHEMA).
set -u
: "${SILK_OCC:?}" "${SILK_SRCDIR:?}" "${CHECK_SCHEMA:?}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
P="silk-occ diff: error:"

# entry KERNEL ARCH GPU REGS SMEM STORES LOADS THREADS CTAS OCC: one
# .reports[] entry (THREADS "-": no selected size; GPU "-": null).
entry() {
    gpu=null; [ "$3" = - ] || gpu="\"$3\""
    sel=null
    [ "$8" = - ] || sel="{\"threads\": $8, \"active_blocks_per_sm\": $9, \"occupancy\": ${10}}"
    printf '{"kernel": "%s", "symbol": "_Z%s", "arch": "%s", "gpu": %s, "resources": {"regs_per_thread": %s, "static_smem": %s, "spill_stores": %s, "spill_loads": %s}, "selected": %s}' \
        "$1" "$1" "$2" "$gpu" "$4" "$5" "$6" "$7" "$sel"
}
report() { # report FILE ENTRY...
    out=$1; shift
    { printf '{"schema": "silk-occ/report/3", "reports": ['; sep=
      for e in "$@"; do printf '%s%s' "$sep" "$e"; sep=', '; done
      printf ']}\n'; } >"$out"
}
report "$work/old.json" \
    "$(entry a sm_90 - 32 0 0 0 256 8 1)" "$(entry b sm_90 - 40 0 0 0 256 6 0.75)" \
    "$(entry c sm_90 - 20 0 0 0 256 8 1)" "$(entry d sm_90 - 16 0 0 0 256 8 1)" \
    "$(entry e sm_90 h100-sxm 30 4096 0 0 256 8 1)" "$(entry gone sm_80 - 10 0 0 0 128 16 1)"
report "$work/new.json" \
    "$(entry a sm_90 - 40 0 0 0 256 6 0.75)" "$(entry b sm_90 - 32 0 0 0 256 8 1)" \
    "$(entry c sm_90 - 24 0 0 0 256 8 1)" "$(entry d sm_90 - 16 0 0 0 256 8 1)" \
    "$(entry e sm_90 h100-sxm 30 4096 0 0 128 15 0.9375)" "$(entry new sm_90 - 12 0 8 8 - 0 0)"

# run ARGS...: silk-occ diff, its stdout in $work/out, stderr in $work/err, status in $rc.
run() { "$SILK_OCC" diff "$@" >"$work/out" 2>"$work/err"; rc=$?; }
same() { # same WHAT GOT WANT
    [ "$2" = "$3" ] || fail "$1:
--- got
$2
--- want
$3"
}

run "$work/old.json" "$work/new.json"
[ $rc = 1 ] || fail "text: exit $rc, want 1"
same "text" "$(cat "$work/out")" "a on sm_90: registers 32 -> 40, CTAs/SM 8 -> 6 (lost 2), occupancy 100.0% -> 75.0%  REGRESSION
b on sm_90: registers 40 -> 32, CTAs/SM 6 -> 8 (gained 2), occupancy 75.0% -> 100.0%  improvement
c on sm_90: registers 20 -> 24
e on sm_90 (h100-sxm): block size 256 -> 128, CTAs/SM 8 -> 15 (gained 7), occupancy 100.0% -> 93.8%  REGRESSION
new on sm_90: added: registers 12, spills 16 bytes, no launchable block size
gone on sm_80: removed: registers 10, block size 128, CTAs/SM 16, occupancy 100.0%
5 kernels x targets compared: 2 regressions, 1 improvement, 1 neutral, 1 unchanged; 1 added, 1 removed"
[ -s "$work/err" ] && fail "text: stderr: $(cat "$work/err")"

# 6.25 points of occupancy at a new size: forgiven at --tolerance 10, not at 6.
run --tolerance 10 "$work/old.json" "$work/new.json"
[ $rc = 1 ] || fail "--tolerance 10: exit $rc, want 1 (a's lost CTA)"
same "--tolerance 10" "$(grep '^e ' "$work/out")" \
    "e on sm_90 (h100-sxm): block size 256 -> 128, CTAs/SM 8 -> 15 (gained 7), occupancy 100.0% -> 93.8%"
run --tolerance 6 "$work/old.json" "$work/new.json"
grep -q '^e .*REGRESSION$' "$work/out" || fail "--tolerance 6: e is not a regression"

# JSON: the schema, and the values.
run --format json "$work/old.json" "$work/new.json"
[ $rc = 1 ] || fail "json: exit $rc, want 1"
out=$("$CHECK_SCHEMA" --schema docs/diff-schema.json "$work/out") || fail "json: not the schema: $out"
same "json summary" "$(jq -c '[.schema, .regression, .tolerance, .summary]' "$work/out")" \
    '["silk-occ/diff/1",true,0,{"compared":5,"unchanged":1,"neutral":1,"improvements":1,"regressions":2,"added":1,"removed":1}]'
same "json pairs" "$(jq -c '.pairs[] | [.kernel, .arch, .gpu, .status, .reasons]' "$work/out")" \
    '["a","sm_90",null,"regression",["lost_cta","occupancy_drop"]]
["b","sm_90",null,"improvement",["gained_cta","occupancy_rise"]]
["c","sm_90",null,"neutral",[]]
["d","sm_90",null,"unchanged",[]]
["e","sm_90","h100-sxm","regression",["occupancy_drop"]]
["new","sm_90",null,"added",[]]
["gone","sm_80",null,"removed",[]]'
same "json a" "$(jq -c '.pairs[0] | [.old, .new]' "$work/out")" \
    '[{"regs_per_thread":32,"static_smem":0,"spill_bytes":0,"threads":256,"active_blocks_per_sm":8,"occupancy":1},{"regs_per_thread":40,"static_smem":0,"spill_bytes":0,"threads":256,"active_blocks_per_sm":6,"occupancy":0.75}]'
same "json added" "$(jq -c '.pairs[5] | [.old, .new.threads, .new.spill_bytes]' "$work/out")" '[null,null,16]'

# Markdown: the heading, the table's lines, the counts.
run --format markdown "$work/old.json" "$work/new.json"
[ $rc = 1 ] || fail "markdown: exit $rc, want 1"
same "markdown" "$(cat "$work/out")" "### silk-occ diff: 2 regressions

| kernel | target | what changed | verdict |
| --- | --- | --- | --- |
| a | sm_90 | registers 32 -> 40, CTAs/SM 8 -> 6 (lost 2), occupancy 100.0% -> 75.0% | **regression** |
| b | sm_90 | registers 40 -> 32, CTAs/SM 6 -> 8 (gained 2), occupancy 75.0% -> 100.0% | improvement |
| c | sm_90 | registers 20 -> 24 | neutral |
| e | sm_90 (h100-sxm) | block size 256 -> 128, CTAs/SM 8 -> 15 (gained 7), occupancy 100.0% -> 93.8% | **regression** |
| new | sm_90 | added: registers 12, spills 16 bytes, no launchable block size | added |
| gone | sm_80 | removed: registers 10, block size 128, CTAs/SM 16, occupancy 100.0% | removed |

5 compared: 2 regressions, 1 improvement, 1 neutral, 1 unchanged; 1 added, 1 removed."

# Identical reports: no change, exit 0, in every format.
run "$work/old.json" "$work/old.json"
[ $rc = 0 ] || fail "identical: exit $rc, want 0"
same "identical" "$(cat "$work/out")" "no change
6 kernels x targets compared: 0 regressions, 0 improvements, 0 neutral, 6 unchanged; 0 added, 0 removed"
run --format markdown "$work/old.json" "$work/old.json"
[ $rc = 0 ] && grep -qx 'No change.' "$work/out" || fail "identical markdown: exit $rc: $(cat "$work/out")"
run --format json "$work/old.json" "$work/old.json"
same "identical json" "$rc $(jq -c '[.regression, .summary.unchanged]' "$work/out")" "0 [false,6]"

# A hostile kernel name: an escape sequence and a newline shown, not obeyed,
# at the terminal and in markdown (where a pipe would split the cell too).
report "$work/evil_old.json" "$(entry 'x\u001b[2Jy\n| z' sm_90 - 32 0 0 0 256 8 1)"
report "$work/evil_new.json" "$(entry 'x\u001b[2Jy\n| z' sm_90 - 40 0 0 0 256 6 0.75)"
run "$work/evil_old.json" "$work/evil_new.json"
same "hostile text" "$(head -1 "$work/out")" \
    'x\x1b[2Jy\n| z on sm_90: registers 32 -> 40, CTAs/SM 8 -> 6 (lost 2), occupancy 100.0% -> 75.0%  REGRESSION'
run --format markdown "$work/evil_old.json" "$work/evil_new.json"
same "hostile markdown" "$(grep '^| x' "$work/out")" \
    '| x\\x1b\[2Jy\\n\| z | sm_90 | registers 32 -> 40, CTAs/SM 8 -> 6 (lost 2), occupancy 100.0% -> 75.0% | **regression** |'
run --format json "$work/evil_old.json" "$work/evil_new.json"
same "hostile json" "$(jq -r '.pairs[0].kernel' "$work/out" | od -An -c | tr -s ' ' | head -1)" \
    " x 033 [ 2 J y \n | z \n"

# A key met twice in one report (one kernel in two files of a run) pairs
# in order of appearance; removed kernels keep the old report's order.
report "$work/dup_old.json" "$(entry z sm_90 - 10 0 0 0 256 8 1)" "$(entry dup sm_90 - 10 0 0 0 256 8 1)" \
    "$(entry y sm_90 - 10 0 0 0 256 8 1)" "$(entry dup sm_90 - 20 0 0 0 256 8 1)"
report "$work/dup_new.json" "$(entry dup sm_90 - 10 0 0 0 256 8 1)" "$(entry dup sm_90 - 20 0 0 0 256 8 1)"
run "$work/dup_old.json" "$work/dup_new.json"
same "duplicate keys" "$rc $(cat "$work/out")" "0 z on sm_90: removed: registers 10, block size 256, CTAs/SM 8, occupancy 100.0%
y on sm_90: removed: registers 10, block size 256, CTAs/SM 8, occupancy 100.0%
2 kernels x targets compared: 0 regressions, 0 improvements, 0 neutral, 2 unchanged; 0 added, 2 removed"

# Inputs refused: each one line naming the file, exit 2.
refused() { # refused WHAT MESSAGE ARGS...
    what=$1 want=$2; shift 2
    run "$@"
    [ $rc = 2 ] || fail "$what: exit $rc, want 2"
    same "$what" "$(cat "$work/err")" "$want"
    [ -s "$work/out" ] && fail "$what: wrote to stdout: $(cat "$work/out")"
}
refused "missing file" "$P $work/none.json: cannot read: No such file or directory" \
    "$work/none.json" "$work/new.json"
printf '{"schema": "silk-occ/report/3",\n  "reports": [1 2]}\n' >"$work/bad.json"
refused "bad JSON" "$P $work/bad.json:2:17: not valid JSON" "$work/old.json" "$work/bad.json"
"$SILK_OCC" calc --arch sm_90 --threads 256 --regs 32 --format json >"$work/calc.json"
refused "a calc JSON" "$P $work/calc.json: not a silk-occ report (\"schema\": \"silk-occ/report/3\"; 'silk-occ report --format json' writes one)" \
    "$work/calc.json" "$work/new.json"
printf '{"schema": "silk-occ/report/3", "reports": [{"kernel": "k", "symbol": "k", "arch": "sm_90", "gpu": null, "resources": {"regs_per_thread": "many"}}]}' >"$work/key.json"
refused "a bad key" "$P $work/key.json: reports[0].resources.regs_per_thread: missing, or not a count" \
    "$work/key.json" "$work/new.json"
printf '{"schema": "silk-occ/report/3", "reports": [{"kernel": "k\\u001b[31m", "symbol": 5}]}' >"$work/sym.json"
refused "a symbol not a string" "$P $work/sym.json: reports[0].symbol: missing, or not a string" \
    "$work/old.json" "$work/sym.json"
refused "one report" "$P give two reports, OLD.json NEW.json; 'silk-occ help diff' shows usage" \
    "$work/old.json"
refused "bad tolerance" "$P --tolerance: '-3' is not a number of percentage points from 0 to 100" \
    --tolerance -3 "$work/old.json" "$work/new.json"
refused "bad format" "$P --format: 'csv' is not a format (text, json, markdown)" \
    --format csv "$work/old.json" "$work/new.json"
ln -s /dev/null "$work/empty.json"
refused "empty" "$P $work/empty.json:1:1: not valid JSON" "$work/empty.json" "$work/new.json"
"$SILK_OCC" help diff | grep -q '^usage: silk-occ diff' || fail "help diff: no usage"

# Two real builds, through silk-occ report.
nvcc=${SILK_NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ptxas=${SILK_PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
if [ ! -x "$nvcc" ] || [ ! -x "$ptxas" ]; then
    echo "SKIP: the real builds need nvcc and ptxas (CUDA toolkit), not found"
    [ $failures = 0 ] && exit 77
    exit 1
fi
dir=$SILK_SRCDIR/tests/cli/diff
for side in old new; do
    "$SILK_OCC" report "$dir/$side.cu" --arch sm_90 --format json >"$work/$side.cu.json" ||
        fail "report $side.cu: exit $?"
done
run "$work/old.cu.json" "$work/new.cu.json"
[ $rc = 1 ] || fail "builds: exit $rc, want 1"
same "builds" "$(cat "$work/out")" "grow(float*, float const*, int) on sm_90: registers 12 -> 48, CTAs/SM 8 -> 5 (lost 3), occupancy 100.0% -> 62.5%  REGRESSION
squeeze(float*, float const*, int) on sm_90: registers 64 -> 32, spills 0 -> 164 bytes, CTAs/SM 4 -> 8 (gained 4), occupancy 50.0% -> 100.0%  REGRESSION
fresh(int*) on sm_90: added: registers 10, block size 256, CTAs/SM 8, occupancy 100.0%
retired(int*) on sm_90: removed: registers 10, block size 256, CTAs/SM 8, occupancy 100.0%
3 kernels x targets compared: 2 regressions, 0 improvements, 0 neutral, 1 unchanged; 1 added, 1 removed"
run --format json "$work/old.cu.json" "$work/new.cu.json"
out=$("$CHECK_SCHEMA" --schema docs/diff-schema.json "$work/out") || fail "builds json: $out"
same "builds squeeze" "$(jq -c '.pairs[] | select(.symbol == "_Z7squeezePfPKfi") | [.reasons, .old.spill_bytes, .new.spill_bytes]' "$work/out")" \
    '[["new_spills"],0,164]'

[ $failures = 0 ] && echo "PASS: silk-occ diff"
[ $failures = 0 ]
