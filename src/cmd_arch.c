/*
 * cmd_arch.c: `silk-occ arch list` and `silk-occ arch show NAME`: the
 * architecture and product tables as the program sees them (built in, plus
 * any --arch-table files), as text, JSON or CSV.
 */
#include "cli.h"
#include "escape.h"

#include "arch_amd.h"

#include <cjson/cJSON.h>
#include <csv.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char *const COMMAND = "arch";

void cmd_arch_usage(FILE *out)
{
    fputs("usage: silk-occ arch list [--format text|json|csv] [--arch-table FILE]\n"
          "       silk-occ arch show ARCH|PRODUCT [--format text|json] [--arch-table FILE]\n"
          "\n"
          "list: every compute capability and GPU product in the tables.\n"
          "show: every limit of one compute capability (and, for a product, its SM count).\n",
          out);
}

/* ---- JSON ------------------------------------------------------------------- */

static cJSON *arch_json(const ArchLimits *a)
{
    char buf[32];
    cJSON *o = cJSON_CreateObject();
    snprintf(buf, sizeof buf, "%d.%d", a->major, a->minor);
    cJSON_AddStringToObject(o, "cc", buf);
    cJSON_AddStringToObject(o, "arch", arch_sm_name(a, buf, sizeof buf));
    cJSON_AddStringToObject(o, "family", a->family);
    cJSON_AddStringToObject(o, "aliases", a->aliases);
#define INT_FIELD(f) cJSON_AddNumberToObject(o, #f, a->f)
    INT_FIELD(warp_size);
    INT_FIELD(max_threads_per_block);
    INT_FIELD(max_threads_per_sm);
    cJSON_AddNumberToObject(o, "max_warps_per_sm", arch_max_warps_per_sm(a));
    INT_FIELD(max_blocks_per_sm);
    INT_FIELD(regs_per_sm);
    INT_FIELD(regs_per_block);
    INT_FIELD(max_regs_per_thread);
    INT_FIELD(reg_alloc_limit_per_thread);
    INT_FIELD(reg_alloc_unit);
    cJSON_AddStringToObject(o, "reg_alloc_granularity", "warp");
    INT_FIELD(warp_alloc_granularity);
    INT_FIELD(sub_partitions);
    INT_FIELD(compat_sub_partitions);
    INT_FIELD(smem_per_sm);
    INT_FIELD(smem_per_block);
    INT_FIELD(smem_per_block_optin);
    INT_FIELD(reserved_smem_per_block);
    INT_FIELD(smem_alloc_unit);
    cJSON *configs = cJSON_AddArrayToObject(o, "smem_configs");
    for (int i = 0; i < a->n_smem_configs; i++)
        cJSON_AddItemToArray(configs, cJSON_CreateNumber(a->smem_configs[i]));
    INT_FIELD(barriers_per_cta_slot);
    cJSON_AddNumberToObject(o, "barriers_per_sm", arch_barriers_per_sm(a));
    INT_FIELD(virtual_resources_per_sm);
    INT_FIELD(partitioned_gc);
    INT_FIELD(max_grid_x);
    INT_FIELD(max_grid_y);
    INT_FIELD(max_grid_z);
#undef INT_FIELD
    return o;
}

static cJSON *product_json(const GpuProduct *g)
{
    char cc[16];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "id", g->id);
    cJSON_AddStringToObject(o, "name", g->name);
    cJSON_AddStringToObject(o, "aliases", g->aliases);
    snprintf(cc, sizeof cc, "%d.%d", g->major, g->minor);
    cJSON_AddStringToObject(o, "cc", cc);
    cJSON_AddNumberToObject(o, "sm_count", g->sm_count);
    cJSON_AddNumberToObject(o, "memory_gib", g->memory_gib);
    return o;
}

static int print_json(cJSON *o)
{
    return cli_print_json(COMMAND, o, stdout);
}

/* ---- list ------------------------------------------------------------------- */

