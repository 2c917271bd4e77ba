/*
 * silkrt_gpu.c: the GPU backend, written once over a driver table
 * (gpu_driver.h): CUDA's (cuda_driver.c) or HIP's (hip_driver.c),
 * whichever silkrt_state.c opened.  The two APIs are the same call for
 * call, so one adapter serves both, and a fix here is a fix for both.
 *
 * Device 0 is opened when the backend is chosen, and made each thread's
 * (CUDA: its primary context current; HIP: hipSetDevice) the first time
 * that thread calls the runtime.  The module is loaded at the first
 * launch (silkrt_module.c); each kernel is looked up, and its dynamic
 * shared memory declared where the driver wants that, at its first
 * launch.  A @persistent launch starts min(logical, multiprocessors x
 * the driver's occupancy answer) CTAs (silkrt_dispatch.c).
 *
 * The driver's statuses pass through unchanged (CUresult, hipError_t),
 * and last_error names them: "CUDA_ERROR_LAUNCH_FAILED: kernel fill:
 * cuLaunchKernel: unspecified launch failure".
 */
#include "silkrt_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

enum { MAX_PARAMS = 64 };

/* The driver's words for a status of its own. */
static const char *words(GpudrvStatus status)
{
    return gpudrv_status_words(silkrt_state.gpu.driver->vendor, status);
}

int32_t silkrt_gpu_fail(const GpudrvError *e, const char *what)
{
    const char *sep = what ? ": " : "";
    what = what ? what : "";
    if (e->call)
        return silkrt_fail_text(e->result, "%s: %s%s%s: %s%s%s", e->result_name, what, sep, e->call,
                                e->result_words[0] ? e->result_words : words(e->status),
                                e->detail[0] ? ": " : "", e->detail);
    char line[768];
    gpudrv_message(silkrt_state.gpu.driver->vendor, e, line, sizeof line);
    int32_t status = e->status == GPUDRV_NO_DEVICE       ? SILKRT_NO_DEVICE
                     : e->status == GPUDRV_OUT_OF_MEMORY ? SILKRT_OUT_OF_MEMORY
                     : e->status == GPUDRV_MODULE_LOAD   ? SILKRT_MODULE_LOAD
                                                         : SILKRT_NO_DRIVER;
    return silkrt_fail(status, "%s%s%s", what, sep, line);
}

/* A call of kernel k's that failed. */
static int32_t kernel_fail(const GpudrvError *e, uint32_t k)
{
    char what[160];
    snprintf(what, sizeof what, "kernel %s", silkrt_state.program->kernels[k].name);
    return silkrt_gpu_fail(e, what);
}

int32_t silkrt_gpu_open(const GpudrvDriver *driver, char *name, size_t name_size, char *why,
                        size_t size)
{
    SilkrtGpu *g = &silkrt_state.gpu;
    GpudrvDevice *d = &g->device;
    GpudrvError e;
    g->driver = driver;
    snprintf(name, name_size, "%s", "");
    if (driver->device_open(0, d, &e) != GPUDRV_OK) {
        if (e.status == GPUDRV_NO_DRIVER || e.status == GPUDRV_NO_DEVICE || !e.call) {
            gpudrv_message(driver->vendor, &e, why, size);
            return e.status == GPUDRV_NO_DEVICE ? SILKRT_NO_DEVICE : SILKRT_NO_DRIVER;
        }
        snprintf(name, name_size, "%s", e.result_name);
        snprintf(why, size, "%s: %s", e.call, e.result_words[0] ? e.result_words : words(e.status));
        return e.result;
    }
    silkrt_thread.gpu_current = true;
    snprintf(why, size, "%s has device 0", driver->library());
    silkrt_say("device 0: %s (%s, %d %s)", d->name, d->arch[0] ? d->arch : "target unknown", d->sms,
               driver->units);
    return SILKRT_OK;
}

/* The device this thread's. */
static int32_t current(void)
{
    if (silkrt_thread.gpu_current)
        return SILKRT_OK;
    GpudrvError e;
    if (silkrt_state.gpu.driver->device_use(&silkrt_state.gpu.device, &e) != GPUDRV_OK)
        return silkrt_gpu_fail(&e, NULL);
    silkrt_thread.gpu_current = true;
    return SILKRT_OK;
}

