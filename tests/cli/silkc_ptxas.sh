#!/bin/sh
# silkc_ptxas.sh: what `silkc compile` does with the real ptxas:
# --emit=cubin writes one ELF cubin per target (named as the PTX would
# be), and with --resource-usage reports from the same run; --emit=header
# with --resource-usage measures PTX it writes to a temporary directory,
# which it removes; and the register limit of @launch holds:
# tests/data/silk/pressure.silk's `squeezed` (@launch(128, 1, 32), 48
# floats live) stays within 32 registers by spilling, and the same kernel
# without the limit (`roomy`) takes more than 32 and spills nothing, in
# ptxas's own figures from --resource-usage --format json.  Exits 77 when
# there is no ptxas.  Run by make check, which sets SILKC and SILK_SRCDIR.
set -u
: "${SILKC:?}" "${SILK_SRCDIR:?}"
seed="$SILK_SRCDIR/tests/golden/seeds/lanes_and_warps.silk"
pressure="$SILK_SRCDIR/tests/data/silk/pressure.silk"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# json_field FILE KERNEL FIELD: FIELD of KERNEL in a --format json report.
json_field() {
    awk -v k="\"$2\"" -v f="\"$3\":" '
        $1 == "\"kernel\":" { cur = $2; sub(/,$/, "", cur) }
        $1 == f && cur == k { v = $2; sub(/,$/, "", v); print v; exit }' "$1"
}
is_elf() { [ "$(od -An -c -N4 "$1" 2>/dev/null | tr -d ' ')" = '177ELF' ]; }

"$SILKC" compile "$seed" --arch sm_90 --emit=cubin -o "$work/probe.cubin" 2>"$work/err"
rc=$?
if [ $rc -eq 3 ]; then
    echo "SKIP: silkc_ptxas.sh: $(cat "$work/err")"
    exit 77
fi
[ $rc -eq 0 ] || fail "--emit=cubin exited $rc: $(cat "$work/err")"
is_elf "$work/probe.cubin" || fail "$work/probe.cubin is not an ELF file"

# one cubin per target, named as the PTX would be, and the default name
cp "$seed" "$work/lw.silk"
"$SILKC" compile "$work/lw.silk" --arch sm_90,sm_80,sm_75 --emit=cubin --resource-usage \
    > "$work/usage" 2>"$work/err" || fail "--emit=cubin for three targets: $(cat "$work/err")"
for t in sm_90 sm_80 sm_75; do
    is_elf "$work/lw.$t.cubin" || fail "no ELF $work/lw.$t.cubin"
    grep -q "^$t *lanes_and_warps *[0-9]" "$work/usage" || fail "--emit=cubin --resource-usage: no $t row"
done
[ ! -e "$work/lw.sm_90.ptx" ] || fail "--emit=cubin left PTX beside the cubins"
"$SILKC" compile "$work/lw.silk" --arch sm_90 --emit=cubin || fail "--emit=cubin, one target, exited $?"
is_elf "$work/lw.cubin" || fail "no ELF $work/lw.cubin (the default name)"

# --emit=header --resource-usage: ptxas reads a temporary PTX, then it is gone
mkdir "$work/tmp"
TMPDIR="$work/tmp" "$SILKC" compile "$seed" --arch sm_90 --emit=header -o "$work/lw.h" \
    --resource-usage > "$work/usage" || fail "--emit=header --resource-usage exited $?"
grep -q '^sm_90 *lanes_and_warps *[0-9]' "$work/usage" || fail "--emit=header --resource-usage: $(cat "$work/usage")"
[ -z "$(ls -A "$work/tmp")" ] || fail "temporary files left: $(ls -A "$work/tmp")"

# the register limit: ptxas's own figures
"$SILKC" compile "$pressure" --arch sm_90 -o "$work/p.ptx" --resource-usage --format json \
    > "$work/p.json" || fail "pressure.silk --resource-usage exited $?"
grep -q '^\.maxnreg 32$' "$work/p.ptx" || fail "pressure.silk: no .maxnreg 32 in the PTX"
regs=$(json_field "$work/p.json" squeezed registers)
stores=$(json_field "$work/p.json" squeezed spill_stores)
loads=$(json_field "$work/p.json" squeezed spill_loads)
echo "squeezed (@launch(128, 1, 32)): $regs registers, $stores bytes spill stores, $loads bytes spill loads"
[ "${regs:-99}" -le 32 ] || fail "squeezed: $regs registers, over its limit of 32"
[ "${stores:-0}" -gt 0 ] && [ "${loads:-0}" -gt 0 ] || fail "squeezed: no spills ($stores, $loads)"
regs=$(json_field "$work/p.json" roomy registers)
stores=$(json_field "$work/p.json" roomy spill_stores)
echo "roomy (no limit): $regs registers, $stores bytes spill stores"
[ "${regs:-0}" -gt 32 ] || fail "roomy: only $regs registers; the kernel no longer needs more than 32"
[ "${stores:-1}" -eq 0 ] || fail "roomy: $stores bytes of spill stores"
grep -q '"estimated":[[:space:]]*false' "$work/p.json" || fail "ptxas's figures marked as estimated"

[ $failures -eq 0 ] && echo "silkc compile with ptxas: all checks passed"
[ $failures -eq 0 ]
