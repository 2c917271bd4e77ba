/*
 * amdgpu.h: the AMDGPU backend's code: one IR module as one LLVM IR
 * module for one AMD GPU (gfx90a, gfx942, gfx1100, gfx1201), which LLVM's
 * AMDGPU backend (llc) compiles to a code object (llc.h).
 *
 * The module has the target triple amdgcn-amd-amdhsa; each kernel is an
 * `amdgpu_kernel` function whose parameters are the IR's, in order, as
 * scalars (a pointer is its 64-bit address); shared arrays are LDS
 * globals in addrspace(3).  Silk's semantics hold on every target (the
 * CPU backend's answers are the GPU's): a warp is 32 lanes, so on the
 * wave64 targets (gfx90a, gfx942) one wavefront holds two Silk warps, and
 * shuffles and ballots stay inside the lane's 32-lane half; the RDNA
 * targets run wave32, one warp per wavefront.  amdgpu.c and amdgpu_inst.c
 * say how each construct is mapped.  What has no AMD form (ctx.sms: no
 * register holds the CU count) is reported to `diag` at its source.
 * Output is deterministic: the same module gives the same bytes.
 */
#ifndef SILK_AMDGPU_H
#define SILK_AMDGPU_H

#include "diag.h"
#include "ir.h"

#include <stdbool.h>
#include <stdio.h>

/* The wavefront size LLVM compiles `arch` ("gfx942") for: 64 on CDNA
 * (gfx90a, gfx942), 32 on RDNA (gfx1100, gfx1201); 0 when the backend
 * does not know the target. */
int amdgpu_wave_size(const char *arch);

/* Writes `m` as LLVM IR for `arch` to `out`.  Returns false, with the
 * reasons reported to `diag`, when the target is unknown or an
 * instruction has no AMDGPU form; `out` then holds a partial module to be
 * discarded. */
bool amdgpu_emit_module(const IrModule *m, const char *arch, FILE *out, Diag *diag);

/* The "amdgpu-waves-per-eu" minimum that makes room for `min_ctas`
 * workgroups of `threads` threads (0: the most, 1024) per CU on `arch`:
 * ceil(min_ctas x waves per workgroup / 4 SIMDs), at most the SIMD's wave
 * slots (8 on CDNA, 16 on RDNA); 0 when min_ctas is 0 (no attribute). */
int amdgpu_waves_per_eu(const char *arch, int threads, int min_ctas);

#endif
