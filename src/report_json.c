/*
 * report_json.c: `silk-occ report --format json`, one object (schema
 * "silk-occ/report/3", docs/report-schema.md) with a "reports" array, one
 * element per kernel x target holding every number of the text report.
 * Occupancy rows are written by calc's row writer, so their keys are
 * those of `silk-occ calc` JSON.
 */
#include "report_writers.h"

#include "json_figures.h"

#include "cli.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Figures only one vendor has: null on the other's entries, so that
 * every entry has the same keys. */
static void vendor_number(cJSON *o, const char *key, bool present, double value)
{
    cli_json_number_or_null(o, key, present, value);
}

static void add_target(cJSON *o, const ReportEntry *e)
{
    const Target *t = &e->target;
    bool amd = t->vendor == OCC_AMD;
    char cc[16];
    ReportGpu gpu;
    cJSON_AddStringToObject(o, "vendor", amd ? "amd" : "nvidia");
    cJSON_AddStringToObject(o, "arch", t->sm_name);
    if (amd) {
        cJSON_AddNullToObject(o, "compute_capability");
    } else {
        snprintf(cc, sizeof cc, "%d.%d", t->arch->major, t->arch->minor);
        cJSON_AddStringToObject(o, "compute_capability", cc);
    }
    cJSON_AddStringToObject(o, "family", amd ? t->amd->family : t->arch->family);
    cJSON_AddNumberToObject(o, "warp_size", report_warp_size(e));
    cJSON_AddStringToObject(o, "unit", report_terms(e).unit);
    bool named = report_named_gpu(e, &gpu);
    if (named)
        cJSON_AddStringToObject(o, "gpu", gpu.id);
    else
        cJSON_AddNullToObject(o, "gpu");
    /* --gpu a100 is a100-40gb: what was asked, beside what it means. */
    if (named && t->gpu_asked[0])
        cJSON_AddStringToObject(o, "gpu_asked", t->gpu_asked);
    else
        cJSON_AddNullToObject(o, "gpu_asked");
    cli_json_number_or_null(o, "sm_count", t->sm_count > 0, t->sm_count);
}

static void add_kernel(cJSON *o, const ReportEntry *e)
{
    const KernelUsage *u = &e->kernel.usage;
    bool amd = e->target.vendor == OCC_AMD;
    static const char *const inputs[] = {"silk", "ptx", "cuda", "cubin", "hsaco", "binary"};
    cJSON_AddStringToObject(o, "kernel", e->kernel.title);
    cJSON_AddStringToObject(o, "symbol", e->kernel.name);
    cJSON_AddStringToObject(o, "launch_name", e->kernel.cxx_name);
    cJSON_AddStringToObject(o, "file", e->kernel.file);
    cJSON_AddStringToObject(o, "input", inputs[e->kernel.input]);
    if (e->kernel.input == INPUT_BINARY) { /* machine code, or the binary's PTX */
        char ptx[32];
        snprintf(ptx, sizeof ptx, "compute_%d", e->kernel.from_ptx);
        if (e->kernel.from_ptx)
            cJSON_AddStringToObject(o, "from_ptx", ptx);
        else
            cJSON_AddNullToObject(o, "from_ptx");
    }
    if (e->units) { /* several files define the kernel (report_units.c) */
        cJSON *units = cJSON_AddArrayToObject(o, "units");
        for (int i = 0; i < e->n_units; i++)
            cJSON_AddItemToArray(units, cJSON_CreateString(e->units[i]));
    } else {
        cJSON_AddNullToObject(o, "units");
    }
    cJSON *absent = cJSON_AddArrayToObject(o, "absent_on");
    char list[512];
    snprintf(list, sizeof list, "%s", e->kernel.absent_on ? e->kernel.absent_on : "");
    for (char *save = NULL, *arch = strtok_r(list, ", ", &save); arch;
         arch = strtok_r(NULL, ", ", &save))
        cJSON_AddItemToArray(absent, cJSON_CreateString(arch));
    add_target(o, e);
    cJSON *r = cJSON_AddObjectToObject(o, "resources");
    cJSON_AddNumberToObject(r, "regs_per_thread", u->registers);
    cJSON_AddBoolToObject(r, "estimated", u->estimated);
    cJSON_AddNumberToObject(r, "static_smem", u->static_smem);
    cJSON_AddNumberToObject(r, "dynamic_smem", (double)e->dynamic_smem);
    if (e->kernel.extern_smem_unknown)
        cJSON_AddNullToObject(r, "dynamic_smem_used"); /* an executable cubin does not say */
    else
        cJSON_AddBoolToObject(r, "dynamic_smem_used", e->kernel.extern_smem || e->kernel.dynamic_smem);
    cJSON_AddBoolToObject(r, "registers_before_linking", e->kernel.calls_out);
    cJSON_AddBoolToObject(r, "occupancy_upper_bound", e->dynamic_smem_unsized);
    vendor_number(r, "barriers", !amd, e->resources.barriers);
    /* A cubin (or nvcc's) does not record spills: null, not 0. */
    cli_json_number_or_null(r, "spill_stores", u->spill_stores >= 0, u->spill_stores);
    cli_json_number_or_null(r, "spill_loads", u->spill_loads >= 0, u->spill_loads);
    cJSON_AddNumberToObject(r, "stack_frame", u->stack_frame);
    vendor_number(r, "sgprs", amd, u->sgprs);
    vendor_number(r, "agprs", amd, u->agprs);
    vendor_number(r, "vgpr_spills", amd, u->vgpr_spills);
    vendor_number(r, "sgpr_spills", amd, u->sgpr_spills);
    cJSON *b = cJSON_AddObjectToObject(o, "launch_bounds");
    cli_json_number_or_null(b, "reqntid", e->kernel.reqntid > 0, e->kernel.reqntid);
    cli_json_number_or_null(b, "maxntid", e->kernel.maxntid > 0, e->kernel.maxntid);
    cli_json_number_or_null(b, "minnctapersm", e->kernel.minnctapersm > 0, e->kernel.minnctapersm);
    cli_json_number_or_null(b, "maxnreg", e->kernel.maxnreg > 0, e->kernel.maxnreg);
    cJSON_AddBoolToObject(b, "minnctapersm_ignored", e->min_ignored);
    cJSON *w = cJSON_AddArrayToObject(o, "ptxas_warnings");
    for (int i = 0; i < u->n_warnings; i++)
        cJSON_AddItemToArray(w, cJSON_CreateString(u->warnings[i]));
}

