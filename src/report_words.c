/*
 * report_words.c: the sentences of `silk-occ report` that more than one
 * writer prints (text and markdown): a reason with its numbers, the
 * limiters' names, a tail's note, the register-cap advice, the grid's
 * validity, spills and the next step.  Each starts in lower case and has no
 * final stop; code in it is between backticks, which the text writer drops
 * (report_print_plain) and the markdown writer makes code spans, after
 * capitalising the sentence.  Keeping them here keeps the two reports
 * saying the same thing.
 */
#include "report_writers.h"

#include "demangle.h"
#include "escape.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Appends to buf (which holds *used bytes), truncating at `size`. */
__attribute__((format(printf, 4, 5))) static void append(char *buf, size_t size, size_t *used,
                                                        const char *fmt, ...)
{
    if (*used + 1 >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *used, size - *used, fmt, ap);
    va_end(ap);
    *used += n > 0 ? (size_t)n : 0;
    if (*used >= size)
        *used = size - 1;
}

void report_reason_sentence(const Reason *r, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (const char *t = report_reason_text(r->code); *t;) {
        if (strncmp(t, "{threads}", 9) == 0)
            append(buf, size, &used, "%d", r->threads), t += 9;
        else if (strncmp(t, "{blocks}", 8) == 0)
            append(buf, size, &used, "%d", r->blocks), t += 8;
        else if (strncmp(t, "{value}", 7) == 0)
            append(buf, size, &used, "%.0f", r->value), t += 7;
        else if (strncmp(t, "{percent}", 9) == 0)
            append(buf, size, &used, "%.1f%%", 100.0 * r->value), t += 9;
        else
            append(buf, size, &used, "%c", *t++);
    }
}

void report_limiter_names(unsigned set, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < OCC_N_LIMITERS; i++)
        if (set & (1u << i))
            append(buf, size, &used, "%s%s", used ? ", " : "", occ_limiter_what((OccLimiter)i));
}

bool report_tail_note(const TailRow *t, char *buf, size_t size)
{
    if (t->better_threads)
        snprintf(buf, size, "a bad tail: %d threads would leave %.1f%% idle (%.2f waves)",
                 t->better_threads, 100.0 * t->better_waves.idle_fraction, t->better_waves.waves);
    else if (t->undersubscribed)
        snprintf(buf, size, "under one wave: the grid leaves SMs idle at any block size (a "
                            "smaller problem than the GPU; fuse launches or use a persistent kernel)");
    else if (t->bad)
        snprintf(buf, size, "a bad tail, and no permitted block size does better: consider a "
                            "grid-stride loop");
    else
        return false;
    return true;
}

/* What the cap would cost: ptxas's answer, or why there is none. */
static void cap_check(const ReportEntry *e, char *buf, size_t size)
{
    const CapAdvice *c = &e->cap;
    if (c->over_budget)
        snprintf(buf, size, "not compiled at that cap (more kernels to check than a report "
                            "compiles again; `--check-caps` checks them all): whether it "
                            "spills is unknown");
    else if (!c->checked && e->kernel.input == INPUT_CUBIN)
        snprintf(buf, size, "not compiled at that cap (a cubin has no PTX to assemble again): "
                            "whether it spills is unknown");
    else if (!c->checked)
        snprintf(buf, size, "not compiled at that cap (no ptxas): whether it spills is unknown");
    else if (c->cap_spill_stores || c->cap_spill_loads)
        snprintf(buf, size, "ptxas at that cap: %d registers, spills %d B stored / %d B loaded "
                            "per thread: worth it only for a memory-bound kernel",
                 c->cap_registers, c->cap_spill_stores, c->cap_spill_loads);
    else
        snprintf(buf, size, "ptxas at that cap: %d registers, no spills: a safe gain",
                 c->cap_registers);
}

/* Advice in the input's language: Silk's @launch beside CUDA's for a
 * Silk kernel, CUDA's alone for CUDA code. */
