#!/bin/sh
# errors.sh: `silk-occ report` on bad input: each case's exact stderr and
# exit status (2 for a bad command line or input, 3 when ptxas is needed
# and missing), never a crash; the --expect options' exit status (1, one
# line per kernel and target that falls short); and a .ptx input giving the
# numbers of its own `ptxas -v`.  Cases that need ptxas are skipped (and
# the script exits 77 after the others) without it.  Run by make check,
# which sets SILK_OCC and SILK_SRCDIR.
set -u
: "${SILK_OCC:?}" "${SILK_SRCDIR:?}"
cd "$SILK_SRCDIR" || exit 99
# shellcheck source=tests/report/lib.sh
. tests/report/lib.sh
skipped=0
ptx=tests/report/inputs/kernels.ptx

expect 2 "$P give one or more files (.silk, .ptx, .cu, .cubin, .hsaco, a built binary or a report's .json), or --compile-commands"
expect 2 "$P --jobs: only with --compile-commands (a project's units are what compile in parallel)" --jobs 2 x.ptx
expect 2 "$P nofile.silk: cannot read: No such file or directory" nofile.silk
expect 2 "$P nofile.ptx: cannot read: No such file or directory" nofile.ptx
expect 2 "$P README.md: not a .silk, .ptx, .cu, .cubin or .hsaco file, nor a built binary (an ELF executable, shared object or object, a static archive, a .fatbin) (the report reads those kinds)" README.md
expect 2 "$P --work: '0' is too small (at least 1)" examples/saxpy.silk --work 0
expect 2 "$P --work: '9223372036854775808' is too large (at most 9223372036854775807)" \
    examples/saxpy.silk --work 9223372036854775808
expect 2 "$P --work: '-5' is negative (at least 1)" examples/saxpy.silk --work -5
expect 2 "$P --arch: unknown architecture 'sm_99' (did you mean 'sm_90'?); 'silk-occ arch list' lists them" \
    examples/saxpy.silk --arch sm_99
expect 2 "$P --gpu: 'sm_90' is an architecture, not a GPU product: use --arch sm_90" \
    examples/saxpy.silk --gpu sm_90
expect 2 "$P sm_70: not a target of the compiler and ptxas (sm_75 and later)" \
    examples/saxpy.silk --arch sm_90,sm_70
expect 2 "$P --arch, --gpu and --all: give one of them" examples/saxpy.silk --arch sm_90 --gpu l4
expect 2 "$P --block-sizes: '2000' is too large (at most 1024)" examples/saxpy.silk --block-sizes 2000
expect 2 "$P --block-sizes: at most 10 more sizes" examples/saxpy.silk --block-sizes 1,2,3,4,5,6,7,8,9,10,11
expect 2 "$P --dyn-smem '4*thread': 1:3: unknown name 'thread' (the names are 'threads' and 'warps'; did you mean 'threads'?)" \
    examples/saxpy.silk --dyn-smem '4*thread'
expect 2 "$P --dyn-smem '(1': 1:3: missing ')' to close the '(' at 1:1" examples/saxpy.silk --dyn-smem '(1'
expect 2 "$P --work: '0' is too small (at least 1)" examples/saxpy.silk --work 0x5
expect 2 "$P --work: '' is not a number" examples/saxpy.silk --work 5x
expect 2 "$P --work 100000000x100000000: more than 2^53 work items" \
    examples/saxpy.silk --work 100000000x100000000
expect 2 "$P --block-sizes: 'x' is not a number" examples/saxpy.silk --block-sizes 64,x
expect 2 "$P --format: 'xml' is not a format (text, json, csv, markdown)" examples/saxpy.silk --format xml
expect 2 "$P --format: 'md' is not a format (text, json, csv, markdown)" examples/saxpy.silk --format md
expect 2 "$P --expect-occupancy: '120' is not a percentage above 0 and at most 100" \
    examples/saxpy.silk --expect-occupancy 120
expect 2 "$P --expect-blocks-per-sm: '0' is too small (at least 1)" \
    examples/saxpy.silk --expect-blocks-per-sm 0
expect 2 "$P unknown option '--bogus'; 'silk-occ help report' lists them" examples/saxpy.silk --bogus

# A Silk file with errors: the compiler's diagnostics, exit 1.
printf 'kernel k(n: u64) {\n  let x = y\n}\n' >"$work/bad.silk"
"$SILK_OCC" report "$work/bad.silk" --arch sm_90 >/dev/null 2>"$work/err"
status=$?
[ $status = 1 ] || fail "Silk with errors: exit $status, want 1"
grep -q "bad.silk:2:11: error: unknown name 'y'" "$work/err" || fail "Silk with errors: $(cat "$work/err")"
printf '// no kernels\n' >"$work/empty.silk"
expect 2 "$P the input has no kernels" "$work/empty.silk" --arch sm_90

