/*
 * check_oracle.c: the occupancy engine against NVIDIA's cuda_occupancy.h.
 *
 * For every compute capability of the built-in tables (one loop test per
 * row) it draws 200,000 kernel configurations from a PRNG seeded by the row,
 * mixing uniform values with the edges where rules change (register and
 * shared-memory limits, allocation units, carveout sizes, one above and one
 * below each), and asks both cudaOccMaxActiveBlocksPerMultiprocessor and
 * occ_active_blocks.  They must agree on the status, the resident CTAs,
 * every limiter's count, the allocations, partitioned caching and the set
 * of binding limiters.  Every 16th configuration also compares the block
 * size search (constant and per-thread dynamic shared memory) and the
 * available dynamic shared memory for 1 .. active+1 CTAs.  The first
 * disagreement fails the row with every input and both answers.
 *
 * Without cuda_occupancy.h (configure --with-cuda=DIR) the program skips.
 */
#include "oracle.h" /* config.h first */

#include <stdio.h>
#include <stdlib.h>

#ifndef HAVE_CUDA_OCCUPANCY_H

int main(void)
{
    puts("SKIP: cuda_occupancy.h not found (configure --with-cuda=DIR)");
    return 77;
}

#else

#include <check.h>
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

enum { CONFIGS_PER_ROW = 200000, SUBSET_EVERY = 16, MESSAGE_MAX = 2048 };

static ArchTable table;

/* ---- a deterministic PRNG (splitmix64): the same configurations on every
 * run and every libc, so that a failure can be replayed ------------------ */

typedef struct Rng {
    uint64_t state;
} Rng;

