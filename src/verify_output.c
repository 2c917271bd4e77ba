/*
 * verify_output.c: the report of `silk-occ verify`, as text for people and
 * as JSON (schema "silk-occ/verify/1", documented in silk-occ(1)).  Both end
 * in the same count: every property and every answer checked, and how many
 * disagree.  Resident clusters also say whose GPC layout the engine counted
 * on; where none is public every device figure is listed, since then it is
 * the only figure there is, and one a user can send us.
 */
#include "verify.h"

#include "escape.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void describe_query(const VerifyQuery *q, char *buf, size_t size)
{
    char carveout[16];
    if (q->carveout == OCC_CARVEOUT_DEFAULT)
        snprintf(carveout, sizeof carveout, "default");
    else
        snprintf(carveout, sizeof carveout, "%d%%", q->carveout);
    if (q->kind == VQ_ACTIVE_BLOCKS)
        snprintf(buf, size, "block %d, dynamic smem %lld", q->block_size,
                 (long long)q->dynamic_smem);
    else if (q->kind == VQ_BLOCK_SIZE)
        snprintf(buf, size, "dynamic smem %lld", (long long)q->dynamic_smem);
    else if (q->kind == VQ_ACTIVE_CLUSTERS)
        snprintf(buf, size, "cluster %d, block %d, dynamic smem %lld", q->cluster_size,
                 q->block_size, (long long)q->dynamic_smem);
    else
        snprintf(buf, size, "%d blocks of %d", q->num_blocks, q->block_size);
    size_t used = strlen(buf);
    snprintf(buf + used, size - used, "; carveout %s, max dynamic smem %lld", carveout,
             (long long)q->max_dynamic_smem);
}

static void describe_answer(const VerifyQuery *q, const VerifyAnswer *a, char *buf, size_t size)
{
    char error[4 * sizeof a->error];
    if (!a->ok)
        snprintf(buf, size, "error (%s)", (escape_text(a->error, error, sizeof error), error));
    else if (q->kind == VQ_BLOCK_SIZE)
        snprintf(buf, size, "block %lld, min grid %lld", (long long)a->value,
                 (long long)a->min_grid);
    else if (a->bound)
        snprintf(buf, size, "at most %lld", (long long)a->value);
    else
        snprintf(buf, size, "%lld", (long long)a->value);
}

static void print_properties(const VerifyReport *r, FILE *out)
{
    int mismatches = 0;
    for (int i = 0; i < r->n_props; i++) {
        const PropCheck *p = &r->props_checked[i];
        if (p->device == p->table)
            continue;
        fprintf(out, "  property %s: device %lld, %s %lld\n", p->field, (long long)p->device,
                p->source, (long long)p->table);
        mismatches++;
    }
    if (!r->row_name)
        fprintf(out, "  the tables have no row for compute capability %d.%d: add one with "
                     "--arch-table (see silk-arch-tables(5))\n",
                r->props->major, r->props->minor);
    fprintf(out, "properties: %d checked, %d disagree\n", r->n_props, mismatches);
}

/* "product h100-sxm (by compute capability 9.0 and 132 SMs)". */
static void cluster_source(const VerifyReport *r, char *buf, size_t size)
{
    const GpuProduct *gpu = r->cluster_product;
    char id[4 * sizeof gpu->id];
    escape_text(gpu->id, id, sizeof id); /* an --arch-table may name it */
    if (r->cluster_by_name)
        snprintf(buf, size, "product %s (by the device's name)", id);
    else
        snprintf(buf, size, "product %s (by compute capability %d.%d and %d SMs)", id,
                 gpu->major, gpu->minor, gpu->sm_count);
}

