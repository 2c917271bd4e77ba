/*
 * launch.c: what a launch costs through the runtime (libsilkrt), next to
 * the call it wraps, measured in the same run.
 *
 *   bench/launch          the CPU backend: an empty kernel launched through
 *                         silkrt_launch, silkrt_launch_and_synchronize and
 *                         silkrt_dispatch, against cpu_launch called directly
 *                         with the same CpuLaunch; one CTA of 32 threads (the
 *                         executor's floor), and 32 CTAs of 256 threads (its
 *                         worker threads started per launch).
 *   bench/launch --gpu    device 0 through the CUDA driver: an empty kernel
 *                         launched through silkrt_launch against
 *                         cudadrv_launch (cuLaunchKernel) on the same
 *                         context, in batches of 100 launches and one
 *                         synchronize, and as dispatches (one launch, one
 *                         synchronize).  The goal (issue 14): the runtime adds
 *                         under 2 us per launch.  Exit 77 without a GPU.
 *
 * Each figure is the best of ROUNDS rounds, the two sides alternating, of
 * enough calls to take about 0.1 s; times per launch, the runtime's
 * overhead (its time less the peer's) and the ratio.
 */
#define _GNU_SOURCE
#include "silkrt.h"

#include "cpu_launch.h"
#include "cuda_driver.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { ROUNDS = 5, BATCH = 100 };

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- the program: one empty kernel ------------------------------------------------------ */

static int empty_step(const SilkCpuCta *cta, SilkCpuThread *t)
{
    (void)cta;
    (void)t;
    return SILK_CPU_EXITED;
}

static const SilkCpuSite sites[1];
static const SilkCpuKernel cpu_kernels[] = {{.name = "empty", .step = empty_step, .sites = sites,
                                             .n_sites = 1}};
static const SilkCpuModule cpu_module = {SILK_CPU_ABI_VERSION, 1, cpu_kernels};
static const SilkrtKernel kernels[] = {{.name = "empty"}};
static const char EMPTY_PTX[] = ".version 7.0\n.target sm_70\n.address_size 64\n"
                                ".visible .entry empty()\n{\nret;\n}\n";
static const SilkrtPtx ptx[] = {{"sm_70", EMPTY_PTX}};
static const SilkrtProgram program = {.abi_version = SILKRT_ABI_VERSION, .n_kernels = 1,
                                      .kernels = kernels, .n_ptx = 1, .ptx = ptx,
                                      .cpu = &cpu_module, .cpu_sms = 132};

/* ---- measuring ------------------------------------------------------------------------- */

typedef struct Side {
    const char *name;
    int (*run)(uint64_t n, const void *arg); /* n launches; 0 when they all succeeded */
    const void *arg;
    double best;             /* seconds per launch */
} Side;

/* Calls per round for ~0.1 s of `s`. */
static uint64_t calibrate(Side *s)
{
    uint64_t n = 16;
    for (;;) {
        double t = now();
        if (s->run(n, s->arg) != 0)
            return 0;
        if (now() - t > 0.05 || n > (UINT64_C(1) << 30))
            return n * 2;
        n *= 4;
    }
}

/* Both sides, alternating, best of ROUNDS each; false if a launch failed. */
static bool measure(Side *ours, Side *peer)
{
    uint64_t n = calibrate(peer);
    uint64_t m = calibrate(ours);
    if (!n || !m)
        return false;
    n = n > m ? n : m;
    ours->best = peer->best = 1e30;
    for (int r = 0; r < ROUNDS; r++) {
        Side *order[2] = {peer, ours};
        for (int i = 0; i < 2; i++) {
            double t = now();
            if (order[i]->run(n, order[i]->arg) != 0)
                return false;
            double each = (now() - t) / (double)n;
            if (each < order[i]->best)
                order[i]->best = each;
        }
    }
    return true;
}

static void row(const Side *ours, const Side *peer, const char *what)
{
    printf("%-44s %10.3f %10.3f %10.3f %7.2fx   %s vs %s\n", what, ours->best * 1e6, peer->best * 1e6,
           (ours->best - peer->best) * 1e6, ours->best / peer->best, ours->name, peer->name);
}

