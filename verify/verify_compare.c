/*
 * verify_compare.c: the two comparisons of `silk-occ verify`.
 *
 * The device's properties against the tables: the row of its compute
 * capability and, when the tables know the product by the device's name,
 * the product's row.  A mismatch there means the tables are wrong for this
 * card (or the card is not what its capability says).
 *
 * Each runtime answer against the engine's: asked with the device's own
 * limits in place of the table's, so that a disagreement here is a fault
 * in the engine's rules, not a table value counted twice.
 *
 * Resident clusters depend on how the SMs are grouped in GPCs, which the
 * tables hold per product where it is public: there the engine's estimate
 * (occupancy/cluster.c) must equal the device's answer; elsewhere the
 * device's answer is the figure, checked only against the bound that no
 * layout can pass.
 */
#include "verify_engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const ArchLimits *verify_table_row(const ArchTable *table, const DeviceProps *props)
{
    char name[32];
    snprintf(name, sizeof name, "%d.%d", props->major, props->minor);
    return arch_table_find(table, name);
}

ArchLimits verify_arch_from_props(const ArchLimits *row, const DeviceProps *props)
{
    ArchLimits a = *row;
    a.warp_size = props->warp_size;
    a.max_threads_per_block = props->max_threads_per_block;
    a.max_threads_per_sm = props->max_threads_per_sm;
    a.max_blocks_per_sm = props->max_blocks_per_sm;
    a.regs_per_sm = props->regs_per_sm;
    a.regs_per_block = props->regs_per_block;
    a.smem_per_sm = (int)props->smem_per_sm;
    a.smem_per_block = (int)props->smem_per_block;
    a.smem_per_block_optin = (int)props->smem_per_block_optin;
    a.reserved_smem_per_block = (int)props->reserved_smem_per_block;
    return a;
}

typedef struct Checks {
    PropCheck *items;
    int n;
    const char *source;
} Checks;

static void check(Checks *c, const char *field, int64_t device, int64_t table)
{
    PropCheck *p = &c->items[c->n++];
    p->field = field;
    p->device = device;
    p->table = table;
    snprintf(p->source, sizeof p->source, "%s", c->source);
}

static void check_row(Checks *c, const DeviceProps *d, const ArchLimits *a)
{
    check(c, "warp_size", d->warp_size, a->warp_size);
    check(c, "max_threads_per_block", d->max_threads_per_block, a->max_threads_per_block);
    check(c, "max_threads_per_sm", d->max_threads_per_sm, a->max_threads_per_sm);
    check(c, "max_blocks_per_sm", d->max_blocks_per_sm, a->max_blocks_per_sm);
    check(c, "regs_per_sm", d->regs_per_sm, a->regs_per_sm);
    check(c, "regs_per_block", d->regs_per_block, a->regs_per_block);
    check(c, "smem_per_sm", d->smem_per_sm, a->smem_per_sm);
    check(c, "smem_per_block", d->smem_per_block, a->smem_per_block);
    check(c, "smem_per_block_optin", d->smem_per_block_optin, a->smem_per_block_optin);
    check(c, "reserved_smem_per_block", d->reserved_smem_per_block, a->reserved_smem_per_block);
    check(c, "max_grid_x", d->max_grid[0], a->max_grid_x);
    check(c, "max_grid_y", d->max_grid[1], a->max_grid_y);
    check(c, "max_grid_z", d->max_grid[2], a->max_grid_z);
}

/* The product row of a device called "NVIDIA H200": by its whole name or
 * by the name without the vendor.  No looser match: "H100" alone would
 * take an H100 PCIe for the SXM part and report its SM count as wrong. */
static const GpuProduct *find_product(const ArchTable *table, const char *device_name)
{
    const GpuProduct *gpu = arch_table_find_product(table, device_name);
    if (!gpu && strncmp(device_name, "NVIDIA ", 7) == 0)
        gpu = arch_table_find_product(table, device_name + 7);
    return gpu;
}

PropCheck *verify_properties(const ArchTable *table, const DeviceProps *props, int *n)
{
    enum { MAX_CHECKS = 16 };
    Checks c = {calloc(MAX_CHECKS, sizeof *c.items), 0, NULL};
    if (!c.items)
        abort();
    char source[OCC_NAME_MAX + 16];
    const ArchLimits *row = verify_table_row(table, props);
    if (row) {
        snprintf(source, sizeof source, "the %d.%d row", row->major, row->minor);
        c.source = source;
        check_row(&c, props, row);
    }
    const GpuProduct *gpu = find_product(table, props->name);
    if (gpu) {
        char product[OCC_NAME_MAX + 16];
        snprintf(product, sizeof product, "product %s", gpu->id);
        c.source = product;
        check(&c, "compute_capability", props->major * 10 + props->minor,
              gpu->major * 10 + gpu->minor);
        check(&c, "sm_count", props->sm_count, gpu->sm_count);
    }
    *n = c.n;
    return c.items;
}

/* ---- answers -------------------------------------------------------------- */

static KernelResources kernel_of(const FuncAttrs *attrs, const VerifyQuery *q)
{
    /* As the runtime describes a function to the calculator: opted in,
     * with its dynamic limit, one barrier (cudaFuncAttributes has no count). */
    KernelResources k = {
        .regs_per_thread = attrs->num_regs,
        .static_smem = (uint64_t)attrs->static_smem,
        .barriers = 1,
        .max_threads_per_block = attrs->max_threads_per_block,
        .smem_optin = true,
        .max_dynamic_smem = (uint64_t)q->max_dynamic_smem,
        .carveout = q->carveout,
        .partitioned_gc = OCC_GC_OFF,
    };
    return k;
}

