/*
 * target.c: loading the tables and choosing the GPU a command is about,
 * with "did you mean" when a name is not known.
 */
#include "cli.h"

#include <stdlib.h>

bool load_tables(const char *command, ArchTable *table, char **files, int n_files)
{
    OccError err;
    if (arch_table_load_builtin(table, &err) != 0) {
        cli_error(command, "%s", err.message);
        return false;
    }
    for (int i = 0; i < n_files; i++)
        if (arch_table_load_file(table, files[i], &err) != 0) {
            cli_error(command, "--arch-table: %s", err.message);
            arch_table_free(table);
            return false;
        }
    return true;
}

static void unknown_name(const char *command, const ArchTable *table, const char *option,
                         const char *kind, const char *name)
{
    char suggestion[OCC_ALIASES_MAX];
    if (arch_table_suggest(table, name, suggestion, sizeof suggestion))
        cli_error(command, "%s: unknown %s '%s' (did you mean '%s'?); 'silk-occ arch list' lists them",
                  option, kind, name, suggestion);
    else
        cli_error(command, "%s: unknown %s '%s'; 'silk-occ arch list' lists them", option, kind,
                  name);
}

bool resolve_arch(const char *command, const ArchTable *table, const char *name, Target *out)
{
    *out = (Target){0};
    out->arch = arch_table_find(table, name);
    if (!out->arch) {
        if (arch_table_find_product(table, name))
            cli_error(command, "--arch: '%s' is a GPU product, not an architecture: use --gpu %s",
                      name, name);
        else
            unknown_name(command, table, "--arch", "architecture", name);
        return false;
    }
    arch_sm_name(out->arch, out->sm_name, sizeof out->sm_name);
    return true;
}

bool resolve_gpu(const char *command, const ArchTable *table, const char *name, Target *out)
{
    *out = (Target){0};
    out->gpu = arch_table_find_product(table, name);
    if (!out->gpu) {
        if (arch_table_find(table, name))
            cli_error(command, "--gpu: '%s' is an architecture, not a GPU product: use --arch %s",
                      name, name);
        else
            unknown_name(command, table, "--gpu", "GPU", name);
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
    return true;
}
