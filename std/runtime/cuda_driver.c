/*
 * cuda_driver.c: the CUDA Driver API through dlopen (cuda_driver.h).
 *
 * load_driver runs once (pthread_once): it opens the library, resolves
 * every entry point of cuda_entries.def by its ABI name and calls
 * cuInit(0), keeping what went wrong for every later call to report.
 * After it the table is only read.  Each function below is one or two
 * driver calls, and a failed call becomes a CudadrvError naming the entry
 * point and its CUresult, with the driver's own name for it.
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
    CudadrvError failure; /* OK, or why the driver cannot be used */
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
static CudadrvStatus fail(CudadrvError *e, CudadrvStatus status, const char *call, int result)
{
    *e = (CudadrvError){.status = status, .call = call, .result = result};
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
    driver.failure = (CudadrvError){.status = CUDADRV_NO_DRIVER};
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
        fail(&driver.failure, result == CUDADRV_ERROR_NO_DEVICE ? CUDADRV_NO_DEVICE : CUDADRV_DRIVER_ERROR,
             "cuInit", result);
}

/* The driver, loaded the first time; false with `e` set when unusable. */
static bool have_driver(CudadrvError *e)
{
    pthread_once(&once, load_driver);
    if (driver.failure.status == CUDADRV_OK)
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

static CudadrvStatus device_figures(CudadrvDevice *d, CudadrvError *e)
{
    CALL(CUDADRV_DRIVER_ERROR, cuDeviceGetAttribute, (&d->major, CUDADRV_ATTR_CC_MAJOR, d->handle));
    CALL(CUDADRV_DRIVER_ERROR, cuDeviceGetAttribute, (&d->minor, CUDADRV_ATTR_CC_MINOR, d->handle));
    CALL(CUDADRV_DRIVER_ERROR, cuDeviceGetAttribute, (&d->sms, CUDADRV_ATTR_SM_COUNT, d->handle));
    CALL(CUDADRV_DRIVER_ERROR, cuDeviceGetName, (d->name, (int)sizeof d->name, d->handle));
    d->name[sizeof d->name - 1] = '\0';
    return CUDADRV_OK;
}

CudadrvStatus cudadrv_device_open(int ordinal, CudadrvDevice *d, CudadrvError *e)
{
    *d = (CudadrvDevice){.ordinal = ordinal};
    if (!have_driver(e))
        return e->status;
    int count = 0;
    CALL(CUDADRV_DRIVER_ERROR, cuDeviceGetCount, (&count));
    if (ordinal < 0 || ordinal >= count) {
        *e = (CudadrvError){.status = CUDADRV_NO_DEVICE};
        snprintf(e->detail, sizeof e->detail, "the driver has %d device%s, and device %d was asked for",
                 count, count == 1 ? "" : "s", ordinal);
        return e->status;
    }
    CALL(CUDADRV_DRIVER_ERROR, cuDeviceGet, (&d->handle, ordinal));
    CudadrvStatus s = device_figures(d, e);
    if (s != CUDADRV_OK)
        return s;
    CALL(CUDADRV_DRIVER_ERROR, cuDevicePrimaryCtxRetain, (&d->context, d->handle));
    int result = driver.cuCtxSetCurrent(d->context);
    if (result != CUDADRV_SUCCESS) {
        driver.cuDevicePrimaryCtxRelease_v2(d->handle);
        d->context = NULL;
        return fail(e, CUDADRV_DRIVER_ERROR, "cuCtxSetCurrent", result);
    }
    return CUDADRV_OK;
}

CudadrvStatus cudadrv_context_use(const CudadrvDevice *d, CudadrvError *e)
{
    if (!have_driver(e))
        return e->status;
    CALL(CUDADRV_DRIVER_ERROR, cuCtxSetCurrent, (d->context));
    return CUDADRV_OK;
}

void cudadrv_device_close(CudadrvDevice *d)
{
    if (d->context)
        driver.cuDevicePrimaryCtxRelease_v2(d->handle);
    d->context = NULL;
}

/* ---- modules and kernels ------------------------------------------------------------- */

/* The first line of `log`, as the error's detail. */
static void first_line(CudadrvError *e, const char *log)
{
    size_t n = strcspn(log, "\r\n");
    snprintf(e->detail, sizeof e->detail, "%.*s", (int)n, log);
}

CudadrvStatus cudadrv_module_load(const void *image, CudadrvModule *m, CudadrvError *e)
{
    *m = (CudadrvModule){0};
    if (!have_driver(e))
        return e->status;
    m->info_log = calloc(1, JIT_LOG_BYTES);
    m->error_log = calloc(1, JIT_LOG_BYTES);
    if (!m->info_log || !m->error_log) {
        cudadrv_module_unload(m);
        *e = (CudadrvError){.status = CUDADRV_DRIVER_ERROR};
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
        return CUDADRV_OK;
    m->handle = NULL;
    fail(e, CUDADRV_MODULE_LOAD, "cuModuleLoadDataEx", result);
    first_line(e, m->error_log);
    return e->status;
}

void cudadrv_module_unload(CudadrvModule *m)
{
    if (m->handle)
        driver.cuModuleUnload(m->handle);
    free(m->info_log);
    free(m->error_log);
    *m = (CudadrvModule){0};
}

CudadrvStatus cudadrv_module_kernel(const CudadrvModule *m, const char *name, CudadrvKernel *k,
                                    CudadrvError *e)
{
    *k = (CudadrvKernel){0};
    if (!have_driver(e))
        return e->status;
    int result = driver.cuModuleGetFunction(&k->handle, m->handle, name);
    if (result == CUDADRV_SUCCESS)
        return CUDADRV_OK;
    fail(e, result == CUDADRV_ERROR_NOT_FOUND ? CUDADRV_NO_KERNEL : CUDADRV_DRIVER_ERROR,
         "cuModuleGetFunction", result);
    snprintf(e->detail, sizeof e->detail, "%s", name);
    return e->status;
}

CudadrvStatus cudadrv_kernel_allow_shared(CudadrvKernel k, size_t bytes, CudadrvError *e)
{
    if (!have_driver(e))
        return e->status;
    if (bytes == 0)
        return CUDADRV_OK;
    CALL(CUDADRV_DRIVER_ERROR, cuFuncSetAttribute,
         (k.handle, CUDADRV_FUNC_ATTR_MAX_DYNAMIC_SHARED, (int)bytes));
    return CUDADRV_OK;
}

CudadrvStatus cudadrv_occupancy(CudadrvKernel k, uint32_t threads, size_t dynamic_shared,
                                int *ctas_per_sm, CudadrvError *e)
{
    *ctas_per_sm = 0;
    if (!have_driver(e))
        return e->status;
    CALL(CUDADRV_DRIVER_ERROR, cuOccupancyMaxActiveBlocksPerMultiprocessor,
         (ctas_per_sm, k.handle, (int)threads, dynamic_shared));
    return CUDADRV_OK;
}

/* ---- memory ---------------------------------------------------------------------------- */

CudadrvStatus cudadrv_alloc(size_t bytes, uint64_t *address, CudadrvError *e)
{
    *address = 0;
    if (!have_driver(e))
        return e->status;
    unsigned long long a = 0;
    int result = driver.cuMemAlloc_v2(&a, bytes);
    if (result != CUDADRV_SUCCESS) {
        fail(e, result == CUDADRV_ERROR_OUT_OF_MEMORY ? CUDADRV_OUT_OF_MEMORY : CUDADRV_DRIVER_ERROR,
             "cuMemAlloc_v2", result);
        snprintf(e->detail, sizeof e->detail, "%zu bytes", bytes);
        return e->status;
    }
    *address = a;
    return CUDADRV_OK;
}

CudadrvStatus cudadrv_free(uint64_t address, CudadrvError *e)
{
    if (!have_driver(e))
        return e->status;
    CALL(CUDADRV_DRIVER_ERROR, cuMemFree_v2, (address));
    return CUDADRV_OK;
}

CudadrvStatus cudadrv_upload(uint64_t to, const void *from, size_t bytes, CudadrvError *e)
{
    if (!have_driver(e))
        return e->status;
    CALL(CUDADRV_DRIVER_ERROR, cuMemcpyHtoD_v2, (to, from, bytes));
    return CUDADRV_OK;
}

CudadrvStatus cudadrv_download(void *to, uint64_t from, size_t bytes, CudadrvError *e)
{
    if (!have_driver(e))
        return e->status;
    CALL(CUDADRV_DRIVER_ERROR, cuMemcpyDtoH_v2, (to, from, bytes));
    return CUDADRV_OK;
}

/* ---- launches -------------------------------------------------------------------------- */

CudadrvStatus cudadrv_launch(CudadrvKernel k, const CudadrvLaunch *l, CudadrvError *e)
{
    if (!have_driver(e))
        return e->status;
    CALL(CUDADRV_LAUNCH_FAILED, cuLaunchKernel,
         (k.handle, l->ctas, 1, 1, l->threads, 1, 1, l->dynamic_shared, NULL, l->params, NULL));
    return CUDADRV_OK;
}

CudadrvStatus cudadrv_synchronize(CudadrvError *e)
{
    if (!have_driver(e))
        return e->status;
    CALL(CUDADRV_SYNC_FAILED, cuCtxSynchronize, ());
    return CUDADRV_OK;
}
