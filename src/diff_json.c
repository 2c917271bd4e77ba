/*
 * diff_json.c: `silk-occ diff --format json`, for scripts and CI:
 * "schema": "silk-occ/diff/1", documented in docs/diff-schema.json and
 * docs/report-schema.md.  cJSON escapes the names from the reports.
 */
#include "cli.h"
#include "diff_model.h"

#include <cjson/cJSON.h>

static cJSON *figures(const DiffFigures *f)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "regs_per_thread", (double)f->regs);
    cJSON_AddNumberToObject(o, "static_smem", (double)f->static_smem);
    cJSON_AddNumberToObject(o, "spill_bytes", (double)f->spills);
    cli_json_number_or_null(o, "threads", f->selected, (double)f->threads);
    cli_json_number_or_null(o, "active_blocks_per_sm", f->selected, (double)f->ctas);
    cli_json_number_or_null(o, "occupancy", f->selected, f->occupancy);
    return o;
}

static cJSON *pair(const DiffPair *p)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "kernel", p->kernel);
    cJSON_AddStringToObject(o, "symbol", p->symbol);
    cJSON_AddStringToObject(o, "arch", p->arch);
    if (p->gpu)
        cJSON_AddStringToObject(o, "gpu", p->gpu);
    else
        cJSON_AddNullToObject(o, "gpu");
    cJSON_AddStringToObject(o, "status", diff_status_name(p->status));
    cJSON *reasons = cJSON_AddArrayToObject(o, "reasons");
    for (int i = 0; i < DIFF_N_REASONS; i++)
        if (p->reasons & (1u << i))
            cJSON_AddItemToArray(reasons, cJSON_CreateString(diff_reason_name(i)));
    cJSON_AddItemToObject(o, "old", p->has_old ? figures(&p->old) : cJSON_CreateNull());
    cJSON_AddItemToObject(o, "new", p->has_new ? figures(&p->new) : cJSON_CreateNull());
    return o;
}

static cJSON *summary(const DiffModel *m)
{
    const size_t *c = m->count;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "compared", (double)(c[DIFF_UNCHANGED] + c[DIFF_NEUTRAL] +
                                                    c[DIFF_IMPROVEMENT] + c[DIFF_REGRESSION]));
    static const char *const keys[] = {"unchanged", "neutral", "improvements",
                                       "regressions", "added", "removed"};
    for (int s = DIFF_UNCHANGED; s <= DIFF_REMOVED; s++)
        cJSON_AddNumberToObject(o, keys[s], (double)c[s]);
    return o;
}

int diff_write_json(const DiffModel *m, FILE *out)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "schema", "silk-occ/diff/1");
    cJSON_AddStringToObject(root, "old", m->old_path);
    cJSON_AddStringToObject(root, "new", m->new_path);
    cJSON_AddNumberToObject(root, "tolerance", m->tolerance);
    cJSON_AddBoolToObject(root, "regression", diff_has_regression(m));
    cJSON_AddItemToObject(root, "summary", summary(m));
    cJSON *pairs = cJSON_AddArrayToObject(root, "pairs");
    for (size_t i = 0; i < m->n_pairs; i++)
        cJSON_AddItemToArray(pairs, pair(&m->pairs[i]));
    return cli_print_json("diff", root, out);
}
