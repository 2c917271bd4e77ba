/*
 * diff_text.c: `silk-occ diff` for people at a terminal: one line per
 * kernel x target whose figures moved, one per kernel added or removed,
 * and a summary line.  Kernel names, architectures and GPU names come from
 * the reports, which anyone may have written: each is printed through
 * ESCAPED, so that an escape sequence or a newline in one shows as text
 * instead of recolouring the terminal or forging a line.  Also the words
 * of what moved (diff_describe), which the markdown writer shares.
 */
#include "diff_model.h"

#include "escape.h"
#include "exit_status.h"

#include <stdarg.h>
#include <string.h>

typedef struct Words {
    char *buf;
    size_t size, len;
} Words;

/* Appends ", " and the formatted item; cut (never overrun) at the end. */
__attribute__((format(printf, 2, 3))) static void add(Words *w, const char *fmt, ...)
{
    if (w->len + 1 >= w->size)
        return;
    if (w->len) {
        snprintf(w->buf + w->len, w->size - w->len, ", ");
        w->len = strlen(w->buf);
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->buf + w->len, w->size - w->len, fmt, ap);
    va_end(ap);
    w->len = strlen(w->buf);
}

static void add_selected(Words *w, const DiffFigures *o, const DiffFigures *n)
{
    if (o->selected && !n->selected) {
        add(w, "no launchable block size (was %lld)", o->threads);
        return;
    }
    if (!o->selected && n->selected) {
        add(w, "launchable at block size %lld", n->threads);
        return;
    }
    if (!o->selected)
        return;
    if (o->threads != n->threads)
        add(w, "block size %lld -> %lld", o->threads, n->threads);
    if (o->ctas > n->ctas)
        add(w, "CTAs/SM %lld -> %lld (lost %lld)", o->ctas, n->ctas, o->ctas - n->ctas);
    if (o->ctas < n->ctas)
        add(w, "CTAs/SM %lld -> %lld (gained %lld)", o->ctas, n->ctas, n->ctas - o->ctas);
    char a[16], b[16];
    snprintf(a, sizeof a, "%.1f%%", 100.0 * o->occupancy);
    snprintf(b, sizeof b, "%.1f%%", 100.0 * n->occupancy);
    if (strcmp(a, b) != 0)
        add(w, "occupancy %s -> %s", a, b);
}

/* A kernel only one report has: its figures there. */
static void add_one_side(Words *w, const char *word, const DiffFigures *f)
{
    add(w, "%s: registers %lld", word, f->regs);
    if (f->static_smem)
        add(w, "shared memory %lld bytes", f->static_smem);
    if (f->spills)
        add(w, "spills %lld bytes", f->spills);
    if (f->selected)
        add(w, "block size %lld, CTAs/SM %lld, occupancy %.1f%%", f->threads, f->ctas,
            100.0 * f->occupancy);
    else
        add(w, "no launchable block size");
}

void diff_describe(const DiffPair *p, char *buf, size_t size)
{
    Words w = {buf, size, 0};
    buf[0] = '\0';
    if (p->status == DIFF_ADDED || p->status == DIFF_REMOVED) {
        add_one_side(&w, p->status == DIFF_ADDED ? "added" : "removed",
                     p->status == DIFF_ADDED ? &p->new : &p->old);
        return;
    }
    const DiffFigures *o = &p->old, *n = &p->new;
    if (o->regs != n->regs)
        add(&w, "registers %lld -> %lld", o->regs, n->regs);
    if (o->static_smem != n->static_smem)
        add(&w, "shared memory %lld -> %lld bytes", o->static_smem, n->static_smem);
    if (o->spills != n->spills)
        add(&w, "spills %lld -> %lld bytes", o->spills, n->spills);
    add_selected(&w, o, n);
    if (!w.len)
        add(&w, "no change");
}

static void summary(const DiffModel *m, FILE *out)
{
    const size_t *c = m->count;
    size_t compared = c[DIFF_UNCHANGED] + c[DIFF_NEUTRAL] + c[DIFF_IMPROVEMENT] + c[DIFF_REGRESSION];
    fprintf(out,
            "%zu %s compared: %zu regression%s, %zu improvement%s, %zu neutral, %zu unchanged; "
            "%zu added, %zu removed\n",
            compared, compared == 1 ? "kernel x target" : "kernels x targets",
            c[DIFF_REGRESSION], c[DIFF_REGRESSION] == 1 ? "" : "s", c[DIFF_IMPROVEMENT],
            c[DIFF_IMPROVEMENT] == 1 ? "" : "s", c[DIFF_NEUTRAL], c[DIFF_UNCHANGED],
            c[DIFF_ADDED], c[DIFF_REMOVED]);
}

int diff_write_text(const DiffModel *m, FILE *out)
{
    char what[512];
    for (size_t i = 0; i < m->n_pairs; i++) {
        const DiffPair *p = &m->pairs[i];
        if (p->status == DIFF_UNCHANGED)
            continue;
        diff_describe(p, what, sizeof what);
        fprintf(out, "%s on %s", ESCAPED(p->kernel), ESCAPED(p->arch));
        if (p->gpu)
            fprintf(out, " (%s)", ESCAPED(p->gpu));
        fprintf(out, ": %s%s\n", what,
                p->status == DIFF_REGRESSION    ? "  REGRESSION"
                : p->status == DIFF_IMPROVEMENT ? "  improvement"
                                                : "");
    }
    if (m->count[DIFF_UNCHANGED] == m->n_pairs)
        fputs("no change\n", out);
    summary(m, out);
    return EXIT_OK;
}
