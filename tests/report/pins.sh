#!/bin/sh
# pins.sh: `silk-occ report` on block sizes that something fixes (issue
# 24, items 6 and 10).  --only-block-sizes restricts the candidates (its
# rows are exactly those the kernel permits, each with the CTAs per SM
# `silk-occ calc` and cuda_occupancy.h give); a template instance whose
# __launch_bounds__ maximum is its template argument is told so
# (tests/report/inputs/pins_template.cu), and --fixed-block-size makes
# that bound its size, in host code that nvcc compiles; kernels of a
# library that fixes its launch keep their bound: a --fixed-namespace of
# the project's own (pins_namespace.cu) and CUB from the toolkit
# (pins_cub.cu: DeviceReduceKernel's bound, as nvcc's PTX states it, on
# sm_80, sm_90 and sm_120; EmptyKernel, with none, sized by the
# library); on AMD, LLVM's default .max_flat_workgroup_size (1024) is no
# stated bound; and each bad option value, one line naming the option,
# exit 2.
# Without nvcc or ptxas the cases that need them are skipped (exit 77).
# Run by make check, which sets SILK_OCC, SILK_SRCDIR, CHECK_SCHEMA,
# REPORT_ROWS and OCC_ORACLE.
#
# Checked by hand, this tree, CUDA 13.0: ptxas -v gives stage<512> 18
# registers, 8192 B smem, 1 barrier on sm_90; `silk-occ calc --arch sm_90
# --threads 192 --regs 18 --smem 8192` 10 CTAs per SM (warps limit: 6
# warps of 64), as the header does; CUB's DeviceReduceKernel is
# .maxntid 256 on sm_80 and sm_90, 512 on sm_120, where the report chose
# 256 before its bound pinned it.
set -u
: "${SILK_OCC:?}" "${SILK_SRCDIR:?}" "${CHECK_SCHEMA:?}"
cd "$SILK_SRCDIR" || exit 99
# shellcheck source=tests/report/lib.sh
. tests/report/lib.sh
rows=${REPORT_ROWS:-$PWD/tests/cuda/report_rows}
oracle=${OCC_ORACLE:-$PWD/tests/cuda/occ_oracle}
tpl=tests/report/inputs/pins_template.cu
ns=tests/report/inputs/pins_namespace.cu
cub=tests/report/inputs/pins_cub.cu
ptx=tests/report/inputs/kernels.ptx

# json FILE KEY [AFTER]: the value of the first "KEY" (after the first
# line holding AFTER) in silk-occ's indented JSON.
json() {
    awk -v key="\"$2\":" -v after="${3:-}" '
        after != "" && !on && index($0, after) { on = 1; next }
        (after == "" || on) && $1 == key { v = $2; sub(/,$/, "", v); print v; exit }' "$1"
}
# codes FILE: the reason codes, in order, on one line.
codes() {
    awk '$1 == "\"code\":" { v = $2; gsub(/[",]/, "", v); printf "%s%s", n++ ? " " : "", v }
         END { print "" }' "$1"
}
# pin_of FILE KERNEL: the pin's by, namespace and threads of the first
# report of launch_name KERNEL; nothing when its pin is null.
pin_of() {
    awk -v k="\"$2\"," '$1 == "\"launch_name\":" { on = $2 == k }
        on && $1 == "\"pin\":" && $2 == "{" { p = 1; next }
        p && $1 ~ /^"(by|namespace|threads)":$/ { v = $2; sub(/,$/, "", v); out = out (out == "" ? "" : " ") v }
        p && $1 ~ /^}/ { print out; exit }' "$1"
}
# section FILE N: the lines of section N of a text report, unindented.
section() {
    awk -v n="  $2. " 'index($0, n) == 1 { on = 1; next } on && /^  [0-9]\. |^$/ { if (seen) exit; next }
        on { seen = 1; sub(/^     /, ""); print }' "$1"
}

