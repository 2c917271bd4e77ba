/*
 * silkrt_cuda.c: the CUDA backend, over the Driver API of cuda_driver.h
 * (loaded with dlopen at the first use: nothing links against CUDA).
 *
 * Device 0 is opened when the backend is chosen, and its primary context
 * made current on each thread the first time that thread calls the
 * runtime.  The module is loaded at the first launch: of the program's
 * PTX (SilkrtProgram.ptx, oldest target first), the newest the device can
 * run (sm_XY at most its compute capability; an arch-specific sm_XYa
 * only on XY itself), and when the driver cannot load that one, the next
 * older; none loading is MODULE_LOAD for every launch, with the JIT's
 * error log in last_error.
 *
 * The driver's statuses pass through unchanged (CUresult), and
 * last_error names them: "CUDA_ERROR_LAUNCH_FAILED: kernel fill:
 * cuLaunchKernel: unspecified launch failure".
 */
#include "silkrt_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_PARAMS = 64 };

/* `e` as this thread's last_error; the status: the driver's own code, or
 * the runtime's when the driver was not reached.  `what` says what was
 * being done ("kernel fill", "Buffer.alloc"), or is NULL. */
static int32_t driver_fail(const CudadrvError *e, const char *what)
{
    const char *sep = what ? ": " : "";
    what = what ? what : "";
    if (e->call)
        return silkrt_fail_text(e->result, "%s: %s%s%s: %s%s%s", e->result_name, what, sep, e->call,
                                e->result_words[0] ? e->result_words : cudadrv_status_words(e->status),
                                e->detail[0] ? ": " : "", e->detail);
    char line[768];
    cudadrv_message(e, line, sizeof line);
    int32_t status = e->status == CUDADRV_NO_DEVICE     ? SILKRT_NO_DEVICE
                     : e->status == CUDADRV_OUT_OF_MEMORY ? SILKRT_OUT_OF_MEMORY
                     : e->status == CUDADRV_MODULE_LOAD   ? SILKRT_MODULE_LOAD
                                                          : SILKRT_NO_DRIVER;
    return silkrt_fail(status, "%s%s%s", what, sep, line);
}

int32_t silkrt_cuda_open(char *name, size_t name_size, char *why, size_t size)
{
    CudadrvDevice *d = &silkrt_state.cuda.device;
    CudadrvError e;
    snprintf(name, name_size, "%s", "");
    if (cudadrv_device_open(0, d, &e) != CUDADRV_OK) {
        if (e.status == CUDADRV_NO_DRIVER || e.status == CUDADRV_NO_DEVICE || !e.call) {
            cudadrv_message(&e, why, size);
            return e.status == CUDADRV_NO_DEVICE ? SILKRT_NO_DEVICE : SILKRT_NO_DRIVER;
        }
        snprintf(name, name_size, "%s", e.result_name);
        snprintf(why, size, "%s: %s", e.call,
                 e.result_words[0] ? e.result_words : cudadrv_status_words(e.status));
        return e.result;
    }
    silkrt_thread.cuda_current = true;
    snprintf(why, size, "%s has device 0", cudadrv_library());
    silkrt_say("device 0: %s (sm_%d%d, %d SMs)", d->name, d->major, d->minor, d->sms);
    return SILKRT_OK;
}

/* The device's context current on this thread. */
static int32_t current(void)
{
    if (silkrt_thread.cuda_current)
        return SILKRT_OK;
    CudadrvError e;
    if (cudadrv_context_use(&silkrt_state.cuda.device, &e) != CUDADRV_OK)
        return driver_fail(&e, NULL);
    silkrt_thread.cuda_current = true;
    return SILKRT_OK;
}

static int32_t cuda_alloc(uint64_t bytes, uint64_t *address)
{
    CudadrvError e;
    int32_t status = current();
    if (status == SILKRT_OK && bytes > SIZE_MAX)
        status = silkrt_fail(SILKRT_OUT_OF_MEMORY, "Buffer.alloc: %" PRIu64 " bytes", bytes);
    if (status == SILKRT_OK && cudadrv_alloc((size_t)bytes, address, &e) != CUDADRV_OK)
        status = driver_fail(&e, "Buffer.alloc");
    return status;
}

static int32_t cuda_release(uint64_t address)
{
    CudadrvError e;
    int32_t status = current();
    if (status == SILKRT_OK && cudadrv_free(address, &e) != CUDADRV_OK)
        status = driver_fail(&e, "Buffer.release");
    return status;
}

static int32_t cuda_upload(uint64_t to, const void *from, uint64_t bytes)
{
    CudadrvError e;
    int32_t status = current();
    if (status == SILKRT_OK && cudadrv_upload(to, from, (size_t)bytes, &e) != CUDADRV_OK)
        status = driver_fail(&e, "Buffer.upload");
    return status;
}

