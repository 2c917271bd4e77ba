/*
 * public.c: the installed C API (include/silk-occ/silk-occ.h, silk-occ(3))
 * as a thin layer over the engine.
 *
 * Nothing here computes an occupancy: each call translates the public
 * kernel description into the vendor engine's (KernelResources, AmdKernel)
 * and runs that engine.  AMD answers come through the one vendor-neutral
 * face, OccFigures, as calc's and the report's do.  NVIDIA answers, the
 * path a tuner calls millions of times, run the engine inlined
 * (calc_plan.h), with the registers and warps limits looked up in tables
 * the engine computes once per target, and are written field by field
 * (write_nvidia says why).  A target handle holds a copy of its table
 * rows, so the tables are parsed once per open and freed at once, and no
 * handle depends on another or on any global state.
 */
#include "silk-occ/silk-occ.h"

#include "amd.h"
#include "calc_plan.h"

#include <config.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct silk_occ_target {
    OccVendor vendor;
    OccArchTables tables; /* NVIDIA: limits by registers and warps (calc_plan.h) */
    double warp_scale;    /* NVIDIA: 1 / warp slots when that is a power of two, else 0 */
    ArchLimits arch;   /* NVIDIA */
    GpuProduct gpu;    /* NVIDIA, when has_product */
    AmdTarget amd;     /* AMD */
    AmdProduct amd_gpu; /* AMD, when has_product */
    int has_product;
    int units;
    char arch_name[OCC_NAME_MAX];
};

struct silk_occ_plan {
    const silk_occ_target *target;
    silk_occ_kernel kernel;
    KernelResources resources; /* NVIDIA: what plan.kernel points at */
    OccPlan plan;              /* NVIDIA, planned for dyn_smem */
    uint64_t dyn_smem;
};

/* The fields of API version 1: a caller's struct must reach this far. */
#define V1_KERNEL_SIZE (offsetof(silk_occ_kernel, lds) + sizeof(uint64_t))
#define V1_RESULT_SIZE (offsetof(silk_occ_result, clusters) + sizeof(int))
#define V1_NEXT_SIZE (offsetof(silk_occ_step, sgprs_gained) + sizeof(int))

const char *silk_occ_version(void) { return PACKAGE_VERSION; }

int silk_occ_api_version(void) { return SILK_OCC_API_VERSION; }

const char *silk_occ_status_string(silk_occ_status status)
{
    switch (status) {
    case SILK_OCC_OK: return "ok";
    case SILK_OCC_ERR_UNKNOWN_TARGET: return "unknown target";
    case SILK_OCC_ERR_INVALID: return "invalid argument";
    case SILK_OCC_ERR_NO_MEMORY: return "out of memory";
    case SILK_OCC_ERR_UNSUPPORTED: return "the target's table row cannot be used for this";
    }
    return "unknown status";
}

/* ---- targets ------------------------------------------------------------- */

static void suggest(const ArchTable *table, const char *name, char *buf, size_t size)
{
    if (!buf || size == 0)
        return;
    buf[0] = '\0';
    if (!arch_table_suggest(table, name, OCC_SUGGEST_ARCHS | OCC_SUGGEST_PRODUCTS, buf, size))
        buf[0] = '\0';
}

/* An NVIDIA architecture, then product; false when neither has the name. */
static bool find_nvidia(const ArchTable *table, const char *name, silk_occ_target *t)
{
    const ArchLimits *arch = arch_table_find(table, name);
    const GpuProduct *gpu = NULL;
    if (!arch && (gpu = arch_table_find_product(table, name)) != NULL)
        arch = arch_table_product_arch(table, gpu);
    if (!arch)
        return false;
    t->vendor = OCC_NVIDIA;
    t->arch = *arch;
    if (gpu) {
        t->gpu = *gpu;
        t->has_product = 1;
        t->units = gpu->sm_count;
    }
    arch_sm_name(arch, t->arch_name, sizeof t->arch_name);
    /* Without tables (a row too odd to tabulate) every call takes the
     * generic path; the answers are the same. */
    occ_arch_tables_build(&t->arch, &t->tables);
    int slots = arch_max_warps_per_sm(&t->arch);
    if (slots > 0 && (slots & (slots - 1)) == 0)
        t->warp_scale = 1.0 / slots;
    return true;
}

