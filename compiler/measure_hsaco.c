/*
 * measure_hsaco.c: the .hsaco input, an AMD code object, which
 * comes measured already: its kernels' figures are the AMDGPU metadata
 * note's (hsaco.h).  A code object holds machine code for one processor,
 * so it is reported on the AMD targets of that processor (gfx1100 and its
 * +cumode row), each kernel on the row of its wave size (a wave64 kernel
 * on RDNA counts on the +wave64 row, as LLVM's +wavefrontsize64 counts
 * it); the NVIDIA targets and other processors are skipped with a word.
 * Given only code objects and cubins and no target, the report is for
 * their own targets (report_object_archs).
 */
#include "measure_internal.h"

#include "escape.h"
#include "format_bytes.h"

#include "amdgpu/hsaco.h"

#include <string.h>

/* The length of the processor in a row's name: "gfx1100" of
 * "gfx1100+wave64+cumode". */
static size_t processor_length(const char *gfx)
{
    return strcspn(gfx, "+");
}

static bool same_processor(const char *arch, const char *gfx)
{
    return arch && strlen(arch) == processor_length(gfx) && strncmp(arch, gfx, strlen(arch)) == 0;
}

/* The row of `row`'s processor and CU mode for waves of `wave_size`;
 * NULL when the table has none (waves of 32 on CDNA). */
static const AmdTarget *row_for_wave_size(const AmdTable *table, const AmdTarget *row,
                                          int wave_size)
{
    if (row->wave_size == wave_size)
        return row;
    char name[OCC_NAME_MAX];
    snprintf(name, sizeof name, "%.*s%s%s", (int)processor_length(row->gfx), row->gfx,
             wave_size == 64 ? "+wave64" : "", strstr(row->gfx, "+cumode") ? "+cumode" : "");
    const AmdTarget *t = amd_table_find(table, name);
    return t && t->wave_size == wave_size ? t : NULL;
}

bool measure_amd_kernel_fits(const Measure *m, const char *file, const KernelUsage *ku,
                             const AmdTarget *t)
{
    char asked[32], limit[32];
    if (ku->max_threads > t->max_workgroup_size)
        measure_error(m, "%s: %s: .max_flat_workgroup_size %d is above the workgroup limit of %d "
                           "work-items on %s", ESCAPED(file), ESCAPED(ku->name), ku->max_threads,
                  t->max_workgroup_size, t->gfx);
    else if (ku->registers > t->addressable_vgprs)
        measure_error(m, "%s: %s: .vgpr_count %d is above the %d VGPRs a wave may address on %s",
                  ESCAPED(file), ESCAPED(ku->name), ku->registers, t->addressable_vgprs, t->gfx);
    else if (ku->sgprs > t->addressable_sgprs)
        measure_error(m, "%s: %s: .sgpr_count %d is above the %d SGPRs a wave may address on %s",
                  ESCAPED(file), ESCAPED(ku->name), ku->sgprs, t->addressable_sgprs, t->gfx);
    else if (ku->static_smem > t->lds_per_workgroup) {
        format_bytes_pair((uint64_t)ku->static_smem, asked, (uint64_t)t->lds_per_workgroup, limit,
                              sizeof asked);
        measure_error(m, "%s: %s: .group_segment_fixed_size %s is above the %s of LDS a workgroup "
                           "may allocate on %s", ESCAPED(file), ESCAPED(ku->name), asked, limit, t->gfx);
    } else
        return true;
    return false;
}

/* Target t's kernels of the code object, each on its wave size's row. */
static int take_kernels(Measure *m, const char *path, const UsageReport *u, const Target *t,
                        MeasuredKernel **out)
{
    const AmdTable *table = m->options->amd_table;
    MeasuredKernel *kernels = ARENA_ARRAY(m->arena, MeasuredKernel, (size_t)u->n_kernels + 1);
    for (int k = 0; k < u->n_kernels; k++) {
        const KernelUsage *ku = &u->kernels[k];
        const AmdTarget *row = row_for_wave_size(table, t->amd, ku->wavefront_size);
        if (!row) {
            measure_error(m, "%s: %s: .wavefront_size %d, but %s runs waves of %d", ESCAPED(path),
                      ESCAPED(ku->name), ku->wavefront_size, t->amd->gfx, t->amd->wave_size);
            return -1;
        }
        if (!measure_amd_kernel_fits(m, path, ku, row))
            return -1;
        kernels[k] = (MeasuredKernel){.name = ku->name, .file = path, .input = INPUT_HSACO,
                                    .usage = *ku, .maxntid = ku->max_threads,
                                    .amd_row = row == t->amd ? NULL : row};
    }
    *out = kernels;
    return u->n_kernels;
}

int measure_load_hsaco(Measure *m, const char *path, const Target *targets, int n, MeasuredFile *s)
{
    UsageReport u;
    if (amdgpu_code_object_usage(path, m->arena, &u) != 0) {
        measure_error(m, "%s: %s", ESCAPED(path), u.errors ? u.errors : "not a code object");
        return EXIT_USAGE;
    }
    s->measured = true;
    s->skipped = ARENA_ARRAY(m->arena, bool, (size_t)n + 1);
    bool named = false;
    for (int t = 0; t < n; t++) {
        s->skipped[t] = targets[t].vendor != OCC_AMD || !same_processor(u.arch, targets[t].amd->gfx);
        if (s->skipped[t])
            continue;
        named = true;
        s->n_kernels[t] = take_kernels(m, path, &u, &targets[t], &s->kernels[t]);
        if (s->n_kernels[t] < 0)
            return EXIT_USAGE;
    }
    if (!named)
        measure_warning(m, "%s: a code object for %s, which --arch does not name", ESCAPED(path),
                    u.arch ? ESCAPED(u.arch) : "an unknown target");
    return EXIT_OK;
}

int measure_hsaco_arch(const Measure *m, const char *path, char *buf, size_t size)
{
    const AmdTable *table = m->options->amd_table;
    Arena *arena = arena_new();
    UsageReport u;
    int rc = 0;
    if (amdgpu_code_object_usage(path, arena, &u) == 0) {
        /* A processor's row, never a mode's named in a forged amdhsa.target. */
        rc = u.arch && !strchr(u.arch, '+') && amd_table_find(table, u.arch) ? 1 : -1;
        if (rc > 0)
            snprintf(buf, size, "%s", u.arch);
        else
            measure_error(m, "%s: a code object for %s, which the AMD table has no row for",
                      ESCAPED(path), u.arch ? ESCAPED(u.arch) : "an unknown target");
    }
    arena_free(arena);
    return rc;
}
