/*
 * report_words.c: the sentences of `silk-occ report` that more than one
 * writer prints (text and markdown): a reason with its numbers, the
 * limiters' names, a tail's note, the register-cap advice, the grid's
 * validity, spills and the next step.  Each starts in lower case and has no
 * final stop; code in it is between backticks, which the text writer drops
 * (report_print_plain) and the markdown writer makes code spans, after
 * capitalising the sentence.  Keeping them here keeps the two reports
 * saying the same thing.
 */
#include "report_writers.h"

#include "demangle.h"
#include "escape.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Appends to buf (which holds *used bytes), truncating at `size`. */
__attribute__((format(printf, 4, 5))) static void append(char *buf, size_t size, size_t *used,
                                                        const char *fmt, ...)
{
    if (*used + 1 >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *used, size - *used, fmt, ap);
    va_end(ap);
    *used += n > 0 ? (size_t)n : 0;
    if (*used >= size)
        *used = size - 1;
}

ReportTerms report_terms(const ReportEntry *e)
{
    if (e->target.vendor != OCC_AMD)
        return (ReportTerms){"CTA", "CTAs", "SM", "SMs", "CTAs/SM", "CTAs per SM each resource allows",
                             {OCC_LIMITER_REGISTERS, OCC_LIMITER_SHARED_MEMORY, OCC_LIMITER_WARPS,
                              OCC_LIMITER_BLOCKS},
                             {"regs", "smem", "warps", "slots"},
                             {"registers", "shared memory", "warp slots", "CTA slots"}, "ptxas"};
    bool wgp = strcmp(e->target.amd->occupancy_unit, "WGP") == 0;
    return (ReportTerms){"workgroup", "workgroups", wgp ? "WGP" : "CU", wgp ? "WGPs" : "CUs",
                         wgp ? "WGs/WGP" : "WGs/CU", "waves per SIMD each resource allows",
                         {AMD_LIMITER_VGPRS, AMD_LIMITER_SGPRS, AMD_LIMITER_LDS,
                          AMD_LIMITER_WORKGROUPS},
                         {"vgprs", "sgprs", "lds", "slots"},
                         {"VGPRs", "SGPRs", "LDS", "workgroup slots"}, "llc"};
}

void report_target_words(const ReportEntry *e, char *buf, size_t size)
{
    const Target *t = &e->target;
    if (t->vendor == OCC_AMD)
        snprintf(buf, size, "%s, wave%d", t->amd->family, t->amd->wave_size);
    else
        snprintf(buf, size, "%s, compute capability %d.%d", t->arch->family, t->arch->major,
                 t->arch->minor);
}

/* The pin's words (report_pins.c): {library}, the namespace the user or
 * the table gave (identifiers only), and {instance}, the kernel's
 * demangled name, which is outside text: shortened and escaped. */
enum { INSTANCE_WIDTH = 60 }; /* columns: the sentence stays a line or two */

static const char *pin_word(const ReportEntry *e, const char *word, size_t n, char *buf,
                            size_t size)
{
    if (n == 9 && strncmp(word, "{library}", n) == 0) {
        snprintf(buf, size, "%s", e->pin.library);
        return buf;
    }
    if (n != 10 || strncmp(word, "{instance}", n) != 0)
        return NULL;
    char shortened[INSTANCE_WIDTH * 3 + 8]; /* 3 bytes a column at most ("…") */
    demangle_shorten(e->kernel.cxx_name, INSTANCE_WIDTH, shortened, sizeof shortened);
    escape_text(shortened, buf, size);
    return buf;
}

/* A {word} of a reason's text in the entry's vendor's terms; NULL when
 * `word` is none of them. */
static const char *reason_word(const ReportEntry *e, const char *word, size_t n, char *buf,
                               size_t size)
{
    bool amd = e->target.vendor == OCC_AMD;
    ReportTerms terms = report_terms(e);
    char per[48];
    snprintf(per, sizeof per, "%s per %s", terms.groups, terms.unit);
    const struct {
        const char *name, *text;
    } words[] = {{"{per}", per},
                 {"{group}", terms.group},
                 {"{groups}", terms.groups},
                 {"{warp}", amd ? "wave" : "warp"},
                 {"{warps}", amd ? "waves" : "warps"},
                 {"{bound}", amd ? ".max_flat_workgroup_size" : ".maxntid"}};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strlen(words[i].name) == n && strncmp(word, words[i].name, n) == 0) {
            snprintf(buf, size, "%s", words[i].text);
            return buf;
        }
    if (n == 11 && strncmp(word, "{warp_size}", n) == 0) {
        snprintf(buf, size, "%d", report_warp_size(e));
        return buf;
    }
    return pin_word(e, word, n, buf, size);
}

