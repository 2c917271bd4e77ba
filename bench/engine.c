/*
 * engine.c: how fast the occupancy engine is, next to NVIDIA's
 * cuda_occupancy.h, on the full grid of ordinary kernels: every built-in
 * architecture x block sizes 32..1024 step 32 (up to the architecture's
 * limit) x registers 1..255 x static shared memory 0..smem_per_block step
 * 256, with no dynamic shared memory, opted in to the large limit
 * (occ_kernel_defaults).  Our engine is measured twice: one call per
 * configuration (occ_active_blocks), and one call per kernel for all its
 * block sizes (occ_active_blocks_sizes, how silk-occ itself sweeps).  Each
 * evaluates the grid three times and the best time counts; the sums of
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

#include <inttypes.h>
#include <time.h>

enum { RUNS = 3, BLOCK_STEP = 32, SMEM_STEP = 256, MAX_REGS = 255, SM_COUNT = 132,
       MAX_SIZES = 64 };

typedef enum Side { OURS_PER_CALL, OURS_PER_KERNEL, HEADER, N_SIDES } Side;

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
static Tally run_grid(const ArchTable *table, Side side)
{
    Tally t = {0, 0};
    for (size_t i = 0; i < table->n_archs; i++) {
        const ArchLimits *a = &table->archs[i];
        cudaOccDeviceProp prop = oracle_device(a, SM_COUNT);
        for (int regs = 1; regs <= MAX_REGS; regs++) {
            for (int smem = 0; smem <= a->smem_per_block; smem += SMEM_STEP) {
                KernelResources k = occ_kernel_defaults(a, regs, (uint64_t)smem, true);
                if (side == HEADER)
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

/* The best of RUNS passes; the tally is the same on every pass. */
static double best_time(const ArchTable *table, Side side, Tally *tally)
{
    double best = 0;
    for (int run = 0; run < RUNS; run++) {
        double start = now_seconds();
        *tally = run_grid(table, side);
        double elapsed = now_seconds() - start;
        if (run == 0 || elapsed < best)
            best = elapsed;
    }
    return best;
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
                                               "cuda_occupancy.h"};
    Tally tally[N_SIDES];
    double seconds[N_SIDES];
    for (int side = 0; side < N_SIDES; side++)
        seconds[side] = best_time(&table, (Side)side, &tally[side]);
    size_t n_archs = table.n_archs;
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
