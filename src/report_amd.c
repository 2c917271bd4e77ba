/*
 * report_amd.c: `silk-occ report` on AMD targets (report_amd.h).
 */
#include "report_amd.h"

#include "amdgpu/hsaco.h"
#include "build.h"
#include "escape.h"
#include "report_input.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const char *const COMMAND = "report";

/* Whether `name` is AMD's (then taken into amd): 1, 0, or -1 after an error. */
typedef int TakeName(ReportAmd *amd, const char *name);

static int add_target(ReportAmd *amd, const AmdTarget *t)
{
    for (int i = 0; i < amd->n_targets; i++)
        if (amd->targets[i] == t)
            return 1;
    if (amd->n_targets == REPORT_AMD_MAX_TARGETS) {
        cli_error(COMMAND, "at most %d AMD targets", REPORT_AMD_MAX_TARGETS);
        return -1;
    }
    amd->targets[amd->n_targets++] = t;
    return 1;
}

static int take_target(ReportAmd *amd, const char *name)
{
    const AmdTarget *t = amd_table_find(&amd->table, name);
    return t ? add_target(amd, t) : 0;
}

static int take_gpu(ReportAmd *amd, const char *name)
{
    const AmdProduct *gpu = amd_table_find_product(&amd->table, name);
    const AmdTarget *t = gpu ? amd_table_product_target(&amd->table, gpu) : NULL;
    if (!t)
        return 0;
    if (amd->n_products == REPORT_AMD_MAX_TARGETS) {
        cli_error(COMMAND, "--gpu: at most %d AMD products", REPORT_AMD_MAX_TARGETS);
        return -1;
    }
    amd->products[amd->n_products++] = gpu;
    return add_target(amd, t);
}

/* Moves the AMD names of `list` into amd, leaving the others in order. */
static bool take_names(char *list, ReportAmd *amd, const char *option, TakeName *take)
{
    *amd = (ReportAmd){.table = amd->table}; /* the tables cmd_report loaded */
    /* An empty list or element is refused as cli_split_list refuses it
     * (the NVIDIA side would only see what is left). */
    size_t len = strlen(list);
    if (len == 0) {
        cli_error(COMMAND, "%s: the list is empty", option);
        return false;
    }
    if (list[0] == ',' || list[len - 1] == ',' || strstr(list, ",,")) {
        cli_error(COMMAND, "%s: '%s' has an empty element", option, QUOTED(list));
        return false;
    }
    char *kept = list, *p = list;
    while (*p) {
        size_t n = strcspn(p, ",");
        char name[OCC_NAME_MAX];
        snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), p);
        int taken = take(amd, name);
        if (taken < 0)
            return false;
        if (!taken) { /* an NVIDIA name (or a wrong one, said by the NVIDIA side) */
            if (kept != list)
                *kept++ = ',';
            memmove(kept, p, n);
            kept += n;
        }
        p += n + (p[n] == ',');
    }
    *kept = '\0';
    return true;
}

bool report_amd_take_targets(char *list, ReportAmd *amd)
{
    return take_names(list, amd, "--arch", take_target);
}

bool report_amd_take_gpus(char *list, ReportAmd *amd)
{
    return take_names(list, amd, "--gpu", take_gpu);
}

static bool push_row(ReportAmd *amd, const ReportAmdRow *row)
{
    if (amd->n_rows == amd->cap_rows) {
        int cap = amd->cap_rows ? amd->cap_rows * 2 : 16;
        ReportAmdRow *grown = realloc(amd->rows, (size_t)cap * sizeof *grown);
        if (!grown)
            return false;
        amd->rows = grown;
        amd->cap_rows = cap;
    }
    amd->rows[amd->n_rows++] = *row;
    return true;
}

/* A figure of the code object that no wave on the row can have: one
 * line naming the metadata field, the limit and the target. */
