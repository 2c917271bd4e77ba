/*
 * report_markdown.c: `silk-occ report --format markdown`, for pull-request
 * comments: GitHub-flavoured markdown with no colour.  For each kernel and
 * target a `##` heading, a list of what the kernel uses, and the seven
 * sections of the launch-configuration guide as `###` headings: the
 * occupancy table as a markdown table (the selected row in bold), the
 * selection and its reasons as a list, the tail with its table per
 * product, the launch-bounds advice, the host code and the verification
 * snippet in code fences, grid validity; then the persistent grid, spills
 * and the next step.  Same sentences and numbers as report_text.c; the
 * numbers come from report_model.c.  Prose is escaped so that `|`, `*`,
 * `_` and the like print as themselves, and `@launch`/`.reqntid` become
 * code, where GitHub would otherwise read `@launch` as a mention.
 */
#include "report_writers.h"

#include "escape.h"

#include <ctype.h>
#include <limits.h>
#include <string.h>

/* ---- markdown text -------------------------------------------------------- */

/* "@launch", ".maxntid": a sigil after a non-word character, then a letter. */
static size_t directive_length(const char *text, size_t i)
{
    if ((text[i] != '@' && text[i] != '.') || !isalpha((unsigned char)text[i + 1]))
        return 0;
    if (i > 0 && (isalnum((unsigned char)text[i - 1]) || text[i - 1] == '_'))
        return 0;
    size_t n = 1;
    while (isalnum((unsigned char)text[i + n]) || text[i + n] == '_')
        n++;
    return n;
}

/* Prose: markdown's special characters escaped, directives as code. */
static void md_text(FILE *out, const char *text)
{
    for (size_t i = 0; text[i];) {
        size_t n = directive_length(text, i);
        if (n) {
            fprintf(out, "`%.*s`", (int)n, text + i);
            i += n;
            continue;
        }
        /* GitHub reads no emphasis in an underscore inside a word (sm_90). */
        bool in_word = text[i] == '_' && i > 0 && isalnum((unsigned char)text[i - 1]) &&
                       isalnum((unsigned char)text[i + 1]);
        if (strchr("\\`*_[]<>|~#", text[i]) && !in_word)
            fputc('\\', out);
        fputc(text[i++], out);
    }
}

/* An inline code span, its fence one backtick longer than any run inside. */
static void md_code(FILE *out, const char *code)
{
    int longest = 0, run = 0;
    for (const char *p = code; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        longest = run > longest ? run : longest;
    }
    const char *pad = longest ? " " : "";
    longest = longest < 9 ? longest : 9; /* the fence below has 10 */
    fprintf(out, "%.*s%s%s%s%.*s", longest + 1, "``````````", pad, code, pad, longest + 1,
            "``````````");
}

/* A code block; the kernel's name in it may come from a cubin: escaped
 * (escape.h). */
static void md_fence(FILE *out, const char *language, const char *code)
{
    fprintf(out, "\n```%s\n", language);
    escape_fputs_lines(code, "", out);
    fputs("\n```\n", out);
}

/* Prose with `code` spans (report_words.c's sentences): the spans as code,
 * the rest escaped. */
static void md_rich(FILE *out, const char *text)
{
    char piece[512];
    while (*text) {
        bool code = *text == '`';
        const char *end = strchr(text + code, '`');
        size_t n = end ? (size_t)(end - text - code) : strlen(text + code);
        snprintf(piece, sizeof piece, "%.*s", (int)n, text + code);
        if (code)
            md_code(out, piece);
        else
            md_text(out, piece);
        text += code + n + (code && end);
    }
}

/* One of report_words.c's sentences as a markdown one: capitalised (but
 * not a tool's name: "ptxas at that cap"), with its full stop. */
static void md_sentence(FILE *out, const char *text)
{
    if (!*text)
        return;
    char first[512];
    snprintf(first, sizeof first, "%s", text);
    if (strncmp(first, "ptxas", 5) != 0)
        first[0] = (char)toupper((unsigned char)first[0]);
    md_rich(out, first);
    fputs(".\n", out);
}