static void engine_failed(VerifyAnswer *out, OccStatus status)
{
    out->ok = false;
    snprintf(out->error, sizeof out->error, "%s",
             status == OCC_ERR_DOES_NOT_FIT ? "does not fit" : "invalid input");
}

void verify_engine_answer(const ArchLimits *arch, int sm_count, const FuncAttrs *attrs,
                          const VerifyQuery *q, VerifyAnswer *out)
{
    memset(out, 0, sizeof *out);
    KernelResources k = kernel_of(attrs, q);
    OccStatus status = OCC_ERR_INVALID_INPUT;
    if (q->kind == VQ_ACTIVE_BLOCKS) {
        OccResult r;
        status = occ_active_blocks(arch, &k, q->block_size, (uint64_t)q->dynamic_smem, &r);
        out->value = r.active_blocks;
    } else if (q->kind == VQ_BLOCK_SIZE) {
        OccBlockSizeChoice choice;
        status = occ_best_block_size(arch, &k, NULL, NULL, (uint64_t)q->dynamic_smem, sm_count,
                                     &choice);
        out->value = choice.block_size;
        out->min_grid = choice.min_grid;
    } else if (q->kind == VQ_DYNAMIC_SMEM) {
        uint64_t bytes = 0;
        status = occ_available_dynamic_smem(arch, &k, q->num_blocks, q->block_size, &bytes);
        out->value = (int64_t)bytes;
    } else if (q->kind == VQ_ACTIVE_CLUSTERS) {
        verify_cluster_answer(arch, sm_count, 0, attrs, q, out);
        return;
    }
    out->ok = status == OCC_OK;
    if (!out->ok)
        engine_failed(out, status);
}

/* ---- clusters ------------------------------------------------------------- */

const GpuProduct *verify_cluster_product(const ArchTable *table, const DeviceProps *props,
                                         bool *by_name)
{
    *by_name = true;
    const GpuProduct *gpu = find_product(table, props->name);
    if (gpu)
        return gpu;
    /* A device whose name the tables do not spell ("NVIDIA H100 80GB
     * HBM3"): the product of the same capability and SM count with a
     * public GPC count, when exactly one layout fits.  Two candidate
     * layouts would make the estimate a guess between them. */
    *by_name = false;
    const GpuProduct *found = NULL;
    for (size_t i = 0; i < table->n_products; i++) {
        const GpuProduct *p = &table->products[i];
        if (p->major != props->major || p->minor != props->minor ||
            p->sm_count != props->sm_count || p->gpcs <= 0)
            continue;
        if (found && found->gpcs != p->gpcs)
            return NULL;
        if (!found)
            found = p;
    }
    return found;
}

void verify_cluster_answer(const ArchLimits *arch, int sm_count, int gpcs, const FuncAttrs *attrs,
                           const VerifyQuery *q, VerifyAnswer *out)
{
    memset(out, 0, sizeof *out);
    int limit = occ_cluster_limit(arch, true);
    if (q->cluster_size < 1 || q->cluster_size > limit) {
        snprintf(out->error, sizeof out->error, "a cluster of %d CTAs is above the limit of %d",
                 q->cluster_size, limit);
        return;
    }
    KernelResources k = kernel_of(attrs, q);
    OccResult r;
    OccStatus status = occ_active_blocks(arch, &k, q->block_size, (uint64_t)q->dynamic_smem, &r);
    if (status != OCC_OK && status != OCC_ERR_DOES_NOT_FIT) {
        engine_failed(out, status);
        return;
    }
    /* A CTA that does not fit an SM makes no cluster resident: 0, as the
     * runtime answers it. */
    int ctas_per_sm = status == OCC_OK ? r.active_blocks : 0;
    out->ok = true;
    if (gpcs > 0) {
        out->value = occ_cluster_resident(sm_count, gpcs, ctas_per_sm, q->cluster_size);
        return;
    }
    out->value = (int64_t)sm_count * ctas_per_sm / q->cluster_size;
    out->bound = true;
}

bool verify_answers_agree(const VerifyQuery *q, const VerifyAnswer *runtime,
                          const VerifyAnswer *engine)
{
    if (runtime->ok != engine->ok)
        return false;
    if (!runtime->ok)
        return true;
    if (engine->bound)
        return runtime->value <= engine->value;
    if (runtime->value != engine->value)
        return false;
    return q->kind != VQ_BLOCK_SIZE || runtime->min_grid == engine->min_grid;
}

/* ---- names ------------------------------------------------------------------ */

static const char *const calls[VQ_KINDS] = {
    "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
    "cudaOccupancyMaxPotentialBlockSize",
    "cudaOccupancyAvailableDynamicSMemPerBlock",
    "cudaOccupancyMaxActiveClusters",
};
static const char *const names[VQ_KINDS] = {"active_blocks", "block_size", "dynamic_smem",
                                            "active_clusters"};

const char *verify_query_call(VerifyQueryKind kind)
{
    return calls[kind];
}

const char *verify_query_name(VerifyQueryKind kind)
{
    return names[kind];
}

bool verify_query_kind(const char *name, VerifyQueryKind *out)
{
    for (int k = 0; k < VQ_KINDS; k++)
        if (strcmp(names[k], name) == 0) {
            *out = (VerifyQueryKind)k;
            return true;
        }
    return false;
}