void report_reason_sentence(const ReportEntry *e, const Reason *r, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (const char *t = report_reason_text(r->code); *t;) {
        char word[256]; /* {instance}: INSTANCE_WIDTH columns, escaped */
        size_t n = *t == '{' && strchr(t, '}') ? (size_t)(strchr(t, '}') - t) + 1 : 0;
        if (n && reason_word(e, t, n, word, sizeof word))
            append(buf, size, &used, "%s", word), t += n;
        else if (strncmp(t, "{threads}", 9) == 0)
            append(buf, size, &used, "%d", r->threads), t += 9;
        else if (strncmp(t, "{blocks}", 8) == 0)
            append(buf, size, &used, "%d", r->blocks), t += 8;
        else if (strncmp(t, "{value}", 7) == 0)
            append(buf, size, &used, "%.0f", r->value), t += 7;
        else if (strncmp(t, "{percent}", 9) == 0)
            append(buf, size, &used, "%.1f%%", 100.0 * r->value), t += 9;
        else
            append(buf, size, &used, "%c", *t++);
    }
}

void report_limiter_names(const OccFigures *f, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < f->n_limiters; i++)
        if (f->limited_by & (1u << i))
            append(buf, size, &used, "%s%s", used ? ", " : "", occ_vendor_limiter_what(f->vendor, i));
}

bool report_tail_note(const ReportEntry *e, const TailRow *t, char *buf, size_t size)
{
    if (t->better_threads)
        snprintf(buf, size, "a bad tail: %d threads would leave %.1f%% idle (%.2f waves)",
                 t->better_threads, 100.0 * t->better_waves.idle_fraction, t->better_waves.waves);
    else if (t->undersubscribed)
        snprintf(buf, size, "under one wave: the grid leaves %s idle at any block size (a "
                            "smaller problem than the GPU; fuse launches or use a persistent kernel)",
                 report_terms(e).units);
    else if (t->bad)
        snprintf(buf, size, "a bad tail, and no permitted block size does better: consider a "
                            "grid-stride loop");
    else
        return false;
    return true;
}

/* What the cap would cost: ptxas's answer, or why there is none. */
static void cap_check(const ReportEntry *e, char *buf, size_t size)
{
    const CapAdvice *c = &e->cap;
    if (c->over_budget)
        snprintf(buf, size, "not compiled at that cap (more kernels to check than a report "
                            "compiles again; `--check-caps` checks them all): whether it "
                            "spills is unknown");
    else if (!c->checked && measured_from_machine_code(&e->kernel))
        snprintf(buf, size, "not compiled at that cap (%s has no PTX to assemble again): "
                            "whether it spills is unknown",
                 e->kernel.input == INPUT_CUBIN ? "a cubin" : "a binary's cubin");
    else if (!c->checked)
        snprintf(buf, size, "not compiled at that cap (no ptxas): whether it spills is unknown");
    else if (c->cap_spill_stores || c->cap_spill_loads)
        snprintf(buf, size, "ptxas at that cap: %d registers, spills %d B stored / %d B loaded "
                            "per thread: worth it only for a memory-bound kernel",
                 c->cap_registers, c->cap_spill_stores, c->cap_spill_loads);
    else
        snprintf(buf, size, "ptxas at that cap: %d registers, no spills: a safe gain",
                 c->cap_registers);
}

/* Advice in the input's language: Silk's @launch beside CUDA's for a
 * Silk kernel, CUDA's alone for CUDA code. */
/* AMD: HIP's attributes beside __launch_bounds__, whose second argument
 * HIP reads differently from CUDA (a minimum of waves per EU, not of
 * blocks), so the minimum goes through amdgpu_waves_per_eu; Silk's
 * @launch minimum is workgroups per CU, which its backend turns into
 * waves per EU itself.  llc does not compile again at the cap (as ptxas
 * does on NVIDIA): whether it spills is said to be unknown. */
