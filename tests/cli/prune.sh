#!/bin/sh
# prune.sh: `silk-occ prune SPACE.json --arch LIST` (issue 26, item 6) on
# a space of 1,200 configurations (tests/cli/inputs/prune_space.json,
# made so that every reason to drop one happens) on sm_80, sm_90 and
# sm_120: the counts of each reason per target, worked out by hand from
# the lists and the tables' limits; one exact reason in words each; the
# JSON against docs/prune-schema.json; the feasible ones by occupancy, and
# a sample of them equal to `silk-occ calc`'s CTAs per SM, occupancy and
# limiters; the text form's head; and each way a space is wrong, one exact
# line and exit 2.  Run by make check, which sets SILK_OCC, SILK_SRCDIR
# and CHECK_SCHEMA; needs jq (skipped without it).
set -u
: "${SILK_OCC:?}" "${SILK_SRCDIR:?}" "${CHECK_SCHEMA:?}"
cd "$SILK_SRCDIR" || exit 99
command -v jq >/dev/null 2>&1 || { echo "SKIP: jq not found (it reads prune's JSON)"; exit 77; }
status=0
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
space=tests/cli/inputs/prune_space.json

fail() {
    echo "FAIL: $*"
    status=1
}

"$SILK_OCC" prune "$space" --arch sm_80,sm_90,sm_120 --format json >"$work/p.json" 2>"$work/err" ||
    fail "prune: exit $?: $(cat "$work/err")"
out=$("$CHECK_SCHEMA" --schema docs/prune-schema.json "$work/p.json") ||
    fail "the JSON does not match docs/prune-schema.json: $out"

# 6 x 4 x 5 x 2 x 5 configurations.  WARPS 0 and 33 (1,056 threads) are
# 200 each; of the rest REGS 256 (over 255) 200; then STATIC_KIB 49 (over
# the 48 KiB static limit) 300; then TILE_KIB 240 (over the opt-in limit:
# 163 KiB on sm_80, 227 KiB on sm_90; on sm_120's 99 KiB 100 too) 60 (120);
# of the 240 (180) left, clusters: none at all on sm_80 (4 of 5 sizes),
# 32 over sm_90's 16, 16 and 32 over sm_120's 8, and those of the
# 1,024-thread, 255-register blocks that fit no SM; those same blocks
# without a cluster are no_cta_resident.
jq -c '[.configurations, (.targets[] | [.arch, .n_feasible, .n_dropped,
        ([.dropped[].reason] | group_by(.) | map([.[0], length]))])]' "$work/p.json" >"$work/counts"
cat >"$work/want" <<'WANT'
[1200,["sm_80",44,1156,[["block_too_large",200],["cluster_not_resident",192],["empty_block",200],["no_cta_resident",4],["regs_over_max",200],["smem_over_optin",60],["static_smem_over_limit",300]]],["sm_90",176,1024,[["block_too_large",200],["cluster_not_resident",60],["empty_block",200],["no_cta_resident",4],["regs_over_max",200],["smem_over_optin",60],["static_smem_over_limit",300]]],["sm_120",99,1101,[["block_too_large",200],["cluster_not_resident",78],["empty_block",200],["no_cta_resident",3],["regs_over_max",200],["smem_over_optin",120],["static_smem_over_limit",300]]]]
WANT
cmp -s "$work/want" "$work/counts" || fail "the verdicts' counts: $(cat "$work/counts")"

# The first of each reason on sm_90, in words (the space's order).
jq -r '.targets[1].dropped | group_by(.reason) | map(.[0] | .reason + ": " + .why) | .[]' \
    "$work/p.json" >"$work/why"
cat >"$work/want" <<'WANT'
block_too_large: 1056 threads per block is above the block limit of 1024 on sm_90
cluster_not_resident: a cluster of 32 CTAs is above the 16 a cluster may hold on sm_90
empty_block: a block of 0 threads
no_cta_resident: no CTA fits an SM of sm_90 (registers allow none)
regs_over_max: 256 registers per thread is above the 255 a thread may use on sm_90
smem_over_optin: 240 KiB of shared memory per block is above the 227 KiB opt-in limit on sm_90
static_smem_over_limit: 49 KiB of static shared memory is above the 48 KiB static limit per block on sm_90 (larger sizes must be dynamic)
WANT
cmp -s "$work/want" "$work/why" || fail "the reasons in words: $(diff "$work/want" "$work/why")"
got=$(jq -r '[.targets[0].dropped[] | select(.reason == "cluster_not_resident")][0].why' "$work/p.json")
[ "$got" = "sm_80 has no thread-block clusters" ] || fail "a cluster on sm_80: $got"
got=$(jq -r '[.targets[1].dropped[] | select(.reason == "cluster_not_resident" and .params.CLUSTER == 2)][0].why' "$work/p.json")
[ "$got" = "no CTA of the cluster of 2 is resident on an SM of sm_90" ] || fail "a cluster of blocks that fit no SM: $got"

