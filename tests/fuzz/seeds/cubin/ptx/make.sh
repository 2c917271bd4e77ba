#!/bin/sh
# make.sh: remakes the cubin fuzz seeds in tests/fuzz/seeds/cubin from the
# PTX beside this script, with the ptxas on $PATH (or $PTXAS): executable
# cubins for sm_80 and sm_90, relocatable ones (ptxas -c) for sm_75 and
# sm_90, and a device library with no kernel.  Committed seeds were made
# by ptxas 13.0.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$here/..
ptxas=${PTXAS:-ptxas}
"$ptxas" --gpu-name sm_80 -o "$out/bounds.sm_80.cubin" "$here/bounds.ptx"
"$ptxas" --gpu-name sm_90 -o "$out/bounds.sm_90.cubin" "$here/bounds.ptx"
"$ptxas" --gpu-name sm_90 -o "$out/reqntid.sm_90.cubin" "$here/reqntid.ptx"
"$ptxas" -c --gpu-name sm_75 -o "$out/reloc.sm_75.cubin" "$here/reloc.ptx"
"$ptxas" -c --gpu-name sm_90 -o "$out/reloc.sm_90.cubin" "$here/reloc.ptx"
"$ptxas" -c --gpu-name sm_90 -o "$out/library.sm_90.cubin" "$here/library.ptx"
