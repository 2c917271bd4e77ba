/*
 * verify_plan.c: which questions `silk-occ verify` asks of each kernel.
 *
 * The issue it answers is whether the engine agrees with the driver over
 * the whole space a user can reach, so the plan walks every block size
 * from 32 to 1024 in steps of 32 (up to the kernel's own limit), dynamic
 * shared memory from none to the opt-in limit (the kernel's dynamic limit
 * raised with cudaFuncSetAttribute where the size needs it), and each
 * carveout preference; then the block-size search and the available
 * dynamic shared memory under the same settings.
 *
 * Resident clusters (compute capability 9.0 on) are asked apart, and
 * sparingly: the device answers them for the whole GPU, each is one
 * launch-configuration query, and what is tested is the engine's GPC
 * arithmetic, which a few cluster and block sizes exercise as well as a
 * walk of every one would.
 */
#include "verify_engine.h"

#include <stdlib.h>

/* The carveout preferences asked about: none, then all L1, half, all shared. */
static const int carveouts[] = {OCC_CARVEOUT_DEFAULT, 0, 50, 100};
enum { N_CARVEOUTS = sizeof carveouts / sizeof *carveouts };

static const int probe_blocks[] = {32, 128, 256, 512, 1024};
static const int probe_counts[] = {1, 2, 4, 8};

typedef struct Plan {
    VerifyQuery *items;
    int n, cap;
} Plan;

static void plan_add(Plan *p, VerifyQuery q)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 256;
        VerifyQuery *grown = realloc(p->items, (size_t)p->cap * sizeof *grown);
        if (!grown)
            abort(); /* a few thousand small records: out of memory is fatal */
        p->items = grown;
    }
    p->items[p->n++] = q;
}

/* The dynamic sizes asked under one limit: none, 4 KiB, half the limit and
 * the limit itself, each once and none above the limit. */
static int dynamic_sizes(int64_t limit, int64_t sizes[4])
{
    const int64_t wanted[4] = {0, 4096, limit / 2, limit};
    int n = 0;
    for (int i = 0; i < 4; i++)
        if (wanted[i] <= limit && (n == 0 || wanted[i] > sizes[n - 1]))
            sizes[n++] = wanted[i];
    return n;
}

static void plan_setting(Plan *p, const FuncAttrs *attrs, int carveout, int64_t limit)
{
    int64_t sizes[4];
    int n_sizes = dynamic_sizes(limit, sizes);
    VerifyQuery q = {.carveout = carveout, .max_dynamic_smem = limit};
    for (int s = 0; s < n_sizes; s++) {
        q.dynamic_smem = sizes[s];
        q.kind = VQ_ACTIVE_BLOCKS;
        for (q.block_size = 32; q.block_size <= attrs->max_threads_per_block; q.block_size += 32)
            plan_add(p, q);
        q.kind = VQ_BLOCK_SIZE;
        q.block_size = 0;
        plan_add(p, q);
    }
    q.kind = VQ_DYNAMIC_SMEM;
    q.dynamic_smem = 0;
    for (size_t b = 0; b < sizeof probe_blocks / sizeof *probe_blocks; b++) {
        if (probe_blocks[b] > attrs->max_threads_per_block)
            continue;
        q.block_size = probe_blocks[b];
        for (size_t c = 0; c < sizeof probe_counts / sizeof *probe_counts; c++) {
            q.num_blocks = probe_counts[c];
            plan_add(p, q);
        }
    }
}

VerifyQuery *verify_plan(const DeviceProps *props, const FuncAttrs *attrs, int *n)
{
    Plan p = {0};
    /* The limit the kernel loads with, and the opt-in limit where it is larger. */
    int64_t loaded = attrs->max_dynamic_smem;
    int64_t optin = props->smem_per_block_optin - attrs->static_smem;
    for (int c = 0; c < N_CARVEOUTS; c++) {
        plan_setting(&p, attrs, carveouts[c], loaded);
        if (optin > loaded)
            plan_setting(&p, attrs, carveouts[c], optin);
    }
    *n = p.n;
    return p.items;
}

/* The block sizes a cluster is asked at: 128, 256 and the kernel's largest,
 * each once and none above the kernel's limit. */
static int cluster_blocks(const FuncAttrs *attrs, int blocks[3])
{
    const int wanted[3] = {128, 256, attrs->max_threads_per_block};
    int n = 0;
    for (int i = 0; i < 3; i++)
        if (wanted[i] <= attrs->max_threads_per_block && (n == 0 || wanted[i] > blocks[n - 1]))
            blocks[n++] = wanted[i];
    return n;
}

VerifyQuery *verify_plan_clusters(const DeviceProps *props, const FuncAttrs *attrs,
                                  int max_cluster, int *n)
{
    Plan p = {0};
    *n = 0;
    if (props->major < 9)
        return NULL; /* no thread-block clusters before Hopper */
    /* A kernel compiled with its cluster launches only that one. */
    int own = attrs->cluster_dims[0] * attrs->cluster_dims[1] * attrs->cluster_dims[2];
    const int free_sizes[] = {2, 4, 8, 16};
    int sizes[4], n_sizes = 0;
    if (own > 0)
        sizes[n_sizes++] = own;
    else
        for (size_t i = 0; i < sizeof free_sizes / sizeof *free_sizes; i++)
            if (free_sizes[i] <= max_cluster)
                sizes[n_sizes++] = free_sizes[i];
    int blocks[3];
    int n_blocks = cluster_blocks(attrs, blocks);
    VerifyQuery q = {.kind = VQ_ACTIVE_CLUSTERS, .carveout = OCC_CARVEOUT_DEFAULT,
                     .max_dynamic_smem = attrs->max_dynamic_smem};
    for (int s = 0; s < n_sizes; s++)
        for (int b = 0; b < n_blocks; b++) {
            q.cluster_size = sizes[s];
            q.block_size = blocks[b];
            plan_add(&p, q);
        }
    *n = p.n;
    return p.items;
}
