/*
 * hip_driver.c: the HIP runtime API through dlopen, as the driver table
 * of gpu_driver.h (hipdrv_driver, at the end; hip_driver.h).
 *
 * load_library runs once (pthread_once): it opens the library, resolves
 * every entry point of hip_entries.def by name and calls hipInit(0),
 * keeping what went wrong for every later call to report.  After it the
 * entry points are only read.  Each function below is one or two HIP
 * calls, and a failed call becomes a GpudrvError naming the entry point
 * and its hipError_t, with HIP's own name for it.
 */
#include "hip_driver.h"

#include "hip_abi.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The library: the entry points and how loading it ended. */
typedef struct Library {
#define HIPDRV_ENTRY(result, symbol, params, required) HipdrvFn_##symbol *symbol;
#include "hip_entries.def"
#undef HIPDRV_ENTRY
    void *handle;         /* dlopen's, kept: the library is never unloaded */
    const char *path;     /* the name it was opened by */
    GpudrvError failure;  /* OK, or why it cannot be used */
} Library;

/* The runtime's one global of HIP, written only by load_library under `once`. */
static Library hip;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* The sonames of HIP 6 and HIP 5, then the development link. */
static const char *const default_libraries[] = {"libamdhip64.so.6", "libamdhip64.so.5", "libamdhip64.so"};

static const char *override(void)
{
    const char *path = getenv("SILK_HIP_LIBRARY");
    return path && *path ? path : NULL;
}

static const char *loaded(void)
{
    return hip.handle && hip.failure.status == GPUDRV_OK ? hip.path : NULL;
}

/* `e` for `call`, which answered `result`. */
static GpudrvStatus fail(GpudrvError *e, GpudrvStatus status, const char *call, int result)
{
    *e = (GpudrvError){.status = status, .call = call, .result = result};
    const char *name = hip.hipGetErrorName ? hip.hipGetErrorName(result) : NULL;
    /* HIP names a code it does not know hipErrorUnknown: the number says more. */
    if (!name || !*name || (strcmp(name, "hipErrorUnknown") == 0 && result != HIPDRV_ERROR_UNKNOWN))
        snprintf(e->result_name, sizeof e->result_name, "hipError_t %d", result);
    else
        snprintf(e->result_name, sizeof e->result_name, "%s", name);
    const char *words = hip.hipGetErrorString ? hip.hipGetErrorString(result) : NULL;
    if (words && strcmp(e->result_name, name ? name : "") == 0)
        snprintf(e->result_words, sizeof e->result_words, "%s", words);
    return status;
}

static void no_library(const char *why)
{
    hip.failure = (GpudrvError){.status = GPUDRV_NO_DRIVER};
    snprintf(hip.failure.detail, sizeof hip.failure.detail, "%s", why ? why : "unknown");
}

/* The library by its override, else the first default that opens. */
static void *open_library(void)
{
    if (override()) {
        hip.path = override();
        return dlopen(hip.path, RTLD_NOW | RTLD_LOCAL);
    }
    char first[400] = "";
    for (size_t i = 0; i < sizeof default_libraries / sizeof *default_libraries; i++) {
        void *handle = dlopen(default_libraries[i], RTLD_NOW | RTLD_LOCAL);
        if (handle) {
            hip.path = default_libraries[i];
            return handle;
        }
        if (i == 0)
            snprintf(first, sizeof first, "%s", dlerror());
    }
    char why[512];
    snprintf(why, sizeof why, "%s (nor %s, %s)", first, default_libraries[1], default_libraries[2]);
    no_library(why);
    return NULL;
}

