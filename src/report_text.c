/*
 * report_text.c: `silk-occ report` for people.  For each kernel and target
 * the seven sections of the launch-configuration guide, numbered as there,
 * then the persistent grid, spills and the next step: aligned tables,
 * bold on a terminal (NO_COLOR turns it off).  It prints the model; the
 * numbers are computed in report_model.c.
 */
#include "report_writers.h"

#include "colour.h"
#include "escape.h"

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

/* Where the figures come from; a cubin (or nvcc's) records no spills. */
static void print_usage(const ReportEntry *e, FILE *out)
{
    char sentence[512];
    report_usage_sentence(e, sentence, sizeof sentence);
    fprintf(out, "  %s\n", sentence);
    for (int i = 0; report_warning_sentence(e, i, sentence, sizeof sentence); i++)
        fprintf(out, "  %s\n", sentence);
}

/* What the file's compiles and the dynamic shared memory leave open. */
static void print_notes(const ReportEntry *e, FILE *out)
{
    char sentence[512];
    if (e->kernel.absent_on)
        fprintf(out, "  not in this file's compile for %s (the code tests __CUDA_ARCH__): "
                     "reported only where it exists\n", e->kernel.absent_on);
    if (e->other_units) {
        fputs("  other units define it with other figures: ", out);
        escape_fputs(e->other_units, out);
        fputs(" (reported apart)\n", out);
    }
    if (report_dynamic_smem_note(e, sentence, sizeof sentence)) {
        fputs("  ", out);
        report_print_plain(out, sentence);
        fputc('\n', out);
    }
    if (report_link_note(e, sentence, sizeof sentence)) {
        fputs("  ", out);
        report_print_plain(out, sentence);
        fputc('\n', out);
    }
}

/* The entry's file, or every file it stands for ("in a.cu, b.cu"): a
 * kernel that several units define alike is one entry (report_units.c). */
static void print_units(const ReportEntry *e, FILE *out)
{
    if (e->n_units < 2) {
        fputs(ESCAPED(e->kernel.file), out);
        return;
    }
    fputs("in ", out);
    for (int i = 0; i < e->n_units; i++)
        fprintf(out, "%s%s", i ? ", " : "", ESCAPED(e->units[i]));
}

static void print_header(const ReportEntry *e, const char *title, FILE *out, Style s)
{
    char target[2 * OCC_NAME_MAX];
    ReportGpu gpu;
    bool named = report_named_gpu(e, &gpu);
    report_target_words(e, target, sizeof target);
    fprintf(out, "%s%s%s (", s.bold, title, s.reset);
    print_units(e, out);
    fprintf(out, ") on %s%s%s (%s", s.bold, named ? gpu.name : e->target.sm_name, s.reset, target);
    if (named)
        fprintf(out, ", %s, %d %s", e->target.sm_name, e->target.sm_count, report_terms(e).units);
    /* --gpu a100 reads as a100-40gb: say so, so that the product is no surprise. */
    if (named && e->target.gpu_asked[0] && strcmp(e->target.gpu_asked, gpu.id) != 0)
        fprintf(out, "; %s, asked as %s", gpu.id, ESCAPED(e->target.gpu_asked));
    fputs(")\n", out);
    print_usage(e, out);
    char bounds[256];
    report_bounds_sentence(e, bounds, sizeof bounds);
    fprintf(out, "  launch bounds: %s\n", bounds);
    print_notes(e, out);
}

/* Whether any row has dynamic shared memory: then a column shows it. */
static bool rows_have_dynamic_smem(const ReportEntry *e)
{
    for (int i = 0; i < e->n_rows; i++)
        if (e->rows[i].dynamic_smem)
            return true;
    return false;
}

