/*
 * calc_text.c: `silk-occ calc` for people: the target and kernel, the table
 * of limiters, a sentence on what limits occupancy, the next step, and the
 * launch's waves; or the sweep table, with runs of equal results folded.
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

static void print_header(const CalcModel *m, FILE *out, Style s)
{
    const Target *t = &m->target;
    const ArchLimits *a = t->arch;
    fprintf(out, "%s%s%s (%s, compute capability %d.%d)", s.bold, t->sm_name, s.reset, a->family,
            a->major, a->minor);
    if (t->gpu)
        fprintf(out, ", %s", t->gpu->name);
    if (t->sm_count)
        fprintf(out, ", %d SMs", t->sm_count);
    fputc('\n', out);
}

static void print_kernel(const CalcModel *m, FILE *out)
{
    char st[32], dy[32];
    const KernelResources *k = &m->kernel;
    fprintf(out, "kernel: %d threads per CTA (%d warps), %d registers per thread, "
                 "%s static + %s dynamic shared memory, %d barrier%s",
            m->threads, m->result.warps_per_block, k->regs_per_thread,
            format_bytes(k->static_smem, st, sizeof st), format_bytes(m->dynamic_smem, dy, sizeof dy),
            k->barriers, k->barriers == 1 ? "" : "s");
    if (k->carveout != OCC_CARVEOUT_DEFAULT)
        fprintf(out, ", carveout %d%%", k->carveout);
    if (!k->smem_optin)
        fputs(", no shared-memory opt-in", out);
    fputs("\n\n", out);
}

static void print_limits(const OccResult *r, FILE *out, Style s)
{
    fprintf(out, "  %-20s %8s\n", "limiter", "CTAs/SM");
    for (int i = 0; i < OCC_N_LIMITERS; i++) {
        bool binding = r->limited_by & (1u << i);
        char count[16];
        if (r->limit[i] == INT_MAX)
            strcpy(count, "-");
        else
            snprintf(count, sizeof count, "%d", r->limit[i]);
        fprintf(out, "  %s%-20s %8s%s%s\n", binding ? s.bold : "", occ_limiter_what((OccLimiter)i),
                count, binding ? "  <- limits" : "", binding ? s.reset : "");
    }
}

static void print_totals(const CalcModel *m, FILE *out, Style s)
{
    const OccResult *r = &m->result;
    char smem[32], reserved[32];
    fprintf(out, "\n  %s%d CTA%s per SM, %d of %d warps: %.1f%% theoretical occupancy%s\n", s.bold,
            r->active_blocks, r->active_blocks == 1 ? "" : "s", r->active_warps, r->max_warps, 100.0 * occ_occupancy(r), s.reset);
    fprintf(out, "  allocated per CTA: %d registers, %s shared memory", r->allocated_regs_per_block,
            format_bytes(r->allocated_smem_per_block, smem, sizeof smem));
    if (m->target.arch->reserved_smem_per_block)
        fprintf(out, " (%s reserved by the driver)",
                format_bytes((uint64_t)m->target.arch->reserved_smem_per_block, reserved,
                             sizeof reserved));
    fputs("\n\n", out);
}

/* "1 CTA fits", "4 CTAs fit". */
static const char *ctas_fit(int n, char *buf)
{
    snprintf(buf, 24, "%d CTA%s", n, n == 1 ? " fits" : "s fit");
    return buf;
}

