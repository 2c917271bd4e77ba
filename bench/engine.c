/*
 * engine.c: how fast the occupancy engine is, next to NVIDIA's
 * cuda_occupancy.h, on the full grid of ordinary kernels: every built-in
 * architecture x block sizes 32..1024 step 32 (up to the architecture's
 * limit) x registers 1..255 x static shared memory 0..smem_per_block step
 * 256, with no dynamic shared memory, opted in to the large limit
 * (occ_kernel_defaults).  Our engine is measured four ways: one call per
 * configuration (occ_active_blocks), one call per kernel for all its
 * block sizes (occ_active_blocks_sizes, how silk-occ itself sweeps), and
 * the installed API's two paths (silk-occ(3)): silk_occ_active per
 * configuration, and a plan per kernel (silk_occ_plan_new) evaluated per
 * block size (silk_occ_plan_eval), each answer in the public result.  Each
 * evaluates the grid five times, in turns, and the best time counts; the sums of
 * resident CTAs must be equal on every side, so the benchmark is also a
 * coarse agreement check (exit 1 if not).
 *
 * Run it with `make bench`; it exits 77 when configure did not find
 * cuda_occupancy.h.
 */
#include "../tests/oracle/oracle.h" /* config.h first */

#include <stdio.h>
#include <stdlib.h>

#ifndef HAVE_CUDA_OCCUPANCY_H

int main(void)
{
    puts("bench/engine: cuda_occupancy.h not found (configure --with-cuda=DIR); nothing to compare");
    return 77;
}

#else

#include <silk-occ/silk-occ.h>

#include <inttypes.h>
#include <time.h>

enum { RUNS = 5, BLOCK_STEP = 32, SMEM_STEP = 256, MAX_REGS = 255, SM_COUNT = 132,
       MAX_SIZES = 64 };

typedef enum Side { OURS_PER_CALL, OURS_PER_KERNEL, API_PER_CALL, API_PLAN, HEADER, N_SIDES } Side;

typedef struct Tally {
    uint64_t configs;
    uint64_t checksum; /* sum of resident CTAs over the grid */
} Tally;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Our engine on every block size of one kernel. */
static void ours_kernel(const ArchLimits *a, const KernelResources *k, Tally *t)
{
    for (int block = BLOCK_STEP; block <= a->max_threads_per_block; block += BLOCK_STEP) {
        OccResult r;
        if (occ_active_blocks(a, k, block, 0, &r) == OCC_OK)
            t->checksum += (uint64_t)r.active_blocks;
        t->configs++;
    }
}

/* Our engine on every block size of one kernel, in one call. */
static void ours_kernel_sizes(const ArchLimits *a, const KernelResources *k, Tally *t)
{
    int sizes[MAX_SIZES];
    OccResult r[MAX_SIZES];
    size_t n = 0;
    for (int block = BLOCK_STEP; block <= a->max_threads_per_block && n < MAX_SIZES;
         block += BLOCK_STEP)
        sizes[n++] = block;
    if (occ_active_blocks_sizes(a, k, 0, sizes, n, r) == OCC_OK)
        for (size_t i = 0; i < n; i++)
            t->checksum += (uint64_t)r[i].active_blocks;
    t->configs += n;
}

/* The installed API on every block size of one kernel: a call each, or
 * one plan for them all. */
static void api_kernel(const silk_occ_target *t, const silk_occ_kernel *k, int max_block,
                       Tally *tally)
{
    for (int block = BLOCK_STEP; block <= max_block; block += BLOCK_STEP) {
        silk_occ_result r = SILK_OCC_RESULT_INIT;
        if (silk_occ_active(t, k, block, 0, &r) == SILK_OCC_OK)
            tally->checksum += (uint64_t)r.groups;
        tally->configs++;
    }
}

static void api_plan(const silk_occ_target *t, const silk_occ_kernel *k, int max_block,
                     Tally *tally)
{
    silk_occ_plan *plan;
    if (silk_occ_plan_new(t, k, &plan) != SILK_OCC_OK)
        return;
    for (int block = BLOCK_STEP; block <= max_block; block += BLOCK_STEP) {
        silk_occ_result r = SILK_OCC_RESULT_INIT;
        if (silk_occ_plan_eval(plan, block, 0, &r) == SILK_OCC_OK)
            tally->checksum += (uint64_t)r.groups;
        tally->configs++;
    }
    silk_occ_plan_free(plan);
}

