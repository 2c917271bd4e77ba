/*
 * silkrt_dispatch.c: std/gpu's launch, synchronize, launch_and_synchronize
 * and launch blocks (silkrt_dispatch).
 *
 * A launch is checked before anything reaches the device, in this order,
 * each failure its own status (silkrt(3)): a backend is usable (else its
 * status), the kernel is the program's (UNKNOWN_KERNEL), the argument count
 * is the kernel's (BAD_ARGUMENTS), the seed's geometry rules
 * (BAD_GEOMETRY: a workspace of 1 to 1024 work items, a grid of 1 to
 * 4294967295 divisible by it, at most 2147483647 work-groups; then
 * WORKSPACE_MISMATCH against a fixed CTA size), and no argument is the
 * address of a released buffer and of no live one (RELEASED_BUFFER).
 * Then the backend makes the kernel ready (its module loaded) and
 * launches grid / workspace CTAs, or for a @persistent kernel as many of
 * them as the device holds at once, min(logical, SMs x resident CTAs per
 * SM), with the logical count as the hidden last argument.
 *
 * A dispatch holds the lock from its launch to the end of its one
 * synchronize, so no other thread's launch or fault comes between them:
 * its DispatchResult is its own.
 */
#include "silkrt_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

enum { MAX_PARAMS = 64 }; /* the language allows 32, and one hidden */

/* What a launch came to, for SILK_VERBOSE. */
typedef struct Launched {
    uint64_t ctas, logical;
    bool persistent;
} Launched;

static int32_t check_geometry(const SilkrtKernel *k, uint64_t grid, uint64_t workspace)
{
    if (workspace == 0 || workspace > 1024)
        return silkrt_fail(SILKRT_BAD_GEOMETRY, "kernel %s: a workspace of %" PRIu64
                           " work items (it must be 1 to 1024)", k->name, workspace);
    if (grid == 0 || grid > UINT32_MAX)
        return silkrt_fail(SILKRT_BAD_GEOMETRY, "kernel %s: a grid of %" PRIu64
                           " work items (it must be 1 to 4294967295)", k->name, grid);
    if (grid % workspace != 0)
        return silkrt_fail(SILKRT_BAD_GEOMETRY, "kernel %s: a grid of %" PRIu64
                           " work items is not divisible by the workspace of %" PRIu64,
                           k->name, grid, workspace);
    if (grid / workspace > INT32_MAX)
        return silkrt_fail(SILKRT_BAD_GEOMETRY, "kernel %s: %" PRIu64
                           " work-groups (at most 2147483647)", k->name, grid / workspace);
    if (k->fixed_threads && workspace != k->fixed_threads)
        return silkrt_fail(SILKRT_WORKSPACE_MISMATCH, "kernel %s runs CTAs of %" PRIu32
                           " threads, and the workspace is %" PRIu64, k->name, k->fixed_threads,
                           workspace);
    return SILKRT_OK;
}

static int32_t check_count(const SilkrtKernel *k, uint32_t n_args)
{
    if (n_args != k->n_params || k->n_params + 1 > MAX_PARAMS)
        return silkrt_fail(SILKRT_BAD_ARGUMENTS, "kernel %s takes %" PRIu32 " argument%s, and %"
                           PRIu32 " %s given", k->name, k->n_params, k->n_params == 1 ? "" : "s",
                           n_args, n_args == 1 ? "was" : "were");
    return SILKRT_OK;
}

static int32_t check_released(const SilkrtKernel *k, uint32_t n_args, const uint64_t *args)
{
    for (uint32_t i = 0; i < n_args; i++) {
        uint64_t bytes;
        if (silkrt_buffers_released(args[i]) && !silkrt_buffers_live(args[i], &bytes))
            return silkrt_fail(SILKRT_RELEASED_BUFFER, "kernel %s: argument %" PRIu32 " is 0x%" PRIx64
                               ", the address of a released buffer", k->name, i + 1, args[i]);
    }
    return SILKRT_OK;
}

/* The CTAs of a @persistent launch: as many as the device holds at once,
 * asked of the backend once per kernel and CTA size. */
static int32_t persistent_ctas(uint32_t index, uint32_t threads, uint64_t logical, uint64_t *ctas)
{
    SilkrtKernelState *ks = &silkrt_state.kernels[index];
    if (ks->resident_threads != threads) {
        uint64_t resident = 0;
        int32_t status = silkrt_state.backend->resident(index, threads, &resident);
        if (status != SILKRT_OK)
            return status;
        ks->resident_threads = threads;
        ks->resident_ctas = resident ? resident : 1; /* none fits: the launch says so */
    }
    *ctas = logical < ks->resident_ctas ? logical : ks->resident_ctas;
    return SILKRT_OK;
}

