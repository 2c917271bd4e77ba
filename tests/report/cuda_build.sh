#!/bin/sh
# cuda_build.sh: a .cu is compiled as a build compiles it, and its kernels
# are named as the build names them.
#   - tests/cuda/cub_build.cu (CUB's BlockReduce in a kernel of ours, and
#     CUB's own DeviceReduce kernels) reported for sm_80,sm_90: every
#     kernel's symbol is the same on both targets, CUB's carry the build's
#     whole list (CUB_..._SM_800_900), none is "not in this file's compile"
#     for a target, and each target's symbols are exactly those of the
#     cubins of a real build (nvcc -c with a -gencode per target, --keep:
#     nm's T symbols); a -gencode in --nvcc-flags joins the list (800_860_900).
#   - tests/cuda/deep_names.cu (a GEMM library's kind of name, a symbol of
#     over 1,024 bytes): demangled as c++filt --no-recursion-limit (or
#     llvm-cxxfilt) demangles it, where plain c++filt gives up.
#   - two instances of one template get distinct titles in the text and
#     markdown reports: exact text for the GEMM kernels, one title per
#     symbol for CUB's.
#   - two .cu files in one report (each gets its own directory); names
#     that still read alike (cut, with no list to show) numbered "#N".
# Skipped (exit 77) without nvcc, ptxas, nm or the report_rows helper.
. "${SILK_SRCDIR:-.}/tests/report/lib.sh"
cd "${SILK_SRCDIR:-.}" || exit 99

