/*
 * cuda_driver.c: the CUDA Driver API through dlopen (cuda_driver.h), and
 * the driver table of gpu_driver.h over it (cudadrv_driver, at the end).
 *
 * load_driver runs once (pthread_once): it opens the library, resolves
 * every entry point of cuda_entries.def by its ABI name and calls
 * cuInit(0), keeping what went wrong for every later call to report.
 * After it the entry points are only read.  Each function below is one or
 * two driver calls, and a failed call becomes a GpudrvError naming the
 * entry point and its CUresult, with the driver's own name for it.
 */
#include "cuda_driver.h"

#include "cuda_abi.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The driver: the entry points and how loading it ended. */
typedef struct Driver {
#define CUDADRV_ENTRY(symbol, params) CudadrvFn_##symbol *symbol;
#include "cuda_entries.def"
#undef CUDADRV_ENTRY
    void *library;        /* dlopen's handle, kept: the driver is never unloaded */
    GpudrvError failure; /* OK, or why the driver cannot be used */
} Driver;

/* The runtime's one global, written only by load_driver under `once`. */
static Driver driver;
static pthread_once_t once = PTHREAD_ONCE_INIT;

enum { JIT_LOG_BYTES = 16384 };

const char *cudadrv_library(void)
{
    const char *path = getenv("SILK_CUDA_LIBRARY");
    return path && *path ? path : "libcuda.so.1";
}

/* `e` for `call`, which answered `result`. */
static GpudrvStatus fail(GpudrvError *e, GpudrvStatus status, const char *call, int result)
{
    *e = (GpudrvError){.status = status, .call = call, .result = result};
    const char *name = NULL;
    if (!driver.cuGetErrorName || driver.cuGetErrorName(result, &name) != CUDADRV_SUCCESS || !name)
        snprintf(e->result_name, sizeof e->result_name, "CUresult %d", result);
    else
        snprintf(e->result_name, sizeof e->result_name, "%s", name);
    const char *words = NULL;
    if (driver.cuGetErrorString && driver.cuGetErrorString(result, &words) == CUDADRV_SUCCESS && words)
        snprintf(e->result_words, sizeof e->result_words, "%s", words);
    return status;
}

static void no_driver(const char *why)
{
    driver.failure = (GpudrvError){.status = GPUDRV_NO_DRIVER};
    snprintf(driver.failure.detail, sizeof driver.failure.detail, "%s", why ? why : "unknown");
}