static bool find_amd(const AmdTable *table, const char *name, silk_occ_target *t)
{
    const AmdTarget *amd = amd_table_find(table, name);
    const AmdProduct *gpu = NULL;
    if (!amd && (gpu = amd_table_find_product(table, name)) != NULL)
        amd = amd_table_product_target(table, gpu);
    if (!amd)
        return false;
    t->vendor = OCC_AMD;
    t->amd = *amd;
    if (gpu) {
        t->amd_gpu = *gpu;
        t->has_product = 1;
        t->units = amd_product_units(amd, gpu);
    }
    snprintf(t->arch_name, sizeof t->arch_name, "%s", amd->gfx);
    return true;
}

silk_occ_status silk_occ_target_open(const char *name, silk_occ_target **out, char *suggestion,
                                     size_t size)
{
    if (suggestion && size > 0)
        suggestion[0] = '\0';
    if (!name || !out)
        return SILK_OCC_ERR_INVALID;
    *out = NULL;
    silk_occ_target *t = calloc(1, sizeof *t);
    ArchTable nvidia;
    AmdTable amd;
    OccError err;
    if (!t)
        return SILK_OCC_ERR_NO_MEMORY;
    if (arch_table_load_builtin(&nvidia, &err) != 0) {
        free(t);
        return SILK_OCC_ERR_NO_MEMORY; /* the built-in tables parse: only memory fails */
    }
    if (amd_table_load_builtin(&amd, &err) != 0) {
        arch_table_free(&nvidia);
        free(t);
        return SILK_OCC_ERR_NO_MEMORY;
    }
    bool found = find_nvidia(&nvidia, name, t) || find_amd(&amd, name, t);
    if (!found)
        suggest(&nvidia, name, suggestion, size);
    arch_table_free(&nvidia);
    amd_table_free(&amd);
    if (!found) {
        free(t);
        return SILK_OCC_ERR_UNKNOWN_TARGET;
    }
    *out = t;
    return SILK_OCC_OK;
}

void silk_occ_target_close(silk_occ_target *target)
{
    if (!target)
        return;
    occ_arch_tables_free(&target->tables);
    free(target);
}

silk_occ_vendor silk_occ_target_vendor(const silk_occ_target *t)
{
    return t && t->vendor == OCC_AMD ? SILK_OCC_AMD : SILK_OCC_NVIDIA;
}

const char *silk_occ_target_arch(const silk_occ_target *t) { return t ? t->arch_name : ""; }

const char *silk_occ_target_product(const silk_occ_target *t)
{
    if (!t || !t->has_product)
        return "";
    return t->vendor == OCC_AMD ? t->amd_gpu.id : t->gpu.id;
}

int silk_occ_target_units(const silk_occ_target *t) { return t ? t->units : 0; }

int silk_occ_target_warp_size(const silk_occ_target *t)
{
    if (!t)
        return 0;
    return t->vendor == OCC_AMD ? t->amd.wave_size : t->arch.warp_size;
}

int silk_occ_target_max_threads(const silk_occ_target *t)
{
    if (!t)
        return 0;
    return t->vendor == OCC_AMD ? t->amd.max_workgroup_size : t->arch.max_threads_per_block;
}

const char *silk_occ_limiter_name(const silk_occ_target *t, int i)
{
    if (!t || i < 0)
        return NULL;
    int n = t->vendor == OCC_AMD ? AMD_N_LIMITERS : OCC_N_LIMITERS;
    return i < n ? occ_vendor_limiter_name(t->vendor, i) : NULL;
}

/* ---- kernels ------------------------------------------------------------- */

void silk_occ_kernel_init(silk_occ_kernel *k)
{
    if (!k)
        return;
    *k = (silk_occ_kernel){.size = sizeof *k, .regs = 32, .barriers = 1, .smem_optin = 1,
                           .carveout = OCC_CARVEOUT_DEFAULT, .vgprs = 32, .sgprs = 32};
}

/* A cluster is three dimensions of 1..1024, or none (all 0). */
static bool cluster_is_valid(const int *c)
{
    if (c[0] == 0 && c[1] == 0 && c[2] == 0)
        return true;
    for (int i = 0; i < 3; i++)
        if (c[i] < 1 || c[i] > 1024)
            return false;
    return true;
}