static int32_t launch_locked(const char *name, uint64_t grid, uint64_t workspace, uint32_t n_args,
                             const uint64_t *args, Launched *out)
{
    SilkrtState *s = &silkrt_state;
    *out = (Launched){0};
    if (!s->backend)
        return silkrt_fail_text(s->unusable, "%s", s->unusable_why);
    uint32_t index = silkrt_kernel_find(name);
    if (index == UINT32_MAX)
        return silkrt_fail(SILKRT_UNKNOWN_KERNEL, "no kernel %s in this program", name ? name : "(null)");
    const SilkrtKernel *k = &s->program->kernels[index];
    int32_t status = check_count(k, n_args);
    if (status == SILKRT_OK)
        status = check_geometry(k, grid, workspace);
    if (status == SILKRT_OK)
        status = check_released(k, n_args, args);
    if (status == SILKRT_OK && !s->kernels[index].ready) {
        status = s->backend->prepare(index);
        s->kernels[index].ready = status == SILKRT_OK;
    }
    if (status != SILKRT_OK)
        return status;
    uint64_t params[MAX_PARAMS];
    for (uint32_t i = 0; i < n_args; i++)
        params[i] = args[i];
    out->logical = out->ctas = grid / workspace;
    out->persistent = k->persistent;
    if (k->persistent) {
        params[n_args++] = out->logical;
        status = persistent_ctas(index, (uint32_t)workspace, out->logical, &out->ctas);
        if (status != SILKRT_OK)
            return status;
    }
    return s->backend->launch(index, out->ctas, (uint32_t)workspace, params, n_args);
}

static int32_t synchronize_locked(void)
{
    SilkrtState *s = &silkrt_state;
    if (!s->backend)
        return silkrt_fail_text(s->unusable, "%s", s->unusable_why);
    return s->backend->synchronize();
}

/* " ctas=C[ logical=L]" of a launch that got that far. */
static void describe(const Launched *l, char *buf, size_t size)
{
    if (l->persistent)
        snprintf(buf, size, " ctas=%" PRIu64 " logical=%" PRIu64, l->ctas, l->logical);
    else
        snprintf(buf, size, " ctas=%" PRIu64, l->ctas);
}

/* " (last_error)" after a status that is not 0. */
static const char *why(int32_t status)
{
    static _Thread_local char buf[sizeof silkrt_thread.error + 4];
    if (status == SILKRT_OK)
        return "";
    snprintf(buf, sizeof buf, " (%s)", silkrt_thread.error);
    return buf;
}

int32_t silkrt_launch(const char *kernel, uint64_t grid, uint64_t workspace, uint32_t n_args,
                      const uint64_t *args)
{
    silkrt_enter();
    Launched l;
    int32_t status = launch_locked(kernel, grid, workspace, n_args, args, &l);
    if (silkrt_state.verbose) {
        char ctas[64];
        describe(&l, ctas, sizeof ctas);
        silkrt_say("launch %s grid=%" PRIu64 " workspace=%" PRIu64 "%s: status=%d%s",
                   kernel ? kernel : "(null)", grid, workspace, ctas, (int)status, why(status));
    }
    silkrt_leave();
    return status;
}

int32_t silkrt_synchronize(void)
{
    silkrt_enter();
    int32_t status = synchronize_locked();
    silkrt_say("synchronize: status=%d%s", (int)status, why(status));
    silkrt_leave();
    return status;
}

SilkDispatchResult silkrt_dispatch(const SilkSite *site, const char *metadata, const char *kernel,
                                   uint64_t grid, uint64_t workspace, uint32_t n_args,
                                   const uint64_t *args)
{
    silkrt_enter();
    Launched l;
    SilkDispatchResult r;
    r.launch_status = launch_locked(kernel, grid, workspace, n_args, args, &l);
    char launch_error[sizeof silkrt_thread.error];
    snprintf(launch_error, sizeof launch_error, "%s", r.launch_status ? silkrt_thread.error : "");
    r.synchronize_status = synchronize_locked(); /* exactly once, whatever the launch said */
    if (r.launch_status != SILKRT_OK && r.synchronize_status != SILKRT_OK &&
        strcmp(launch_error, silkrt_thread.error) != 0) {
        char synchronize_error[sizeof silkrt_thread.error];
        snprintf(synchronize_error, sizeof synchronize_error, "%s", silkrt_thread.error);
        silkrt_fail_text(r.synchronize_status, "%s; then %s", launch_error, synchronize_error);
    } else if (r.launch_status != SILKRT_OK) {
        silkrt_fail_text(r.launch_status, "%s", launch_error);
    }
    if (silkrt_state.verbose) {
        char place[600] = "", ctas[64];
        if (site && site->file)
            snprintf(place, sizeof place, " at %s:%u:%u", site->file, site->line, site->col);
        describe(&l, ctas, sizeof ctas);
        silkrt_say("dispatch %s%s%s%s%s: grid=%" PRIu64 " workspace=%" PRIu64 "%s: launch_status=%d "
                   "synchronize_status=%d%s", kernel ? kernel : "(null)", place,
                   metadata ? " attr(" : "", metadata ? metadata : "", metadata ? ")" : "", grid,
                   workspace, ctas, (int)r.launch_status, (int)r.synchronize_status,
                   why(r.launch_status | r.synchronize_status));
    }
    silkrt_leave();
    return r;
}

SilkDispatchResult silkrt_launch_and_synchronize(const char *kernel, uint64_t grid,
                                                 uint64_t workspace, uint32_t n_args,
                                                 const uint64_t *args)
{
    return silkrt_dispatch(NULL, NULL, kernel, grid, workspace, n_args, args);
}