static void list_text(const ArchTable *t)
{
    char sm[16], smem[32], optin[32];
    printf("%-5s %-8s %-13s %8s %8s %7s %10s %10s  %s\n", "cc", "arch", "family", "threads",
           "CTAs/SM", "regs", "smem/SM", "smem/CTA", "aliases");
    for (size_t i = 0; i < t->n_archs; i++) {
        const ArchLimits *a = &t->archs[i];
        char cc[16];
        snprintf(cc, sizeof cc, "%d.%d", a->major, a->minor);
        printf("%-5s %-8s %-13s %8d %8d %7d %10s %10s  %s\n", cc, arch_sm_name(a, sm, sizeof sm),
               a->family, a->max_threads_per_sm, a->max_blocks_per_sm, a->regs_per_sm,
               format_bytes((uint64_t)a->smem_per_sm, smem, sizeof smem),
               format_bytes((uint64_t)a->smem_per_block_optin, optin, sizeof optin), a->aliases);
    }
    printf("\n%-20s %-30s %5s %5s %6s  %s\n", "gpu", "name", "cc", "SMs", "GiB", "aliases");
    for (size_t i = 0; i < t->n_products; i++) {
        const GpuProduct *g = &t->products[i];
        char cc[16];
        snprintf(cc, sizeof cc, "%d.%d", g->major, g->minor);
        printf("%-20s %-30s %5s %5d %6d  %s\n", g->id, g->name, cc, g->sm_count, g->memory_gib,
               g->aliases);
    }
}

static void csv_row(const char *const *fields, int n)
{
    for (int i = 0; i < n; i++) {
        if (i)
            putchar(',');
        csv_fwrite(stdout, fields[i], strlen(fields[i]));
    }
    putchar('\n');
}

/* The product table: the form `silk-occ calc --gpu` scripts iterate over. */
static void list_csv(const ArchTable *t)
{
    static const char *const header[] = {"kind", "name", "cc", "arch", "sm_count",
                                         "max_threads_per_sm", "max_blocks_per_sm", "smem_per_sm"};
    csv_row(header, 8);
    for (size_t i = 0; i < t->n_archs; i++) {
        const ArchLimits *a = &t->archs[i];
        char cc[16], sm[16], threads[16], blocks[16], smem[16];
        snprintf(cc, sizeof cc, "%d.%d", a->major, a->minor);
        snprintf(threads, sizeof threads, "%d", a->max_threads_per_sm);
        snprintf(blocks, sizeof blocks, "%d", a->max_blocks_per_sm);
        snprintf(smem, sizeof smem, "%d", a->smem_per_sm);
        const char *row[] = {"arch", sm, cc, arch_sm_name(a, sm, sizeof sm), "", threads, blocks, smem};
        csv_row(row, 8);
    }
    for (size_t i = 0; i < t->n_products; i++) {
        const GpuProduct *g = &t->products[i];
        const ArchLimits *a = arch_table_product_arch(t, g);
        char cc[16], sm[16], sms[16], threads[16], blocks[16], smem[16];
        snprintf(cc, sizeof cc, "%d.%d", g->major, g->minor);
        snprintf(sms, sizeof sms, "%d", g->sm_count);
        snprintf(threads, sizeof threads, "%d", a->max_threads_per_sm);
        snprintf(blocks, sizeof blocks, "%d", a->max_blocks_per_sm);
        snprintf(smem, sizeof smem, "%d", a->smem_per_sm);
        const char *row[] = {"gpu", g->id, cc, arch_sm_name(a, sm, sizeof sm), sms, threads, blocks, smem};
        csv_row(row, 8);
    }
}

static int list(const ArchTable *t, const AmdTable *amd, OutputFormat format)
{
    if (format == FORMAT_TEXT) {
        list_text(t);
        arch_amd_list_text(amd, stdout);
        return EXIT_OK;
    }
    if (format == FORMAT_CSV) {
        list_csv(t); /* NVIDIA's columns only: the AMD rows are in text and JSON */
        return EXIT_OK;
    }
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "schema", "silk-occ/arch/1");
    cJSON *archs = cJSON_AddArrayToObject(o, "architectures");
    for (size_t i = 0; i < t->n_archs; i++)
        cJSON_AddItemToArray(archs, arch_json(&t->archs[i]));
    cJSON *gpus = cJSON_AddArrayToObject(o, "gpus");
    for (size_t i = 0; i < t->n_products; i++)
        cJSON_AddItemToArray(gpus, product_json(&t->products[i]));
    arch_amd_list_json(o, amd);
    return print_json(o);
}

/* ---- show ------------------------------------------------------------------- */