/* Every call checks its kernel, so the common case is one branch: the
 * sign bits of the counts together, then the two small ranges. */
static inline bool kernel_is_valid(const silk_occ_kernel *k)
{
    if (!k || k->size < V1_KERNEL_SIZE)
        return false;
    if ((k->regs | k->barriers | k->vgprs | k->agprs | k->sgprs) < 0 ||
        (unsigned)k->smem_optin > 1 || k->carveout < OCC_CARVEOUT_DEFAULT || k->carveout > 100)
        return false;
    return (k->cluster[0] | k->cluster[1] | k->cluster[2]) == 0 || cluster_is_valid(k->cluster);
}

/* The engine's description of an NVIDIA kernel: occ_kernel_defaults's,
 * with the caller's fields over them (written in place: the per-call path
 * should not copy a struct it has just built). */
static inline void nvidia_kernel(const ArchLimits *a, const silk_occ_kernel *k, KernelResources *r)
{
    plan_kernel_defaults(a, k->regs, k->static_smem, k->smem_optin != 0, r);
    r->barriers = k->barriers;
    r->carveout = k->carveout;
}

static AmdKernel amd_kernel(const silk_occ_kernel *k, int threads, uint64_t dyn_smem)
{
    return (AmdKernel){.vgprs = k->vgprs, .agprs = k->agprs, .sgprs = k->sgprs,
                       .lds = k->lds + dyn_smem, .flat_workgroup_max = threads};
}

/* ---- results ------------------------------------------------------------- */

static int cluster_size(const silk_occ_kernel *k)
{
    return k->cluster[0] == 0 ? 0 : k->cluster[0] * k->cluster[1] * k->cluster[2];
}

/* Resident clusters on the product: none above the architecture's largest
 * cluster, unknown without a product. */
static int clusters(const silk_occ_target *t, const silk_occ_kernel *k, int groups)
{
    int size = cluster_size(k);
    if (size == 0)
        return 0;
    if (t->vendor == OCC_AMD || size > occ_cluster_limit(&t->arch, true))
        return 0;
    if (!t->has_product)
        return -1;
    return occ_cluster_resident(t->units, t->gpu.gpcs, groups, size);
}

static inline void write_result(const silk_occ_target *t, const silk_occ_kernel *k,
                                const OccFigures *f, silk_occ_result *out)
{
    out->groups = f->groups;
    out->active = f->active;
    out->max_active = f->max_active;
    out->occupancy = occ_figures_occupancy(f);
    out->n_limiters = f->n_limiters;
    for (int i = 0; i < SILK_OCC_MAX_LIMITERS; i++)
        out->limit[i] = i < f->n_limiters ? f->limit[i] : INT_MAX;
    out->limited_by = f->limited_by;
    out->clusters = k->cluster[0] ? clusters(t, k, f->groups) : 0;
}

/* Nothing resident because of limiter `which` (AMD: a workgroup too large,
 * or more LDS than a workgroup may have), as the report shows it. */
static OccFigures amd_nothing(const AmdTarget *a, AmdLimiter which)
{
    OccFigures f = {.vendor = OCC_AMD, .max_active = a->max_waves_per_simd,
                    .n_limiters = AMD_N_LIMITERS, .limited_by = 1u << which};
    for (int i = 0; i < AMD_N_LIMITERS; i++)
        f.limit[i] = i == (int)which ? 0 : INT_MAX;
    return f;
}

static silk_occ_status amd_figures(const silk_occ_target *t, const silk_occ_kernel *k,
                                   int threads, uint64_t dyn_smem, OccFigures *f)
{
    if (threads > t->amd.max_workgroup_size) {
        *f = amd_nothing(&t->amd, AMD_LIMITER_WORKGROUPS);
        return SILK_OCC_OK;
    }
    AmdKernel ak = amd_kernel(k, threads, dyn_smem);
    AmdResult r;
    OccStatus status = amd_occupancy_calc(&t->amd, &ak, threads, &r);
    if (status == OCC_ERR_DOES_NOT_FIT)
        *f = amd_nothing(&t->amd, AMD_LIMITER_LDS);
    else if (status != OCC_OK)
        return SILK_OCC_ERR_INVALID; /* registers above the addressable ones */
    else
        *f = occ_figures_amd(&r);
    return SILK_OCC_OK;
}