static void percent(char *buf, size_t size, double fraction)
{
    snprintf(buf, size, "%.1f%%", 100.0 * fraction);
}

/* ---- the kernel and target -------------------------------------------------- */

static void print_header(const ReportEntry *e, const char *title, FILE *out)
{
    const Target *t = &e->target;
    fputs("## ", out);
    md_code(out, title);
    fputs(" on ", out);
    ReportGpu gpu;
    bool named = report_named_gpu(e, &gpu);
    md_text(out, named ? gpu.name : t->sm_name);
    fputs("\n\n- **Input:** ", out);
    md_code(out, ESCAPED(e->kernel.file)); /* the title is escaped already */
    for (int i = 1; i < e->n_units; i++) { /* the other files it stands for */
        fputs(", ", out);
        md_code(out, ESCAPED(e->units[i]));
    }
    fputs("\n- **Target:** ", out);
    md_text(out, named ? gpu.name : t->sm_name);
    char words[2 * OCC_NAME_MAX];
    report_target_words(e, words, sizeof words);
    fprintf(out, " (%s", words);
    if (named)
        fprintf(out, ", %s, %d %s", t->sm_name, t->sm_count, report_terms(e).units);
    char usage[512];
    report_usage_sentence(e, usage, sizeof usage);
    fputs(")\n- **Resources:** ", out);
    md_text(out, usage);
    for (int i = 0; report_warning_sentence(e, i, usage, sizeof usage); i++) {
        fputs("\n- **Warning:** ", out);
        md_text(out, usage);
    }
    report_bounds_sentence(e, usage, sizeof usage);
    fputs("\n- **Launch bounds:** ", out);
    md_text(out, usage);
    fputc('\n', out);
    if (e->kernel.absent_on) {
        fputs("- **Targets:** not in this file's compile for ", out);
        md_text(out, e->kernel.absent_on);
        fputs(" (the code tests `__CUDA_ARCH__`): reported only where it exists\n", out);
    }
    if (report_dynamic_smem_note(e, usage, sizeof usage)) {
        fputs("- ", out);
        md_sentence(out, usage);
    }
    if (report_link_note(e, usage, sizeof usage)) {
        fputs("- ", out);
        md_sentence(out, usage);
    }
}

/* ---- 1. the occupancy table --------------------------------------------------- */

static void limit_cell(int limit, char *buf, size_t size)
{
    if (limit == INT_MAX)
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, "%d", limit);
}

/* One row; with `dyn`, a column of its dynamic shared memory after the
 * block size. */
static void print_row(const ReportTerms *terms, const ReportRow *r, bool selected, bool dyn,
                      FILE *out)
{
    char cells[9][128];
    int n = 0;
    snprintf(cells[n++], sizeof cells[0], "%d", r->threads);
    if (dyn)
        format_bytes(r->dynamic_smem, cells[n++], sizeof cells[0]);
    for (int c = 0; c < 4; c++)
        limit_cell(r->fig.limit[terms->columns[c]], cells[n++], sizeof cells[0]);
    snprintf(cells[n++], sizeof cells[0], "%d", r->fig.groups);
    percent(cells[n++], sizeof cells[0], occ_figures_occupancy(&r->fig));
    report_limiter_names(&r->fig, cells[n++], sizeof cells[0]);
    const char *mark = selected ? "**" : "";
    fputc('|', out);
    for (int i = 0; i < n; i++) {
        fprintf(out, " %s", mark);
        md_text(out, cells[i]);
        fprintf(out, "%s |", mark);
    }
    fputc('\n', out);
}

