/*
 * report_vendor.h: what the report model asks of a target's vendor
 * (report_vendor.c).  The model's reasoning (the sweep, the selection by
 * the one advice policy, tails, grids, host code) is written once; these
 * are the few questions whose answers come from one vendor's engine and
 * tables: a row's figures, the next step, the register cap, the products.
 */
#ifndef SILK_REPORT_VENDOR_H
#define SILK_REPORT_VENDOR_H

#include "report_model.h"

/* The engine's record of e->kernel: e->resources or e->amd_kernel. */
void report_vendor_kernel(ReportEntry *e);

/* The engine's answer at r->threads and r->dynamic_smem, into r->fig and
 * the vendor's own field.  False when the table's row cannot be used. */
bool report_vendor_row(const ReportEntry *e, ReportRow *r);

/* e->next or e->amd_next at the selected row (all -1 without one). */
bool report_vendor_next_step(ReportEntry *e);

/* r->next or r->amd_next at the row's own size and dynamic shared memory
 * (all -1 where no step exists).  False when the table's row cannot be used. */
bool report_vendor_row_next_step(const ReportEntry *e, ReportRow *r);

/* Section 4's cap (e->cap): the engine's policy at the selected size. */
void report_vendor_cap_advice(ReportEntry *e);

/* The products of e's architecture (or AMD processor), at most max, in
 * the table's order; how many. */
int report_vendor_products(const ReportEntry *e, const ReportSettings *s, ReportGpu *out, int max);

/* e->max_grid_x and e->max_grid_y for e's block. */
void report_vendor_grid_limits(ReportEntry *e);

#endif