static void amd_bounds_advice(const ReportEntry *e, const ReportRow *r, bool silk, char *advice,
                              char *check, size_t size)
{
    const CapAdvice *c = &e->cap;
    ReportTerms terms = report_terms(e);
    size_t used = 0;
    if (!c->applies) {
        append(advice, size, &used, "VGPRs do not hold occupancy back here: "
                                    "`__launch_bounds__(%d)` ", r->threads);
        if (silk)
            append(advice, size, &used, "(or Silk's `@launch(%d)`) ", r->threads);
        append(advice, size, &used, "states the workgroup size and needs no minimum");
        return;
    }
    append(advice, size, &used, "a cap of %d VGPRs gives %d waves per SIMD, %d %s per %s, %.1f%% "
                                "occupancy: `__launch_bounds__(%d) "
                                "__attribute__((amdgpu_waves_per_eu(%d)))`",
           c->cap, c->waves, c->min_blocks, terms.groups, terms.unit, 100.0 * c->occupancy,
           r->threads, c->waves);
    if (silk)
        append(advice, size, &used, ", or in Silk `@launch(%d, %d)`", r->threads, c->min_blocks);
    snprintf(check, size, "not compiled at that cap (llc compiles each kernel once): whether it "
                          "spills is unknown");
}

/* The kernel's own __launch_bounds__ as its source wrote it (the PTX's
 * .maxntid and .minnctapersm), "__launch_bounds__(256, 8)". */
static const char *own_launch_bounds(const ReportEntry *e, char *buf, size_t size)
{
    const MeasuredKernel *k = &e->kernel;
    if (k->minnctapersm > 0)
        snprintf(buf, size, "__launch_bounds__(%d, %d)", k->maxntid, k->minnctapersm);
    else
        snprintf(buf, size, "__launch_bounds__(%d)", k->maxntid);
    return buf;
}

/* A kernel that caps its registers with __maxnreg__ keeps that form: nvcc
 * rejects __launch_bounds__ beside it ("The __launch_bounds__ and
 * __maxnreg__ qualifiers cannot be applied to the same kernel"). */
static void maxnreg_advice(const ReportEntry *e, char *advice, size_t size)
{
    const CapAdvice *c = &e->cap;
    size_t used = 0;
    if (!c->applies)
        append(advice, size, &used, "registers do not hold occupancy back here: keep "
                                    "`__maxnreg__(%d)`", e->kernel.maxnreg);
    else
        append(advice, size, &used, "a cap of %d registers gives %d CTAs per SM, %.1f%% "
                                    "occupancy: `__maxnreg__(%d)` in place of `__maxnreg__(%d)`",
               c->cap, c->min_blocks, 100.0 * c->occupancy, c->cap, e->kernel.maxnreg);
    append(advice, size, &used, " (nvcc takes no `__launch_bounds__` beside `__maxnreg__`)");
}

bool report_bounds_advice(const ReportEntry *e, char *advice, char *check, size_t size)
{
    const CapAdvice *c = &e->cap;
    const ReportRow *r = report_selected(e);
    bool silk = e->kernel.input == INPUT_SILK;
    char bound[64];
    size_t used = 0;
    check[0] = advice[0] = '\0';
    if (!r)
        return false;
    if (e->target.vendor == OCC_AMD) {
        amd_bounds_advice(e, r, silk, advice, check, size);
        return true;
    }
    if (!c->applies && e->pin.by == REPORT_PIN_LIBRARY_UNBOUND) {
        /* No launch bound to state: the library's policy picks the size. */
        append(advice, size, &used, "registers do not hold occupancy back here, and the block "
                                    "size is the library's (%s::) to choose", e->pin.library);
        return true;
    }
    if (c->form == CAP_FORM_MAXNREG) {
        maxnreg_advice(e, advice, size);
        if (c->applies)
            cap_check(e, check, size);
        return true;
    }
    if (!c->applies) {
        append(advice, size, &used, "registers do not hold occupancy back here: "
                                    "`__launch_bounds__(%d)` ", r->threads);
        if (silk)
            append(advice, size, &used, "(or Silk's `@launch(%d)`) ", r->threads);
        append(advice, size, &used, "states the block size and needs no minimum");
        return true;
    }
    append(advice, size, &used, "a cap of %d registers gives %d CTAs per SM, %.1f%% occupancy: "
                                "`__launch_bounds__(%d, %d)`",
           c->cap, c->min_blocks, 100.0 * c->occupancy, r->threads, c->min_blocks);
    /* A cubin keeps no minimum (-1): its own bound cannot be quoted whole. */
    if (!silk && e->kernel.maxntid && e->kernel.minnctapersm >= 0)
        append(advice, size, &used, " in place of its `%s`", own_launch_bounds(e, bound, sizeof bound));
    if (silk)
        append(advice, size, &used, ", or in Silk `@launch(%d, %d)` or `@launch(%d, 1, %d)`",
               r->threads, c->min_blocks, r->threads, c->cap);
    cap_check(e, check, size);
    return true;
}