/* One row of the occupancy table: the keys of calc's rows, the same for
 * both vendors (active_blocks_per_sm counts an AMD target's workgroups
 * per CU or WGP), each vendor's own figures null on the other's rows. */
static cJSON *waves_object(const OccWaves *w, int sm_count);

/* The row's own tail: its CTAs, and its waves on each product the
 * entry's tail lists (null without work or a resident CTA). */
static void add_row_tail(cJSON *o, const ReportEntry *e, const ReportRow *row)
{
    if (e->have_work)
        cli_json_add_count(o, "ctas", row->ctas);
    else
        cJSON_AddNullToObject(o, "ctas");
    if (!row->has_waves) {
        cJSON_AddNullToObject(o, "tail");
        return;
    }
    cJSON *tail = cJSON_AddArrayToObject(o, "tail");
    for (int i = 0; i < e->n_tails; i++) {
        cJSON *p = waves_object(&row->waves[i], e->tails[i].sm_count);
        cJSON_AddStringToObject(p, "gpu", e->tails[i].gpu.id);
        cJSON_AddItemToArray(tail, p);
    }
}

static cJSON *row_object(const ReportEntry *e, const ReportRow *row)
{
    bool nv = row->fig.vendor == OCC_NVIDIA;
    cJSON *o = cJSON_CreateObject();
    json_add_figures(o, &(JsonFigures){row->threads, e->kernel.usage.registers,
                                       nv ? row->result.warps_per_block
                                          : row->amd.waves_per_workgroup,
                                       (uint64_t)e->kernel.usage.static_smem, row->dynamic_smem,
                                       &row->fig, &row->result, &row->amd});
    add_row_tail(o, e, row);
    json_add_next_step(o, e->target.vendor, &row->next, &row->amd_next, row->fig.groups > 0);
    return o;
}

/* What fixes the block size besides .reqntid (report_pins.c): the
 * library and its bound, the library deciding (no bound), or
 * --fixed-block-size; null when nothing does. */
static void add_pin(cJSON *sel, const ReportEntry *e)
{
    const ReportPin *p = &e->pin;
    bool library = p->library[0] && (p->by != REPORT_PIN_NONE || e->kernel.reqntid > 0);
    if (!library && p->by != REPORT_PIN_OPTION) {
        cJSON_AddNullToObject(sel, "pin");
        return;
    }
    cJSON *pin = cJSON_AddObjectToObject(sel, "pin");
    cJSON_AddStringToObject(pin, "by", p->by == REPORT_PIN_OPTION           ? "fixed_block_size"
                                       : p->by == REPORT_PIN_LIBRARY_UNBOUND ? "library_decides"
                                                                             : "library");
    if (library)
        cJSON_AddStringToObject(pin, "namespace", p->library);
    else
        cJSON_AddNullToObject(pin, "namespace");
    int threads = e->kernel.reqntid > 0 ? e->kernel.reqntid : p->threads;
    cli_json_number_or_null(pin, "threads", threads > 0, threads);
}