# Feasible: by occupancy, more first; the dropped in the space's order
# (the last parameter varies fastest).
jq -e '[.targets[].feasible | [.[].occupancy] | . == (sort | reverse)] | all' "$work/p.json" >/dev/null ||
    fail "the feasible configurations are not by occupancy"
jq -e '[.targets[].dropped | [.[].params | [.WARPS, .REGS, .TILE_KIB, .STATIC_KIB, .CLUSTER]] | . == sort] | all' \
    "$work/p.json" >/dev/null || fail "the dropped configurations are not in the space's order"

# A sample of the feasible ones, every 5th of each target, against calc.
jq -r '.targets[] | .arch as $a | .feasible | to_entries[] | select(.key % 5 == 0) | .value |
       [$a, .threads, .regs, .static_smem, .dynamic_smem, .active_blocks_per_sm, .occupancy,
        (.limited_by | join(","))] | @tsv' "$work/p.json" >"$work/sample"
n=0
while IFS='	' read -r arch threads regs smem dyn blocks occupancy limited; do
    n=$((n + 1))
    got=$("$SILK_OCC" calc --arch "$arch" --threads "$threads" --regs "$regs" --smem "$smem" \
        --dyn-smem "$dyn" --format json 2>/dev/null |
        jq -r '[.active_blocks_per_sm, .occupancy, (.limited_by | join(","))] | @tsv')
    want=$(printf '%s\t%s\t%s' "$blocks" "$occupancy" "$limited")
    [ "$got" = "$want" ] || fail "$arch $threads threads, $regs registers, $smem + $dyn B: prune says $want, calc $got"
done <"$work/sample"
[ "$n" -ge 60 ] || fail "only $n feasible configurations compared with calc"

# The text form: the head of sm_90's table and one dropped line.
"$SILK_OCC" prune "$space" --arch sm_90 >"$work/text" || fail "prune (text): exit $?"
sed -n '1,4p' "$work/text" >"$work/head"
cat >"$work/want" <<'WANT'
sm_90 (Hopper): 1200 configurations, 176 feasible, 1024 dropped

  feasible                                                 threads  regs       smem  CTAs/SM  occupancy  limited by
  WARPS=4 REGS=32 TILE_KIB=0 STATIC_KIB=0 CLUSTER=1            128    32        0 B       16     100.0%  warp slots, registers
WANT
cmp -s "$work/want" "$work/head" || fail "the text's head: $(diff "$work/want" "$work/head")"
grep -qxF '  WARPS=1 REGS=32 TILE_KIB=240 STATIC_KIB=0 CLUSTER=1      smem_over_optin: 240 KiB of shared memory per block is above the 227 KiB opt-in limit on sm_90' \
    "$work/text" || fail "the text's dropped line: $(grep -m1 smem_over_optin "$work/text")"

# The issue's example space.  Its smem is static shared memory, as calc's
# --smem: 26 of 36 fit the 48 KiB static limit ((M+N)*64*STAGES <= 48K).
# As dynamic shared memory (a Triton kernel's), all 36 fit both opt-in
# limits (at most 96 KiB).
cat >"$work/tile.json" <<'SPACE'
{"parameters": {"BLOCK_M": [64, 128, 256], "BLOCK_N": [64, 128], "STAGES": [2, 3, 4], "WARPS": [4, 8]},
 "threads": "WARPS*32", "smem": "(BLOCK_M+BLOCK_N)*32*2*STAGES", "dyn_smem": 0, "regs": 128}
SPACE
sed 's/"smem"/"static"/; s/"dyn_smem": 0/"smem": 0/; s/"static"/"dyn_smem"/' "$work/tile.json" >"$work/tile_dyn.json"
for f in tile tile_dyn; do
    "$SILK_OCC" prune "$work/$f.json" --arch sm_90,sm_120 --format json |
        jq -c '[.targets[] | [.arch, .n_feasible, .feasible[0].params, .feasible[0].active_blocks_per_sm,
                              (.dropped | map(.reason) | unique)]]'
done >"$work/got"
cat >"$work/want" <<'WANT'
[["sm_90",26,{"BLOCK_M":64,"BLOCK_N":64,"STAGES":2,"WARPS":4},4,["static_smem_over_limit"]],["sm_120",26,{"BLOCK_M":64,"BLOCK_N":64,"STAGES":2,"WARPS":4},4,["static_smem_over_limit"]]]
[["sm_90",36,{"BLOCK_M":64,"BLOCK_N":64,"STAGES":2,"WARPS":4},4,[]],["sm_120",36,{"BLOCK_M":64,"BLOCK_N":64,"STAGES":2,"WARPS":4},4,[]]]
WANT
cmp -s "$work/want" "$work/got" || fail "the issue's space: $(cat "$work/got")"

