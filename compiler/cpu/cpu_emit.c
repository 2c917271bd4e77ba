/*
 * cpu_emit.c: the CPU backend's code: one IR module as one C translation
 * unit that the system C compiler builds into a shared object for the
 * executor (cpu_exec.c).  The unit holds cpu_abi.h and cpu_prelude.h (the
 * executor's contract and PTX's semantics), one step function per kernel
 * (cpu_abi.h says how a step runs a thread from stop to stop), and the
 * table of kernels the executor reads.
 *
 * A function's blocks are labels and its branches gotos; a phi is a
 * shadow variable every edge into its block assigns, read at the block's
 * top, so the phis of a block take their values at once, as SSA means.
 *
 * Every register is a C local of the step.  At a stop the thread saves
 * only the registers live across it (ir_live.c: used after it, on some
 * path, before any definition) in the first slots of its t->regs, and the
 * stop's own label, where the next step resumes, restores those and no
 * others; a parameter or special register live across it is not saved but
 * taken again from the CTA and the thread.  Nothing is zeroed: the IR is
 * verified SSA (ir_verify.c), so on every path a definition comes before
 * each use in reachable code, and a register live across a stop was
 * defined before the thread got there (its definition dominates the use,
 * hence the stop), in this step or restored at its start; a phi's shadow
 * is assigned on every edge into its block, right before the goto, so no
 * stop comes between its assignment and its read and it is never saved.
 * The step reads no indeterminate value, and a slot no stop wrote is never
 * read.  The fault exits (return SILK_CPU_BAD_...) end the thread and save
 * nothing.
 *
 * Output is deterministic: the same module gives the same bytes.
 */
#include "cpu/cpu.h"

#include "cpu_internal.h"
#include "escape.h"
#include "ir_live.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* cpu_abi.h and cpu_prelude.h, embedded at build time (cpu_builtin.c). */
extern const char silk_builtin_cpu_abi[], silk_builtin_cpu_prelude[];

uint32_t cpu_new_site(CpuFunc *e, const IrInst *in)
{
    e->stops = ir_grow(e->m->arena, e->stops, e->n_stops, sizeof *e->stops);
    e->resumable = ir_grow(e->m->arena, e->resumable, e->n_stops, sizeof *e->resumable);
    e->checks = ir_grow(e->m->arena, e->checks, e->n_stops, sizeof *e->checks);
    e->stops[e->n_stops] = in->span;
    e->resumable[e->n_stops] = false;
    e->checks[e->n_stops] = in->op == IR_CHECK || in->op == IR_ASSIGNED ? in : NULL;
    return e->n_stops++;
}

uint32_t cpu_new_stop(CpuFunc *e, const IrInst *in)
{
    uint32_t k = cpu_new_site(e, in);
    e->resumable[k] = true;
    return k;
}

/* Whether the function has a stop (else it needs no resumption). */
static bool has_stops(const CpuFunc *e)
{
    for (uint32_t k = 1; k < e->n_stops; k++)
        if (e->resumable[k])
            return true;
    return false;
}

/* ---- the shared arrays --------------------------------------------------------------- */

/* Each shared array's offset, each at its alignment, in module order; the
 * total in *size (dynamic shared memory starts there, 16-aligned). */
static uint64_t *layout_shared(const IrModule *m, uint64_t *size)
{
    uint64_t *at = ARENA_ARRAY(m->arena, uint64_t, m->n_shared + 1), used = 0;
    for (uint32_t i = 0; i < m->n_shared; i++) {
        const IrShared *s = &m->shared[i];
        uint64_t align = s->align ? s->align : ir_natural_align(s->elem);
        used = (used + align - 1) / align * align;
        at[i] = used;
        used += s->count * ir_natural_align(s->elem);
    }
    *size = (used + 15) / 16 * 16;
    return at;
}

/* ---- one function -------------------------------------------------------------------- */

static IrType *register_types(const IrModule *m, const IrFunc *f)
{
    IrType *types = ARENA_ARRAY(m->arena, IrType, f->n_regs + 1);
    for (uint32_t p = 0; p < f->n_params; p++)
        types[f->params[p].reg] = f->params[p].type;
    for (uint32_t b = 0; b < f->n_blocks; b++)
        for (uint32_t i = 0; i < f->blocks[b]->n_insts; i++) {
            const IrInst *in = f->blocks[b]->insts[i];
            if (ir_op_defines(in->op))
                types[in->result] = in->type;
        }
    return types;
}

