/*
 * hip_abi.h: the part of the HIP runtime API's binary interface
 * (libamdhip64) that libsilkrt uses, declared here so that nothing is
 * built against HIP's headers: the opaque handles, hipError_t as an int,
 * the numbers of hip_constants.def, and a function type per entry point
 * of hip_entries.def (HipdrvFn_hipInit, ...), which the runtime resolves
 * by name with dlsym.
 *
 * On the ABI (x86-64 Linux, include/hip/hip_runtime_api.h and
 * driver_types.h): every handle (hipModule_t, hipFunction_t,
 * hipStream_t) is a pointer; hipDevice_t is an int; hipError_t and
 * hipDeviceAttribute_t are enums passed as 32-bit ints; hipDeviceptr_t is
 * a void *.  The test double (tests/runtime/fake_hip.c) is built from
 * these names.
 */
#ifndef SILK_HIP_ABI_H
#define SILK_HIP_ABI_H

#include <stddef.h>

#define HIPDRV_T_RESULT int
#define HIPDRV_T_ATTRIBUTE int
#define HIPDRV_T_DEVPTR void *
#define HIPDRV_T_MODULE void *
#define HIPDRV_T_FUNCTION void *
#define HIPDRV_T_STREAM void *

enum {
#define HIPDRV_CONSTANT(name, hip_name, value) HIPDRV_##name = value,
#include "hip_constants.def"
#undef HIPDRV_CONSTANT
};

#define HIPDRV_ENTRY(result, symbol, params, required) typedef result HipdrvFn_##symbol params;
#include "hip_entries.def"
#undef HIPDRV_ENTRY

#endif
