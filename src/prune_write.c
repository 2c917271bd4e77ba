/*
 * prune_write.c: `silk-occ prune`'s two formats.  Text for people: per
 * architecture the feasible configurations as a table, by occupancy, and
 * the dropped ones each with its reason.  JSON for scripts (schema
 * "silk-occ/prune/1", docs/prune-schema.json): one configuration per
 * line, so that a million of them stream out without a million-node tree.
 * Every string goes through cJSON's printer; the parameter names are
 * identifiers and the architecture names the tables' own.
 */
#include "prune_model.h"

#include "json_figures.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

void prune_why(const Target *t, const PruneRecord *r, char *buf, size_t size)
{
    const ArchLimits *a = t->arch;
    const OccPruneConfig *c = &r->config;
    const char *arch = t->sm_name;
    char x[32], y[32];
    unsigned long long threads = c->threads, regs = c->regs, cluster = c->cluster;
    switch (r->verdict.reason) {
    case OCC_PRUNE_EMPTY_BLOCK:
        snprintf(buf, size, "a block of 0 threads");
        return;
    case OCC_PRUNE_BLOCK_TOO_LARGE:
        snprintf(buf, size, "%llu threads per block is above the block limit of %d on %s", threads,
                 a->max_threads_per_block, arch);
        return;
    case OCC_PRUNE_REGS_OVER_MAX:
        snprintf(buf, size, "%llu registers per thread is above the %d a thread may use on %s",
                 regs, a->max_regs_per_thread, arch);
        return;
    case OCC_PRUNE_STATIC_SMEM_OVER_LIMIT:
        format_bytes_pair(c->static_smem, x, (uint64_t)a->smem_per_block, y, sizeof x);
        snprintf(buf, size, "%s of static shared memory is above the %s static limit per block "
                            "on %s (larger sizes must be dynamic)", x, y, arch);
        return;
    case OCC_PRUNE_SMEM_OVER_OPTIN:
        format_bytes_pair(c->static_smem + c->dynamic_smem, x, (uint64_t)a->smem_per_block_optin, y,
                          sizeof x);
        snprintf(buf, size, "%s of shared memory per block is above the %s opt-in limit on %s", x,
                 y, arch);
        return;
    case OCC_PRUNE_CLUSTER_NOT_RESIDENT:
        if (occ_cluster_limit(a, true) == 0)
            snprintf(buf, size, "%s has no thread-block clusters", arch);
        else if (cluster > (unsigned long long)occ_cluster_limit(a, true))
            snprintf(buf, size, "a cluster of %llu CTAs is above the %d a cluster may hold on %s",
                     cluster, occ_cluster_limit(a, true), arch);
        else
            snprintf(buf, size, "no CTA of the cluster of %llu is resident on an SM of %s", cluster,
                     arch);
        return;
    default: {
        /* What binds at zero: the limiters that allow no CTA. */
        const OccFigures *f = &r->verdict.figures;
        size_t used = (size_t)snprintf(buf, size, "no CTA fits an SM of %s (", arch);
        const char *sep = "";
        for (int i = 0; i < f->n_limiters && used < size; i++)
            if (f->limit[i] == 0) {
                used += (size_t)snprintf(buf + used, size - used, "%s%s", sep,
                                         occ_vendor_limiter_what(OCC_NVIDIA, i));
                sep = ", ";
            }
        if (used < size)
            snprintf(buf + used, size - used, "%s)", *sep ? " allow none" : "the engine's count");
        return;
    }
    }
}

/* ---- text ----------------------------------------------------------------- */

/* "BLOCK_M=128 STAGES=3". */
static void params_text(const PruneSpace *s, uint32_t index, char *buf, size_t size)
{
    uint64_t values[PRUNE_MAX_PARAMS];
    size_t used = 0;
    prune_space_values(s, index, values);
    buf[0] = '\0';
    for (size_t i = 0; i < s->n_params && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s=%llu", i ? " " : "",
                                 s->params[i].name, (unsigned long long)values[i]);
}