static void header(void)
{
    printf("%-44s %10s %10s %10s %8s\n", "launch", "ours us", "peer us", "overhead", "ratio");
}

/* ---- the CPU backend --------------------------------------------------------------------- */

typedef struct Geometry {
    uint64_t grid, workspace;
} Geometry;

static int cpu_workers;

/* The CpuLaunch the runtime makes: every access checked (here against no
 * buffer), and the workers counted once (workers = 0 would have
 * cpu_launch ask sysconf each time, ~13 us). */
static int cpu_direct(uint64_t n, const void *arg)
{
    const Geometry *g = arg;
    static const uint64_t none[1][2];
    CpuLaunch l = {.ctas = g->grid / g->workspace, .threads = (uint32_t)g->workspace, .sms = 132,
                   .buffers = none, .workers = cpu_workers};
    char error[256];
    for (uint64_t i = 0; i < n; i++)
        if (!cpu_launch(&cpu_kernels[0], &l, error, sizeof error))
            return 1;
    return 0;
}

static int rt_launch(uint64_t n, const void *arg)
{
    const Geometry *g = arg;
    for (uint64_t i = 0; i < n; i++)
        if (silkrt_launch("empty", g->grid, g->workspace, 0, NULL) != 0)
            return 1;
    return silkrt_synchronize();
}

static int rt_launch_and_synchronize(uint64_t n, const void *arg)
{
    const Geometry *g = arg;
    for (uint64_t i = 0; i < n; i++) {
        SilkDispatchResult r = silkrt_launch_and_synchronize("empty", g->grid, g->workspace, 0, NULL);
        if (r.launch_status || r.synchronize_status)
            return 1;
    }
    return 0;
}

static int rt_dispatch(uint64_t n, const void *arg)
{
    const Geometry *g = arg;
    static const SilkSite site = {"bench.silk", 12, 3};
    for (uint64_t i = 0; i < n; i++) {
        SilkDispatchResult r = silkrt_dispatch(&site, "label=bench", "empty", g->grid, g->workspace,
                                               0, NULL);
        if (r.launch_status || r.synchronize_status)
            return 1;
    }
    return 0;
}

static int cpu_bench(void)
{
    setenv("SILK_BACKEND", "cpu", 1);
    unsetenv("SILK_VERBOSE");
    silkrt_register(&program);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    cpu_workers = cores > 0 ? (int)cores : 1;
    static const Geometry shapes[] = {{32, 32}, {32 * 256, 256}};
    static const char *const names[] = {"1 CTA of 32 threads", "32 CTAs of 256 threads"};
    printf("bench/launch: the CPU backend's empty launch, through libsilkrt and direct\n");
    header();
    for (int s = 0; s < 2; s++) {
        Side peer = {"cpu_launch", cpu_direct, &shapes[s], 0};
        Side sides[] = {{"silkrt_launch", rt_launch, &shapes[s], 0},
                        {"silkrt_launch_and_synchronize", rt_launch_and_synchronize, &shapes[s], 0},
                        {"silkrt_dispatch", rt_dispatch, &shapes[s], 0}};
        for (int i = 0; i < 3; i++) {
            char what[96];
            snprintf(what, sizeof what, "%s, %s", names[s],
                     i == 0 ? "launch" : i == 1 ? "launch+sync" : "dispatch");
            if (!measure(&sides[i], &peer)) {
                SilkStr e = silkrt_last_error();
                fprintf(stderr, "bench/launch: a launch failed: %.*s\n", (int)e.len, e.bytes);
                return 1;
            }
            row(&sides[i], &peer, what);
        }
    }
    printf("best of %d rounds, each ~0.1 s; overhead = ours - peer, per launch\n", ROUNDS);
    return 0;
}

/* ---- the GPU ------------------------------------------------------------------------------- */

static CudadrvKernel raw_kernel;

