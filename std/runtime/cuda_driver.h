/*
 * cuda_driver.h: libsilkrt's CUDA driver: a GPU found, a context made
 * current, a PTX module loaded (the driver JIT-compiles it), a kernel
 * launched and synchronised, and device memory, through the CUDA Driver
 * API, as the driver table of gpu_driver.h (cudadrv_driver) and as plain
 * functions for the callers that drive CUDA themselves (silkc exec
 * --backend cuda, compiler/run/run_cuda.c; bench/launch.c).
 *
 * The driver is not linked: the first call loads it with dlopen, from
 * $SILK_CUDA_LIBRARY when that is set (the test double,
 * tests/runtime/fake_cuda.c, is loaded so), else "libcuda.so.1", once per
 * process (pthread_once), and resolves the entry points of
 * cuda_entries.def by their ABI names.  The driver is never unloaded.
 *
 * A device's primary context is current on the thread that opened it;
 * its arch is "sm_XY" of its compute capability.  A PTX for sm_XY runs
 * on compute capability XY and later, an arch-specific sm_XYa only on XY
 * itself; the table ranks the newest the device runs first.
 */
#ifndef SILK_CUDA_DRIVER_H
#define SILK_CUDA_DRIVER_H

#include "gpu_driver.h"

#include <stddef.h>
#include <stdint.h>

/* The table, for the runtime's GPU backend. */
extern const GpudrvDriver cudadrv_driver;

/* gpu_driver.h's names as compiler/run/run_cuda.c and bench/launch.c know them. */
typedef GpudrvStatus CudadrvStatus;
typedef GpudrvError CudadrvError;
typedef GpudrvDevice CudadrvDevice;
typedef GpudrvModule CudadrvModule;
typedef GpudrvKernel CudadrvKernel;
typedef GpudrvLaunch CudadrvLaunch;
#define CUDADRV_OK GPUDRV_OK
#define CUDADRV_OUT_OF_MEMORY GPUDRV_OUT_OF_MEMORY

/* gpudrv_message in CUDA's words. */
const char *cudadrv_message(const GpudrvError *e, char *buf, size_t size);

/* The library the runtime loads: $SILK_CUDA_LIBRARY, else "libcuda.so.1". */
const char *cudadrv_library(void);

/* The table's calls (gpu_driver.h says what each does). */
GpudrvStatus cudadrv_device_open(int ordinal, GpudrvDevice *device, GpudrvError *e);
GpudrvStatus cudadrv_context_use(const GpudrvDevice *device, GpudrvError *e);
/* Releases the primary context (the runtime never does). */
void cudadrv_device_close(GpudrvDevice *device);
/* `image` is PTX text, NUL-terminated, or a cubin: on failure the
 * JIT's error log's first line is e->detail. */
GpudrvStatus cudadrv_module_load(const void *image, GpudrvModule *module, GpudrvError *e);
void cudadrv_module_unload(GpudrvModule *module);
GpudrvStatus cudadrv_module_kernel(const GpudrvModule *module, const char *name, GpudrvKernel *kernel,
                                   GpudrvError *e);
/* CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: the driver refuses a
 * launch whose static and dynamic shared memory pass 48 KiB unless it
 * was set.  Nothing for 0 bytes. */
GpudrvStatus cudadrv_kernel_allow_shared(GpudrvKernel kernel, size_t bytes, GpudrvError *e);
GpudrvStatus cudadrv_occupancy(GpudrvKernel kernel, uint32_t threads, size_t dynamic_shared,
                               int *ctas_per_sm, GpudrvError *e);
GpudrvStatus cudadrv_alloc(size_t bytes, uint64_t *address, GpudrvError *e);
GpudrvStatus cudadrv_free(uint64_t address, GpudrvError *e);
GpudrvStatus cudadrv_upload(uint64_t to, const void *from, size_t bytes, GpudrvError *e);
GpudrvStatus cudadrv_download(void *to, uint64_t from, size_t bytes, GpudrvError *e);
GpudrvStatus cudadrv_launch(GpudrvKernel kernel, const GpudrvLaunch *launch, GpudrvError *e);
GpudrvStatus cudadrv_synchronize(GpudrvError *e);

#endif
