/*
 * pass_util.c: what the passes share: the opcode facts that decide what a
 * pass may remove, merge or move; a table of replacements, so a pass
 * records "every use of %r is now v" and rewrites the function once; the
 * small edits (dropping a phi's edge, deleting instructions); and the
 * renumbering that runs after every pass, so the text form stays dense
 * and deterministic (registers in order of definition, parameters first;
 * blocks by position).
 */
#include "pass_internal.h"

#include <assert.h>
#include <string.h>

/* ---- opcode facts ------------------------------------------------------- */

bool pass_removable(const IrInst *in)
{
    return ir_op_defines(in->op) && in->op != IR_ATOM;
}

bool pass_pure(const IrInst *in)
{
    switch (in->op) {
    case IR_LOAD: case IR_ATOM: case IR_SHFL: case IR_BALLOT: case IR_PHI:
        return false;
    case IR_SREG:
        return in->sreg != IRR_WARPID;
    default:
        return ir_op_defines(in->op);
    }
}

bool pass_may_trap(const IrInst *in)
{
    return in->op == IR_SDIV || in->op == IR_UDIV || in->op == IR_SREM || in->op == IR_UREM;
}

bool pass_same_value(IrValue a, IrValue b)
{
    if (a.kind != b.kind)
        return false;
    if (a.kind == IRV_REG)
        return a.reg == b.reg;
    return a.type == b.type && a.bits == b.bits;
}

static bool commutative(IrOp op)
{
    switch (op) {
    case IR_ADD: case IR_MUL: case IR_AND: case IR_OR: case IR_XOR: case IR_SMIN: case IR_UMIN:
    case IR_SMAX: case IR_UMAX:
        return true;
    default:
        return false;
    }
}

static bool same_attributes(const IrInst *a, const IrInst *b)
{
    switch (a->op) {
    case IR_CMP: return a->cmp == b->cmp;
    case IR_SREG: return a->sreg == b->sreg;
    case IR_ADDR: return a->space == b->space && a->symbol && b->symbol && strcmp(a->symbol, b->symbol) == 0;
    default: return true;
    }
}

static bool same_operands(const IrInst *a, const IrInst *b)
{
    bool in_order = true;
    for (uint32_t k = 0; k < a->n_operands; k++)
        in_order &= pass_same_value(a->operands[k], b->operands[k]);
    if (in_order || !commutative(a->op) || a->n_operands != 2)
        return in_order;
    return pass_same_value(a->operands[0], b->operands[1]) && pass_same_value(a->operands[1], b->operands[0]);
}

bool pass_equal_insts(const IrInst *a, const IrInst *b)
{
    return a->op == b->op && a->type == b->type && a->n_operands == b->n_operands && same_attributes(a, b) &&
           same_operands(a, b);
}

/* FNV-1a over the words of a key: cheap, and spreads small register
 * numbers and constants well enough for a table indexed by its low bits. */
static uint32_t mix(uint32_t h, uint64_t word)
{
    for (int i = 0; i < 8; i++, word >>= 8)
        h = (h ^ (uint32_t)(word & 0xff)) * 16777619u;
    return h;
}

static uint32_t hash_value(IrValue v)
{
    uint32_t h = mix(2166136261u, v.kind);
    return v.kind == IRV_REG ? mix(h, v.reg) : mix(mix(h, v.type), v.bits);
}

static uint32_t hash_attributes(const IrInst *in)
{
    switch (in->op) {
    case IR_CMP: return in->cmp;
    case IR_SREG: return in->sreg;
    case IR_ADDR: {
        uint32_t h = mix(2166136261u, in->space);
        for (const char *c = in->symbol ? in->symbol : ""; *c; c++)
            h = mix(h, (unsigned char)*c);
        return h;
    }
    default: return 0;
    }
}

uint32_t pass_hash_inst(const IrInst *in)
{
    uint32_t h = mix(mix(mix(2166136261u, in->op), in->type), in->n_operands);
    h = mix(h, hash_attributes(in));
    if (commutative(in->op) && in->n_operands == 2) /* a sum does not see the order */
        return mix(h, (uint64_t)hash_value(in->operands[0]) + hash_value(in->operands[1]));
    for (uint32_t k = 0; k < in->n_operands; k++)
        h = mix(h, hash_value(in->operands[k]));
    return h;
}

/* ---- replacements ------------------------------------------------------- */

IrSubst pass_subst_new(const IrFunc *f, Arena *scratch)
{
    uint32_t n = f->n_regs ? f->n_regs : 1;
    return (IrSubst){.to = ARENA_ARRAY(scratch, IrValue, n), .set = ARENA_ARRAY(scratch, bool, n), .n = f->n_regs};
}

void pass_subst_set(IrSubst *s, uint32_t reg, IrValue to)
{
    assert(reg < s->n);
    assert(!(to.kind == IRV_REG && to.reg == reg));
    s->to[reg] = to;
    s->set[reg] = true;
}

