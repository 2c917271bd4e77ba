/*
 * runtime_fixture.c: the hand-written program and the child runner of
 * runtime_fixture.h.
 */
#define _GNU_SOURCE /* setenv, unsetenv, mkstemp */
#include "runtime_fixture.h"

#include "cpu/cpu_abi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- the kernels, as the CPU backend's C would have them ------------------------------ */

/* Whether [a, a + bytes) lies in one buffer the launch may touch. */
static int in_buffers(const SilkCpuCta *cta, uint64_t a, uint64_t bytes)
{
    for (uint32_t i = 0; i < cta->n_buffers; i++)
        if (a >= cta->buffers[i][0] && a - cta->buffers[i][0] + bytes <= cta->buffers[i][1])
            return 1;
    return cta->buffers == NULL;
}

/* A checked u64 store; false, with the thread's fault filled, outside. */
static int store_u64(const SilkCpuCta *cta, SilkCpuThread *t, uint64_t a, uint64_t v, uint32_t site)
{
    if (!in_buffers(cta, a, 8)) {
        t->operand[0] = a;
        t->operand[1] = 8 | UINT64_C(1) << 32;
        t->site = site;
        return 0;
    }
    memcpy((void *)(uintptr_t)a, &v, 8);
    return 1;
}

static int fill_step(const SilkCpuCta *cta, SilkCpuThread *t)
{
    uint64_t gid = (uint64_t)cta->ctaid * cta->ntid + t->tid;
    return store_u64(cta, t, cta->params[0] + gid * 8, cta->params[1], 1) ? SILK_CPU_EXITED
                                                                           : SILK_CPU_BAD_GLOBAL;
}

static int nothing_step(const SilkCpuCta *cta, SilkCpuThread *t)
{
    (void)cta;
    (void)t;
    return SILK_CPU_EXITED;
}

static int persist_step(const SilkCpuCta *cta, SilkCpuThread *t)
{
    uint64_t logical = cta->params[1];
    for (uint64_t c = cta->ctaid; t->tid == 0 && c < logical; c += cta->nctaid)
        if (!store_u64(cta, t, cta->params[0] + c * 8, cta->nctaid, 1))
            return SILK_CPU_BAD_GLOBAL;
    return SILK_CPU_EXITED;
}

static const SilkCpuSite sites[] = {{NULL, 0, 0, NULL, 0}, {"fill.silk", 3, 5, NULL, 0}};

#define CPU_KERNEL(kname, kstep, params, threads, persists)                                  \
    {.name = kname, .step = kstep, .n_params = params, .fixed_threads = threads,            \
     .persistent = persists, .sites = sites, .n_sites = 2}

static const SilkCpuKernel cpu_kernels[] = {
    CPU_KERNEL("fill", fill_step, 2, 0, 0),
    CPU_KERNEL("fixed", nothing_step, 0, 128, 0),
    CPU_KERNEL("persist", persist_step, 2, 64, 1),
    CPU_KERNEL("empty", nothing_step, 0, 0, 0),
};

static const SilkCpuModule cpu_module = {SILK_CPU_ABI_VERSION, 4, cpu_kernels};

/* ---- the program ------------------------------------------------------------------------ */

static const SilkrtKernel kernels[] = {
    {.name = "fill", .n_params = 2},
    {.name = "fixed", .n_params = 0, .fixed_threads = 128},
    {.name = "persist", .n_params = 1, .fixed_threads = 64, .persistent = true, .cpu_ctas_per_sm = 2},
    {.name = "empty", .n_params = 0},
    {.name = "ghost", .n_params = 0},
};

#define PTX_BODY                                                                             \
    ".address_size 64\n"                                                                     \
    ".visible .entry fill(\n.param .u64 fill_param_0,\n.param .u64 fill_param_1\n)\n{\nret;\n}\n" \
    ".visible .entry fixed(\n)\n.reqntid 128, 1, 1\n{\nret;\n}\n"                            \
    ".visible .entry persist(\n.param .u64 persist_param_0,\n.param .u64 persist_param_1\n)\n" \
    "{\nret;\n}\n"                                                                           \
    ".visible .entry empty(\n)\n{\nret;\n}\n"                                                \
    ".visible .entry ghost(\n)\n{\nret;\n}\n"

