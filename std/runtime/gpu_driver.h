/*
 * gpu_driver.h: what the runtime asks of a GPU driver, as one table of
 * functions (GpudrvDriver), so that its GPU backend (silkrt_gpu.c) is
 * written once.  cuda_driver.c fills the table over the CUDA Driver API
 * (cudadrv_driver), hip_driver.c over the HIP runtime API
 * (hipdrv_driver): the two are the same call for call (open a device,
 * load a module, find a kernel, launch, synchronize, device memory), and
 * what differs between them is data here: the backend's name, whose words
 * the statuses take, what the multiprocessors are called, which of a
 * program's images the driver loads, and how a device ranks them.
 *
 * Neither library is linked: each driver loads its own with dlopen at its
 * first call, once per process (pthread_once), and only reads it after,
 * so the functions may be called from any thread; a program built with
 * libsilkrt therefore starts on machines with no GPU software at all.
 *
 * Every call that can fail returns a GpudrvStatus and, unless OK, fills
 * a GpudrvError that gpudrv_message turns into one line.
 */
#ifndef SILK_GPU_DRIVER_H
#define SILK_GPU_DRIVER_H

#include <stddef.h>
#include <stdint.h>

typedef enum GpudrvStatus {
#define GPUDRV_STATUS(name, cuda_words, hip_words) GPUDRV_##name,
#include "gpu_status.def"
#undef GPUDRV_STATUS
} GpudrvStatus;

/* Whose terms a status's words are in: the columns of gpu_status.def. */
typedef enum GpudrvVendor { GPUDRV_CUDA, GPUDRV_HIP } GpudrvVendor;

/* Why a call failed. */
typedef struct GpudrvError {
    GpudrvStatus status;
    const char *call;       /* the entry point that failed ("cuLaunchKernel"); NULL: none */
    int result;             /* its CUresult or hipError_t */
    char result_name[64];   /* the driver's name ("CUDA_ERROR_LAUNCH_FAILED"), else "CUresult N" */
    char result_words[128]; /* the driver's words ("unspecified launch failure"), else "" */
    char detail[512];       /* dlerror()'s line, the JIT log's first line, ...; "" if none */
} GpudrvError;

/* The status's words ("no CUDA driver", "no HIP runtime"). */
const char *gpudrv_status_words(GpudrvVendor vendor, GpudrvStatus status);

/* One line for `e`, as "the launch failed: cuLaunchKernel:
 * CUDA_ERROR_LAUNCH_FAILED (719)" or "no HIP runtime: libamdhip64.so.6:
 * cannot open shared object file: No such file or directory", into
 * `buf`; returns `buf`. */
const char *gpudrv_message(GpudrvVendor vendor, const GpudrvError *e, char *buf, size_t size);

/* A device, made the calling thread's (CUDA: its primary context current). */
typedef struct GpudrvDevice {
    int ordinal;
    int handle;             /* CUDA's CUdevice; HIP names a device by its ordinal */
    void *context;          /* CUDA's primary context; NULL on HIP */
    int major, minor;       /* CUDA's compute capability; 0 on HIP */
    int sms;                /* multiprocessors: SMs on NVIDIA, compute units on AMD */
    char name[256];         /* "NVIDIA H100 80GB HBM3", "AMD Instinct MI300X" */
    char arch[256];         /* "sm_90"; gcnArchName "gfx942:sramecc+:xnack-"; "" when unknown */
} GpudrvDevice;

/* A loaded module, and what CUDA's JIT said about it. */
typedef struct GpudrvModule {
    void *handle;           /* NULL when the load failed */
    char *info_log;         /* the JIT's information log (NUL-terminated; may be ""); NULL on HIP */
    char *error_log;        /* its error log, kept when the load failed; NULL on HIP */
} GpudrvModule;

/* A kernel of a module. */
typedef struct GpudrvKernel {
    void *handle;
} GpudrvKernel;