static void load_library(void)
{
    void *handle = hip.handle = open_library();
    if (!handle) {
        if (override())
            no_library(dlerror());
        return;
    }
    /* dlsym gives a void *, which POSIX lets hold a function's address. */
#define HIPDRV_ENTRY(result, symbol, params, required)                                       \
    {                                                                                        \
        void *address = dlsym(handle, #symbol);                                              \
        if (!address && (required)) {                                                        \
            no_library(dlerror());                                                           \
            return;                                                                          \
        }                                                                                    \
        memcpy(&hip.symbol, &address, sizeof address);                                       \
    }
#include "hip_entries.def"
#undef HIPDRV_ENTRY
    int result = hip.hipInit(0);
    if (result != HIPDRV_SUCCESS)
        fail(&hip.failure, result == HIPDRV_ERROR_NO_DEVICE ? GPUDRV_NO_DEVICE : GPUDRV_DRIVER_ERROR,
             "hipInit", result);
}

/* The library, loaded the first time; false with `e` set when unusable. */
static bool have_library(GpudrvError *e)
{
    pthread_once(&once, load_library);
    if (hip.failure.status == GPUDRV_OK)
        return true;
    *e = hip.failure;
    return false;
}

/* A call's result checked: `status` (usually DRIVER_ERROR) when it failed. */
#define CALL(status, name, args)                                                             \
    do {                                                                                     \
        int result_ = hip.name args;                                                         \
        if (result_ != HIPDRV_SUCCESS)                                                       \
            return fail(e, (status), #name, result_);                                        \
    } while (0)

/* ---- the device ------------------------------------------------------------------------ */

/* The gfx name from hipDeviceProp_tR0600, when its layout checks out
 * (hip_driver.h); "" otherwise.  The buffer is larger than the struct,
 * in case a newer HIP writes more. */
static void device_arch(GpudrvDevice *d)
{
    _Alignas(16) unsigned char props[4 * HIPDRV_PROP_R0600_SIZE] = {0};
    d->arch[0] = '\0';
    if (!hip.hipGetDevicePropertiesR0600)
        return;
    if (hip.hipGetDevicePropertiesR0600(props, d->ordinal) != HIPDRV_SUCCESS)
        return;
    int cus;
    memcpy(&cus, props + HIPDRV_PROP_R0600_CU_COUNT, sizeof cus);
    const char *arch = (const char *)props + HIPDRV_PROP_R0600_GCN_ARCH_NAME;
    if (cus != d->sms || strncmp(arch, "gfx", 3) != 0 ||
        !memchr(arch, '\0', HIPDRV_PROP_R0600_STRING_BYTES))
        return;
    size_t n = strnlen(arch, sizeof d->arch - 1);
    memcpy(d->arch, arch, n);
    d->arch[n] = '\0';
}

static GpudrvStatus device_figures(GpudrvDevice *d, GpudrvError *e)
{
    CALL(GPUDRV_DRIVER_ERROR, hipDeviceGetAttribute, (&d->sms, HIPDRV_ATTR_CU_COUNT, d->ordinal));
    CALL(GPUDRV_DRIVER_ERROR, hipDeviceGetName, (d->name, (int)sizeof d->name, d->ordinal));
    d->name[sizeof d->name - 1] = '\0';
    device_arch(d);
    return GPUDRV_OK;
}

static GpudrvStatus device_open(int ordinal, GpudrvDevice *d, GpudrvError *e)
{
    *d = (GpudrvDevice){.ordinal = ordinal};
    if (!have_library(e))
        return e->status;
    int count = 0;
    int result = hip.hipGetDeviceCount(&count);
    if (result == HIPDRV_ERROR_NO_DEVICE)
        return fail(e, GPUDRV_NO_DEVICE, "hipGetDeviceCount", result);
    if (result != HIPDRV_SUCCESS)
        return fail(e, GPUDRV_DRIVER_ERROR, "hipGetDeviceCount", result);
    if (ordinal < 0 || ordinal >= count) {
        *e = (GpudrvError){.status = GPUDRV_NO_DEVICE};
        snprintf(e->detail, sizeof e->detail, "the runtime has %d device%s, and device %d was asked for",
                 count, count == 1 ? "" : "s", ordinal);
        return e->status;
    }
    CALL(GPUDRV_DRIVER_ERROR, hipSetDevice, (ordinal));
    return device_figures(d, e);
}

static GpudrvStatus device_use(const GpudrvDevice *d, GpudrvError *e)
{
    if (!have_library(e))
        return e->status;
    CALL(GPUDRV_DRIVER_ERROR, hipSetDevice, (d->ordinal));
    return GPUDRV_OK;
}

/* ---- modules and kernels ------------------------------------------------------------- */

static GpudrvStatus module_load(const void *image, GpudrvModule *m, GpudrvError *e)
{
    *m = (GpudrvModule){0};
    if (!have_library(e))
        return e->status;
    int result = hip.hipModuleLoadData(&m->handle, image);
    if (result == HIPDRV_SUCCESS)
        return GPUDRV_OK;
    m->handle = NULL;
    return fail(e, GPUDRV_MODULE_LOAD, "hipModuleLoadData", result);
}

static void module_unload(GpudrvModule *m)
{
    if (m->handle)
        hip.hipModuleUnload(m->handle);
    *m = (GpudrvModule){0};
}

static GpudrvStatus module_kernel(const GpudrvModule *m, const char *name, GpudrvKernel *k,
                                  GpudrvError *e)
{
    *k = (GpudrvKernel){0};
    if (!have_library(e))
        return e->status;
    int result = hip.hipModuleGetFunction(&k->handle, m->handle, name);
    if (result == HIPDRV_SUCCESS)
        return GPUDRV_OK;
    fail(e, result == HIPDRV_ERROR_NOT_FOUND ? GPUDRV_NO_KERNEL : GPUDRV_DRIVER_ERROR,
         "hipModuleGetFunction", result);
    snprintf(e->detail, sizeof e->detail, "%s", name);
    return e->status;
}

static GpudrvStatus occupancy(GpudrvKernel k, uint32_t threads, size_t dynamic_shared,
                              int *ctas_per_cu, GpudrvError *e)
{
    *ctas_per_cu = 0;
    if (!have_library(e))
        return e->status;
    CALL(GPUDRV_DRIVER_ERROR, hipModuleOccupancyMaxActiveBlocksPerMultiprocessor,
         (ctas_per_cu, k.handle, (int)threads, dynamic_shared));
    return GPUDRV_OK;
}

/* ---- memory ---------------------------------------------------------------------------- */

static GpudrvStatus alloc(size_t bytes, uint64_t *address, GpudrvError *e)
{
    *address = 0;
    if (!have_library(e))
        return e->status;
    void *a = NULL;
    int result = hip.hipMalloc(&a, bytes);
    if (result != HIPDRV_SUCCESS) {
        fail(e, result == HIPDRV_ERROR_OUT_OF_MEMORY ? GPUDRV_OUT_OF_MEMORY : GPUDRV_DRIVER_ERROR,
             "hipMalloc", result);
        snprintf(e->detail, sizeof e->detail, "%zu bytes", bytes);
        return e->status;
    }
    *address = (uint64_t)(uintptr_t)a;
    return GPUDRV_OK;
}

static GpudrvStatus release(uint64_t address, GpudrvError *e)
{
    if (!have_library(e))
        return e->status;
    CALL(GPUDRV_DRIVER_ERROR, hipFree, ((void *)(uintptr_t)address));
    return GPUDRV_OK;
}

static GpudrvStatus upload(uint64_t to, const void *from, size_t bytes, GpudrvError *e)
{
    if (!have_library(e))
        return e->status;
    /* HIP declares the source void *; it only reads it. */
    void *source;
    memcpy(&source, &from, sizeof source);
    CALL(GPUDRV_DRIVER_ERROR, hipMemcpyHtoD, ((void *)(uintptr_t)to, source, bytes));
    return GPUDRV_OK;
}

static GpudrvStatus download(void *to, uint64_t from, size_t bytes, GpudrvError *e)
{
    if (!have_library(e))
        return e->status;
    CALL(GPUDRV_DRIVER_ERROR, hipMemcpyDtoH, (to, (void *)(uintptr_t)from, bytes));
    return GPUDRV_OK;
}

/* ---- launches -------------------------------------------------------------------------- */

static GpudrvStatus launch(GpudrvKernel k, const GpudrvLaunch *l, GpudrvError *e)
{
    if (!have_library(e))
        return e->status;
    CALL(GPUDRV_LAUNCH_FAILED, hipModuleLaunchKernel,
         (k.handle, l->ctas, 1, 1, l->threads, 1, 1, l->dynamic_shared, NULL, l->params, NULL));
    return GPUDRV_OK;
}

static GpudrvStatus synchronize(GpudrvError *e)
{
    if (!have_library(e))
        return e->status;
    CALL(GPUDRV_SYNC_FAILED, hipDeviceSynchronize, ());
    return GPUDRV_OK;
}

/* ---- the table ------------------------------------------------------------------------- */

/* The length of the target in a gfx name: "gfx942:sramecc+" -> 6. */
static size_t target_length(const char *arch)
{
    return strcspn(arch, ":");
}

/* The code object of the device's target; when its gfx name is unknown,
 * every one alike (hip_driver.h). */
static int rank(const GpudrvDevice *d, const char *arch)
{
    size_t n = target_length(d->arch);
    if (n == 0)
        return 1;
    return arch && strlen(arch) == n && strncmp(arch, d->arch, n) == 0;
}

static void wants(const GpudrvDevice *d, char *buf, size_t size)
{
    size_t n = target_length(d->arch);
    if (n == 0)
        snprintf(buf, size, "an AMD GPU");
    else
        snprintf(buf, size, "%.*s", (int)n, d->arch);
}

const GpudrvDriver hipdrv_driver = {
    .backend = "hip",
    .vendor = GPUDRV_HIP,
    .units = "CUs",
    .images = GPUDRV_CODE_OBJECTS,
    .targets = "AMD target",
    .rank = rank,
    .wants = wants,
    .library = loaded,
    .device_open = device_open,
    .device_use = device_use,
    .module_load = module_load,
    .module_unload = module_unload,
    .module_kernel = module_kernel,
    .kernel_allow_shared = NULL, /* none asked: hipModuleLaunchKernel takes the LDS bytes as they are */
    .occupancy = occupancy,
    .alloc = alloc,
    .release = release,
    .upload = upload,
    .download = download,
    .launch = launch,
    .synchronize = synchronize,
};
