/*
 * calc_text.c: `silk-occ calc` for people, on a target of either vendor:
 * the target and kernel, the table of limiters, the groups resident and
 * the occupancy, a sentence on what limits it, the next step, and the
 * launch's waves; or the sweep table, with runs of equal results folded.
 * Every section reads the one shape (OccFigures) in the vendor's words
 * (Terms): CTAs per SM and warps, or workgroups per CU (WGP) and waves
 * per SIMD.  Only the kernel's resources, the reason and the next step
 * are the vendor's own, as its engine answers them.
 */
#include "calc_model.h"

#include "colour.h"

#include <limits.h>
#include <string.h>

typedef struct Style {
    const char *bold, *dim, *reset;
} Style;

static Style style_for(FILE *out)
{
    if (colour_wanted(out))
        return (Style){"\033[1m", "\033[2m", "\033[0m"};
    return (Style){"", "", ""};
}

/* The words of a target's vendor. */
typedef struct Terms {
    const char *group, *groups; /* "CTA", "CTAs"; "workgroup", "workgroups" */
    const char *unit, *units;   /* "SM", "SMs"; "CU", "CUs" (or "WGP", "WGPs") */
    const char *items;          /* what a group is made of: "threads", "work-items" */
    const char *warp, *warps;   /* "warp", "warps"; "wave", "waves" */
    const char *active;         /* what OccFigures.active counts: "warps", "waves per SIMD" */
    const char *per_unit;       /* the heading of groups per unit: "CTAs/SM", "WGs/CU" */
    const char *limit_unit;     /* the heading of the limits: "CTAs/SM", "waves/SIMD" */
    const char *active_heading; /* "warps", "waves/SIMD" */
    const char *sms_hint;       /* how to give the unit count */
} Terms;

static Terms terms_for(const Target *t)
{
    if (t->vendor != OCC_AMD)
        return (Terms){"CTA", "CTAs", "SM", "SMs", "threads", "warp", "warps", "warps",
                       "CTAs/SM", "CTAs/SM", "warps", "--gpu or --sms N"};
    bool wgp = strcmp(t->amd->occupancy_unit, "WGP") == 0;
    return (Terms){"workgroup", "workgroups", wgp ? "WGP" : "CU", wgp ? "WGPs" : "CUs",
                   "work-items", "wave", "waves", "waves per SIMD", wgp ? "WGs/WGP" : "WGs/CU",
                   "waves/SIMD", "waves/SIMD", "--gpu"};
}

/* "1 CTA", "4 CTAs". */
static const char *count_of(int n, const char *one, const char *many, char *buf, size_t size)
{
    snprintf(buf, size, "%d %s", n, n == 1 ? one : many);
    return buf;
}

static void print_header(const CalcModel *m, FILE *out, Style s, const Terms *w)
{
    const Target *t = &m->target;
    fprintf(out, "%s%s%s (", s.bold, t->sm_name, s.reset);
    if (t->vendor == OCC_AMD)
        fprintf(out, "%s, wave%d)", t->amd->family, t->amd->wave_size);
    else
        fprintf(out, "%s, compute capability %d.%d)", t->arch->family, t->arch->major,
                t->arch->minor);
    if (t->gpu || t->amd_gpu)
        fprintf(out, ", %s", t->gpu ? t->gpu->name : t->amd_gpu->name);
    if (t->sm_count)
        fprintf(out, ", %d %s", t->sm_count, w->units);
    if (t->amd_gpu && t->amd->cus_per_unit > 1)
        fprintf(out, " (%d CUs)", t->amd_gpu->compute_units);
    fputc('\n', out);
}