# PTX needs ptxas: exit 3 when there is none.
SILK_PTXAS=none "$SILK_OCC" report "$ptx" --arch sm_80 >/dev/null 2>"$work/err"
status=$?
[ $status = 3 ] || fail "PTX without ptxas: exit $status, want 3"
[ "$(cat "$work/err")" = "$P $ptx: PTX input needs ptxas for its register counts, and none was found (put the CUDA toolkit's bin on PATH, or set SILK_PTXAS)" ] ||
    fail "PTX without ptxas: stderr $(cat "$work/err")"

# A Silk file does not: the estimate, marked so, and the expect options.
SILK_PTXAS=none expect 0 "" examples/saxpy.silk --arch sm_90 --work 1000
grep -q "16 registers per thread (estimated: no ptxas)" "$work/out" ||
    SILK_PTXAS=none "$SILK_OCC" report examples/saxpy.silk --arch sm_90 | grep -q "(estimated: no ptxas)" ||
    fail "the estimate is not marked: $(head -2 "$work/out")"
SILK_PTXAS=none expect 0 "" examples/saxpy.silk --arch sm_90 --expect-blocks-per-sm 8 --expect-occupancy 100
SILK_PTXAS=none expect 1 "$P saxpy on sm_90: 8 CTAs per SM at 256 threads, below --expect-blocks-per-sm 9" \
    examples/saxpy.silk --arch sm_90 --expect-blocks-per-sm 9
SILK_PTXAS=none expect 1 "$P saxpy on sm_86: 6 CTAs per SM at 256 threads, below --expect-blocks-per-sm 8" \
    examples/saxpy.silk --arch sm_86,sm_90 --expect-blocks-per-sm 8
SILK_PTXAS=none expect 1 "$P sgemm on sm_80: 6 CTAs per SM at 256 threads, below --expect-blocks-per-sm 7
$P sgemm on sm_80: 75.0% occupancy at 256 threads, below --expect-occupancy 80%" \
    examples/sgemm.silk --arch sm_80 --expect-blocks-per-sm 7 --expect-occupancy 80

"$SILK_OCC" report "$ptx" --arch sm_80 >/dev/null 2>&1
if [ $? -eq 3 ]; then
    echo "SKIP: errors.sh: no ptxas: the PTX cases did not run"
    [ $failures = 0 ] && exit 77
    exit 1
fi

expect 2 "$P --kernel: no kernel matches 'nope*' (the kernels: free_saxpy, bounded_saxpy, fixed_saxpy)" \
    "$ptx" --arch sm_80 --kernel 'nope*'
printf '.version 7.0\n.target sm_80\n.address_size 64\n.visible .entry bad()\n{\n\tfoo.bar %%r1;\n\tret;\n}\n' >"$work/bad.ptx"
"$SILK_OCC" report "$work/bad.ptx" --arch sm_80 >/dev/null 2>"$work/err"
status=$?
[ $status = 2 ] || fail "rejected PTX: exit $status, want 2"
head -1 "$work/err" | grep -qx "$P ptxas rejected $work/bad.ptx for sm_80:" ||
    fail "rejected PTX: first line $(head -1 "$work/err")"
grep -q "Not a name of any known instruction: 'foo'" "$work/err" ||
    fail "rejected PTX: ptxas's message not shown: $(cat "$work/err")"

