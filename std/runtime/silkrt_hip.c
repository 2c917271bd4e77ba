/*
 * silkrt_hip.c: the HIP backend, over the HIP runtime API of
 * hip_driver.h (libamdhip64, loaded with dlopen at the first use: nothing
 * links against ROCm).
 *
 * Device 0 is opened when the backend is chosen, and made each thread's
 * device (hipSetDevice) the first time that thread calls the runtime.
 * The module is loaded at the first launch: the program's code object
 * (SilkrtProgram.code_objects) for the device's gfx target, the part of
 * its gcnArchName before the first ':' ("gfx942" of
 * "gfx942:sramecc+:xnack-"); none for that target is MODULE_LOAD for
 * every launch.  When the gfx name cannot be read (hip_driver.h), every
 * code object is tried in the program's order and the first that HIP
 * loads is used, since HIP refuses one for another ISA.
 *
 * HIP's statuses pass through unchanged (hipError_t), and last_error
 * names them: "hipErrorLaunchFailure: kernel fill: hipModuleLaunchKernel:
 * unspecified launch failure".  A @persistent launch starts
 * min(logical, CUs x hipModuleOccupancyMaxActiveBlocksPerMultiprocessor)
 * workgroups.
 */
#include "silkrt_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_PARAMS = 64 };

/* `e` as this thread's last_error; the status: HIP's own code, or the
 * runtime's when HIP was not reached.  `what` says what was being done
 * ("kernel fill", "Buffer.alloc"), or is NULL. */
static int32_t hip_fail(const HipdrvError *e, const char *what)
{
    const char *sep = what ? ": " : "";
    what = what ? what : "";
    if (e->call)
        return silkrt_fail_text(e->result, "%s: %s%s%s: %s%s%s", e->result_name, what, sep, e->call,
                                e->result_words[0] ? e->result_words : hipdrv_status_words(e->status),
                                e->detail[0] ? ": " : "", e->detail);
    char line[768];
    hipdrv_message(e, line, sizeof line);
    int32_t status = e->status == HIPDRV_NO_DEVICE     ? SILKRT_NO_DEVICE
                     : e->status == HIPDRV_OUT_OF_MEMORY ? SILKRT_OUT_OF_MEMORY
                     : e->status == HIPDRV_MODULE_LOAD   ? SILKRT_MODULE_LOAD
                                                         : SILKRT_NO_DRIVER;
    return silkrt_fail(status, "%s%s%s", what, sep, line);
}

int32_t silkrt_hip_open(char *name, size_t name_size, char *why, size_t size)
{
    HipdrvDevice *d = &silkrt_state.hip.device;
    HipdrvError e;
    snprintf(name, name_size, "%s", "");
    if (hipdrv_device_open(0, d, &e) != HIPDRV_OK) {
        if (e.status == HIPDRV_NO_DRIVER || e.status == HIPDRV_NO_DEVICE || !e.call) {
            hipdrv_message(&e, why, size);
            return e.status == HIPDRV_NO_DEVICE ? SILKRT_NO_DEVICE : SILKRT_NO_DRIVER;
        }
        snprintf(name, name_size, "%s", e.result_name);
        snprintf(why, size, "%s: %s", e.call,
                 e.result_words[0] ? e.result_words : hipdrv_status_words(e.status));
        return e.result;
    }
    silkrt_thread.hip_current = true;
    snprintf(why, size, "%s has device 0", hipdrv_loaded());
    silkrt_say("device 0: %s (%s, %d CUs)", d->name, d->arch[0] ? d->arch : "gfx name unknown",
               d->cus);
    return SILKRT_OK;
}

/* The device this thread's. */
static int32_t current(void)
{
    if (silkrt_thread.hip_current)
        return SILKRT_OK;
    HipdrvError e;
    if (hipdrv_device_use(&silkrt_state.hip.device, &e) != HIPDRV_OK)
        return hip_fail(&e, NULL);
    silkrt_thread.hip_current = true;
    return SILKRT_OK;
}

static int32_t hip_alloc(uint64_t bytes, uint64_t *address)
{
    HipdrvError e;
    int32_t status = current();
    if (status == SILKRT_OK && bytes > SIZE_MAX)
        status = silkrt_fail(SILKRT_OUT_OF_MEMORY, "Buffer.alloc: %" PRIu64 " bytes", bytes);
    if (status == SILKRT_OK && hipdrv_alloc((size_t)bytes, address, &e) != HIPDRV_OK)
        status = hip_fail(&e, "Buffer.alloc");
    return status;
}

static int32_t hip_release(uint64_t address)
{
    HipdrvError e;
    int32_t status = current();
    if (status == SILKRT_OK && hipdrv_free(address, &e) != HIPDRV_OK)
        status = hip_fail(&e, "Buffer.release");
    return status;
}

static int32_t hip_upload(uint64_t to, const void *from, uint64_t bytes)
{
    HipdrvError e;
    int32_t status = current();
    if (status == SILKRT_OK && hipdrv_upload(to, from, (size_t)bytes, &e) != HIPDRV_OK)
        status = hip_fail(&e, "Buffer.upload");
    return status;
}

static int32_t hip_download(void *to, uint64_t from, uint64_t bytes)
{
    HipdrvError e;
    int32_t status = current();
    if (status == SILKRT_OK && hipdrv_download(to, from, (size_t)bytes, &e) != HIPDRV_OK)
        status = hip_fail(&e, "Buffer.download");
    return status;
}

/* The length of the target in a gfx name: "gfx942:sramecc+" -> 6. */
static size_t target_length(const char *arch)
{
    return strcspn(arch, ":");
}