/* The header on every block size of one kernel. */
static void header_kernel(const ArchLimits *a, const cudaOccDeviceProp *prop,
                          const KernelResources *k, Tally *t)
{
    cudaOccFuncAttributes func = oracle_func(k);
    cudaOccDeviceState state = oracle_state(k);
    for (int block = BLOCK_STEP; block <= a->max_threads_per_block; block += BLOCK_STEP) {
        cudaOccResult r;
        if (cudaOccMaxActiveBlocksPerMultiprocessor(&r, prop, &func, &state, block, 0) ==
            CUDA_OCC_SUCCESS)
            t->checksum += (uint64_t)r.activeBlocksPerMultiprocessor;
        t->configs++;
    }
}

/* One pass over the grid.  The kernel is built the same way for both sides,
 * outside the block-size loop, so the time is spent in the calculation;
 * the header side also pays for the (cheap) translation of its inputs. */
static Tally run_grid(const ArchTable *table, silk_occ_target *const *targets, Side side)
{
    Tally t = {0, 0};
    for (size_t i = 0; i < table->n_archs; i++) {
        const ArchLimits *a = &table->archs[i];
        cudaOccDeviceProp prop = oracle_device(a, SM_COUNT);
        for (int regs = 1; regs <= MAX_REGS; regs++) {
            for (int smem = 0; smem <= a->smem_per_block; smem += SMEM_STEP) {
                KernelResources k = occ_kernel_defaults(a, regs, (uint64_t)smem, true);
                silk_occ_kernel pk;
                silk_occ_kernel_init(&pk);
                pk.regs = regs;
                pk.static_smem = (uint64_t)smem;
                if (side == API_PER_CALL)
                    api_kernel(targets[i], &pk, a->max_threads_per_block, &t);
                else if (side == API_PLAN)
                    api_plan(targets[i], &pk, a->max_threads_per_block, &t);
                else if (side == HEADER)
                    header_kernel(a, &prop, &k, &t);
                else if (side == OURS_PER_KERNEL)
                    ours_kernel_sizes(a, &k, &t);
                else
                    ours_kernel(a, &k, &t);
            }
        }
    }
    return t;
}

/* The best of RUNS passes of every side, the sides taking turns within
 * each round, so that a busy machine (other jobs on the cores) slows every
 * side alike instead of whichever ran while it was busy; the tally is the
 * same on every pass. */
static void best_times(const ArchTable *table, silk_occ_target *const *targets, Tally *tally,
                       double *seconds)
{
    for (int run = 0; run < RUNS; run++)
        for (int side = 0; side < N_SIDES; side++) {
            double start = now_seconds();
            tally[side] = run_grid(table, targets, (Side)side);
            double elapsed = now_seconds() - start;
            if (run == 0 || elapsed < seconds[side])
                seconds[side] = elapsed;
        }
}

static void report(const char *who, const Tally *t, double seconds)
{
    printf("%-20s %" PRIu64 " configurations in %.3f s: %.3g configurations/s,"
           " checksum %" PRIu64 "\n",
           who, t->configs, seconds, (double)t->configs / seconds, t->checksum);
}

int main(void)
{
    ArchTable table;
    OccError err;
    if (arch_table_load_builtin(&table, &err) != 0) {
        fprintf(stderr, "bench/engine: %s\n", err.message);
        return 1;
    }
    static const char *const names[N_SIDES] = {"silk-occ per call", "silk-occ per kernel",
                                               "libsilk-occ per call", "libsilk-occ plan",
                                               "cuda_occupancy.h"};
    /* The API's targets, one per row, by the row's name. */
    silk_occ_target *targets[64] = {0};
    for (size_t i = 0; i < table.n_archs && i < 64; i++) {
        char name[16];
        if (silk_occ_target_open(arch_sm_name(&table.archs[i], name, sizeof name), &targets[i],
                                 NULL, 0) != SILK_OCC_OK) {
            fprintf(stderr, "bench/engine: libsilk-occ does not know %s\n", name);
            return 1;
        }
    }
    Tally tally[N_SIDES];
    double seconds[N_SIDES];
    best_times(&table, targets, tally, seconds);
    size_t n_archs = table.n_archs;
    for (size_t i = 0; i < n_archs && i < 64; i++)
        silk_occ_target_close(targets[i]);
    arch_table_free(&table);

    printf("best of %d runs, %zu architectures\n", RUNS, n_archs);
    for (int side = 0; side < N_SIDES; side++)
        report(names[side], &tally[side], seconds[side]);
    for (int side = 0; side < HEADER; side++)
        printf("ratio %s / header: %.2f (time), %.2f (throughput)\n", names[side],
               seconds[side] / seconds[HEADER], seconds[HEADER] / seconds[side]);
    for (int side = 0; side < HEADER; side++)
        if (tally[side].checksum != tally[HEADER].checksum ||
            tally[side].configs != tally[HEADER].configs) {
            fprintf(stderr, "bench/engine: %s and the header disagree\n", names[side]);
            return 1;
        }
    return 0;
}

#endif /* HAVE_CUDA_OCCUPANCY_H */
