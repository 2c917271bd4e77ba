/*
 * arch_lookup.c: finding rows of the architecture tables by name, "did you
 * mean" for names that are not there, and the tables built into the binary.
 */
#include "edit_distance.h"
#include "occupancy.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* The CSV text of arch-tables/, embedded at build time (builtin_tables.c). */
extern const char silk_builtin_compute_capabilities_csv[];
extern const char silk_builtin_products_csv[];

int arch_table_load_builtin(ArchTable *table, OccError *err)
{
    *table = (ArchTable){0};
    if (arch_table_load_text(table, silk_builtin_compute_capabilities_csv,
                             strlen(silk_builtin_compute_capabilities_csv),
                             "<built-in compute-capabilities.csv>", err) != 0 ||
        arch_table_load_text(table, silk_builtin_products_csv, strlen(silk_builtin_products_csv),
                             "<built-in products.csv>", err) != 0) {
        arch_table_free(table);
        return -1;
    }
    return 0;
}

const char *arch_sm_name(const ArchLimits *arch, char *buf, size_t size)
{
    snprintf(buf, size, "sm_%d%d", arch->major, arch->minor);
    return buf;
}

/* Calls `visit` with every name of the architecture; stops when it returns
 * true, and returns true then. */
typedef bool (*NameVisitor)(const char *name, void *context);

static bool each_alias(const char *aliases, NameVisitor visit, void *context)
{
    char name[OCC_ALIASES_MAX];
    const char *p = aliases;
    while (*p) {
        size_t n = strcspn(p, ";");
        if (n > 0 && n < sizeof name) {
            memcpy(name, p, n);
            name[n] = '\0';
            if (visit(name, context))
                return true;
        }
        p += n + (p[n] == ';');
    }
    return false;
}

static bool each_arch_name(const ArchLimits *a, NameVisitor visit, void *context)
{
    char name[32];
    snprintf(name, sizeof name, "%d.%d", a->major, a->minor);
    if (visit(name, context))
        return true;
    snprintf(name, sizeof name, "sm_%d%d", a->major, a->minor);
    if (visit(name, context))
        return true;
    snprintf(name, sizeof name, "compute_%d%d", a->major, a->minor);
    if (visit(name, context))
        return true;
    return each_alias(a->aliases, visit, context);
}

static bool each_product_name(const GpuProduct *g, NameVisitor visit, void *context)
{
    return visit(g->id, context) || each_alias(g->aliases, visit, context);
}

static bool name_equals(const char *name, void *wanted)
{
    return strcasecmp(name, wanted) == 0;
}

const ArchLimits *arch_table_find(const ArchTable *t, const char *name)
{
    for (size_t i = 0; i < t->n_archs; i++)
        if (each_arch_name(&t->archs[i], name_equals, (void *)name))
            return &t->archs[i];
    return NULL;
}

const GpuProduct *arch_table_find_product(const ArchTable *t, const char *name)
{
    for (size_t i = 0; i < t->n_products; i++)
        if (each_product_name(&t->products[i], name_equals, (void *)name))
            return &t->products[i];
    return NULL;
}

const ArchLimits *arch_table_product_arch(const ArchTable *t, const GpuProduct *g)
{
    for (size_t i = 0; i < t->n_archs; i++)
        if (t->archs[i].major == g->major && t->archs[i].minor == g->minor)
            return &t->archs[i];
    return NULL;
}

/* ---- did you mean ----------------------------------------------------------- */

enum { MAX_NAME = 64 };


typedef struct Suggestion {
    const char *wanted;
    char best[OCC_ALIASES_MAX];
    int distance;
    size_t prefix; /* of the best with `wanted` */
} Suggestion;

static size_t common_prefix(const char *a, const char *b)
{
    size_t n = 0;
    while (a[n] && tolower((unsigned char)a[n]) == tolower((unsigned char)b[n]))
        n++;
    return n;
}

/* The closest name wins; among equally close ones, the one that shares the
 * longest prefix ("sm_91" is nearer "sm_90" than "sm_61"). */
static bool consider(const char *name, void *context)
{
    Suggestion *s = context;
    int d = edit_distance(s->wanted, name, true);
    size_t prefix = common_prefix(s->wanted, name);
    if (d < s->distance || (d == s->distance && prefix > s->prefix)) {
        s->distance = d;
        s->prefix = prefix;
        snprintf(s->best, sizeof s->best, "%s", name);
    }
    return false;
}

const char *arch_table_suggest(const ArchTable *t, const char *name, int kinds, char *buf,
                               size_t size)
{
    Suggestion s = {.wanted = name, .distance = MAX_NAME};
    for (size_t i = 0; (kinds & OCC_SUGGEST_ARCHS) && i < t->n_archs; i++)
        each_arch_name(&t->archs[i], consider, &s);
    for (size_t i = 0; (kinds & OCC_SUGGEST_PRODUCTS) && i < t->n_products; i++)
        each_product_name(&t->products[i], consider, &s);
    /* A third of the name may be wrong, and at least one character: more
     * than that on a short name suggests names that merely share a digit. */
    int allowed = (int)strlen(name) / 3;
    if (allowed < 1)
        allowed = 1;
    if (s.distance > allowed)
        return NULL;
    snprintf(buf, size, "%s", s.best);
    return buf;
}