/* Each register's definition, and the parameter each parameter register is. */
static void find_definitions(CpuFunc *e)
{
    const IrFunc *f = e->f;
    e->def = ARENA_ARRAY(e->m->arena, const IrInst *, f->n_regs + 1);
    e->param_of = ARENA_ARRAY(e->m->arena, int32_t, f->n_regs + 1);
    for (uint32_t r = 0; r < f->n_regs; r++)
        e->param_of[r] = -1;
    for (uint32_t p = 0; p < f->n_params; p++)
        e->param_of[f->params[p].reg] = (int32_t)p;
    for (uint32_t b = 0; b < f->n_blocks; b++)
        for (uint32_t i = 0; i < f->blocks[b]->n_insts; i++) {
            const IrInst *in = f->blocks[b]->insts[i];
            if (ir_op_defines(in->op) && in->result < f->n_regs)
                e->def[in->result] = in;
        }
}

/* ---- what lives across each stop ------------------------------------------------------ */

static bool is_stop(const IrInst *in)
{
    return in->op == IR_BARRIER || in->op == IR_SHFL || in->op == IR_BALLOT;
}

/* The registers live at a point of a block's backward walk, as a sparse
 * set (Briggs and Torczon), so a block costs what it holds. */
typedef struct RegSet {
    uint32_t *dense, *sparse, n;
} RegSet;

static bool set_has(const RegSet *s, uint32_t r)
{
    return s->sparse[r] < s->n && s->dense[s->sparse[r]] == r;
}

static void set_add(RegSet *s, uint32_t r)
{
    if (set_has(s, r))
        return;
    s->sparse[r] = s->n;
    s->dense[s->n++] = r;
}

static void set_remove(RegSet *s, uint32_t r)
{
    if (!set_has(s, r))
        return;
    uint32_t last = s->dense[--s->n];
    s->dense[s->sparse[r]] = last;
    s->sparse[last] = s->sparse[r];
}