static bool figures_fit(const char *file, const KernelUsage *ku, const AmdTarget *t, int threads)
{
    char asked[32], limit[32];
    if (threads > t->max_workgroup_size)
        cli_error(COMMAND, "%s: %s: .max_flat_workgroup_size %d is above the workgroup limit of %d "
                           "work-items on %s", ESCAPED(file), ESCAPED(ku->name), threads, t->max_workgroup_size, t->gfx);
    else if (ku->registers > t->addressable_vgprs)
        cli_error(COMMAND, "%s: %s: .vgpr_count %d is above the %d VGPRs a wave may address on %s",
                  ESCAPED(file), ESCAPED(ku->name), ku->registers, t->addressable_vgprs, t->gfx);
    else if (ku->sgprs > t->addressable_sgprs)
        cli_error(COMMAND, "%s: %s: .sgpr_count %d is above the %d SGPRs a wave may address on %s",
                  ESCAPED(file), ESCAPED(ku->name), ku->sgprs, t->addressable_sgprs, t->gfx);
    else if (ku->static_smem > t->lds_per_workgroup) {
        cli_format_bytes_pair((uint64_t)ku->static_smem, asked, (uint64_t)t->lds_per_workgroup, limit,
                              sizeof asked);
        cli_error(COMMAND, "%s: %s: .group_segment_fixed_size %s is above the %s of LDS a workgroup "
                           "may allocate on %s", ESCAPED(file), ESCAPED(ku->name), asked, limit, t->gfx);
    } else
        return true;
    return false;
}

/* The code object's .vgpr_count is the unified file's total on gfx90a and
 * gfx942 (the AGPRs after the VGPRs), so it goes to the engine whole. */
static int add_kernel(ReportAmd *amd, const char *file, const AmdTarget *t, const KernelUsage *ku,
                      const Compilation *c)
{
    ReportAmdRow row = {.file = file, .kernel = ku->name, .target = t, .usage = *ku,
                        .threads = ku->max_threads > 0 ? ku->max_threads : t->max_workgroup_size,
                        .have_work = amd->have_work, .work = amd->work};
    if (!row.have_work && !amd->work_2d && c) { /* the launch block's grid, as the NVIDIA side takes it */
        row.work = report_launch_work(c, ku->name);
        row.have_work = row.work_from_launch = row.work > 0;
    }
    if (!figures_fit(file, ku, t, row.threads))
        return EXIT_USAGE;
    AmdKernel kernel = {.vgprs = ku->registers, .agprs = 0, .sgprs = ku->sgprs,
                        .lds = (uint64_t)ku->static_smem, .flat_workgroup_max = row.threads};
    if (amd_occupancy_calc(t, &kernel, row.threads, &row.result) != OCC_OK ||
        amd_next_step(t, &kernel, row.threads, &row.next) != OCC_OK) {
        cli_error(COMMAND, "%s: %s on %s: figures the %s row cannot use (%d VGPRs, %d SGPRs)",
                  ESCAPED(file), ESCAPED(ku->name), t->gfx, t->gfx, ku->registers, ku->sgprs);
        return EXIT_FINDINGS;
    }
    if (!push_row(amd, &row)) {
        cli_error(COMMAND, "out of memory");
        return EXIT_ENVIRONMENT;
    }
    return EXIT_OK;
}