static void limited_by_text(const OccFigures *f, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < f->n_limiters && used < size; i++)
        if (f->limited_by & (1u << i))
            used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? ", " : "",
                                     occ_vendor_limiter_what(OCC_NVIDIA, i));
}

static void write_target_text(const PruneSpace *s, const PruneTarget *t, FILE *out)
{
    char params[PRUNE_MAX_PARAMS * 56], smem[32], why[320], limits[96];
    int width = 10;
    for (size_t i = 0; i < t->n_records; i++) {
        params_text(s, t->records[i].index, params, sizeof params);
        width = (int)strlen(params) > width ? (int)strlen(params) : width;
    }
    fprintf(out, "%s (%s): %zu configurations, %zu feasible, %zu dropped\n", t->target.sm_name,
            t->target.arch->family, t->n_records, t->n_feasible, t->n_records - t->n_feasible);
    if (t->n_feasible)
        fprintf(out, "\n  %-*s  threads  regs       smem  CTAs/SM  occupancy  limited by\n", width,
                "feasible");
    for (size_t i = 0; i < t->n_feasible; i++) {
        const PruneRecord *r = &t->records[i];
        params_text(s, r->index, params, sizeof params);
        limited_by_text(&r->verdict.figures, limits, sizeof limits);
        format_bytes(r->config.static_smem + r->config.dynamic_smem, smem, sizeof smem);
        fprintf(out, "  %-*s  %7llu  %4llu  %9s  %7d  %8.1f%%  %s\n", width, params,
                (unsigned long long)r->config.threads, (unsigned long long)r->config.regs, smem,
                r->verdict.figures.groups, 100 * occ_figures_occupancy(&r->verdict.figures), limits);
    }
    if (t->n_feasible < t->n_records)
        fprintf(out, "\n  dropped\n");
    for (size_t i = t->n_feasible; i < t->n_records; i++) {
        const PruneRecord *r = &t->records[i];
        params_text(s, r->index, params, sizeof params);
        prune_why(&t->target, r, why, sizeof why);
        fprintf(out, "  %-*s  %s: %s\n", width, params, occ_prune_reason_name(r->verdict.reason),
                why);
    }
}

/* ---- JSON ----------------------------------------------------------------- */

/* Prints o without its last '}' (what follows adds keys) or whole, and
 * deletes it; false when there is no memory for the text. */
static bool print_object(cJSON *o, bool open, FILE *out)
{
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    if (!text)
        return false;
    size_t len = strlen(text);
    fwrite(text, 1, open ? len - 1 : len, out);
    free(text);
    return true;
}

static cJSON *record_json(const PruneSpace *s, const PruneTarget *t, const PruneRecord *r)
{
    cJSON *o = cJSON_CreateObject(), *params = cJSON_AddObjectToObject(o, "params");
    uint64_t values[PRUNE_MAX_PARAMS];
    prune_space_values(s, r->index, values);
    for (size_t i = 0; i < s->n_params; i++)
        cli_json_add_count(params, s->params[i].name, values[i]);
    const OccPruneConfig *c = &r->config;
    cli_json_add_count(o, "threads", c->threads);
    cli_json_add_count(o, "regs", c->regs);
    cli_json_add_count(o, "static_smem", c->static_smem);
    cli_json_add_count(o, "dynamic_smem", c->dynamic_smem);
    cli_json_number_or_null(o, "cluster", c->cluster > 1, (double)c->cluster);
    if (r->verdict.reason != OCC_PRUNE_FEASIBLE) {
        char why[320];
        prune_why(&t->target, r, why, sizeof why);
        cJSON_AddStringToObject(o, "reason", occ_prune_reason_name(r->verdict.reason));
        cJSON_AddStringToObject(o, "why", why);
        return o;
    }
    const OccFigures *f = &r->verdict.figures;
    cJSON_AddNumberToObject(o, "active_blocks_per_sm", f->groups);
    cJSON_AddNumberToObject(o, "active_warps_per_sm", f->active);
    cJSON_AddNumberToObject(o, "occupancy", occ_figures_occupancy(f));
    cJSON *limited_by = cJSON_AddArrayToObject(o, "limited_by");
    for (int i = 0; i < f->n_limiters; i++)
        if (f->limited_by & (1u << i))
            cJSON_AddItemToArray(limited_by, cJSON_CreateString(occ_vendor_limiter_name(OCC_NVIDIA, i)));
    return o;
}