void report_grid_sentence(const ReportEntry *e, char *buf, size_t size)
{
    unsigned long long gx = e->max_grid_x, gy = e->max_grid_y;
    const char *groups = report_terms(e).groups;
    unsigned long long x = e->grid_x, y = e->grid_y;
    /* The dimensions alone: a cluster or shared memory has its own sentence. */
    bool within = x <= gx && y <= gy && (e->work_rows > 0 || y == 0);
    if (!report_selected(e))
        snprintf(buf, size, "no launch to check: no block size runs on %s", e->target.sm_name);
    else if (!e->have_work)
        snprintf(buf, size, "`gridDim.x` may be up to %llu %s on %s%s", gx,
                 report_terms(e).groups, e->target.sm_name,
                 e->target.vendor == OCC_AMD ? " (HIP: `gridDim.x * blockDim.x` below 2^32)" : "");
    else if (e->work_rows && within)
        snprintf(buf, size, "%llu x %llu %s: within `gridDim.x <= %llu` and `gridDim.y <= %llu`", x,
                 y, groups, gx, gy);
    else if (e->work_rows)
        snprintf(buf, size, "%llu x %llu %s: above `gridDim.x <= %llu` or `gridDim.y <= %llu`; use "
                            "a grid-stride loop",
                 x, y, groups, gx, gy);
    else if (within)
        snprintf(buf, size, "%llu %s: within `gridDim.x <= %llu`", (unsigned long long)e->ctas,
                 groups, gx);
    else if (y <= gy)
        snprintf(buf, size, "%llu %s: above `gridDim.x <= %llu`; use a 2-D grid (%llu x %llu) or "
                            "a grid-stride loop",
                 (unsigned long long)e->ctas, groups, gx, x, y);
    else
        snprintf(buf, size, "%llu %s: above what a 2-D grid holds (`gridDim.x <= %llu`, "
                            "`gridDim.y <= %llu`); use a grid-stride loop",
                 (unsigned long long)e->ctas, groups, gx, gy);
}

/* "264 on h100-sxm (an estimate from its 8 GPCs)", or what is known
 * without a public GPC layout. */
static void resident_clusters_words(const ReportEntry *e, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < e->n_persistent && used < size; i++) {
        const PersistentRow *p = &e->persistent[i];
        if (p->clusters >= 0)
            used += (size_t)snprintf(buf + used, size - used, "%s%d on %s", used ? ", " : "",
                                     p->clusters, p->gpu.id);
    }
    if (used == 0)
        snprintf(buf, size, "unknown (no product's GPC layout is public): "
                            "`silk-occ verify` on a device measures it");
    else if (used < size)
        snprintf(buf + used, size - used, " (an estimate: a cluster runs in one GPC, and the "
                                          "GPC layout is public for these only)");
}

bool report_cluster_sentence(const ReportEntry *e, char *buf, size_t size)
{
    const ReportCluster *c = &e->cluster;
    if (c->size == 0)
        return false;
    char from[96], resident[512];
    const int *d = c->dims;
    if (c->compiled)
        snprintf(from, sizeof from, "the kernel's `__cluster_dims__(%d, %d, %d)`", d[0], d[1], d[2]);
    else
        snprintf(from, sizeof from, "`--cluster %d,%d,%d`", d[0], d[1], d[2]);
    if (c->problem == CLUSTER_SHAPE && c->dims[2] == 1) {
        snprintf(buf, size, "cluster of %d x %d CTAs (%s): a launch with one row of CTAs cannot "
                            "hold it; give the work as `--work COLSxROWS` for a grid of rows",
                 d[0], d[1], from);
        return true;
    }
    if (c->problem != CLUSTER_OK) {
        snprintf(buf, size, "cluster of %d CTAs (%s): %s (the limit on %s is %d, %d portably)",
                 c->size, from, report_cluster_problem_text(c->problem), e->target.sm_name,
                 c->limit, c->portable_limit);
        return true;
    }
    resident_clusters_words(e, resident, sizeof resident);
    snprintf(buf, size, "cluster of %d CTAs (%s): within the %s limit of %d on %s%s; the grid is "
                        "whole clusters (%llu CTA%s added); resident clusters: %s",
             c->size, from, c->nonportable ? "non-portable" : "portable",
             c->nonportable ? c->limit : c->portable_limit, e->target.sm_name,
             c->nonportable ? " (`cudaFuncAttributeNonPortableClusterSizeAllowed`)" : "",
             (unsigned long long)c->padding_ctas, c->padding_ctas == 1 ? "" : "s", resident);
    if (c->option_ignored && strlen(buf) + 1 < size)
        snprintf(buf + strlen(buf), size - strlen(buf),
                 "; --cluster is ignored: the kernel carries its own");
    return true;
}

