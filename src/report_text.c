/*
 * report_text.c: `silk-occ report` for people.  For each kernel and target
 * the seven sections of the launch-configuration guide, numbered as there,
 * then the persistent grid, spills and the next step: aligned tables,
 * bold on a terminal (NO_COLOR turns it off).  It prints the model; the
 * numbers are computed in report_model.c.
 */
#include "report_model.h"

#include <limits.h>
#include <string.h>

typedef struct Style {
    const char *bold, *reset;
} Style;

static void print_limit(FILE *out, int limit)
{
    if (limit == INT_MAX)
        fprintf(out, " %6s", "-");
    else
        fprintf(out, " %6d", limit);
}

static void limiter_names(unsigned set, char *buf, size_t size)
{
    buf[0] = '\0';
    for (int i = 0; i < OCC_N_LIMITERS; i++)
        if (set & (1u << i)) {
            size_t used = strlen(buf);
            snprintf(buf + used, size - used, "%s%s", used ? ", " : "", occ_limiter_what((OccLimiter)i));
        }
}

static void print_header(const ReportEntry *e, FILE *out, Style s)
{
    const KernelUsage *u = &e->kernel.usage;
    const ArchLimits *a = e->target.arch;
    char st[32], dy[32];
    fprintf(out, "%s%s%s (%s) on %s%s%s (%s, compute capability %d.%d", s.bold, e->kernel.name,
            s.reset, e->kernel.file, s.bold, e->target.gpu ? e->target.gpu->name : e->target.sm_name,
            s.reset, a->family, a->major, a->minor);
    if (e->target.gpu)
        fprintf(out, ", %s, %d SMs", e->target.sm_name, e->target.sm_count);
    fprintf(out, ")\n  %d registers per thread%s, %s static + %s dynamic shared memory, "
                 "%d barrier%s, spills %d B stored / %d B loaded per thread\n",
            u->registers, u->estimated ? " (estimated: no ptxas)" : " (ptxas -v)",
            format_bytes((uint64_t)u->static_smem, st, sizeof st),
            format_bytes(e->dynamic_smem, dy, sizeof dy), e->resources.barriers,
            e->resources.barriers == 1 ? "" : "s", u->spill_stores, u->spill_loads);
    const ReportKernel *k = &e->kernel;
    if (!k->reqntid && !k->maxntid && !k->minnctapersm && !k->maxnreg)
        return;
    fputs("  launch bounds:", out);
    if (k->reqntid || k->maxntid)
        fprintf(out, " block size %s %d;", k->reqntid ? "fixed at" : "at most",
                k->reqntid ? k->reqntid : k->maxntid);
    if (k->minnctapersm)
        fprintf(out, " at least %d CTA%s per SM;", k->minnctapersm, k->minnctapersm == 1 ? "" : "s");
    if (k->maxnreg)
        fprintf(out, " at most %d registers;", k->maxnreg);
    fputc('\n', out);
}

static void print_table(const ReportEntry *e, FILE *out, Style s)
{
    fprintf(out, "\n  1. Occupancy (CTAs per SM each resource allows)\n");
    fprintf(out, "     %7s %6s %6s %6s %6s %8s %9s  %s\n", "threads", "regs", "smem", "warps",
            "slots", "CTAs/SM", "occupancy", "limited by");
    for (int i = 0; i < e->n_rows; i++) {
        const ReportRow *r = &e->rows[i];
        const char *on = i == e->selected ? s.bold : "", *off = i == e->selected ? s.reset : "";
        char names[128];
        limiter_names(r->result.limited_by, names, sizeof names);
        fprintf(out, "   %s%s %7d", on, i == e->selected ? ">" : " ", r->threads);
        print_limit(out, r->result.limit[OCC_LIMITER_REGISTERS]);
        print_limit(out, r->result.limit[OCC_LIMITER_SHARED_MEMORY]);
        print_limit(out, r->result.limit[OCC_LIMITER_WARPS]);
        print_limit(out, r->result.limit[OCC_LIMITER_BLOCKS]);
        fprintf(out, " %8d %8.1f%%  %s%s\n", r->result.active_blocks, 100.0 * occ_occupancy(&r->result),
                names, off);
    }
}

