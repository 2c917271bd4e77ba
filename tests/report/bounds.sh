#!/bin/sh
# bounds.sh: `silk-occ report` on kernels whose own bounds shape their
# registers (tests/cuda/bounds_*.cu), checked against nvcc, ptxas and
# `silk-occ calc` on ptxas's registers:
#   - a __maxnreg__(40) kernel whose registers limit (6 CTAs of 256 threads
#     where warps allow 8) is advised a new __maxnreg__, never
#     __launch_bounds__ (nvcc rejects the two on one kernel: checked), and
#     the advised attribute, put into a copy of the file, compiles;
#   - __launch_bounds__(1024, 2): on sm_90 the minimum stands; on sm_120
#     ptxas warns that it ignores it, the report prints ptxas's own warning
#     (the same text as ptxas run by hand) under the usage line, in JSON
#     and in markdown, and the bounds line says the minimum was ignored
#     instead of claiming it; the advised __launch_bounds__ compiles;
#   - __launch_bounds__(256, 4) holding 96 live values to 64 registers:
#     the report says its own bound makes it spill, with ptxas's figures
#     without the bound (the same as ptxas on the PTX with .maxntid and
#     .minnctapersm removed by sed) and the CTAs per SM of each (calc's);
#   - a hostile warning (a wrapper ptxas adds one with terminal escapes)
#     is escaped in the text report and kept verbatim in JSON.
# Skipped (exit 77) without nvcc, ptxas or jq.  Run by make check, which
# sets SILK_OCC, SILK_SRCDIR and CHECK_SCHEMA.
#
# Measured with CUDA 13.0 (nvcc V13.0.88): capped_series uses 40
# registers on sm_80/sm_90/sm_120 (32 at the advised cap, spilling 4 and
# 16 B on sm_80 and sm_90); wide_pairs 32 registers on sm_90 and 55 on
# sm_120 with "Value of threads per SM for entry _Z10wide_pairsPKfPfi is
# out of range. .minnctapersm will be ignored"; held_accumulators 64
# registers spilling 1120/1380/684 B on sm_80/sm_90/sm_120, 254/242/154
# registers and no spills without its bound: 1 CTA per SM instead of 4.
set -u
: "${SILK_OCC:?}" "${SILK_SRCDIR:?}" "${CHECK_SCHEMA:?}"
cd "$SILK_SRCDIR" || exit 99
# shellcheck source=tests/report/lib.sh
. tests/report/lib.sh

