/*
 * diff_markdown.c: `silk-occ diff --format markdown`, a pull-request
 * comment: a heading with the verdict, a table of the kernels x targets
 * that moved (kernel, target, what changed, verdict) and the counts.
 *
 * A name from a report is outside text twice over here: escape_text first
 * makes its control characters visible (\x1b), then every character that
 * markdown or a table reads (a pipe would split the cell, a backtick open
 * code, a < start HTML) is written behind a backslash, as
 * report_markdown.c writes names.
 */
#include "diff_model.h"

#include "escape.h"
#include "exit_status.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* One table cell's worth of outside text. */
static void md_cell(FILE *out, const char *text)
{
    const char *plain = ESCAPED(text);
    for (size_t i = 0; plain[i]; i++) {
        /* GitHub reads no emphasis in an underscore inside a word (sm_90). */
        bool in_word = plain[i] == '_' && i > 0 && isalnum((unsigned char)plain[i - 1]) &&
                       isalnum((unsigned char)plain[i + 1]);
        if (strchr("\\`*_[]<>|~#&!", plain[i]) && !in_word)
            fputc('\\', out);
        fputc(plain[i], out);
    }
}

static const char *verdict(DiffStatus s)
{
    static const char *const words[] = {"unchanged", "neutral", "improvement",
                                        "**regression**", "added", "removed"};
    return words[s];
}

static void row(FILE *out, const DiffPair *p)
{
    char what[512];
    diff_describe(p, what, sizeof what);
    fputs("| ", out);
    md_cell(out, p->kernel);
    fputs(" | ", out);
    md_cell(out, p->arch);
    if (p->gpu) {
        fputs(" (", out);
        md_cell(out, p->gpu);
        fputs(")", out);
    }
    fprintf(out, " | %s | %s |\n", what, verdict(p->status));
}

int diff_write_markdown(const DiffModel *m, FILE *out)
{
    const size_t *c = m->count;
    size_t regressions = c[DIFF_REGRESSION];
    if (regressions)
        fprintf(out, "### silk-occ diff: %zu regression%s\n\n", regressions,
                regressions == 1 ? "" : "s");
    else
        fputs("### silk-occ diff: no regression\n\n", out);
    if (c[DIFF_UNCHANGED] == m->n_pairs)
        fputs("No change.\n\n", out);
    else {
        fputs("| kernel | target | what changed | verdict |\n| --- | --- | --- | --- |\n", out);
        for (size_t i = 0; i < m->n_pairs; i++)
            if (m->pairs[i].status != DIFF_UNCHANGED)
                row(out, &m->pairs[i]);
        fputc('\n', out);
    }
    size_t compared = c[DIFF_UNCHANGED] + c[DIFF_NEUTRAL] + c[DIFF_IMPROVEMENT] + regressions;
    fprintf(out,
            "%zu compared: %zu regression%s, %zu improvement%s, %zu neutral, %zu unchanged; "
            "%zu added, %zu removed.\n",
            compared, regressions, regressions == 1 ? "" : "s", c[DIFF_IMPROVEMENT],
            c[DIFF_IMPROVEMENT] == 1 ? "" : "s", c[DIFF_NEUTRAL], c[DIFF_UNCHANGED],
            c[DIFF_ADDED], c[DIFF_REMOVED]);
    return EXIT_OK;
}