static int32_t gpu_alloc(uint64_t bytes, uint64_t *address)
{
    GpudrvError e;
    int32_t status = current();
    if (status == SILKRT_OK && bytes > SIZE_MAX)
        status = silkrt_fail(SILKRT_OUT_OF_MEMORY, "Buffer.alloc: %" PRIu64 " bytes", bytes);
    if (status == SILKRT_OK && silkrt_state.gpu.driver->alloc((size_t)bytes, address, &e) != GPUDRV_OK)
        status = silkrt_gpu_fail(&e, "Buffer.alloc");
    return status;
}

static int32_t gpu_release(uint64_t address)
{
    GpudrvError e;
    int32_t status = current();
    if (status == SILKRT_OK && silkrt_state.gpu.driver->release(address, &e) != GPUDRV_OK)
        status = silkrt_gpu_fail(&e, "Buffer.release");
    return status;
}

static int32_t gpu_upload(uint64_t to, const void *from, uint64_t bytes)
{
    GpudrvError e;
    int32_t status = current();
    if (status == SILKRT_OK && silkrt_state.gpu.driver->upload(to, from, (size_t)bytes, &e) != GPUDRV_OK)
        status = silkrt_gpu_fail(&e, "Buffer.upload");
    return status;
}

static int32_t gpu_download(void *to, uint64_t from, uint64_t bytes)
{
    GpudrvError e;
    int32_t status = current();
    if (status == SILKRT_OK &&
        silkrt_state.gpu.driver->download(to, from, (size_t)bytes, &e) != GPUDRV_OK)
        status = silkrt_gpu_fail(&e, "Buffer.download");
    return status;
}

static int32_t gpu_prepare(uint32_t k)
{
    const GpudrvDriver *driver = silkrt_state.gpu.driver;
    GpudrvKernel *kernel = &silkrt_state.kernels[k].gpu;
    int32_t status = current();
    if (status == SILKRT_OK)
        status = silkrt_module_kernel(k, kernel);
    if (status != SILKRT_OK || !driver->kernel_allow_shared)
        return status;
    GpudrvError e;
    size_t shared = (size_t)silkrt_state.program->kernels[k].dynamic_shared;
    if (driver->kernel_allow_shared(*kernel, shared, &e) != GPUDRV_OK)
        return kernel_fail(&e, k);
    return SILKRT_OK;
}

static int32_t gpu_resident(uint32_t k, uint32_t threads, uint64_t *ctas)
{
    const SilkrtKernel *rk = &silkrt_state.program->kernels[k];
    GpudrvError e;
    int per_sm = 0;
    int32_t status = current();
    if (status != SILKRT_OK)
        return status;
    if (silkrt_state.gpu.driver->occupancy(silkrt_state.kernels[k].gpu, threads,
                                           (size_t)rk->dynamic_shared, &per_sm, &e) != GPUDRV_OK)
        return kernel_fail(&e, k);
    *ctas = (uint64_t)silkrt_state.gpu.device.sms * (uint64_t)(per_sm > 0 ? per_sm : 0);
    return SILKRT_OK;
}

static int32_t gpu_launch(uint32_t k, uint64_t ctas, uint32_t threads, const uint64_t *params,
                          uint32_t n)
{
    const SilkrtKernel *rk = &silkrt_state.program->kernels[k];
    uint64_t values[MAX_PARAMS];
    void *pointers[MAX_PARAMS];
    int32_t status = current(); /* prepared on another thread, maybe */
    if (status != SILKRT_OK)
        return status;
    for (uint32_t i = 0; i < n && i < MAX_PARAMS; i++) {
        values[i] = params[i]; /* every parameter is a u64 (the launchable ABI) */
        pointers[i] = &values[i];
    }
    GpudrvLaunch launch = {.ctas = (uint32_t)ctas, .threads = threads,
                           .dynamic_shared = (uint32_t)rk->dynamic_shared, .params = pointers};
    GpudrvError e;
    if (silkrt_state.gpu.driver->launch(silkrt_state.kernels[k].gpu, &launch, &e) != GPUDRV_OK)
        return kernel_fail(&e, k);
    return SILKRT_OK;
}

static int32_t gpu_synchronize(void)
{
    GpudrvError e;
    int32_t status = current();
    if (status == SILKRT_OK && silkrt_state.gpu.driver->synchronize(&e) != GPUDRV_OK)
        status = silkrt_gpu_fail(&e, NULL);
    return status;
}

const SilkrtBackend silkrt_backend_gpu = {
    .name = "gpu",
    .alloc = gpu_alloc,
    .release = gpu_release,
    .upload = gpu_upload,
    .download = gpu_download,
    .prepare = gpu_prepare,
    .resident = gpu_resident,
    .launch = gpu_launch,
    .synchronize = gpu_synchronize,
};
