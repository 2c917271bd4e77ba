#!/bin/bash
# report.sh: how long `silk-occ report` takes on a large PTX file, next to
# ptxas alone.
#
#   bench/report.sh [SILK_OCC]      (make bench runs it with ./src/silk-occ)
#
# bench/report_gen.awk writes one PTX module of REPORT_KERNELS (1000)
# kernels, varied in registers, shared memory and launch bounds; each must
# assemble, without a warning, for every target.  Then, in each of
# REPORT_RUNS (3) rounds, on the same file and targets (REPORT_ARCHS,
# sm_80,sm_86,sm_90,sm_120), wall clock:
#   - peer: `ptxas -v --gpu-name T -o /dev/null FILE` for each target, one
#     after the other (what one would run by hand to get the figures);
#   - `silk-occ report FILE --arch ...` with the real ptxas;
#   - the same with ptxas replaced ($SILK_PTXAS) by a stub that prints the
#     recorded `ptxas -v` output of its target at once: what remains is
#     silk-occ's own work (reading, scanning, writing the PTX copies it
#     hands to ptxas, starting the runs, parsing, the model, the text).
#     The stub's own start (sh + cat) stays in, so the figure is an upper
#     bound.
# Best of the rounds for each.  Goals (issue 5): report / peer at most
# 0.6, silk-occ's own work under 5% of the report's time.  A run of
# silk-occ that exceeds REPORT_LIMIT (5) times the peer's time or
# REPORT_MEM_MB (4096) of memory is stopped and counts as a missed goal.
# A missed goal does not fail the benchmark; PTX that ptxas rejects or a
# report that is wrong or fails on its own does (exit 1).  Exit 77 without
# ptxas.
set -u
here=$(cd "$(dirname "$0")" && pwd)
silk_occ=${1:-${SILK_OCC:-silk-occ}}
cuda=${CUDA_HOME:-/usr/local/cuda}
ptxas=$(command -v ptxas || echo "$cuda/bin/ptxas")
kernels=${REPORT_KERNELS:-1000}
runs=${REPORT_RUNS:-3}
archs=${REPORT_ARCHS:-sm_80,sm_86,sm_90,sm_120}
limit=${REPORT_LIMIT:-5}
mem_mb=${REPORT_MEM_MB:-4096}

if [ ! -x "$ptxas" ]; then
    echo "bench/report: ptxas not found (install the CUDA toolkit or set CUDA_HOME); nothing to compare"
    exit 77
fi
fail() { echo "bench/report: $*" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ptx=$work/kernels.ptx
export TMPDIR=$work # where silk-occ writes its copies: removed even if it is stopped

seconds() { awk -v s="$1" -v e="$2" 'BEGIN { printf "%.3f", e - s }'; }
less() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(b == "" || a < b) }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