static int add_kernels(ReportAmd *amd, const char *file, const AmdTarget *t,
                       const UsageReport *u, const Compilation *c)
{
    int rc = EXIT_OK;
    for (int k = 0; k < u->n_kernels && rc == EXIT_OK; k++)
        rc = add_kernel(amd, file, t, &u->kernels[k], c);
    return rc;
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

/* The length of the processor in a row's name: "gfx1100" of
 * "gfx1100+wave64+cumode". */
static size_t processor_length(const char *gfx)
{
    return strcspn(gfx, "+");
}

/* The row of `row`'s processor and CU mode for waves of `wave_size`: a
 * wave64 kernel on RDNA counts on the +wave64 row, as LLVM's
 * +wavefrontsize64 counts it (half the VGPRs per lane).  NULL when the
 * table has none (waves of 32 on CDNA). */
static const AmdTarget *row_for_wave_size(const ReportAmd *amd, const AmdTarget *row, int wave_size)
{
    if (row->wave_size == wave_size)
        return row;
    char name[OCC_NAME_MAX];
    snprintf(name, sizeof name, "%.*s%s%s", (int)processor_length(row->gfx), row->gfx,
             wave_size == 64 ? "+wave64" : "", strstr(row->gfx, "+cumode") ? "+cumode" : "");
    const AmdTarget *t = amd_table_find(&amd->table, name);
    return t && t->wave_size == wave_size ? t : NULL;
}

/* Each kernel of a code object on `row`, or the row of its wave size. */
static int add_object_kernels(ReportAmd *amd, const char *path, const AmdTarget *row,
                              const UsageReport *u)
{
    int rc = EXIT_OK;
    for (int k = 0; k < u->n_kernels && rc == EXIT_OK; k++) {
        const KernelUsage *ku = &u->kernels[k];
        const AmdTarget *t = row_for_wave_size(amd, row, ku->wavefront_size);
        if (!t) {
            cli_error(COMMAND, "%s: %s: .wavefront_size %d, but %s runs waves of %d", ESCAPED(path), ESCAPED(ku->name),
                      ku->wavefront_size, row->gfx, row->wave_size);
            return EXIT_USAGE;
        }
        rc = add_kernel(amd, path, t, ku, NULL);
    }
    return rc;
}

/* A code object's own target, given no --arch: its processor's row (a
 * processor, never a mode's row named in a forged amdhsa.target). */
static const AmdTarget *own_target(ReportAmd *amd, const char *path, const UsageReport *u)
{
    const AmdTarget *t = u->arch && !strchr(u->arch, '+') ? amd_table_find(&amd->table, u->arch) : NULL;
    if (!t)
        cli_error(COMMAND, "%s: a code object for %s, which the AMD table has no row for", ESCAPED(path),
                  u->arch ? ESCAPED(u->arch) : "an unknown target");
    else if (add_target(amd, t) < 0)
        t = NULL;
    return t;
}

/* A .hsaco file is measured already, for its own processor only: on each
 * --arch row of it (gfx1100, gfx1100+cumode), or on its own row. */
static int measure_hsaco(ReportAmd *amd, const char *path, Arena *arena)
{
    UsageReport u;
    if (amdgpu_code_object_usage(path, arena, &u) != 0) {
        cli_error(COMMAND, "%s: %s", ESCAPED(path), u.errors ? u.errors : "not a code object");
        return EXIT_USAGE;
    }
    if (amd->from_objects) {
        const AmdTarget *t = own_target(amd, path, &u);
        return t ? add_object_kernels(amd, path, t, &u) : EXIT_USAGE;
    }
    bool named = false;
    int rc = EXIT_OK;
    for (int i = 0; i < amd->n_targets && rc == EXIT_OK; i++) {
        const char *gfx = amd->targets[i]->gfx;
        if (u.arch && strlen(u.arch) == processor_length(gfx) && strncmp(u.arch, gfx, strlen(u.arch)) == 0) {
            named = true;
            rc = add_object_kernels(amd, path, amd->targets[i], &u);
        }
    }
    if (!named)
        cli_warning(COMMAND, "%s: a code object for %s, which --arch does not name", ESCAPED(path),
                    u.arch ? ESCAPED(u.arch) : "an unknown target");
    return rc;
}

static int build_failed(const char *path, const Build *b, BuildStatus status)
{
    if (status == BUILD_SOURCE_ERRORS || status == BUILD_COMPILER_BUG)
        return EXIT_FINDINGS;
    for (int t = 0; t < b->n_targets; t++)
        if (b->targets[t].usage.exit_status != 0) {
            const char *errors = b->targets[t].usage.errors;
            cli_error(COMMAND, "%s: %s for %s failed%s%s", ESCAPED(path), b->tool ? b->tool : "llc",
                      b->targets[t].arch, errors ? ": " : "", errors ? errors : "");
            return EXIT_ENVIRONMENT;
        }
    if (b->tool && b->tool_errno)
        cli_error(COMMAND, "cannot start %s: %s", b->tool, strerror(b->tool_errno));
    else
        cli_error(COMMAND, "%s: no code object for the AMD targets (llc-19 and ld.lld-19 are needed)",
                  path);
    return EXIT_ENVIRONMENT;
}

/* silkc compiles for a processor in its default mode only; the +wave64
 * and +cumode rows count code objects built otherwise.  And only for the
 * processors its AMDGPU target knows: the table has more rows (gfx1030,
 * gfx1101, ...), whose figures a .hsaco or calc gives. */
static bool compiled_rows_only(const ReportAmd *amd, const char *path)
{
    for (int i = 0; i < amd->n_targets; i++)
        if (!strchr(amd->targets[i]->gfx, '+') && !backend_find(amd->targets[i]->gfx)) {
            cli_error(COMMAND, "%s: --arch %s: silkc compiles for %s only (the row is for .hsaco files "
                               "and calc)",
                      ESCAPED(path), amd->targets[i]->gfx, backend_amdgpu.target_range);
            return false;
        } else if (strchr(amd->targets[i]->gfx, '+')) {
            cli_error(COMMAND, "%s: --arch %s: silkc compiles for %.*s in its default mode only (the "
                               "row is for .hsaco files and calc)",
                      ESCAPED(path), amd->targets[i]->gfx, (int)processor_length(amd->targets[i]->gfx),
                      amd->targets[i]->gfx);
            return false;
        }
    return true;
}

static int measure_silk(ReportAmd *amd, const char *path)
{
    if (!compiled_rows_only(amd, path))
        return EXIT_USAGE;
    Compilation c;
    compile_init(&c, stderr);
    if (!compile_load(&c, path, path, PKG_ROOT)) {
        cli_error(COMMAND, "%s: cannot read: %s", ESCAPED(path), strerror(errno));
        compile_free(&c);
        return EXIT_USAGE;
    }
    const char *archs[REPORT_AMD_MAX_TARGETS];
    for (int i = 0; i < amd->n_targets; i++)
        archs[i] = amd->targets[i]->gfx;
    BuildOptions options = {.archs = archs, .n_archs = amd->n_targets, .last = BUILD_MEASURE,
                            .optimize = true, .program = "silk-occ report"};
    Build b;
    BuildStatus status = build_run(&c, &options, &b);
    int rc = status == BUILD_OK ? EXIT_OK : build_failed(path, &b, status);
    for (int i = 0; i < b.n_targets && rc == EXIT_OK; i++)
        rc = add_kernels(amd, path, amd->targets[i], &b.targets[i].usage, &c);
    /* The rows keep the kernel names: copy them out of the compilation. */
    for (int i = 0; i < amd->n_rows; i++)
        if (amd->rows[i].file == path && amd->rows[i].kernel)
            amd->rows[i].kernel = strdup(amd->rows[i].kernel);
    build_finish(&b);
    diag_finish(&c.diag);
    compile_free(&c);
    return rc;
}

bool report_amd_from_objects(char *const files[], int n, ReportAmd *amd)
{
    *amd = (ReportAmd){.table = amd->table}; /* the tables cmd_report loaded */
    for (int i = 0; i < n; i++)
        if (!ends_with(files[i], ".hsaco"))
            return true;
    amd->from_objects = true;
    return true;
}

bool report_amd_reads(const char *path)
{
    return ends_with(path, ".hsaco") || ends_with(path, ".silk");
}

bool report_nvidia_reads(const char *path)
{
    return !ends_with(path, ".hsaco");
}

/* A file of NVIDIA code on the AMD side: the NVIDIA report keeps it. */
static bool nvidia_code(const char *path, bool nvidia)
{
    if (nvidia)
        cli_warning(COMMAND, "%s: NVIDIA code, no figures for the AMD targets (they take .silk and "
                             ".hsaco files)", ESCAPED(path));
    else
        cli_error(COMMAND, "%s: NVIDIA code, and --arch names no NVIDIA target (the AMD targets take "
                           ".silk and .hsaco files)", ESCAPED(path));
    return nvidia;
}

int report_amd_measure(ReportAmd *amd, char *const files[], int n, bool nvidia, Arena *arena)
{
    int passed = 0;
    for (int i = 0; i < n; i++) {
        if (!report_amd_reads(files[i])) {
            if (!nvidia_code(files[i], nvidia))
                return EXIT_USAGE;
            passed++;
            continue;
        }
        int rc = ends_with(files[i], ".hsaco") ? measure_hsaco(amd, files[i], arena)
                                               : measure_silk(amd, files[i]);
        if (rc != EXIT_OK)
            return rc;
    }
    if (amd->n_rows == 0 && passed == n) /* only NVIDIA code: its report stands */
        return EXIT_OK;
    if (amd->n_rows == 0) { /* as the NVIDIA side says it */
        cli_error(COMMAND, "the input has no kernels");
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

static void limiters_text(const AmdResult *r, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < AMD_N_LIMITERS && used < size; i++)
        if (r->limited_by & (1u << i))
            used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? "," : "",
                                     amd_limiter_name((AmdLimiter)i));
}

/* The products a row's tail covers: --gpu's of its target, else all of it. */
static bool row_has_product(const ReportAmd *amd, const ReportAmdRow *r, const AmdProduct *gpu)
{
    /* A product is its processor's in every mode: gfx1100+wave64 is an RX 7900 XTX's too. */
    size_t n = processor_length(r->target->gfx);
    if (strlen(gpu->gfx) != n || strncmp(gpu->gfx, r->target->gfx, n) != 0)
        return false;
    if (amd->n_products == 0)
        return true;
    for (int i = 0; i < amd->n_products; i++)
        if (amd->products[i] == gpu)
            return true;
    return false;
}

/* A launch of the row's work on a product: workgroups per unit x units a
 * wave; false (w zero) without work. */
static bool product_waves(const ReportAmdRow *r, const AmdProduct *gpu, OccWaves *w)
{
    *w = (OccWaves){0};
    return r->have_work && occ_waves(r->work, r->threads, r->result.workgroups_per_unit,
                                     amd_product_units(r->target, gpu), w);
}

static int persistent_grid(const ReportAmdRow *r, const AmdProduct *gpu)
{
    return r->result.workgroups_per_unit * amd_product_units(r->target, gpu);
}

static void write_tail_text(const ReportAmd *amd, const ReportAmdRow *r, FILE *out)
{
    fprintf(out, "\n%s on %s: ", ESCAPED(r->kernel), r->target->gfx);
    if (r->have_work)
        fprintf(out, "%llu work items (%s), %llu workgroups of %d\n", (unsigned long long)r->work,
                r->work_from_launch ? "the launch block's grid" : "--work",
                (unsigned long long)((r->work + (uint64_t)r->threads - 1) / (uint64_t)r->threads),
                r->threads);
    else if (amd->work_2d)
        fputs("a 2-D --work is counted on the NVIDIA targets only\n", out);
    else
        fputs("give --work N (or launch it from a block with a constant grid) for the waves\n", out);
    fprintf(out, "  %-24s %5ss %8s %6s %10s %7s %11s\n", "product", r->target->occupancy_unit,
            "waves", "full", "last wave", "idle", "persistent");
    for (size_t i = 0; i < amd->table.n_products; i++) {
        const AmdProduct *gpu = &amd->table.products[i];
        OccWaves w;
        if (!row_has_product(amd, r, gpu))
            continue;
        fprintf(out, "  %-24s %6d ", gpu->id, amd_product_units(r->target, gpu));
        if (product_waves(r, gpu, &w))
            fprintf(out, "%8.2f %6llu %9.1f%% %6.1f%%", w.waves, (unsigned long long)w.full_waves,
                    100.0 * w.last_wave_fill, 100.0 * w.idle_fraction);
        else
            fprintf(out, "%8s %6s %10s %7s", "-", "-", "-", "-");
        fprintf(out, " %11d\n", persistent_grid(r, gpu));
    }
}

/* The target column's width: 8, or the longest row's name
 * (gfx1100+wave64+cumode), so that no row pushes its figures out of line. */
static int target_width(const ReportAmd *amd)
{
    int width = 8;
    for (int i = 0; i < amd->n_rows; i++) {
        int len = (int)strlen(amd->rows[i].target->gfx);
        width = len > width ? len : width;
    }
    return width;
}

void report_amd_write_text(const ReportAmd *amd, FILE *out)
{
    int tw = target_width(amd);
    fputs("\nAMD targets (waves per SIMD as LLVM 19 counts them, at the kernel's "
          "flat-work-group-size):\n\n",
          out);
    fprintf(out, "%-24s %-*s %7s %5s %5s %5s %7s %10s %8s  %-20s %s\n", "kernel", tw, "target",
            "threads", "VGPRs", "AGPRs", "SGPRs", "LDS", "waves/SIMD", "WG/unit", "limited by",
            "next step");
    for (int i = 0; i < amd->n_rows; i++) {
        const ReportAmdRow *r = &amd->rows[i];
        char lim[128], next[96], lds[32];
        limiters_text(&r->result, lim, sizeof lim);
        if (r->next.vgprs_to_cut > 0)
            snprintf(next, sizeof next, "cut %d VGPRs for %d", r->next.vgprs_to_cut,
                     r->next.vgprs_gained_waves);
        else if (r->next.lds_to_cut > 0)
            snprintf(next, sizeof next, "cut %s LDS for %d",
                     cli_format_bytes((uint64_t)r->next.lds_to_cut, lds, sizeof lds),
                     r->next.lds_gained_waves);
        else if (r->next.sgprs_to_cut > 0)
            snprintf(next, sizeof next, "cut %d SGPRs for %d", r->next.sgprs_to_cut,
                     r->next.sgprs_gained_waves);
        else
            snprintf(next, sizeof next, "-");
        fprintf(out, "%-24s %-*s %7d %5d %5d %5d %7d %7d/%-2d %5d/%-3s  %-20s %s\n", ESCAPED(r->kernel),
                tw, r->target->gfx, r->threads, r->usage.registers, r->usage.agprs, r->usage.sgprs,
                r->usage.static_smem, r->result.waves_per_simd, r->result.max_waves_per_simd,
                r->result.workgroups_per_unit, r->target->occupancy_unit, lim, next);
    }
    for (int i = 0; i < amd->n_rows; i++)
        write_tail_text(amd, &amd->rows[i], out);
}

/* The tail's products of a row: units, waves (null without work) and the
 * persistent grid, workgroups per unit x units. */
static void add_products_json(cJSON *o, const ReportAmd *amd, const ReportAmdRow *r)
{
    cli_json_number_or_null(o, "work", r->have_work, (double)r->work);
    cJSON *products = cJSON_AddArrayToObject(o, "products");
    bool wgp = strcmp(r->target->occupancy_unit, "WGP") == 0;
    for (size_t i = 0; i < amd->table.n_products; i++) {
        const AmdProduct *gpu = &amd->table.products[i];
        OccWaves w;
        if (!row_has_product(amd, r, gpu))
            continue;
        bool have = product_waves(r, gpu, &w);
        cJSON *p = cJSON_CreateObject();
        cJSON_AddStringToObject(p, "id", gpu->id);
        cJSON_AddNumberToObject(p, wgp ? "wgps" : "cus", amd_product_units(r->target, gpu));
        cli_json_number_or_null(p, "waves", have, w.waves);
        cli_json_number_or_null(p, "full_waves", have, (double)w.full_waves);
        cli_json_number_or_null(p, "last_wave_fill", have, w.last_wave_fill);
        cli_json_number_or_null(p, "idle", have, w.idle_fraction);
        cJSON_AddNumberToObject(p, "persistent_grid", persistent_grid(r, gpu));
        cJSON_AddItemToArray(products, p);
    }
}

void report_amd_add_json(cJSON *root, const ReportAmd *amd)
{
    cJSON *rows = cJSON_AddArrayToObject(root, "amd");
    for (int i = 0; i < amd->n_rows; i++) {
        const ReportAmdRow *r = &amd->rows[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "file", r->file);
        cJSON_AddStringToObject(o, "kernel", r->kernel);
        cJSON_AddStringToObject(o, "arch", r->target->gfx);
        cJSON_AddNumberToObject(o, "threads", r->threads);
        cJSON_AddNumberToObject(o, "wave_size", r->target->wave_size);
        cJSON_AddNumberToObject(o, "vgprs", r->usage.registers);
        cJSON_AddNumberToObject(o, "agprs", r->usage.agprs);
        cJSON_AddNumberToObject(o, "sgprs", r->usage.sgprs);
        cJSON_AddNumberToObject(o, "lds", r->usage.static_smem);
        cJSON_AddNumberToObject(o, "scratch", r->usage.stack_frame);
        cJSON_AddNumberToObject(o, "vgpr_spills", r->usage.vgpr_spills);
        cJSON_AddNumberToObject(o, "sgpr_spills", r->usage.sgpr_spills);
        cJSON_AddNumberToObject(o, "waves_per_simd", r->result.waves_per_simd);
        cJSON_AddNumberToObject(o, "max_waves_per_simd", r->result.max_waves_per_simd);
        cJSON_AddNumberToObject(o, strcmp(r->target->occupancy_unit, "WGP") == 0
                                       ? "workgroups_per_wgp" : "workgroups_per_cu",
                                r->result.workgroups_per_unit);
        cJSON_AddNumberToObject(o, "occupancy", amd_occupancy(&r->result));
        cJSON *lim = cJSON_AddArrayToObject(o, "limited_by");
        for (int l = 0; l < AMD_N_LIMITERS; l++)
            if (r->result.limited_by & (1u << l))
                cJSON_AddItemToArray(lim, cJSON_CreateString(amd_limiter_name((AmdLimiter)l)));
        cli_json_number_or_null(o, "vgprs_to_cut", r->next.vgprs_to_cut >= 0, r->next.vgprs_to_cut);
        cli_json_number_or_null(o, "lds_to_cut", r->next.lds_to_cut >= 0, (double)r->next.lds_to_cut);
        add_products_json(o, amd, r);
        cJSON_AddItemToArray(rows, o);
    }
}

void report_amd_free(ReportAmd *amd)
{
    for (int i = 0; i < amd->n_rows; i++)
        if (!ends_with(amd->rows[i].file, ".hsaco"))
            free((char *)amd->rows[i].kernel);
    free(amd->rows);
    amd_table_free(&amd->table);
    *amd = (ReportAmd){0};
}