# expect TEXT ARGS...: stderr exactly TEXT, exit 2.
expect() {
    want=$1
    shift
    "$SILK_OCC" prune "$@" >"$work/out" 2>"$work/err"
    got=$?
    printf '%s\n' "$want" >"$work/want"
    [ "$got" = 2 ] && cmp -s "$work/want" "$work/err" ||
        fail "silk-occ prune $*: exit $got (want 2): $(cat "$work/err")"
}
E="silk-occ prune: error:"
bad() { # NAME TEXT: a space file
    printf '%s' "$2" >"$work/$1.json"
}
cd "$work" || exit 99
bad trunc '{"parameters": {"A": [1,2]}, "threads": 64'
expect "$E trunc.json:1:42: not valid JSON" trunc.json --arch sm_90
bad arr '[1, 2]'
expect "$E arr.json: not a tuning space (a JSON object with parameters and threads)" arr.json --arch sm_90
bad key '{"parameters": {"A": [1]}, "threads": 64, "bogus": 2}'
expect "$E key.json: unknown key 'bogus' (the keys are parameters, threads, regs, smem, dyn_smem and cluster)" key.json --arch sm_90
bad neg '{"parameters": {"A": [1, -2]}, "threads": 64}'
expect "$E neg.json: parameters.A: value 2 is not a whole number from 0 to 2^53" neg.json --arch sm_90
bad empty '{"parameters": {"A": []}, "threads": 64}'
expect "$E empty.json: parameters.A: not a list of values (a non-empty array of whole numbers)" empty.json --arch sm_90
bad name '{"parameters": {"2A": [1]}, "threads": 64}'
expect "$E name.json: parameters: '2A': a name starts with a letter or '_'" name.json --arch sm_90
bad builtin '{"parameters": {"threads": [1]}, "threads": 64}'
expect "$E builtin.json: parameters: 'threads': the name is built in (the block's threads and warps)" builtin.json --arch sm_90
bad unknown '{"parameters": {"BLOCK_M": [64]}, "threads": 64, "smem": "(BLOCK_M+BLOCK_Q)*2"}'
expect "$E unknown.json: smem '(BLOCK_M+BLOCK_Q)*2': 1:10: unknown name 'BLOCK_Q' (known: threads, warps, BLOCK_M); did you mean 'BLOCK_M'?" unknown.json --arch sm_90
ten='[1,2,3,4,5,6,7,8,9,10]'
bad big "{\"parameters\": {\"A\": $ten, \"B\": $ten, \"C\": $ten, \"D\": $ten, \"E\": $ten, \"F\": $ten, \"G\": [1, 2]}, \"threads\": 64}"
expect "$E big.json: parameters: more than 1000000 configurations (2000000 with 'G')" big.json --arch sm_90
bad nothreads '{"parameters": {"A": [1]}}'
expect "$E nothreads.json: threads: required (threads per block, a number or a formula)" nothreads.json --arch sm_90
bad noparams '{"threads": 64}'
expect "$E noparams.json: parameters: required (an object of NAME: [values])" noparams.json --arch sm_90
bad negative '{"parameters": {"A": [64, 32]}, "threads": 64, "smem": "A-48"}'
expect "$E negative.json: smem 'A-48': at A=32: 1:2: 32 - 48 is negative" negative.json --arch sm_90
bad circular '{"parameters": {"A": [1]}, "threads": "warps*32"}'
expect "$E circular.json: threads 'warps*32': a formula of the parameters, not of threads or warps" circular.json --arch sm_90
bad fraction '{"parameters": {"A": [1]}, "threads": 1.5}'
expect "$E fraction.json: threads: not a whole number or a formula of the parameters (a string)" fraction.json --arch sm_90
bad twice '{"parameters": {"A": [1]}, "threads": 64, "threads": 32}'
expect "$E twice.json: 'threads' given twice" twice.json --arch sm_90
expect "$E missing.json: cannot read: No such file or directory" missing.json --arch sm_90
expect "$E --arch: required (the architectures to prune for: sm_80,sm_90)" key.json
expect "$E --arch: gfx942: prune takes NVIDIA architectures (AMD targets are not pruned yet)" key.json --arch gfx942
expect "$E --arch: unknown architecture 'sm_99' (did you mean 'sm_90'?); 'silk-occ arch list' lists them" key.json --arch sm_99
expect "$E --arch: sm_90 given twice" key.json --arch sm_90,9.0
expect "$E give the tuning space: silk-occ prune SPACE.json --arch LIST"
expect "$E unexpected argument 'key.json' (one space at a time)" key.json key.json --arch sm_90
expect "$E --format: 'csv' is not a format (text, json)" key.json --arch sm_90 --format csv
# A hostile file name is escaped in the message.
bad "$(printf 'x\033[2J')" '['
expect "$E x\\x1b[2J.json:1:1: not valid JSON" "$(printf 'x\033[2J').json" --arch sm_90
exit $status