static inline bool call_is_valid(const silk_occ_target *t, const silk_occ_kernel *k, int threads,
                                 const silk_occ_result *out)
{
    return t && kernel_is_valid(k) && threads > 0 && out && out->size >= V1_RESULT_SIZE;
}

/* Active warps over the warp slots, as occ_occupancy divides them; by a
 * multiplication where the slots are a power of two, which is exact. */
static inline double nvidia_occupancy(const silk_occ_target *t, int active, int slots)
{
    if (t->warp_scale != 0)
        return active * t->warp_scale;
    return slots ? (double)active / slots : 0.0;
}

/* The NVIDIA answer from the engine's result: the fields occ_figures_nvidia
 * reads, copied one by one.  The limits go by a rolled loop: unrolled, the
 * compiler turns the copy into wide loads of what the engine has just
 * stored narrow, each of which waits for the stores to drain, and that
 * cost more than the calculation itself. */
static void write_nvidia(const silk_occ_target *t, const silk_occ_kernel *k, const OccResult *r,
                         silk_occ_result *out)
{
    out->groups = r->active_blocks;
    out->active = r->active_warps;
    out->max_active = r->max_warps;
    out->occupancy = nvidia_occupancy(t, r->active_warps, r->max_warps);
    out->n_limiters = OCC_N_LIMITERS;
#pragma GCC unroll 1
    for (int i = 0; i < SILK_OCC_MAX_LIMITERS; i++)
        out->limit[i] = i < OCC_N_LIMITERS ? r->limit[i] : INT_MAX;
    out->limited_by = r->limited_by;
    out->clusters = k->cluster[0] ? clusters(t, k, r->active_blocks) : 0;
}

/* The answer from the target's tables (tables_apply holds) and a plan of
 * the kernel's shared memory, barriers and virtual resources: evaluate()'s
 * limits, looked up rather than divided, bound the same way. */
OCC_ALWAYS_INLINE void nvidia_tabled(const silk_occ_target *t, const silk_occ_kernel *k,
                                     const OccPlan *p, int threads, silk_occ_result *out)
{
    int warps = div_round_up(threads, t->arch.warp_size);
    int limit[SILK_OCC_MAX_LIMITERS];
    limit[OCC_LIMITER_REGISTERS] = tables_registers(&t->tables, k->regs, warps);
    limit[OCC_LIMITER_WARPS] = tables_warps(&t->tables, warps);
    limit[OCC_LIMITER_SHARED_MEMORY] = p->smem_blocks;
    limit[OCC_LIMITER_BLOCKS] = t->arch.max_blocks_per_sm;
    limit[OCC_LIMITER_BARRIERS] = p->barrier_blocks;
    limit[OCC_LIMITER_VIRTUAL_RESOURCES] = p->virtual_blocks;
    for (int i = OCC_N_LIMITERS; i < SILK_OCC_MAX_LIMITERS; i++)
        limit[i] = INT_MAX;
    unsigned limited_by;
    int active = bind_limits(limit, &limited_by);
    int slots = t->tables.max_warps;
    out->groups = active;
    out->active = active * warps;
    out->max_active = slots;
    out->occupancy = nvidia_occupancy(t, active * warps, slots);
    out->n_limiters = OCC_N_LIMITERS;
    for (int i = 0; i < SILK_OCC_MAX_LIMITERS; i++)
        out->limit[i] = limit[i];
    out->limited_by = limited_by;
    out->clusters = k->cluster[0] ? clusters(t, k, active) : 0;
}

/* occ_active_blocks for one size, by the tables where they apply. */
static silk_occ_status nvidia_active(const silk_occ_target *t, const silk_occ_kernel *k,
                                     int threads, uint64_t dyn_smem, silk_occ_result *out)
{
    KernelResources r;
    nvidia_kernel(&t->arch, k, &r);
    OccPlan plan = {.arch = &t->arch, .kernel = &r};
    if (tables_apply(&t->tables, k->regs, threads)) {
        if (plan_shared_memory(&plan, dyn_smem) != OCC_OK)
            return SILK_OCC_ERR_UNSUPPORTED;
        plan.barrier_blocks = barriers_limit(&t->arch, &r);
        plan.virtual_blocks = virtual_resources_limit(&t->arch, &r);
        nvidia_tabled(t, k, &plan, threads, out);
        return SILK_OCC_OK;
    }
    OccResult res;
    if (plan_kernel(&t->arch, &r, dyn_smem, &plan) != OCC_OK)
        return SILK_OCC_ERR_UNSUPPORTED;
    evaluate(&plan, threads, &res);
    write_nvidia(t, k, &res, out);
    return SILK_OCC_OK;
}