static int32_t cuda_download(void *to, uint64_t from, uint64_t bytes)
{
    CudadrvError e;
    int32_t status = current();
    if (status == SILKRT_OK && cudadrv_download(to, from, (size_t)bytes, &e) != CUDADRV_OK)
        status = driver_fail(&e, "Buffer.download");
    return status;
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

/* `log` on one line: its lines joined by "; ". */
static void one_line(const char *log, char *out, size_t size)
{
    size_t n = 0;
    for (const char *p = log; p && *p && n + 3 < size; p++) {
        if (*p == '\r' || *p == '\n') {
            if (n > 0 && out[n - 1] != ' ' && p[1] && p[1] != '\n') {
                out[n++] = ';';
                out[n++] = ' ';
            }
        } else {
            out[n++] = *p;
        }
    }
    out[n] = '\0';
}

/* Tries ptx[i]: true when it loaded. */
static bool try_module(const SilkrtPtx *ptx)
{
    SilkrtCuda *c = &silkrt_state.cuda;
    CudadrvError e;
    if (cudadrv_module_load(ptx->text, &c->module, &e) == CUDADRV_OK) {
        char info[512];
        one_line(c->module.info_log, info, sizeof info);
        silkrt_say("module %s loaded%s%s", ptx->arch, info[0] ? ": " : "", info);
        c->arch = ptx->arch;
        return true;
    }
    char log[600];
    one_line(c->module.error_log, log, sizeof log);
    snprintf(c->module_error, sizeof c->module_error, "%s: %s: %s: %s%s%s",
             silkrt_status_name(SILKRT_MODULE_LOAD), ptx->arch, e.result_name,
             e.result_words[0] ? e.result_words : "the module did not load", log[0] ? ": " : "", log);
    silkrt_say("module %s did not load (%s)", ptx->arch, c->module_error);
    cudadrv_module_unload(&c->module);
    return false;
}

static void load_module(void)
{
    SilkrtCuda *c = &silkrt_state.cuda;
    const SilkrtProgram *p = silkrt_state.program;
    int cc = c->device.major * 10 + c->device.minor;
    bool eligible = false;
    c->module_state = -1;
    c->module_status = SILKRT_MODULE_LOAD;
    for (uint32_t i = p->n_ptx; i-- > 0;) {
        bool specific;
        int n = arch_number(p->ptx[i].arch, &specific);
        if (n == 0 || n > cc || (specific && n != cc))
            continue;
        eligible = true;
        if (try_module(&p->ptx[i])) {
            c->module_state = 1;
            return;
        }
    }
    if (!eligible)
        snprintf(c->module_error, sizeof c->module_error, "%s: the program holds no PTX for sm_%d "
                 "or older (%u target%s)", silkrt_status_name(SILKRT_MODULE_LOAD), cc, p->n_ptx,
                 p->n_ptx == 1 ? "" : "s");
}

static int32_t cuda_prepare(uint32_t k)
{
    SilkrtCuda *c = &silkrt_state.cuda;
    const SilkrtKernel *rk = &silkrt_state.program->kernels[k];
    SilkrtKernelState *ks = &silkrt_state.kernels[k];
    int32_t status = current();
    if (status != SILKRT_OK)
        return status;
    if (c->module_state == 0)
        load_module();
    if (c->module_state < 0)
        return silkrt_fail_text(c->module_status, "%s", c->module_error);
    CudadrvError e;
    char what[160];
    snprintf(what, sizeof what, "kernel %s", rk->name);
    if (cudadrv_module_kernel(&c->module, rk->name, &ks->cuda, &e) != CUDADRV_OK) {
        if (e.status == CUDADRV_NO_KERNEL)
            return silkrt_fail(SILKRT_MODULE_LOAD, "kernel %s is not in the %s PTX", rk->name, c->arch);
        return driver_fail(&e, what);
    }
    if (cudadrv_kernel_allow_shared(ks->cuda, (size_t)rk->dynamic_shared, &e) != CUDADRV_OK)
        return driver_fail(&e, what);
    return SILKRT_OK;
}

static int32_t cuda_resident(uint32_t k, uint32_t threads, uint64_t *ctas)
{
    const SilkrtKernel *rk = &silkrt_state.program->kernels[k];
    CudadrvError e;
    int per_sm = 0;
    int32_t status = current();
    if (status != SILKRT_OK)
        return status;
    if (cudadrv_occupancy(silkrt_state.kernels[k].cuda, threads, (size_t)rk->dynamic_shared, &per_sm,
                          &e) != CUDADRV_OK) {
        char what[160];
        snprintf(what, sizeof what, "kernel %s", rk->name);
        return driver_fail(&e, what);
    }
    *ctas = (uint64_t)silkrt_state.cuda.device.sms * (uint64_t)(per_sm > 0 ? per_sm : 0);
    return SILKRT_OK;
}

static int32_t cuda_launch(uint32_t k, uint64_t ctas, uint32_t threads, const uint64_t *params,
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
    CudadrvLaunch launch = {.ctas = (uint32_t)ctas, .threads = threads,
                            .dynamic_shared = (uint32_t)rk->dynamic_shared, .params = pointers};
    CudadrvError e;
    if (cudadrv_launch(silkrt_state.kernels[k].cuda, &launch, &e) != CUDADRV_OK) {
        char what[160];
        snprintf(what, sizeof what, "kernel %s", rk->name);
        return driver_fail(&e, what);
    }
    return SILKRT_OK;
}

static int32_t cuda_synchronize(void)
{
    CudadrvError e;
    int32_t status = current();
    if (status == SILKRT_OK && cudadrv_synchronize(&e) != CUDADRV_OK)
        status = driver_fail(&e, NULL);
    return status;
}

const SilkrtBackend silkrt_backend_cuda = {
    .name = "cuda",
    .alloc = cuda_alloc,
    .release = cuda_release,
    .upload = cuda_upload,
    .download = cuda_download,
    .prepare = cuda_prepare,
    .resident = cuda_resident,
    .launch = cuda_launch,
    .synchronize = cuda_synchronize,
};
