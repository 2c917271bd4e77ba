#!/bin/sh
# golden.sh: the AMDGPU backend's LLVM IR, byte for byte.  Each
# tests/amdgpu/golden/NAME.silk is compiled with `silkc compile --arch
# ARCH --emit=llvm -o -` for each NAME.ARCH.ll beside it (gfx942 for
# wave64, gfx1100 for wave32), and the output must equal it; NAME.err,
# when present, is the exact stderr of each of the four AMD targets,
# which must then exit 1 (a construct with no AMD form).  No llc is
# needed: this is the emitted text.  UPDATE=1 rewrites the .ll files
# (review the diff).  Run by make check (SILKC, SILK_SRCDIR).
set -u
silkc=${SILKC:-$PWD/src/silkc}
srcdir=${SILK_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$srcdir/tests/amdgpu/golden" || exit 1
status=0 cases=0
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
for ll in *.*.ll; do
    name=${ll%%.*} arch=${ll#*.}
    arch=${arch%.ll}
    cases=$((cases + 1))
    if ! NO_COLOR=1 "$silkc" compile --arch "$arch" --emit=llvm -o - "$name.silk" >"$out" 2>"$err"; then
        echo "FAIL: $name.silk for $arch: silkc failed: $(cat "$err")"
        status=1
    elif [ "${UPDATE:-0}" = 1 ]; then
        cp "$out" "$ll"
    elif ! diff -u "$ll" "$out"; then
        echo "FAIL: $ll differs (UPDATE=1 rewrites it)"
        status=1
    fi
done
for want in *.err; do
    name=${want%.err}
    for arch in gfx90a gfx942 gfx1100 gfx1201; do
        cases=$((cases + 1))
        NO_COLOR=1 "$silkc" compile --arch "$arch" --emit=llvm -o - "$name.silk" >"$out" 2>"$err"
        got=$?
        [ "$got" -eq 1 ] || { echo "FAIL: $name.silk for $arch: exit $got, want 1"; status=1; }
        diff -u "$want" "$err" || { echo "FAIL: $name.silk for $arch: stderr differs from $want"; status=1; }
    done
done
echo "golden: $cases cases"
exit $status
