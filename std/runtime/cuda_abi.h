/*
 * cuda_abi.h: the part of the CUDA Driver API's binary interface that
 * libsilkrt uses, declared here so that nothing is built against cuda.h:
 * the opaque handles, CUresult as an int, the numbers of
 * cuda_constants.def, and a function type per entry point of
 * cuda_entries.def (CudadrvFn_cuInit, ...), which the runtime resolves by
 * name with dlsym.
 *
 * On the ABI: every handle is a pointer; CUdevice is an int; CUresult and
 * the option enums are passed as 32-bit ints; CUdeviceptr is a 64-bit
 * unsigned integer (unsigned long long, as cuda.h spells it on 64-bit
 * hosts).  tests/unit/check_cuda_abi.c compiles this file against cuda.h
 * with the CUDADRV_T_ names defined as cuda.h's types, and the test
 * double (tests/runtime/fake_cuda.c) with the names below.
 */
#ifndef SILK_CUDA_ABI_H
#define SILK_CUDA_ABI_H

#include <stddef.h>

/* The runtime's spellings of cuda.h's types. */
#define CUDADRV_OWN_RESULT int
#define CUDADRV_OWN_DEVICE int
#define CUDADRV_OWN_DEVPTR unsigned long long
#define CUDADRV_OWN_HANDLE void *
#define CUDADRV_OWN_ENUM int

#ifndef CUDADRV_T_RESULT /* else the test defines them as cuda.h's */
#define CUDADRV_T_RESULT CUDADRV_OWN_RESULT
#define CUDADRV_T_DEVICE CUDADRV_OWN_DEVICE
#define CUDADRV_T_DEVPTR CUDADRV_OWN_DEVPTR
#define CUDADRV_T_CONTEXT CUDADRV_OWN_HANDLE
#define CUDADRV_T_MODULE CUDADRV_OWN_HANDLE
#define CUDADRV_T_FUNCTION CUDADRV_OWN_HANDLE
#define CUDADRV_T_STREAM CUDADRV_OWN_HANDLE
#define CUDADRV_T_ATTRIBUTE CUDADRV_OWN_ENUM
#define CUDADRV_T_FUNC_ATTRIBUTE CUDADRV_OWN_ENUM
#define CUDADRV_T_JIT_OPTION CUDADRV_OWN_ENUM
#endif

enum {
#define CUDADRV_CONSTANT(name, cuda_name, value) CUDADRV_##name = value,
#include "cuda_constants.def"
#undef CUDADRV_CONSTANT
};

#define CUDADRV_ENTRY(symbol, params) typedef CUDADRV_T_RESULT CudadrvFn_##symbol params;
#include "cuda_entries.def"
#undef CUDADRV_ENTRY

#endif