/* One launch on the default stream: a one-dimensional grid. */
typedef struct GpudrvLaunch {
    uint32_t ctas;          /* gridDim.x (CTAs, workgroups), 1 to 2^31 - 1 */
    uint32_t threads;       /* blockDim.x */
    uint32_t dynamic_shared;/* bytes of shared memory (LDS) */
    void **params;          /* each parameter's bytes, in the kernel's order and sizes */
} GpudrvLaunch;

/* Which of a program's images a driver loads (SilkrtProgram). */
typedef enum GpudrvImages {
    GPUDRV_PTX,             /* .ptx: PTX text, which the driver JIT-compiles */
    GPUDRV_CODE_OBJECTS,    /* .code_objects: AMDHSA code objects */
} GpudrvImages;

/* A driver: what it is called, and its calls. */
typedef struct GpudrvDriver {
    const char *backend;    /* SILK_BACKEND's name for it: "cuda", "hip" */
    GpudrvVendor vendor;    /* whose words its statuses take */
    const char *units;      /* what its multiprocessors are called: "SMs", "CUs" */
    GpudrvImages images;    /* which of a program's images it loads */
    const char *targets;    /* what those images' targets are called: "target", "AMD target" */
    /* How the device ranks an image built for `arch`: 0, it cannot run
     * it; the one of the highest rank is loaded first (ties: the
     * program's order), then the next when the driver refuses it. */
    int (*rank)(const GpudrvDevice *device, const char *arch);
    /* What the device runs, for "the program holds no PTX for ...":
     * "sm_86 or older", "gfx942". */
    void (*wants)(const GpudrvDevice *device, char *buf, size_t size);
    /* The library that was loaded, for "... has device 0". */
    const char *(*library)(void);
    /* Loads the library (the first time), initialises it, and opens
     * device `ordinal`: its figures, and it made the calling thread's. */
    GpudrvStatus (*device_open)(int ordinal, GpudrvDevice *device, GpudrvError *e);
    /* Makes the device the calling thread's, on a thread other than the
     * one that opened it. */
    GpudrvStatus (*device_use)(const GpudrvDevice *device, GpudrvError *e);
    /* Loads `image` for the device; the logs are kept in `module` also on
     * failure, and module_unload frees them in either case. */
    GpudrvStatus (*module_load)(const void *image, GpudrvModule *module, GpudrvError *e);
    void (*module_unload)(GpudrvModule *module);
    /* The kernel `name`; NO_KERNEL when the module has none. */
    GpudrvStatus (*module_kernel)(const GpudrvModule *module, const char *name, GpudrvKernel *kernel,
                                  GpudrvError *e);
    /* Declares that `kernel` launches with `bytes` of dynamic shared
     * memory, which CUDA wants past 48 KiB; NULL: the driver needs no
     * declaration. */
    GpudrvStatus (*kernel_allow_shared)(GpudrvKernel kernel, size_t bytes, GpudrvError *e);
    /* The CTAs of `threads` threads and `dynamic_shared` bytes that one
     * multiprocessor holds at once. */
    GpudrvStatus (*occupancy)(GpudrvKernel kernel, uint32_t threads, size_t dynamic_shared,
                              int *ctas_per_sm, GpudrvError *e);
    /* Device memory: allocated, freed, copied to and from the host. */
    GpudrvStatus (*alloc)(size_t bytes, uint64_t *address, GpudrvError *e);
    GpudrvStatus (*release)(uint64_t address, GpudrvError *e);
    GpudrvStatus (*upload)(uint64_t to, const void *from, size_t bytes, GpudrvError *e);
    GpudrvStatus (*download)(void *to, uint64_t from, size_t bytes, GpudrvError *e);
    /* Queues the launch (LAUNCH_FAILED when the driver refuses it).  The
     * kernel runs asynchronously: its faults are synchronize's. */
    GpudrvStatus (*launch)(GpudrvKernel kernel, const GpudrvLaunch *launch, GpudrvError *e);
    /* Waits for the work queued on the device (SYNC_FAILED when it faulted). */
    GpudrvStatus (*synchronize)(GpudrvError *e);
} GpudrvDriver;

#endif