bool report_bounds_advice(const ReportEntry *e, char *advice, char *check, size_t size)
{
    const CapAdvice *c = &e->cap;
    const ReportRow *r = report_selected(e);
    bool silk = e->kernel.input == INPUT_SILK;
    size_t used = 0;
    check[0] = advice[0] = '\0';
    if (!r)
        return false;
    if (!c->applies) {
        append(advice, size, &used, "registers do not hold occupancy back here: "
                                    "`__launch_bounds__(%d)` ", r->threads);
        if (silk)
            append(advice, size, &used, "(or Silk's `@launch(%d)`) ", r->threads);
        append(advice, size, &used, "states the block size and needs no minimum");
        return true;
    }
    append(advice, size, &used, "a cap of %d registers gives %d CTAs per SM, %.1f%% occupancy: "
                                "`__launch_bounds__(%d, %d)`",
           c->cap, c->min_blocks, 100.0 * c->occupancy, r->threads, c->min_blocks);
    if (silk)
        append(advice, size, &used, ", or in Silk `@launch(%d, %d)` or `@launch(%d, 1, %d)`",
               r->threads, c->min_blocks, r->threads, c->cap);
    cap_check(e, check, size);
    return true;
}

void report_grid_sentence(const ReportEntry *e, char *buf, size_t size)
{
    const ArchLimits *a = e->target.arch;
    unsigned long long x = e->grid_x, y = e->grid_y;
    if (!e->have_work)
        snprintf(buf, size, "`gridDim.x` may be up to %d CTAs on %s", a->max_grid_x,
                 e->target.sm_name);
    else if (e->work_rows && e->grid_valid)
        snprintf(buf, size, "%llu x %llu CTAs: within `gridDim.x <= %d` and `gridDim.y <= %d`", x,
                 y, a->max_grid_x, a->max_grid_y);
    else if (e->work_rows)
        snprintf(buf, size, "%llu x %llu CTAs: above `gridDim.x <= %d` or `gridDim.y <= %d`; use "
                            "a grid-stride loop",
                 x, y, a->max_grid_x, a->max_grid_y);
    else if (e->grid_valid)
        snprintf(buf, size, "%llu CTAs: within `gridDim.x <= %d`", (unsigned long long)e->ctas,
                 a->max_grid_x);
    else if (y <= (unsigned long long)a->max_grid_y)
        snprintf(buf, size, "%llu CTAs: above `gridDim.x <= %d`; use a 2-D grid (%llu x %llu) or "
                            "a grid-stride loop",
                 (unsigned long long)e->ctas, a->max_grid_x, x, y);
    else
        snprintf(buf, size, "%llu CTAs: above what a 2-D grid holds (`gridDim.x <= %d`, "
                            "`gridDim.y <= %d`); use a grid-stride loop",
                 (unsigned long long)e->ctas, a->max_grid_x, a->max_grid_y);
}

bool report_spill_sentence(const ReportEntry *e, const ReportRow *r, char *buf, size_t size)
{
    const KernelUsage *u = &e->kernel.usage;
    if (e->kernel.input == INPUT_CUBIN)
        snprintf(buf, size, "unknown: a cubin does not record them (`nvcc --ptxas-options=-v` "
                            "prints them)");
    else if (u->spill_stores || u->spill_loads)
        snprintf(buf, size, "%d B stored and %d B loaded per thread, %llu B of local-memory "
                            "traffic per CTA each time the spill code runs",
                 u->spill_stores, u->spill_loads,
                 (unsigned long long)(u->spill_stores + u->spill_loads) *
                     (unsigned long long)r->threads);
    else
        return false;
    return true;
}

