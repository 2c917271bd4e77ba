/*
 * diff_model.c: reads two silk-occ reports and pairs their kernels per
 * kernel x target, with a verdict for each pair (diff_model.h).
 *
 * The reports are outside text like any input: read through read_file
 * (bounded), parsed by cJSON, and every key the diff uses checked for its
 * type before use, so that a file that is JSON but not a report, or a
 * report cut or edited by hand, gets one line naming the entry and the key
 * instead of a crash.  Entries pair by symbol, architecture and GPU; a
 * key met twice in one report (the same kernel in two files of one run)
 * pairs in order of appearance.
 */
#include "diff_model.h"

#include "json_file.h"
#include "read_file.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const SCHEMA = "silk-occ/report/3";

/* Occupancies are fractions written by the same program; closer than this
 * they are the same figure. */
static const double SAME = 1e-9;

typedef struct Reader {
    const char *path;
    char *error;
    size_t size;
} Reader;

static bool bad_entry(const Reader *r, int index, const char *key, const char *why)
{
    snprintf(r->error, r->size, "%s: reports[%d].%s: %s", r->path, index, key, why);
    return false;
}

/* The report's JSON; NULL with the reason in r->error ("FILE:LINE:COL:
 * not valid JSON" at the byte cJSON stopped at, as verify records say it). */
static cJSON *parse(const Reader *r)
{
    JsonFileError why;
    cJSON *root = json_file_parse(r->path, READ_FILE_CODE_LIMIT_MIB, &why);
    char words[256];
    if (!root)
        snprintf(r->error, r->size, "%s%s", r->path,
                 json_file_error(&why, READ_FILE_CODE_LIMIT_MIB, words, sizeof words));
    return root;
}

/* A whole number of at least 0 (registers, bytes, CTAs). */
static bool count_at(const Reader *r, int index, const cJSON *o, const char *parent,
                     const char *key, long long *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    char where[64];
    snprintf(where, sizeof where, "%s.%s", parent, key);
    if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 1e15 ||
        v->valuedouble != floor(v->valuedouble))
        return bad_entry(r, index, where, "missing, or not a count");
    *out = (long long)v->valuedouble;
    return true;
}

static bool read_selected(const Reader *r, int index, const cJSON *s, DiffFigures *f)
{
    if (cJSON_IsNull(s))
        return true;
    if (!cJSON_IsObject(s))
        return bad_entry(r, index, "selected", "missing, or not an object or null");
    const cJSON *occ = cJSON_GetObjectItemCaseSensitive(s, "occupancy");
    if (!cJSON_IsNumber(occ) || !(occ->valuedouble >= 0 && occ->valuedouble <= 1))
        return bad_entry(r, index, "selected.occupancy", "missing, or not a fraction from 0 to 1");
    f->selected = true;
    f->occupancy = occ->valuedouble;
    return count_at(r, index, s, "selected", "threads", &f->threads) &&
           count_at(r, index, s, "selected", "active_blocks_per_sm", &f->ctas);
}

static bool read_figures(const Reader *r, int index, const cJSON *e, DiffFigures *f)
{
    const cJSON *res = cJSON_GetObjectItemCaseSensitive(e, "resources");
    if (!cJSON_IsObject(res))
        return bad_entry(r, index, "resources", "missing, or not an object");
    long long stores, loads;
    if (!count_at(r, index, res, "resources", "regs_per_thread", &f->regs) ||
        !count_at(r, index, res, "resources", "static_smem", &f->static_smem) ||
        !count_at(r, index, res, "resources", "spill_stores", &stores) ||
        !count_at(r, index, res, "resources", "spill_loads", &loads))
        return false;
    f->spills = stores + loads;
    return read_selected(r, index, cJSON_GetObjectItemCaseSensitive(e, "selected"), f);
}

static const char *string_at(const Reader *r, int index, const cJSON *e, const char *key,
                             bool nullable, bool *ok)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, key);
    if (cJSON_IsString(v))
        return v->valuestring;
    if (!(nullable && cJSON_IsNull(v)))
        *ok = bad_entry(r, index, key, nullable ? "missing, or not a string or null"
                                                : "missing, or not a string");
    return NULL;
}

/* One entry of .reports[] as one side of a pair. */
static bool read_entry(const Reader *r, int index, const cJSON *e, DiffPair *p, bool is_old)
{
    if (!cJSON_IsObject(e)) {
        snprintf(r->error, r->size, "%s: reports[%d]: not an object", r->path, index);
        return false;
    }
    bool ok = true;
    p->kernel = string_at(r, index, e, "kernel", false, &ok);
    p->symbol = ok ? string_at(r, index, e, "symbol", false, &ok) : NULL;
    p->arch = ok ? string_at(r, index, e, "arch", false, &ok) : NULL;
    p->gpu = ok ? string_at(r, index, e, "gpu", true, &ok) : NULL;
    if (!ok)
        return false;
    (is_old ? &p->has_old : &p->has_new)[0] = true;
    return read_figures(r, index, e, is_old ? &p->old : &p->new);
}