static uint64_t rng_next(Rng *r)
{
    uint64_t z = (r->state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Uniform in lo..hi inclusive (the modulo bias is irrelevant here). */
static int rng_int(Rng *r, int lo, int hi)
{
    return lo + (int)(rng_next(r) % (uint64_t)(hi - lo + 1));
}

static bool rng_percent(Rng *r, int percent) { return rng_int(r, 0, 99) < percent; }

static int rng_pick(Rng *r, const int *values, int n) { return values[rng_int(r, 0, n - 1)]; }

/* ---- configurations ------------------------------------------------------ */

typedef struct Config {
    KernelResources k;
    int block_size;
    uint64_t dynamic_smem;
    int sm_count;
} Config;

/* Block sizes around warp multiples and the per-block limit, where the warp
 * count and the "too large" rule change, plus uniform and odd sizes. */
static int gen_block_size(Rng *r, const ArchLimits *a)
{
    int max = a->max_threads_per_block, top = max + 64, warp = a->warp_size;
    const int edges[] = {1,          warp - 1, warp, warp + 1, 2 * warp - 1, 2 * warp,
                         max - warp, max - 1,  max,  max + 1,  max + warp,   top};
    switch (rng_int(r, 0, 3)) {
    case 0: return rng_int(r, 1, top);
    case 1: return warp * rng_int(r, 1, top / warp);
    case 2: return 2 * rng_int(r, 0, (top - 1) / 2) + 1;
    default: return rng_pick(r, edges, (int)(sizeof edges / sizeof edges[0]));
    }
}

/* Registers: the per-thread limits (255, 256) and one past them, the
 * allocation steps, and uniform counts, half of them in the common range
 * (large counts with large blocks leave no CTA at all). */
static int gen_regs(Rng *r)
{
    static const int edges[] = {0, 1, 2, 16, 24, 32, 40, 63, 64, 65, 96,
                                128, 168, 200, 254, 255, 256, 257, 260};
    if (rng_percent(r, 30))
        return rng_pick(r, edges, (int)(sizeof edges / sizeof edges[0]));
    if (rng_percent(r, 30))
        return 8 * rng_int(r, 0, 32);
    return rng_percent(r, 50) ? rng_int(r, 0, 64) : rng_int(r, 0, 260);
}

/* A size at which a shared-memory rule changes: a per-block limit (with or
 * without the reserved part), a carveout, or an exact share of one. */
static int smem_edge(Rng *r, const ArchLimits *a)
{
    int reserved = a->reserved_smem_per_block;
    int carveout = a->smem_per_sm;
    if (a->n_smem_configs > 0 && rng_percent(r, 50))
        carveout = a->smem_configs[rng_int(r, 0, a->n_smem_configs - 1)];
    switch (rng_int(r, 0, 5)) {
    case 0: return a->smem_per_block;
    case 1: return a->smem_per_block - reserved;
    case 2: return a->smem_per_block_optin;
    case 3: return a->smem_per_block_optin - reserved;
    case 4: return carveout;
    default: return carveout / rng_int(r, 1, 32) - reserved;
    }
}

/* Shared memory (static or dynamic), 0 .. optin + 2 KiB: small sizes that
 * leave many CTAs, allocation-unit multiples and their neighbours, the
 * limits, and uniform sizes.  The top stays far below 2^31, where the
 * header's int arithmetic would overflow. */
static uint64_t gen_smem(Rng *r, const ArchLimits *a)
{
    static const int units[] = {128, 256, 1024};
    int top = a->smem_per_block_optin + 2048;
    int v;
    switch (rng_int(r, 0, 5)) {
    case 0: return 0;
    case 1: v = rng_int(r, 0, 8192); break;
    case 2: {
        int unit = rng_pick(r, units, 3);
        v = unit * rng_int(r, 0, top / unit) + rng_int(r, -1, 1);
        break;
    }
    case 3: v = smem_edge(r, a) + rng_int(r, -1, 1); break;
    case 4: v = smem_edge(r, a); break;
    default: v = rng_int(r, 0, top); break;
    }
    return (uint64_t)(v < 0 ? 0 : v > top ? top : v);
}

/* The kernel's dynamic limit as the runtime sets it: everything the opt-in
 * limit leaves, everything the default limit leaves, or anything. */
static uint64_t gen_max_dynamic(Rng *r, const ArchLimits *a, uint64_t static_smem)
{
    uint64_t optin = (uint64_t)a->smem_per_block_optin;
    uint64_t dflt = (uint64_t)a->smem_per_block;
    int choice = rng_int(r, 0, 2);
    if (choice == 0 && static_smem <= optin)
        return optin - static_smem;
    if (choice <= 1)
        return static_smem < dflt ? dflt - static_smem : 0;
    return gen_smem(r, a);
}

static int gen_carveout(Rng *r)
{
    static const int fixed[] = {OCC_CARVEOUT_DEFAULT, 0, 50, 100};
    return rng_percent(r, 80) ? rng_pick(r, fixed, 4) : rng_int(r, 0, 100);
}

/* Virtual resources: mostly few (the limit is 128 per SM), sometimes past it. */
static int gen_virtual(Rng *r)
{
    if (rng_percent(r, 50))
        return 0;
    return rng_percent(r, 70) ? rng_int(r, 1, 16) : rng_int(r, 0, 130);
}

/* Independent draws mostly ask for more than one CTA may have, so half the
 * configurations keep only one kind of shared memory, and a tenth are tiny
 * kernels, the only ones the SM's CTA slots limit. */
static Config gen_config(Rng *r, const ArchLimits *a)
{
    Config c = {0};
    KernelResources *k = &c.k;
    bool tiny = rng_percent(r, 10);
    k->regs_per_thread = tiny ? rng_int(r, 0, 32) : gen_regs(r);
    k->static_smem = tiny ? (uint64_t)rng_int(r, 0, 1024) : gen_smem(r, a);
    k->barriers = rng_percent(r, 40) ? 1 : rng_int(r, 0, 16);
    k->virtual_resources = gen_virtual(r);
    k->max_threads_per_block = rng_percent(r, 50) ? 0 : rng_int(r, 1, 1024);
    k->smem_optin = rng_percent(r, 50);
    k->max_dynamic_smem = gen_max_dynamic(r, a, k->static_smem);
    k->carveout = gen_carveout(r);
    k->partitioned_gc = (OccPartitionedGc)rng_int(r, OCC_GC_OFF, OCC_GC_ON_STRICT);
    c.block_size = tiny ? rng_int(r, 1, 128) : gen_block_size(r, a);
    c.dynamic_smem = tiny ? (uint64_t)rng_int(r, 0, 1024) : gen_smem(r, a);
    if (!tiny && rng_percent(r, 50)) {
        if (rng_percent(r, 50))
            k->static_smem = 0;
        else
            c.dynamic_smem = 0;
    }
    c.sm_count = rng_int(r, 1, 256);
    return c;
}

/* ---- describing a disagreement ------------------------------------------ */

typedef struct Answers {
    cudaOccError theirs_status;
    cudaOccResult theirs;
    OccStatus ours_status;
    OccResult ours;
} Answers;

static void describe_config(char *buf, size_t size, const ArchLimits *a, const Config *c,
                            long index)
{
    char sm[16];
    const KernelResources *k = &c->k;
    snprintf(buf, size,
             "%s config #%ld: block_size=%d dynamic_smem=%" PRIu64 " regs=%d static_smem=%" PRIu64
             " barriers=%d virtual_resources=%d kernel_max_threads=%d smem_optin=%d"
             " max_dynamic_smem=%" PRIu64 " carveout=%d partitioned_gc=%d sm_count=%d",
             arch_sm_name(a, sm, sizeof sm), index, c->block_size, c->dynamic_smem,
             k->regs_per_thread, k->static_smem, k->barriers, k->virtual_resources,
             k->max_threads_per_block, (int)k->smem_optin, k->max_dynamic_smem, k->carveout,
             (int)k->partitioned_gc, c->sm_count);
}

static void describe_answers(char *buf, size_t size, const Answers *x)
{
    const cudaOccResult *t = &x->theirs;
    const OccResult *o = &x->ours;
    snprintf(buf, size,
             "header: status=%d active=%d warps=%d regs=%d smem=%d blocks=%d barriers=%d"
             " virtual=%d flags=0x%x (as our set 0x%x, binding 0x%x) alloc_regs=%d"
             " alloc_smem=%zu gc=%d\n"
             "ours:   status=%d active=%d warps=%d regs=%d smem=%d blocks=%d barriers=%d"
             " virtual=%d limited_by=0x%x alloc_regs=%d alloc_smem=%" PRIu64 " gc=%d",
             (int)x->theirs_status, t->activeBlocksPerMultiprocessor, t->blockLimitWarps,
             t->blockLimitRegs, t->blockLimitSharedMem, t->blockLimitBlocks,
             t->blockLimitBarriers, t->blockLimitVirtual, t->limitingFactors,
             oracle_limited_by(t), oracle_binding_set(t), t->allocatedRegistersPerBlock,
             t->allocatedSharedMemPerBlock, (int)t->partitionedGCConfig, (int)x->ours_status,
             o->active_blocks, o->limit[OCC_LIMITER_WARPS], o->limit[OCC_LIMITER_REGISTERS],
             o->limit[OCC_LIMITER_SHARED_MEMORY], o->limit[OCC_LIMITER_BLOCKS],
             o->limit[OCC_LIMITER_BARRIERS], o->limit[OCC_LIMITER_VIRTUAL_RESOURCES], o->limited_by,
             o->allocated_regs_per_block, o->allocated_smem_per_block, (int)o->partitioned_gc);
}

/* Fails the row: what differs, every input, and `detail` (both answers). */
static void disagree(const ArchLimits *a, const Config *c, long index, const char *what,
                     const char *detail)
{
    char inputs[MESSAGE_MAX];
    describe_config(inputs, sizeof inputs, a, c, index);
    fprintf(stderr, "DISAGREEMENT (%s)\n%s\n%s\n", what, inputs, detail);
    ck_abort_msg("%s disagrees: %s\n%s", what, inputs, detail);
}

/* ---- the comparisons ------------------------------------------------------ */

/* NULL when the two answers agree, else the name of the first field that
 * differs.  Only our binding set is compared against the header's flags
 * that its own numbers support (see oracle_binding_set). */
static const char *active_mismatch(const Answers *x)
{
    bool theirs_failed = x->theirs_status != CUDA_OCC_SUCCESS;
    if (x->ours_status != OCC_OK && x->ours_status != OCC_ERR_INVALID_INPUT)
        return "status";
    if (theirs_failed != (x->ours_status == OCC_ERR_INVALID_INPUT))
        return "status";
    if (theirs_failed)
        return NULL;
    const cudaOccResult *t = &x->theirs;
    const OccResult *o = &x->ours;
    if (t->activeBlocksPerMultiprocessor != o->active_blocks)
        return "active blocks";
    for (int i = 0; i < OCC_N_LIMITERS; i++)
        if (oracle_limit(t, (OccLimiter)i) != o->limit[i])
            return occ_limiter_name((OccLimiter)i);
    if (t->allocatedRegistersPerBlock != o->allocated_regs_per_block)
        return "allocated registers";
    if ((uint64_t)t->allocatedSharedMemPerBlock != o->allocated_smem_per_block)
        return "allocated shared memory";
    if ((int)t->partitionedGCConfig != (int)o->partitioned_gc)
        return "partitioned caching";
    if ((oracle_limited_by(t) & oracle_binding_set(t)) != o->limited_by)
        return "limiting set";
    return NULL;
}

/* Compares resident CTAs; returns whether the header's flags were stale
 * (a flag on a limiter whose count is above the result). */
static bool check_active(const ArchLimits *a, const Config *c, long index, Answers *x)
{
    cudaOccDeviceProp prop = oracle_device(a, c->sm_count);
    cudaOccFuncAttributes func = oracle_func(&c->k);
    cudaOccDeviceState state = oracle_state(&c->k);
    memset(x, 0, sizeof *x);
    x->theirs_status = cudaOccMaxActiveBlocksPerMultiprocessor(&x->theirs, &prop, &func, &state,
                                                               c->block_size, c->dynamic_smem);
    x->ours_status = occ_active_blocks(a, &c->k, c->block_size, c->dynamic_smem, &x->ours);
    const char *what = active_mismatch(x);
    if (what) {
        char detail[MESSAGE_MAX];
        describe_answers(detail, sizeof detail, x);
        disagree(a, c, index, what, detail);
    }
    if (x->theirs_status != CUDA_OCC_SUCCESS)
        return false;
    return (oracle_limited_by(&x->theirs) & ~oracle_binding_set(&x->theirs)) != 0;
}

/* The batch form: one call for many block sizes of the configuration's
 * kernel must give, size by size, what the header gives. */
static void check_block_sizes(const ArchLimits *a, const Config *c, long index)
{
    enum { MAX_SIZES = 40 };
    int sizes[MAX_SIZES];
    OccResult ours[MAX_SIZES];
    size_t n = 0;
    sizes[n++] = c->block_size;
    sizes[n++] = 1;
    for (int size = 31; size <= a->max_threads_per_block + 32 && n < MAX_SIZES; size += 33)
        sizes[n++] = size;
    OccStatus status = occ_active_blocks_sizes(a, &c->k, c->dynamic_smem, sizes, n, ours);

    cudaOccDeviceProp prop = oracle_device(a, c->sm_count);
    cudaOccFuncAttributes func = oracle_func(&c->k);
    cudaOccDeviceState state = oracle_state(&c->k);
    for (size_t i = 0; i < n; i++) {
        Answers x;
        memset(&x, 0, sizeof x);
        x.theirs_status = cudaOccMaxActiveBlocksPerMultiprocessor(&x.theirs, &prop, &func, &state,
                                                                  sizes[i], c->dynamic_smem);
        x.ours_status = status;
        x.ours = ours[i];
        const char *what = active_mismatch(&x);
        if (what) {
            char detail[MESSAGE_MAX];
            Config sized = *c;
            sized.block_size = sizes[i];
            describe_answers(detail, sizeof detail, &x);
            disagree(a, &sized, index, what, detail);
        }
    }
}

/* Dynamic shared memory as a function of the block size: the header takes
 * a plain function, ours a function and a context. */
static size_t header_smem_8(int block_size) { return (size_t)block_size * 8; }
static size_t header_smem_32(int block_size) { return (size_t)block_size * 32; }

static uint64_t ours_smem_per_thread(int block_size, void *context)
{
    return (uint64_t)block_size * (uint64_t)*(const int *)context;
}

/* One block-size search: bytes_per_thread 0 means the constant dynamic size
 * of the configuration. */
static void check_best_block_size(const ArchLimits *a, const Config *c, long index,
                                  int bytes_per_thread)
{
    cudaOccDeviceProp prop = oracle_device(a, c->sm_count);
    cudaOccFuncAttributes func = oracle_func(&c->k);
    cudaOccDeviceState state = oracle_state(&c->k);
    size_t (*header_fn)(int) = bytes_per_thread == 0 ? NULL
                               : bytes_per_thread == 8 ? header_smem_8
                                                       : header_smem_32;
    int min_grid = 0, block = 0;
    cudaOccError theirs = cudaOccMaxPotentialOccupancyBlockSize(
        &min_grid, &block, &prop, &func, &state, header_fn, c->dynamic_smem);

    OccBlockSizeChoice choice = {0};
    OccStatus ours = occ_best_block_size(a, &c->k, bytes_per_thread ? ours_smem_per_thread : NULL,
                                         &bytes_per_thread, c->dynamic_smem, c->sm_count,
                                         &choice);
    bool agree = (theirs != CUDA_OCC_SUCCESS) == (ours != OCC_OK) &&
                 (ours != OCC_OK || (block == choice.block_size && min_grid == choice.min_grid));
    if (!agree) {
        char detail[MESSAGE_MAX];
        snprintf(detail, sizeof detail,
                 "dynamic smem: %s (%d bytes per thread)\n"
                 "header: status=%d block_size=%d min_grid=%d\n"
                 "ours:   status=%d block_size=%d min_grid=%d blocks_per_sm=%d",
                 bytes_per_thread ? "per thread" : "constant", bytes_per_thread, (int)theirs,
                 block, min_grid, (int)ours, choice.block_size, choice.min_grid,
                 choice.blocks_per_sm);
        disagree(a, c, index, "best block size", detail);
    }
}

/* The dynamic shared memory left for 1 .. active+1 CTAs; the last count
 * never fits, so both sides must refuse it. */
static void check_available_smem(const ArchLimits *a, const Config *c, long index, int active)
{
    cudaOccDeviceProp prop = oracle_device(a, c->sm_count);
    cudaOccFuncAttributes func = oracle_func(&c->k);
    cudaOccDeviceState state = oracle_state(&c->k);
    for (int n = 1; n <= active + 1; n++) {
        size_t theirs_bytes = 0;
        uint64_t ours_bytes = 0;
        cudaOccError theirs = cudaOccAvailableDynamicSMemPerBlock(&theirs_bytes, &prop, &func,
                                                                  &state, n, c->block_size);
        OccStatus ours = occ_available_dynamic_smem(a, &c->k, n, c->block_size, &ours_bytes);
        bool theirs_refused = theirs == CUDA_OCC_ERROR_INVALID_INPUT;
        bool ours_refused = ours == OCC_ERR_DOES_NOT_FIT || ours == OCC_ERR_INVALID_INPUT;
        bool agree = theirs_refused == ours_refused &&
                     (theirs_refused || (theirs == CUDA_OCC_SUCCESS && ours == OCC_OK &&
                                         (uint64_t)theirs_bytes == ours_bytes));
        if (!agree) {
            char detail[MESSAGE_MAX];
            snprintf(detail, sizeof detail,
                     "num_blocks=%d (active %d)\nheader: status=%d bytes=%zu\n"
                     "ours:   status=%d bytes=%" PRIu64,
                     n, active, (int)theirs, theirs_bytes, (int)ours, ours_bytes);
            disagree(a, c, index, "available dynamic shared memory", detail);
        }
    }
}

/* ---- the test -------------------------------------------------------------- */

START_TEST(test_row_agrees)
{
    const ArchLimits *a = &table.archs[_i];
    /* One stream per compute capability, so rows do not shift each other. */
    Rng rng = {0x51c0cc0ull ^ ((uint64_t)a->major << 40) ^ ((uint64_t)a->minor << 32)};
    long stale = 0;
    for (long i = 0; i < CONFIGS_PER_ROW; i++) {
        Config c = gen_config(&rng, a);
        Answers x;
        stale += check_active(a, &c, i, &x);
        if (i % SUBSET_EVERY != 0)
            continue;
        check_best_block_size(a, &c, i, 0);
        check_best_block_size(a, &c, i, rng_percent(&rng, 50) ? 8 : 32);
        check_block_sizes(a, &c, i);
        if (x.theirs_status == CUDA_OCC_SUCCESS)
            check_available_smem(a, &c, i, x.theirs.activeBlocksPerMultiprocessor);
    }
    char sm[16];
    printf("%s: %d configurations agree (%ld stale header flags)\n",
           arch_sm_name(a, sm, sizeof sm), CONFIGS_PER_ROW, stale);
    fflush(stdout);
}
END_TEST

static Suite *oracle_suite(void)
{
    Suite *s = suite_create("oracle");
    TCase *tc = tcase_create("cuda_occupancy.h");
    /* A row takes well under a second; the margin is for sanitizer builds. */
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_row_agrees, 0, (int)table.n_archs);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    OccError err;
    if (arch_table_load_builtin(&table, &err) != 0) {
        fprintf(stderr, "check_oracle: %s\n", err.message);
        return EXIT_FAILURE;
    }
    SRunner *runner = srunner_create(oracle_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    arch_table_free(&table);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif /* HAVE_CUDA_OCCUPANCY_H */