# Bad values: one line naming the option, exit 2 (no tool needed: the
# options are read first).
both="$P --block-sizes and --only-block-sizes: give one of them (--block-sizes adds candidates, --only-block-sizes is the whole list)"
expect 2 "$both" $ptx --arch sm_80 --block-sizes 96 --only-block-sizes 96
expect 2 "$both" $ptx --arch sm_80 --only-block-sizes 96 --block-sizes 96
expect 2 "$P --only-block-sizes: the list is empty" $ptx --arch sm_80 --only-block-sizes ''
expect 2 "$P --only-block-sizes: '96,,192' has an empty element" $ptx --arch sm_80 --only-block-sizes 96,,192
expect 2 "$P --only-block-sizes: '0' is too small (at least 1)" $ptx --arch sm_80 --only-block-sizes 0
expect 2 "$P --only-block-sizes: '2048' is too large (at most 1024)" $ptx --arch sm_80 --only-block-sizes 64,2048
expect 2 "$P --only-block-sizes: 'x' is not a number" $ptx --arch sm_80 --only-block-sizes 96,x
expect 2 "$P --only-block-sizes: 96 is given twice" $ptx --arch sm_80 --only-block-sizes 96,192,96
expect 2 "$P --only-block-sizes: at most 16 sizes" $ptx --arch sm_80 \
    --only-block-sizes 32,64,96,128,160,192,224,256,288,320,352,384,416,448,480,512,544
expect 2 "$P --only-block-sizes given twice" $ptx --arch sm_80 --only-block-sizes 64 --only-block-sizes 128
bad_ns="not a namespace (identifiers joined by ::, as mylib or mylib::detail, at most 127 bytes)"
for v in '' 1x 'a:b' '::a' 'a::::b' 'a b' "$(printf 'a\033b')"; do
    q=$(printf '%s' "$v" | sed 's/\x1b/\\x1b/')
    expect 2 "$P --fixed-namespace '$q': $bad_ns" $ptx --arch sm_80 --fixed-namespace "$v"
done
long=$(printf '%0128d' 0 | tr 0 a)
expect 2 "$P --fixed-namespace '$(printf '%.60s' "$long")...': $bad_ns" $ptx --arch sm_80 --fixed-namespace "$long"
set --
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do set -- "$@" --fixed-namespace "n$i"; done
expect 2 "$P --fixed-namespace: at most 16 namespaces" $ptx --arch sm_80 "$@"

# AMD: a code object's .max_flat_workgroup_size pins under
# --fixed-block-size when the source stated it (pinned: 128), not at the
# 1024 LLVM gives a kernel that states none (plain: chosen as before).
expect 0 "" tests/data/amdgpu/pinned.gfx942.hsaco --fixed-block-size --format json
"$CHECK_SCHEMA" "$work/out" || fail "AMD --fixed-block-size: the JSON does not match the schema"
[ "$(pin_of "$work/out" pinned)" = '"fixed_block_size" null 128' ] && [ "$(pin_of "$work/out" plain)" = "" ] &&
    [ "$(codes "$work/out")" = "fixed_by_option highest_occupancy bounded_size highest_occupancy tie_prefers_default" ] ||
    fail "AMD --fixed-block-size: pinned $(pin_of "$work/out" pinned), plain $(pin_of "$work/out" plain); $(codes "$work/out")"

