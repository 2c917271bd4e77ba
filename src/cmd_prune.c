/*
 * cmd_prune.c: `silk-occ prune SPACE.json --arch LIST`: every
 * configuration of a tuning space judged on each architecture before
 * anything is compiled (issue 26): the feasible ones with their CTAs per
 * SM, by occupancy, and the dropped ones each with the first limit it
 * breaks.  The verdicts are occ_prune_config's (the one the Python module
 * calls); this file reads the options, walks the space and sorts.
 */
#include "prune_model.h"

#include "escape.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char *const COMMAND = "prune";

typedef struct PruneOptions {
    char *archs;
    const char *space;
    OutputFormat format;
    char *tables[MAX_TABLE_FILES];
    int n_tables;
} PruneOptions;

void cmd_prune_usage(FILE *out)
{
    fputs("usage: silk-occ prune SPACE.json --arch LIST [--format text|json]\n"
          "\n"
          "Which configurations of a tuning space can run on each architecture, with\n"
          "their CTAs per SM and occupancy, and why each other one cannot.\n"
          "\n"
          "  --arch LIST        NVIDIA architectures: sm_80,sm_90,sm_120\n"
          "  --format F         text | json\n"
          "  --arch-table FILE  add or override table rows (may be repeated)\n"
          "\n"
          "SPACE: {\"parameters\": {\"BLOCK_M\": [64, 128], \"STAGES\": [2, 3], \"WARPS\": [4, 8]},\n"
          "        \"threads\": \"WARPS*32\", \"smem\": \"BLOCK_M*64*STAGES\", \"regs\": 128}\n"
          "with threads, regs, smem, dyn_smem and cluster each a number or a formula of\n"
          "the parameters (+ - * / ( ), K and M suffixes; smem and the others may also\n"
          "use threads and warps).  At most 1000000 configurations.  See silk-occ(1).\n",
          out);
}

