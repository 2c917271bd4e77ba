#!/bin/sh
# silk_ptx_report.sh: one CTA size, one report.  A Silk kernel's fixed CTA
# size (@launch, or a kernel's 256) is .reqntid in the PTX silkc writes, so
# `silk-occ report K.silk` and `silk-occ report K.TARGET.ptx` give the
# same report: the JSON of each kernel the same apart from the file, the
# input kind, the Silk launch block (which only the .silk has) and the
# advice's form (@launch for Silk, __launch_bounds__ for PTX), with
# one candidate block size for a fixed size.  A launchable attr(device=gpu)
# fn without @launch has neither directive and every candidate in both.
# Each example and the cases below, on three targets.  Exit 77 without
# ptxas (a .ptx is then refused).  Run by make check (SILKC, SILK_OCC,
# SILK_SRCDIR).
set -u
: "${SILKC:?}" "${SILK_OCC:?}" "${SILK_SRCDIR:?}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
targets="sm_80 sm_90 sm_120"

cat >"$work/fixed.silk" <<'EOF'
@launch(128, 4)
kernel bounded(n: u64, x: tensor<f32>[n]) {
  if ctx.gid < n {
    x[ctx.gid] = x[ctx.gid] * 2.0
  }
}

kernel plain(n: u64, x: tensor<f32>[n]) {
  if ctx.gid < n {
    x[ctx.gid] = x[ctx.gid] + 1.0
  }
}

attr(device=gpu) fn fill(out: u64, value: u64) {
  store<u64>(out + ctx.gid * 8, value)
}
EOF

# The report's JSON without what names the input.
same_part() {
    # (the advice's form is the input's language: @launch for Silk)
    jq -S 'del(.reports[].file, .reports[].input, .reports[].host_code.silk,
               .reports[].launch_bounds_advice.form)'
}

check_program() { # FILE.silk
    src=$1 name=$(basename "$1" .silk)
    out="$work/$name"
    mkdir -p "$out"
    "$SILKC" compile "$src" --arch "$(echo $targets | tr ' ' ,)" -o "$out/$name.ptx" 2>"$out/err" ||
        { fail "$src: silkc compile: $(cat "$out/err")"; return; }
    for t in $targets; do
        ptx="$out/$name.$t.ptx"
        if grep -q '^\.maxntid' "$ptx"; then fail "$ptx: a .maxntid (Silk fixes sizes: .reqntid)"; fi
        "$SILK_OCC" report "$src" --arch "$t" --work 100000 --format json >"$out/silk.json" 2>"$out/err" ||
            { fail "$src on $t: report exit $?: $(cat "$out/err")"; continue; }
        "$SILK_OCC" report "$ptx" --arch "$t" --work 100000 --format json >"$out/ptx.json" 2>"$out/err"
        rc=$?
        if [ $rc = 3 ]; then
            echo "silk_ptx_report: ptxas not found: $(cat "$out/err"); skipped"
            exit 77
        fi
        [ $rc = 0 ] || { fail "$ptx: report exit $rc: $(cat "$out/err")"; continue; }
        same_part <"$out/silk.json" >"$out/silk.same"
        same_part <"$out/ptx.json" >"$out/ptx.same"
        diff -u "$out/silk.same" "$out/ptx.same" >"$out/diff" ||
            fail "$name on $t: the .silk and .ptx reports differ:
$(head -40 "$out/diff")"
        # A fixed size: one row of the one size; none fixed: the candidates.
        jq -r '.reports[] | "\(.kernel) \(.launch_bounds.reqntid) \(.launch_bounds.maxntid) \([.occupancy_table[].threads] | join(","))"' \
            "$out/ptx.json" >"$out/rows.$t"
    done
}

for f in "$SILK_SRCDIR"/examples/*.silk "$work/fixed.silk"; do
    check_program "$f"
done

# The rows of the cases, per target, as the .ptx gave them.
want="bounded 128 null 128
plain 256 null 256
fill null null 64,128,256,512,1024"
for t in $targets; do
    got=$(cat "$work/fixed/rows.$t")
    [ "$got" = "$want" ] || fail "fixed.silk on $t: kernel reqntid maxntid sizes:
  got:  $got
  want: $want"
    # sgemm's @launch(256, 2) likewise: one row.
    [ "$(cat "$work/sgemm/rows.$t")" = "sgemm 256 null 256" ] ||
        fail "sgemm on $t: $(cat "$work/sgemm/rows.$t"), want sgemm 256 null 256"
done

[ "$failures" = 0 ] || { echo "silk_ptx_report: $failures failed"; exit 1; }
echo "silk_ptx_report: the .silk and its .ptx agree on every example and case, on $targets"
