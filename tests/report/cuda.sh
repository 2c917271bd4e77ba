#!/bin/sh
# cuda.sh: `silk-occ report` on CUDA input: one kernel
# (tests/report/inputs/tile_sum.cu) given as .cu, as .ptx (nvcc -ptx) and
# as .cubin (ptxas -o) must give the registers and shared memory of its
# own `ptxas -v` and the CTAs per SM `silk-occ calc` computes from them;
# a cubin reported for targets that cannot run it (and for its own without
# a target); spills and the minimum CTAs per SM, which a cubin does not
# record, shown as unknown (the .cu, measured on nvcc -ptx's PTX, has
# them); a golden text report of the cubin; and the errors: no nvcc (exit
# 3), a file named .cubin that is not an ELF (exit 2), a .cu that nvcc
# rejects (nvcc's message, exit 2: an input error), a bad --nvcc-flags;
# a hostile .cu name and directory (no command run, the user's names in
# nvcc's messages), and nvcc's tmpxft files in silk-occ's own directory.
# Without nvcc or ptxas the cases that need them are skipped (exit 77).
# UPDATE=1 rewrites the golden file.  Run by make check, which sets
# SILK_OCC, SILK_SRCDIR and CHECK_SCHEMA.
#
# Checked by hand, this tree, CUDA 13.0: ptxas -v says tile_sum on sm_80
# uses 80 registers, 24608 bytes smem, 1 barrier; `silk-occ calc --arch
# sm_80 --threads 256 --regs 80 --smem 24608` gives 3 CTAs per SM,
# registers limiting (20480 registers per CTA of 65536; shared memory
# allows 6 of 25.12 KiB, warps 8), 37.5%: the row "> 256 3 6 8 32 3
# 37.5% registers" of golden/tile-sum-cubin.txt; at 64 threads shared
# memory limits, 6 CTAs, 18.8%.
set -u
: "${SILK_OCC:?}" "${SILK_SRCDIR:?}" "${CHECK_SCHEMA:?}"
cd "$SILK_SRCDIR" || exit 99
# shellcheck source=tests/report/lib.sh
. tests/report/lib.sh
cu=tests/report/inputs/tile_sum.cu
golden=tests/report/golden/tile-sum-cubin.txt

# json FILE KEY [AFTER]: the value of the first "KEY" (after the first
# line holding AFTER) in silk-occ's indented JSON.
json() {
    awk -v key="\"$2\":" -v after="${3:-}" '
        after != "" && !on && index($0, after) { on = 1; next }
        (after == "" || on) && $1 == key { v = $2; sub(/,$/, "", v); print v; exit }' "$1"
}

# Without a tool: no nvcc is one line and exit 3; a file that is not a
# cubin is the reader's line and exit 2.
SILK_NVCC=none expect 3 "$P $cu: CUDA input needs nvcc, and none was found (put the CUDA toolkit's bin on PATH, or set SILK_NVCC)" \
    "$cu" --arch sm_80
cp README.md "$work/readme.cubin"
expect 2 "$P $work/readme.cubin: not an ELF file" "$work/readme.cubin" --arch sm_80
expect 2 "$P nofile.cubin: cannot read: No such file or directory" nofile.cubin --arch sm_80