/* Whether code object `o` is for the device's target. */
static bool for_device(const SilkrtCodeObject *o, const char *arch)
{
    size_t n = target_length(arch);
    return o->arch && strlen(o->arch) == n && strncmp(o->arch, arch, n) == 0;
}

/* Tries code object `o`: true when it loaded. */
static bool try_module(const SilkrtCodeObject *o)
{
    SilkrtHip *h = &silkrt_state.hip;
    HipdrvError e;
    if (hipdrv_module_load(o->bytes, &h->module, &e) == HIPDRV_OK) {
        silkrt_say("module %s loaded (%" PRIu64 " bytes)", o->arch, o->size);
        h->arch = o->arch;
        return true;
    }
    snprintf(h->module_error, sizeof h->module_error, "%s: %s: %s: %s",
             silkrt_status_name(SILKRT_MODULE_LOAD), o->arch, e.result_name,
             e.result_words[0] ? e.result_words : "the module did not load");
    silkrt_say("module %s did not load (%s)", o->arch, h->module_error);
    hipdrv_module_unload(&h->module);
    return false;
}

/* "gfx90a, gfx942": the program's targets, for a message. */
static void list_targets(const SilkrtProgram *p, char *out, size_t size)
{
    size_t n = 0;
    out[0] = '\0';
    for (uint32_t i = 0; i < p->n_code_objects && n < size; i++)
        n += (size_t)snprintf(out + n, size - n, "%s%s", i ? ", " : "", p->code_objects[i].arch);
}

static void load_module(void)
{
    SilkrtHip *h = &silkrt_state.hip;
    const SilkrtProgram *p = silkrt_state.program;
    const char *arch = h->device.arch;
    bool eligible = false;
    h->module_state = -1;
    h->module_status = SILKRT_MODULE_LOAD;
    for (uint32_t i = 0; i < p->n_code_objects; i++) {
        if (arch[0] && !for_device(&p->code_objects[i], arch))
            continue;
        eligible = true;
        if (try_module(&p->code_objects[i])) {
            h->module_state = 1;
            return;
        }
    }
    if (eligible)
        return;
    char device[256], targets[512];
    snprintf(device, sizeof device, "%.*s", (int)target_length(arch), arch);
    list_targets(p, targets, sizeof targets);
    snprintf(h->module_error, sizeof h->module_error, "%s: the program holds no code object for %s "
             "(%u AMD target%s%s%s)", silkrt_status_name(SILKRT_MODULE_LOAD),
             device[0] ? device : "an AMD GPU", p->n_code_objects, p->n_code_objects == 1 ? "" : "s",
             targets[0] ? ": " : "", targets);
}

static int32_t hip_prepare(uint32_t k)
{
    SilkrtHip *h = &silkrt_state.hip;
    const SilkrtKernel *rk = &silkrt_state.program->kernels[k];
    SilkrtKernelState *ks = &silkrt_state.kernels[k];
    int32_t status = current();
    if (status != SILKRT_OK)
        return status;
    if (h->module_state == 0)
        load_module();
    if (h->module_state < 0)
        return silkrt_fail_text(h->module_status, "%s", h->module_error);
    HipdrvError e;
    if (hipdrv_module_kernel(&h->module, rk->name, &ks->hip, &e) != HIPDRV_OK) {
        if (e.status == HIPDRV_NO_KERNEL)
            return silkrt_fail(SILKRT_MODULE_LOAD, "kernel %s is not in the %s code object", rk->name,
                               h->arch);
        char what[160];
        snprintf(what, sizeof what, "kernel %s", rk->name);
        return hip_fail(&e, what);
    }
    return SILKRT_OK;
}

static int32_t hip_resident(uint32_t k, uint32_t threads, uint64_t *ctas)
{
    const SilkrtKernel *rk = &silkrt_state.program->kernels[k];
    HipdrvError e;
    int per_cu = 0;
    int32_t status = current();
    if (status != SILKRT_OK)
        return status;
    if (hipdrv_occupancy(silkrt_state.kernels[k].hip, threads, (size_t)rk->dynamic_shared, &per_cu,
                         &e) != HIPDRV_OK) {
        char what[160];
        snprintf(what, sizeof what, "kernel %s", rk->name);
        return hip_fail(&e, what);
    }
    *ctas = (uint64_t)silkrt_state.hip.device.cus * (uint64_t)(per_cu > 0 ? per_cu : 0);
    return SILKRT_OK;
}

static int32_t hip_launch(uint32_t k, uint64_t ctas, uint32_t threads, const uint64_t *params,
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
    HipdrvLaunch launch = {.ctas = (uint32_t)ctas, .threads = threads,
                           .dynamic_shared = (uint32_t)rk->dynamic_shared, .params = pointers};
    HipdrvError e;
    if (hipdrv_launch(silkrt_state.kernels[k].hip, &launch, &e) != HIPDRV_OK) {
        char what[160];
        snprintf(what, sizeof what, "kernel %s", rk->name);
        return hip_fail(&e, what);
    }
    return SILKRT_OK;
}

static int32_t hip_synchronize(void)
{
    HipdrvError e;
    int32_t status = current();
    if (status == SILKRT_OK && hipdrv_synchronize(&e) != HIPDRV_OK)
        status = hip_fail(&e, NULL);
    return status;
}

const SilkrtBackend silkrt_backend_hip = {
    .name = "hip",
    .alloc = hip_alloc,
    .release = hip_release,
    .upload = hip_upload,
    .download = hip_download,
    .prepare = hip_prepare,
    .resident = hip_resident,
    .launch = hip_launch,
    .synchronize = hip_synchronize,
};