static void print_table(const ReportEntry *e, FILE *out, Style s)
{
    bool dyn = rows_have_dynamic_smem(e);
    ReportTerms terms = report_terms(e);
    fprintf(out, "\n  1. Occupancy (%s)\n", terms.limits);
    fprintf(out, "     %7s", "threads");
    if (dyn)
        fprintf(out, " %9s", e->target.vendor == OCC_AMD ? "dyn lds" : "dyn smem");
    for (int c = 0; c < 4; c++)
        fprintf(out, " %6s", terms.column_names[c]);
    fprintf(out, " %8s %9s  %s\n", terms.per_unit, "occupancy", "limited by");
    for (int i = 0; i < e->n_rows; i++) {
        const ReportRow *r = &e->rows[i];
        const char *on = i == e->selected ? s.bold : "", *off = i == e->selected ? s.reset : "";
        char names[128], bytes[32];
        report_limiter_names(&r->fig, names, sizeof names);
        fprintf(out, "   %s%s %7d", on, i == e->selected ? ">" : " ", r->threads);
        if (dyn)
            fprintf(out, " %9s", format_bytes(r->dynamic_smem, bytes, sizeof bytes));
        for (int c = 0; c < 4; c++)
            print_limit(out, r->fig.limit[terms.columns[c]]);
        fprintf(out, " %8d %8.1f%%  %s%s\n", r->fig.groups, 100.0 * occ_figures_occupancy(&r->fig),
                names, off);
    }
}

static void print_reasons(const ReportEntry *e, FILE *out)
{
    for (int i = 0; i < e->n_reasons; i++) {
        char sentence[512];
        report_reason_sentence(e, &e->reasons[i], sentence, sizeof sentence);
        fprintf(out, "     - %s\n", sentence);
    }
}

static void print_selection(const ReportEntry *e, FILE *out, Style s)
{
    const ReportRow *r = report_selected(e);
    ReportTerms terms = report_terms(e);
    fputs("\n  2. Selected configuration\n", out);
    if (!r) {
        fprintf(out, "     none: no permitted block size has a resident %s on %s\n", terms.group,
                e->target.sm_name);
        print_reasons(e, out); /* why none is permitted (--only-block-sizes) */
        return;
    }
    fprintf(out, "     %sblock %d threads, %d %s per %s, %.1f%% occupancy", s.bold, r->threads,
            r->fig.groups, terms.groups, terms.unit, 100.0 * occ_figures_occupancy(&r->fig));
    if (e->target.vendor == OCC_AMD)
        fprintf(out, " (%d waves per SIMD)", r->fig.active);
    if (e->have_work)
        fprintf(out, ", grid %llu %s", (unsigned long long)e->ctas, terms.groups);
    fprintf(out, "%s\n", s.reset);
    print_reasons(e, out);
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
    char work[256];
    report_work_sentence(e, work, sizeof work);
    fprintf(out, "     %s\n", work);
    if (e->n_tails)
        fprintf(out, "     %-24s %5s %8s %6s %10s %7s\n", "product", report_terms(e).units, "waves",
                "full", "last wave", "idle");
    for (int i = 0; i < e->n_tails; i++) {
        const TailRow *t = &e->tails[i];
        fprintf(out, "     %-24s %5d %8.2f %6llu %9.1f%% %6.1f%%\n", t->gpu.id, t->sm_count,
                t->waves.waves, (unsigned long long)t->waves.full_waves,
                100.0 * t->waves.last_wave_fill, 100.0 * t->waves.idle_fraction);
        char note[256];
        if (report_tail_note(e, t, note, sizeof note))
            fprintf(out, "       %s\n", note);
    }
}

static void print_bounds(const ReportEntry *e, FILE *out)
{
    char advice[512], check[512];
    fprintf(out, "\n  4. %s\n", e->kernel.input == INPUT_SILK   ? "@launch / __launch_bounds__"
                                  : e->cap.form == CAP_FORM_MAXNREG ? "__maxnreg__"
                                                                    : "__launch_bounds__");
    if (!report_bounds_advice(e, advice, check, sizeof advice)) {
        fputs("     none\n", out);
        return;
    }
    fputs("     ", out);
    report_print_plain(out, advice);
    if (check[0]) {
        fputs("\n     ", out);
        report_print_plain(out, check);
    }
    if (report_bound_cost_sentence(e, check, sizeof check)) {
        fputs("\n     ", out);
        report_print_plain(out, check);
    }
    fputc('\n', out);
}

/* Host code names the kernel, whose name may come from a cubin: escaped
 * (escape.h), each line indented. */