nvcc=${SILK_NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ptxas=${SILK_PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
if [ ! -x "$nvcc" ] || [ ! -x "$ptxas" ] || ! command -v jq >/dev/null; then
    echo "SKIP: bounds.sh: needs nvcc, ptxas and jq ($nvcc, $ptxas, jq: $(command -v jq || echo none))"
    exit 77
fi
export SILK_NVCC="$nvcc" SILK_PTXAS="$ptxas"

# report FILE ARCH [OPTIONS]: text in $work/NAME.ARCH.txt, JSON (checked
# against the schema) in $work/NAME.ARCH.json.
report() {
    f=$1 arch=$2
    shift 2
    out=$work/$(basename "$f" .cu).$arch
    "$SILK_OCC" report "$f" --arch "$arch" "$@" >"$out.txt" 2>"$out.err" ||
        fail "report $f --arch $arch: exit $?: $(cat "$out.err")"
    "$SILK_OCC" report "$f" --arch "$arch" --format json "$@" >"$out.json" 2>>"$out.err" ||
        fail "report $f --arch $arch --format json: exit $?"
    "$CHECK_SCHEMA" "$out.json" || fail "$out.json: does not match the schema"
}

# has FILE LINE: FILE holds exactly the line LINE.
has() {
    grep -qxF -- "$2" "$1" || fail "$1 lacks the line
  want: $2
  got:  $(grep -F -- "$(printf '%s' "$2" | cut -c1-30)" "$1" | head -3)"
}

# field FILE JQ: one value of the report's only entry.
field() { jq -r ".reports[0] | $2" "$1"; }

# ptxas_v FILE ARCH: ptxas -v's output on nvcc's PTX of FILE for ARCH,
# the PTX kept as $work/NAME.ARCH.ptx.
ptxas_v() {
    p=$work/$(basename "$1" .cu).$2.ptx
    "$nvcc" -ptx -arch="$2" -o "$p" "$1" || fail "nvcc -ptx $1 for $2"
    "$ptxas" -v --gpu-name "$2" -o /dev/null "$p" 2>&1
}

# used TEXT: the register count of ptxas -v's (one kernel's) Used line.
used() { printf '%s\n' "$1" | awk '/Used/ { for (i = 1; i <= NF; i++) if ($i == "Used") print $(i + 1) }'; }

# calc ARCH THREADS REGS: calc's CTAs per SM.
calc() {
    "$SILK_OCC" calc --arch "$1" --threads "$2" --regs "$3" --barriers 0 --format json |
        jq -r .active_blocks_per_sm
}

# compiles FILE OLD NEW ARCH: a copy of FILE with OLD replaced by NEW
# compiles with nvcc -c for ARCH.
compiles() {
    c=$work/copy-$(basename "$1")
    sed "s/$2/$3/" "$1" >"$c"
    grep -qF "$3" "$c" || fail "$1: '$2' not found to replace"
    "$nvcc" -c -arch="$4" -o "$work/copy.o" "$c" 2>"$work/nvcc.err" ||
        fail "$1 with $3 does not compile for $4: $(cat "$work/nvcc.err")"
}

# ---- __maxnreg__ -------------------------------------------------------------
cu=tests/cuda/bounds_maxnreg.cu
# Why the advice must keep the form: nvcc rejects both on one kernel.
sed 's/__maxnreg__(40)/__maxnreg__(32) __launch_bounds__(256, 8)/' "$cu" >"$work/both.cu"
if "$nvcc" -c -arch=sm_80 -o "$work/both.o" "$work/both.cu" 2>"$work/both.err"; then
    fail "nvcc took __maxnreg__ beside __launch_bounds__"
fi
grep -q "cannot be applied to the same kernel" "$work/both.err" ||
    fail "nvcc's refusal of __maxnreg__ with __launch_bounds__: $(cat "$work/both.err")"
for arch in sm_80 sm_90; do
    regs=$(used "$(ptxas_v "$cu" $arch)")
    [ "$regs" = 40 ] || fail "$cu on $arch: ptxas uses $regs registers, want the cap's 40"
    report "$cu" $arch
    out=$work/bounds_maxnreg.$arch
    has "$out.txt" "  launch bounds: at most 40 registers"
    has "$out.txt" "  4. __maxnreg__"
    has "$out.txt" "     a cap of 32 registers gives 8 CTAs per SM, 100.0% occupancy: __maxnreg__(32) in place of __maxnreg__(40) (nvcc takes no __launch_bounds__ beside __maxnreg__)"
    grep -q "__launch_bounds__(256" "$out.txt" && fail "$out.txt advises __launch_bounds__"
    got="$(field "$out.json" '.resources.regs_per_thread') $(field "$out.json" '.selected.active_blocks_per_sm')"
    got="$got $(field "$out.json" '.launch_bounds_advice.form') $(field "$out.json" '.launch_bounds_advice.max_registers')"
    got="$got $(field "$out.json" '.launch_bounds_advice.min_blocks_per_sm')"
    want="$regs $(calc $arch 256 "$regs") maxnreg 32 $(calc $arch 256 32)"
    [ "$got" = "$want" ] || fail "$out.json: registers, CTAs, form, cap, CTAs at it: $got, want $want"
    compiles "$cu" "__maxnreg__(40)" "__maxnreg__(32)" $arch
done
# sm_120: registers do not limit (6 CTAs fill its 48 warps); the cap stays.
report "$cu" sm_120
has "$work/bounds_maxnreg.sm_120.txt" "     registers do not hold occupancy back here: keep __maxnreg__(40) (nvcc takes no __launch_bounds__ beside __maxnreg__)"

# ---- a minimum ptxas ignores -------------------------------------------------
cu=tests/cuda/bounds_min_ignored.cu
v90=$(ptxas_v "$cu" sm_90)
v120=$(ptxas_v "$cu" sm_120)
printf '%s\n' "$v90" | grep -q "ptxas warning" && fail "ptxas warns on sm_90: $v90"
warning=$(printf '%s\n' "$v120" | sed -n 's/^ptxas warning : //p')
[ "$warning" = "Value of threads per SM for entry _Z10wide_pairsPKfPfi is out of range. .minnctapersm will be ignored" ] ||
    echo "note: ptxas's warning on sm_120 is now: $warning"
[ -n "$warning" ] || fail "ptxas gives no warning for __launch_bounds__(1024, 2) on sm_120"
report "$cu" sm_90
out=$work/bounds_min_ignored.sm_90
has "$out.txt" "  launch bounds: block size at most 1024; at least 2 CTAs per SM"
grep -q "warning" "$out.txt" && fail "$out.txt: a warning where ptxas gave none"
got="$(field "$out.json" '.ptxas_warnings | length') $(field "$out.json" '.launch_bounds.minnctapersm_ignored')"
[ "$got" = "0 false" ] || fail "$out.json: warnings, minimum ignored: $got, want 0 false"
report "$cu" sm_120
out=$work/bounds_min_ignored.sm_120
sed -n 3,4p "$out.txt" >"$work/head"
printf '  ptxas: warning: %s\n  launch bounds: block size at most 1024; ptxas ignored the minimum of 2 CTAs per SM (it cannot be met on sm_120: 2 x 1024 threads is more than the 1536 an SM holds)\n' \
    "$warning" >"$work/want"
cmp -s "$work/head" "$work/want" || fail "$out.txt: the lines under the usage line:
$(cat "$work/head")
  want:
$(cat "$work/want")"
grep -q "at least 2 CTAs" "$out.txt" && fail "$out.txt still claims the minimum"
got="$(field "$out.json" '.ptxas_warnings[0]') $(field "$out.json" '.launch_bounds.minnctapersm_ignored')"
[ "$got" = "$warning true" ] || fail "$out.json: warning, minimum ignored: $got"
regs=$(used "$v120")
got="$(field "$out.json" '.resources.regs_per_thread') $(field "$out.json" '.selected.threads') $(field "$out.json" '.selected.active_blocks_per_sm')"
threads=$(field "$out.json" '.selected.threads')
[ "$got" = "$regs $threads $(calc sm_120 "$threads" "$regs")" ] ||
    fail "$out.json: registers, threads, CTAs: $got; ptxas and calc: $regs $threads $(calc sm_120 "$threads" "$regs")"
"$SILK_OCC" report "$cu" --arch sm_120 --format markdown >"$work/min.md" ||
    fail "report --format markdown: exit $?"
has "$work/min.md" '- **Warning:** ptxas: warning: Value of threads per SM for entry \_Z10wide_pairsPKfPfi is out of range. `.minnctapersm` will be ignored'
# The advised bound, in place of the kernel's, compiles.
advised=$(sed -n 's/.*occupancy: \(__launch_bounds__([0-9]*, [0-9]*)\) in place of its __launch_bounds__(1024, 2)$/\1/p' "$out.txt")
[ -n "$advised" ] || fail "$out.txt: no __launch_bounds__ advised in place of the kernel's"
[ -n "$advised" ] && compiles "$cu" "__launch_bounds__(1024, 2)" "$advised" sm_120

# ---- a bound that makes the kernel spill -------------------------------------
cu=tests/cuda/bounds_spill.cu
# spill TEXT: the spill stores and loads of ptxas -v's properties line.
spill() { printf '%s\n' "$1" | awk '/spill stores/ { print $5 " " $9 }'; }
# pct JSON KEY: bound_cost's fraction KEY as the report prints it (C's %.1f).
pct() { awk -v x="$(jq -r ".reports[0].bound_cost.$2" "$1")" 'BEGIN { printf "%.1f", 100 * x }'; }
for arch in sm_80 sm_90 sm_120; do
    v=$(ptxas_v "$cu" $arch)
    ptx=$work/bounds_spill.$arch.ptx
    sed '/^\.maxntid/d; /^\.minnctapersm/d' "$ptx" >"$work/free.ptx"
    free=$("$ptxas" -v --gpu-name $arch -o /dev/null "$work/free.ptx" 2>&1)
    regs=$(used "$v") free_regs=$(used "$free")
    report "$cu" $arch
    out=$work/bounds_spill.$arch
    set -- $(spill "$v")
    stores=$1 loads=$2
    set -- $(spill "$free")
    [ "$stores" != 0 ] && [ "$1 $2" = "0 0" ] ||
        fail "$cu on $arch: ptxas spills $stores B with the bound and $1 B without; want some and none"
    bounded=$(calc $arch 256 "$regs") unbounded=$(calc $arch 256 "$free_regs")
    got=$(jq -r '.reports[0].bound_cost | "\(.registers_unbounded) \(.spill_stores_unbounded) \(.blocks_per_sm_unbounded) \(.blocks_per_sm_bounded) \(.forces_spills)"' "$out.json")
    [ "$got" = "$free_regs 0 $unbounded $bounded true" ] ||
        fail "$out.json: bound_cost $got; ptxas and calc: $free_regs 0 $unbounded $bounded true"
    ctas=CTAs
    [ "$unbounded" = 1 ] && ctas=CTA
    line=$(printf '     its own bound (__launch_bounds__(256, 4)) makes it spill: under it ptxas uses %s registers and spills %s B stored / %s B loaded per thread; without it %s registers and no spills: %s %s per SM (%s%%) instead of %s (%s%%) at 256 threads' \
        "$regs" "$stores" "$loads" "$free_regs" "$unbounded" $ctas "$(pct "$out.json" occupancy_unbounded)" "$bounded" "$(pct "$out.json" occupancy_bounded)")
    has "$out.txt" "$line"
    advised=$(sed -n 's/.*occupancy: \(__launch_bounds__([0-9]*, [0-9]*)\) in place of its __launch_bounds__(256, 4)$/\1/p' "$out.txt")
    [ -n "$advised" ] && compiles "$cu" "__launch_bounds__(256, 4)" "$advised" $arch
done
# The figures of the first target, as measured when this was written.
[ "$(jq -r '.reports[0].bound_cost.blocks_per_sm_unbounded' "$work/bounds_spill.sm_120.json")" = 1 ] ||
    fail "held_accumulators on sm_120 without its bound: not 1 CTA per SM"

# ---- a hostile warning -------------------------------------------------------
# A ptxas that adds a warning naming no kernel, with terminal escapes:
# every kernel of the run gets it, escaped in text, verbatim in JSON.
cat >"$work/ptxas" <<EOF
#!/bin/sh
"$ptxas" "\$@"
status=\$?
printf 'ptxas warning : evil \033]0;title\007 text\n' >&2
exit \$status
EOF
chmod +x "$work/ptxas"
SILK_PTXAS="$work/ptxas" "$SILK_OCC" report tests/cuda/bounds_maxnreg.cu --arch sm_80 >"$work/evil.txt" ||
    fail "report with a hostile warning: exit $?"
grep -q "$(printf '\033')" "$work/evil.txt" && fail "$work/evil.txt: an escape byte reached the terminal"
grep -qF "  ptxas: warning: evil " "$work/evil.txt" || fail "$work/evil.txt: the warning is not shown"
SILK_PTXAS="$work/ptxas" "$SILK_OCC" report tests/cuda/bounds_maxnreg.cu --arch sm_80 --format json >"$work/evil.json"
[ "$(jq -r '.reports[0].ptxas_warnings[0]' "$work/evil.json")" = "$(printf 'evil \033]0;title\007 text')" ] ||
    fail "$work/evil.json: the warning is not kept verbatim"

[ $failures = 0 ] || exit 1
exit 0