static void load_driver(void)
{
    void *library = driver.library = dlopen(cudadrv_library(), RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        no_driver(dlerror());
        return;
    }
    /* dlsym gives a void *, which POSIX lets hold a function's address. */
#define CUDADRV_ENTRY(symbol, params)                                                        \
    {                                                                                        \
        void *address = dlsym(library, #symbol);                                             \
        if (!address) {                                                                      \
            no_driver(dlerror());                                                            \
            return;                                                                          \
        }                                                                                    \
        memcpy(&driver.symbol, &address, sizeof address);                                    \
    }
#include "cuda_entries.def"
#undef CUDADRV_ENTRY
    int result = driver.cuInit(0);
    if (result != CUDADRV_SUCCESS)
        fail(&driver.failure, result == CUDADRV_ERROR_NO_DEVICE ? GPUDRV_NO_DEVICE : GPUDRV_DRIVER_ERROR,
             "cuInit", result);
}

/* The driver, loaded the first time; false with `e` set when unusable. */
static bool have_driver(GpudrvError *e)
{
    pthread_once(&once, load_driver);
    if (driver.failure.status == GPUDRV_OK)
        return true;
    *e = driver.failure;
    return false;
}

/* A call's result checked: `status` (usually DRIVER_ERROR) when it failed. */
#define CALL(status, name, args)                                                             \
    do {                                                                                     \
        int result_ = driver.name args;                                                      \
        if (result_ != CUDADRV_SUCCESS)                                                      \
            return fail(e, (status), #name, result_);                                        \
    } while (0)

/* ---- the device ------------------------------------------------------------------------ */

static GpudrvStatus device_figures(GpudrvDevice *d, GpudrvError *e)
{
    CALL(GPUDRV_DRIVER_ERROR, cuDeviceGetAttribute, (&d->major, CUDADRV_ATTR_CC_MAJOR, d->handle));
    CALL(GPUDRV_DRIVER_ERROR, cuDeviceGetAttribute, (&d->minor, CUDADRV_ATTR_CC_MINOR, d->handle));
    CALL(GPUDRV_DRIVER_ERROR, cuDeviceGetAttribute, (&d->sms, CUDADRV_ATTR_SM_COUNT, d->handle));
    CALL(GPUDRV_DRIVER_ERROR, cuDeviceGetName, (d->name, (int)sizeof d->name, d->handle));
    d->name[sizeof d->name - 1] = '\0';
    snprintf(d->arch, sizeof d->arch, "sm_%d", d->major * 10 + d->minor);
    return GPUDRV_OK;
}

GpudrvStatus cudadrv_device_open(int ordinal, GpudrvDevice *d, GpudrvError *e)
{
    *d = (GpudrvDevice){.ordinal = ordinal};
    if (!have_driver(e))
        return e->status;
    int count = 0;
    CALL(GPUDRV_DRIVER_ERROR, cuDeviceGetCount, (&count));
    if (ordinal < 0 || ordinal >= count) {
        *e = (GpudrvError){.status = GPUDRV_NO_DEVICE};
        snprintf(e->detail, sizeof e->detail, "the driver has %d device%s, and device %d was asked for",
                 count, count == 1 ? "" : "s", ordinal);
        return e->status;
    }
    CALL(GPUDRV_DRIVER_ERROR, cuDeviceGet, (&d->handle, ordinal));
    GpudrvStatus s = device_figures(d, e);
    if (s != GPUDRV_OK)
        return s;
    CALL(GPUDRV_DRIVER_ERROR, cuDevicePrimaryCtxRetain, (&d->context, d->handle));
    int result = driver.cuCtxSetCurrent(d->context);
    if (result != CUDADRV_SUCCESS) {
        driver.cuDevicePrimaryCtxRelease_v2(d->handle);
        d->context = NULL;
        return fail(e, GPUDRV_DRIVER_ERROR, "cuCtxSetCurrent", result);
    }
    return GPUDRV_OK;
}

GpudrvStatus cudadrv_context_use(const GpudrvDevice *d, GpudrvError *e)
{
    if (!have_driver(e))
        return e->status;
    CALL(GPUDRV_DRIVER_ERROR, cuCtxSetCurrent, (d->context));
    return GPUDRV_OK;
}

void cudadrv_device_close(GpudrvDevice *d)
{
    if (d->context)
        driver.cuDevicePrimaryCtxRelease_v2(d->handle);
    d->context = NULL;
}

/* ---- modules and kernels ------------------------------------------------------------- */

/* The first line of `log`, as the error's detail. */
static void first_line(GpudrvError *e, const char *log)
{
    size_t n = strcspn(log, "\r\n");
    snprintf(e->detail, sizeof e->detail, "%.*s", (int)n, log);
}

GpudrvStatus cudadrv_module_load(const void *image, GpudrvModule *m, GpudrvError *e)
{
    *m = (GpudrvModule){0};
    if (!have_driver(e))
        return e->status;
    m->info_log = calloc(1, JIT_LOG_BYTES);
    m->error_log = calloc(1, JIT_LOG_BYTES);
    if (!m->info_log || !m->error_log) {
        cudadrv_module_unload(m);
        *e = (GpudrvError){.status = GPUDRV_DRIVER_ERROR};
        snprintf(e->detail, sizeof e->detail, "out of host memory for the JIT's logs");
        return e->status;
    }
    /* The sizes go in as values and come back as the bytes written. */
    int options[] = {CUDADRV_JIT_INFO_LOG_BUFFER, CUDADRV_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                     CUDADRV_JIT_ERROR_LOG_BUFFER, CUDADRV_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                     CUDADRV_JIT_LOG_VERBOSE};
    void *values[] = {m->info_log, (void *)(uintptr_t)(JIT_LOG_BYTES - 1), m->error_log,
                      (void *)(uintptr_t)(JIT_LOG_BYTES - 1), (void *)(uintptr_t)1};
    int result = driver.cuModuleLoadDataEx(&m->handle, image, 5, options, values);
    if (result == CUDADRV_SUCCESS)
        return GPUDRV_OK;
    m->handle = NULL;
    fail(e, GPUDRV_MODULE_LOAD, "cuModuleLoadDataEx", result);
    first_line(e, m->error_log);
    return e->status;
}

void cudadrv_module_unload(GpudrvModule *m)
{
    if (m->handle)
        driver.cuModuleUnload(m->handle);
    free(m->info_log);
    free(m->error_log);
    *m = (GpudrvModule){0};
}

GpudrvStatus cudadrv_module_kernel(const GpudrvModule *m, const char *name, GpudrvKernel *k,
                                    GpudrvError *e)
{
    *k = (GpudrvKernel){0};
    if (!have_driver(e))
        return e->status;
    int result = driver.cuModuleGetFunction(&k->handle, m->handle, name);
    if (result == CUDADRV_SUCCESS)
        return GPUDRV_OK;
    fail(e, result == CUDADRV_ERROR_NOT_FOUND ? GPUDRV_NO_KERNEL : GPUDRV_DRIVER_ERROR,
         "cuModuleGetFunction", result);
    snprintf(e->detail, sizeof e->detail, "%s", name);
    return e->status;
}

GpudrvStatus cudadrv_kernel_allow_shared(GpudrvKernel k, size_t bytes, GpudrvError *e)
{
    if (!have_driver(e))
        return e->status;
    if (bytes == 0)
        return GPUDRV_OK;
    CALL(GPUDRV_DRIVER_ERROR, cuFuncSetAttribute,
         (k.handle, CUDADRV_FUNC_ATTR_MAX_DYNAMIC_SHARED, (int)bytes));
    return GPUDRV_OK;
}

GpudrvStatus cudadrv_occupancy(GpudrvKernel k, uint32_t threads, size_t dynamic_shared,
                                int *ctas_per_sm, GpudrvError *e)
{
    *ctas_per_sm = 0;
    if (!have_driver(e))
        return e->status;
    CALL(GPUDRV_DRIVER_ERROR, cuOccupancyMaxActiveBlocksPerMultiprocessor,
         (ctas_per_sm, k.handle, (int)threads, dynamic_shared));
    return GPUDRV_OK;
}

/* ---- memory ---------------------------------------------------------------------------- */

GpudrvStatus cudadrv_alloc(size_t bytes, uint64_t *address, GpudrvError *e)
{
    *address = 0;
    if (!have_driver(e))
        return e->status;
    unsigned long long a = 0;
    int result = driver.cuMemAlloc_v2(&a, bytes);
    if (result != CUDADRV_SUCCESS) {
        fail(e, result == CUDADRV_ERROR_OUT_OF_MEMORY ? GPUDRV_OUT_OF_MEMORY : GPUDRV_DRIVER_ERROR,
             "cuMemAlloc_v2", result);
        snprintf(e->detail, sizeof e->detail, "%zu bytes", bytes);
        return e->status;
    }
    *address = a;
    return GPUDRV_OK;
}

GpudrvStatus cudadrv_free(uint64_t address, GpudrvError *e)
{
    if (!have_driver(e))
        return e->status;
    CALL(GPUDRV_DRIVER_ERROR, cuMemFree_v2, (address));
    return GPUDRV_OK;
}

GpudrvStatus cudadrv_upload(uint64_t to, const void *from, size_t bytes, GpudrvError *e)
{
    if (!have_driver(e))
        return e->status;
    CALL(GPUDRV_DRIVER_ERROR, cuMemcpyHtoD_v2, (to, from, bytes));
    return GPUDRV_OK;
}

GpudrvStatus cudadrv_download(void *to, uint64_t from, size_t bytes, GpudrvError *e)
{
    if (!have_driver(e))
        return e->status;
    CALL(GPUDRV_DRIVER_ERROR, cuMemcpyDtoH_v2, (to, from, bytes));
    return GPUDRV_OK;
}

/* ---- launches -------------------------------------------------------------------------- */

GpudrvStatus cudadrv_launch(GpudrvKernel k, const GpudrvLaunch *l, GpudrvError *e)
{
    if (!have_driver(e))
        return e->status;
    CALL(GPUDRV_LAUNCH_FAILED, cuLaunchKernel,
         (k.handle, l->ctas, 1, 1, l->threads, 1, 1, l->dynamic_shared, NULL, l->params, NULL));
    return GPUDRV_OK;
}

GpudrvStatus cudadrv_synchronize(GpudrvError *e)
{
    if (!have_driver(e))
        return e->status;
    CALL(GPUDRV_SYNC_FAILED, cuCtxSynchronize, ());
    return GPUDRV_OK;
}

/* ---- the table ------------------------------------------------------------------------- */

const char *cudadrv_message(const GpudrvError *e, char *buf, size_t size)
{
    return gpudrv_message(GPUDRV_CUDA, e, buf, size);
}

/* "sm_90a": 90, and whether it is arch-specific; 0 when not sm_N. */
static int arch_number(const char *arch, bool *specific)
{
    char *end;
    if (!arch || strncmp(arch, "sm_", 3) != 0)
        return 0;
    long n = strtol(arch + 3, &end, 10);
    *specific = *end != '\0';
    return n > 0 && n < 10000 ? (int)n : 0;
}

/* The newest PTX the device runs first; on its own compute capability an
 * arch-specific one (sm_90a) before the plain one. */
static int rank(const GpudrvDevice *d, const char *arch)
{
    bool specific = false;
    int n = arch_number(arch, &specific), cc = d->major * 10 + d->minor;
    if (n == 0 || n > cc || (specific && n != cc))
        return 0;
    return 2 * n + specific;
}

static void wants(const GpudrvDevice *d, char *buf, size_t size)
{
    snprintf(buf, size, "sm_%d or older", d->major * 10 + d->minor);
}

const GpudrvDriver cudadrv_driver = {
    .backend = "cuda",
    .vendor = GPUDRV_CUDA,
    .units = "SMs",
    .images = GPUDRV_PTX,
    .targets = "target",
    .rank = rank,
    .wants = wants,
    .library = cudadrv_library,
    .device_open = cudadrv_device_open,
    .device_use = cudadrv_context_use,
    .module_load = cudadrv_module_load,
    .module_unload = cudadrv_module_unload,
    .module_kernel = cudadrv_module_kernel,
    .kernel_allow_shared = cudadrv_kernel_allow_shared,
    .occupancy = cudadrv_occupancy,
    .alloc = cudadrv_alloc,
    .release = cudadrv_free,
    .upload = cudadrv_upload,
    .download = cudadrv_download,
    .launch = cudadrv_launch,
    .synchronize = cudadrv_synchronize,
};
