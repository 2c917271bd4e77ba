#!/bin/sh
# make-pinned.sh: rebuilds the pinned code objects from pinned.ll with
# LLVM 19 (llc-19, ld.lld-19), and prints their metadata notes, against
# which tests/unit/check_hsaco.c's expected figures were checked.
set -eu
cd "$(dirname "$0")"
for arch in gfx942 gfx1100; do
    llc-19 -mtriple=amdgcn-amd-amdhsa -mcpu=$arch -filetype=obj -o pinned.$arch.o pinned.ll
    ld.lld-19 -shared -o pinned.$arch.hsaco pinned.$arch.o
    rm -f pinned.$arch.o
    llvm-readobj-19 --notes pinned.$arch.hsaco |
        grep -E '\.(name|vgpr_count|agpr_count|sgpr_count|group_segment_fixed_size|private_segment_fixed_size|wavefront_size|vgpr_spill_count|sgpr_spill_count|max_flat_workgroup_size):|amdhsa.target'
done