/* The report's .reports[], after its schema is checked. */
static const cJSON *entries(const Reader *r, const cJSON *root)
{
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
    if (!cJSON_IsObject(root) || !cJSON_IsString(schema) || strcmp(schema->valuestring, SCHEMA) != 0) {
        snprintf(r->error, r->size,
                 "%s: not a silk-occ report (\"schema\": \"%s\"; 'silk-occ report --format json' writes one)",
                 r->path, SCHEMA);
        return NULL;
    }
    const cJSON *reports = cJSON_GetObjectItemCaseSensitive(root, "reports");
    if (!cJSON_IsArray(reports))
        snprintf(r->error, r->size, "%s: reports: missing, or not an array", r->path);
    return cJSON_IsArray(reports) ? reports : NULL;
}

/* ---- verdicts -------------------------------------------------------------- */

/* Fewer CTAs per SM at the same size, or at a new size with a lower
 * occupancy too (a smaller block holds more CTAs of less work). */
static bool lost_cta(const DiffFigures *from, const DiffFigures *to)
{
    if (!from->selected || !to->selected || to->ctas >= from->ctas)
        return false;
    return from->threads == to->threads || to->occupancy < from->occupancy - SAME;
}

static unsigned reasons_of(const DiffFigures *o, const DiffFigures *n, double tolerance)
{
    unsigned r = 0;
    double drop = 100.0 * (o->occupancy - n->occupancy);
    if (lost_cta(o, n))
        r |= DIFF_LOST_CTA;
    if (lost_cta(n, o))
        r |= DIFF_GAINED_CTA;
    if (o->selected && n->selected && drop > tolerance + SAME)
        r |= DIFF_OCCUPANCY_DROP;
    if (o->selected && n->selected && -drop > tolerance + SAME)
        r |= DIFF_OCCUPANCY_RISE;
    if (n->spills > o->spills)
        r |= DIFF_NEW_SPILLS;
    if (n->spills < o->spills)
        r |= DIFF_FEWER_SPILLS;
    if (o->selected && !n->selected)
        r |= DIFF_NO_SIZE;
    if (!o->selected && n->selected)
        r |= DIFF_GAINED_SIZE;
    return r;
}

static bool same_figures(const DiffFigures *a, const DiffFigures *b)
{
    if (a->regs != b->regs || a->static_smem != b->static_smem || a->spills != b->spills ||
        a->selected != b->selected)
        return false;
    return !a->selected || (a->threads == b->threads && a->ctas == b->ctas &&
                            fabs(a->occupancy - b->occupancy) <= SAME);
}

static void judge(DiffPair *p, double tolerance)
{
    enum { WORSE = DIFF_LOST_CTA | DIFF_OCCUPANCY_DROP | DIFF_NEW_SPILLS | DIFF_NO_SIZE };
    if (!p->has_old || !p->has_new) {
        p->status = p->has_new ? DIFF_ADDED : DIFF_REMOVED;
        return;
    }
    p->reasons = reasons_of(&p->old, &p->new, tolerance);
    if (p->reasons & WORSE) {
        p->reasons &= WORSE; /* a regression is judged by what got worse */
        p->status = DIFF_REGRESSION;
    } else if (p->reasons)
        p->status = DIFF_IMPROVEMENT;
    else
        p->status = same_figures(&p->old, &p->new) ? DIFF_UNCHANGED : DIFF_NEUTRAL;
}

/* ---- pairing --------------------------------------------------------------- */

/* The old entries sorted by key, and within a key in their order, so that
 * pairing is n log n: a report of a million entries (what the read limit
 * allows) must not take n squared comparisons. */
static int by_order(const void *a, const void *b)
{
    const DiffPair *x = a, *y = b;
    return (x->order > y->order) - (x->order < y->order);
}

static int key_cmp(const DiffPair *a, const DiffPair *b)
{
    int c = strcmp(a->symbol, b->symbol);
    if (!c)
        c = strcmp(a->arch, b->arch);
    if (!c && (a->gpu != NULL) != (b->gpu != NULL))
        c = a->gpu ? 1 : -1;
    if (!c && a->gpu)
        c = strcmp(a->gpu, b->gpu);
    return c;
}

static int by_key(const void *a, const void *b)
{
    const DiffPair *x = a, *y = b;
    int c = key_cmp(x, y);
    return c ? c : (x->order > y->order) - (x->order < y->order);
}