/* The kernel's resources, as its vendor counts them. */
static void print_resources(const CalcModel *m, FILE *out)
{
    char st[32], dy[32];
    if (m->target.vendor == OCC_AMD) {
        const AmdKernel *k = &m->amd_kernel;
        fprintf(out, "%d VGPRs", k->vgprs);
        if (m->target.amd->agpr_file != AMD_AGPR_NONE)
            fprintf(out, " + %d AGPRs", k->agprs);
        fprintf(out, ", %d SGPRs, %s LDS", k->sgprs, format_bytes(k->lds, st, sizeof st));
        return;
    }
    const KernelResources *k = &m->kernel;
    fprintf(out, "%d registers per thread, %s static + %s dynamic shared memory, %d barrier%s",
            k->regs_per_thread, format_bytes(k->static_smem, st, sizeof st),
            format_bytes(m->row.dynamic_smem, dy, sizeof dy), k->barriers, k->barriers == 1 ? "" : "s");
    if (k->carveout != OCC_CARVEOUT_DEFAULT)
        fprintf(out, ", carveout %d%%", k->carveout);
    if (!k->smem_optin)
        fputs(", no shared-memory opt-in", out);
}

static void print_kernel(const CalcModel *m, FILE *out, const Terms *w)
{
    char warps[32];
    fprintf(out, "kernel: %d %s per %s (%s), ", m->row.threads, w->items, w->group,
            count_of(m->row.warps, w->warp, w->warps, warps, sizeof warps));
    print_resources(m, out);
    fputs("\n\n", out);
}

/* A limiter's name in the table: its description up to any parenthesis
 * (AMD's workgroup slots explain themselves in the sentence below). */
static int label_length(const OccFigures *f, int i)
{
    const char *what = occ_vendor_limiter_what(f->vendor, i);
    const char *paren = strstr(what, " (");
    return paren ? (int)(paren - what) : (int)strlen(what);
}

/* What each limiter allows, in columns as wide as their longest entry. */
static void print_limits(const OccFigures *f, FILE *out, Style s, const Terms *w)
{
    int width = 20, count = (int)strlen(w->limit_unit) > 8 ? (int)strlen(w->limit_unit) : 8;
    for (int i = 0; i < f->n_limiters; i++)
        width = label_length(f, i) > width ? label_length(f, i) : width;
    fprintf(out, "  %-*s %*s\n", width, "limiter", count, w->limit_unit);
    for (int i = 0; i < f->n_limiters; i++) {
        bool binding = f->limited_by & (1u << i);
        char cell[16];
        if (f->limit[i] == INT_MAX)
            strcpy(cell, "-");
        else
            snprintf(cell, sizeof cell, "%d", f->limit[i]);
        fprintf(out, "  %s%-*.*s %*s%s%s\n", binding ? s.bold : "", width, label_length(f, i),
                occ_vendor_limiter_what(f->vendor, i), count, cell, binding ? "  <- limits" : "",
                binding ? s.reset : "");
    }
}

/* What one group (NVIDIA: CTA; AMD: wave) is allocated. */
static void print_allocated(const CalcModel *m, FILE *out)
{
    char smem[32], reserved[32];
    if (m->target.vendor == OCC_AMD) {
        const AmdTarget *a = m->target.amd;
        fprintf(out, "  allocated per wave: %d %s per lane (in units of %d)\n",
                m->row.amd.allocated_vgprs, a->agpr_file == AMD_AGPR_NONE ? "VGPRs" : "VGPRs and AGPRs",
                a->vgpr_alloc_granule);
        return;
    }
    const OccResult *r = &m->row.nvidia;
    const ArchLimits *a = m->target.arch;
    fprintf(out, "  allocated per CTA: %d registers, %s shared memory", r->allocated_regs_per_block,
            format_bytes(r->allocated_smem_per_block, smem, sizeof smem));
    if (a->reserved_smem_per_block)
        fprintf(out, " (%s reserved by the driver)",
                format_bytes((uint64_t)a->reserved_smem_per_block, reserved, sizeof reserved));
    fputc('\n', out);
}

static void print_totals(const CalcModel *m, FILE *out, Style s, const Terms *w)
{
    const OccFigures *f = &m->row.fig;
    char groups[48];
    fprintf(out, "\n  %s%s per %s, %d of %d %s: %.1f%% theoretical occupancy%s\n", s.bold,
            count_of(f->groups, w->group, w->groups, groups, sizeof groups), w->unit, f->active,
            f->max_active, w->active, 100.0 * occ_figures_occupancy(f), s.reset);
    print_allocated(m, out);
    fputc('\n', out);
}

