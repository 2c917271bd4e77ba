#!/bin/sh
# calc_batch.sh: `silk-occ calc --batch` (issue 26, item 3): 200 random
# configurations of both vendors (a fixed seed), each answered as the
# single `silk-occ calc --format json` call answers it, key by key (an
# answer has calc's target and result keys), a configuration calc refuses
# answered with calc's own message; bad lines with their exact error
# objects, the others still answered, and exit 1; an empty input.  Run by
# make check, which sets SILK_OCC; needs jq (skipped without it).
set -u
: "${SILK_OCC:?}"
command -v jq >/dev/null 2>&1 || { echo "SKIP: jq not found (it compares the answers)"; exit 77; }
status=0
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT

fail() {
    echo "FAIL: $*"
    status=1
}

# Each configuration twice: a JSON line, and calc's options (tab apart).
awk 'BEGIN {
    srand(26)
    split("sm_75 sm_80 sm_86 sm_89 sm_90 sm_120", nv, " ")
    split("h100-sxm a100 l4 rtx-4090", gpus, " ")
    split("gfx90a gfx942 gfx1100 gfx1201", amd, " ")
    for (i = 0; i < 200; i++) {
        r = rand()
        if (r < 0.6) {
            t = int(rand() * 1100) + 1; g = int(rand() * 256); s = int(rand() * 40) * 1024
            d = int(rand() * 120) * 1024; b = int(rand() * 4)
            key = rand() < 0.8 ? "arch" : "gpu"
            name = key == "arch" ? nv[int(rand() * 6) + 1] : gpus[int(rand() * 4) + 1]
            json = sprintf("{\"%s\":\"%s\",\"threads\":%d,\"regs\":%d,\"smem\":%d,\"dyn_smem\":%d,\"barriers\":%d",
                           key, name, t, g, s, d, b)
            args = sprintf("--%s %s --threads %d --regs %d --smem %d --dyn-smem %d --barriers %d",
                           key, name, t, g, s, d, b)
            if (rand() < 0.2) { json = json ",\"no_optin\":true"; args = args " --no-optin" }
            if (rand() < 0.2) { c = int(rand() * 101); json = json ",\"carveout\":" c; args = args " --carveout " c }
        } else {
            key = rand() < 0.8 ? "arch" : "gpu"
            name = key == "arch" ? amd[int(rand() * 4) + 1] : "mi300x"
            t = (int(rand() * 16) + 1) * 64; v = int(rand() * 257); s = int(rand() * 106)
            l = int(rand() * 64) * 1024
            json = sprintf("{\"%s\":\"%s\",\"threads\":%d,\"vgprs\":%d,\"sgprs\":%d,\"lds\":%d",
                           key, name, t, v, s, l)
            args = sprintf("--%s %s --threads %d --vgprs %d --sgprs %d --lds %d", key, name, t, v, s, l)
            if (name == "gfx90a" || name == "gfx942" || name == "mi300x") {
                a = int(rand() * 128); json = json ",\"agprs\":" a; args = args " --agprs " a
            }
            if (rand() < 0.3) { w = int(rand() * 8) + 1; json = json ",\"waves_per_eu\":" w; args = args " --waves-per-eu " w }
        }
        print json "}\t" args
    }
}' >"$work/configs"
cut -f1 "$work/configs" >"$work/lines"
"$SILK_OCC" calc --batch <"$work/lines" >"$work/batch" 2>"$work/err"
batch_status=$?

# The single calls: an answer, or calc's message as the batch words it.
n=0 refused=0
while IFS='	' read -r json args; do
    n=$((n + 1))
    # shellcheck disable=SC2086
    if "$SILK_OCC" calc $args --format json >"$work/one" 2>"$work/one_err"; then
        jq -c . "$work/one"
    else
        refused=$((refused + 1))
        grep 'error:' "$work/one_err" | sed 's/^silk-occ calc: error: //' |
            jq -R -c --argjson n "$n" '{line: $n, error: .}'
    fi
done <"$work/configs" >"$work/single"
[ "$(wc -l <"$work/batch")" = 200 ] || fail "200 lines, $(wc -l <"$work/batch") answers"
# Each batch answer's keys, with the single call's values for them.
jq -s -c --slurpfile single "$work/single" '
    [to_entries[] | .key as $i | .value as $b | $single[$i] as $s |
     select(($b | keys) as $k | ($s | with_entries(select(.key as $x | $k | index($x)))) != $b or
            (($b | has("error")) != ($s | has("error"))) or
            (($b | has("error") | not) and ([$b | keys[] | select(. as $x | $s | has($x) | not)] != [])))
     | {line: ($i + 1), batch: $b, single: $s}]' "$work/batch" >"$work/diff"
[ "$(cat "$work/diff")" = "[]" ] || fail "answers differ from the single calls: $(head -c 2000 "$work/diff")"
# Enough of each kind to mean something, and the exit status.
answers=$(grep -c '"vendor"' "$work/batch")
amd_answers=$(grep -c '"vendor":"amd"' "$work/batch")
[ "$answers" -ge 100 ] && [ "$amd_answers" -ge 40 ] && [ "$refused" -ge 10 ] ||
    fail "only $answers answers ($amd_answers AMD) and $refused refusals"
want_status=0
[ "$refused" -gt 0 ] && want_status=1
[ "$batch_status" = "$want_status" ] || fail "--batch exited $batch_status with $refused bad lines"
[ -s "$work/err" ] && fail "--batch wrote to stderr: $(head -3 "$work/err")"