static const struct option long_options[] = {
    {"arch", required_argument, NULL, 'a'},   {"format", required_argument, NULL, 'f'},
    {"arch-table", required_argument, NULL, 'T'}, {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static bool take_option(int c, char *arg, void *context)
{
    PruneOptions *o = context;
    switch (c) {
    case 'a': o->archs = arg; return true;
    case 'f': return cli_parse_format(COMMAND, arg, false, &o->format);
    case 'T': return target_add_table_file(COMMAND, o->tables, &o->n_tables, arg);
    }
    return false;
}

static int parse_options(int argc, char **argv, PruneOptions *o)
{
    *o = (PruneOptions){0};
    int first;
    int rc = cli_getopt(COMMAND, argc, argv, "T", long_options, cmd_prune_usage, take_option, o,
                        &first);
    if (rc != EXIT_OK)
        return rc;
    if (first == argc) {
        cli_error(COMMAND, "give the tuning space: silk-occ prune SPACE.json --arch LIST");
        return EXIT_USAGE;
    }
    if (first + 1 < argc) {
        cli_error(COMMAND, "unexpected argument '%s' (one space at a time)", QUOTED(argv[first + 1]));
        return EXIT_USAGE;
    }
    if (!o->archs) {
        cli_error(COMMAND, "--arch: required (the architectures to prune for: sm_80,sm_90)");
        return EXIT_USAGE;
    }
    o->space = argv[first];
    return EXIT_OK;
}

/* ---- the targets ---------------------------------------------------------- */

enum { PRUNE_MAX_TARGETS = 32 };

typedef struct TargetList {
    const ArchTable *table;
    const AmdTable *amd;
    PruneTarget *targets;
    size_t n;
} TargetList;

static bool take_arch(char *name, void *context)
{
    TargetList *l = context;
    Target t;
    if (target_resolve_amd(l->amd, name, false, &t)) {
        cli_error(COMMAND, "--arch: %s: prune takes NVIDIA architectures (AMD targets are not "
                           "pruned yet)", QUOTED(name));
        return false;
    }
    if (!target_resolve_arch(COMMAND, l->table, name, &t))
        return false;
    for (size_t i = 0; i < l->n; i++)
        if (l->targets[i].target.arch == t.arch) {
            cli_error(COMMAND, "--arch: %s given twice", t.sm_name);
            return false;
        }
    if (l->n == PRUNE_MAX_TARGETS) {
        cli_error(COMMAND, "--arch: more than %d architectures", PRUNE_MAX_TARGETS);
        return false;
    }
    l->targets[l->n++] = (PruneTarget){.target = t};
    return true;
}

/* ---- the verdicts --------------------------------------------------------- */

/* Feasible first, by occupancy (more first), then the space's order;
 * dropped after, in the space's order. */
static int compare_records(const void *a, const void *b)
{
    const PruneRecord *x = a, *y = b;
    bool fx = x->verdict.reason == OCC_PRUNE_FEASIBLE, fy = y->verdict.reason == OCC_PRUNE_FEASIBLE;
    if (fx != fy)
        return fx ? -1 : 1;
    if (fx) {
        double ox = occ_figures_occupancy(&x->verdict.figures);
        double oy = occ_figures_occupancy(&y->verdict.figures);
        if (ox != oy)
            return ox > oy ? -1 : 1;
    }
    return x->index < y->index ? -1 : x->index > y->index;
}

static bool judge(const char *path, const PruneSpace *s, PruneTarget *t)
{
    const ArchLimits *a = t->target.arch;
    t->records = malloc(s->n_configs * sizeof *t->records);
    if (!t->records) {
        cli_error(COMMAND, "out of memory for %zu configurations", s->n_configs);
        return false;
    }
    for (size_t i = 0; i < s->n_configs; i++) {
        PruneRecord *r = &t->records[i];
        r->index = (uint32_t)i;
        if (!prune_space_config(path, s, i, a->warp_size, &r->config))
            return false;
        if (occ_prune_config(a, &r->config, &r->verdict) != OCC_OK) {
            cli_error(COMMAND, "the tables' row for %s cannot be used for this calculation",
                      t->target.sm_name);
            return false;
        }
        t->n_feasible += r->verdict.reason == OCC_PRUNE_FEASIBLE;
    }
    t->n_records = s->n_configs;
    qsort(t->records, t->n_records, sizeof *t->records, compare_records);
    return true;
}

/* The formulas have a value at every configuration for every target, so
 * that no error comes once the output has begun: they depend on the
 * target only through its warp size (warps), so the first target judged
 * checks them for its size, and a pass here for each other size. */
static bool check_formulas(const char *path, const PruneSpace *s, const PruneTarget *targets,
                           size_t n)
{
    for (size_t i = 1; i < n; i++) {
        int warp = targets[i].target.arch->warp_size;
        bool seen = false;
        for (size_t j = 0; j < i; j++)
            seen |= targets[j].target.arch->warp_size == warp;
        OccPruneConfig c;
        for (size_t k = 0; !seen && k < s->n_configs; k++)
            if (!prune_space_config(path, s, k, warp, &c))
                return false;
    }
    return true;
}

static int prune_all(const PruneOptions *o, const PruneSpace *s, PruneTarget *targets, size_t n)
{
    if (!check_formulas(o->space, s, targets, n))
        return EXIT_USAGE;
    /* The first target is judged before anything is written: its formula
     * errors are the space's. */
    if (!judge(o->space, s, &targets[0]))
        return EXIT_USAGE;
    if (!prune_write_begin(s, o->format, stdout))
        return EXIT_ENVIRONMENT;
    for (size_t i = 0; i < n; i++) {
        if (i && !judge(o->space, s, &targets[i]))
            return EXIT_USAGE;
        if (!prune_write_target(s, &targets[i], i, o->format, stdout))
            return EXIT_ENVIRONMENT;
        free(targets[i].records);
        targets[i].records = NULL;
    }
    return prune_write_end(o->format, stdout);
}

int cmd_prune(int argc, char **argv)
{
    PruneOptions o;
    int rc = parse_options(argc, argv, &o);
    if (rc != EXIT_OK)
        return rc < 0 ? EXIT_OK : rc;
    ArchTable table;
    AmdTable amd;
    if (!target_load_tables(COMMAND, &table, &amd, o.tables, o.n_tables))
        return EXIT_USAGE;
    PruneTarget targets[PRUNE_MAX_TARGETS];
    TargetList list = {&table, &amd, targets, 0};
    PruneSpace space;
    rc = EXIT_USAGE;
    if (cli_split_list(COMMAND, "--arch", o.archs, take_arch, &list) &&
        prune_space_read(o.space, &space)) {
        rc = prune_all(&o, &space, targets, list.n);
        prune_space_free(&space);
    }
    for (size_t i = 0; i < list.n; i++)
        free(targets[i].records);
    amd_table_free(&amd);
    arch_table_free(&table);
    return rc;
}
