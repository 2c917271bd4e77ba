/*
 * runtime_fixture.c: the hand-written program and the child runner of
 * runtime_fixture.h.
 */
#define _GNU_SOURCE /* setenv, unsetenv, mkstemp */
#include "runtime_fixture.h"

#include "cpu_abi.h"

#include <stdarg.h>
#include <stddef.h>
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

/* ---- the GPUs ------------------------------------------------------------------------- */

const FixtureGpu fixture_gpus[FIXTURE_GPUS] = {
    {
        .backend = "cuda", .library = "SILK_CUDA_LIBRARY", .fake = fixture_fake_cuda,
        .knob = "FAKE_CUDA_", .units = "SMS", .log = offsetof(Child, log),
        .init = "cuInit", .use = "cuCtxSetCurrent", .load = "cuModuleLoadDataEx",
        .occupancy = "cuOccupancyMaxActiveBlocksPerMultiprocessor", .alloc = "cuMemAlloc_v2",
        .upload = "cuMemcpyHtoD_v2", .download = "cuMemcpyDtoH_v2", .launch = "cuLaunchKernel",
        .synchronize = "cuCtxSynchronize", .opened = "call cuDevicePrimaryCtxRetain 1",
        .launch_failed = "CUDA_ERROR_LAUNCH_FAILED", .illegal_address = "CUDA_ERROR_ILLEGAL_ADDRESS",
        .out_of_resources = "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", .unknown = "CUDA_ERROR_UNKNOWN",
        .out_of_memory = "CUDA_ERROR_OUT_OF_MEMORY", .no_device = "CUDA_ERROR_NO_DEVICE",
        .unnamed = "CUresult 42",
        /* the double has no words for 101: the runtime's own stand in */
        .use_failed = "CUDA_ERROR_INVALID_DEVICE: SILK_BACKEND=cuda: cuCtxSetCurrent: the CUDA driver failed",
        .no_driver_words = "no CUDA driver", .no_device_words = "no CUDA device",
        .missing = "/nonexistent/libcuda.so.1", .defaults = {"libcuda.so.1", NULL},
        .defaults_missing = "libcuda.so.1: cannot open shared object file: No such file or directory",
        .zero_devices = "no CUDA device: the driver has 0 devices, and device 0 was asked for",
        .device_line = "Fake CUDA device (sm_90, 132 SMs)", .target = "sm_90",
        .older = "FAKE_CUDA_CC=80", .older_target = "sm_75", .other = "FAKE_CUDA_CC=70",
        .none = "SILKRT_MODULE_LOAD: the program holds no PTX for sm_70 or older (2 targets: sm_75, sm_90)",
        .without = "SILKRT_MODULE_LOAD: the program holds no PTX for sm_90 or older (0 targets)",
        .refuse = {"FAKE_CUDA_FAIL=cuModuleLoadDataEx:218",
                   "FAKE_CUDA_JIT_ERROR=ptxas fatal   : Unresolved extern function 'f'\n"
                   "ptxas fatal   : Ptx assembly aborted", NULL},
        .refused_loads = 2, /* sm_90, then sm_75 */
        .refused = "SILKRT_MODULE_LOAD: sm_75: CUDA_ERROR_INVALID_PTX: a PTX JIT compilation failed: "
                   "ptxas fatal   : Unresolved extern function 'f'; ptxas fatal   : Ptx assembly aborted",
    },
    {
        .backend = "hip", .library = "SILK_HIP_LIBRARY", .fake = fixture_fake_hip,
        .knob = "FAKE_HIP_", .units = "CUS", .log = offsetof(Child, hip_log),
        .init = "hipInit", .use = "hipSetDevice", .load = "hipModuleLoadData",
        .occupancy = "hipModuleOccupancyMaxActiveBlocksPerMultiprocessor", .alloc = "hipMalloc",
        .upload = "hipMemcpyHtoD", .download = "hipMemcpyDtoH", .launch = "hipModuleLaunchKernel",
        .synchronize = "hipDeviceSynchronize", .opened = "set_device 0",
        .launch_failed = "hipErrorLaunchFailure", .illegal_address = "hipErrorIllegalAddress",
        .out_of_resources = "hipErrorLaunchOutOfResources", .unknown = "hipErrorUnknown",
        .out_of_memory = "hipErrorOutOfMemory", .no_device = "hipErrorNoDevice",
        .unnamed = "hipError_t 42", /* HIP calls it hipErrorUnknown */
        .use_failed = "hipErrorInvalidDevice: SILK_BACKEND=hip: hipSetDevice: invalid device ordinal",
        .no_driver_words = "no HIP runtime", .no_device_words = "no HIP device",
        .missing = "/nonexistent/libamdhip64.so.6",
        .defaults = {"libamdhip64.so.6", "libamdhip64.so.5", "libamdhip64.so", NULL},
        .defaults_missing = "libamdhip64.so.6: cannot open shared object file: No such file or "
                            "directory (nor libamdhip64.so.5, libamdhip64.so)",
        .zero_devices = "no HIP device: hipGetDeviceCount: hipErrorNoDevice (100)",
        .device_line = "Fake HIP device (gfx942:sramecc+:xnack-, 304 CUs)", .target = "gfx942",
        .older = "FAKE_HIP_ARCH=gfx90a:sramecc+:xnack-", .older_target = "gfx90a",
        .other = "FAKE_HIP_ARCH=gfx1100",
        .none = "SILKRT_MODULE_LOAD: the program holds no code object for gfx1100 "
                "(2 AMD targets: gfx90a, gfx942)",
        .without = "SILKRT_MODULE_LOAD: the program holds no code object for gfx942 (0 AMD targets)",
        .refuse = {"FAKE_HIP_FAIL=hipModuleLoadData:200", NULL},
        .refused_loads = 1, /* only gfx942's is for the device */
        .refused = "SILKRT_MODULE_LOAD: gfx942: hipErrorInvalidImage: device kernel image is invalid",
    },
};

const char *fixture_log(const FixtureGpu *g, const Child *c)
{
    return (const char *)c + g->log;
}

const char *fixture_knob(const FixtureGpu *g, const char *fmt, ...)
{
    static char buffers[8][1024];
    static int next;
    char *b = buffers[next++ % 8];
    int n = snprintf(b, sizeof buffers[0], "%s", g->knob);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b + n, sizeof buffers[0] - (size_t)n, fmt, ap);
    va_end(ap);
    return b;
}

const char *const *fixture_gpu_env(const FixtureGpu *g, const char *const *extra)
{
    static char library[FIXTURE_GPUS][1024];
    static const char *env[24];
    int n = 0;
    for (const FixtureGpu *before = fixture_gpus; before <= g; before++) {
        char *b = library[before - fixture_gpus];
        snprintf(b, sizeof library[0], "%s=%s", before->library, before == g ? g->fake() : before->missing);
        env[n++] = b;
    }
    for (; extra && *extra && n < 23; extra++)
        env[n++] = *extra;
    env[n] = NULL;
    return env;
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
        "FAKE_HIP_FAULT_GRID", "FAKE_HIP_BAD_LAYOUT"};
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
