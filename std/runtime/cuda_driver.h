/*
 * cuda_driver.h: libsilkrt's CUDA runtime: a GPU found, a context made
 * current, a PTX module loaded (the driver JIT-compiles it), a kernel
 * launched and synchronised, and device memory, through the CUDA Driver
 * API.  The API resembles the CPU backend's (compiler/cpu/cpu.h): open,
 * load a module, find a kernel, launch.
 *
 * The driver is not linked: the first call loads it with dlopen, from
 * $SILK_CUDA_LIBRARY when that is set (the test double,
 * tests/runtime/fake_cuda.c, is loaded so), else "libcuda.so.1", once per
 * process (pthread_once), and resolves the entry points of
 * cuda_entries.def by their ABI names; a program built with this library
 * therefore starts on machines with no CUDA at all, and says so when a
 * GPU is asked for.  The loaded driver is the runtime's one piece of
 * global state: written once under pthread_once, read-only after, so the
 * functions may be called from any thread.  The driver is never
 * unloaded.
 *
 * Every call that can fail returns a CudadrvStatus and, unless OK, fills
 * a CudadrvError that cudadrv_message turns into one line.  A context is
 * current on the thread that opened the device.
 */
#ifndef SILK_CUDA_DRIVER_H
#define SILK_CUDA_DRIVER_H

#include <stddef.h>
#include <stdint.h>

typedef enum CudadrvStatus {
#define CUDADRV_STATUS(name, words) CUDADRV_##name,
#include "cuda_status.def"
#undef CUDADRV_STATUS
} CudadrvStatus;

/* Why a call failed. */
typedef struct CudadrvError {
    CudadrvStatus status;
    const char *call;       /* the entry point that failed ("cuLaunchKernel"); NULL: none */
    int result;             /* its CUresult */
    char result_name[64];   /* cuGetErrorName's ("CUDA_ERROR_LAUNCH_FAILED"), else "CUresult N" */
    char result_words[128]; /* cuGetErrorString's ("unspecified launch failure"), else "" */
    char detail[512];       /* dlerror()'s line, the JIT log's first line, ...; "" if none */
} CudadrvError;

/* The status's words ("no CUDA driver"). */
const char *cudadrv_status_words(CudadrvStatus status);

/* One line for `e`, as "the launch failed: cuLaunchKernel:
 * CUDA_ERROR_LAUNCH_FAILED (719)" or "no CUDA driver: libcuda.so.1:
 * cannot open shared object file: No such file or directory", into
 * `buf`; returns `buf`. */
const char *cudadrv_message(const CudadrvError *e, char *buf, size_t size);

/* The library the runtime loads: $SILK_CUDA_LIBRARY, else "libcuda.so.1". */
const char *cudadrv_library(void);

/* A device, its primary context current on the calling thread. */
typedef struct CudadrvDevice {
    int ordinal;
    int handle;             /* the driver's CUdevice */
    void *context;          /* its primary context */
    int major, minor;       /* the compute capability */
    int sms;                /* multiprocessors */
    char name[256];
} CudadrvDevice;

/* Loads the driver (the first time), initialises it, and opens device
 * `ordinal`: its figures, its primary context retained and made current. */
CudadrvStatus cudadrv_device_open(int ordinal, CudadrvDevice *device, CudadrvError *e);

/* Makes the device's primary context current on the calling thread (a
 * thread other than the one that opened the device). */
CudadrvStatus cudadrv_context_use(const CudadrvDevice *device, CudadrvError *e);

/* Releases the primary context. */
void cudadrv_device_close(CudadrvDevice *device);

/* A loaded module and what the JIT said about it. */
typedef struct CudadrvModule {
    void *handle;           /* NULL when the load failed */
    char *info_log;         /* the JIT's information log (NUL-terminated; may be "") */
    char *error_log;        /* its error log, kept when the load failed */
} CudadrvModule;

/* Loads `image` (PTX text, NUL-terminated, or a cubin), which the driver
 * JIT-compiles for the current context's device.  Both logs are kept in
 * `module`, also on failure (MODULE_LOAD, the error log's first line in
 * e->detail); cudadrv_module_unload frees them in either case. */
CudadrvStatus cudadrv_module_load(const void *image, CudadrvModule *module, CudadrvError *e);
void cudadrv_module_unload(CudadrvModule *module);

/* A kernel of a module. */
typedef struct CudadrvKernel {
    void *handle;
} CudadrvKernel;

/* The kernel `name`; NO_KERNEL when the module has none. */
CudadrvStatus cudadrv_module_kernel(const CudadrvModule *module, const char *name,
                                    CudadrvKernel *kernel, CudadrvError *e);

/* Declares that `kernel` launches with `bytes` of dynamic shared memory
 * (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES): the driver refuses
 * a launch whose static and dynamic shared memory pass 48 KiB unless it
 * was.  Nothing for 0 bytes. */
CudadrvStatus cudadrv_kernel_allow_shared(CudadrvKernel kernel, size_t bytes, CudadrvError *e);

/* The CTAs of `threads` threads and `dynamic_shared` bytes that one
 * multiprocessor holds at once (cuOccupancyMaxActiveBlocksPerMultiprocessor). */
CudadrvStatus cudadrv_occupancy(CudadrvKernel kernel, uint32_t threads, size_t dynamic_shared,
                                int *ctas_per_sm, CudadrvError *e);

/* Device memory: allocated, freed, copied to and from the host. */
CudadrvStatus cudadrv_alloc(size_t bytes, uint64_t *address, CudadrvError *e);
CudadrvStatus cudadrv_free(uint64_t address, CudadrvError *e);
CudadrvStatus cudadrv_upload(uint64_t to, const void *from, size_t bytes, CudadrvError *e);
CudadrvStatus cudadrv_download(void *to, uint64_t from, size_t bytes, CudadrvError *e);

/* One launch on the default stream: a one-dimensional grid. */
typedef struct CudadrvLaunch {
    uint32_t ctas;          /* gridDim.x, 1 to 2^31 - 1 */
    uint32_t threads;       /* blockDim.x */
    uint32_t dynamic_shared;/* bytes */
    void **params;          /* each parameter's bytes, in the kernel's order and sizes */
} CudadrvLaunch;

/* Queues the launch (LAUNCH_FAILED when the driver refuses it).  The
 * kernel runs asynchronously: its faults are cudadrv_synchronize's. */
CudadrvStatus cudadrv_launch(CudadrvKernel kernel, const CudadrvLaunch *launch, CudadrvError *e);

/* Waits for the work queued on the current context (SYNC_FAILED when it
 * faulted). */
CudadrvStatus cudadrv_synchronize(CudadrvError *e);

#endif
