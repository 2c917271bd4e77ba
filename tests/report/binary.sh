#!/bin/sh
# binary.sh: `silk-occ report` on built binaries (issue 25, item 1): an
# executable of two translation units, a shared object, relocatable
# objects (plain and -rdc=true), a static archive and .fatbin files
# (Zstandard, LZ4 and uncompressed entries), all built here by nvcc from
# tests/report/inputs/bin_scale.cu and bin_reduce.cu with cubins for
# sm_80 and sm_90 and PTX for compute_90.  Every row (kernel x
# architecture: registers, shared memory) is compared with cuobjdump
# --dump-resource-usage on the same file, and the CTAs per SM with
# cuda_occupancy.h (tests/cuda/occ_oracle); sm_120, which only the PTX
# covers, gets ptxas -v's figures on that PTX and says so.  Bad binaries
# give one line and exit 2.  Needs nvcc, ptxas and cuobjdump (SILK_CUOBJDUMP,
# PATH, or PyPI's nvidia-cuda-cuobjdump); without them it is skipped
# (exit 77).  Run by make check, which sets SILK_OCC, SILK_SRCDIR,
# CHECK_SCHEMA, REPORT_ROWS and OCC_ORACLE.
set -u
: "${SILK_OCC:?}" "${SILK_SRCDIR:?}" "${CHECK_SCHEMA:?}"
cd "$SILK_SRCDIR" || exit 99
# shellcheck source=tests/report/lib.sh
. tests/report/lib.sh
rows=${REPORT_ROWS:-$PWD/tests/cuda/report_rows}
oracle=${OCC_ORACLE:-$PWD/tests/cuda/occ_oracle}
in=$PWD/tests/report/inputs

# Bad input first: no tool is needed to refuse it.
printf 'int f(void) { return 1; }\n' >"$work/host.c"
if command -v cc >/dev/null && cc -c "$work/host.c" -o "$work/host.o"; then
    expect 2 "$P $work/host.o: an ELF relocatable object with no CUDA device code (no .nv_fatbin or __nv_relfatbin section)" "$work/host.o"
    cp /bin/true "$work/true"
    expect 2 "$P $work/true: an ELF executable with no CUDA device code (no .nv_fatbin or __nv_relfatbin section)" "$work/true"
    ar rc "$work/host.a" "$work/host.o"
    expect 2 "$P $work/host.a: a static archive with no CUDA device code (no member has a .nv_fatbin or __nv_relfatbin section)" "$work/host.a"
fi
# A fatbin whose one entry claims a terabyte decompressed: refused from
# its header, nothing allocated.
python3 - "$work/huge.fatbin" <<'PY'
import struct, sys
entry = struct.pack('<HHIQIIHHIIIQQQ', 2, 0x101, 64, 0, 0, 0, 8, 1, 80, 0, 0, 0x8011, 0, 1 << 40)
open(sys.argv[1], 'wb').write(struct.pack('<IHHQ', 0xBA55ED50, 1, 16, len(entry)) + entry)
PY
expect 2 "$P $work/huge.fatbin: fatbin entry at offset 16 is larger than the 256 MiB limit (0 bytes stored, 1099511627776 decompressed)" "$work/huge.fatbin" --arch sm_80
# An entry whose payload runs past its container.
python3 - "$work/over.fatbin" <<'PY'
import struct, sys
entry = struct.pack('<HHIQIIHHIIIQQQ', 2, 0x101, 64, 1 << 32, 0, 0, 8, 1, 80, 0, 0, 0x11, 0, 0)
open(sys.argv[1], 'wb').write(struct.pack('<IHHQ', 0xBA55ED50, 1, 16, len(entry)) + entry)
PY
expect 2 "$P $work/over.fatbin: fatbin entry at offset 16: its header (64 bytes) and payload (4294967296 bytes) overrun its container (64 bytes left)" "$work/over.fatbin" --arch sm_80