static void print_code(const char *code, FILE *out)
{
    fputs("     ", out);
    escape_fputs_lines(code, "     ", out);
    fputc('\n', out);
}

static void print_launch(const ReportEntry *e, FILE *out)
{
    char code[REPORT_CODE_SIZE];
    fputs("\n  5. Host launch code\n", out);
    if (e->kernel.input == INPUT_SILK) {
        report_silk_launch(e, code, sizeof code);
        print_code(code, out);
    }
    report_cuda_launch(e, code, sizeof code);
    print_code(code, out);
    fputs("\n  6. Grid validity\n", out);
    report_grid_sentence(e, code, sizeof code);
    fputs("     ", out);
    report_print_plain(out, code);
    fputc('\n', out);
    if (report_cluster_sentence(e, code, sizeof code)) {
        fputs("     ", out);
        report_print_plain(out, code);
        fputc('\n', out);
    }
    if (report_smem_optin_sentence(e, code, sizeof code)) {
        fputs("     ", out);
        report_print_plain(out, code);
        fputc('\n', out);
    }
    fputs("\n  7. Verification\n", out);
    report_verify_snippet(e, code, sizeof code);
    print_code(code, out);
}

static void print_extras(const ReportEntry *e, FILE *out)
{
    const ReportRow *r = report_selected(e);
    if (!r)
        return;
    ReportTerms terms = report_terms(e);
    if (e->cluster.size)
        fprintf(out, "\n  Persistent grid (resident clusters x %d CTAs):", e->cluster.size);
    else
        fprintf(out, "\n  Persistent grid (%s x resident %s):", terms.units, terms.groups);
    for (int i = 0; i < e->n_persistent; i++)
        fprintf(out, "%s %s %d", i ? "," : "", e->persistent[i].gpu.id, e->persistent[i].grid);
    fputs(e->n_persistent ? "\n" : " no product of this architecture in the tables\n", out);
    char sentence[512];
    if (report_spill_sentence(e, r, sentence, sizeof sentence)) {
        fputs("  Spills: ", out);
        report_print_plain(out, sentence);
        fputc('\n', out);
    }
    report_next_step_sentence(e, sentence, sizeof sentence);
    fprintf(out, "  Next step: %s.\n", sentence);
}

/* The kernel's one size over its targets (report_across.c), after its
 * last target's sections, and the targets whose own selection differs. */
static void print_across(const ReportAcross *a, FILE *out)
{
    fputs("\nAcross ", out);
    for (int i = 0; i < a->n_targets; i++)
        fprintf(out, "%s%s", i ? ", " : "", a->per_target[i].target);
    if (!a->threads) {
        fputs(": no block size runs on every target\n", out);
        return;
    }
    fprintf(out, ": %d threads is best over all (lowest occupancy %.1f%%)", a->threads,
            a->min_occupancy * 100.0);
    const char *sep = "; alone, ";
    for (int i = 0; i < a->n_targets; i++) {
        const ReportAcrossTarget *t = &a->per_target[i];
        if (t->threads && t->threads != a->threads) {
            fprintf(out, "%s%s would take %d", sep, t->target, t->threads);
            sep = ", ";
        }
    }
    fputc('\n', out);
}

int report_write_text(const ReportModel *m, FILE *out)
{
    Style s = colour_wanted(out) ? (Style){"\033[1m", "\033[0m"} : (Style){"", ""};
    char **titles = report_titles_make(m);
    if (!titles) {
        cli_error("report", "out of memory writing the text report");
        return EXIT_ENVIRONMENT;
    }
    for (int i = 0; i < m->n_entries; i++) {
        const ReportEntry *e = &m->entries[i];
        if (i)
            fputc('\n', out);
        print_header(e, titles[i], out, s);
        print_table(e, out, s);
        print_selection(e, out, s);
        print_tail(e, out);
        print_bounds(e, out);
        print_launch(e, out);
        print_extras(e, out);
        const ReportAcross *a = report_across_after(m, i);
        if (a)
            print_across(a, out);
    }
    report_titles_free(titles);
    return EXIT_OK;
}
