#!/bin/sh
# ptx_names.sh: the names a GPU function may have, against ptxas.  PTX
# names a kernel by its Silk name, so a name PTX cannot carry must be
# rejected at the source (sema_decl.c: ptx_unnameable): the PTX ISA's
# identifier rule leaves out a lone '_', and WARP_SZ is its one predefined
# identifier a Silk name can spell (the rest begin with %).  Each is
# rejected by `silkc check` with its message, exit 1; and every reserved
# instruction keyword of the PTX ISA (its table "Reserved Instruction
# Keywords", PTX 8.x and 9.0), which Silk allows, compiles to a cubin that
# ptxas accepts on five targets.  Exit 77 without ptxas.  Run by make
# check, which sets SILKC.
set -u
: "${SILKC:?}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
NO_COLOR=1
export NO_COLOR
cd "$work" || exit 99

kernel() { printf 'kernel %s(O: tensor<i32>[1]) {\n  O[0] = 1\n}\n' "$1"; }

# Rejected at the name, before PTX is written.
for case in "_:a PTX name that starts with '_' needs a second character:1" \
    "WARP_SZ:PTX predefines it as the warp size:7"; do
    name=${case%%:*} rest=${case#*:}
    why=${rest%:*} width=${rest##*:}
    kernel "$name" >k.silk
    "$SILKC" check k.silk 2>err
    status=$?
    [ $status = 1 ] || fail "kernel $name: silkc check exit $status, want 1"
    want="k.silk:1:8: error: a GPU function cannot be named '$name': $why"
    [ "$(head -1 err)" = "$want" ] || fail "kernel $name: $(head -1 err), want $want"
    carets=$(sed -n 3p err | tr -cd '^~')
    [ ${#carets} = "$width" ] || fail "kernel $name: the caret line $(sed -n 3p err) is not under the name"
done

# Every reserved instruction keyword, one kernel each, in one module.
keywords="abs activemask add addc alloca and applypriority atom bar barrier bfe bfi bfind bmsk bra
brev brkpt brx call clusterlaunchcontrol clz cnot copysign cos cp createpolicy cvt cvta discard div
dp2a dp4a elect ex2 exit fence fma fns getctarank griddepcontrol isspacep istypep ld ldmatrix ldu
lg2 lop3 mad mad24 madc mapa match max mbarrier membar min mma mov movmatrix mul mul24 multimem
nanosleep neg not or pmevent popc prefetch prefetchu prmt rcp red redux rem ret rsqrt sad selp set
setmaxnreg setp shf shfl shl shr sin slct sqrt st stackrestore stacksave stmatrix sub subc suld suq
sured sust szext tanh tcgen05 tensormap testp tex tld4 trap txq vabsdiff vabsdiff2 vabsdiff4 vadd
vadd2 vadd4 vavrg2 vavrg4 vmad vmax vmax2 vmax4 vmin vmin2 vmin4 vote vset vset2 vset4 vshl vshr
vsub vsub2 vsub4 wgmma wmma xor"
: >keywords.silk
n=0
for name in $keywords; do
    kernel "$name" >>keywords.silk
    n=$((n + 1))
done
[ $n = 135 ] || fail "the keyword list has $n names, want 135"
"$SILKC" compile keywords.silk --arch sm_75,sm_80,sm_90,sm_100,sm_120 --emit=cubin -o k.cubin 2>err
status=$?
if [ $status = 3 ]; then
    echo "SKIP: ptx_names.sh: no ptxas: $(head -1 err)"
    [ $failures = 0 ] && exit 77
    exit 1
fi
[ $status = 0 ] || fail "PTX instruction keywords as kernel names: silkc compile exit $status: $(cat err)"
for arch in sm_75 sm_80 sm_90 sm_100 sm_120; do
    [ -s "k.$arch.cubin" ] || fail "no cubin for $arch"
done

[ $failures = 0 ] || { echo "$failures failures"; exit 1; }
exit 0