silk_occ_status silk_occ_active(const silk_occ_target *t, const silk_occ_kernel *k, int threads,
                                uint64_t dyn_smem, silk_occ_result *out)
{
    if (!call_is_valid(t, k, threads, out))
        return SILK_OCC_ERR_INVALID;
    if (t->vendor == OCC_NVIDIA)
        return nvidia_active(t, k, threads, dyn_smem, out);
    OccFigures f;
    silk_occ_status status = amd_figures(t, k, threads, dyn_smem, &f);
    if (status == SILK_OCC_OK)
        write_result(t, k, &f, out);
    return status;
}

/* ---- plans ----------------------------------------------------------------- */

silk_occ_status silk_occ_plan_new(const silk_occ_target *t, const silk_occ_kernel *k,
                                  silk_occ_plan **out)
{
    if (!out)
        return SILK_OCC_ERR_INVALID;
    *out = NULL;
    if (!t || !kernel_is_valid(k))
        return SILK_OCC_ERR_INVALID;
    silk_occ_plan *p = calloc(1, sizeof *p);
    if (!p)
        return SILK_OCC_ERR_NO_MEMORY;
    p->target = t;
    p->kernel = *k;
    p->kernel.size = sizeof p->kernel;
    if (t->vendor == OCC_NVIDIA) {
        nvidia_kernel(&t->arch, k, &p->resources);
        if (plan_kernel(&t->arch, &p->resources, 0, &p->plan) != OCC_OK) {
            free(p);
            return SILK_OCC_ERR_UNSUPPORTED;
        }
    }
    *out = p;
    return SILK_OCC_OK;
}

/* The plan for another dynamic size is a copy re-planned in its shared
 * memory only, so that a plan stays const and callable from many threads. */
/* The plan for another dynamic size is a copy re-planned in its shared
 * memory only, so that a plan stays const and callable from many threads. */
static silk_occ_status plan_nvidia(const silk_occ_plan *p, int threads, uint64_t dyn_smem,
                                   silk_occ_result *out)
{
    const OccPlan *plan = &p->plan;
    OccPlan other;
    if (dyn_smem != p->dyn_smem) {
        other = p->plan;
        if (plan_shared_memory(&other, dyn_smem) != OCC_OK)
            return SILK_OCC_ERR_UNSUPPORTED;
        plan = &other;
    }
    if (tables_apply(&p->target->tables, p->kernel.regs, threads)) {
        nvidia_tabled(p->target, &p->kernel, plan, threads, out);
        return SILK_OCC_OK;
    }
    OccResult r;
    evaluate(plan, threads, &r);
    write_nvidia(p->target, &p->kernel, &r, out);
    return SILK_OCC_OK;
}

silk_occ_status silk_occ_plan_eval(const silk_occ_plan *p, int threads, uint64_t dyn_smem,
                                   silk_occ_result *out)
{
    /* The kernel was checked when the plan was made. */
    if (!p || threads <= 0 || !out || out->size < V1_RESULT_SIZE)
        return SILK_OCC_ERR_INVALID;
    if (p->target->vendor == OCC_NVIDIA)
        return plan_nvidia(p, threads, dyn_smem, out);
    OccFigures f;
    silk_occ_status status = amd_figures(p->target, &p->kernel, threads, dyn_smem, &f);
    if (status == SILK_OCC_OK)
        write_result(p->target, &p->kernel, &f, out);
    return status;
}

void silk_occ_plan_free(silk_occ_plan *plan) { free(plan); }

/* ---- advice -------------------------------------------------------------- */

