/*
 * hip_driver.h: libsilkrt's HIP runtime: an AMD GPU found and made the
 * calling thread's device, a code object loaded (hipModuleLoadData), a
 * kernel launched (hipModuleLaunchKernel) and synchronised, and device
 * memory, through the HIP runtime API.  The API is cuda_driver.h's, call
 * for call, so that the two backends read alike.
 *
 * HIP is not linked: the first call loads it with dlopen, from
 * $SILK_HIP_LIBRARY when that is set (the test double,
 * tests/runtime/fake_hip.c, is loaded so), else the first of
 * libamdhip64.so.6, libamdhip64.so.5 and libamdhip64.so that opens, once
 * per process (pthread_once), and resolves the entry points of
 * hip_entries.def; a program built with this library therefore starts on
 * machines with no ROCm at all, and says so when an AMD GPU is asked for.
 * The loaded library is written once under pthread_once and only read
 * after, so the functions may be called from any thread; it is never
 * unloaded.
 *
 * The device's gfx name ("gfx942:sramecc+:xnack-"), which picks the code
 * object to load, is read from hipDeviceProp_tR0600.gcnArchName, at the
 * offset hip_constants.def gives, through hipGetDevicePropertiesR0600
 * (HIP 6 and later) into a buffer larger than the struct.  HIP has no
 * device attribute for it, and the struct's layout changes between
 * versions, so the read is checked: the struct's multiProcessorCount must
 * equal hipDeviceAttributeMultiprocessorCount's answer and the name must
 * start "gfx" within its 256 bytes; otherwise (and on HIP 5, which lacks
 * the entry point) the name is "" and the caller tries every code object
 * it has, as the runtime refuses those for another ISA.
 *
 * Every call that can fail returns a HipdrvStatus and, unless OK, fills a
 * HipdrvError that hipdrv_message turns into one line.
 */
#ifndef SILK_HIP_DRIVER_H
#define SILK_HIP_DRIVER_H

#include <stddef.h>
#include <stdint.h>

typedef enum HipdrvStatus {
#define HIPDRV_STATUS(name, words) HIPDRV_##name,
#include "hip_status.def"
#undef HIPDRV_STATUS
} HipdrvStatus;

/* Why a call failed. */
typedef struct HipdrvError {
    HipdrvStatus status;
    const char *call;       /* the entry point that failed ("hipModuleLaunchKernel"); NULL: none */
    int result;             /* its hipError_t */
    char result_name[64];   /* hipGetErrorName's ("hipErrorLaunchFailure"), else "hipError_t N" */
    char result_words[128]; /* hipGetErrorString's ("unspecified launch failure"), else "" */
    char detail[512];       /* dlerror()'s lines, ...; "" if none */
} HipdrvError;

/* The status's words ("no HIP runtime"). */
const char *hipdrv_status_words(HipdrvStatus status);

/* One line for `e`, as "the launch failed: hipModuleLaunchKernel:
 * hipErrorLaunchFailure (719)" or "no HIP runtime: libamdhip64.so.6:
 * cannot open shared object file: No such file or directory", into
 * `buf`; returns `buf`. */
const char *hipdrv_message(const HipdrvError *e, char *buf, size_t size);

/* The library that loaded ("libamdhip64.so.6"); NULL before or when none did. */
const char *hipdrv_loaded(void);

/* A device, made the calling thread's. */
typedef struct HipdrvDevice {
    int ordinal;
    int cus;                /* compute units */
    char name[256];         /* hipDeviceGetName's ("AMD Instinct MI300X") */
    char arch[256];         /* gcnArchName ("gfx942:sramecc+:xnack-"); "" when unknown */
} HipdrvDevice;

/* Loads the library (the first time), initialises it, and opens device
 * `ordinal`: its figures, and it made the calling thread's device. */
HipdrvStatus hipdrv_device_open(int ordinal, HipdrvDevice *device, HipdrvError *e);

/* Makes the device the calling thread's (hipSetDevice), for a thread
 * other than the one that opened it. */
HipdrvStatus hipdrv_device_use(const HipdrvDevice *device, HipdrvError *e);

/* A loaded code object. */
typedef struct HipdrvModule {
    void *handle;           /* NULL when the load failed */
} HipdrvModule;

/* Loads `image`, an AMDHSA code object (an ELF file's bytes) for the
 * current device's ISA. */
HipdrvStatus hipdrv_module_load(const void *image, HipdrvModule *module, HipdrvError *e);
void hipdrv_module_unload(HipdrvModule *module);

/* A kernel of a module. */
typedef struct HipdrvKernel {
    void *handle;
} HipdrvKernel;

/* The kernel `name`; NO_KERNEL when the module has none. */
HipdrvStatus hipdrv_module_kernel(const HipdrvModule *module, const char *name, HipdrvKernel *kernel,
                                  HipdrvError *e);

/* The workgroups of `threads` work items and `dynamic_shared` bytes that
 * one compute unit holds at once
 * (hipModuleOccupancyMaxActiveBlocksPerMultiprocessor). */
HipdrvStatus hipdrv_occupancy(HipdrvKernel kernel, uint32_t threads, size_t dynamic_shared,
                              int *ctas_per_cu, HipdrvError *e);

/* Device memory: allocated, freed, copied to and from the host. */
HipdrvStatus hipdrv_alloc(size_t bytes, uint64_t *address, HipdrvError *e);
HipdrvStatus hipdrv_free(uint64_t address, HipdrvError *e);
HipdrvStatus hipdrv_upload(uint64_t to, const void *from, size_t bytes, HipdrvError *e);
HipdrvStatus hipdrv_download(void *to, uint64_t from, size_t bytes, HipdrvError *e);

/* One launch on the null stream: a one-dimensional grid. */
typedef struct HipdrvLaunch {
    uint32_t ctas;          /* gridDim.x (workgroups), 1 to 2^31 - 1 */
    uint32_t threads;       /* blockDim.x (work items per workgroup) */
    uint32_t dynamic_shared;/* bytes of LDS */
    void **params;          /* each parameter's bytes, in the kernel's order and sizes */
} HipdrvLaunch;

/* Queues the launch (LAUNCH_FAILED when the runtime refuses it).  The
 * kernel runs asynchronously: its faults are hipdrv_synchronize's. */
HipdrvStatus hipdrv_launch(HipdrvKernel kernel, const HipdrvLaunch *launch, HipdrvError *e);

/* Waits for the work queued on the device (SYNC_FAILED when it faulted). */
HipdrvStatus hipdrv_synchronize(HipdrvError *e);

#endif
