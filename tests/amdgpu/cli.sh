#!/bin/sh
# cli.sh: silkc for the AMD targets (issue 15).  Without llc: the
# lowering's rules in the LLVM IR (the 32-lane Silk warp inside half a
# wave64, a whole wave32; @launch as the attributes, on all four
# targets), the --emit kinds each vendor has, and a missing or broken
# llc or ld.lld said in one line (exit 3), never an estimate.  With
# llc-19 and ld.lld-19: the .hsaco outputs, named per target, and
# --resource-usage agreeing field by field with llvm-readobj-19's reading
# of the same code object.  Exits 77 after the first part when llc-19,
# ld.lld-19 or llvm-readobj-19 is missing.  Run by make check (SILKC,
# SILK_SRCDIR).
set -u
silkc=${SILKC:-$PWD/src/silkc}
srcdir=${SILK_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
golden=$srcdir/tests/amdgpu/golden
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
status=0
fail() { echo "FAIL: $*"; status=1; }
E="silkc: error:"

# expect STATUS "STDERR" COMMAND...: the exit status and all of stderr.
expect() {
    want_status=$1 want=$2
    shift 2
    "$@" >out 2>err
    got=$?
    [ "$got" -eq "$want_status" ] || fail "$*: exit $got, want $want_status ($(cat err))"
    [ "$(cat err)" = "$want" ] || fail "$*: stderr
  got:  $(cat err)
  want: $want"
}

# count PATTERN FILE WANT: the lines of FILE matching PATTERN.
count() {
    got=$(grep -c -e "$1" "$2")
    [ "$got" -eq "$3" ] || fail "$2: $got lines match '$1', want $3"
}

llvm_ir() { # ARCH NAME: NAME.ARCH.ll from tests/amdgpu/golden/NAME.silk
    "$silkc" compile --arch "$1" --emit=llvm -o "$2.$1.ll" "$golden/$2.silk" 2>err ||
        fail "$2.silk for $1: $(cat err)"
}

# ---- the warp: 5 shuffles and a ballot (warp.silk) -------------------------------
for arch in gfx90a gfx942; do # wave64: inside the lane's half
    llvm_ir $arch warp
    count '@llvm.amdgcn.ds.bpermute(i32 %t' warp.$arch.ll 5
    count '= and i32 %t[0-9]*, 31$' warp.$arch.ll 5          # the lane in its warp
    count '= and i32 %t[0-9]*, 32$' warp.$arch.ll 6          # its half: 5 shuffles, 1 ballot
    count '= or i32 %t[0-9]*, ' warp.$arch.ll 5             # (lane & 32) | src
    count '= shl i32 %t[0-9]*, 2$' warp.$arch.ll 5           # a byte address
    count 'call i64 @llvm.amdgcn.ballot.i64' warp.$arch.ll 1
    count '= lshr i64 %t[0-9]*, %t[0-9]*$' warp.$arch.ll 1   # shifted down to the half
    count 'mbcnt.hi' warp.$arch.ll 7                         # 6 uses and its declaration
done
for arch in gfx1100 gfx1201; do # wave32: the warp is the wavefront
    llvm_ir $arch warp
    count '@llvm.amdgcn.ds.bpermute(i32 %t' warp.$arch.ll 5
    count '= and i32 %t[0-9]*, 32$' warp.$arch.ll 0
    count 'call i32 @llvm.amdgcn.ballot.i32' warp.$arch.ll 1
    count 'ballot.i64\|mbcnt.hi' warp.$arch.ll 0
    count '"target-features"="+wavefrontsize32"' warp.$arch.ll 1
done

# ---- @launch (launch.silk: 128 threads min 4 CTAs cap 64; 1024 min 2; default 256) ----
for arch in gfx90a gfx942 gfx1100 gfx1201; do
    llvm_ir $arch launch
    case $arch in gfx9*) w128=2 w1024=8 ;; *) w128=4 w1024=16 ;; esac
    count "^attributes #0 = { \"amdgpu-flat-work-group-size\"=\"128,128\" \"amdgpu-waves-per-eu\"=\"$w128\" \"amdgpu-num-vgpr\"=\"64\" \"target-cpu\"=\"$arch\" " launch.$arch.ll 1
    count "^attributes #1 = { \"amdgpu-flat-work-group-size\"=\"1024,1024\" \"amdgpu-waves-per-eu\"=\"$w1024\" \"target-cpu\"=\"$arch\" " launch.$arch.ll 1
    count "^attributes #2 = { \"amdgpu-flat-work-group-size\"=\"256,256\" \"target-cpu\"=\"$arch\" " launch.$arch.ll 1
done

# ---- the --emit kinds of each vendor ----------------------------------------------
cp "$golden/arith.silk" k.silk
expect 2 "$E --emit=cubin: gfx942 is an AMD target (--emit=cubin is for NVIDIA targets)" \
    "$silkc" compile --arch gfx942 --emit=cubin k.silk
expect 2 "$E --emit=header: gfx1100 is an AMD target (--emit=header is for NVIDIA targets)" \
    "$silkc" compile --arch sm_90,gfx1100 --emit=header k.silk
expect 2 "$E --emit=llvm: sm_90 is an NVIDIA target (--emit=llvm is for AMD targets)" \
    "$silkc" compile --arch gfx942,sm_90 --emit=llvm k.silk