static const SilkrtPtx ptx[] = {
    {"sm_75", "//\n.version 6.4\n.target sm_75\n" PTX_BODY},
    {"sm_90", "//\n.version 7.8\n.target sm_90\n" PTX_BODY},
};

/* The code objects, as the test double of HIP reads them (fake_hip.c). */
#define CODE_OBJECT_KERNELS                                                                  \
    ".kernel fill 2\n.kernel fixed 0\n.kernel persist 2\n.kernel empty 0\n.kernel ghost 0\n.end\n"

static const char gfx90a[] = "silk fake code object for gfx90a\n" CODE_OBJECT_KERNELS;
static const char gfx942[] = "silk fake code object for gfx942\n" CODE_OBJECT_KERNELS;

static const SilkrtCodeObject code_objects[] = {
    {"gfx90a", (const unsigned char *)gfx90a, sizeof gfx90a - 1},
    {"gfx942", (const unsigned char *)gfx942, sizeof gfx942 - 1},
};

const SilkrtProgram fixture_program = {
    .abi_version = SILKRT_ABI_VERSION,
    .n_kernels = 5,
    .kernels = kernels,
    .n_ptx = 2,
    .ptx = ptx,
    .cpu = &cpu_module,
    .cpu_sms = 4,
    .n_code_objects = 2,
    .code_objects = code_objects,
};

int fixture_unregistered;

const char *fixture_fake_cuda(void)
{
    const char *path = getenv("FAKE_CUDA");
    return path && *path ? path : "tests/runtime/fake_cuda.so";
}

const char *fixture_fake_hip(void)
{
    const char *path = getenv("FAKE_HIP");
    return path && *path ? path : "tests/runtime/fake_hip.so";
}

/* ---- the child ------------------------------------------------------------------------- */

static void clear_environment(void)
{
    static const char *const names[] = {
        "SILK_BACKEND", "SILK_VERBOSE", "SILK_CUDA_LIBRARY", "SILK_TASK_WORKERS",
        "FAKE_CUDA_LOG", "FAKE_CUDA_CC", "FAKE_CUDA_SMS", "FAKE_CUDA_DEVICES",
        "FAKE_CUDA_OCCUPANCY", "FAKE_CUDA_FAIL", "FAKE_CUDA_JIT_ERROR", "FAKE_CUDA_FAIL_GRID",
        "FAKE_CUDA_FAULT_GRID", "SILK_HIP_LIBRARY", "FAKE_HIP_LOG", "FAKE_HIP_ARCH", "FAKE_HIP_CUS",
        "FAKE_HIP_DEVICES", "FAKE_HIP_OCCUPANCY", "FAKE_HIP_FAIL", "FAKE_HIP_FAIL_GRID",
        "FAKE_HIP_FAULT_GRID"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        unsetenv(names[i]);
}

static void set_environment(const char *const *env)
{
    for (; env && *env; env++) {
        char name[256];
        const char *eq = strchr(*env, '=');
        snprintf(name, sizeof name, "%.*s", (int)(eq - *env), *env);
        if (eq[1])
            setenv(name, eq + 1, 1);
        else
            unsetenv(name);
    }
}

static void slurp(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, size - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
    unlink(path);
}

void child_run(Child *c, const char *const *env, void (*body)(void *), void *arg)
{
    char out[] = "/tmp/silkrt-out-XXXXXX", err[] = "/tmp/silkrt-err-XXXXXX",
         log[] = "/tmp/silkrt-log-XXXXXX", hip_log[] = "/tmp/silkrt-hip-XXXXXX";
    int fo = mkstemp(out), fe = mkstemp(err), fl = mkstemp(log), fh = mkstemp(hip_log);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fo, 1);
        dup2(fe, 2);
        clear_environment();
        setenv("FAKE_CUDA_LOG", log, 1);
        setenv("FAKE_HIP_LOG", hip_log, 1);
        set_environment(env);
        if (!fixture_unregistered)
            silkrt_register(&fixture_program);
        body(arg);
        exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    c->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    close(fo);
    close(fe);
    close(fl);
    close(fh);
    slurp(out, c->out, sizeof c->out);
    slurp(err, c->err, sizeof c->err);
    slurp(log, c->log, sizeof c->log);
    slurp(hip_log, c->hip_log, sizeof c->hip_log);
    fixture_unregistered = 0;
}