nvcc=${SILK_NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ptxas=${SILK_PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
for tool in "$nvcc" "$ptxas" "$(command -v nm)" "${REPORT_ROWS:-}"; do
    if [ ! -x "$tool" ]; then
        echo "SKIP: cuda_build.sh: needs nvcc, ptxas, nm and tests/cuda/report_rows" \
             "(nvcc: $nvcc, ptxas: $ptxas, nm: $(command -v nm), report_rows: ${REPORT_ROWS:-unset})"
        exit 77
    fi
done
cub=tests/cuda/cub_build.cu deep=tests/cuda/deep_names.cu

# symbols FILE ARCH: the sorted symbols of report_rows's K lines for ARCH.
symbols() {
    awk -F '\t' -v a="$2" '$1 == "K" && $2 == a { print $3 }' "$1" | sort
}

# ---- CUB: one compile for both targets, the build's symbols ----------------
"$SILK_OCC" report "$cub" --arch sm_80,sm_90 --format json >"$work/cub.json" 2>"$work/err" ||
    fail "report $cub: exit $?: $(cat "$work/err")"
"$REPORT_ROWS" "$work/cub.json" >"$work/cub.rows" || fail "report_rows $cub"
symbols "$work/cub.rows" sm_80 >"$work/s80"
symbols "$work/cub.rows" sm_90 >"$work/s90"
[ "$(wc -l <"$work/s80")" = 6 ] || fail "$cub: $(wc -l <"$work/s80") kernels on sm_80, want 6"
cmp -s "$work/s80" "$work/s90" ||
    fail "$cub: the symbols differ between sm_80 and sm_90: $(diff "$work/s80" "$work/s90")"
[ "$(grep -c '^_ZN3cub21CUB_[0-9]*_SM_800_900' "$work/s80")" = 4 ] ||
    fail "$cub: CUB's 4 kernels do not carry the build's list (SM_800_900): $(cat "$work/s80")"
grep -q '"absent_on": "' "$work/cub.json" && fail "$cub: a kernel is said absent from a target"

# The real build: both targets' SASS in one nvcc -c, its cubins kept.
mkdir "$work/build"
"$nvcc" -c -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 --keep \
    --keep-dir "$work/build" -o "$work/build/cub_build.o" "$cub" 2>"$work/err" ||
    fail "nvcc -c $cub: $(cat "$work/err")"
for v in 80 90; do
    nm --defined-only "$work/build/cub_build.compute_$v.cubin" | awk '$2 == "T" { print $3 }' |
        sort >"$work/build/s$v"
    cmp -s "$work/build/s$v" "$work/s$v" ||
        fail "$cub on sm_$v: the report's symbols are not the build's: $(diff "$work/build/s$v" "$work/s$v")"
done

# --nvcc-flags' own -gencode joins the list, as in the user's build.
"$SILK_OCC" report "$cub" --arch sm_80,sm_90 --format json \
    --nvcc-flags '-gencode arch=compute_86,code=sm_86' >"$work/cub86.json" 2>"$work/err" ||
    fail "report $cub --nvcc-flags -gencode: exit $?: $(cat "$work/err")"
"$REPORT_ROWS" "$work/cub86.json" | awk -F '\t' '$1 == "K" { print $2, $3 }' >"$work/s86"
[ "$(grep -c ' _ZN3cub[0-9]*CUB_[0-9]*_SM_800_860_900[0-9]' "$work/s86")" = 8 ] ||
    fail "--nvcc-flags -gencode compute_86: CUB's kernels are not SM_800_860_900: $(cat "$work/s86")"

# ---- a deeply nested name, demangled ----------------------------------------
"$SILK_OCC" report "$deep" --arch sm_80 --format json >"$work/deep.json" 2>"$work/err" ||
    fail "report $deep: exit $?: $(cat "$work/err")"
"$REPORT_ROWS" "$work/deep.json" | awk -F '\t' '$1 == "K"' >"$work/deep.rows"
[ "$(wc -l <"$work/deep.rows")" = 2 ] || fail "$deep: $(wc -l <"$work/deep.rows") kernels, want 2"
if printf '_Z1fv\n' | c++filt --no-recursion-limit >/dev/null 2>&1; then
    filt="c++filt --no-recursion-limit"
elif command -v llvm-cxxfilt >/dev/null 2>&1; then
    filt=llvm-cxxfilt
else
    filt=
    echo "note: neither c++filt --no-recursion-limit nor llvm-cxxfilt: the demangled text is not compared"
fi
while IFS="$(printf '\t')" read -r _ _ symbol _ _ _ _ _ kernel _; do
    [ ${#symbol} -gt 1024 ] || fail "$deep: a symbol of ${#symbol} bytes; the test wants over 1,024"
    [ "$(printf '%s\n' "$symbol" | c++filt)" = "$symbol" ] ||
        echo "note: this c++filt demangles ${#symbol} bytes without --no-recursion-limit"
    case $kernel in "void deep::device::Kernel<deep::gemm::GemmUniversalWithVisitor<"*) ;;
    *) fail "$deep: not demangled: $kernel" ;; esac
    if [ -n "$filt" ]; then
        want=$(printf '%s\n' "$symbol" | $filt)
        [ "$kernel" = "$want" ] || fail "$deep: demangled as
  got:  $kernel
  want: $want ($filt)"
    fi
done <"$work/deep.rows"

# ---- distinct titles ----------------------------------------------------------
# The two GEMM instances differ first in their pipeline's stages.
expect 0 "" "$deep" --arch sm_80
grep '^[^ ].* on sm_80 ' "$work/out" >"$work/titles"
title='deep::device::Kernel<deep::gemm::GemmUniversalWithVisitor<…> >(…)'
want="$title [MultistagePipelineConfiguration<3, …>] ($deep) on sm_80 (Ampere, compute capability 8.0)
$title [MultistagePipelineConfiguration<4, …>] ($deep) on sm_80 (Ampere, compute capability 8.0)"
[ "$(cat "$work/titles")" = "$want" ] || fail "$deep: titles
  got:  $(cat "$work/titles")
  want: $want"
expect 0 "" "$deep" --arch sm_80 --format markdown
[ "$(grep -c '^## `.*MultistagePipelineConfiguration<[34], …>]` on ' "$work/out")" = 2 ] ||
    fail "$deep: markdown titles: $(grep '^## ' "$work/out")"

# CUB's: as many distinct titles on a target as symbols, and its two
# DeviceReduceSingleTileKernel instances told apart by their iterators.
expect 0 "" "$cub" "$deep" --arch sm_80,sm_90
grep '^[^ ].* on sm_80 ' "$work/out" | sort -u >"$work/titles"
[ "$(wc -l <"$work/titles")" = 8 ] || fail "$cub $deep: $(wc -l <"$work/titles") distinct titles, want 8:
$(cat "$work/titles")"
tile='cub::CUB_[0-9]*_SM_800_900::detail::reduce::DeviceReduceSingleTileKernel<…>(…)'
for it in 'float const\*' 'float\*'; do
    grep -q "^$tile \[DeviceReduceSingleTileKernel<…, $it, …>\] ($cub) on sm_80 " "$work/titles" ||
        fail "$cub: no title with [DeviceReduceSingleTileKernel<…, $it, …>]: $(cat "$work/titles")"
done

# Names that read alike even so (two 113-byte names cut at 100 columns,
# no list to show): numbered in symbol order.
long=$(printf '%0110d' 0 | tr 0 k)
printf '.version 8.0\n.target sm_80\n.address_size 64\n' >"$work/cut.ptx"
for k in two one; do
    printf '.visible .entry %s_%s()\n{\n\tret;\n}\n' "$long" $k >>"$work/cut.ptx"
done
expect 0 "" "$work/cut.ptx" --arch sm_80
cut=$(printf '%099d' 0 | tr 0 k)…
want="$cut #2 ($work/cut.ptx) on sm_80 (Ampere, compute capability 8.0)
$cut #1 ($work/cut.ptx) on sm_80 (Ampere, compute capability 8.0)"
[ "$(grep '^[^ ]' "$work/out")" = "$want" ] || fail "names alike past the cut:
  got:  $(grep '^[^ ]' "$work/out")
  want: $want"

[ $failures = 0 ] || { echo "$failures failures"; exit 1; }
exit 0
