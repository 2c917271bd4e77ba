/*
 * silkrt_cpu.c: the CPU backend: the program's kernels, compiled into it
 * as the CPU backend's C (SilkrtProgram.cpu), run by the executor of
 * std/runtime/cpu_launch.c on this machine's cores with the GPU's
 * semantics; buffers are host memory.
 *
 * A launch runs the kernel to its end at once (under the runtime's lock,
 * so no buffer is released under a running kernel), every global access
 * checked against the live buffers.  A check that fires is what a GPU
 * reports at synchronization: the launch status is 0, and this thread's
 * next synchronize gives KERNEL_FAULT with the check's one line; the
 * first fault is kept until then.  The line is also written to standard
 * error as the check fires, whatever the program does with the status.
 *
 * The device emulated has SilkrtProgram.cpu_sms SMs (ctx.sms; 132, an
 * H100 SXM, as silkc exec --sms defaults), and a @persistent kernel gets
 * cpu_sms x SilkrtKernel.cpu_ctas_per_sm CTAs, the occupancy engine's
 * answer for that device, which silkc build computed.
 */
#include "silkrt_internal.h"

#include "common/emulated_device.h"
#include "cpu_launch.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ALIGNMENT = 256, DEFAULT_SMS = SILK_EMULATED_SMS }; /* common/emulated_device.h */

static int32_t cpu_alloc(uint64_t bytes, uint64_t *address)
{
    void *p = NULL;
    if (bytes > SIZE_MAX - ALIGNMENT ||
        posix_memalign(&p, ALIGNMENT, (size_t)(bytes + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT) != 0)
        return silkrt_fail(SILKRT_OUT_OF_MEMORY, "Buffer.alloc: %" PRIu64 " bytes: out of host memory",
                           bytes);
    memset(p, 0, (size_t)bytes); /* deterministic, as the CPU backend's runs are */
    *address = (uint64_t)(uintptr_t)p;
    return SILKRT_OK;
}

static int32_t cpu_release(uint64_t address)
{
    free((void *)(uintptr_t)address);
    return SILKRT_OK;
}

static int32_t cpu_upload(uint64_t to, const void *from, uint64_t bytes)
{
    memcpy((void *)(uintptr_t)to, from, (size_t)bytes);
    return SILKRT_OK;
}

static int32_t cpu_download(void *to, uint64_t from, uint64_t bytes)
{
    memcpy(to, (const void *)(uintptr_t)from, (size_t)bytes);
    return SILKRT_OK;
}

static uint32_t sms(void)
{
    const SilkrtProgram *p = silkrt_state.program;
    return p->cpu_sms ? p->cpu_sms : DEFAULT_SMS;
}

/* Kernel k found in the program's CPU module, with the parameters the
 * program's table says. */
static int32_t cpu_prepare(uint32_t k)
{
    const SilkrtProgram *p = silkrt_state.program;
    const SilkrtKernel *rk = &p->kernels[k];
    const SilkCpuModule *m = p->cpu;
    if (!m)
        return silkrt_fail(SILKRT_MODULE_LOAD, "kernel %s: the program holds no module for the "
                           "CPU backend", rk->name);
    if (m->abi_version != SILK_CPU_ABI_VERSION)
        return silkrt_fail(SILKRT_MODULE_LOAD, "the program's CPU module is of ABI %" PRIu32
                           ", and this runtime runs ABI %u: build it again with this silkc",
                           m->abi_version, SILK_CPU_ABI_VERSION);
    for (uint32_t i = 0; i < m->n_kernels; i++) {
        const SilkCpuKernel *ck = &m->kernels[i];
        if (strcmp(ck->name, rk->name) != 0)
            continue;
        if (ck->n_params != rk->n_params + (rk->persistent ? 1u : 0u))
            return silkrt_fail(SILKRT_MODULE_LOAD, "kernel %s: the CPU module's takes %" PRIu32
                               " parameters, and the program's table says %" PRIu32 "%s",
                               rk->name, ck->n_params, rk->n_params,
                               rk->persistent ? " and the logical CTA count" : "");
        silkrt_state.kernels[k].cpu = ck;
        return SILKRT_OK;
    }
    return silkrt_fail(SILKRT_MODULE_LOAD, "kernel %s is not in the program's CPU module", rk->name);
}

static int32_t cpu_resident(uint32_t k, uint32_t threads, uint64_t *ctas)
{
    (void)threads; /* the engine's answer was computed at the kernel's CTA size */
    uint32_t per_sm = silkrt_state.program->kernels[k].cpu_ctas_per_sm;
    *ctas = (uint64_t)sms() * (per_sm ? per_sm : 1);
    return SILKRT_OK;
}

/* A check that fired is written to standard error at once, as
 * compute-sanitizer reports what it finds: a statement-position launch
 * discards its DispatchResult, and a fault must never pass unseen.  The
 * runtime's lock is held, so the line is whole; what the program printed
 * before comes first. */
static void report_fault(const char *line)
{
    fflush(stdout);
    fprintf(stderr, "%s\n", line);
    fflush(stderr);
}

static int32_t cpu_run(uint32_t k, uint64_t ctas, uint32_t threads, const uint64_t *params, uint32_t n)
{
    static const uint64_t none[1][2];
    SilkrtBuffers *t = &silkrt_state.buffers;
    const SilkCpuKernel *ck = silkrt_state.kernels[k].cpu;
    (void)n;
    CpuLaunch launch = {.ctas = ctas, .threads = threads, .sms = sms(),
                        .dynamic_shared = ck->dynamic_shared, .params = params,
                        /* never NULL, which would leave the accesses unchecked */
                        .buffers = t->n_live ? (const uint64_t(*)[2])t->live : none,
                        .n_buffers = t->n_live, .workers = silkrt_state.cpu_workers};
    char error[sizeof silkrt_thread.fault_text];
    switch (cpu_launch_run(ck, &launch, error, sizeof error)) {
    case CPU_LAUNCH_OK:
        return SILKRT_OK;
    case CPU_LAUNCH_FAULT:
        report_fault(error);
        if (!silkrt_thread.fault) { /* the first is the one a GPU would report */
            silkrt_thread.fault = SILKRT_KERNEL_FAULT;
            memcpy(silkrt_thread.fault_text, error, sizeof error);
        }
        return SILKRT_OK;
    case CPU_LAUNCH_NO_MEMORY:
        return silkrt_fail(SILKRT_OUT_OF_MEMORY, "%s", error);
    case CPU_LAUNCH_GEOMETRY:
    default:
        return silkrt_fail(SILKRT_BAD_GEOMETRY, "%s", error);
    }
}

static int32_t cpu_synchronize(void)
{
    if (!silkrt_thread.fault)
        return SILKRT_OK;
    silkrt_thread.fault = 0;
    return silkrt_fail(SILKRT_KERNEL_FAULT, "%s", silkrt_thread.fault_text);
}

const SilkrtBackend silkrt_backend_cpu = {
    .name = "cpu",
    .alloc = cpu_alloc,
    .release = cpu_release,
    .upload = cpu_upload,
    .download = cpu_download,
    .prepare = cpu_prepare,
    .resident = cpu_resident,
    .launch = cpu_run,
    .synchronize = cpu_synchronize,
};