nvcc=${SILK_NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ptxas=${SILK_PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
if [ ! -x "$nvcc" ] || [ ! -x "$ptxas" ]; then
    echo "SKIP: cuda.sh: no nvcc or no ptxas ($nvcc, $ptxas): the .cu, .ptx and .cubin cases did not run"
    [ $failures = 0 ] && exit 77
    exit 1
fi
expect 2 "$P nofile.cu: cannot read: No such file or directory" nofile.cu --arch sm_80
# A .cu that is no regular file (nvcc would read /dev/zero forever).
ln -s /dev/zero "$work/zero.cu"
expect 2 "$P $work/zero.cu: not a regular file (nvcc compiles files)" "$work/zero.cu" --arch sm_80

# The same kernel three ways, and its own ptxas -v.
"$nvcc" -ptx -arch=sm_80 -o "$work/tile_sum.ptx" "$cu" || fail "nvcc -ptx $cu"
"$ptxas" -v --gpu-name sm_80 -o "$work/tile_sum.cubin" "$work/tile_sum.ptx" 2>"$work/v" ||
    fail "ptxas -v $work/tile_sum.ptx"
regs=$(awk '/Used/ { for (i = 1; i <= NF; i++) if ($i == "Used") print $(i + 1) }' "$work/v")
smem=$(awk '/bytes smem/ { for (i = 2; i <= NF; i++) if ($i == "smem" || $i == "smem,") print $(i - 2) }' "$work/v")
"$SILK_OCC" calc --arch sm_80 --threads 256 --regs "$regs" --smem "$smem" --format json >"$work/calc"
ctas=$(json "$work/calc" active_blocks_per_sm)
[ "$regs" = 80 ] && [ "$smem" = 24608 ] && [ "$ctas" = 3 ] ||
    echo "note: ptxas -v gives $regs registers, $smem B smem, $ctas CTAs/SM (CUDA 13.0: 80, 24608, 3)"
for input in "$cu" "$work/tile_sum.ptx" "$work/tile_sum.cubin"; do
    name=${input##*/}
    "$SILK_OCC" report "$input" --arch sm_80 --format json >"$work/$name.json" 2>"$work/err" ||
        { fail "$name: exit $?: $(cat "$work/err")"; continue; }
    "$CHECK_SCHEMA" "$work/$name.json" || fail "$name: the JSON does not match the schema"
    got="$(json "$work/$name.json" regs_per_thread) $(json "$work/$name.json" static_smem)"
    got="$got $(json "$work/$name.json" threads '"selected":')"
    got="$got $(json "$work/$name.json" active_blocks_per_sm '"selected":')"
    [ "$got" = "$regs $smem 256 $ctas" ] ||
        fail "$name: registers, smem, threads, CTAs/SM: $got; ptxas -v and calc: $regs $smem 256 $ctas"
    case $name in
    *.cubin) want="null null null" ;; # a cubin records no spills nor .minnctapersm
    *) want="0 0 2" ;;                # ptxas -v on the PTX (nvcc -ptx's, for .cu)
    esac
    got="$(json "$work/$name.json" spill_stores) $(json "$work/$name.json" spill_loads)"
    got="$got $(json "$work/$name.json" minnctapersm)"
    [ "$got" = "$want" ] || fail "$name: spills and minnctapersm $got, want $want"
done
# The tools behind the figures, as their own --version says: nvcc and
# ptxas for the .cu, ptxas alone for the PTX, neither for the cubin.
release=$("$ptxas" --version | sed -n 's/.*release [0-9.]*, V\([0-9.]*\).*/"\1"/p')
for case in "tile_sum.cu $release $release" "tile_sum.ptx $release null" \
    "tile_sum.cubin null null"; do
    set -- $case
    got="$(json "$work/$1.json" ptxas '"tool":') $(json "$work/$1.json" nvcc '"tool":')"
    [ "$got" = "$2 $3" ] || fail "$1: tool.ptxas and tool.nvcc: $got, want $2 $3"
done
[ "$(json "$work/tile_sum.cubin.json" maxnreg)" = 128 ] ||
    fail "the cubin's register cap: $(json "$work/tile_sum.cubin.json" maxnreg), want 128 (64K / (256 x 2))"

# The text report of the cubin: spills and minimum CTAs unknown (golden,
# run from its directory so that the file name is short).
(cd "$work" && NO_COLOR=1 "$SILK_OCC" report tile_sum.cubin --arch sm_80,sm_86 --work 1000000) \
    >"$work/cubin.txt" 2>"$work/err" || fail "cubin text report: $(cat "$work/err")"
if [ "${UPDATE:-0}" = 1 ]; then
    cp "$work/cubin.txt" "$golden"
elif ! diff -u "$golden" "$work/cubin.txt"; then
    fail "$golden differs (UPDATE=1 rewrites it)"
fi

# An sm_80 cubin runs on 8.x from 8.0 on: reported for sm_86, skipped for
# sm_75 and sm_90 with a warning, an error when no target runs it.
cubin=$work/tile_sum.cubin
expect 0 "silk-occ report: warning: $cubin: a cubin for sm_80 runs only on compute capability 8.0 to 8.9: not reported for sm_75, sm_90" \
    "$cubin" --arch sm_75,sm_86,sm_90 --format json
[ "$(grep -c '"arch":' "$work/out")" = 1 ] && [ "$(json "$work/out" arch)" = '"sm_86"' ] ||
    fail "sm_80 cubin for sm_75,sm_86,sm_90: want one report, for sm_86: $(grep '"arch":' "$work/out")"
expect 2 "$P $cubin: a cubin for sm_80, which none of the targets (sm_90) runs: give --arch sm_80" \
    "$cubin" --arch sm_90
# Given only cubins and no target: their own architectures, nothing said.
expect 0 "" "$cubin" --format json
[ "$(grep -c '"arch":' "$work/out")" = 1 ] && [ "$(json "$work/out" arch)" = '"sm_80"' ] ||
    fail "sm_80 cubin without a target: want one report, for sm_80: $(grep '"arch":' "$work/out")"
# Without ptxas a cubin is still reported (it needs none).
SILK_PTXAS=none expect 0 "" "$cubin" --arch sm_80

# Relocatable code: the caller of another file's function (tests/cuda),
# as a relocatable cubin (static __shared__ in a section that is no file
# data, the callee an undefined symbol) and as a .cu compiled with
# -rdc=true (its PTX assembled with ptxas -c): the figures of ptxas -c -v,
# and the cubin's kernel marked as measured before linking.
rdc=tests/cuda/rdc_caller.cu
"$nvcc" -cubin -rdc=true -arch=sm_90 -o "$work/rdc.cubin" "$rdc" || fail "nvcc -cubin -rdc=true $rdc"
"$nvcc" -ptx -rdc=true -arch=sm_90 -o "$work/rdc.ptx" "$rdc" || fail "nvcc -ptx -rdc=true $rdc"
"$ptxas" -c -v --gpu-name sm_90 -o /dev/null "$work/rdc.ptx" 2>"$work/v" || fail "ptxas -c -v $work/rdc.ptx"
regs=$(awk '/Used/ { for (i = 1; i <= NF; i++) if ($i == "Used") print $(i + 1) }' "$work/v")
smem=$(awk '/bytes smem/ { for (i = 2; i <= NF; i++) if ($i == "smem" || $i == "smem,") print $(i - 2) }' "$work/v")
expect 0 "" "$work/rdc.cubin" --arch sm_90 --format json
got="$(json "$work/out" regs_per_thread) $(json "$work/out" static_smem) $(json "$work/out" registers_before_linking)"
[ "$got" = "$regs ${smem:-0} true" ] ||
    fail "rdc cubin: registers, smem, before linking: $got; ptxas -c -v: $regs ${smem:-0} true"
expect 0 "" "$rdc" --arch sm_90 --nvcc-flags -rdc=true --format json
got="$(json "$work/out" regs_per_thread) $(json "$work/out" static_smem) $(json "$work/out" spill_stores)"
[ "$(echo "$got" | cut -d' ' -f1-2)" = "$regs ${smem:-0}" ] ||
    fail "rdc .cu: registers, smem: $got; ptxas -c -v: $regs ${smem:-0}"

# A .cu that nvcc rejects: nvcc's own message, exit 2 (an input error);
# --nvcc-flags reach nvcc.
printf '#ifndef N\n#error N is not defined\n#endif\nextern "C" __global__ void k(float *p) { p[0] = N; }\n' \
    >"$work/needs_n.cu"
"$SILK_OCC" report "$work/needs_n.cu" --arch sm_80 >/dev/null 2>"$work/err"
status=$?
[ $status = 2 ] || fail "rejected .cu: exit $status, want 2"
head -1 "$work/err" | grep -qx "$P nvcc rejected $work/needs_n.cu for sm_80:" ||
    fail "rejected .cu: first line $(head -1 "$work/err")"
grep -q "error.*N is not defined" "$work/err" || fail "rejected .cu: nvcc's message not shown: $(cat "$work/err")"
expect 0 "" "$work/needs_n.cu" --arch sm_80 --nvcc-flags "-DN=4 -lineinfo"
grep -q "^k ($work/needs_n.cu) on sm_80" "$work/out" || fail "--nvcc-flags -DN=4: $(head -1 "$work/out")"
expect 2 "$P --nvcc-flags: unterminated ' quote in flags" "$cu" --arch sm_80 --nvcc-flags "-DX='a"

# nvcc runs its host steps through sh -c with the input's name unquoted:
# it is given a copy and a link named by silk-occ.  A hostile file name in
# a hostile directory, including a header beside it, runs nothing (no
# marker), gives the kernel's own numbers, and nvcc's messages name the
# user's files, not the copy.
mkdir "$work/plain" "$work/"'d$(touch marker)'
for d in "$work/plain" "$work/"'d$(touch marker)'; do
    printf '#define N 4\n' >"$d/n.h"
    printf '#include "n.h"\nextern "C" __global__ void k(float *p) { p[0] = N; }\n' >"$d/k.cu"
    printf '#include "n.h"\n#if N == 4\n#error n.h is found\n#endif\n' >"$d/bad.cu"
done
mv "$work/"'d$(touch marker)/k.cu' "$work/"'d$(touch marker)/k$(touch marker).cu'
hostile='d$(touch marker)/k$(touch marker).cu'
(cd "$work" && "$SILK_OCC" report "$hostile" --arch sm_80 >hostile.txt 2>err) ||
    fail "hostile .cu name: exit $?: $(cat "$work/err")"
(cd "$work" && "$SILK_OCC" report plain/k.cu --arch sm_80 >plain.txt 2>&1) || fail "plain/k.cu: exit $?"
[ ! -e "$work/marker" ] || fail "a .cu file's name ran a shell command (the marker exists)"
[ "$(head -1 "$work/hostile.txt")" = "k ($hostile) on sm_80 (Ampere, compute capability 8.0)" ] ||
    fail "hostile .cu name: first line $(head -1 "$work/hostile.txt")"
[ "$(sed 1d "$work/hostile.txt")" = "$(sed 1d "$work/plain.txt")" ] ||
    fail "hostile .cu name: the report differs from the same kernel's as plain/k.cu"
(cd "$work" && "$SILK_OCC" report 'd$(touch marker)/bad.cu' --arch sm_80 >/dev/null 2>err)
[ "$(sed -n 1,2p "$work/err")" = "$P nvcc rejected d\$(touch marker)/bad.cu for sm_80:
d\$(touch marker)/bad.cu:3:2: error: #error n.h is found" ] ||
    fail "hostile dir: nvcc's message: $(cat "$work/err")"
! grep -q -e input.cu -e /inc/ -e tmpxft "$work/err" ||
    fail "nvcc's message names the copy: $(cat "$work/err")"
[ ! -e "$work/marker" ] || fail "a .cu file's directory ran a shell command (the marker exists)"

# nvcc's own temporary files (tmpxft_*) go to silk-occ's private
# directory: with TMPDIR an empty directory, a report ended by SIGTERM
# while nvcc runs leaves it empty.
mkdir "$work/tmp"
TMPDIR=$work/tmp "$SILK_OCC" report "$cu" --arch sm_80,sm_86 >/dev/null 2>&1 &
pid=$!
seen= tries=0
while [ -z "$seen" ] && [ $tries -lt 400 ] && kill -0 $pid 2>/dev/null; do
    seen=$(find "$work/tmp" -name 'tmpxft_*' 2>/dev/null | head -1)
    [ -n "$seen" ] || sleep 0.025
    tries=$((tries + 1))
done
kill -TERM $pid 2>/dev/null
wait $pid
case $seen in
"") fail "nvcc's temporary files: none seen while nvcc ran" ;;
"$work/tmp"/silk-occ-report-*/*) ;;
*) fail "nvcc's temporary file $seen is not in silk-occ's directory" ;;
esac
# nvcc's own children may still be finishing for a moment after silk-occ
# is gone (a busy machine): the directory must be empty within 5 s.
tries=0
while [ -n "$(ls -A "$work/tmp")" ] && [ $tries -lt 50 ]; do
    sleep 0.1
    tries=$((tries + 1))
done
[ -z "$(ls -A "$work/tmp")" ] || fail "SIGTERM during a .cu report left: $(find "$work/tmp")"

[ $failures = 0 ] || { echo "$failures failures"; exit 1; }
exit 0