# The module, and each target's ptxas -v output (kept for the stub).
generate() {
    awk -v n="$kernels" -f "$here/report_gen.awk" >"$ptx" || fail "report_gen.awk failed"
    local a n
    for a in ${archs//,/ }; do
        "$ptxas" -v --gpu-name "$a" -o /dev/null "$ptx" >"$work/$a.log" 2>&1 ||
            fail "ptxas rejected the generated PTX for $a: $(grep -m3 error "$work/$a.log")"
        grep -q -i warning "$work/$a.log" && fail "ptxas warns on the generated PTX for $a: $(grep -m3 -i warning "$work/$a.log")"
        n=$(grep -c 'Used [0-9]* registers' "$work/$a.log")
        [ "$n" = "$kernels" ] || fail "ptxas reported $n kernels for $a, not $kernels"
    done
}

# The stub ptxas: the recorded output of the target named by --gpu-name;
# each run adds a line to $work/replays.
write_stub() {
    cat >"$work/ptxas-replay" <<EOF
#!/bin/sh
while [ \$# -gt 0 ]; do [ "\$1" = --gpu-name ] && arch=\$2; shift; done
echo >>"$work/replays"
exec cat "$work/\$arch.log"
EOF
    chmod +x "$work/ptxas-replay"
}

# The peer: every target in sequence; sets peer_s (total) and peer_T.
run_peer() {
    local a start end total=0
    for a in ${archs//,/ }; do
        start=$EPOCHREALTIME
        "$ptxas" -v --gpu-name "$a" -o /dev/null "$ptx" >"$work/peer.log" 2>&1 || fail "ptxas failed for $a"
        end=$EPOCHREALTIME
        printf -v "peer_${a}" '%s' "$(seconds "$start" "$end")"
        total=$(awk -v t="$total" -v s="$start" -v e="$end" 'BEGIN { printf "%.3f", t + e - s }')
    done
    peer_s=$total
}

# run_report PTXAS TIMEOUT: times silk-occ report with SILK_PTXAS=PTXAS;
# sets report_s, or report_s="" and stopped=WHY when a limit stopped it.
run_report() {
    local start end rc
    start=$EPOCHREALTIME
    (ulimit -v $((mem_mb * 1024)); SILK_PTXAS=$1 exec timeout "$2" "$silk_occ" report "$ptx" --arch "$archs") \
        >"$work/report.txt" 2>"$work/report.err"
    rc=$?
    end=$EPOCHREALTIME
    report_s=$(seconds "$start" "$end") stopped=""
    if [ $rc = 124 ]; then
        report_s="" stopped="stopped after $2 s ($limit x ptxas alone)"
    elif [ $rc = 3 ] && grep -q 'out of memory' "$work/report.err"; then
        report_s="" stopped="out of memory at $mem_mb MiB after $(printf %.0f "$(seconds "$start" "$end")") s"
    elif [ $rc != 0 ]; then
        fail "silk-occ report failed (exit $rc): $(head -5 "$work/report.err" | grep . || echo 'no message')"
    else
        local n
        n=$(grep -c -E '^k[0-9]+ \(.*\) on sm_[0-9]+ ' "$work/report.txt")
        [ "$n" = $((kernels * ${#targets[@]})) ] || fail "the report has $n kernel x target sections, not $((kernels * ${#targets[@]}))"
    fi
}

IFS=, read -r -a targets <<<"$archs"
generate
write_stub
best_peer="" best_report="" best_own="" report_stopped="" own_stopped=""
for ((i = 0; i < runs; i++)); do
    run_peer
    if less "$peer_s" "$best_peer"; then
        best_peer=$peer_s
        for a in "${targets[@]}"; do v="peer_$a"; printf -v "best_$a" '%s' "${!v}"; done
    fi
    timeout_s=$(awk -v p="$peer_s" -v l="$limit" 'BEGIN { printf "%d", p * l + 1 }')
    if [ -z "$report_stopped" ]; then
        run_report "$ptxas" "$timeout_s"
        report_stopped=$stopped
        [ -n "$report_s" ] && less "$report_s" "$best_report" && best_report=$report_s
    fi
    if [ -z "$own_stopped" ]; then
        rm -f "$work/replays"
        run_report "$work/ptxas-replay" "$timeout_s"
        own_stopped=$stopped
        replays=$(wc -l <"$work/replays" 2>/dev/null || echo 0)
        [ -n "$report_s" ] && less "$report_s" "$best_own" && best_own=$report_s
    fi
done

size=$(awk -v b="$(wc -c <"$ptx")" 'BEGIN { printf "%.1f MB", b / 1e6 }')
echo "bench/report: $kernels kernels ($size of PTX, $(wc -l <"$ptx") lines), targets $archs,"
echo "$(nproc 2>/dev/null || echo ?) cores, wall clock, best of $runs rounds"
printf '%-44s %9s %7s  %s\n' "" seconds ratio goal
printf '%-44s %9s %7s\n' "ptxas -v, one target after another" "$best_peer" 1.00
for a in "${targets[@]}"; do v="best_$a"; printf '%-44s %9s\n' "  $a" "${!v}"; done
misses=""
if [ -n "$best_report" ]; then
    r=$(ratio "$best_report" "$best_peer")
    printf '%-44s %9s %7s  %s\n' "silk-occ report, targets in parallel" "$best_report" "$r" "<= 0.60"
    awk -v r="$r" 'BEGIN { exit !(r > 0.6) }' && misses="$misses\n  time: $r x ptxas alone, goal 0.60"
else
    printf '%-44s %9s %7s  %s\n' "silk-occ report, targets in parallel" "-" "-" "<= 0.60"
    misses="$misses\n  time: silk-occ report $report_stopped"
fi
if [ -n "$best_own" ]; then
    share=-
    [ -n "$best_report" ] && share=$(awk -v o="$best_own" -v t="$best_report" 'BEGIN { printf "%.1f%%", 100 * o / t }')
    printf '%-44s %9s %7s  %s\n' "  its own work (ptxas replayed), share" "$best_own" "$share" "< 5%"
    [ -n "$best_report" ] && awk -v o="$best_own" -v t="$best_report" 'BEGIN { exit !(o >= 0.05 * t) }' &&
        misses="$misses\n  own work: $share of the report's time, goal under 5%"
else
    printf '%-44s %9s %7s  %s\n' "  its own work (ptxas replayed), share" "-" "-" "< 5%"
    misses="$misses\n  own work: with ptxas replayed, silk-occ report $own_stopped"
fi
if [ -n "$own_stopped" ]; then
    echo "ptxas runs by silk-occ: $replays before it was stopped"
else
    echo "ptxas runs by silk-occ: $replays (${#targets[@]} for the figures, the rest to check register caps)"
fi
if [ -n "$misses" ]; then
    printf 'goals missed:%b\n' "$misses"
else
    echo "all goals met: at most 0.6 x ptxas alone, own work under 5%"
fi
exit 0