# Bad lines: their exact objects, the good ones between still answered.
long=$(head -c 70000 /dev/zero | tr '\0' ' ')
{
    echo '{"arch":"sm_90","threads":256,"regs":64}'
    echo 'nope'
    echo '[1,2]'
    echo '{"arch":"sm_90","threads":256,"regs":64} trailing'
    echo '{"arch":"sm_90","threads":256,"regs":64,"sweep":"threads"}'
    echo '{"arch":"sm_90","threads":256.5,"regs":64}'
    echo '{"arch":"sm_90","threads":"256","regs":64}'
    echo '{"arch":"sm_99","threads":256,"regs":64}'
    echo '{"gpu":"h100x","threads":256,"regs":64}'
    echo '{"threads":256,"regs":64}'
    echo '{"arch":"sm_90","gpu":"h100-sxm","threads":256,"regs":64}'
    echo '{"arch":"sm_90","threads":2048,"regs":64}'
    echo '{"arch":"sm_90","threads":256,"regs":64,"vgprs":32}'
    echo '{"arch":"gfx942","threads":256,"vgprs":64,"regs":32}'
    echo '{"arch":"sm_90","threads":256,"regs":64,"regs":32}'
    echo '{"arch":"sm_90","threads":256}'
    echo '{"arch":"sm_90","threads":256,"regs":64,"dyn_smem":300000}'
    echo '{"arch":"sm_90","threads":256,"regs":64,"carveout":"most"}'
    echo '{"arch":"sm_90","threads":256,"regs":64,"no_optin":1}'
    echo '{"arch":"gfx942","threads":256,"vgprs":64,"waves_per_eu":[2,3,4]}'
    printf '{"arch":"sm_90","threads":256,"regs":64}%s\n' "$long"
    printf '{"arch":"sm_90",\0"threads":256}\n'
    echo '{"arch":"\u001b[2J","threads":256,"regs":64}'
    echo ''
    echo '{"gpu":"mi300x","threads":256,"vgprs":128}'
} >"$work/bad"
"$SILK_OCC" calc --batch <"$work/bad" >"$work/out" 2>"$work/err"
got=$?
[ "$got" = 1 ] || fail "bad lines: exit $got, want 1"
cat >"$work/want" <<'WANT'
{"line":2,"error":"not valid JSON"}
{"line":3,"error":"not a JSON object of calc's options"}
{"line":4,"error":"not valid JSON"}
{"line":5,"error":"unknown key 'sweep' (the keys are arch, gpu, threads, regs, smem, dyn_smem, barriers, no_optin, carveout, sms, vgprs, agprs, sgprs, lds, waves_per_eu)"}
{"line":6,"error":"threads: not a whole number from 1 to 1073741824"}
{"line":7,"error":"threads: not a whole number from 1 to 1073741824"}
{"line":8,"error":"arch: unknown architecture 'sm_99' (did you mean 'sm_90'?)"}
{"line":9,"error":"gpu: unknown GPU 'h100x' (did you mean 'h100'?)"}
{"line":10,"error":"arch or gpu: the target GPU is required"}
{"line":11,"error":"arch and gpu: give one, not both"}
{"line":12,"error":"--threads: 2048 is above the block limit of 1024 threads on sm_90"}
{"line":13,"error":"--vgprs: is for AMD targets (gfx90a, gfx942, gfx1100, gfx1201, ...); sm_90 takes --regs and --smem"}
{"line":14,"error":"--regs: is for NVIDIA targets; gfx942 takes --vgprs, --agprs, --sgprs and --lds"}
{"line":15,"error":"regs: given twice"}
{"line":16,"error":"--regs: required (registers per thread, from ptxas -v)"}
{"line":17,"error":"--dyn-smem: 300000 B of shared memory per block is above the 232448 B opt-in limit on sm_90"}
{"line":18,"error":"carveout: not \"default\", \"max-shared\", \"max-l1\", \"half\" or a percentage 0..100"}
{"line":19,"error":"no_optin: not true or false"}
{"line":20,"error":"waves_per_eu: not MIN or [MIN, MAX], each from 1 to 64"}
{"line":21,"error":"longer than 65536 bytes"}
{"line":22,"error":"holds a NUL byte"}
{"line":23,"error":"arch: unknown architecture '\\x1b[2J'"}
WANT
grep '"error"' "$work/out" >"$work/errors"
cmp -s "$work/want" "$work/errors" || fail "bad lines: $(diff "$work/want" "$work/errors")"
got=$(grep -v '"error"' "$work/out" | jq -c '[.arch, .active_blocks_per_sm, .occupancy]' | tr '\n' ' ')
[ "$got" = '["sm_90",4,0.5] ["gfx942",4,0.5] ' ] || fail "the good lines among the bad: $got"
[ -s "$work/err" ] && fail "bad lines: stderr: $(head -3 "$work/err")"

# No lines: no answers, exit 0; --batch takes its options from the lines.
"$SILK_OCC" calc --batch </dev/null >"$work/out" 2>&1 || fail "an empty input: exit $?"
[ -s "$work/out" ] && fail "an empty input: $(head -3 "$work/out")"
"$SILK_OCC" calc --batch --arch sm_90 </dev/null >"$work/out" 2>&1
got=$?
[ "$got" = 2 ] && [ "$(cat "$work/out")" = "silk-occ calc: error: --batch: the configurations come on stdin, one JSON object a line; only --arch-table goes with it" ] ||
    fail "--batch --arch: exit $got: $(cat "$work/out")"
exit $status