/* One sentence on the first binding limiter, in the terms of its rule. */
static void explain_limiter(const CalcModel *m, FILE *out)
{
    const OccResult *r = &m->result;
    const ArchLimits *a = m->target.arch;
    const KernelResources *k = &m->kernel;
    char b1[32], b2[32], count[24];
    int n = r->active_blocks;
    OccLimiter l = OCC_LIMITER_WARPS;
    while (l < OCC_N_LIMITERS - 1 && !(r->limited_by & (1u << l)))
        l++;
    if (n == 0)
        fprintf(out, "The kernel cannot run on %s: its %s allow no CTA. ", m->target.sm_name,
                occ_limiter_what(l));
    switch (l) {
    case OCC_LIMITER_WARPS:
        if (m->threads > a->max_threads_per_block)
            fprintf(out, "A CTA of %d threads is above the block limit of %d.\n", m->threads,
                    a->max_threads_per_block);
        else
            fprintf(out, "Warp slots limit occupancy: a CTA of %d threads is %d warps and the SM "
                         "holds %d warps, so %s.\n",
                    m->threads, r->warps_per_block, r->max_warps, ctas_fit(n, count));
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

static double occupancy_with(const CalcModel *m, int blocks)
{
    return 100.0 * blocks * m->result.warps_per_block / m->result.max_warps;
}

static void print_next_step(const CalcModel *m, FILE *out)
{
    const OccNextStep *s = &m->next;
    const KernelResources *k = &m->kernel;
    uint64_t smem = k->static_smem + m->dynamic_smem;
    char b1[32], b2[32];
    fputs("Next step: ", out);
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
    fputs(".\n", out);
    if (m->result.active_blocks > 0)
        fprintf(out, "Slack: %d more register%s per thread, %s more shared memory per CTA, "
                     "before losing a CTA.\n",
                s->regs_slack, s->regs_slack == 1 ? "" : "s",
                format_bytes((uint64_t)s->smem_slack, b1, sizeof b1));
}

static void print_best(const CalcModel *m, FILE *out)
{
    const OccBlockSizeChoice *b = &m->best;
    if (b->block_size == 0)
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

static void print_waves(const CalcModel *m, FILE *out)
{
    const OccWaves *w = &m->waves;
    if (m->have_work && !m->have_waves) {
        if (m->result.active_blocks == 0)
            fprintf(out, "\nWork of %llu items: no CTA can be resident, so the launch fails.\n",
                    (unsigned long long)m->work);
        else
            fprintf(out, "\nWork of %llu items: %llu CTAs. Give --gpu or --sms N for waves, the "
                         "last wave's fill and the persistent grid.\n",
                    (unsigned long long)m->work, (unsigned long long)w->ctas);
        return;
    }
    if (m->have_waves) {
        fprintf(out, "\nWork of %llu items: %llu CTAs of %d threads (the last has %llu).\n",
                (unsigned long long)m->work, (unsigned long long)w->ctas, m->threads,
                (unsigned long long)w->tail_threads);
        fprintf(out, "On %d SMs at %d CTAs each, a wave is %llu CTAs: %.2f waves, %llu full, "
                     "the last %.1f%% full; %.1f%% of CTA slots idle.\n",
                m->target.sm_count, m->result.active_blocks, (unsigned long long)w->ctas_per_wave,
                w->waves, (unsigned long long)w->full_waves, 100.0 * w->last_wave_fill,
                100.0 * w->idle_fraction);
    }
    if (m->target.sm_count && m->result.active_blocks > 0)
        fprintf(out, "%sPersistent grid: %d CTAs (%d SMs x %d).\n", m->have_waves ? "" : "\n",
                m->target.sm_count * m->result.active_blocks, m->target.sm_count,
                m->result.active_blocks);
}

/* ---- sweeps --------------------------------------------------------------- */

static void limiter_list(unsigned set, char *buf, size_t size)
{
    buf[0] = '\0';
    for (int i = 0; i < OCC_N_LIMITERS; i++)
        if (set & (1u << i)) {
            if (buf[0])
                strncat(buf, ", ", size - strlen(buf) - 1);
            strncat(buf, occ_limiter_what((OccLimiter)i), size - strlen(buf) - 1);
        }
}

static void variable_text(const CalcModel *m, const SweepRow *r, char *buf, size_t size)
{
    if (m->sweep == SWEEP_THREADS)
        snprintf(buf, size, "%d", r->threads);
    else if (m->sweep == SWEEP_REGS)
        snprintf(buf, size, "%d", r->regs);
    else
        snprintf(buf, size, "%llu", (unsigned long long)(r->static_smem + r->dynamic_smem));
}

static bool same_result(const SweepRow *a, const SweepRow *b)
{
    return a->result.active_blocks == b->result.active_blocks &&
           a->result.limited_by == b->result.limited_by;
}

static void print_sweep(const CalcModel *m, FILE *out, Style s)
{
    static const char *const headings[] = {"", "threads", "registers", "shared memory (B)"};
    fprintf(out, "%s%-22s %8s %8s %10s  %s%s\n", s.bold, headings[m->sweep], "CTAs/SM", "warps",
            "occupancy", "limited by", s.reset);
    /* Threads are few; registers and shared memory fold runs of equal results. */
    bool fold = m->sweep != SWEEP_THREADS;
    for (size_t i = 0; i < m->n_rows;) {
        size_t j = i;
        while (fold && j + 1 < m->n_rows && same_result(&m->rows[j + 1], &m->rows[i]))
            j++;
        char first[24], last[24], range[56], limiters[128];
        variable_text(m, &m->rows[i], first, sizeof first);
        variable_text(m, &m->rows[j], last, sizeof last);
        if (i == j)
            snprintf(range, sizeof range, "%s", first);
        else
            snprintf(range, sizeof range, "%s-%s", first, last);
        const OccResult *r = &m->rows[i].result;
        limiter_list(r->limited_by, limiters, sizeof limiters);
        fprintf(out, "%-22s %8d %8d %9.1f%%  %s\n", range, r->active_blocks, r->active_warps,
                100.0 * occ_occupancy(r), limiters);
        i = j + 1;
    }
}

int calc_write_text(const CalcModel *m, FILE *out)
{
    Style s = style_for(out);
    print_header(m, out, s);
    print_kernel(m, out);
    if (m->sweep != SWEEP_NONE) {
        print_sweep(m, out, s);
        return EXIT_OK;
    }
    print_limits(&m->result, out, s);
    print_totals(m, out, s);
    explain_limiter(m, out);
    print_next_step(m, out);
    print_best(m, out);
    print_waves(m, out);
    return EXIT_OK;
}