static void show_text(const ArchLimits *a, const GpuProduct *g)
{
    char sm[16], b[32];
    if (g)
        printf("%s (%s): compute capability %d.%d, %d SMs, %d GiB\n\n", g->name, g->id, g->major,
               g->minor, g->sm_count, g->memory_gib);
    printf("%s: %s, compute capability %d.%d\n", arch_sm_name(a, sm, sizeof sm), a->family,
           a->major, a->minor);
    printf("  names                      %d.%d sm_%d%d compute_%d%d ", a->major, a->minor, a->major,
           a->minor, a->major, a->minor);
    for (const char *p = a->aliases; *p; p++)
        putchar(*p == ';' ? ' ' : *p);
    putchar('\n');
    printf("  warp size                  %d threads\n", a->warp_size);
    printf("  threads per CTA            %d\n", a->max_threads_per_block);
    printf("  threads per SM             %d (%d warps)\n", a->max_threads_per_sm,
           arch_max_warps_per_sm(a));
    printf("  CTAs per SM                %d\n", a->max_blocks_per_sm);
    printf("  registers per SM           %d (%d sub-partitions)\n", a->regs_per_sm, a->sub_partitions);
    printf("  registers per CTA          %d\n", a->regs_per_block);
    printf("  registers per thread       %d (the launch check allows up to %d)\n",
           a->max_regs_per_thread, a->reg_alloc_limit_per_thread);
    printf("  register allocation        %d per warp; warps counted in groups of %d\n",
           a->reg_alloc_unit, a->warp_alloc_granularity);
    printf("  shared memory per SM       %s\n", format_bytes((uint64_t)a->smem_per_sm, b, sizeof b));
    printf("  shared memory per CTA      %s", format_bytes((uint64_t)a->smem_per_block, b, sizeof b));
    printf(", %s with opt-in\n", format_bytes((uint64_t)a->smem_per_block_optin, b, sizeof b));
    printf("  reserved per CTA           %s\n",
           format_bytes((uint64_t)a->reserved_smem_per_block, b, sizeof b));
    printf("  shared allocation unit     %d B\n", a->smem_alloc_unit);
    printf("  carveouts                  ");
    for (int i = 0; i < a->n_smem_configs; i++)
        printf("%s%d", i ? ", " : "", a->smem_configs[i] / 1024);
    printf(a->n_smem_configs ? " KiB\n" : "fixed\n");
    if (a->barriers_per_cta_slot)
        printf("  barriers per SM            %d (%d per CTA slot)\n", arch_barriers_per_sm(a),
               a->barriers_per_cta_slot);
    else
        printf("  barriers per SM            not a limit\n");
    if (a->virtual_resources_per_sm)
        printf("  virtual resources per SM   %d\n", a->virtual_resources_per_sm);
    else
        printf("  virtual resources per SM   not a limit\n");
    printf("  partitioned global caching %s\n", a->partitioned_gc ? "supported" : "no");
    printf("  grid limits                %d x %d x %d\n", a->max_grid_x, a->max_grid_y, a->max_grid_z);
}

static int show(const ArchTable *t, const AmdTable *amd, const char *name, OutputFormat format)
{
    const GpuProduct *g = arch_table_find_product(t, name);
    const ArchLimits *a = g ? arch_table_product_arch(t, g) : arch_table_find(t, name);
    int amd_rc = a ? -1 : arch_amd_show(amd, name, format);
    if (amd_rc >= 0)
        return amd_rc;
    if (!a) {
        char suggestion[OCC_ALIASES_MAX];
        if (arch_table_suggest(t, name, OCC_SUGGEST_ARCHS | OCC_SUGGEST_PRODUCTS, suggestion,
                               sizeof suggestion))
            cli_error(COMMAND, "unknown architecture or GPU '%s' (did you mean '%s'?)", QUOTED(name),
                      suggestion);
        else
            cli_error(COMMAND, "unknown architecture or GPU '%s'; 'silk-occ arch list' lists them",
                      QUOTED(name));
        return EXIT_USAGE;
    }
    if (format == FORMAT_TEXT) {
        show_text(a, g);
        return EXIT_OK;
    }
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "schema", "silk-occ/arch/1");
    cJSON_AddItemToObject(o, "architecture", arch_json(a));
    if (g)
        cJSON_AddItemToObject(o, "gpu", product_json(g));
    return print_json(o);
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
    rc = is_list ? list(&table, &amd, format) : show(&table, &amd, argv[first + 1], format);
    amd_table_free(&amd);
    arch_table_free(&table);
    return rc;
}