bool report_smem_optin_sentence(const ReportEntry *e, char *buf, size_t size)
{
    if (e->target.vendor != OCC_NVIDIA || !(e->smem_needs_optin || e->smem_over_optin))
        return false;
    char total[32], def[32], limit[32], escaped[256];
    const char *name = escape_if_needed(e->kernel.cxx_name, escaped, sizeof escaped);
    format_bytes(e->smem_bytes, total, sizeof total);
    format_bytes((uint64_t)e->target.arch->smem_per_block, def, sizeof def);
    format_bytes(e->smem_optin_limit, limit, sizeof limit);
    if (e->smem_over_optin)
        snprintf(buf, size, "%s of shared memory per CTA: above the opt-in limit of %s on %s; "
                            "no launch can have it", total, limit, e->target.sm_name);
    else
        snprintf(buf, size, "%s of shared memory per CTA: above the %s default, within the "
                            "opt-in limit of %s on %s, with "
                            "`cudaFuncSetAttribute(%s, cudaFuncAttributeMaxDynamicSharedMemorySize, "
                            "%llu)` before the launch (in the host code)",
                 total, def, limit, e->target.sm_name, name,
                 (unsigned long long)e->dynamic_smem);
    return true;
}

bool report_spill_sentence(const ReportEntry *e, const ReportRow *r, char *buf, size_t size)
{
    const KernelUsage *u = &e->kernel.usage;
    if (e->target.vendor == OCC_AMD) {
        if (!u->vgpr_spills && !u->sgpr_spills)
            return false;
        snprintf(buf, size, "%d VGPRs and %d SGPRs spilled (the code object's .vgpr_spill_count "
                            "and .sgpr_spill_count), to %d B of scratch per work-item",
                 u->vgpr_spills, u->sgpr_spills, u->stack_frame);
        return true;
    }
    if (measured_from_machine_code(&e->kernel))
        snprintf(buf, size, "unknown: a cubin does not record them (`nvcc --ptxas-options=-v` "
                            "prints them)");
    else if (u->spill_stores || u->spill_loads)
        snprintf(buf, size, "%d B stored and %d B loaded per thread, %llu B of local-memory "
                            "traffic per CTA each time the spill code runs",
                 u->spill_stores, u->spill_loads,
                 (unsigned long long)(u->spill_stores + u->spill_loads) *
                     (unsigned long long)r->threads);
    else
        return false;
    return true;
}

/* AMD's next step is a wave per SIMD, what LLVM's occupancy counts. */
static void amd_next_step_sentence(const ReportEntry *e, char *buf, size_t size)
{
    const AmdNextStep *n = &e->amd_next;
    char cut[32], slack[32];
    size_t used = 0;
    buf[0] = '\0';
    if (n->vgprs_to_cut > 0)
        append(buf, size, &used, "cut %d VGPRs per lane for %d waves per SIMD", n->vgprs_to_cut,
               n->vgprs_gained_waves);
    else
        append(buf, size, &used, "cutting VGPRs gains no wave");
    if (n->sgprs_to_cut > 0)
        append(buf, size, &used, "; or cut %d SGPRs for %d", n->sgprs_to_cut, n->sgprs_gained_waves);
    if (n->lds_to_cut > 0)
        append(buf, size, &used, "; or cut %s of LDS per workgroup for %d",
               format_bytes((uint64_t)n->lds_to_cut, cut, sizeof cut), n->lds_gained_waves);
    append(buf, size, &used, ". Slack: %d VGPRs, %s of LDS before losing a wave",
           n->vgprs_slack > 0 ? n->vgprs_slack : 0,
           format_bytes((uint64_t)(n->lds_slack > 0 ? n->lds_slack : 0), slack, sizeof slack));
}