static void print_table(const ReportEntry *e, FILE *out)
{
    if (e->n_rows == 0) {
        fprintf(out, "\n### 1. Occupancy\n\nNo block size the kernel permits runs on %s.\n",
                e->target.sm_name);
        return;
    }
    bool dyn = false;
    ReportTerms terms = report_terms(e);
    for (int i = 0; i < e->n_rows; i++)
        dyn |= e->rows[i].dynamic_smem > 0;
    fprintf(out, "\n### 1. Occupancy\n\n"
                 "%c%s; the selected block size in bold.\n\n| threads |%s",
            toupper((unsigned char)terms.limits[0]), terms.limits + 1,
            !dyn ? "" : e->target.vendor == OCC_AMD ? " dynamic LDS |" : " dynamic smem |");
    for (int c = 0; c < 4; c++)
        fprintf(out, " %s |", terms.column_titles[c]);
    fprintf(out, " %s | occupancy | limited by |\n"
                 "| ---: |%s ---: | ---: | ---: | ---: | ---: | ---: | --- |\n",
            terms.per_unit, dyn ? " ---: |" : "");
    for (int i = 0; i < e->n_rows; i++)
        print_row(&terms, &e->rows[i], i == e->selected, dyn, out);
}

/* ---- 2. the selection --------------------------------------------------------- */

static void print_reasons(const ReportEntry *e, FILE *out)
{
    for (int i = 0; i < e->n_reasons; i++) {
        char sentence[512];
        report_reason_sentence(e, &e->reasons[i], sentence, sizeof sentence);
        fputs("- ", out);
        md_text(out, sentence);
        fputc('\n', out);
    }
}

static void print_selection(const ReportEntry *e, FILE *out)
{
    const ReportRow *r = report_selected(e);
    ReportTerms terms = report_terms(e);
    fputs("\n### 2. Selected configuration\n\n", out);
    if (!r) {
        fprintf(out, "None: no permitted block size has a resident %s on %s.\n", terms.group,
                e->target.sm_name);
        if (e->n_reasons) /* why none is permitted (--only-block-sizes) */
            fputc('\n', out);
        print_reasons(e, out);
        return;
    }
    fprintf(out, "**%d threads per block, %d %s per %s, %.1f%% occupancy", r->threads,
            r->fig.groups, terms.groups, terms.unit, 100.0 * occ_figures_occupancy(&r->fig));
    if (e->target.vendor == OCC_AMD)
        fprintf(out, " (%d waves per SIMD)", r->fig.active);
    if (e->have_work)
        fprintf(out, ", grid %llu %s", (unsigned long long)e->ctas, terms.groups);
    fputs("**\n\n", out);
    print_reasons(e, out);
}

/* ---- 3. the tail ---------------------------------------------------------------- */

static void print_tail_note(const ReportEntry *e, const TailRow *t, FILE *out)
{
    char note[256];
    if (!report_tail_note(e, t, note, sizeof note))
        return;
    fputs("- ", out);
    md_text(out, t->gpu.id);
    fputs(": ", out);
    md_text(out, note);
    fputc('\n', out);
}

static void print_tail(const ReportEntry *e, FILE *out)
{
    const ReportRow *r = report_selected(e);
    fputs("\n### 3. Tail\n\n", out);
    if (!r || !e->have_work) {
        fputs("Give `--work N` (or launch it from a block with a constant grid) for the waves and "
              "the last wave's fill.\n", out);
        return;
    }
    char work[256];
    report_work_sentence(e, work, sizeof work);
    md_sentence(out, work);
    if (e->n_tails)
        fprintf(out, "\n| product | %s | waves | full waves | last wave | idle |\n"
                     "| --- | ---: | ---: | ---: | ---: | ---: |\n", report_terms(e).units);
    for (int i = 0; i < e->n_tails; i++) {
        const TailRow *t = &e->tails[i];
        fputs("| ", out);
        md_text(out, t->gpu.id);
        fprintf(out, " | %d | %.2f | %llu | %.1f%% | %.1f%% |\n", t->sm_count, t->waves.waves,
                (unsigned long long)t->waves.full_waves, 100.0 * t->waves.last_wave_fill,
                100.0 * t->waves.idle_fraction);
    }
    bool notes = false;
    for (int i = 0; i < e->n_tails; i++)
        if (e->tails[i].better_threads || e->tails[i].undersubscribed || e->tails[i].bad) {
            if (!notes)
                fputc('\n', out);
            notes = true;
            print_tail_note(e, &e->tails[i], out);
        }
}