/* The cluster section: whose layout, and without one every device figure. */
static void print_clusters(const VerifyReport *r, FILE *out)
{
    if (r->n_clusters == 0)
        return;
    int disagree = 0;
    for (int i = 0; i < r->n_clusters; i++)
        disagree += !verify_answers_agree(&r->clusters[i].query, &r->clusters[i].runtime,
                                          &r->clusters[i].engine);
    char source[4 * OCC_NAME_MAX + 64], id[4 * OCC_NAME_MAX];
    const GpuProduct *gpu = r->cluster_product;
    if (gpu && gpu->gpcs > 0) {
        cluster_source(r, source, sizeof source);
        fprintf(out, "clusters: %s, %d GPCs: %d checked, %d disagree\n", source, gpu->gpcs,
                r->n_clusters, disagree);
        return;
    }
    if (gpu)
        fprintf(out, "clusters: the GPC layout of product %s is not public",
                (escape_text(gpu->id, id, sizeof id), id));
    else
        fprintf(out, "clusters: no product of the tables has compute capability %d.%d, %d SMs "
                     "and a public GPC count",
                r->props->major, r->props->minor, r->props->sm_count);
    fprintf(out, ": %d checked against the bound SMs x CTAs per SM / cluster size, %d disagree\n"
                 "  these figures are the device's own (send them to us with the card's GPC "
                 "count):\n",
            r->n_clusters, disagree);
    for (int i = 0; i < r->n_clusters; i++) {
        const VerifyDisagreement *c = &r->clusters[i];
        char name[4 * sizeof r->kernels->name], runtime[700];
        escape_text(r->kernels[c->kernel].name, name, sizeof name);
        describe_answer(&c->query, &c->runtime, runtime, sizeof runtime);
        fprintf(out, "  cluster %s: %d CTAs of %d threads: device %s, bound %lld\n", name,
                c->query.cluster_size, c->query.block_size, runtime, (long long)c->engine.value);
    }
}

void verify_print_text(const VerifyReport *r, FILE *out)
{
    const DeviceProps *p = r->props;
    /* The names come from a record as well as from a device: escaped, so
     * that no name can forge a line of the report. */
    char name[4 * sizeof p->name];
    escape_text(p->name, name, sizeof name);
    fprintf(out, "device %d: %s, compute capability %d.%d, %d SMs\n", r->device, name, p->major,
            p->minor, p->sm_count);
    print_properties(r, out);
    for (int i = 0; i < r->n_kernels; i++) {
        const VerifyKernel *k = &r->kernels[i];
        escape_text(k->name, name, sizeof name);
        fprintf(out, "kernel %-24s %3d regs %6lld B smem %4d threads max  %5d checked, %d disagree\n",
                name, k->attrs.num_regs, (long long)k->attrs.static_smem,
                k->attrs.max_threads_per_block, r->checked_per_kernel[i],
                r->disagree_per_kernel[i]);
    }
    print_clusters(r, out);
    for (int i = 0; i < r->n_disagreements; i++) {
        const VerifyDisagreement *d = &r->disagreements[i];
        char query[160], runtime[700], engine[700];
        describe_query(&d->query, query, sizeof query);
        describe_answer(&d->query, &d->runtime, runtime, sizeof runtime);
        describe_answer(&d->query, &d->engine, engine, sizeof engine);
        escape_text(r->kernels[d->kernel].name, name, sizeof name);
        fprintf(out, "disagree: %s: %s (%s): runtime %s, silk-occ %s\n", name, verify_query_call(d->query.kind), query, runtime,
                engine);
    }
    fprintf(out, "%ld checked, %ld disagree\n", r->checked, r->disagree);
}

/* ---- JSON ------------------------------------------------------------------ */

static cJSON *answer_json(const VerifyQuery *q, const VerifyAnswer *a)
{
    cJSON *o = cJSON_CreateObject();
    if (!a->ok) {
        cJSON_AddStringToObject(o, "error", a->error);
        return o;
    }
    cJSON_AddNumberToObject(o, q->kind == VQ_ACTIVE_BLOCKS     ? "active_blocks_per_sm"
                               : q->kind == VQ_BLOCK_SIZE    ? "block_size"
                               : q->kind == VQ_ACTIVE_CLUSTERS ? "active_clusters"
                                                             : "dynamic_smem",
                            (double)a->value);
    if (q->kind == VQ_BLOCK_SIZE)
        cJSON_AddNumberToObject(o, "min_grid", (double)a->min_grid);
    if (a->bound)
        cJSON_AddBoolToObject(o, "bound", true);
    return o;
}

static cJSON *disagreement_json(const VerifyReport *r, const VerifyDisagreement *d)
{
    const VerifyQuery *q = &d->query;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "kernel", r->kernels[d->kernel].name);
    cJSON_AddStringToObject(o, "call", verify_query_call(q->kind));
    cJSON_AddStringToObject(o, "query", verify_query_name(q->kind));
    cJSON_AddNumberToObject(o, "carveout", q->carveout);
    cJSON_AddNumberToObject(o, "max_dynamic_smem", (double)q->max_dynamic_smem);
    if (q->kind != VQ_BLOCK_SIZE)
        cJSON_AddNumberToObject(o, "threads", q->block_size);
    if (q->kind != VQ_DYNAMIC_SMEM)
        cJSON_AddNumberToObject(o, "dynamic_smem", (double)q->dynamic_smem);
    else
        cJSON_AddNumberToObject(o, "blocks", q->num_blocks);
    if (q->kind == VQ_ACTIVE_CLUSTERS)
        cJSON_AddNumberToObject(o, "cluster_size", q->cluster_size);
    cJSON_AddItemToObject(o, "runtime", answer_json(q, &d->runtime));
    cJSON_AddItemToObject(o, "engine", answer_json(q, &d->engine));
    return o;
}