nvcc=${SILK_NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ptxas=${SILK_PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
if [ ! -x "$nvcc" ] || [ ! -x "$ptxas" ]; then
    echo "SKIP: pins.sh: no nvcc or no ptxas ($nvcc, $ptxas): the .cu cases did not run"
    [ $failures = 0 ] && exit 77
    exit 1
fi
PATH=$(dirname "$nvcc"):$PATH
export PATH

# --only-block-sizes 96,192: exactly those rows the bound permits (192 is
# above stage<128>'s), each with calc's and the header's CTAs per SM.
"$SILK_OCC" report $tpl --arch sm_80,sm_90,sm_120 --only-block-sizes 96,192 --format json \
    >"$work/only.json" 2>"$work/err" || fail "--only-block-sizes 96,192: exit $?: $(cat "$work/err")"
"$CHECK_SCHEMA" "$work/only.json" || fail "--only-block-sizes: the JSON does not match the schema"
"$rows" "$work/only.json" >"$work/only.rows" || fail "report_rows on $work/only.json"
got=$(awk -F'\t' '$1 == "R" { printf "%s%s:%s", n++ ? " " : "", $3, $4 } END { print "" }' "$work/only.rows")
want="_Z5stageILi128EEvPKfPfi:96 _Z5stageILi128EEvPKfPfi:96 _Z5stageILi128EEvPKfPfi:96"
want="$want _Z5stageILi512EEvPKfPfi:96 _Z5stageILi512EEvPKfPfi:192 _Z5stageILi512EEvPKfPfi:96"
want="$want _Z5stageILi512EEvPKfPfi:192 _Z5stageILi512EEvPKfPfi:96 _Z5stageILi512EEvPKfPfi:192"
[ "$got" = "$want" ] || fail "--only-block-sizes 96,192 rows:
  got:  $got
  want: $want"
checked=0
while IFS="$(printf '\t')" read -r kind arch symbol threads dyn blocks regs smem; do
    [ "$kind" = R ] || continue
    bound=128
    case $symbol in *512*) bound=512 ;; esac
    "$SILK_OCC" calc --arch "$arch" --threads "$threads" --regs "$regs" --smem "$smem" \
        --format json >"$work/calc" || fail "calc $arch $threads $regs $smem"
    calc=$(json "$work/calc" active_blocks_per_sm)
    header=$calc
    [ -x "$oracle" ] && header=$(echo "$arch $regs $smem $threads $dyn 1 $bound" | "$oracle")
    [ "$blocks" = "$calc" ] && [ "$blocks" = "$header" ] ||
        fail "$symbol on $arch at $threads: $blocks CTAs per SM; calc $calc, cuda_occupancy.h $header"
    checked=$((checked + 1))
done <"$work/only.rows"
[ $checked = 9 ] || fail "--only-block-sizes: $checked rows checked, want 9"
[ -x "$oracle" ] || echo "note: no cuda_occupancy.h oracle ($oracle): rows checked against calc only"
# On sm_90 stage<512> at 192 threads: ptxas's figures, 10 CTAs (6-warp
# CTAs in 64 warps); and a list of which the bound permits none.
[ "$(awk -F'\t' '$1 == "R" && $2 == "sm_90" && $4 == 192 { print $6, $7, $8 }' "$work/only.rows")" = "10 18 8192" ] ||
    fail "stage<512> on sm_90 at 192 threads: $(grep 'sm_90.*512.*192' "$work/only.rows")"
expect 0 "" $tpl --arch sm_90 --kernel 'stage<128>' --only-block-sizes 192,256
[ "$(section "$work/out" 2)" = "none: no permitted block size has a resident CTA on sm_90
- the kernel allows at most 128 threads per block (.maxntid)
- the bound 128 is the template argument of stage<128>: if the kernel's block size is its template argument, launch it with 128 threads (--fixed-block-size does)
- no size of --only-block-sizes is permitted: the kernel allows at most 128 threads per block" ] ||
    fail "--only-block-sizes above the bound: $(section "$work/out" 2)"

# The template argument as the bound: said, not imposed (256 selected on
# sm_90); --fixed-block-size imposes it.
note="- the bound 512 is the template argument of stage<512>: if the kernel's block size is its template argument, launch it with 512 threads (--fixed-block-size does)"
expect 0 "" $tpl --arch sm_90 --kernel 'stage<512>' --work 1000000
[ "$(section "$work/out" 2 | sed -n '1,3p')" = "block 256 threads, 8 CTAs per SM, 100.0% occupancy, grid 3907 CTAs
- the kernel allows at most 512 threads per block (.maxntid)
$note" ] || fail "stage<512>: the template note: $(section "$work/out" 2)"
expect 0 "" $tpl --arch sm_90 --kernel 'stage<512>' --format json
[ "$(codes "$work/out")" = "bounded_size template_bound highest_occupancy tie_prefers_default" ] ||
    fail "stage<512> reasons: $(codes "$work/out")"
[ "$(json "$work/out" threads '"template_bound"')" = 512 ] && [ "$(json "$work/out" pin)" = null ] ||
    fail "stage<512>: template_bound's threads $(json "$work/out" threads '"template_bound"'), pin $(json "$work/out" pin)"
# A bound that is no template argument (BS * BS of transpose_tile<16>): no note.
expect 0 "" tests/cuda/fixed_bs_template.cu --arch sm_90 --kernel 'transpose_tile<16>' --format json
[ "$(codes "$work/out")" = "bounded_size highest_occupancy tie_prefers_default" ] ||
    fail "transpose_tile<16> (bound 256, argument 16): $(codes "$work/out")"

expect 0 "" $tpl --arch sm_90 --kernel 'stage<512>' --work 1000000 --fixed-block-size
cp "$work/out" "$work/fixed.txt"
[ "$(section "$work/fixed.txt" 1)" = "threads   regs   smem  warps  slots  CTAs/SM occupancy  limited by
   >     512      5     25      4     32        4    100.0%  warp slots" ] &&
    [ "$(section "$work/fixed.txt" 2)" = "block 512 threads, 4 CTAs per SM, 100.0% occupancy, grid 1954 CTAs
- --fixed-block-size: the kernel's bound, 512 threads (.maxntid), is its block size
- 512 threads reach the highest occupancy: 4 CTAs per SM, 100.0%" ] ||
    fail "--fixed-block-size: $(sed -n '/1\. Occ/,/3\. Tail/p' "$work/fixed.txt")"
expect 0 "" $tpl --arch sm_90 --kernel 'stage<512>' --fixed-block-size --format json
"$CHECK_SCHEMA" "$work/out" || fail "--fixed-block-size: the JSON does not match the schema"
[ "$(json "$work/out" by '"pin":') $(json "$work/out" namespace '"pin":') $(json "$work/out" threads '"pin":')" = \
    '"fixed_block_size" null 512' ] || fail "--fixed-block-size pin: $(grep -A4 '"pin"' "$work/out")"

# The fixed launch and its check, as printed, compile with nvcc beside
# the template (the "(...)" given the kernel's arguments).
code() {
    { cat "$1"
      printf '\nvoid launch_%s(const float *in, float *out, int n)\n{\n' "$2"
      section "$3" 5 | sed 's/(\.\.\.)/(in, out, n)/'
      section "$3" 7
      printf '    (void)blocks;\n}\n'; } >"$work/$2.cu"
    "$nvcc" -c -arch=sm_90 -o "$work/$2.o" "$work/$2.cu" 2>"$work/nvcc.err" ||
        fail "$2: the printed host code does not compile: $(cat "$work/nvcc.err")"
}
[ "$(section "$work/fixed.txt" 5 | head -1)" = "stage<512><<<1954, 512, 0>>>(...);" ] ||
    fail "--fixed-block-size launch: $(section "$work/fixed.txt" 5)"
code $tpl stage "$work/fixed.txt"

# A namespace of the user's: tiles::blur keeps its bound (512, where it
# would be 256), tiles::fill (no bound) is the library's to size, and
# sharpen, outside it, is chosen for as before.
expect 0 "" $ns --arch sm_90 --format json
before=$(awk '$1 == "\"launch_name\":" { k = $2 } $1 == "\"selected\":" { s = 1 }
              s && $1 == "\"threads\":" { printf "%s%s=%s", n++ ? " " : "", k, $2; s = 0 }' "$work/out")
[ "$before" = '"sharpen",=256, "tiles::blur",=256, "tiles::fill",=256,' ] ||
    fail "without --fixed-namespace: $before"
expect 0 "" $ns --arch sm_90 --fixed-namespace tiles --kernel 'tiles::blur' --work 1000000
cp "$work/out" "$work/blur.txt"
[ "$(section "$work/blur.txt" 2)" = "block 512 threads, 4 CTAs per SM, 100.0% occupancy, grid 1954 CTAs
- fixed by the library (tiles::): 512 threads, the size its launch bounds state; an API contract or the algorithm's decomposition fixes a library's launch, so the advice keeps to what its tuning policy can change (registers, shared memory, stages)
- 512 threads reach the highest occupancy: 4 CTAs per SM, 100.0%" ] ||
    fail "--fixed-namespace tiles, tiles::blur: $(section "$work/blur.txt" 2)"
code $ns blur "$work/blur.txt"
# A trailing :: is the same namespace; a prefix of a name is not one.
expect 0 "" $ns --arch sm_90 --fixed-namespace tiles:: --fixed-namespace til --format json
"$CHECK_SCHEMA" "$work/out" || fail "--fixed-namespace: the JSON does not match the schema"
got=$(awk '$1 == "\"launch_name\":" { k = $2 }
           $1 == "\"by\":" { printf "%s%s%s", n++ ? " " : "", k, $2 }' "$work/out")
[ "$got" = '"tiles::blur","library", "tiles::fill","library_decides",' ] ||
    fail "--fixed-namespace tiles:: pins: $got"
[ "$(pin_of "$work/out" tiles::blur)" = '"library" "tiles" 512' ] &&
    [ "$(pin_of "$work/out" tiles::fill)" = '"library_decides" "tiles" null' ] &&
    [ "$(pin_of "$work/out" sharpen)" = "" ] ||
    fail "pins: blur $(pin_of "$work/out" tiles::blur), fill $(pin_of "$work/out" tiles::fill), sharpen $(pin_of "$work/out" sharpen)"
expect 0 "" $ns --arch sm_90 --fixed-namespace tiles --kernel 'tiles::fill'
[ "$(section "$work/out" 2 | sed -n 2p)" = "- the library (tiles::) decides this kernel's block size, which no launch bound states: the table and the selection are for information, not a launch to impose on the library" ] &&
    [ "$(section "$work/out" 4)" = "registers do not hold occupancy back here, and the block size is the library's (tiles::) to choose" ] ||
    fail "tiles::fill: $(section "$work/out" 2) / $(section "$work/out" 4)"

# CUB from the toolkit: DeviceReduceKernel runs at its policy's bound,
# the .maxntid of nvcc's PTX for each target.
"$SILK_OCC" report $cub --arch sm_80,sm_90,sm_120 --format json >"$work/cub.json" 2>"$work/err" ||
    fail "CUB: exit $?: $(cat "$work/err")"
"$CHECK_SCHEMA" "$work/cub.json" || fail "CUB: the JSON does not match the schema"
for arch in sm_80 sm_90 sm_120; do
    "$nvcc" -ptx -arch=$arch -o "$work/cub_$arch.ptx" $cub || fail "nvcc -ptx $cub for $arch"
    bound=$(awk '/\.entry .*DeviceReduceKernel/ { on = 1 } on && /\.maxntid/ { gsub(/[^0-9 ]/, ""); print $1; exit }' \
        "$work/cub_$arch.ptx")
    got=$(awk -v arch="\"$arch\"," '
        $1 == "\"launch_name\":" { k = $2 } $1 == "\"arch\":" { a = $2 } $1 == "\"pin\":" { p = 1 }
        p && $1 == "\"by\":" { by = $2 } p && $1 == "\"namespace\":" { nsp = $2 }
        p && $1 == "\"threads\":" { if (a == arch && k ~ /::DeviceReduceKernel</) print by nsp $2; p = 0 }' \
        "$work/cub.json")
    [ "$got" = "\"library\",\"cub\",$bound" ] || fail "CUB DeviceReduceKernel on $arch: $got; .maxntid $bound"
    sel=$(awk -v arch="\"$arch\"," '
        $1 == "\"launch_name\":" { k = $2 } $1 == "\"arch\":" { a = $2 } $1 == "\"selected\":" { s = 1 }
        s && $1 == "\"threads\":" { if (a == arch && k ~ /::DeviceReduceKernel</) print $2; s = 0 }' "$work/cub.json")
    [ "$sel" = "$bound," ] || fail "CUB DeviceReduceKernel on $arch: selected $sel, bound $bound"
    got=$(awk -v arch="\"$arch\"," '
        $1 == "\"launch_name\":" { k = $2 } $1 == "\"arch\":" { a = $2 } $1 == "\"pin\":" { p = 1 }
        p && $1 == "\"by\":" { if (a == arch && k ~ /EmptyKernel/) print $2; p = 0 }' "$work/cub.json")
    [ "$got" = '"library_decides",' ] || fail "CUB EmptyKernel on $arch: pin $got"
done
[ "$(grep -c '"fixed_by_library"' "$work/cub.json")" = 9 ] ||
    fail "CUB: fixed_by_library $(grep -c '"fixed_by_library"' "$work/cub.json") times, want 9 (3 bounded kernels x 3 targets)"
! grep -q '"bounded_size"' "$work/cub.json" || fail "CUB: a library kernel is still given bounded_size"

[ $failures = 0 ] || exit 1
echo "PASS: pins.sh"