void report_next_step_sentence(const ReportEntry *e, char *buf, size_t size)
{
    const OccNextStep *n = &e->next;
    if (e->target.vendor == OCC_AMD) {
        amd_next_step_sentence(e, buf, size);
        return;
    }
    char cut[32], slack[32];
    size_t used = 0;
    buf[0] = '\0';
    if (n->regs_to_cut > 0)
        append(buf, size, &used, "cut %d registers per thread for %d CTAs per SM", n->regs_to_cut,
               n->regs_gained_blocks);
    else
        append(buf, size, &used, "cutting registers gains no CTA");
    if (n->smem_to_cut > 0)
        append(buf, size, &used, "; or cut %s of shared memory per CTA for %d",
               format_bytes((uint64_t)n->smem_to_cut, cut, sizeof cut), n->smem_gained_blocks);
    append(buf, size, &used, ". Slack: %d registers, %s of shared memory before losing a CTA",
           n->regs_slack,
           format_bytes((uint64_t)(n->smem_slack > 0 ? n->smem_slack : 0), slack, sizeof slack));
}

/* The dynamic shared memory the header states: the selected row's, else
 * (no size runs, or --dyn-smem fits none) what was asked for, the rows'
 * one size or their least and greatest, never a 0 B no row has. */
static void dynamic_smem_words(const ReportEntry *e, char *buf, size_t size)
{
    if (report_selected(e) || e->n_rows == 0) {
        format_bytes(e->dynamic_smem, buf, size);
        return;
    }
    uint64_t least = e->rows[0].dynamic_smem, most = least;
    for (int i = 1; i < e->n_rows; i++) {
        uint64_t b = e->rows[i].dynamic_smem;
        least = b < least ? b : least;
        most = b > most ? b : most;
    }
    char low[32], high[32];
    format_bytes(least, low, sizeof low);
    if (least == most)
        snprintf(buf, size, "%s", low);
    else
        snprintf(buf, size, "%s to %s", low, format_bytes(most, high, sizeof high));
}

/* AMD's figures, as the code object's metadata names them. */
static void amd_usage_sentence(const ReportEntry *e, char *buf, size_t size)
{
    const KernelUsage *u = &e->kernel.usage;
    char st[32], dy[80];
    size_t used = 0;
    buf[0] = '\0';
    append(buf, size, &used, "%d VGPRs", u->registers);
    if (u->agprs)
        append(buf, size, &used, " (%d of them AGPRs)", u->agprs);
    append(buf, size, &used, ", %d SGPRs (%s), %s static + %s dynamic LDS, %d B scratch per "
                             "work-item, %d VGPR and %d SGPR spills",
           u->sgprs, e->kernel.input == INPUT_HSACO ? "the code object's metadata" : "llc",
           format_bytes((uint64_t)u->static_smem, st, sizeof st),
           (dynamic_smem_words(e, dy, sizeof dy), dy), u->stack_frame, u->vgpr_spills,
           u->sgpr_spills);
}

void report_usage_sentence(const ReportEntry *e, char *buf, size_t size)
{
    const KernelUsage *u = &e->kernel.usage;
    char st[32], dy[80];
    if (e->target.vendor == OCC_AMD) {
        amd_usage_sentence(e, buf, size);
        return;
    }
    bool cubin = measured_from_machine_code(&e->kernel); /* a cubin records no spills */
    size_t used = 0;
    char source[160];
    if (e->kernel.from_ptx)
        snprintf(source, sizeof source, " (from embedded compute_%d PTX, assembled by ptxas for %s)",
                 e->kernel.from_ptx, e->target.sm_name);
    else
        snprintf(source, sizeof source, "%s",
                 u->estimated                     ? " (estimated: no ptxas)"
                 : e->kernel.input == INPUT_BINARY ? " (from the binary's cubin)"
                 : cubin                           ? " (from the cubin)"
                                                   : " (ptxas -v)");
    buf[0] = '\0';
    append(buf, size, &used, "%d registers per thread%s, %s static + %s dynamic shared memory, "
                             "%d barrier%s, ",
           u->registers, source,
           format_bytes((uint64_t)u->static_smem, st, sizeof st),
           (dynamic_smem_words(e, dy, sizeof dy), dy), e->resources.barriers,
           e->resources.barriers == 1 ? "" : "s");
    if (cubin)
        append(buf, size, &used, "spills unknown (a cubin does not record them)");
    else
        append(buf, size, &used, "spills %d B stored / %d B loaded per thread", u->spill_stores,
               u->spill_loads);
}

void report_print_plain(FILE *out, const char *sentence)
{
    for (; *sentence; sentence++)
        if (*sentence != '`')
            fputc(*sentence, out);
}