static void add_selection(cJSON *o, const ReportEntry *e)
{
    cJSON *rows = cJSON_AddArrayToObject(o, "occupancy_table");
    for (int i = 0; i < e->n_rows; i++)
        cJSON_AddItemToArray(rows, row_object(e, &e->rows[i]));
    const ReportRow *r = report_selected(e);
    cJSON *sel = cJSON_AddObjectToObject(o, "selected");
    cli_json_number_or_null(sel, "threads", r, r ? r->threads : 0);
    cli_json_number_or_null(sel, "active_blocks_per_sm", r, r ? r->fig.groups : 0);
    cli_json_number_or_null(sel, "occupancy", r, r ? occ_figures_occupancy(&r->fig) : 0);
    cli_json_number_or_null(sel, "grid", r && e->have_work, (double)e->ctas);
    add_pin(sel, e);
    cJSON *reasons = cJSON_AddArrayToObject(sel, "reasons");
    for (int i = 0; i < e->n_reasons; i++) {
        const Reason *x = &e->reasons[i];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "code", report_reason_name(x->code));
        cJSON_AddNumberToObject(j, "threads", x->threads);
        cJSON_AddNumberToObject(j, "blocks", x->blocks);
        cJSON_AddNumberToObject(j, "value", x->value);
        cJSON_AddItemToArray(reasons, j);
    }
}

static cJSON *waves_object(const OccWaves *w, int sm_count)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "sm_count", sm_count);
    cJSON_AddNumberToObject(o, "ctas_per_wave", (double)w->ctas_per_wave);
    cJSON_AddNumberToObject(o, "waves", w->waves);
    cJSON_AddNumberToObject(o, "full_waves", (double)w->full_waves);
    cJSON_AddNumberToObject(o, "last_wave_fill", w->last_wave_fill);
    cJSON_AddNumberToObject(o, "idle_fraction", w->idle_fraction);
    return o;
}

static void add_tail(cJSON *o, const ReportEntry *e)
{
    if (!e->have_work || !report_selected(e)) {
        cJSON_AddNullToObject(o, "tail");
        return;
    }
    cJSON *tail = cJSON_AddObjectToObject(o, "tail");
    cli_json_add_count(tail, "work", e->work); /* exact past 2^53 */
    cli_json_number_or_null(tail, "work_rows", e->work_rows > 0, (double)e->work_rows);
    cJSON *block = cJSON_AddArrayToObject(tail, "block");
    cJSON_AddItemToArray(block, cJSON_CreateNumber(e->block_x));
    cJSON_AddItemToArray(block, cJSON_CreateNumber(e->block_y));
    cJSON *grid = cJSON_AddArrayToObject(tail, "grid");
    cJSON_AddItemToArray(grid, cJSON_CreateNumber((double)e->grid_x));
    cJSON_AddItemToArray(grid, cJSON_CreateNumber((double)(e->grid_y ? e->grid_y : 1)));
    cJSON_AddStringToObject(tail, "work_from", e->work_from_launch ? "launch_block" : "option");
    cli_json_number_or_null(tail, "launch_line", e->work_from_launch, e->kernel.launch_line);
    cli_json_add_count(tail, "ctas", e->ctas);
    /* 1-D: the last CTA's work items; 2-D: the threads past the edges. */
    cJSON_AddNumberToObject(tail, "tail_threads", (double)e->tail_threads);
    cJSON_AddNumberToObject(tail, "tail_fraction",
                            e->work_rows ? (double)e->tail_threads /
                                               ((double)e->ctas * report_selected(e)->threads)
                                         : (double)e->tail_threads / (double)e->work);
    cJSON *products = cJSON_AddArrayToObject(tail, "products");
    for (int i = 0; i < e->n_tails; i++) {
        const TailRow *t = &e->tails[i];
        cJSON *p = waves_object(&t->waves, t->sm_count);
        cJSON_AddStringToObject(p, "gpu", t->gpu.id);
        cJSON_AddBoolToObject(p, "undersubscribed", t->undersubscribed);
        cJSON_AddBoolToObject(p, "bad_tail", t->bad);
        if (t->better_threads) {
            cJSON *b = waves_object(&t->better_waves, t->sm_count);
            cJSON_AddNumberToObject(b, "threads", t->better_threads);
            cJSON_AddItemToObject(p, "better", b);
        } else {
            cJSON_AddNullToObject(p, "better");
        }
        cJSON_AddItemToArray(products, p);
    }
}

