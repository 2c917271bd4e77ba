/*
 * report_amd.c: `silk-occ report` on AMD targets (report_amd.h).
 */
#include "report_amd.h"

#include "amdgpu/hsaco.h"
#include "build.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const char *const COMMAND = "report";

bool report_amd_take_targets(char *list, ReportAmd *amd)
{
    OccError err;
    *amd = (ReportAmd){0};
    if (amd_table_load_builtin(&amd->table, &err) != 0) {
        cli_error(COMMAND, "%s", err.message);
        return false;
    }
    /* An empty list or element is refused as cli_split_list refuses it
     * (the NVIDIA side would only see what is left). */
    size_t len = strlen(list);
    if (len == 0) {
        cli_error(COMMAND, "--arch: the list is empty");
        return false;
    }
    if (list[0] == ',' || list[len - 1] == ',' || strstr(list, ",,")) {
        cli_error(COMMAND, "--arch: '%s' has an empty element", list);
        return false;
    }
    char *kept = list, *p = list;
    while (*p) {
        size_t n = strcspn(p, ",");
        char name[OCC_NAME_MAX];
        snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), p);
        const AmdTarget *t = amd_table_find(&amd->table, name);
        if (t && amd->n_targets == REPORT_AMD_MAX_TARGETS) {
            cli_error(COMMAND, "--arch: at most %d AMD targets", REPORT_AMD_MAX_TARGETS);
            return false;
        }
        if (t) {
            amd->targets[amd->n_targets++] = t;
        } else { /* an NVIDIA name (or a wrong one, said by the NVIDIA side) */
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

/* The code object's .vgpr_count is the unified file's total on gfx90a and
 * gfx942 (the AGPRs after the VGPRs), so it goes to the engine whole. */
static int add_kernels(ReportAmd *amd, const char *file, const AmdTarget *t,
                       const UsageReport *u)
{
    for (int k = 0; k < u->n_kernels; k++) {
        const KernelUsage *ku = &u->kernels[k];
        ReportAmdRow row = {.file = file, .kernel = ku->name, .target = t, .usage = *ku,
                            .threads = ku->max_threads > 0 ? ku->max_threads : t->max_workgroup_size};
        AmdKernel kernel = {.vgprs = ku->registers, .agprs = 0, .sgprs = ku->sgprs,
                            .lds = (uint64_t)ku->static_smem, .flat_workgroup_max = row.threads};
        if (amd_occupancy_calc(t, &kernel, row.threads, &row.result) != OCC_OK ||
            amd_next_step(t, &kernel, row.threads, &row.next) != OCC_OK) {
            cli_error(COMMAND, "%s: %s on %s: figures the %s row cannot use (%d VGPRs, %d SGPRs)",
                      file, ku->name, t->gfx, t->gfx, ku->registers, ku->sgprs);
            return EXIT_FINDINGS;
        }
        if (!push_row(amd, &row)) {
            cli_error(COMMAND, "out of memory");
            return EXIT_ENVIRONMENT;
        }
    }
    return EXIT_OK;
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

/* A .hsaco file is measured already, for its own target only. */
static int measure_hsaco(ReportAmd *amd, const char *path, Arena *arena)
{
    UsageReport u;
    if (amdgpu_code_object_usage(path, arena, &u) != 0) {
        cli_error(COMMAND, "%s: %s", path, u.errors ? u.errors : "not a code object");
        return EXIT_USAGE;
    }
    for (int i = 0; i < amd->n_targets; i++)
        if (u.arch && strcmp(u.arch, amd->targets[i]->gfx) == 0)
            return add_kernels(amd, path, amd->targets[i], &u);
    cli_warning(COMMAND, "%s: a code object for %s, which --arch does not name", path,
                u.arch ? u.arch : "an unknown target");
    return EXIT_OK;
}

static int build_failed(const char *path, const Build *b, BuildStatus status)
{
    if (status == BUILD_SOURCE_ERRORS || status == BUILD_COMPILER_BUG)
        return EXIT_FINDINGS;
    for (int t = 0; t < b->n_targets; t++)
        if (b->targets[t].usage.exit_status != 0) {
            const char *errors = b->targets[t].usage.errors;
            cli_error(COMMAND, "%s: %s for %s failed%s%s", path, b->tool ? b->tool : "llc",
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

static int measure_silk(ReportAmd *amd, const char *path)
{
    Compilation c;
    compile_init(&c, stderr);
    if (!compile_load(&c, path, path, PKG_ROOT)) {
        cli_error(COMMAND, "%s: cannot read: %s", path, strerror(errno));
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
        rc = add_kernels(amd, path, amd->targets[i], &b.targets[i].usage);
    /* The rows keep the kernel names: copy them out of the compilation. */
    for (int i = 0; i < amd->n_rows; i++)
        if (amd->rows[i].file == path && amd->rows[i].kernel)
            amd->rows[i].kernel = strdup(amd->rows[i].kernel);
    build_finish(&b);
    diag_finish(&c.diag);
    compile_free(&c);
    return rc;
}

int report_amd_measure(ReportAmd *amd, char *const files[], int n, Arena *arena)
{
    for (int i = 0; i < n; i++) {
        int rc = ends_with(files[i], ".hsaco") ? measure_hsaco(amd, files[i], arena)
                                               : measure_silk(amd, files[i]);
        if (rc != EXIT_OK)
            return rc;
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

void report_amd_write_text(const ReportAmd *amd, FILE *out)
{
    fputs("\nAMD targets (waves per SIMD as LLVM 19 counts them, at the kernel's "
          "flat-work-group-size):\n\n",
          out);
    fprintf(out, "%-24s %-8s %7s %5s %5s %5s %7s %10s %8s  %-20s %s\n", "kernel", "target",
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
        fprintf(out, "%-24s %-8s %7d %5d %5d %5d %7d %7d/%-2d %5d/%-3s  %-20s %s\n", r->kernel,
                r->target->gfx, r->threads, r->usage.registers, r->usage.agprs, r->usage.sgprs,
                r->usage.static_smem, r->result.waves_per_simd, r->result.max_waves_per_simd,
                r->result.workgroups_per_unit, r->target->occupancy_unit, lim, next);
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