bool report_dynamic_smem_note(const ReportEntry *e, char *buf, size_t size)
{
    if (e->dynamic_smem_unsized)
        snprintf(buf, size, "dynamic shared memory: the kernel declares it (`extern __shared__`) "
                            "and no `--dyn-smem` gave its size: the rows assume 0 B, an upper "
                            "bound on occupancy");
    else if (e->kernel.extern_smem_unknown && !e->rows_sized)
        snprintf(buf, size, "dynamic shared memory: a cubin does not record whether the kernel "
                            "uses it; if it does, `--dyn-smem` gives its size");
    else
        return false;
    return true;
}

bool report_link_note(const ReportEntry *e, char *buf, size_t size)
{
    if (!e->kernel.calls_out)
        return false;
    snprintf(buf, size, "registers are the kernel's own: it calls a function of another file, "
                        "and linking (nvlink) raises them to the most any function it calls uses");
    return true;
}


/* ptxas's warning that it ignores the minimum, said in the bounds line
 * (and why, when the bound's threads times the minimum pass what an SM
 * holds: 2 x 1024 against sm_120's 1536). */
static void ignored_minimum(const ReportEntry *e, char *buf, size_t size, size_t *used)
{
    const MeasuredKernel *k = &e->kernel;
    int bound = k->reqntid ? k->reqntid : k->maxntid;
    append(buf, size, used, "%sptxas ignored the minimum of %d %s per SM (it cannot be met on %s",
           *used ? "; " : "", k->minnctapersm, k->minnctapersm == 1 ? "CTA" : "CTAs",
           e->target.sm_name);
    if (bound > 0 && (long long)bound * k->minnctapersm > e->target.arch->max_threads_per_sm)
        append(buf, size, used, ": %d x %d threads is more than the %d an SM holds",
               k->minnctapersm, bound, e->target.arch->max_threads_per_sm);
    append(buf, size, used, ")");
}

void report_bounds_sentence(const ReportEntry *e, char *buf, size_t size)
{
    const MeasuredKernel *k = &e->kernel;
    ReportTerms terms = report_terms(e);
    size_t used = 0;
    buf[0] = '\0';
    if (k->reqntid || k->maxntid)
        append(buf, size, &used, "block size %s %d", k->reqntid ? "fixed at" : "at most",
               k->reqntid ? k->reqntid : k->maxntid);
    if (k->minnctapersm > 0 && e->min_ignored)
        ignored_minimum(e, buf, size, &used);
    else if (k->minnctapersm > 0)
        append(buf, size, &used, "%sat least %d %s per %s", used ? "; " : "", k->minnctapersm,
               k->minnctapersm == 1 ? terms.group : terms.groups, terms.unit);
    if (k->maxnreg)
        append(buf, size, &used, "%sat most %d %s", used ? "; " : "", k->maxnreg,
               e->target.vendor == OCC_AMD ? "VGPRs" : "registers");
    /* A cubin keeps no minimum, only the register cap it implies; without
     * a block-size bound there was none to keep. */
    if (k->minnctapersm < 0 && (k->reqntid || k->maxntid))
        append(buf, size, &used, "; minimum CTAs per SM not recorded (a cubin keeps only the "
                                 "register cap it implies)");
    if (!used)
        append(buf, size, &used, "none");
}

void report_work_sentence(const ReportEntry *e, char *buf, size_t size)
{
    const ReportRow *r = report_selected(e);
    size_t used = 0;
    buf[0] = '\0';
    if (e->work_rows)
        append(buf, size, &used, "work %llu x %llu", (unsigned long long)e->work,
               (unsigned long long)e->work_rows);
    else
        append(buf, size, &used, "work %llu", (unsigned long long)e->work);
    if (e->work_from_launch)
        append(buf, size, &used, " (the launch block at line %d)", e->kernel.launch_line);
    if (e->work_rows)
        append(buf, size, &used, ": %llu x %llu %s of %d x %d threads, %llu threads past the "
                                 "right and bottom edges (%.2f%% of those launched)",
               (unsigned long long)e->grid_x, (unsigned long long)e->grid_y, report_terms(e).groups,
               e->block_x,
               e->block_y, (unsigned long long)e->tail_threads,
               100.0 * (double)e->tail_threads / ((double)e->ctas * r->threads));
    else
        append(buf, size, &used, ": %llu %s of %d threads, the last %swith %llu (%.2f%% of the "
                                 "work)",
               (unsigned long long)e->ctas, report_terms(e).groups, r->threads,
               e->cluster.padding_ctas ? "of the work " : "", (unsigned long long)e->tail_threads,
               100.0 * (double)e->tail_threads / (double)e->work);
    if (e->cluster.padding_ctas)
        append(buf, size, &used, "; %llu more complete the last cluster",
               (unsigned long long)e->cluster.padding_ctas);
}