static bool write_records(const PruneSpace *s, const PruneTarget *t, size_t from, size_t to,
                          FILE *out)
{
    for (size_t i = from; i < to; i++) {
        fputs(i > from ? ",\n" : "\n", out);
        if (!print_object(record_json(s, t, &t->records[i]), false, out))
            return false;
    }
    return true;
}

static bool write_target_json(const PruneSpace *s, const PruneTarget *t, FILE *out)
{
    const ArchLimits *a = t->target.arch;
    char cc[16];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "arch", t->target.sm_name);
    snprintf(cc, sizeof cc, "%d.%d", a->major, a->minor);
    cJSON_AddStringToObject(o, "compute_capability", cc);
    cJSON_AddStringToObject(o, "family", a->family);
    cJSON_AddNumberToObject(o, "n_feasible", (double)t->n_feasible);
    cJSON_AddNumberToObject(o, "n_dropped", (double)(t->n_records - t->n_feasible));
    if (!print_object(o, true, out))
        return false;
    fputs(",\"feasible\":[", out);
    if (!write_records(s, t, 0, t->n_feasible, out))
        return false;
    fputs("],\"dropped\":[", out);
    if (!write_records(s, t, t->n_feasible, t->n_records, out))
        return false;
    fputs("]}", out);
    return true;
}

static bool write_head_json(const PruneSpace *s, FILE *out)
{
    cJSON *head = cJSON_CreateObject();
    cJSON_AddStringToObject(head, "schema", "silk-occ/prune/1");
    json_add_tool(head, NULL);
    cJSON *names = cJSON_AddArrayToObject(head, "parameters");
    for (size_t i = 0; i < s->n_params; i++)
        cJSON_AddItemToArray(names, cJSON_CreateString(s->params[i].name));
    cJSON *formulas = cJSON_AddObjectToObject(head, "formulas");
    for (int k = 0; k < PRUNE_N_KEYS; k++)
        if (s->text[k])
            cJSON_AddStringToObject(formulas, prune_key_name((PruneKey)k), s->text[k]);
        else
            cJSON_AddNullToObject(formulas, prune_key_name((PruneKey)k));
    cJSON_AddNumberToObject(head, "configurations", (double)s->n_configs);
    if (!print_object(head, true, out))
        return false;
    fputs(",\"targets\":[\n", out);
    return true;
}

/* ---- the document, a target at a time ---------------------------------- */

bool prune_write_begin(const PruneSpace *s, OutputFormat format, FILE *out)
{
    if (format != FORMAT_JSON || write_head_json(s, out))
        return true;
    cli_error("prune", "out of memory for the JSON");
    return false;
}

bool prune_write_target(const PruneSpace *s, const PruneTarget *t, size_t i, OutputFormat format,
                        FILE *out)
{
    if (i) /* a blank line between the texts; a comma between the objects */
        fputs(format == FORMAT_JSON ? ",\n" : "\n", out);
    if (format != FORMAT_JSON) {
        write_target_text(s, t, out);
        return true;
    }
    if (write_target_json(s, t, out))
        return true;
    cli_error("prune", "out of memory for the JSON");
    return false;
}

int prune_write_end(OutputFormat format, FILE *out)
{
    if (format == FORMAT_JSON)
        fputs("\n]}\n", out);
    if (fflush(out) != 0 || ferror(out)) {
        cli_error("prune", "cannot write the output");
        return EXIT_ENVIRONMENT;
    }
    return EXIT_OK;
}