/* "1 CTA fits", "4 CTAs fit". */
static const char *ctas_fit(int n, char *buf)
{
    snprintf(buf, 24, "%d CTA%s", n, n == 1 ? " fits" : "s fit");
    return buf;
}

/* NVIDIA: one sentence on the first binding limiter, in the terms of its rule. */
static void explain_nvidia(const CalcModel *m, OccLimiter l, FILE *out)
{
    const OccResult *r = &m->row.nvidia;
    const ArchLimits *a = m->target.arch;
    const KernelResources *k = &m->kernel;
    char b1[32], b2[32], count[24];
    int n = r->active_blocks;
    switch (l) {
    case OCC_LIMITER_WARPS:
        if (m->row.threads > a->max_threads_per_block)
            fprintf(out, "A CTA of %d threads is above the block limit of %d.\n", m->row.threads,
                    a->max_threads_per_block);
        else
            fprintf(out, "Warp slots limit occupancy: a CTA of %d threads is %d warps and the SM "
                         "holds %d warps, so %s.\n",
                    m->row.threads, r->warps_per_block, r->max_warps, ctas_fit(n, count));
        break;
    case OCC_LIMITER_REGISTERS:
        fprintf(out, "Registers limit occupancy: a CTA is allocated %d registers (%d per thread, "
                     "in %d-register units per warp, each warp in one of %d sub-partitions of %d "
                     "registers), so %s in the SM's %d.\n",
                r->allocated_regs_per_block, k->regs_per_thread, a->reg_alloc_unit,
                a->sub_partitions, a->regs_per_sm / a->sub_partitions, ctas_fit(n, count), a->regs_per_sm);
        break;
    case OCC_LIMITER_SHARED_MEMORY:
        fprintf(out, "Shared memory limits occupancy: a CTA is allocated %s (in %d-byte units) of "
                     "a %s carveout, so %s.\n",
                format_bytes(r->allocated_smem_per_block, b1, sizeof b1), a->smem_alloc_unit,
                format_bytes(r->smem_per_sm, b2, sizeof b2), ctas_fit(n, count));
        break;
    case OCC_LIMITER_BLOCKS:
        fprintf(out, "The SM's CTA slots limit occupancy: it holds at most %d CTAs of any size; "
                     "larger CTAs would raise it.\n",
                a->max_blocks_per_sm);
        break;
    case OCC_LIMITER_BARRIERS:
        fprintf(out, "Named barriers limit occupancy: the SM has %d for its CTAs and each uses %d, "
                     "so %s.\n",
                arch_barriers_per_sm(a), k->barriers, ctas_fit(n, count));
        break;
    default:
        fprintf(out, "Virtual resources limit occupancy: the SM has %d and each CTA uses %d, so "
                     "%s.\n",
                a->virtual_resources_per_sm, k->virtual_resources, ctas_fit(n, count));
        break;
    }
}

static void limiter_list(const OccFigures *f, char *buf, size_t size)
{
    buf[0] = '\0';
    for (int i = 0; i < f->n_limiters; i++)
        if (f->limited_by & (1u << i)) {
            if (buf[0])
                strncat(buf, ", ", size - strlen(buf) - 1);
            strncat(buf, occ_vendor_limiter_what(f->vendor, i), size - strlen(buf) - 1);
        }
}

/* What limits the occupancy: NVIDIA's rule in a sentence, AMD's limiters
 * by name; first, when no group fits, that the kernel cannot run. */
static void print_reason(const CalcModel *m, FILE *out, const Terms *w)
{
    const OccFigures *f = &m->row.fig;
    int l = 0;
    while (l < f->n_limiters - 1 && !(f->limited_by & (1u << l)))
        l++;
    if (f->groups == 0)
        fprintf(out, "The kernel cannot run on %s: its %s allow no %s. ", m->target.sm_name,
                occ_vendor_limiter_what(f->vendor, l), w->group);
    if (m->target.vendor == OCC_AMD) {
        char names[256];
        limiter_list(f, names, sizeof names);
        fprintf(out, "Limited by: %s.\n", names);
    } else {
        explain_nvidia(m, (OccLimiter)l, out);
    }
}

