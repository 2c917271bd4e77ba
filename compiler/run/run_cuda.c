/*
 * run_cuda.c: a kernel run on GPU 0 (`silkc exec --backend cuda`)
 * through the CUDA Driver API (std/runtime/cuda_driver.h, loaded at run
 * time), with the same buffers, the same initial bytes and the same
 * geometry as on the CPU backend, so that the two can be compared.
 *
 * The order: the device opened (no driver or no device: exit 3); the
 * program built as PTX for the device's target, sm_XY of its compute
 * capability, or when silkc does not know that one the newest target
 * below it (PTX runs on later GPUs: the driver JIT-compiles it); the
 * arguments bound (usage errors first, as on the CPU); the PTX loaded,
 * its JIT logs kept; a @persistent kernel's CTAs capped at SMs x the
 * CTAs per SM the driver's occupancy calculator gives; the buffers
 * allocated and uploaded; the kernel launched with its @smem bytes of
 * dynamic shared memory, then synchronised exactly once, also when the
 * launch failed (the runtime's contract: launch, then one synchronise);
 * the buffers downloaded and handed back (run_kernel); everything freed.
 *
 * Without bounds checks: the code is the PTX `silkc compile` writes.
 */
#include "run_internal.h"

#include "backend.h"
#include "cuda_abi.h" /* the CUresult numbers */
#include "cuda_driver.h"
#include "escape.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a run holds, released at its end. */
typedef struct CudaRun {
    CudadrvDevice device;
    CudadrvModule module;
    CudadrvKernel kernel;
    uint64_t *memory;       /* the device buffers, one per --buf; 0: not allocated */
    int n_memory;
    Diag *diag;             /* the compilation's */
} CudaRun;

