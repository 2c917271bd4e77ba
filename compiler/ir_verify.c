/*
 * ir_verify.c: checks the invariants of ir.h that every pass keeps, so a
 * pass that breaks one is caught at the pass, not in the PTX.
 *
 * Per function, in this order: the blocks' shape (unique numbers, not
 * empty, phis first, one terminator and only at the end, targets in the
 * function); the registers (each defined once, below n_regs); the control
 * flow graph and dominators (cfg_build, shared with the passes); then each
 * instruction's operand count, operand types and the dominance of each
 * use: an ordinary use must
 * follow its definition in the block or be in a block the definition's
 * block dominates; a phi's use must reach the end of the matching
 * predecessor.  Uses in unreachable blocks are not checked for dominance,
 * which is meaningless there.
 *
 * Each violation is reported with diag_error at the instruction's span.
 * Built IR has no spans (all zero): then the message itself names the
 * function, the block and the instruction's index from 0 ("in @saxpy,
 * @b1, instruction 3: ...") and the diagnostic names no place in a file.
 * Pass-local tables live in a scratch arena dropped after each function.
 */
#include "ir.h"
#include "ir_cfg.h"

#include <assert.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum {
    MESSAGE_BYTES = 256,
    NO_INST = -1,
    PARAM_BLOCK = -1, /* DefSite.block of a parameter: defined before the entry */
    UNDEFINED = -2,   /* DefSite.block of a register nothing defines */
};

typedef struct DefSite {
    int block, inst;
    IrType type;
} DefSite;

typedef struct Verifier {
    const IrModule *m;
    Diag *diag;
    int errors;
    /* the function being checked, and its tables (in `scratch`) */
    const IrFunc *f;
    Arena *scratch;
    DefSite *defs;      /* by register */
    const IrCfg *cfg;   /* its graph and dominators (ir_cfg.h) */
} Verifier;

/* ---- reporting ------------------------------------------------------------ */

static bool has_span(Span s)
{
    return s.start != 0 || s.end != 0;
}