static int by_register(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The stop that is instruction `at` of the function (numbered block by
 * block): what is live after it, its result (which the resumption sets)
 * already taken out, in increasing order. */
static void record_across(CpuFunc *e, const RegSet *live, uint32_t at)
{
    uint32_t *regs = ARENA_ARRAY(e->m->arena, uint32_t, live->n + 1);
    memcpy(regs, live->dense, live->n * sizeof *regs);
    qsort(regs, live->n, sizeof *regs, by_register);
    e->across[at] = regs;
    e->n_across[at] = live->n;
}

/* One block walked back from its live-out: each stop's live set.  A
 * result dies above its instruction, and the operands of every
 * instruction but a phi (whose are used on the edges) are live above it. */
static void walk_block(CpuFunc *e, const IrLive *live, uint32_t b, uint32_t at, RegSet *set)
{
    const IrBlock *block = e->f->blocks[b];
    set->n = 0;
    for (uint32_t i = live->out_first[b]; i < live->out_first[b + 1]; i++)
        set_add(set, live->out_regs[i]);
    for (uint32_t i = block->n_insts; i-- > 0;) {
        const IrInst *in = block->insts[i];
        if (ir_op_defines(in->op) && in->result < e->f->n_regs)
            set_remove(set, in->result);
        if (is_stop(in))
            record_across(e, set, at + i);
        for (uint32_t k = 0; in->op != IR_PHI && k < in->n_operands; k++)
            if (in->operands[k].kind == IRV_REG && in->operands[k].reg < e->f->n_regs)
                set_add(set, in->operands[k].reg);
    }
}

/* e->across: the registers live across each stop of the function. */
static void find_live_across(CpuFunc *e)
{
    const IrFunc *f = e->f;
    uint32_t n_insts = 0;
    for (uint32_t b = 0; b < f->n_blocks; b++)
        n_insts += f->blocks[b]->n_insts;
    e->across = ARENA_ARRAY(e->m->arena, uint32_t *, n_insts + 1);
    e->n_across = ARENA_ARRAY(e->m->arena, uint32_t, n_insts + 1);
    Arena *scratch = arena_new_like(e->m->arena); /* the liveness tables, dropped here */
    const IrLive *live = ir_live_build(f, NULL, scratch);
    RegSet set = {ARENA_ARRAY(scratch, uint32_t, f->n_regs + 1),
                  ARENA_ARRAY(scratch, uint32_t, f->n_regs + 1), 0};
    for (uint32_t b = 0, at = 0; b < f->n_blocks; at += f->blocks[b++]->n_insts)
        walk_block(e, live, b, at, &set);
    arena_free(scratch);
}

/* ---- saving and restoring ---------------------------------------------------------------- */

/* Register r, live across a stop, is taken again at resumption rather
 * than saved: a parameter from the CTA's slots, a special register or a
 * shared array's address by its own instruction once more (one load or
 * a constant, where a save is a store and a load).  Writes that when
 * `write`. */
static bool taken_again(CpuFunc *e, uint32_t r, bool write)
{
    IrType t = e->reg_types[r];
    const IrInst *def = e->def[r];
    if (e->param_of[r] >= 0) {
        if (!write)
            return true;
        if (t == IRT_F32 || t == IRT_F64)
            fprintf(e->out, "    r%" PRIu32 " = silk_bits_f%d(cta->params[%" PRId32 "]);\n", r,
                    ir_type_bits(t), e->param_of[r]);
        else
            fprintf(e->out, "    r%" PRIu32 " = (%s)cta->params[%" PRId32 "];\n", r, cpu_ctype(t),
                    e->param_of[r]);
        return true;
    }
    if (def && (def->op == IR_SREG || (def->op == IR_ADDR && def->space == IRS_SHARED))) {
        if (write)
            cpu_inst(e, def);
        return true;
    }
    return false;
}

/* A register as 64 bits in slot `slot`, and back. */
static void save_register(CpuFunc *e, uint32_t r, uint32_t slot)
{
    IrType t = e->reg_types[r];
    const char *bits = t == IRT_F32 ? "silk_f32_bits" : t == IRT_F64 ? "silk_f64_bits" : "";
    fprintf(e->out, "    t->regs[%" PRIu32 "] = %s(r%" PRIu32 ");\n", slot, bits, r);
}

static void restore_register(CpuFunc *e, uint32_t r, uint32_t slot)
{
    IrType t = e->reg_types[r];
    if (t == IRT_F32 || t == IRT_F64)
        fprintf(e->out, "    r%" PRIu32 " = silk_bits_f%d(t->regs[%" PRIu32 "]);\n", r,
                ir_type_bits(t), slot);
    else
        fprintf(e->out, "    r%" PRIu32 " = (%s)t->regs[%" PRIu32 "];\n", r, cpu_ctype(t), slot);
}

void cpu_suspend(CpuFunc *e, uint32_t k, const char *why)
{
    const uint32_t *regs = e->across[e->at];
    uint32_t n = e->n_across[e->at], slots = 0;
    fprintf(e->out, "    t->resume = t->site = %" PRIu32 "u;\n", k);
    for (uint32_t i = 0; i < n; i++)
        if (!taken_again(e, regs[i], false))
            save_register(e, regs[i], slots++);
    fprintf(e->out, "    return %s;\nstop%" PRIu32 ":\n", why, k);
    slots = 0;
    for (uint32_t i = 0; i < n; i++)
        if (!taken_again(e, regs[i], true))
            restore_register(e, regs[i], slots++);
    if (slots > e->n_slots)
        e->n_slots = slots;
}

/* ---- one step ----------------------------------------------------------------------------- */

static bool has_phi(const IrBlock *b) { return b->n_insts > 0 && b->insts[0]->op == IR_PHI; }

/* Every register, and the shadow of every phi (none set: see the top). */
static void declare_registers(CpuFunc *e)
{
    for (uint32_t r = 0; r < e->f->n_regs; r++)
        if (e->reg_types[r] != IRT_VOID)
            fprintf(e->out, "    %s r%" PRIu32 ";\n", cpu_ctype(e->reg_types[r]), r);
    for (uint32_t b = 0; b < e->f->n_blocks; b++)
        for (uint32_t i = 0; has_phi(e->f->blocks[b]) && i < e->f->blocks[b]->n_insts; i++) {
            const IrInst *in = e->f->blocks[b]->insts[i];
            if (in->op == IR_PHI)
                fprintf(e->out, "    %s p%" PRIu32 ";\n", cpu_ctype(in->type), in->result);
        }
}

/* The parameters, from the CTA's 64-bit slots. */
static void take_parameters(CpuFunc *e)
{
    for (uint32_t p = 0; p < e->f->n_params; p++)
        taken_again(e, e->f->params[p].reg, true);
}

/* The shadows of `to`'s phis from the edge out of `from`. */
static void edge(CpuFunc *e, const IrBlock *from, const IrBlock *to)
{
    char value[96];
    for (uint32_t i = 0; has_phi(to) && i < to->n_insts && to->insts[i]->op == IR_PHI; i++) {
        const IrInst *phi = to->insts[i];
        for (uint32_t k = 0; k < phi->n_operands; k++)
            if (phi->incoming[k] == from)
                fprintf(e->out, "    p%" PRIu32 " = %s;\n", phi->result,
                        cpu_value(e, phi->operands[k], value, sizeof value));
    }
    fprintf(e->out, "    goto b%" PRIu32 ";\n", to->id);
}

static void terminator(CpuFunc *e, const IrBlock *b, const IrInst *in)
{
    char cond[96];
    if (in->op == IR_BR) {
        edge(e, b, in->target[0]);
    } else if (in->op == IR_CBR) {
        fprintf(e->out, "    if (%s) {\n", cpu_value(e, in->operands[0], cond, sizeof cond));
        edge(e, b, in->target[0]);
        fputs("    }\n", e->out);
        edge(e, b, in->target[1]);
    } else {
        fputs("    return SILK_CPU_EXITED;\n", e->out);
    }
}

static void emit_block(CpuFunc *e, const IrBlock *b)
{
    fprintf(e->out, "b%" PRIu32 ":;\n", b->id);
    for (uint32_t i = 0; i < b->n_insts; i++, e->at++) {
        const IrInst *in = b->insts[i];
        if (in->op == IR_PHI)
            fprintf(e->out, "    r%" PRIu32 " = p%" PRIu32 ";\n", in->result, in->result);
        else if (ir_op_is_terminator(in->op))
            terminator(e, b, in);
        else
            cpu_inst(e, in);
    }
}

/* The resumption: a jump to the stop's label, which restores what it
 * saved; a thread from the start (t->resume 0) goes on to the parameters. */
static void resume(CpuFunc *e)
{
    fputs("    switch (t->resume) {\n", e->out);
    for (uint32_t k = 1; k < e->n_stops; k++)
        if (e->resumable[k])
            fprintf(e->out, "    case %" PRIu32 ": goto stop%" PRIu32 ";\n", k, k);
    fputs("    }\n", e->out);
}

/* The step of kernel `f`: the body is written first (to a buffer), since
 * what comes before it depends on the stops the body makes. */
static bool emit_step(CpuFunc *e, FILE *out)
{
    char *body = NULL;
    size_t len = 0;
    e->out = open_memstream(&body, &len);
    if (!e->out)
        return false;
    find_definitions(e);
    find_live_across(e);
    for (uint32_t b = 0; b < e->f->n_blocks; b++)
        emit_block(e, e->f->blocks[b]);
    bool ok = fclose(e->out) == 0;
    e->out = out;
    fprintf(out, "\nstatic int silk_step_%s(const SilkCpuCta *cta, SilkCpuThread *t)\n{\n",
            e->f->name);
    declare_registers(e);
    if (has_stops(e))
        resume(e);
    take_parameters(e);
    fwrite(body, 1, len, out);
    fputs("}\n", out);
    free(body);
    return ok;
}

/* ---- the kernel table ----------------------------------------------------------------- */

/* A C string literal of `s` (names and paths are printable, but a path
 * may hold a quote or a backslash). */
static void string_literal(FILE *out, const char *s)
{
    escape_fputs_c_string(s, strlen(s), out);
}

/* The stops' places and the parameters of kernel `e->f`. */
static void kernel_tables(CpuFunc *e)
{
    const IrFunc *f = e->f;
    fprintf(e->out, "static const SilkCpuSite silk_stop_sites_%s[] = {{0, 0, 0, 0, 0},\n", f->name);
    for (uint32_t k = 1; k < e->n_stops; k++) {
        Span s = e->stops[k];
        const SourceFile *file = &e->diag->sources->files[s.file];
        uint32_t line, col;
        source_line_col(file, s.start, &line, &col);
        fputs("    {", e->out);
        string_literal(e->out, ESCAPED(file->path)); /* printed in fault lines: as the terminal shows it */
        fprintf(e->out, ", %" PRIu32 ", %" PRIu32 ", ", line, col);
        if (e->checks[k]) {
            string_literal(e->out, e->checks[k]->symbol);
            fprintf(e->out, ", %" PRIu32 "},\n",
                    e->checks[k]->op == IR_CHECK ? e->checks[k]->dim : 0);
        } else {
            fputs("0, 0},\n", e->out);
        }
    }
    fprintf(e->out, "};\nstatic const char *const silk_param_names_%s[] = {", f->name);
    for (uint32_t p = 0; p < f->n_params; p++) {
        string_literal(e->out, f->params[p].name ? f->params[p].name : "");
        fputs(", ", e->out);
    }
    fprintf(e->out, "0};\nstatic const char *const silk_param_types_%s[] = {", f->name);
    for (uint32_t p = 0; p < f->n_params; p++)
        fprintf(e->out, "\"%s\", ", ir_type_name(f->params[p].type));
    fprintf(e->out, "0};\nstatic const char *const silk_param_source_types_%s[] = {", f->name);
    for (uint32_t p = 0; p < f->n_params; p++) {
        const char *source = f->params[p].source_type;
        string_literal(e->out, source ? source : ir_type_name(f->params[p].type));
        fputs(", ", e->out);
    }
    fputs("0};\n", e->out);
}

static bool is_persistent(const IrFunc *f)
{
    return f->n_params > 0 && f->params[f->n_params - 1].name &&
           strcmp(f->params[f->n_params - 1].name, "__silk_logical_ctas") == 0;
}

static void kernel_entry(const IrModule *m, const IrFunc *f, uint32_t n_stops, uint32_t n_slots,
                         uint64_t shared, FILE *out)
{
    fprintf(out, "    {\"%s\", silk_step_%s, %" PRIu32 ", silk_param_names_%s, silk_param_types_%s,"
                 " silk_param_source_types_%s, %" PRIu32 ", %d, %" PRIu64 ", %" PRIu64
                 ", %d, silk_stop_sites_%s, %" PRIu32 ", %d, silk_shared_arrays, %" PRIu32 "},\n",
            f->name, f->name, f->n_params, f->name, f->name, f->name, n_slots, f->reqntid, shared,
            f->dynamic_smem, is_persistent(f), f->name, n_stops, m->race_checks, m->n_shared);
}

/* The shared arrays' places, for the race checks' messages. */
static void shared_table(const IrModule *m, const uint64_t *at, FILE *out)
{
    fputs("\nstatic const SilkCpuArray silk_shared_arrays[] = {\n", out);
    for (uint32_t i = 0; i < m->n_shared; i++) {
        fputs("    {", out);
        string_literal(out, m->shared[i].name);
        fprintf(out, ", %" PRIu64 ", %" PRIu64 "},\n", at[i],
                m->shared[i].count * ir_natural_align(m->shared[i].elem));
    }
    fputs("    {0, 0, 0}};\n", out);
}

bool cpu_emit_module(const IrModule *m, const char *target, FILE *out, Diag *diag)
{
    (void)target;
    uint64_t shared;
    const uint64_t *shared_at = layout_shared(m, &shared);
    uint32_t *n_stops = ARENA_ARRAY(m->arena, uint32_t, m->n_funcs + 1);
    uint32_t *n_slots = ARENA_ARRAY(m->arena, uint32_t, m->n_funcs + 1);
    bool ok = true;
    fprintf(out, "/* Generated by silkc's CPU backend: do not edit. */\n%s%s", silk_builtin_cpu_abi,
            silk_builtin_cpu_prelude);
    for (uint32_t i = 0; i < m->n_funcs; i++) {
        CpuFunc e = {.m = m, .f = m->funcs[i], .out = out, .diag = diag, .ok = true,
                     .shared_at = shared_at, .reg_types = register_types(m, m->funcs[i]),
                     .nan_seen = ir_nan_seen(m, m->funcs[i])};
        cpu_new_stop(&e, e.f->blocks[0]->insts[0]); /* stop 0: none */
        if (!m->funcs[i]->kernel) {
            diag_error(diag, (Span){0}, "the CPU backend cannot run device function @%s yet",
                       e.f->name);
            return false;
        }
        ok = emit_step(&e, out) && e.ok && ok;
        kernel_tables(&e);
        n_stops[i] = e.n_stops;
        n_slots[i] = e.n_slots;
    }
    shared_table(m, shared_at, out);
    fprintf(out, "\nstatic const SilkCpuKernel silk_kernels[] = {\n");
    for (uint32_t i = 0; i < m->n_funcs; i++)
        kernel_entry(m, m->funcs[i], n_stops[i], n_slots[i], shared, out);
    fprintf(out, "    {0}};\n\nconst SilkCpuModule silk_cpu_module = {SILK_CPU_ABI_VERSION, %" PRIu32
                 ", silk_kernels};\n",
            m->n_funcs);
    return ok;
}