# The .ptx input gives the numbers of its own ptxas -v.
ptxas=${SILK_PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
"$ptxas" -v --gpu-name sm_86 -o /dev/null "$ptx" 2>"$work/v" || fail "ptxas -v on $ptx"
for k in free_saxpy bounded_saxpy fixed_saxpy; do
    want=$(awk -v k="'$k'" '$0 ~ "Compiling entry function " k { on = 1; next }
        on && /Used/ { for (i = 1; i <= NF; i++) if ($i == "Used") print $(i + 1); exit }' "$work/v")
    "$SILK_OCC" report "$ptx" --arch sm_86 --kernel "$k" >"$work/out" 2>&1 || fail "report $k"
    grep -q "^  $want registers per thread (ptxas -v)" "$work/out" ||
        fail "$k: ptxas -v says $want registers; the report: $(sed -n 2p "$work/out")"
done
# C++ kernels: --kernel matches the symbol, the demangled name or the
# name a launch uses; the error lists the launch names.
dyn=tests/report/inputs/dynamic.ptx
for glob in '_Z5scale*' 'void scale<8>(float\*, int)' 'scale<*>'; do
    expect 0 "" "$dyn" --arch sm_80 --kernel "$glob"
    [ "$(grep -c ') on sm_80 (' "$work/out")" = 1 ] && grep -q '^scale<8>(float\*, int) ' "$work/out" ||
        fail "--kernel '$glob': want only scale<8>: $(grep ') on sm_80 (' "$work/out")"
done
expect 2 "$P --kernel: no kernel matches 'nope' (the kernels: scale<8>, plain)" "$dyn" --arch sm_80 --kernel nope
# 1-D work past gridDim.x folds into a 2-D grid while gridDim.y holds it,
# and past that the host code is a grid-stride launch, never a dim3 that
# the architecture refuses (gridDim.y <= 65535).
expect 0 "" "$dyn" --arch sm_80 --kernel plain --work 3602879701896396
grep -qxF '     plain<<<dim3(2147483647, 6554), 256, 0>>>(...);  // 2-D: index = blockIdx.y * gridDim.x + blockIdx.x' \
    "$work/out" || fail "a folded 2-D grid: $(grep '<<<' "$work/out")"
expect 0 "" "$dyn" --arch sm_80 --kernel plain --work 36028797018963968
grep -qxF '     plain<<<2147483647, 256, 0>>>(...);  // a grid-stride loop: the work needs more CTAs than gridDim.x x gridDim.y' \
    "$work/out" || fail "a grid past gridDim.y: $(grep '<<<' "$work/out")"
grep -q "above what a 2-D grid holds" "$work/out" || fail "a grid past gridDim.y: $(grep -A1 '6. Grid' "$work/out")"
# --dyn-smem is evaluated at each block size of a kernel that declares
# dynamic shared memory, and must have a value there.
expect 2 "$P --dyn-smem '4*threads-4096': at 64 threads (scale<8>): 1:10: 256 - 4096 is negative" \
    "$dyn" --arch sm_80 --dyn-smem '4*threads-4096'
expect 2 "$P --dyn-smem '8192/(threads-64)': at 64 threads (scale<8>): 1:5: division by zero (8192 / 0)" \
    "$dyn" --arch sm_80 --dyn-smem '8192/(threads-64)'
expect 0 "" "$dyn" --arch sm_80 --dyn-smem 'threads-64' --kernel plain
# --param names what --dyn-smem may use, in any order of the options: the
# report is the one of the same expression with the values written in.
expect 2 "$P --dyn-smem 'BK*STAGES*1K': 1:4: unknown name 'STAGES' (known: threads, warps, BK, STAGE); did you mean 'STAGE'?" \
    "$dyn" --arch sm_80 --dyn-smem 'BK*STAGES*1K' --param BK=2 --param STAGE=3
expect 2 "$P --param: 'warps=2': the name is built in (the block's threads and warps)" \
    "$dyn" --arch sm_80 --param warps=2
expect 2 "$P --param BK: 'x' is not a number" "$dyn" --arch sm_80 --param BK=x
expect 0 "" "$dyn" --arch sm_80 --format json --dyn-smem '4*threads+2K'
mv "$work/out" "$work/literal.json"
expect 0 "" "$dyn" --arch sm_80 --format json --param BK=4 --dyn-smem 'BK*threads+STAGES*1K' --param STAGES=2
cmp -s "$work/out" "$work/literal.json" || fail "--param: the report differs from the literal expression's"
# --kernel takes a glob: two of the three.
"$SILK_OCC" report "$ptx" --arch sm_86 --kernel '*ed_saxpy' | grep -c "^[a-z_]* (tests" >"$work/n"
[ "$(cat "$work/n")" = 2 ] || fail "--kernel '*ed_saxpy' matched $(cat "$work/n") kernels, want 2"

# The register-cap check has a budget: 65 register-limited kernels (roomy of
# pressure.silk, renamed) are reported with their caps unchecked, and
# --check-caps compiles them all, one ptxas run for the file.
silkc=$(dirname "$SILK_OCC")/silkc
if "$silkc" compile tests/data/silk/pressure.silk --arch sm_90 -Wno-spill -Wno-occ-limit \
        -o "$work/pressure.ptx" 2>/dev/null; then
    awk '/^\.visible \.entry roomy\(/ { on = 1 } on { body = body $0 "\n" } !on { print }
         on && /^}/ { on = 0 }
         END { for (i = 0; i < 65; i++) { b = body; sub(/roomy/, "roomy" i, b); gsub(/roomy_param/, "roomy" i "_param", b); printf "%s", b } }' \
        "$work/pressure.ptx" >"$work/many.ptx"
    NO_COLOR=1 "$SILK_OCC" report "$work/many.ptx" --arch sm_90 --kernel 'roomy*' >"$work/out" 2>&1 ||
        fail "report of 65 kernels: $(tail -1 "$work/out")"
    n=$(grep -c "more kernels to check than a report compiles again; --check-caps checks them all" "$work/out")
    [ "$n" = 65 ] || fail "over the budget: $n caps marked unchecked, want 65"
    NO_COLOR=1 "$SILK_OCC" report "$work/many.ptx" --arch sm_90 --kernel 'roomy*' --check-caps \
        >"$work/out" 2>&1 || fail "report --check-caps: $(tail -1 "$work/out")"
    n=$(grep -c "ptxas at that cap: 48 registers, spills 68 B stored / 72 B loaded" "$work/out")
    [ "$n" = 65 ] || fail "--check-caps: $n caps checked, want 65"
else
    fail "silkc compile tests/data/silk/pressure.silk"
fi

[ $failures = 0 ] || { echo "$failures failures"; exit 1; }
exit 0