static cJSON *device_json(const VerifyReport *r)
{
    cJSON *d = cJSON_CreateObject();
    cJSON_AddNumberToObject(d, "index", r->device);
    cJSON_AddStringToObject(d, "name", r->props->name);
    char cc[16];
    snprintf(cc, sizeof cc, "%d.%d", r->props->major, r->props->minor);
    cJSON_AddStringToObject(d, "compute_capability", cc);
    cJSON_AddNumberToObject(d, "sm_count", r->props->sm_count);
    if (r->row_name)
        cJSON_AddStringToObject(d, "table_row", r->row_name);
    else
        cJSON_AddNullToObject(d, "table_row");
    return d;
}

static cJSON *properties_json(const VerifyReport *r)
{
    cJSON *list = cJSON_CreateArray();
    for (int i = 0; i < r->n_props; i++) {
        const PropCheck *p = &r->props_checked[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "field", p->field);
        cJSON_AddStringToObject(o, "source", p->source);
        cJSON_AddNumberToObject(o, "device", (double)p->device);
        cJSON_AddNumberToObject(o, "table", (double)p->table);
        cJSON_AddBoolToObject(o, "agree", p->device == p->table);
        cJSON_AddItemToArray(list, o);
    }
    return list;
}

static cJSON *kernels_json(const VerifyReport *r)
{
    cJSON *list = cJSON_CreateArray();
    for (int i = 0; i < r->n_kernels; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", r->kernels[i].name);
        cJSON_AddStringToObject(o, "origin", r->kernels[i].origin);
        cJSON_AddItemToObject(o, "attributes", verify_attrs_json(&r->kernels[i].attrs));
        cJSON_AddNumberToObject(o, "checked", r->checked_per_kernel[i]);
        cJSON_AddNumberToObject(o, "disagree", r->disagree_per_kernel[i]);
        cJSON_AddItemToArray(list, o);
    }
    return list;
}

/* "clusters": whose layout, and every answer with whether it agrees. */
static cJSON *clusters_json(const VerifyReport *r)
{
    cJSON *o = cJSON_CreateObject();
    const GpuProduct *gpu = r->cluster_product;
    if (gpu) {
        cJSON_AddStringToObject(o, "product", gpu->id);
        cJSON_AddStringToObject(o, "matched_by",
                                r->cluster_by_name ? "name" : "compute_capability_and_sm_count");
    } else {
        cJSON_AddNullToObject(o, "product");
        cJSON_AddNullToObject(o, "matched_by");
    }
    if (gpu && gpu->gpcs > 0)
        cJSON_AddNumberToObject(o, "gpcs", gpu->gpcs);
    else
        cJSON_AddNullToObject(o, "gpcs");
    cJSON *list = cJSON_AddArrayToObject(o, "answers");
    for (int i = 0; i < r->n_clusters; i++) {
        const VerifyDisagreement *c = &r->clusters[i];
        cJSON *row = disagreement_json(r, c);
        cJSON_AddBoolToObject(row, "agree",
                              verify_answers_agree(&c->query, &c->runtime, &c->engine));
        cJSON_AddItemToArray(list, row);
    }
    return o;
}

int verify_print_json(const VerifyReport *r, FILE *out)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "schema", "silk-occ/verify/1");
    cJSON_AddItemToObject(root, "device", device_json(r));
    cJSON_AddItemToObject(root, "properties", properties_json(r));
    cJSON_AddItemToObject(root, "kernels", kernels_json(r));
    cJSON *list = cJSON_AddArrayToObject(root, "disagreements");
    for (int i = 0; i < r->n_disagreements; i++)
        cJSON_AddItemToArray(list, disagreement_json(r, &r->disagreements[i]));
    if (r->n_clusters > 0)
        cJSON_AddItemToObject(root, "clusters", clusters_json(r));
    cJSON_AddNumberToObject(root, "checked", (double)r->checked);
    cJSON_AddNumberToObject(root, "disagree", (double)r->disagree);
    return cli_print_json("verify", root, out);
}
