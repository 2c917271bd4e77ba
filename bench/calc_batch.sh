#!/bin/bash
# calc_batch.sh: `silk-occ calc --batch` against single `silk-occ calc`
# calls, in one run (issue 26, item 3).
#
#   bench/calc_batch.sh [SILK_OCC]   (make bench runs it with ./src/silk-occ)
#
# awk writes BATCH_LINES (1,000,000) configurations, NVIDIA and AMD mixed
# (a fifth AMD) over six targets, with a fixed seed; the batch answers
# them all, best of BATCH_RUNS (3) rounds, wall clock and CPU (user + sys)
# seconds; the first SINGLE_CALLS (1,000) of them are answered one
# process each, as a tuning script does without --batch.  Printed: lines
# per second of each and their ratio.  Goal: at least 1 M lines per
# second (by CPU time: the wall clock counts whatever else the machine
# runs).  The batch's answers must be one per line with no error object,
# or the benchmark fails (exit 1); a missed goal does not.
set -u
silk_occ=${1:-${SILK_OCC:-silk-occ}}
here=$(cd "$(dirname "$0")" && pwd)
bench=bench/calc_batch
# shellcheck source=bench/bench_lib.sh
. "$here/bench_lib.sh"
lines=${BATCH_LINES:-1000000} runs=${BATCH_RUNS:-3} singles=${SINGLE_CALLS:-1000}
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT

awk -v n="$lines" 'BEGIN {
    srand(26)
    split("sm_80 sm_90 sm_120 sm_86", nv, " "); split("gfx942 gfx1100", amd, " ")
    for (i = 0; i < n; i++) {
        if (i % 5 == 4)
            printf "{\"arch\":\"%s\",\"threads\":%d,\"vgprs\":%d,\"lds\":%d}\n", amd[i % 2 + 1],
                   64 * (1 + int(rand() * 16)), 8 * int(rand() * 32), 1024 * int(rand() * 64)
        else
            printf "{\"arch\":\"%s\",\"threads\":%d,\"regs\":%d,\"smem\":%d,\"dyn_smem\":%d}\n",
                   nv[i % 4 + 1], 32 * (1 + int(rand() * 32)), 16 + int(rand() * 200),
                   1024 * int(rand() * 40), 1024 * int(rand() * 40)
    }
}' >"$work/lines"

best_wall="" best_cpu=""
for _ in $(seq "$runs"); do
    start=$EPOCHREALTIME
    /usr/bin/time -f '%U %S' -o "$work/cpu" "$silk_occ" calc --batch <"$work/lines" >"$work/out" ||
        fail "calc --batch exited $? (a line was refused: $(grep -m1 '"error"' "$work/out"))"
    end=$EPOCHREALTIME
    wall=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f", e - s }')
    cpu=$(awk '{ printf "%.3f", $1 + $2 }' "$work/cpu")
    [ -z "$best_wall" ] || awk -v a="$wall" -v b="$best_wall" 'BEGIN { exit !(a < b) }' && best_wall=$wall
    [ -z "$best_cpu" ] || awk -v a="$cpu" -v b="$best_cpu" 'BEGIN { exit !(a < b) }' && best_cpu=$cpu
done
[ "$(wc -l <"$work/out")" = "$lines" ] && ! grep -q '"error"' "$work/out" ||
    fail "calc --batch: $(wc -l <"$work/out") answers for $lines lines"

# The single calls: each line's keys as calc's options.
head -n "$singles" "$work/lines" | sed 's/[{}"]//g; s/:/ /g; s/,/ /g; s/dyn_smem/dyn-smem/' |
    awk '{ for (i = 1; i <= NF; i += 2) printf "--%s %s ", $i, $(i + 1); print "" }' >"$work/args"
start=$EPOCHREALTIME
while read -r args; do
    # shellcheck disable=SC2086
    "$silk_occ" calc $args --format json >/dev/null 2>&1 || fail "calc $args exited $?"
done <"$work/args"
end=$EPOCHREALTIME
single_s=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f", e - s }')

rate() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.0f", n / s }'; }
batch_wall_rate=$(rate "$lines" "$best_wall") batch_cpu_rate=$(rate "$lines" "$best_cpu")
single_rate=$(rate "$singles" "$single_s")
printf '%-44s %12s %12s\n' "" "lines/s" "vs single"
printf '%-44s %12s %12s\n' "calc --batch, $lines lines (wall)" "$batch_wall_rate" "$(ratio "$batch_wall_rate" "$single_rate")"
printf '%-44s %12s %12s\n' "calc --batch, $lines lines (CPU)" "$batch_cpu_rate" "$(ratio "$batch_cpu_rate" "$single_rate")"
printf '%-44s %12s %12s\n' "calc, one process a line, $singles lines" "$single_rate" "1.00"
awk -v r="$batch_cpu_rate" 'BEGIN { exit !(r < 1000000) }' &&
    echo "$bench: goal missed: $batch_cpu_rate lines per CPU second, under 1000000"
exit 0