nvcc=${SILK_NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ptxas=${SILK_PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
cuobjdump=${SILK_CUOBJDUMP:-$(command -v cuobjdump || python3 -c 'import nvidia, os; print(os.path.join(list(nvidia.__path__)[0], "cu13", "bin", "cuobjdump"))' 2>/dev/null)}
if [ ! -x "$nvcc" ] || [ ! -x "$ptxas" ] || [ ! -x "${cuobjdump:-/none}" ]; then
    [ -x "${cuobjdump:-/none}" ] || echo "SKIP: binary.sh: cuobjdump not found (pip install nvidia-cuda-cuobjdump)"
    [ -x "$nvcc" ] && [ -x "$ptxas" ] || echo "SKIP: binary.sh: no nvcc or no ptxas ($nvcc, $ptxas)"
    [ $failures = 0 ] && exit 77
    exit 1
fi
PATH=$(dirname "$nvcc"):$PATH
export PATH

# The builds, each once.
g="-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90"
b=$work/b
mkdir "$b"
build() { "$nvcc" $g "$@" || fail "nvcc $*"; }
build -c "$in/bin_scale.cu" -o "$b/scale.o"
build -c "$in/bin_reduce.cu" -o "$b/reduce.o"
build "$b/scale.o" "$b/reduce.o" -o "$b/app"
build -Xcompiler -fPIC -shared "$in/bin_scale.cu" "$in/bin_reduce.cu" -o "$b/libbin.so"
build -rdc=true -c "$in/bin_scale.cu" -o "$b/scale_rdc.o"
ar rc "$b/libbin.a" "$b/scale.o" "$b/reduce.o"
build -fatbin --compress-mode=size "$in/bin_scale.cu" -o "$b/size.fatbin"
build -fatbin --compress-mode=speed "$in/bin_reduce.cu" -o "$b/speed.fatbin"
build -fatbin --no-compress "$in/bin_scale.cu" -o "$b/plain.fatbin"

# oracle_rows FILE RESERVED: cuobjdump's "arch symbol registers shared
# stack" rows.  From sm_90 on the SHARED of a kernel with shared memory
# holds the 1 KiB an executable cubin reserves per CTA (.nv.shared.NAME's
# size; RESERVED 1024, 0 for a relocatable one), which ptxas -v, and so
# the report, leave out.
oracle_rows() {
    "$cuobjdump" --dump-resource-usage "$1" | awk -v reserved="$2" '
        $1 == "arch" { arch = $3 } $1 == "Function" { name = $2; sub(/:$/, "", name) }
        $1 ~ /^REG:/ { r = $1; sub(/REG:/, "", r); s = $3; sub(/SHARED:/, "", s); k = $2; sub(/STACK:/, "", k)
                       if (substr(arch, 4) + 0 >= 90 && s > 0) s -= reserved
                       print arch, name, r, s, k }' | sort -u
}
# our_rows JSON: the same rows of a report.
our_rows() {
    "$rows" "$1" | awk -F'\t' '$1 == "K" { print $2, $3, $5, $6 }' | sort -u
}
for f in app libbin.so scale.o scale_rdc.o libbin.a size.fatbin speed.fatbin plain.fatbin; do
    "$SILK_OCC" report "$b/$f" --format json >"$work/$f.json" 2>"$work/$f.err" ||
        { fail "report $f: exit $?: $(cat "$work/$f.err")"; continue; }
    "$CHECK_SCHEMA" "$work/$f.json" || fail "$f: the JSON does not match the schema"
    reserved=1024
    [ "$f" = scale_rdc.o ] && reserved=0
    oracle_rows "$b/$f" $reserved >"$work/$f.oracle"
    [ -s "$work/$f.oracle" ] || fail "$f: cuobjdump lists no kernel"
    # The stack is cuobjdump's only: checked where the report prints it (JSON stack_frame).
    got=$(our_rows "$work/$f.json") want=$(awk '{ print $1, $2, $3, $4 }' "$work/$f.oracle" | sort -u)
    [ "$got" = "$want" ] || fail "$f: rows are not cuobjdump's:
  got:  $(echo "$got" | tr '\n' ';')
  want: $(echo "$want" | tr '\n' ';')"
    # cuobjdump gives a relocatable cubin's pick STACK:0 where ptxas -v
    # (and the cubin's record) say 128 bytes: checked below, not here.
    [ "$f" = scale_rdc.o ] && continue
    stacks=$(grep -o '"stack_frame":[^,]*' "$work/$f.json" | sort -u | tr -d ' \t' | tr '\n' ' ')
    want_stacks=$(awk '{ print "\"stack_frame\":" $5 }' "$work/$f.oracle" | sort -u | tr '\n' ' ')
    [ "$stacks" = "$want_stacks" ] || fail "$f: stack frames $stacks, cuobjdump $want_stacks"
    grep -q '"input":	"binary"' "$work/$f.json" || fail "$f: input is not \"binary\""
done
[ "$(grep -c '"stack_frame":	128' "$work/scale_rdc.o.json")" = 2 ] ||
    fail "scale_rdc.o: pick's stack frame is not ptxas -v's 128 bytes on sm_80 and sm_90"
# Every kernel of both units, on both cubin architectures.
[ "$(our_rows "$work/app.json" | wc -l)" = 12 ] || fail "app: $(our_rows "$work/app.json" | wc -l) rows, want 12"

# CTAs per SM as cuda_occupancy.h has them, every row of the executable.
if [ -x "$oracle" ]; then
    "$rows" "$work/app.json" | awk -F'\t' '$1 == "R" { bound = $3 ~ /tile_scale/ ? 256 : 0
        print $2, $7, $8, $4, $5, 1, bound, $6 }' >"$work/app.r"
    cut -d' ' -f1-7 "$work/app.r" | "$oracle" >"$work/app.o"
    bad=$(paste -d' ' "$work/app.r" "$work/app.o" | awk '$8 != $9')
    [ -z "$bad" ] && [ -s "$work/app.o" ] || fail "app: CTAs per SM differ from cuda_occupancy.h: $bad"
else
    echo "note: no cuda_occupancy.h oracle ($oracle): CTAs per SM not compared"
fi

# sm_120: no cubin runs there, the compute_90 PTX does: ptxas's figures
# on that PTX, spills known, the row says where it came from.
"$nvcc" -ptx -arch=compute_90 "$in/bin_scale.cu" -o "$work/scale.ptx" || fail "nvcc -ptx"
"$ptxas" -v -arch=sm_120 "$work/scale.ptx" -o /dev/null 2>"$work/ptxas.v" || fail "ptxas -v"
want=$(awk '/Compiling entry function/ { n = $7; gsub(/[\047]/, "", n) }
            /Used [0-9]+ registers/ { for (i = 1; i <= NF; i++) if ($i == "Used") print "sm_120", n, $(i + 1) }' "$work/ptxas.v" | sort)
"$SILK_OCC" report "$b/scale.o" --arch sm_120 --format json >"$work/120.json" 2>"$work/err" ||
    fail "report scale.o --arch sm_120: $(cat "$work/err")"
got=$("$rows" "$work/120.json" | awk -F'\t' '$1 == "K" { print $2, $3, $5 }' | sort)
[ -n "$want" ] && [ "$got" = "$want" ] || fail "sm_120 from PTX: got $(echo "$got" | tr '\n' ';') want $(echo "$want" | tr '\n' ';')"
[ "$(grep -c '"from_ptx":	"compute_90"' "$work/120.json")" = 3 ] || fail "sm_120: from_ptx is not compute_90 on its 3 kernels"
grep -q '"from_ptx":	null' "$work/scale.o.json" || fail "sm_80: from_ptx is not null"
"$SILK_OCC" report "$b/scale.o" --arch sm_120 --kernel axpy >"$work/120.txt" 2>&1
grep -q "registers per thread (from embedded compute_90 PTX, assembled by ptxas for sm_120)" "$work/120.txt" ||
    fail "sm_120 text: $(sed -n 2p "$work/120.txt")"
# A binary's report read back by merge words it as report does: machine
# code (no minimum CTAs recorded) and embedded PTX alike.
"$SILK_OCC" report "$b/scale.o" --arch sm_80,sm_120 --format json >"$work/both.json" &&
    "$SILK_OCC" report "$b/scale.o" --arch sm_80,sm_120 >"$work/both.txt" || fail "report scale.o --arch sm_80,sm_120"
"$SILK_OCC" merge "$work/both.json" >"$work/merged.txt" 2>&1 || fail "merge of a binary's report: $(head -3 "$work/merged.txt")"
cmp -s "$work/both.txt" "$work/merged.txt" || fail "merge of a binary's report differs: $(diff "$work/both.txt" "$work/merged.txt" | head -5)"

# One template instance defined twice with different figures (a macro
# of each unit): both definitions reported, each named by its unit, and
# pointing at the other; identical ones stay joined (scale and reduce).
build -Xcompiler -fPIC -c -DSTAGE=256 "$in/bin_variant.cu" -o "$b/variant_a.o"
build -Xcompiler -fPIC -c -DSTAGE=1024 "$in/bin_variant.cu" -o "$b/variant_b.o"
build -shared "$b/variant_a.o" "$b/variant_b.o" -o "$b/libvariant.so"
"$SILK_OCC" report "$b/libvariant.so" --arch sm_80 --format json >"$work/variant.json" 2>"$work/err" ||
    fail "report libvariant.so: $(cat "$work/err")"
got=$(jq -r '.reports[] | "\(.file | sub(".*/"; "")) \(.resources.static_smem)"' "$work/variant.json" | sort | tr '\n' ';')
[ "$got" = "libvariant.so (unit 2) 1024;libvariant.so (unit 3) 4096;" ] ||
    fail "the two definitions of stage_copy<2>: $got"
"$SILK_OCC" report "$b/libvariant.so" --arch sm_80 >"$work/variant.txt" 2>&1
grep -q "other units define it with other figures: $b/libvariant.so (unit 3) (reported apart)" "$work/variant.txt" ||
    fail "unit 2's definition does not point at unit 3's: $(grep -m2 'other units' "$work/variant.txt")"
want=$("$cuobjdump" --dump-resource-usage "$b/libvariant.so" | awk '/^arch = sm_80/ { on = 1 } /^arch = / && !/sm_80/ { on = 0 }
    on && /SHARED:/ { for (i = 1; i <= NF; i++) if ($i ~ /^SHARED:/) { sub(/SHARED:/, "", $i); print $i } }' | sort -n | tr '\n' ';')
[ "$want" = "1024;4096;" ] || fail "cuobjdump's sm_80 shared memory of libvariant.so: $want"

# sm_75: nothing runs there; beside sm_80 it is a warning, alone an error.
expect 2 "$P $b/app: nothing in it runs on sm_75 (it holds sm_80, sm_90 cubins and compute_90 PTX)" "$b/app" --arch sm_75

# A truncated fatbin: the container claims more than is left.
head -c 100 "$b/size.fatbin" >"$work/cut.fatbin"
claimed=$(python3 -c 'import struct,sys; print(struct.unpack_from("<Q", open(sys.argv[1], "rb").read(), 8)[0])' "$b/size.fatbin")
expect 2 "$P $work/cut.fatbin: fatbin container at offset 0 claims $claimed bytes, and 84 are left" "$work/cut.fatbin" --arch sm_80

# An archive member named with an escape sequence: escaped in the text.
esc=$(printf 'x\033[31m.o')
cp "$b/scale.o" "$work/$esc"
(cd "$work" && ar rc lib_esc.a "$esc") || fail "ar"
"$SILK_OCC" report "$work/lib_esc.a" --arch sm_80 --kernel axpy >"$work/esc.txt" 2>&1 || fail "report lib_esc.a: $(cat "$work/esc.txt")"
grep -q "(x\\\\x1b\[31m.o)" "$work/esc.txt" && ! grep -q "$(printf '\033')" "$work/esc.txt" ||
    fail "archive member name not escaped: $(head -1 "$work/esc.txt" | od -c | head -3)"

[ $failures = 0 ] || exit 1
echo "PASS: binary.sh"
