/*
 * check_cuda_abi.c: libsilkrt's own declarations of the CUDA Driver API
 * (std/runtime/cuda_abi.h, built without the toolkit) against cuda.h's,
 * where configure found the toolkit; exit 77 (skipped) where not.
 *
 * Every number of cuda_constants.def must equal cuda.h's constant of the
 * name beside it, and every entry point of cuda_entries.def, its
 * parameters written with the CUDADRV_T_ names defined here as cuda.h's
 * types, must have exactly the type of cuda.h's prototype of that ABI
 * symbol (a _Generic match on the function's address, so any difference
 * in a parameter or the result fails).  Both are static assertions: a
 * mismatch stops the build of this test, naming the constant or the
 * entry point.  At run time it also checks that the runtime's own
 * spellings of the types have the sizes cuda.h's have, which is what the
 * ABI needs of them.
 */
#include <config.h>

#include <stdio.h>

#ifndef HAVE_CUDA_H
int main(void)
{
    puts("SKIP: no cuda.h (configure found no CUDA toolkit): libsilkrt's declarations unchecked");
    return 77;
}
#else
#include <cuda.h>

#define CUDADRV_T_RESULT CUresult
#define CUDADRV_T_DEVICE CUdevice
#define CUDADRV_T_DEVPTR CUdeviceptr
#define CUDADRV_T_CONTEXT CUcontext
#define CUDADRV_T_MODULE CUmodule
#define CUDADRV_T_FUNCTION CUfunction
#define CUDADRV_T_STREAM CUstream
#define CUDADRV_T_ATTRIBUTE CUdevice_attribute
#define CUDADRV_T_FUNC_ATTRIBUTE CUfunction_attribute
#define CUDADRV_T_JIT_OPTION CUjit_option
#include "cuda_abi.h"

/* The runtime's own spellings (CUDADRV_OWN_), as it compiles them. */
typedef CUDADRV_OWN_RESULT OursResult;
typedef CUDADRV_OWN_DEVICE OursDevice;
typedef CUDADRV_OWN_DEVPTR OursDevptr;
typedef CUDADRV_OWN_HANDLE OursHandle;
typedef CUDADRV_OWN_ENUM OursEnum;

/* Each constant is cuda.h's. */
#define CUDADRV_CONSTANT(name, cuda_name, value)                                             \
    _Static_assert(CUDADRV_##name == (int)(cuda_name), "CUDADRV_" #name " is not " #cuda_name);
#include "cuda_constants.def"
#undef CUDADRV_CONSTANT

/* Each entry point's type is cuda.h's prototype of that symbol. */
#define CUDADRV_ENTRY(symbol, params)                                                        \
    _Static_assert(_Generic(&symbol, CudadrvFn_##symbol *: 1, default: 0),                  \
                   #symbol " is not declared as cuda.h declares it");
#include "cuda_entries.def"
#undef CUDADRV_ENTRY

static int failures;

static void same_size(const char *what, size_t ours, size_t theirs)
{
    if (ours != theirs) {
        printf("FAIL: %s: %zu bytes in cuda_abi.h, %zu in cuda.h\n", what, ours, theirs);
        failures++;
    }
}

int main(void)
{
    same_size("CUresult", sizeof(OursResult), sizeof(CUresult));
    same_size("CUdevice", sizeof(OursDevice), sizeof(CUdevice));
    same_size("CUdeviceptr", sizeof(OursDevptr), sizeof(CUdeviceptr));
    same_size("CUcontext", sizeof(OursHandle), sizeof(CUcontext));
    same_size("CUmodule", sizeof(OursHandle), sizeof(CUmodule));
    same_size("CUfunction", sizeof(OursHandle), sizeof(CUfunction));
    same_size("CUstream", sizeof(OursHandle), sizeof(CUstream));
    same_size("CUdevice_attribute", sizeof(OursEnum), sizeof(CUdevice_attribute));
    same_size("CUfunction_attribute", sizeof(OursEnum), sizeof(CUfunction_attribute));
    same_size("CUjit_option", sizeof(OursEnum), sizeof(CUjit_option));
    int constants = 0, entries = 0;
#define CUDADRV_CONSTANT(name, cuda_name, value) constants++;
#include "cuda_constants.def"
#undef CUDADRV_CONSTANT
#define CUDADRV_ENTRY(symbol, params) entries++;
#include "cuda_entries.def"
#undef CUDADRV_ENTRY
    if (failures)
        return 1;
    printf("PASS: %d constants and %d entry points are cuda.h's (CUDA %d.%d)\n", constants, entries,
           CUDA_VERSION / 1000, CUDA_VERSION % 1000 / 10);
    return 0;
}
#endif