static int raw_batches(uint64_t n, const void *arg)
{
    (void)arg;
    CudadrvError e;
    CudadrvLaunch l = {.ctas = 1, .threads = 32};
    for (uint64_t i = 0; i < n; i++) {
        if (cudadrv_launch(raw_kernel, &l, &e) != CUDADRV_OK)
            return 1;
        if ((i + 1) % BATCH == 0 && cudadrv_synchronize(&e) != CUDADRV_OK)
            return 1;
    }
    return cudadrv_synchronize(&e) != CUDADRV_OK;
}

static int rt_batches(uint64_t n, const void *arg)
{
    (void)arg;
    for (uint64_t i = 0; i < n; i++) {
        if (silkrt_launch("empty", 32, 32, 0, NULL) != 0)
            return 1;
        if ((i + 1) % BATCH == 0 && silkrt_synchronize() != 0)
            return 1;
    }
    return silkrt_synchronize();
}

static int raw_dispatches(uint64_t n, const void *arg)
{
    (void)arg;
    CudadrvError e;
    CudadrvLaunch l = {.ctas = 1, .threads = 32};
    for (uint64_t i = 0; i < n; i++)
        if (cudadrv_launch(raw_kernel, &l, &e) != CUDADRV_OK || cudadrv_synchronize(&e) != CUDADRV_OK)
            return 1;
    return 0;
}

static int gpu_bench(void)
{
    setenv("SILK_BACKEND", "cuda", 1);
    unsetenv("SILK_VERBOSE");
    silkrt_register(&program);
    int32_t status = silkrt_launch("empty", 32, 32, 0, NULL);
    SilkStr e = silkrt_last_error();
    if (status == SILKRT_NO_DRIVER || status == SILKRT_NO_DEVICE) {
        printf("bench/launch --gpu: no GPU: %.*s\n", (int)e.len, e.bytes);
        return 77;
    }
    if (status != 0 || silkrt_synchronize() != 0) {
        fprintf(stderr, "bench/launch --gpu: the runtime's launch failed: %.*s\n", (int)e.len, e.bytes);
        return 1;
    }
    CudadrvDevice device;
    CudadrvModule module;
    CudadrvError ce;
    char line[1024];
    if (cudadrv_device_open(0, &device, &ce) != CUDADRV_OK ||
        cudadrv_module_load(EMPTY_PTX, &module, &ce) != CUDADRV_OK ||
        cudadrv_module_kernel(&module, "empty", &raw_kernel, &ce) != CUDADRV_OK) {
        fprintf(stderr, "bench/launch --gpu: %s\n", cudadrv_message(&ce, line, sizeof line));
        return 1;
    }
    printf("bench/launch --gpu: an empty kernel (1 CTA of 32 threads) on %s (sm_%d%d), through "
           "libsilkrt and cuLaunchKernel\n", device.name, device.major, device.minor);
    header();
    Side ours = {"silkrt_launch", rt_batches, NULL, 0}, peer = {"cudadrv_launch", raw_batches, NULL, 0};
    if (!measure(&ours, &peer))
        return 1;
    char what[64];
    snprintf(what, sizeof what, "batches of %d launches + 1 synchronize", BATCH);
    row(&ours, &peer, what);
    double overhead = ours.best - peer.best;
    Side ours_d = {"silkrt_launch_and_synchronize", rt_launch_and_synchronize,
                   &(const Geometry){32, 32}, 0};
    Side peer_d = {"cudadrv_launch+cudadrv_synchronize", raw_dispatches, NULL, 0};
    if (!measure(&ours_d, &peer_d))
        return 1;
    row(&ours_d, &peer_d, "dispatch (1 launch + 1 synchronize)");
    printf("best of %d rounds, each ~0.1 s; overhead = ours - peer, per launch\n", ROUNDS);
    printf("goal: under 2 us of overhead per launch: %.3f us, %s\n", overhead * 1e6,
           overhead < 2e-6 ? "met" : "MISSED");
    cudadrv_module_unload(&module);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--gpu") == 0)
        return gpu_bench();
    if (argc != 1) {
        fprintf(stderr, "usage: bench/launch [--gpu]\n");
        return 2;
    }
    return cpu_bench();
}