bool report_warning_sentence(const ReportEntry *e, int i, char *buf, size_t size)
{
    const KernelUsage *u = &e->kernel.usage;
    if (i < 0 || i >= u->n_warnings)
        return false;
    char text[USAGE_WARNING_MAX_BYTES * 4 + 8];
    escape_text(u->warnings[i], text, sizeof text); /* a kernel name may hold any byte */
    snprintf(buf, size, "%s: warning: %s", report_terms(e).assembler, text);
    return true;
}

/* The kernel's own bound as its input wrote it. */
static void own_bound(const ReportEntry *e, char *buf, size_t size)
{
    const MeasuredKernel *k = &e->kernel;
    size_t used = 0;
    buf[0] = '\0';
    if (k->input == INPUT_CUDA && e->cap.form == CAP_FORM_MAXNREG) {
        append(buf, size, &used, "`__maxnreg__(%d)`", k->maxnreg);
        return;
    }
    if (k->input == INPUT_SILK) {
        append(buf, size, &used, "`@launch(%d", k->reqntid ? k->reqntid : k->maxntid);
        if (k->minnctapersm > 0 || k->maxnreg)
            append(buf, size, &used, ", %d", k->minnctapersm > 0 ? k->minnctapersm : 1);
        if (k->maxnreg)
            append(buf, size, &used, ", %d", k->maxnreg);
        append(buf, size, &used, ")`");
        return;
    }
    if (k->input == INPUT_CUDA && !k->maxnreg) {
        char bound[64];
        append(buf, size, &used, "`%s`", own_launch_bounds(e, bound, sizeof bound));
        return;
    }
    const struct {
        const char *name;
        int value;
    } d[] = {{".maxntid", k->maxntid}, {".minnctapersm", k->minnctapersm}, {".maxnreg", k->maxnreg}};
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
        if (d[i].value > 0)
            append(buf, size, &used, "%s`%s %d`", used ? ", " : "", d[i].name, d[i].value);
}

/* "no spills" or "spills 2180 B stored / 2196 B loaded per thread". */
static void spill_words(int stores, int loads, char *buf, size_t size)
{
    if (stores || loads)
        snprintf(buf, size, "spills %d B stored / %d B loaded per thread", stores, loads);
    else
        snprintf(buf, size, "no spills");
}

bool report_bound_cost_sentence(const ReportEntry *e, char *buf, size_t size)
{
    const BoundCost *b = &e->bound_cost;
    const KernelUsage *u = &e->kernel.usage;
    const ReportRow *r = report_selected(e);
    char bound[160], with[96], without[96];
    if (!b->applies || !r || !(b->checked || b->over_budget))
        return false;
    own_bound(e, bound, sizeof bound);
    if (!b->checked) {
        snprintf(buf, size, "whether its own bound (%s) causes its spills is unknown: not "
                            "compiled without it (more kernels to check than a report compiles "
                            "again; `--check-caps` checks them all)", bound);
        return true;
    }
    spill_words(u->spill_stores, u->spill_loads, with, sizeof with);
    spill_words(b->spill_stores, b->spill_loads, without, sizeof without);
    if (!b->forces_spills) {
        snprintf(buf, size, "its own bound (%s) does not cause its spills: without it ptxas uses "
                            "%d registers and %s", bound, b->registers, without);
        return true;
    }
    size_t used = 0;
    buf[0] = '\0';
    append(buf, size, &used, "its own bound (%s) makes it spill: under it ptxas uses %d registers "
                             "and %s; without it %d registers and %s: ",
           bound, u->registers, with, b->registers, without);
    if (b->blocks == 0)
        append(buf, size, &used, "it would not launch at %d threads (instead of %d CTAs per SM, "
                                 "%.1f%%)", r->threads, b->bound_blocks, 100.0 * b->bound_occupancy);
    else
        append(buf, size, &used, "%d %s per SM (%.1f%%) instead of %d (%.1f%%) at %d threads",
               b->blocks, b->blocks == 1 ? "CTA" : "CTAs", 100.0 * b->occupancy, b->bound_blocks,
               100.0 * b->bound_occupancy, r->threads);
    return true;
}
