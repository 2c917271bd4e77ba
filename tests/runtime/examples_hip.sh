#!/bin/sh
# examples_hip.sh: every example program (examples/*.silk) built by
# `silkc build --arch sm_75,gfx942` and run on the HIP backend through the
# test double of libamdhip64 (tests/runtime/fake_hip.so: SILK_BACKEND=hip,
# SILK_HIP_LIBRARY; it runs no kernel, and its log says what was called).
# For each: the gfx942 code object the program carries is the one loaded
# (the double reads the target from the ELF's e_flags), every dispatch
# the runtime made reached hipModuleLaunchKernel with the workgroups and
# the CTA size it asked for (SILK_VERBOSE's dispatch lines against the
# double's launch lines), exactly one hipDeviceSynchronize per dispatch,
# every buffer freed, and the first dispatch is the one the CPU backend
# makes of the same program (kernel, grid and workspace); and without
# llc, silkc build says what to install.
# Run by `make check` from the build directory (SILKC and FAKE_HIP
# override); exits 77 (skipped) without a C compiler, or when this silkc
# cannot build gfx942 (no AMDGPU backend, or no llc-19 / ld.lld-19).
set -u
silkc=${SILKC:-$PWD/src/silkc}
fake=${FAKE_HIP:-$PWD/tests/runtime/fake_hip.so}
top=${SILK_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v "${CC:-cc}" >/dev/null 2>&1 || { echo "SKIP: no C compiler (cc)"; exit 77; }
[ -f "$fake" ] || { echo "FAIL: no $fake (make check builds it)"; exit 1; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }

# Can this silkc build for gfx942 at all?
printf '@launch(64)\nkernel k(n: u64) {\n}\nfn main() {\n}\n' > "$work/probe.silk"
if ! "$silkc" build --arch gfx942 "$work/probe.silk" -o "$work/probe" 2>"$work/probe.err"; then
    echo "SKIP: silkc cannot build --arch gfx942: $(head -n 1 "$work/probe.err")"
    exit 77
fi

# Without llc: one line naming what to install, exit 3 (--emit=c, which
# needs no C compiler, so that PATH can be empty).
env PATH=/nonexistent SILK_LLC= SILK_LLD= "$silkc" build --arch gfx942 "$work/probe.silk" --emit=c \
    -o "$work/probe.c" 2>"$work/probe.err"
rc=$?
[ "$rc" -eq 3 ] || fail "without llc: exit $rc, want 3"
[ "$(cat "$work/probe.err")" = "silkc: error: gfx942: AMD targets need llc-19 (LLVM 19), and none was found (install llvm-19 and lld-19, or set SILK_LLC and SILK_LLD)" ] ||
    fail "without llc: $(cat "$work/probe.err")"

# dispatches FILE: "KERNEL WORKGROUPS WORKSPACE" per SILK_VERBOSE dispatch line.
dispatches() {
    sed -n 's/^silkrt: dispatch \([A-Za-z0-9_]*\).*: grid=[0-9]* workspace=\([0-9]*\) ctas=\([0-9]*\).*/\1 \3 \2/p' "$1"
}
# launches FILE: the same from the double's launch lines.
launches() {
    sed -n 's/^launch \([A-Za-z0-9_]*\) grid=\([0-9]*\),1,1 block=\([0-9]*\),1,1 .*/\1 \2 \3/p' "$1"
}
# first_dispatch FILE: "KERNEL grid=G workspace=W" of the first dispatch line.
first_dispatch() {
    sed -n 's/^silkrt: dispatch \([A-Za-z0-9_]*\).*: \(grid=[0-9]* workspace=[0-9]*\).*/\1 \2/p' "$1" | head -n 1
}

n=0
for example in "$top"/examples/*.silk; do
    name=$(basename "$example" .silk)
    program=$work/$name
    if ! (cd "$top/examples" && "$silkc" build --arch sm_75,gfx942 "$name.silk" -o "$program") \
            2>"$work/$name.build"; then
        fail "$name: silkc build --arch sm_75,gfx942: $(cat "$work/$name.build")"
        continue
    fi
    n=$((n + 1))
    (cd "$top/examples" && env SILK_BACKEND=hip SILK_HIP_LIBRARY="$fake" FAKE_HIP_LOG="$work/$name.log" \
        SILK_VERBOSE=1 timeout 120 "$program") >"$work/$name.out" 2>"$work/$name.err"
    rc=$?
    [ "$rc" -lt 124 ] || fail "$name: stopped by a signal or the timeout (exit $rc)"
    log=$work/$name.log
    grep -qx "target gfx942" "$log" || fail "$name: the gfx942 code object was not loaded:$(sed 's/^/ | /' "$log")"
    grep -q "^silkrt: module gfx942 loaded (" "$work/$name.err" || fail "$name: no module line: $(cat "$work/$name.err")"
    dispatches "$work/$name.err" > "$work/$name.asked"
    [ -s "$work/$name.asked" ] || fail "$name: no dispatch reached the runtime"
    asked=$(wc -l < "$work/$name.asked")
    grep -qx "call hipModuleLaunchKernel $asked" "$log" ||
        fail "$name: $asked dispatches, and the log says: $(grep hipModuleLaunchKernel "$log")"
    grep -qx "call hipDeviceSynchronize $asked" "$log" ||
        fail "$name: $asked dispatches, and the log says: $(grep hipDeviceSynchronize "$log")"
    # The double logs the first 8 launches: those against the first 8 dispatches.
    launches "$log" > "$work/$name.launched"
    head -n 8 "$work/$name.asked" | cmp -s - "$work/$name.launched" ||
        fail "$name: the launches differ from the dispatches:
$(head -n 8 "$work/$name.asked" | diff - "$work/$name.launched")"
    grep -qx "live 0" "$log" || fail "$name: buffers left allocated: $(grep '^live' "$log")"
    grep -qx "bad_frees 0" "$log" || fail "$name: $(grep '^bad_frees' "$log")"
    # The host code up to the first dispatch reads nothing a kernel wrote.
    (cd "$top/examples" && env SILK_BACKEND=cpu SILK_VERBOSE=1 timeout 120 "$program") \
        >/dev/null 2>"$work/$name.cpu"
    [ "$(first_dispatch "$work/$name.err")" = "$(first_dispatch "$work/$name.cpu")" ] ||
        fail "$name: the first dispatch on HIP ($(first_dispatch "$work/$name.err")) is not the CPU's ($(first_dispatch "$work/$name.cpu"))"
done
[ "$n" -gt 0 ] || fail "no example was built"
echo "examples on the fake HIP: $n built and run"
exit $status