IrValue pass_subst_resolve(const IrSubst *s, IrValue v)
{
    /* A chain is at most n long; a longer one would be a cycle, a bug. */
    for (uint32_t steps = 0; v.kind == IRV_REG && v.reg < s->n && s->set[v.reg]; steps++) {
        assert(steps <= s->n);
        v = s->to[v.reg];
    }
    return v;
}

bool pass_subst_inst(const IrSubst *s, IrInst *in)
{
    bool changed = false;
    for (uint32_t k = 0; k < in->n_operands; k++) {
        IrValue v = pass_subst_resolve(s, in->operands[k]);
        if (!pass_same_value(v, in->operands[k])) {
            in->operands[k] = v;
            changed = true;
        }
    }
    return changed;
}

bool pass_subst_func(const IrSubst *s, IrFunc *f)
{
    bool changed = false;
    for (uint32_t b = 0; b < f->n_blocks; b++)
        for (uint32_t i = 0; i < f->blocks[b]->n_insts; i++)
            changed |= pass_subst_inst(s, f->blocks[b]->insts[i]);
    return changed;
}

/* ---- edits ---------------------------------------------------------------- */

void pass_remove_phi_edge(IrBlock *b, const IrBlock *pred)
{
    for (uint32_t i = 0; i < b->n_insts && b->insts[i]->op == IR_PHI; i++) {
        IrInst *phi = b->insts[i];
        uint32_t kept = 0;
        for (uint32_t k = 0; k < phi->n_operands; k++) {
            if (phi->incoming[k] == pred)
                continue;
            phi->operands[kept] = phi->operands[k];
            phi->incoming[kept++] = phi->incoming[k];
        }
        phi->n_operands = kept;
    }
}

void pass_delete_insts(IrBlock *b, const bool *dead)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < b->n_insts; i++)
        if (!dead[i])
            b->insts[kept++] = b->insts[i];
    b->n_insts = kept;
}

/* ---- renumbering ------------------------------------------------------------ */

static void renumber_value(const uint32_t *map, IrValue *v)
{
    if (v->kind != IRV_REG)
        return;
    assert(map[v->reg] != UINT32_MAX);
    v->reg = map[v->reg];
}

void pass_renumber(IrFunc *f, Arena *scratch)
{
    uint32_t *map = ARENA_ARRAY(scratch, uint32_t, f->n_regs ? f->n_regs : 1);
    memset(map, 0xff, (f->n_regs ? f->n_regs : 1) * sizeof *map);
    uint32_t next = 0;
    for (uint32_t p = 0; p < f->n_params; p++)
        map[f->params[p].reg] = next++;
    for (uint32_t b = 0; b < f->n_blocks; b++) {
        f->blocks[b]->id = b;
        for (uint32_t i = 0; i < f->blocks[b]->n_insts; i++)
            if (ir_op_defines(f->blocks[b]->insts[i]->op))
                map[f->blocks[b]->insts[i]->result] = next++;
    }
    for (uint32_t p = 0; p < f->n_params; p++)
        f->params[p].reg = map[f->params[p].reg];
    for (uint32_t b = 0; b < f->n_blocks; b++)
        for (uint32_t i = 0; i < f->blocks[b]->n_insts; i++) {
            IrInst *in = f->blocks[b]->insts[i];
            if (ir_op_defines(in->op))
                in->result = map[in->result];
            for (uint32_t k = 0; k < in->n_operands; k++)
                renumber_value(map, &in->operands[k]);
        }
    f->n_regs = next;
}

/* ---- lookups -------------------------------------------------------------- */

IrInst **pass_definitions(const IrFunc *f, Arena *scratch)
{
    IrInst **def = ARENA_ARRAY(scratch, IrInst *, f->n_regs ? f->n_regs : 1);
    for (uint32_t b = 0; b < f->n_blocks; b++)
        for (uint32_t i = 0; i < f->blocks[b]->n_insts; i++)
            if (ir_op_defines(f->blocks[b]->insts[i]->op))
                def[f->blocks[b]->insts[i]->result] = f->blocks[b]->insts[i];
    return def;
}

/* ---- moving code ------------------------------------------------------------ */

void pass_insert_before_end(IrModule *m, IrBlock *b, IrInst *in)
{
    IrInst *term = b->insts[b->n_insts - 1];
    b->insts[b->n_insts - 1] = in;
    b->insts = ir_grow(m->arena, b->insts, b->n_insts, sizeof *b->insts);
    b->insts[b->n_insts++] = term;
}

void pass_retarget_phis(IrBlock *to, const IrBlock *from)
{
    const IrInst *term = to->insts[to->n_insts - 1];
    int n_targets = term->op == IR_CBR ? 2 : term->op == IR_BR ? 1 : 0;
    for (int s = 0; s < n_targets; s++) {
        IrBlock *succ = term->target[s];
        for (uint32_t i = 0; i < succ->n_insts && succ->insts[i]->op == IR_PHI; i++)
            for (uint32_t k = 0; k < succ->insts[i]->n_operands; k++)
                if (succ->insts[i]->incoming[k] == from)
                    succ->insts[i]->incoming[k] = to;
    }
}