static void report(Verifier *v, uint32_t block, int inst, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void report(Verifier *v, uint32_t block, int inst, const char *fmt, ...)
{
    char message[MESSAGE_BYTES];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    v->errors++;
    const IrBlock *b = block < v->f->n_blocks ? v->f->blocks[block] : NULL;
    Span at = b && inst >= 0 ? b->insts[inst]->span : (Span){0, 0, 0};
    if (has_span(at)) {
        diag_error(v->diag, at, "%s", message);
        return;
    }
    Span nowhere = {UINT32_MAX, 0, 0}; /* no file: diag names no place */
    const char *fname = v->f->name ? v->f->name : "?";
    if (!b)
        diag_error(v->diag, nowhere, "in @%s: %s", fname, message);
    else if (inst < 0)
        diag_error(v->diag, nowhere, "in @%s, @b%u: %s", fname, b->id, message);
    else
        diag_error(v->diag, nowhere, "in @%s, @b%u, instruction %d: %s", fname, b->id, inst, message);
}

/* ---- blocks ---------------------------------------------------------------- */

static void check_target(Verifier *v, uint32_t b, int i, const IrBlock *target)
{
    if (!target)
        report(v, b, i, "'%s' has no target block", ir_op_name(v->f->blocks[b]->insts[i]->op));
    else if (cfg_block_index(v->f, target) < 0)
        report(v, b, i, "@b%u is not a block of @%s", target->id, v->f->name ? v->f->name : "?");
}

/* Not empty, phis first, one terminator and only last; targets in the function. */
static void check_block_shape(Verifier *v, uint32_t b)
{
    const IrBlock *block = v->f->blocks[b];
    if (block->n_insts == 0) {
        report(v, b, NO_INST, "the block is empty");
        return;
    }
    bool past_phis = false;
    for (uint32_t i = 0; i < block->n_insts; i++) {
        const IrInst *in = block->insts[i];
        if (in->op == IR_PHI && past_phis)
            report(v, b, (int)i, "a phi must come before the other instructions of @b%u", block->id);
        past_phis |= in->op != IR_PHI;
        bool last = i + 1 == block->n_insts;
        if (ir_op_is_terminator(in->op) && !last)
            report(v, b, (int)i, "'%s' ends @b%u before its last instruction", ir_op_name(in->op), block->id);
        if (!ir_op_is_terminator(in->op) && last)
            report(v, b, (int)i, "@b%u does not end in a terminator (br, cbr, ret)", block->id);
        if (in->op == IR_BR)
            check_target(v, b, (int)i, in->target[0]);
        if (in->op == IR_CBR) {
            check_target(v, b, (int)i, in->target[0]);
            check_target(v, b, (int)i, in->target[1]);
        }
    }
}

/* Block positions ordered by id, then by position. */
typedef struct BlockKey {
    uint32_t id, index;
} BlockKey;

static int compare_block_keys(const void *x, const void *y)
{
    const BlockKey *a = x, *b = y;
    if (a->id != b->id)
        return a->id < b->id ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* Every block whose id an earlier block has, in block order.  Sorted, not
 * compared pairwise: a kernel can have tens of thousands of blocks. */
static void check_block_ids(Verifier *v)
{
    const IrFunc *f = v->f;
    if (f->n_blocks == 0) {
        report(v, UINT32_MAX, NO_INST, "the function has no blocks");
        return;
    }
    BlockKey *keys = ARENA_ARRAY(v->scratch, BlockKey, f->n_blocks);
    bool *repeated = ARENA_ARRAY(v->scratch, bool, f->n_blocks);
    for (uint32_t b = 0; b < f->n_blocks; b++)
        keys[b] = (BlockKey){f->blocks[b]->id, b};
    qsort(keys, f->n_blocks, sizeof *keys, compare_block_keys);
    for (uint32_t k = 1; k < f->n_blocks; k++)
        repeated[keys[k].index] = keys[k].id == keys[k - 1].id;
    for (uint32_t b = 1; b < f->n_blocks; b++)
        if (repeated[b])
            report(v, b, NO_INST, "two blocks are numbered @b%u", f->blocks[b]->id);
}

/* ---- registers -------------------------------------------------------------- */

static void define(Verifier *v, uint32_t reg, int block, int inst, IrType type)
{
    const IrFunc *f = v->f;
    uint32_t b = block < 0 ? 0 : (uint32_t)block;
    if (reg >= f->n_regs) {
        report(v, block < 0 ? UINT32_MAX : b, inst, "%%%u is beyond the function's %u registers", reg, f->n_regs);
        return;
    }
    if (v->defs[reg].block != UNDEFINED) {
        report(v, block < 0 ? UINT32_MAX : b, inst, "%%%u is defined twice", reg);
        return;
    }
    v->defs[reg] = (DefSite){block, inst, type};
}

static void collect_defs(Verifier *v)
{
    const IrFunc *f = v->f;
    v->defs = ARENA_ARRAY(v->scratch, DefSite, f->n_regs ? f->n_regs : 1);
    for (uint32_t r = 0; r < f->n_regs; r++)
        v->defs[r].block = UNDEFINED;
    for (uint32_t i = 0; i < f->n_params; i++)
        define(v, f->params[i].reg, PARAM_BLOCK, NO_INST, f->params[i].type);
    for (uint32_t b = 0; b < f->n_blocks; b++)
        for (uint32_t i = 0; i < f->blocks[b]->n_insts; i++) {
            const IrInst *in = f->blocks[b]->insts[i];
            if (ir_op_defines(in->op))
                define(v, in->result, (int)b, (int)i, in->type);
        }
}

/* ---- control flow and dominators --------------------------------------------- */

/* The graph comes from ir_cfg.c, which takes successors from each block's
 * last instruction only (a misplaced terminator is already reported, and
 * its edges would only add noise) and skips targets outside the function
 * (reported by check_target). */

/* Whether register `reg`, used by instruction i of block b (at the end of
 * block b when at_end, for a phi), is defined on every path to the use. */
static bool defined_before(const Verifier *v, uint32_t reg, int b, int i, bool at_end)
{
    const DefSite *d = &v->defs[reg];
    if (d->block == PARAM_BLOCK || !cfg_reachable(v->cfg, (uint32_t)b))
        return true;
    if (d->block < 0 || !cfg_reachable(v->cfg, (uint32_t)d->block))
        return false;
    if (d->block == b)
        return at_end || d->inst < i;
    return cfg_dominates(v->cfg, (uint32_t)d->block, (uint32_t)b);
}

/* ---- instructions ------------------------------------------------------------- */

static bool is_int(IrType t)
{
    return t >= IRT_I1 && t <= IRT_I64;
}

static bool is_float(IrType t)
{
    return t >= IRT_F16 && t <= IRT_F64;
}

/* An operand's type; IRT_VOID when it names no defined register (reported
 * as a use, not again as a type). */
static IrType type_of(const Verifier *v, IrValue val)
{
    if (val.kind != IRV_REG)
        return val.type;
    if (val.reg >= v->f->n_regs || v->defs[val.reg].block == UNDEFINED)
        return IRT_VOID;
    return v->defs[val.reg].type;
}

/* The number of operands the opcode wants here, or -1 when checked elsewhere (phi). */
static int wanted_operands(const Verifier *v, const IrInst *in)
{
    switch (in->op) {
    case IR_ATOM: return in->atom == IRA_CAS ? 3 : 2;
    case IR_RET: return v->f->result == IRT_VOID ? 0 : 1;
    default: return ir_op_operands(in->op);
    }
}

/* Each use defined on every path to it; each operand present. */
static void check_uses(Verifier *v, uint32_t b, uint32_t i, const IrInst *in)
{
    for (uint32_t k = 0; k < in->n_operands; k++) {
        IrValue val = in->operands[k];
        if (val.kind == IRV_NONE) {
            report(v, b, (int)i, "operand %u of '%s' is missing", k + 1, ir_op_name(in->op));
            continue;
        }
        if (val.kind != IRV_REG)
            continue;
        bool is_phi = in->op == IR_PHI;
        int at = is_phi ? cfg_block_index(v->f, in->incoming ? in->incoming[k] : NULL) : (int)b;
        if (val.reg >= v->f->n_regs || v->defs[val.reg].block == UNDEFINED)
            report(v, b, (int)i, "%%%u is used but never defined", val.reg);
        else if (at >= 0 && !defined_before(v, val.reg, at, (int)i, is_phi))
            report(v, b, (int)i, "%%%u is used before it is defined", val.reg);
    }
}

/* One operand per predecessor, each predecessor once. */
static void check_phi(Verifier *v, uint32_t b, uint32_t i, const IrInst *in)
{
    uint32_t n = v->cfg->n_preds[b];
    if (in->n_operands != n) {
        report(v, b, (int)i, "phi has %u operand%s but @b%u has %u predecessor%s", in->n_operands,
               in->n_operands == 1 ? "" : "s", v->f->blocks[b]->id, n, n == 1 ? "" : "s");
        return;
    }
    for (uint32_t k = 0; k < n; k++) {
        int from = cfg_block_index(v->f, in->incoming ? in->incoming[k] : NULL);
        bool is_pred = false, repeated = false;
        for (uint32_t q = 0; q < n; q++)
            is_pred |= from >= 0 && v->cfg->preds[b][q] == (uint32_t)from;
        for (uint32_t q = 0; q < k; q++)
            repeated |= in->incoming[q] == in->incoming[k];
        if (!is_pred)
            report(v, b, (int)i, "phi operand %u does not come from a predecessor of @b%u", k + 1,
                   v->f->blocks[b]->id);
        else if (repeated)
            report(v, b, (int)i, "phi names @b%u twice", in->incoming[k]->id);
    }
}

static void check_operand_types(Verifier *v, uint32_t b, uint32_t i, const IrInst *in)
{
    for (uint32_t k = 0; k < in->n_operands; k++) {
        IrType want = ir_operand_type(v->f, in, k), got = type_of(v, in->operands[k]);
        if (want != IRT_VOID && got != IRT_VOID && got != want)
            report(v, b, (int)i, "operand %u of '%s' is %s, expected %s", k + 1, ir_op_name(in->op),
                   ir_type_name(got), ir_type_name(want));
    }
}

typedef enum TypeRule { RULE_ANY, RULE_INT, RULE_FLOAT, RULE_CONVERT } TypeRule;

/* What the instruction's own type must be; conversions are checked by
 * converts(), the machine operations by check_machine(). */
static TypeRule type_rule(IrOp op)
{
    switch (op) {
    case IR_SDIV: case IR_UDIV: case IR_SREM: case IR_UREM: case IR_AND: case IR_OR: case IR_XOR:
    case IR_SHL: case IR_LSHR: case IR_ASHR: case IR_SMIN: case IR_UMIN: case IR_SMAX: case IR_UMAX:
    case IR_NOT:
        return RULE_INT;
    case IR_FDIV: case IR_FMIN: case IR_FMAX: case IR_FMA: case IR_SQRT: case IR_RSQRT: case IR_EXP:
    case IR_LOG: case IR_SIN: case IR_COS: case IR_FLOOR: case IR_CEIL:
        return RULE_FLOAT;
    case IR_SEXT: case IR_ZEXT: case IR_TRUNC: case IR_FPTOSI: case IR_FPTOUI: case IR_SITOFP:
    case IR_UITOFP: case IR_FPEXT: case IR_FPTRUNC: case IR_BITCAST:
        return RULE_CONVERT;
    default:
        return RULE_ANY;
    }
}

static bool converts(IrOp op, IrType from, IrType to)
{
    int fb = ir_type_bits(from), tb = ir_type_bits(to);
    switch (op) {
    case IR_SEXT: case IR_ZEXT: return is_int(from) && is_int(to) && fb < tb;
    case IR_TRUNC: return is_int(from) && is_int(to) && fb > tb;
    case IR_FPTOSI: case IR_FPTOUI: return is_float(from) && is_int(to);
    case IR_SITOFP: case IR_UITOFP: return is_int(from) && is_float(to);
    case IR_FPEXT: return is_float(from) && is_float(to) && fb < tb;
    case IR_FPTRUNC: return is_float(from) && is_float(to) && fb > tb;
    default: return fb == tb; /* bitcast */
    }
}

static bool symbol_exists(const Verifier *v, const IrInst *in)
{
    if (!in->symbol)
        return false;
    if (in->space == IRS_SHARED) {
        for (uint32_t s = 0; s < v->m->n_shared; s++)
            if (strcmp(v->m->shared[s].name, in->symbol) == 0)
                return true;
    } else {
        for (uint32_t p = 0; p < v->f->n_params; p++)
            if (v->f->params[p].name && strcmp(v->f->params[p].name, in->symbol) == 0)
                return true;
    }
    return false;
}

/* Comparisons, memory and the machine's own operations. */
/* A shared-memory address is i64 or i32 (other spaces: i64, by
 * ir_operand_type). */
static void check_shared_address(Verifier *v, uint32_t b, uint32_t i, const IrInst *in)
{
    IrType a = type_of(v, in->operands[0]);
    if (in->space == IRS_SHARED && a != IRT_VOID && a != IRT_I64 && a != IRT_I32)
        report(v, b, (int)i, "a shared address is i64 or i32, not %s", ir_type_name(a));
}

static void check_machine(Verifier *v, uint32_t b, uint32_t i, const IrInst *in)
{
    const char *name = ir_op_name(in->op);
    IrType t = in->type;
    switch (in->op) {
    case IR_CMP: {
        IrType a = type_of(v, in->operands[0]), c = type_of(v, in->operands[1]);
        bool float_pred = in->cmp >= IRC_FEQ, ordered = in->cmp >= IRC_SLT && !float_pred;
        if (t != IRT_I1)
            report(v, b, (int)i, "'cmp' gives i1, not %s", ir_type_name(t));
        else if (a != IRT_VOID && c != IRT_VOID && a != c)
            report(v, b, (int)i, "the operands of 'cmp' are %s and %s", ir_type_name(a), ir_type_name(c));
        else if (a != IRT_VOID && (float_pred ? !is_float(a) : !is_int(a) || (ordered && a == IRT_I1)))
            report(v, b, (int)i, "'cmp %s' does not compare %s", ir_cmp_name(in->cmp), ir_type_name(a));
        break;
    }
    case IR_ATOM:
        if (in->space != IRS_GLOBAL && in->space != IRS_SHARED)
            report(v, b, (int)i, "'atom' works on global or shared memory only");
        else if (t == IRT_I1)
            report(v, b, (int)i, "'atom' cannot work on i1");
        else
            check_shared_address(v, b, i, in);
        break;
    case IR_LOAD: case IR_STORE:
        check_shared_address(v, b, i, in);
        break;
    case IR_ADDR:
        if (t != IRT_I64 && !(t == IRT_I32 && in->space == IRS_SHARED))
            report(v, b, (int)i, "'addr' gives i64 (or i32 in shared memory), not %s", ir_type_name(t));
        else if (in->space != IRS_SHARED && in->space != IRS_PARAM)
            report(v, b, (int)i, "'addr' names a shared array or a parameter");
        else if (!symbol_exists(v, in))
            report(v, b, (int)i, "$%s is not %s", in->symbol ? in->symbol : "?",
                   in->space == IRS_SHARED ? "a shared array" : "a parameter of the function");
        break;
    case IR_ASSIGNED:
        if (!in->symbol || !*in->symbol)
            report(v, b, (int)i, "'assigned' names the variable it checks");
        break;
    case IR_SREG: case IR_BALLOT:
        if (t != IRT_I32)
            report(v, b, (int)i, "'%s' gives i32, not %s", name, ir_type_name(t));
        break;
    case IR_SHFL:
        if (t != IRT_I32 && t != IRT_F32)
            report(v, b, (int)i, "'shfl' moves i32 or f32, not %s", ir_type_name(t));
        break;
    default:
        break;
    }
}

/* The result, the operand count, then the types. */
static void check_types(Verifier *v, uint32_t b, uint32_t i, const IrInst *in)
{
    const char *name = ir_op_name(in->op);
    int want = wanted_operands(v, in);
    if (ir_op_defines(in->op) && in->type == IRT_VOID) {
        report(v, b, (int)i, "'%s' needs a result type", name);
        return;
    }
    if (!ir_op_defines(in->op) && in->type != IRT_VOID) {
        report(v, b, (int)i, "'%s' gives no value, yet has type %s", name, ir_type_name(in->type));
        return;
    }
    if (want >= 0 && in->n_operands != (uint32_t)want) {
        report(v, b, (int)i, "'%s' takes %d operand%s, not %u", name, want, want == 1 ? "" : "s", in->n_operands);
        return;
    }
    check_operand_types(v, b, i, in);
    TypeRule rule = type_rule(in->op);
    IrType from = in->n_operands ? type_of(v, in->operands[0]) : IRT_VOID;
    if (rule == RULE_INT && !is_int(in->type))
        report(v, b, (int)i, "'%s' needs an integer type, not %s", name, ir_type_name(in->type));
    else if (rule == RULE_FLOAT && !is_float(in->type))
        report(v, b, (int)i, "'%s' needs a float type, not %s", name, ir_type_name(in->type));
    else if (rule == RULE_CONVERT && from != IRT_VOID && !converts(in->op, from, in->type))
        report(v, b, (int)i, "'%s' cannot convert %s to %s", name, ir_type_name(from), ir_type_name(in->type));
    else
        check_machine(v, b, i, in);
}

/* ---- the driver ---------------------------------------------------------------- */

static void verify_func(Verifier *v)
{
    const IrFunc *f = v->f;
    check_block_ids(v);
    if (f->kernel && f->result != IRT_VOID)
        report(v, UINT32_MAX, NO_INST, "a kernel returns no value");
    for (uint32_t b = 0; b < f->n_blocks; b++)
        check_block_shape(v, b);
    collect_defs(v);
    if (f->n_blocks == 0)
        return;
    v->cfg = cfg_build(f, v->scratch);
    for (uint32_t b = 0; b < f->n_blocks; b++)
        for (uint32_t i = 0; i < f->blocks[b]->n_insts; i++) {
            const IrInst *in = f->blocks[b]->insts[i];
            if (in->op == IR_PHI)
                check_phi(v, b, i, in);
            check_uses(v, b, i, in);
            check_types(v, b, i, in);
        }
}

int ir_verify_func(const IrModule *m, const IrFunc *f, Diag *diag)
{
    Verifier v = {.m = m, .diag = diag, .f = f, .scratch = arena_new_like(diag ? diag->arena : NULL)};
    verify_func(&v);
    arena_free(v.scratch);
    return v.errors;
}

int ir_verify(const IrModule *m, Diag *diag)
{
    int errors = 0;
    for (uint32_t i = 0; i < m->n_funcs; i++)
        errors += ir_verify_func(m, m->funcs[i], diag);
    return errors;
}
