/*
 * target.c: loading the tables and choosing the GPU a command is about,
 * with "did you mean" when a name is not known.
 */
#include "cli.h"
#include "escape.h"

#include <stdio.h>
#include <stdlib.h>

/* Remembers one --arch-table file for target_load_tables. */
bool target_add_table_file(const char *command, char **files, int *n_files, char *path)
{
    if (*n_files == MAX_TABLE_FILES) {
        cli_error(command, "--arch-table: at most %d files", MAX_TABLE_FILES);
        return false;
    }
    files[(*n_files)++] = path;
    return true;
}

bool target_load_tables(const char *command, ArchTable *table, AmdTable *amd, char **files,
                        int n_files)
{
    OccError err;
    if (arch_table_load_builtin(table, &err) != 0) {
        cli_error(command, "%s", err.message);
        return false;
    }
    if (amd_table_load_builtin(amd, &err) != 0) {
        cli_error(command, "%s", err.message);
        arch_table_free(table);
        return false;
    }
    /* Each file's header says which vendor's table it is (tables.h). */
    OccTables tables = {table, amd};
    for (int i = 0; i < n_files; i++)
        if (occ_tables_load_file(&tables, files[i], &err) != 0) {
            cli_error(command, "--arch-table: %s", err.message);
            arch_table_free(table);
            amd_table_free(amd);
            return false;
        }
    return true;
}

/* "Did you mean" names a close name of the kind the option takes, or else
 * a close name of the other kind together with the option that takes it. */
static void unknown_name(const char *command, const ArchTable *table, bool want_arch,
                         const char *name)
{
    const char *option = want_arch ? "--arch" : "--gpu";
    const char *other = want_arch ? "--gpu" : "--arch";
    const char *kind = want_arch ? "architecture" : "GPU";
    int same = want_arch ? OCC_SUGGEST_ARCHS : OCC_SUGGEST_PRODUCTS;
    int different = want_arch ? OCC_SUGGEST_PRODUCTS : OCC_SUGGEST_ARCHS;
    char suggestion[OCC_ALIASES_MAX];
    if (arch_table_suggest(table, name, same, suggestion, sizeof suggestion))
        cli_error(command, "%s: unknown %s '%s' (did you mean '%s'?); 'silk-occ arch list' lists them",
                  option, kind, QUOTED(name), suggestion);
    else if (arch_table_suggest(table, name, different, suggestion, sizeof suggestion))
        cli_error(command, "%s: unknown %s '%s' (did you mean %s %s?); 'silk-occ arch list' lists them",
                  option, kind, QUOTED(name), other, suggestion);
    else
        cli_error(command, "%s: unknown %s '%s'; 'silk-occ arch list' lists them", option, kind,
                  QUOTED(name));
}

bool target_resolve_arch(const char *command, const ArchTable *table, const char *name, Target *out)
{
    *out = (Target){0};
    out->arch = arch_table_find(table, name);
    if (!out->arch) {
        if (arch_table_find_product(table, name))
            cli_error(command, "--arch: '%s' is a GPU product, not an architecture: use --gpu %s",
                      QUOTED(name), QUOTED(name));
        else
            unknown_name(command, table, true, name);
        return false;
    }
    arch_sm_name(out->arch, out->sm_name, sizeof out->sm_name);
    return true;
}

/* The name as given, for the outputs to echo beside the canonical id: a
 * name the tables matched is one of their ids or aliases, no longer than an
 * alias field, so the buffer holds it whole. */
static void remember_asked(Target *t, const char *name)
{
    snprintf(t->gpu_asked, sizeof t->gpu_asked, "%s", name);
}

bool target_resolve_gpu(const char *command, const ArchTable *table, const char *name, Target *out)
{
    *out = (Target){0};
    out->gpu = arch_table_find_product(table, name);
    if (!out->gpu) {
        if (arch_table_find(table, name))
            cli_error(command, "--gpu: '%s' is an architecture, not a GPU product: use --arch %s",
                      QUOTED(name), QUOTED(name));
        else
            unknown_name(command, table, false, name);
        return false;
    }
    out->arch = arch_table_product_arch(table, out->gpu);
    if (!out->arch) {
        cli_error(command, "--gpu: %s has compute capability %d.%d, which the tables lack",
                  out->gpu->id, out->gpu->major, out->gpu->minor);
        return false;
    }
    out->sm_count = out->gpu->sm_count;
    arch_sm_name(out->arch, out->sm_name, sizeof out->sm_name);
    remember_asked(out, name);
    return true;
}

bool target_resolve_amd(const AmdTable *amd, const char *name, bool gpu, Target *out)
{
    const AmdProduct *product = gpu ? amd_table_find_product(amd, name) : NULL;
    const AmdTarget *t = gpu ? (product ? amd_table_product_target(amd, product) : NULL)
                             : amd_table_find(amd, name);
    if (!t)
        return false;
    *out = (Target){.vendor = OCC_AMD, .amd = t, .amd_gpu = product,
                    .sm_count = product ? amd_product_units(t, product) : 0};
    snprintf(out->sm_name, sizeof out->sm_name, "%s", t->gfx);
    if (product)
        remember_asked(out, name);
    return true;
}