static double occupancy_with(const CalcModel *m, int blocks)
{
    return 100.0 * blocks * m->row.warps / m->row.fig.max_active;
}

static void print_nvidia_step(const CalcModel *m, FILE *out)
{
    const OccNextStep *s = &m->next;
    const KernelResources *k = &m->kernel;
    uint64_t smem = k->static_smem + m->row.dynamic_smem;
    char b1[32], b2[32];
    if (s->regs_to_cut > 0)
        fprintf(out, "cut %d register%s per thread (to %d) for %d CTA%s per SM (%.1f%%)",
                s->regs_to_cut, s->regs_to_cut == 1 ? "" : "s", k->regs_per_thread - s->regs_to_cut,
                s->regs_gained_blocks, s->regs_gained_blocks == 1 ? "" : "s",
                occupancy_with(m, s->regs_gained_blocks));
    else
        fputs("cutting registers alone gains no CTA", out);
    if (s->smem_to_cut > 0)
        fprintf(out, "; or cut %s of shared memory per CTA (to %s) for %d CTA%s per SM (%.1f%%)",
                format_bytes((uint64_t)s->smem_to_cut, b1, sizeof b1),
                format_bytes(smem - (uint64_t)s->smem_to_cut, b2, sizeof b2), s->smem_gained_blocks,
                s->smem_gained_blocks == 1 ? "" : "s", occupancy_with(m, s->smem_gained_blocks));
    else if (smem > 0)
        fputs("; cutting shared memory alone gains no CTA", out);
}

static void print_amd_step(const CalcModel *m, FILE *out)
{
    const AmdNextStep *s = &m->amd_next;
    const AmdTarget *t = m->target.amd;
    const AmdKernel *k = &m->amd_kernel;
    const char *sep = "";
    char bytes[32];
    if (s->vgprs_to_cut > 0 && k->agprs > 0)
        fprintf(out, "cut %d of the %d VGPRs and AGPRs together (%s) for %d waves per SIMD",
                s->vgprs_to_cut, amd_combined_vgprs(t, k->vgprs, k->agprs),
                t->agpr_file == AMD_AGPR_UNIFIED ? "the AGPRs start after the VGPRs, rounded up to 4"
                                                 : "the larger of the two counts",
                s->vgprs_gained_waves);
    else if (s->vgprs_to_cut > 0)
        fprintf(out, "cut %d VGPR%s for %d waves per SIMD", s->vgprs_to_cut,
                s->vgprs_to_cut == 1 ? "" : "s", s->vgprs_gained_waves);
    if (s->vgprs_to_cut > 0)
        sep = "; or ";
    if (s->sgprs_to_cut > 0)
        fprintf(out, "%scut %d SGPR%s for %d waves per SIMD", sep, s->sgprs_to_cut,
                s->sgprs_to_cut == 1 ? "" : "s", s->sgprs_gained_waves);
    if (s->sgprs_to_cut > 0)
        sep = "; or ";
    if (s->lds_to_cut > 0)
        fprintf(out, "%scut %s of LDS for %d waves per SIMD", sep,
                format_bytes((uint64_t)s->lds_to_cut, bytes, sizeof bytes), s->lds_gained_waves);
    if (s->vgprs_to_cut <= 0 && s->sgprs_to_cut <= 0 && s->lds_to_cut <= 0)
        fputs("no single resource cut gains a wave per SIMD", out);
}

/* The slack: what may be added before a group (NVIDIA: CTA; AMD: wave)
 * is lost; nothing to lose when no group fits. */