/* A note attached to the message before it: a line of the JIT's log. */
static void note(Diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(Diag *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vplain(d, DIAG_NOTE, fmt, ap);
    va_end(ap);
}

/* "silkc: error: --backend cuda: [kernel K: ]MESSAGE"; returns rc. */
static int driver_error(Diag *d, const CudadrvError *e, const char *kernel, int rc)
{
    char line[1024];
    cudadrv_message(e, line, sizeof line);
    return run_fail(d, rc, "--backend cuda: %s%s%s%s", kernel ? "kernel " : "",
                    kernel ? kernel : "", kernel ? ": " : "", line);
}

/* sm_XY for compute capability X.Y, or the newest target below it. */
static bool pick_target(const CudadrvDevice *d, char *arch, size_t size)
{
    for (int n = d->major * 10 + d->minor; n > 0; n--) {
        snprintf(arch, size, "sm_%d", n);
        if (backend_ptx.knows(arch))
            return true;
    }
    return false;
}

static const IrFunc *find_kernel(const IrModule *m, const char *name)
{
    for (uint32_t i = 0; m && i < m->n_funcs; i++)
        if (m->funcs[i]->kernel && strcmp(m->funcs[i]->name, name) == 0)
            return m->funcs[i];
    return NULL;
}

/* The PTX loaded and the kernel found in it. */
static int load_module(CudaRun *run, const char *ptx, const RunKernel *k)
{
    CudadrvError e;
    CudadrvStatus s = cudadrv_module_load(ptx, &run->module, &e);
    if (s != CUDADRV_OK) {
        /* A driver older than the PTX ISA version is the environment's. */
        int rc = driver_error(run->diag, &e, k->name, e.result == CUDADRV_ERROR_UNSUPPORTED_PTX_VERSION
                                               ? EXIT_ENVIRONMENT : EXIT_FINDINGS);
        const char *rest = run->module.error_log ? strchr(run->module.error_log, '\n') : NULL;
        for (; rest && rest[1]; rest = strchr(rest + 1, '\n')) /* the JIT log's other lines */
            note(run->diag, "%.*s", (int)strcspn(rest + 1, "\n"), rest + 1);
        return rc;
    }
    if (cudadrv_module_kernel(&run->module, k->name, &run->kernel, &e) != CUDADRV_OK ||
        cudadrv_kernel_allow_shared(run->kernel, k->dynamic_shared, &e) != CUDADRV_OK)
        return driver_error(run->diag, &e, k->name, EXIT_FINDINGS);
    return EXIT_OK;
}

/* A @persistent kernel: as many CTAs as the device holds at once. */
static int cap_persistent(CudaRun *run, const RunKernel *k, RunPlan *plan)
{
    CudadrvError e;
    int per_sm;
    if (cudadrv_occupancy(run->kernel, plan->threads, k->dynamic_shared, &per_sm, &e) != CUDADRV_OK)
        return driver_error(run->diag, &e, k->name, EXIT_FINDINGS);
    if (per_sm <= 0)
        return run_fail(run->diag, EXIT_FINDINGS, "--backend cuda: kernel %s: no CTA of %" PRIu32
                        " threads and %" PRIu64 " bytes of dynamic shared memory fits on a "
                        "multiprocessor of %s\n", k->name, plan->threads, k->dynamic_shared,
                        run->device.name);
    run_cap_persistent(plan, (uint64_t)run->device.sms * (uint64_t)per_sm);
    return EXIT_OK;
}

/* A device buffer for each host one, holding its bytes. */
static int upload(CudaRun *run, const RunArgs *a)
{
    CudadrvError e;
    run->memory = calloc((size_t)a->n_buffers + 1, sizeof *run->memory);
    if (!run->memory)
        return run_fail(run->diag, EXIT_ENVIRONMENT, "%s", "out of memory");
    for (int b = 0; b < a->n_buffers; b++) {
        size_t bytes = (size_t)(a->buffers[b].count * (uint64_t)a->buffers[b].type->bytes);
        CudadrvStatus s = cudadrv_alloc(bytes, &run->memory[b], &e);
        if (s == CUDADRV_OK)
            run->n_memory = b + 1;
        if (s == CUDADRV_OK)
            s = cudadrv_upload(run->memory[b], a->buffers[b].data, bytes, &e);
        if (s != CUDADRV_OK)
            return driver_error(run->diag, &e, NULL,
                                s == CUDADRV_OUT_OF_MEMORY ? EXIT_ENVIRONMENT : EXIT_FINDINGS);
    }
    return EXIT_OK;
}

/* The parameters in the PTX's layout: each .param of its IR type's size
 * (ptx.c: a bool a byte, a tensor its u64 address) at an offset aligned
 * to that size, the slot's low bytes (the host is little-endian, as the
 * GPU is); ptrs[p] points at parameter p, as cuLaunchKernel takes them. */
static void pack_params(const IrFunc *f, const RunArgs *a, const uint64_t *memory,
                        unsigned char *packed, void **ptrs)
{
    size_t offset = 0;
    for (uint32_t p = 0; p < f->n_params; p++) {
        size_t size = ir_natural_align(f->params[p].type);
        offset = (offset + size - 1) / size * size;
        uint64_t value = a->param_buffer[p] >= 0 ? memory[a->param_buffer[p]] : a->params[p];
        memcpy(packed + offset, &value, size);
        ptrs[p] = packed + offset;
        offset += size;
    }
}

/* The launch, its one synchronisation, and the buffers back. */
static int launch(CudaRun *run, const IrFunc *f, const RunPlan *plan, RunArgs *a)
{
    unsigned char *packed = calloc(f->n_params + 1, 16);
    void **ptrs = calloc(f->n_params + 1, sizeof *ptrs);
    if (!packed || !ptrs) {
        free(packed);
        free(ptrs);
        return run_fail(run->diag, EXIT_ENVIRONMENT, "%s", "out of memory");
    }
    pack_params(f, a, run->memory, packed, ptrs);
    CudadrvLaunch l = {.ctas = (uint32_t)plan->ctas, .threads = plan->threads,
                       .dynamic_shared = (uint32_t)f->dynamic_smem, .params = ptrs};
    CudadrvError le, se;
    CudadrvStatus launched = cudadrv_launch(run->kernel, &l, &le);
    CudadrvStatus synced = cudadrv_synchronize(&se); /* once, whatever the launch said */
    free(packed);
    free(ptrs);
    if (launched != CUDADRV_OK && synced != CUDADRV_OK) {
        char also[512];
        snprintf(le.detail, sizeof le.detail, "then %s", cudadrv_message(&se, also, sizeof also));
    }
    if (launched != CUDADRV_OK)
        return driver_error(run->diag, &le, f->name, EXIT_FINDINGS);
    if (synced != CUDADRV_OK)
        return driver_error(run->diag, &se, f->name, EXIT_FINDINGS);
    for (int b = 0; b < a->n_buffers; b++) {
        size_t bytes = (size_t)(a->buffers[b].count * (uint64_t)a->buffers[b].type->bytes);
        if (cudadrv_download(a->buffers[b].data, run->memory[b], bytes, &se) != CUDADRV_OK)
            return driver_error(run->diag, &se, NULL, EXIT_FINDINGS);
    }
    return EXIT_OK;
}

/* The device buffers freed; a failure here (a context a fault has
 * broken) changes nothing the run reported. */
static void release(CudaRun *run)
{
    CudadrvError e;
    for (int b = 0; b < run->n_memory; b++)
        cudadrv_free(run->memory[b], &e);
    free(run->memory);
    run->memory = NULL;
    run->n_memory = 0;
}

static int run_kernel_on(const RunRequest *q, CudaRun *run, const Build *b, const IrFunc *f,
                         RunBuffers *out)
{
    Diag *d = run->diag;
    RunKernel k = run_describe(f, b->module->arena);
    RunPlan plan = {0};
    RunArgs a = {0};
    int rc = run_plan(d, q, &k, &plan);
    if (rc == EXIT_OK)
        rc = run_bind(d, q, &k, &plan, &a);
    if (rc == EXIT_OK && k.dynamic_shared > UINT32_MAX)
        rc = run_error(d, "--kernel %s: @smem of %" PRIu64 " bytes is more than a launch can ask for",
                          k.name, k.dynamic_shared);
    if (rc == EXIT_OK)
        rc = load_module(run, b->targets[0].code, &k);
    if (rc == EXIT_OK && plan.logical)
        rc = cap_persistent(run, &k, &plan);
    if (rc == EXIT_OK && plan.ctas > INT32_MAX)
        rc = run_error(d, "--grid %" PRIu64 ": more than 2^31 - 1 CTAs of %" PRIu32
                          " threads, the most a CUDA grid has", q->grid, plan.threads);
    if (rc == EXIT_OK)
        rc = upload(run, &a);
    if (rc == EXIT_OK)
        rc = launch(run, f, &plan, &a);
    if (rc == EXIT_OK)
        run_args_take_buffers(&a, out);
    release(run);
    run_args_free(&a);
    return rc;
}

int run_on_cuda(Compilation *c, const RunRequest *q, RunBuffers *out)
{
    CudaRun run = {.diag = &c->diag};
    CudadrvError e;
    if (cudadrv_device_open(0, &run.device, &e) != CUDADRV_OK)
        return driver_error(run.diag, &e, NULL, EXIT_ENVIRONMENT);
    char arch[16];
    int rc = EXIT_OK;
    if (!pick_target(&run.device, arch, sizeof arch))
        rc = run_fail(run.diag, EXIT_ENVIRONMENT, "--backend cuda: %s has compute capability "
                      "%d.%d, below every target of silkc (%s)", run.device.name,
                      run.device.major, run.device.minor, backend_ptx.target_range);
    const char *const archs[] = {arch};
    BuildOptions options;
    run_build_options(q, archs, &options);
    Build b = {0};
    if (rc == EXIT_OK)
        rc = build_run(c, &options, &b) == BUILD_OK ? EXIT_OK : EXIT_FINDINGS;
    const IrFunc *f = rc == EXIT_OK ? find_kernel(b.module, q->kernel) : NULL;
    if (rc == EXIT_OK && !f)
        rc = run_error(run.diag, "--kernel %s: no such kernel in the program", QUOTED(q->kernel));
    if (rc == EXIT_OK)
        rc = run_kernel_on(q, &run, &b, f, out);
    if (b.c)
        build_finish(&b);
    cudadrv_module_unload(&run.module);
    cudadrv_device_close(&run.device);
    return rc;
}
