#!/bin/sh
# regest_table.sh: the register estimate (compiler/regest.c) against ptxas,
# per kernel, for every program under tests/golden/seeds and
# tests/golden/programs that compiles, and tests/data/silk/pressure.silk:
# the table in regest.c's comment, to remeasure after a change to the IR,
# the passes or the estimate.  Not part of make check (it needs ptxas and
# only reports).
#
#   SILKC=build/src/silkc tests/cli/regest_table.sh [TARGET]    (default sm_90)
set -u
srcdir=$(cd "$(dirname "$0")/../.." && pwd)
silkc=${SILKC:-silkc}
arch=${1:-sm_90}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# field FILE KERNEL NAME: a figure of a --format json report.
field() {
    awk -v k="\"$2\"" -v f="\"$3\":" '
        $1 == "\"kernel\":" { cur = $2; sub(/,$/, "", cur) }
        $1 == f && cur == k { v = $2; sub(/,$/, "", v); print v; exit }' "$1"
}

printf '%-26s %-18s %9s %6s %6s\n' program kernel estimate ptxas error
n=0 total=0
for f in "$srcdir"/tests/golden/seeds/*.silk "$srcdir"/tests/golden/programs/*.silk \
    "$srcdir"/tests/data/silk/pressure.silk; do
    "$silkc" compile "$f" --arch "$arch" -o "$work/k.ptx" --resource-usage --format json \
        > "$work/ptxas.json" 2>/dev/null || continue
    SILK_PTXAS=none "$silkc" compile "$f" --arch "$arch" -o "$work/k.ptx" --resource-usage \
        --format json > "$work/estimate.json" 2>/dev/null || continue
    ! grep -q '"estimated":[[:space:]]*true' "$work/ptxas.json" || {
        echo "regest_table.sh: no ptxas" >&2
        exit 77
    }
    for k in $(awk '$1 == "\"kernel\":" { v = $2; gsub(/[",]/, "", v); print v }' "$work/ptxas.json"); do
        e=$(field "$work/estimate.json" "$k" registers)
        p=$(field "$work/ptxas.json" "$k" registers)
        printf '%-26s %-18s %9s %6s %+6d\n' "$(basename "$f")" "$k" "$e" "$p" $((e - p))
        d=$((e - p))
        total=$((total + (d < 0 ? -d : d)))
        n=$((n + 1))
    done
done
[ $n -gt 0 ] && awk -v t=$total -v n=$n 'BEGIN { printf "%d kernels, mean absolute error %.2f registers\n", n, t / n }'