/* What the kernel's own bound costs (report_model.h's BoundCost): the
 * figures null until ptxas compiled it without the bound. */
static void add_bound_cost(cJSON *o, const ReportEntry *e)
{
    const BoundCost *b = &e->bound_cost;
    cJSON *c = cJSON_AddObjectToObject(o, "bound_cost");
    cJSON_AddBoolToObject(c, "applies", b->applies);
    cJSON_AddBoolToObject(c, "checked_with_ptxas", b->checked);
    cli_json_number_or_null(c, "registers_unbounded", b->checked, b->registers);
    cli_json_number_or_null(c, "spill_stores_unbounded", b->checked, b->spill_stores);
    cli_json_number_or_null(c, "spill_loads_unbounded", b->checked, b->spill_loads);
    cli_json_number_or_null(c, "blocks_per_sm_unbounded", b->checked, b->blocks);
    cli_json_number_or_null(c, "occupancy_unbounded", b->checked, b->occupancy);
    cli_json_number_or_null(c, "blocks_per_sm_bounded", b->checked, b->bound_blocks);
    cli_json_number_or_null(c, "occupancy_bounded", b->checked, b->bound_occupancy);
    cJSON_AddBoolToObject(c, "forces_spills", b->forces_spills);
}

static void add_advice(cJSON *o, const ReportEntry *e)
{
    const CapAdvice *c = &e->cap;
    cJSON *a = cJSON_AddObjectToObject(o, "launch_bounds_advice");
    cJSON_AddBoolToObject(a, "applies", c->applies);
    cli_json_number_or_null(a, "max_registers", c->applies, c->cap);
    cli_json_number_or_null(a, "min_blocks_per_sm", c->applies, c->min_blocks);
    cli_json_number_or_null(a, "occupancy", c->applies, c->occupancy);
    vendor_number(a, "waves_per_eu", c->applies && e->target.vendor == OCC_AMD, c->waves);
    cJSON_AddBoolToObject(a, "checked_with_ptxas", c->checked);
    cli_json_number_or_null(a, "registers_at_cap", c->checked, c->cap_registers);
    cli_json_number_or_null(a, "spill_stores_at_cap", c->checked, c->cap_spill_stores);
    cli_json_number_or_null(a, "spill_loads_at_cap", c->checked, c->cap_spill_loads);
    cJSON_AddStringToObject(a, "form", report_cap_form_name(c->form));
    add_bound_cost(o, e);
}

static void add_code(cJSON *o, const ReportEntry *e)
{
    char code[REPORT_CODE_SIZE];
    cJSON *h = cJSON_AddObjectToObject(o, "host_code");
    report_silk_launch(e, code, sizeof code);
    if (e->kernel.input == INPUT_SILK)
        cJSON_AddStringToObject(h, "silk", code);
    else
        cJSON_AddNullToObject(h, "silk");
    bool amd = e->target.vendor == OCC_AMD;
    report_cuda_launch(e, code, sizeof code);
    cJSON_AddStringToObject(h, amd ? "hip" : "cuda", code);
    cJSON_AddNullToObject(h, amd ? "cuda" : "hip");
    cJSON *g = cJSON_AddObjectToObject(o, "grid_validity");
    cJSON_AddBoolToObject(g, "valid", e->grid_valid);
    cJSON_AddNumberToObject(g, "max_grid_x", (double)e->max_grid_x);
    cJSON_AddNumberToObject(g, "max_grid_y", (double)e->max_grid_y);
    cli_json_number_or_null(g, "grid_y", e->grid_y > 0, (double)e->grid_y);
    bool nvidia = e->target.vendor == OCC_NVIDIA;
    cJSON_AddBoolToObject(g, "smem_optin_needed", e->smem_needs_optin);
    cli_json_number_or_null(g, "smem_optin_limit", nvidia, (double)e->smem_optin_limit);
    cJSON_AddBoolToObject(g, "smem_over_optin", e->smem_over_optin);
    report_verify_snippet(e, code, sizeof code);
    cJSON_AddStringToObject(o, "verification", code);
}

