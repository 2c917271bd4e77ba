# bench_lib.sh: what bench/binary.sh, project.sh and wrap.sh share (sourced
# by bash): skipping, failing, timing a command with its peak memory, and
# printing a row of ratios.  Each script sets its own name in $bench.
bench=${bench:-bench/$(basename "$0" .sh)}

skip() { echo "$bench: $*; nothing to compare"; exit 77; }
fail() { echo "$bench: $*" >&2; exit 1; }

# cuobjdump: $CUOBJDUMP, else the one on PATH, else the PyPI package's.
find_cuobjdump() {
    local c=${CUOBJDUMP:-}
    [ -n "$c" ] && [ -x "$c" ] && { echo "$c"; return 0; }
    c=$(command -v cuobjdump) && { echo "$c"; return 0; }
    c=$(python3 -c 'import nvidia, os; print(os.path.join(list(nvidia.__path__)[0], "cu13", "bin", "cuobjdump"))' 2>/dev/null) &&
        [ -x "$c" ] && { echo "$c"; return 0; }
    return 1
}

# timed PREFIX COMMAND...: runs it, stdout in PREFIX.out, stderr in
# PREFIX.err; sets PREFIX's seconds and peak kilobytes in the variables
# <name>_s and <name>_kb, name the last part of PREFIX.
timed() {
    local prefix=$1 name=${1##*/} start end rc
    shift
    start=$EPOCHREALTIME
    /usr/bin/time -f %M -o "$prefix.kb" "$@" >"$prefix.out" 2>"$prefix.err"
    rc=$?
    end=$EPOCHREALTIME
    printf -v "${name}_s" '%s' "$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f", e - s }')"
    printf -v "${name}_kb" '%s' "$(tail -1 "$prefix.kb")"
    return $rc
}

# keep_best NAME: best_NAME and best_NAME_kb keep the lowest of the rounds.
keep_best() {
    local s="${1}_s" kb="${1}_kb" bs="best_${1}" bkb="best_${1}_kb"
    if [ -z "${!bs}" ] || awk -v a="${!s}" -v b="${!bs}" 'BEGIN { exit !(a < b) }'; then
        printf -v "$bs" '%s' "${!s}"
    fi
    if [ -z "${!bkb}" ] || [ "${!kb}" -lt "${!bkb}" ]; then
        printf -v "$bkb" '%s' "${!kb}"
    fi
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

# print_row LABEL NAME PEER GOAL: seconds, ratio, peak MB and ratio of
# best_NAME against best_PEER.
print_row() {
    local s="best_$2" kb="best_$2_kb" ps="best_$3" pkb="best_$3_kb"
    printf '%-50s %9s %7s %9s %7s  %s\n' "$1" "${!s}" "$(ratio "${!s}" "${!ps}")" \
        "$(awk -v k="${!kb}" 'BEGIN { printf "%.1f", k / 1024 }')" "$(ratio "${!kb}" "${!pkb}")" "$4"
}

# report_goals NAME PEER TIME_GOAL MEMORY_GOAL: says which ratio missed
# its goal (a memory goal of "" is not checked).  Exit 0 either way.
report_goals() {
    local s="best_$1" kb="best_$1_kb" ps="best_$2" pkb="best_$2_kb" misses=""
    local t m
    t=$(ratio "${!s}" "${!ps}")
    awk -v r="$t" -v g="$3" 'BEGIN { exit !(r > g) }' && misses="$misses\n  time: $t x the peer, goal $3"
    if [ -n "$4" ]; then
        m=$(ratio "${!kb}" "${!pkb}")
        awk -v r="$m" -v g="$4" 'BEGIN { exit !(r > g) }' && misses="$misses\n  memory: $m x the peer's peak, goal $4"
    fi
    if [ -n "$misses" ]; then
        printf 'goals missed:%b\n' "$misses"
    else
        echo "all goals met"
    fi
    exit 0
}
