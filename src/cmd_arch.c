/*
 * cmd_arch.c: `silk-occ arch list` and `silk-occ arch show NAME`: both
 * vendors' architecture and product tables as the program sees them
 * (built in, plus any --arch-table files), handed to the writer of the
 * chosen format (arch_writers.h), which serves both vendors.
 */
#include "arch_writers.h"
#include "escape.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char *const COMMAND = "arch";

void cmd_arch_usage(FILE *out)
{
    fputs("usage: silk-occ arch list [--format text|json|csv] [--arch-table FILE]\n"
          "       silk-occ arch show ARCH|PRODUCT [--format text|json] [--arch-table FILE]\n"
          "\n"
          "list: every architecture and GPU product in the tables, NVIDIA's and AMD's.\n"
          "show: every limit of one architecture (and, for a product, its SM or CU count).\n",
          out);
}

/* The architecture (and product) `name` names: NVIDIA's products, then
 * its architectures, then AMD's products and targets. */
static bool find_shown(const ArchTable *t, const AmdTable *amd, const char *name, Target *out)
{
    const GpuProduct *g = arch_table_find_product(t, name);
    const ArchLimits *a = g ? arch_table_product_arch(t, g) : arch_table_find(t, name);
    if (a) {
        *out = (Target){.vendor = OCC_NVIDIA, .arch = a, .gpu = g, .sm_count = g ? g->sm_count : 0};
        arch_sm_name(a, out->sm_name, sizeof out->sm_name);
        return true;
    }
    return target_resolve_amd(amd, name, true, out) || target_resolve_amd(amd, name, false, out);
}

static void unknown(const ArchTable *t, const char *name)
{
    char suggestion[OCC_ALIASES_MAX];
    if (arch_table_suggest(t, name, OCC_SUGGEST_ARCHS | OCC_SUGGEST_PRODUCTS, suggestion,
                           sizeof suggestion))
        cli_error(COMMAND, "unknown architecture or GPU '%s' (did you mean '%s'?)", QUOTED(name),
                  suggestion);
    else
        cli_error(COMMAND, "unknown architecture or GPU '%s'; 'silk-occ arch list' lists them",
                  QUOTED(name));
}

static int write_view(const ArchView *v, OutputFormat format)
{
    if (format == FORMAT_JSON)
        return arch_write_json(v, stdout);
    if (format == FORMAT_CSV)
        return arch_write_csv(v, stdout);
    return arch_write_text(v, stdout);
}

/* ---- the command ------------------------------------------------------------ */

typedef struct ArchOptions {
    OutputFormat format;
    char *tables[MAX_TABLE_FILES];
    int n_tables;
} ArchOptions;

static bool take_option(int c, char *arg, void *context)
{
    ArchOptions *o = context;
    if (c == 'f')
        return cli_parse_format(COMMAND, arg, true, &o->format);
    return target_add_table_file(COMMAND, o->tables, &o->n_tables, arg); /* 'T' */
}

int cmd_arch(int argc, char **argv)
{
    static const struct option options[] = {
        {"format", required_argument, NULL, 'f'},
        {"arch-table", required_argument, NULL, 'T'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    ArchOptions o = {.format = FORMAT_TEXT};
    int first;
    int rc = cli_getopt(COMMAND, argc, argv, "T", options, cmd_arch_usage, take_option, &o, &first);
    if (rc != EXIT_OK)
        return rc == EXIT_HELP ? EXIT_OK : rc;
    OutputFormat format = o.format;
    const char *verb = first < argc ? argv[first] : NULL;
    bool is_list = verb && strcmp(verb, "list") == 0 && first + 1 == argc;
    bool is_show = verb && strcmp(verb, "show") == 0 && first + 2 == argc;
    if (!is_list && !is_show) {
        cli_error(COMMAND, verb && strcmp(verb, "show") == 0
                               ? "show: give one architecture or GPU name"
                               : "expected 'list' or 'show NAME'; 'silk-occ help arch' shows usage");
        return EXIT_USAGE;
    }
    if (is_show && format == FORMAT_CSV) {
        cli_error(COMMAND, "--format: 'csv' is for 'arch list'; 'arch show' writes text or json");
        return EXIT_USAGE;
    }
    ArchTable table;
    AmdTable amd;
    if (!target_load_tables(COMMAND, &table, &amd, o.tables, o.n_tables))
        return EXIT_USAGE;
    Target shown;
    ArchView view = {.nvidia = &table, .amd = &amd, .shown = is_show ? &shown : NULL};
    rc = EXIT_USAGE;
    if (is_show && !find_shown(&table, &amd, argv[first + 1], &shown))
        unknown(&table, argv[first + 1]);
    else
        rc = write_view(&view, format);
    amd_table_free(&amd);
    arch_table_free(&table);
    return rc;
}