/* ---- 4. launch bounds ------------------------------------------------------------ */

static void print_bounds(const ReportEntry *e, FILE *out)
{
    char advice[512], check[512];
    fputs(e->kernel.input == INPUT_SILK     ? "\n### 4. `@launch` / `__launch_bounds__`\n\n"
          : e->cap.form == CAP_FORM_MAXNREG ? "\n### 4. `__maxnreg__`\n\n"
                                            : "\n### 4. `__launch_bounds__`\n\n",
          out);
    if (!report_bounds_advice(e, advice, check, sizeof advice)) {
        fputs("None.\n", out);
        return;
    }
    md_sentence(out, advice);
    if (check[0]) {
        fputc('\n', out);
        md_sentence(out, check);
    }
    if (report_bound_cost_sentence(e, check, sizeof check)) {
        fputc('\n', out);
        md_sentence(out, check);
    }
}

/* ---- 5.-7. host code, grid validity, verification ----------------------------- */

static void print_launch(const ReportEntry *e, FILE *out)
{
    char code[REPORT_CODE_SIZE];
    fputs("\n### 5. Host launch code\n", out);
    if (e->kernel.input == INPUT_SILK) {
        report_silk_launch(e, code, sizeof code);
        md_fence(out, "silk", code);
    }
    const char *language = e->target.vendor == OCC_AMD ? "hip" : "cuda";
    report_cuda_launch(e, code, sizeof code);
    md_fence(out, language, code);
    fputs("\n### 6. Grid validity\n\n", out);
    report_grid_sentence(e, code, sizeof code);
    md_sentence(out, code);
    if (report_cluster_sentence(e, code, sizeof code))
        md_sentence(out, code);
    if (report_smem_optin_sentence(e, code, sizeof code))
        md_sentence(out, code);
    fputs("\n### 7. Verification\n", out);
    report_verify_snippet(e, code, sizeof code);
    if (code[0])
        md_fence(out, language, code);
    else
        fputs("\nNone: no block size runs.\n", out);
}

/* ---- the persistent grid, spills, the next step ------------------------------- */

static void print_persistent(const ReportEntry *e, FILE *out)
{
    fputs("\n### Persistent grid\n\n", out);
    if (!e->n_persistent) {
        fputs("No product of this architecture in the tables.\n", out);
        return;
    }
    ReportTerms terms = report_terms(e);
    fprintf(out, "%s x resident %s at the selected block size.\n\n"
                 "| product | %s | grid |\n| --- | ---: | ---: |\n",
            terms.units, terms.groups, terms.units);
    for (int i = 0; i < e->n_persistent; i++) {
        fputs("| ", out);
        md_text(out, e->persistent[i].gpu.id);
        fprintf(out, " | %d | %d |\n", e->persistent[i].gpu.sm_count, e->persistent[i].grid);
    }
}

static void print_next_step(const ReportEntry *e, const ReportRow *r, FILE *out)
{
    char sentence[512];
    if (report_spill_sentence(e, r, sentence, sizeof sentence)) {
        fputs("\n**Spills:** ", out);
        md_rich(out, sentence);
        fputs(".\n", out);
    }
    fputs("\n### Next step\n\n", out);
    report_next_step_sentence(e, sentence, sizeof sentence);
    md_sentence(out, sentence);
}

int report_write_markdown(const ReportModel *m, FILE *out)
{
    char **titles = report_titles_make(m);
    if (!titles) {
        cli_error("report", "out of memory writing the markdown report");
        return EXIT_ENVIRONMENT;
    }
    for (int i = 0; i < m->n_entries; i++) {
        const ReportEntry *e = &m->entries[i];
        if (i)
            fputc('\n', out);
        print_header(e, titles[i], out);
        print_table(e, out);
        print_selection(e, out);
        print_tail(e, out);
        print_bounds(e, out);
        print_launch(e, out);
        if (report_selected(e)) {
            print_persistent(e, out);
            print_next_step(e, report_selected(e), out);
        }
    }
    report_titles_free(titles);
    return EXIT_OK;
}