static const char *cluster_problem_name(ClusterProblem p)
{
    static const char *const names[] = {[CLUSTER_OK] = NULL,
                                        [CLUSTER_UNSUPPORTED] = "unsupported",
                                        [CLUSTER_TOO_LARGE] = "too_large",
                                        [CLUSTER_ABOVE_RANK] = "above_max_cluster_rank",
                                        [CLUSTER_SHAPE] = "shape",
                                        [CLUSTER_NOT_RESIDENT] = "not_resident"};
    return names[p];
}

/* The launch's thread-block cluster, or null. */
static void add_cluster(cJSON *o, const ReportEntry *e)
{
    const ReportCluster *c = &e->cluster;
    cJSON *j = json_add_cluster(o, c->dims, c->size, c->portable_limit, c->limit);
    if (!j)
        return;
    cJSON_AddStringToObject(j, "from", c->compiled ? "cluster_dims" : "option");
    cJSON_AddBoolToObject(j, "option_ignored", c->option_ignored);
    cli_json_number_or_null(j, "max_cluster_rank", c->max_rank > 0, c->max_rank);
    if (e->have_work)
        cli_json_add_count(j, "padding_ctas", c->padding_ctas);
    else
        cJSON_AddNullToObject(j, "padding_ctas");
    const char *problem = cluster_problem_name(c->problem);
    if (problem)
        cJSON_AddStringToObject(j, "problem", problem);
    else
        cJSON_AddNullToObject(j, "problem");
}

static void add_extras(cJSON *o, const ReportEntry *e)
{
    add_cluster(o, e);
    cJSON *p = cJSON_AddArrayToObject(o, "persistent_grid");
    for (int i = 0; i < e->n_persistent; i++) {
        cJSON *row = cJSON_CreateObject();
        cJSON_AddStringToObject(row, "gpu", e->persistent[i].gpu.id);
        cJSON_AddNumberToObject(row, "sm_count", e->persistent[i].gpu.sm_count);
        cJSON_AddNumberToObject(row, "grid", e->persistent[i].grid);
        cli_json_number_or_null(row, "clusters", e->cluster.size && e->persistent[i].clusters >= 0,
                                e->persistent[i].clusters);
        cJSON_AddItemToArray(p, row);
    }
    bool resident = report_selected(e) && report_selected(e)->fig.groups > 0;
    json_add_next_step(o, e->target.vendor, &e->next, &e->amd_next, resident);
}

int report_write_json(const ReportModel *m, const JsonTools *tools, FILE *out)
{
    return cli_print_json("report", report_json_root(m, tools), out);
}

/* The top-level across_targets array: each kernel's one size over its
 * NVIDIA targets (report_across.c), beside each target's own. */
static void add_across(cJSON *root, const ReportModel *m)
{
    cJSON *list = cJSON_AddArrayToObject(root, "across_targets");
    for (int i = 0; i < m->n_across; i++) {
        const ReportAcross *a = &m->across[i];
        const ReportEntry *e = &m->entries[a->first];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "kernel", e->kernel.title);
        cJSON_AddStringToObject(o, "symbol", e->kernel.name);
        cJSON_AddStringToObject(o, "file", e->kernel.file);
        cJSON *targets = cJSON_AddArrayToObject(o, "targets");
        cJSON *per = cJSON_CreateArray();
        for (int t = 0; t < a->n_targets; t++) {
            const ReportAcrossTarget *p = &a->per_target[t];
            cJSON_AddItemToArray(targets, cJSON_CreateString(p->target));
            cJSON *po = cJSON_CreateObject();
            cJSON_AddStringToObject(po, "target", p->target);
            cli_json_number_or_null(po, "threads", p->threads > 0, p->threads);
            cli_json_number_or_null(po, "occupancy", p->threads > 0, p->occupancy);
            cJSON_AddItemToArray(per, po);
        }
        cli_json_number_or_null(o, "threads", a->threads > 0, a->threads);
        cli_json_number_or_null(o, "min_occupancy", a->threads > 0, a->min_occupancy);
        cJSON_AddItemToObject(o, "per_target", per);
        cJSON_AddItemToArray(list, o);
    }
}

cJSON *report_json_root(const ReportModel *m, const JsonTools *tools)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "schema", "silk-occ/report/3");
    json_add_tool(root, tools);
    cJSON *reports = cJSON_AddArrayToObject(root, "reports");
    for (int i = 0; i < m->n_entries; i++) {
        const ReportEntry *e = &m->entries[i];
        cJSON *o = cJSON_CreateObject();
        add_kernel(o, e);
        add_selection(o, e);
        add_tail(o, e);
        add_advice(o, e);
        add_code(o, e);
        add_extras(o, e);
        cJSON_AddItemToArray(reports, o);
    }
    add_across(root, m);
    return root;
}