/* A reason's sentence, its placeholders filled. */
static void print_reason(const Reason *r, FILE *out)
{
    const char *t = report_reason_text(r->code);
    fputs("     - ", out);
    while (*t) {
        if (strncmp(t, "{threads}", 9) == 0)
            fprintf(out, "%d", r->threads), t += 9;
        else if (strncmp(t, "{blocks}", 8) == 0)
            fprintf(out, "%d", r->blocks), t += 8;
        else if (strncmp(t, "{value}", 7) == 0)
            fprintf(out, "%.0f", r->value), t += 7;
        else if (strncmp(t, "{percent}", 9) == 0)
            fprintf(out, "%.1f%%", 100.0 * r->value), t += 9;
        else
            fputc(*t++, out);
    }
    fputc('\n', out);
}

static void print_selection(const ReportEntry *e, FILE *out, Style s)
{
    const ReportRow *r = report_selected(e);
    fputs("\n  2. Selected configuration\n", out);
    if (!r) {
        fprintf(out, "     none: no permitted block size has a resident CTA on %s\n", e->target.sm_name);
        return;
    }
    fprintf(out, "     %sblock %d threads, %d CTAs per SM, %.1f%% occupancy", s.bold, r->threads,
            r->result.active_blocks, 100.0 * occ_occupancy(&r->result));
    if (e->have_work)
        fprintf(out, ", grid %llu CTAs", (unsigned long long)e->ctas);
    fprintf(out, "%s\n", s.reset);
    for (int i = 0; i < e->n_reasons; i++)
        print_reason(&e->reasons[i], out);
}

static void print_tail(const ReportEntry *e, FILE *out)
{
    const ReportRow *r = report_selected(e);
    fputs("\n  3. Tail\n", out);
    if (!r || !e->have_work) {
        fputs("     give --work N (or launch it from a block with a constant grid) for the waves "
              "and the last wave's fill\n", out);
        return;
    }
    char from[48] = "";
    if (e->work_from_launch)
        snprintf(from, sizeof from, " (the launch block at line %d)", e->kernel.launch_line);
    fprintf(out, "     work %llu%s: %llu CTAs of %d threads, the last with %llu (%.2f%% of the work)\n",
            (unsigned long long)e->work, from, (unsigned long long)e->ctas, r->threads,
            (unsigned long long)e->tail_threads, 100.0 * (double)e->tail_threads / (double)e->work);
    if (e->n_tails)
        fprintf(out, "     %-24s %5s %8s %6s %10s %7s\n", "product", "SMs", "waves", "full",
                "last wave", "idle");
    for (int i = 0; i < e->n_tails; i++) {
        const TailRow *t = &e->tails[i];
        fprintf(out, "     %-24s %5d %8.2f %6llu %9.1f%% %6.1f%%\n", t->gpu->id, t->sm_count,
                t->waves.waves, (unsigned long long)t->waves.full_waves,
                100.0 * t->waves.last_wave_fill, 100.0 * t->waves.idle_fraction);
        if (t->better_threads)
            fprintf(out, "       a bad tail: %d threads would leave %.1f%% idle (%.2f waves)\n",
                    t->better_threads, 100.0 * t->better_waves.idle_fraction, t->better_waves.waves);
        else if (t->undersubscribed)
            fputs("       under one wave: the grid leaves SMs idle at any block size (a smaller problem "
                  "than the GPU; fuse launches or use a persistent kernel)\n", out);
        else if (t->bad)
            fputs("       a bad tail, and no permitted block size does better: consider a grid-stride loop\n", out);
    }
}

static void print_bounds(const ReportEntry *e, FILE *out)
{
    const CapAdvice *c = &e->cap;
    const ReportRow *r = report_selected(e);
    fputs("\n  4. @launch / __launch_bounds__\n", out);
    if (!r) {
        fputs("     none\n", out);
        return;
    }
    if (!c->applies) {
        fprintf(out, "     registers do not hold occupancy back here: __launch_bounds__(%d) "
                     "(or Silk's @launch(%d)) states the block size and needs no minimum\n",
                r->threads, r->threads);
        return;
    }
    fprintf(out, "     a cap of %d registers gives %d CTAs per SM, %.1f%% occupancy: "
                 "__launch_bounds__(%d, %d), or in Silk @launch(%d, %d) or @launch(%d, 1, %d)\n",
            c->cap, c->min_blocks, 100.0 * c->occupancy, r->threads, c->min_blocks, r->threads,
            c->min_blocks, r->threads, c->cap);
    if (!c->checked)
        fputs("     not compiled at that cap (no ptxas): whether it spills is unknown\n", out);
    else if (c->cap_spill_stores || c->cap_spill_loads)
        fprintf(out, "     ptxas at that cap: %d registers, spills %d B stored / %d B loaded per "
                     "thread: worth it only for a memory-bound kernel\n",
                c->cap_registers, c->cap_spill_stores, c->cap_spill_loads);
    else
        fprintf(out, "     ptxas at that cap: %d registers, no spills: a safe gain\n", c->cap_registers);
}