void report_next_step_sentence(const ReportEntry *e, char *buf, size_t size)
{
    const OccNextStep *n = &e->next;
    char cut[32], slack[32];
    size_t used = 0;
    buf[0] = '\0';
    if (n->regs_to_cut > 0)
        append(buf, size, &used, "cut %d registers per thread for %d CTAs per SM", n->regs_to_cut,
               n->regs_gained_blocks);
    else
        append(buf, size, &used, "cutting registers gains no CTA");
    if (n->smem_to_cut > 0)
        append(buf, size, &used, "; or cut %s of shared memory per CTA for %d",
               cli_format_bytes((uint64_t)n->smem_to_cut, cut, sizeof cut), n->smem_gained_blocks);
    append(buf, size, &used, ". Slack: %d registers, %s of shared memory before losing a CTA",
           n->regs_slack,
           cli_format_bytes((uint64_t)(n->smem_slack > 0 ? n->smem_slack : 0), slack, sizeof slack));
}

/* The dynamic shared memory the header states: the selected row's, else
 * (no size runs, or --dyn-smem fits none) what was asked for, the rows'
 * one size or their least and greatest, never a 0 B no row has. */
static void dynamic_smem_words(const ReportEntry *e, char *buf, size_t size)
{
    if (report_selected(e) || e->n_rows == 0) {
        cli_format_bytes(e->dynamic_smem, buf, size);
        return;
    }
    uint64_t least = e->rows[0].dynamic_smem, most = least;
    for (int i = 1; i < e->n_rows; i++) {
        uint64_t b = e->rows[i].dynamic_smem;
        least = b < least ? b : least;
        most = b > most ? b : most;
    }
    char low[32], high[32];
    cli_format_bytes(least, low, sizeof low);
    if (least == most)
        snprintf(buf, size, "%s", low);
    else
        snprintf(buf, size, "%s to %s", low, cli_format_bytes(most, high, sizeof high));
}

void report_usage_sentence(const ReportEntry *e, char *buf, size_t size)
{
    const KernelUsage *u = &e->kernel.usage;
    char st[32], dy[80];
    bool cubin = e->kernel.input == INPUT_CUBIN; /* a cubin records no spills */
    size_t used = 0;
    buf[0] = '\0';
    append(buf, size, &used, "%d registers per thread%s, %s static + %s dynamic shared memory, "
                             "%d barrier%s, ",
           u->registers,
           u->estimated ? " (estimated: no ptxas)" : cubin ? " (from the cubin)" : " (ptxas -v)",
           cli_format_bytes((uint64_t)u->static_smem, st, sizeof st),
           (dynamic_smem_words(e, dy, sizeof dy), dy), e->resources.barriers,
           e->resources.barriers == 1 ? "" : "s");
    if (cubin)
        append(buf, size, &used, "spills unknown (a cubin does not record them)");
    else
        append(buf, size, &used, "spills %d B stored / %d B loaded per thread", u->spill_stores,
               u->spill_loads);
}

void report_print_plain(FILE *out, const char *sentence)
{
    for (; *sentence; sentence++)
        if (*sentence != '`')
            fputc(*sentence, out);
}

bool report_dynamic_smem_note(const ReportEntry *e, char *buf, size_t size)
{
    if (e->dynamic_smem_unsized)
        snprintf(buf, size, "dynamic shared memory: the kernel declares it (`extern __shared__`) "
                            "and no `--dyn-smem` gave its size: the rows assume 0 B, an upper "
                            "bound on occupancy");
    else if (e->kernel.extern_smem_unknown && !e->rows_sized)
        snprintf(buf, size, "dynamic shared memory: a cubin does not record whether the kernel "
                            "uses it; if it does, `--dyn-smem` gives its size");
    else
        return false;
    return true;
}

bool report_link_note(const ReportEntry *e, char *buf, size_t size)
{
    if (!e->kernel.calls_out)
        return false;
    snprintf(buf, size, "registers are the kernel's own: it calls a function of another file, "
                        "and linking (nvlink) raises them to the most any function it calls uses");
    return true;
}

/* The parameter list at the end of a demangled title ("(float*, int)"),
 * or "" when it has none. */
static const char *parameter_list(const char *title)
{
    size_t n = strlen(title);
    if (n == 0 || title[n - 1] != ')')
        return "";
    int depth = 0;
    for (size_t i = n; i-- > 0;) {
        depth += title[i] == ')' ? 1 : title[i] == '(' ? -1 : 0;
        if (depth == 0)
            return title + i;
    }
    return "";
}