static void next_step_nvidia(const OccNextStep *s, silk_occ_step *out)
{
    out->regs_to_cut = s->regs_to_cut;
    out->regs_gained = s->regs_gained_blocks;
    out->regs_slack = s->regs_slack;
    out->smem_to_cut = s->smem_to_cut;
    out->smem_gained = s->smem_gained_blocks;
    out->smem_slack = s->smem_slack;
    out->sgprs_to_cut = -1;
    out->sgprs_gained = -1;
}

static silk_occ_status next_step_amd(const silk_occ_target *t, const silk_occ_kernel *k,
                                     int threads, uint64_t dyn_smem, silk_occ_step *out)
{
    AmdKernel ak = amd_kernel(k, threads, dyn_smem);
    AmdNextStep s;
    if (threads > t->amd.max_workgroup_size || amd_next_step(&t->amd, &ak, threads, &s) != OCC_OK)
        return SILK_OCC_ERR_INVALID;
    out->regs_to_cut = s.vgprs_to_cut;
    out->regs_gained = s.vgprs_gained_waves;
    out->regs_slack = s.vgprs_slack;
    out->smem_to_cut = s.lds_to_cut;
    out->smem_gained = s.lds_gained_waves;
    out->smem_slack = s.lds_slack;
    out->sgprs_to_cut = s.sgprs_to_cut;
    out->sgprs_gained = s.sgprs_gained_waves;
    return SILK_OCC_OK;
}

silk_occ_status silk_occ_next_step(const silk_occ_target *t, const silk_occ_kernel *k,
                                   int threads, uint64_t dyn_smem, silk_occ_step *out)
{
    if (!t || !kernel_is_valid(k) || threads <= 0 || !out || out->size < V1_NEXT_SIZE)
        return SILK_OCC_ERR_INVALID;
    if (t->vendor == OCC_AMD)
        return next_step_amd(t, k, threads, dyn_smem, out);
    KernelResources r;
    nvidia_kernel(&t->arch, k, &r);
    OccNextStep s;
    if (occ_next_step(&t->arch, &r, threads, dyn_smem, &s) != OCC_OK)
        return SILK_OCC_ERR_UNSUPPORTED;
    next_step_nvidia(&s, out);
    return SILK_OCC_OK;
}

/* AMD has no search of its own: the advice policy (policy.c) over every
 * whole-wave workgroup size, each compiled for its size as calc assumes. */
static silk_occ_status best_amd(const silk_occ_target *t, const silk_occ_kernel *k,
                                uint64_t dyn_smem, uint64_t work, int *threads, int *groups)
{
    enum { MAX_SIZES = 64 };
    OccCandidate c[MAX_SIZES];
    size_t n = 0;
    int wave = t->amd.wave_size;
    for (int size = wave; wave > 0 && size <= t->amd.max_workgroup_size && n < MAX_SIZES;
         size += wave) {
        OccFigures f;
        if (amd_figures(t, k, size, dyn_smem, &f) != SILK_OCC_OK)
            return SILK_OCC_ERR_INVALID;
        OccWaves w;
        bool tail = work && occ_waves(work, size, f.groups, t->units, &w);
        c[n++] = (OccCandidate){.threads = size, .active_blocks = f.groups,
                                .active_warps = f.resident,
                                .idle_fraction = tail ? w.idle_fraction : 0};
    }
    int i = occ_advise_block_size(c, n);
    *threads = i < 0 ? 0 : c[i].threads;
    *groups = i < 0 ? 0 : c[i].active_blocks;
    return SILK_OCC_OK;
}

silk_occ_status silk_occ_best_block_size(const silk_occ_target *t, const silk_occ_kernel *k,
                                         uint64_t dyn_smem, uint64_t work, int *threads,
                                         int *groups)
{
    if (!t || !kernel_is_valid(k) || !threads || !groups)
        return SILK_OCC_ERR_INVALID;
    if (t->vendor == OCC_AMD)
        return best_amd(t, k, dyn_smem, work, threads, groups);
    KernelResources r;
    nvidia_kernel(&t->arch, k, &r);
    OccBlockSizeChoice choice;
    if (occ_advise_block_size_all(&t->arch, &r, dyn_smem, work, t->units, &choice) != OCC_OK)
        return SILK_OCC_ERR_UNSUPPORTED;
    *threads = choice.block_size;
    *groups = choice.blocks_per_sm;
    return SILK_OCC_OK;
}