static void print_code(const char *code, FILE *out)
{
    fputs("     ", out);
    for (; *code; code++) {
        fputc(*code, out);
        if (*code == '\n')
            fputs("     ", out);
    }
    fputc('\n', out);
}

static void print_launch(const ReportEntry *e, FILE *out)
{
    char code[512];
    fputs("\n  5. Host launch code\n", out);
    report_silk_launch(e, code, sizeof code);
    print_code(code, out);
    report_cuda_launch(e, code, sizeof code);
    print_code(code, out);
    fputs("\n  6. Grid validity\n", out);
    if (!e->have_work)
        fprintf(out, "     gridDim.x may be up to %d CTAs on %s\n", e->target.arch->max_grid_x,
                e->target.sm_name);
    else if (e->grid_valid)
        fprintf(out, "     %llu CTAs: within gridDim.x <= %d\n", (unsigned long long)e->ctas,
                e->target.arch->max_grid_x);
    else
        fprintf(out, "     %llu CTAs: above gridDim.x <= %d; use a 2-D grid (%d x %llu) or a grid-stride loop\n",
                (unsigned long long)e->ctas, e->target.arch->max_grid_x, e->target.arch->max_grid_x,
                (unsigned long long)e->grid_y);
    fputs("\n  7. Verification\n", out);
    report_verify_snippet(e, code, sizeof code);
    print_code(code, out);
}

static void print_extras(const ReportEntry *e, FILE *out)
{
    const ReportRow *r = report_selected(e);
    if (!r)
        return;
    fputs("\n  Persistent grid (SMs x resident CTAs):", out);
    for (int i = 0; i < e->n_persistent; i++)
        fprintf(out, "%s %s %d", i ? "," : "", e->persistent[i].gpu->id, e->persistent[i].grid);
    fputs(e->n_persistent ? "\n" : " no product of this architecture in the tables\n", out);
    const KernelUsage *u = &e->kernel.usage;
    if (u->spill_stores || u->spill_loads)
        fprintf(out, "  Spills: %d B stored and %d B loaded per thread, %llu B of local-memory "
                     "traffic per CTA each time the spill code runs\n",
                u->spill_stores, u->spill_loads,
                (unsigned long long)(u->spill_stores + u->spill_loads) * (unsigned long long)r->threads);
    const OccNextStep *n = &e->next;
    char b1[32], b2[32];
    fputs("  Next step: ", out);
    if (n->regs_to_cut > 0)
        fprintf(out, "cut %d registers per thread for %d CTAs per SM", n->regs_to_cut, n->regs_gained_blocks);
    else
        fputs("cutting registers gains no CTA", out);
    if (n->smem_to_cut > 0)
        fprintf(out, "; or cut %s of shared memory per CTA for %d", format_bytes((uint64_t)n->smem_to_cut, b1, sizeof b1),
                n->smem_gained_blocks);
    fprintf(out, ". Slack: %d registers, %s of shared memory before losing a CTA.\n", n->regs_slack,
            format_bytes((uint64_t)(n->smem_slack > 0 ? n->smem_slack : 0), b2, sizeof b2));
}

int report_write_text(const ReportModel *m, FILE *out)
{
    Style s = use_colour(out) ? (Style){"\033[1m", "\033[0m"} : (Style){"", ""};
    for (int i = 0; i < m->n_entries; i++) {
        const ReportEntry *e = &m->entries[i];
        if (i)
            fputc('\n', out);
        print_header(e, out, s);
        print_table(e, out, s);
        print_selection(e, out, s);
        print_tail(e, out);
        print_bounds(e, out);
        print_launch(e, out);
        print_extras(e, out);
    }
    return EXIT_OK;
}