static void print_slack(const CalcModel *m, FILE *out)
{
    char b[32];
    if (m->row.fig.groups == 0)
        return;
    if (m->target.vendor == OCC_AMD)
        fprintf(out, "Slack: %d more VGPR%s%s, %s more LDS, before losing a wave.\n",
                m->amd_next.vgprs_slack, m->amd_next.vgprs_slack == 1 ? "" : "s",
                m->amd_kernel.agprs > 0 ? " (with the AGPRs)" : "",
                format_bytes((uint64_t)m->amd_next.lds_slack, b, sizeof b));
    else
        fprintf(out, "Slack: %d more register%s per thread, %s more shared memory per CTA, "
                     "before losing a CTA.\n",
                m->next.regs_slack, m->next.regs_slack == 1 ? "" : "s",
                format_bytes((uint64_t)m->next.smem_slack, b, sizeof b));
}

static void print_next_step(const CalcModel *m, FILE *out)
{
    fputs("Next step: ", out);
    if (m->target.vendor == OCC_AMD)
        print_amd_step(m, out);
    else
        print_nvidia_step(m, out);
    fputs(".\n", out);
    print_slack(m, out);
}

static void print_best(const CalcModel *m, FILE *out)
{
    const OccBlockSizeChoice *b = &m->best;
    if (!m->have_best || b->block_size == 0)
        return;
    fprintf(out, "Best block size for this kernel: %d threads (%d CTA%s per SM, %.1f%%",
            b->block_size, b->blocks_per_sm, b->blocks_per_sm == 1 ? "" : "s",
            100.0 * b->block_size * b->blocks_per_sm / m->target.arch->max_threads_per_sm);
    if (m->target.sm_count)
        fprintf(out, "; a full GPU needs at least %d CTAs", b->min_grid);
    fputs(")", out);
    /* Beside it when they differ: the runtime's search keeps the largest
     * of equal sizes, where the guide prefers 128 or 256. */
    const OccBlockSizeChoice *r = &m->runtime_best;
    if (r->block_size != b->block_size)
        fprintf(out, "; the runtime's cudaOccupancyMaxPotentialBlockSize: %d threads (%d CTA%s "
                     "per SM)",
                r->block_size, r->blocks_per_sm, r->blocks_per_sm == 1 ? "" : "s");
    fputs(".\n", out);
}

static void print_waves(const CalcModel *m, FILE *out, const Terms *w)
{
    const OccWaves *v = &m->waves;
    int groups = m->row.fig.groups, units = m->target.sm_count;
    char each[48];
    if (m->have_work && !m->have_waves) {
        if (groups == 0)
            fprintf(out, "\nWork of %llu items: no %s can be resident, so the launch fails.\n",
                    (unsigned long long)m->work, w->group);
        else
            fprintf(out, "\nWork of %llu items: %llu %s. Give %s for waves, the last wave's fill "
                         "and the persistent grid.\n",
                    (unsigned long long)m->work, (unsigned long long)v->ctas, w->groups, w->sms_hint);
        return;
    }
    if (m->have_waves) {
        fprintf(out, "\nWork of %llu items: %llu %s of %d %s (the last has %llu).\n",
                (unsigned long long)m->work, (unsigned long long)v->ctas, w->groups,
                m->row.threads, w->items, (unsigned long long)v->tail_threads);
        fprintf(out, "On %d %s at %s each, a wave is %llu %s: %.2f waves, %llu full, "
                     "the last %.1f%% full; %.1f%% of %s slots idle.\n",
                units, w->units, count_of(groups, w->group, w->groups, each, sizeof each),
                (unsigned long long)v->ctas_per_wave, w->groups, v->waves,
                (unsigned long long)v->full_waves, 100.0 * v->last_wave_fill,
                100.0 * v->idle_fraction, w->group);
    }
    if (units && groups > 0)
        fprintf(out, "%sPersistent grid: %d %s (%d %s x %d).\n", m->have_waves ? "" : "\n",
                units * groups, w->groups, units, w->units, groups);
}

/* ---- sweeps --------------------------------------------------------------- */