/* The launch name and the parameters, without the return type.  What
 * tells two instances of a template apart is the template arguments, so
 * when a template's whole is too wide the parameters go first, then the
 * arguments are shortened; other names are cut at the end. */
static void shorten_title(const ReportKernel *k, char *buf, size_t size)
{
    const char *params = parameter_list(k->title);
    if (k->title == k->name || !*params) {
        demangle_shorten(k->title, REPORT_TITLE_WIDTH, buf, size);
        return;
    }
    if (strlen(k->cxx_name) + strlen(params) <= REPORT_TITLE_WIDTH || !strchr(k->cxx_name, '<')) {
        char whole[4096];
        snprintf(whole, sizeof whole, "%s%s", k->cxx_name, params);
        demangle_shorten(whole, REPORT_TITLE_WIDTH, buf, size);
        return;
    }
    size_t room = size > 8 ? size - 8 : 0;
    demangle_shorten(k->cxx_name, REPORT_TITLE_WIDTH - 5, buf, room);
    snprintf(buf + strlen(buf), size - strlen(buf), "(%s)", strcmp(params, "()") ? "\u2026" : "");
}

/* The title, shortened, with what a terminal would act on escaped: a
 * cubin's symbol may hold any byte (escape.h). */
void report_short_title(const ReportKernel *k, char *buf, size_t size)
{
    shorten_title(k, buf, size);
    if (escape_is_plain(buf))
        return;
    char shortened[REPORT_TITLE_WIDTH * 3 + 8];
    snprintf(shortened, sizeof shortened, "%s", buf);
    escape_text(shortened, buf, size);
}

void report_bounds_sentence(const ReportKernel *k, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    if (k->reqntid || k->maxntid)
        append(buf, size, &used, "block size %s %d", k->reqntid ? "fixed at" : "at most",
               k->reqntid ? k->reqntid : k->maxntid);
    if (k->minnctapersm > 0)
        append(buf, size, &used, "%sat least %d CTA%s per SM", used ? "; " : "", k->minnctapersm,
               k->minnctapersm == 1 ? "" : "s");
    if (k->maxnreg)
        append(buf, size, &used, "%sat most %d registers", used ? "; " : "", k->maxnreg);
    /* A cubin keeps no minimum, only the register cap it implies; without
     * a block-size bound there was none to keep. */
    if (k->minnctapersm < 0 && (k->reqntid || k->maxntid))
        append(buf, size, &used, "; minimum CTAs per SM not recorded (a cubin keeps only the "
                                 "register cap it implies)");
    if (!used)
        append(buf, size, &used, "none");
}

void report_work_sentence(const ReportEntry *e, char *buf, size_t size)
{
    const ReportRow *r = report_selected(e);
    size_t used = 0;
    buf[0] = '\0';
    if (e->work_rows)
        append(buf, size, &used, "work %llu x %llu", (unsigned long long)e->work,
               (unsigned long long)e->work_rows);
    else
        append(buf, size, &used, "work %llu", (unsigned long long)e->work);
    if (e->work_from_launch)
        append(buf, size, &used, " (the launch block at line %d)", e->kernel.launch_line);
    if (e->work_rows)
        append(buf, size, &used, ": %llu x %llu CTAs of %d x %d threads, %llu threads past the "
                                 "right and bottom edges (%.2f%% of those launched)",
               (unsigned long long)e->grid_x, (unsigned long long)e->grid_y, e->block_x,
               e->block_y, (unsigned long long)e->tail_threads,
               100.0 * (double)e->tail_threads / ((double)e->ctas * r->threads));
    else
        append(buf, size, &used, ": %llu CTAs of %d threads, the last with %llu (%.2f%% of the "
                                 "work)",
               (unsigned long long)e->ctas, r->threads, (unsigned long long)e->tail_threads,
               100.0 * (double)e->tail_threads / (double)e->work);
}