/* The first of sorted[0..n) whose key is not below p's. */
static size_t lower_bound(const DiffPair *sorted, size_t n, const DiffPair *p)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (key_cmp(&sorted[mid], p) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The new report's entries, each joined by the first unpaired old entry of
 * its key (used[g] counts those taken from the key that starts at g); then
 * the old entries left over (removed), in their order. */
static bool pair_all(const Reader *ro, const cJSON *old, const Reader *rn, const cJSON *new,
                     DiffModel *m)
{
    size_t n_old = (size_t)cJSON_GetArraySize(old), n_new = (size_t)cJSON_GetArraySize(new);
    DiffPair *olds = calloc(n_old + 1, sizeof *olds);
    size_t *used = calloc(n_old + 1, sizeof *used);
    m->pairs = calloc(n_old + n_new + 1, sizeof *m->pairs);
    bool ok = olds && used && m->pairs;
    if (!ok)
        snprintf(ro->error, ro->size, "out of memory pairing the reports");
    size_t i = 0;
    for (const cJSON *e = old->child; ok && e; e = e->next, i++) {
        ok = read_entry(ro, (int)i, e, &olds[i], true);
        olds[i].order = i;
    }
    if (ok)
        qsort(olds, n_old, sizeof *olds, by_key);
    i = 0;
    for (const cJSON *e = new->child; ok && e; e = e->next, i++) {
        DiffPair *p = &m->pairs[m->n_pairs++];
        ok = read_entry(rn, (int)i, e, p, false);
        size_t g = ok ? lower_bound(olds, n_old, p) : n_old;
        size_t at = g + (g < n_old ? used[g] : 0);
        if (at < n_old && key_cmp(&olds[at], p) == 0) {
            used[g]++;
            olds[at].taken = true;
            p->has_old = true;
            p->old = olds[at].old;
        }
    }
    size_t first_removed = m->n_pairs;
    for (size_t j = 0; ok && j < n_old; j++)
        if (!olds[j].taken)
            m->pairs[m->n_pairs++] = olds[j];
    if (ok) /* back in the old report's order */
        qsort(m->pairs + first_removed, m->n_pairs - first_removed, sizeof *m->pairs, by_order);
    free(olds);
    free(used);
    return ok;
}

static int group_of(DiffStatus s)
{
    return s == DIFF_ADDED ? 1 : s == DIFF_REMOVED ? 2 : 0;
}

/* Paired first, then added, then removed, each in the order they were
 * paired in: the order the writers show. */
static bool order_pairs(DiffModel *m, const Reader *r)
{
    DiffPair *sorted = calloc(m->n_pairs + 1, sizeof *sorted);
    if (!sorted) {
        snprintf(r->error, r->size, "out of memory pairing the reports");
        return false;
    }
    size_t n = 0;
    for (int g = 0; g < 3; g++)
        for (size_t i = 0; i < m->n_pairs; i++)
            if (group_of(m->pairs[i].status) == g)
                sorted[n++] = m->pairs[i];
    free(m->pairs);
    m->pairs = sorted;
    return true;
}

bool diff_build(const char *old_path, const char *new_path, double tolerance, DiffModel *m,
                char *error, size_t size)
{
    *m = (DiffModel){.old_path = old_path, .new_path = new_path, .tolerance = tolerance};
    Reader ro = {old_path, error, size}, rn = {new_path, error, size};
    const cJSON *old = NULL, *new = NULL;
    bool ok = (m->old_doc = parse(&ro)) && (old = entries(&ro, m->old_doc)) &&
              (m->new_doc = parse(&rn)) && (new = entries(&rn, m->new_doc)) &&
              pair_all(&ro, old, &rn, new, m);
    for (size_t i = 0; ok && i < m->n_pairs; i++) {
        judge(&m->pairs[i], tolerance);
        m->count[m->pairs[i].status]++;
    }
    ok = ok && order_pairs(m, &ro);
    if (!ok)
        diff_free(m);
    return ok;
}

void diff_free(DiffModel *m)
{
    free(m->pairs);
    cJSON_Delete(m->old_doc);
    cJSON_Delete(m->new_doc);
    m->pairs = NULL;
    m->old_doc = m->new_doc = NULL;
    m->n_pairs = 0;
}

bool diff_has_regression(const DiffModel *m)
{
    return m->count[DIFF_REGRESSION] > 0;
}

const char *diff_status_name(DiffStatus s)
{
    static const char *const names[] = {"unchanged", "neutral", "improvement",
                                        "regression", "added", "removed"};
    return names[s];
}

const char *diff_reason_name(int bit)
{
    static const char *const names[DIFF_N_REASONS] = {
        "lost_cta", "occupancy_drop", "new_spills", "no_launchable_size",
        "gained_cta", "occupancy_rise", "fewer_spills", "launchable_size"};
    return names[bit];
}