static void variable_text(const CalcModel *m, const CalcRow *r, char *buf, size_t size)
{
    if (m->sweep == SWEEP_THREADS)
        snprintf(buf, size, "%d", r->threads);
    else if (m->sweep == SWEEP_REGS)
        snprintf(buf, size, "%d", r->regs);
    else
        snprintf(buf, size, "%llu", (unsigned long long)(r->static_smem + r->dynamic_smem));
}

static bool same_result(const CalcRow *a, const CalcRow *b)
{
    return a->fig.groups == b->fig.groups && a->fig.limited_by == b->fig.limited_by;
}

static void print_sweep(const CalcModel *m, FILE *out, Style s, const Terms *w)
{
    static const char *const headings[] = {"", "threads", "registers", "shared memory (B)"};
    fprintf(out, "%s%-22s %8s %8s %10s  %s%s\n", s.bold, headings[m->sweep], w->per_unit,
            w->active_heading, "occupancy", "limited by", s.reset);
    /* Threads are few; registers and shared memory fold runs of equal results. */
    bool fold = m->sweep != SWEEP_THREADS;
    for (size_t i = 0; i < m->n_rows;) {
        size_t j = i;
        while (fold && j + 1 < m->n_rows && same_result(&m->rows[j + 1], &m->rows[i]))
            j++;
        char first[24], last[24], range[56], limiters[256];
        variable_text(m, &m->rows[i], first, sizeof first);
        variable_text(m, &m->rows[j], last, sizeof last);
        if (i == j)
            snprintf(range, sizeof range, "%s", first);
        else
            snprintf(range, sizeof range, "%s-%s", first, last);
        const OccFigures *f = &m->rows[i].fig;
        limiter_list(f, limiters, sizeof limiters);
        fprintf(out, "%-22s %8d %8d %9.1f%%  %s\n", range, f->groups, f->active,
                100.0 * occ_figures_occupancy(f), limiters);
        i = j + 1;
    }
}

/* --cluster: the size against the architecture's limits, and the
 * clusters resident at once. */
static void print_cluster(const CalcModel *m, FILE *out)
{
    const CalcCluster *c = &m->cluster;
    if (c->size == 0)
        return;
    fprintf(out, "\nCluster: %d x %d x %d = %d CTAs", c->dims[0], c->dims[1], c->dims[2], c->size);
    if (c->portable_limit == 0) {
        fprintf(out, ": %s has no thread-block clusters (9.0 and newer have)\n", m->target.sm_name);
        return;
    }
    if (c->size > c->limit)
        fprintf(out, ": above the limit of %d on %s\n", c->limit, m->target.sm_name);
    else if (c->size > c->portable_limit)
        fprintf(out, ": above the portable %d, within %d with "
                     "cudaFuncAttributeNonPortableClusterSizeAllowed\n",
                c->portable_limit, c->limit);
    else
        fprintf(out, ": within the portable limit of %d\n", c->portable_limit);
    if (c->size > c->limit)
        return;
    if (c->resident >= 0)
        fprintf(out, "Resident clusters on %s: %d (an estimate from its %d GPCs: a cluster runs "
                     "in one GPC; cudaOccupancyMaxActiveClusters tells exactly)\n",
                m->target.gpu->id, c->resident, m->target.gpu->gpcs);
    else if (m->target.gpu)
        fprintf(out, "Resident clusters on %s: unknown, its GPC layout is not public (at most %d)\n",
                m->target.gpu->id, m->target.sm_count * m->row.fig.groups / c->size);
    else
        fputs("Resident clusters: give --gpu for a product's\n", out);
}

int calc_write_text(const CalcModel *m, FILE *out)
{
    Style s = style_for(out);
    Terms w = terms_for(&m->target);
    print_header(m, out, s, &w);
    print_kernel(m, out, &w);
    if (m->sweep != SWEEP_NONE) {
        print_sweep(m, out, s, &w);
        return EXIT_OK;
    }
    print_limits(&m->row.fig, out, s, &w);
    print_totals(m, out, s, &w);
    print_reason(m, out, &w);
    print_next_step(m, out);
    print_best(m, out);
    print_waves(m, out, &w);
    print_cluster(m, out);
    return EXIT_OK;
}