expect 2 "$E --arch: unknown target 'gfx900' (sm_75 to sm_121, gfx90a, gfx942, gfx1100, gfx1201)" \
    "$silkc" compile --arch gfx900 k.silk
expect 2 "$E --emit: 'hsaco' is not ptx, ir, cubin, header or llvm; 'silkc --help' shows usage" \
    "$silkc" compile --arch gfx942 --emit=hsaco k.silk

# ---- no llc, no ld.lld, a broken one: one line, exit 3, nothing written ----------------
need="(install llvm-19 and lld-19, or set SILK_LLC and SILK_LLD)"
expect 3 "$E gfx942: AMD targets need llc-19 (LLVM 19), and none was found $need" \
    env SILK_LLC=none "$silkc" compile --arch gfx942 k.silk
[ -e k.hsaco ] && fail "a code object was written without llc"
expect 3 "$E gfx1201: AMD targets need ld.lld-19 (LLVM 19), and none was found $need" \
    env SILK_LLD=none "$silkc" compile --arch gfx1201 --resource-usage k.silk
expect 3 "$E /bin/true for gfx942 exited 0 without writing its output file" \
    env SILK_LLC=/bin/true "$silkc" compile --arch gfx942 k.silk
expect 3 "$E /bin/false for gfx90a exited 1 without a message" \
    env SILK_LLC=/bin/false "$silkc" compile --arch gfx90a k.silk
expect 0 "" env SILK_LLC=none "$silkc" compile --arch gfx942 --emit=llvm k.silk
[ -s k.ll ] || fail "--emit=llvm wrote no k.ll without llc"
expect 0 "" env SILK_LLC=none "$silkc" check --arch gfx942 k.silk

llc=$(command -v llc-19) lld=$(command -v ld.lld-19) readobj=$(command -v llvm-readobj-19)
if [ -z "$llc" ] || [ -z "$lld" ] || [ -z "$readobj" ]; then
    [ $status -eq 0 ] || exit $status
    echo "SKIP: the code object tests: llc-19, ld.lld-19 or llvm-readobj-19 not found (install llvm-19 and lld-19)"
    exit 77
fi

# ---- code objects: names, and the figures llvm-readobj-19 reads in them -----------------
expect 0 "" "$silkc" compile --arch gfx942 k.silk
[ "$(head -c 4 k.hsaco | od -An -c | tr -d ' ')" = "177ELF" ] || fail "k.hsaco is not an ELF file"
expect 0 "" "$silkc" compile --arch gfx90a,gfx942,gfx1100,gfx1201,sm_90 -Wno-occ-low -Wno-occ-limit \
    -Wno-spill -Wno-tail -Wno-block-size k.silk
for t in gfx90a gfx942 gfx1100 gfx1201; do
    [ -s k.$t.hsaco ] || fail "no k.$t.hsaco"
done
[ -s k.sm_90.ptx ] || fail "no k.sm_90.ptx beside the code objects"
"$silkc" compile --arch gfx942 -o - k.silk >stdout.hsaco 2>err || fail "-o - for gfx942: $(cat err)"
cmp -s stdout.hsaco k.hsaco || fail "-o - did not write the same code object as -o k.hsaco"

# field KEY FILE: KEY's value in llvm-readobj-19's reading of the code object.
field() { "$readobj" --notes "$2" | sed -n "s/^[ -]*\\$1: *//p" | head -n 1; }
cp "$golden/shared.silk" s.silk
for t in gfx90a gfx942 gfx1100 gfx1201; do
    "$silkc" compile --arch $t --resource-usage --format json -o s.$t.hsaco s.silk >s.$t.json 2>err ||
        fail "s.silk for $t: $(cat err)"
    for pair in vgprs:.vgpr_count sgprs:.sgpr_count lds:.group_segment_fixed_size \
                scratch:.private_segment_fixed_size wavefront_size:.wavefront_size \
                vgpr_spills:.vgpr_spill_count sgpr_spills:.sgpr_spill_count; do
        key=${pair%%:*} note=${pair#*:}
        want=$(field "$note" s.$t.hsaco)
        got=$(jq -r ".kernels[0].$key" s.$t.json)
        [ -n "$want" ] && [ "$got" = "$want" ] || fail "$t: $key is $got, llvm-readobj-19 reads $note $want"
    done
done
[ "$(jq -r '.kernels[0].lds' s.gfx942.json)" = 1024 ] || fail "shared.silk's u32[256] is not 1024 bytes of LDS"
[ "$(jq -r '.kernels[0].wavefront_size' s.gfx1201.json)" = 32 ] || fail "gfx1201 is not wave32"
"$silkc" compile --arch gfx942 --resource-usage -o s.hsaco s.silk >table 2>err || fail "table: $(cat err)"
[ "$(sed -n 1p table)" = "target   kernel                   vgprs agprs sgprs    lds scratch wave vgpr spills sgpr spills" ] ||
    fail "the AMD table's heading: $(sed -n 1p table)"
row=$(printf '%-8s %-24s %5s %5s %5s %6s %7s %4s %11s %11s' gfx942 k "$(field .vgpr_count s.hsaco)" \
      "$(field .agpr_count s.hsaco)" "$(field .sgpr_count s.hsaco)" 1024 0 64 0 0)
[ "$(sed -n 2p table)" = "$row" ] || fail "the AMD table's row:
  got:  $(sed -n 2p table)
  want: $row"
exit $status
