/*
 * pass_address.c: addresses as offsets from addresses already computed
 * (straight-line strength reduction, as LLVM's NVPTX back end does).
 *
 * Indexing x[r - 1, c], x[r + 1, c], x[r, c - 1] each computes its own
 * row-major address: a multiply, adds and a shift per access, all live at
 * once.  Within a block, this pass writes each address as a linear form
 * (a sum of coefficient x atom, plus a constant; wrap-around arithmetic
 * makes that exact) and, when it differs from an address computed earlier
 * in the block by a constant or by one atom times a constant, replaces it
 * by that address plus the difference:
 *
 *   x[r + 1, c] = x[r - 1, c] + 8 * cols     x[r, c + 1] = x[r, c - 1] + 8
 *
 * The old arithmetic is left for dce.  Atoms are i64 values that are not
 * add, sub, shl or mul by a constant; a product of two non-constant forms
 * is expanded when one side is a single atom (cols * (r - 1) is
 * cols*r - cols), so neighbours of one element share their terms.
 */
#include "pass_internal.h"

#include <string.h>

enum { MAX_TERMS = 12, MAX_DEPTH = 12, NO_ATOM = UINT32_MAX };

/* coef x atom (b == NO_ATOM) or coef x atom a x atom b (a < b). */
typedef struct Term {
    uint32_t a, b;
    uint64_t coef;
} Term;

typedef struct LinForm {
    Term terms[MAX_TERMS];
    int n;
    uint64_t k;
    bool ok; /* false: too many terms to track */
} LinForm;

static int term_cmp(const Term *x, uint32_t a, uint32_t b)
{
    if (x->a != a)
        return x->a < a ? -1 : 1;
    return x->b == b ? 0 : (x->b < b ? -1 : 1);
}

/* Adds coef x (a, b) to `f`, keeping the terms sorted and none zero. */
static void add_term(LinForm *f, uint32_t a, uint32_t b, uint64_t coef)
{
    if (b != NO_ATOM && b < a) {
        uint32_t t = a;
        a = b, b = t;
    }
    int i = 0;
    while (i < f->n && term_cmp(&f->terms[i], a, b) < 0)
        i++;
    if (i < f->n && term_cmp(&f->terms[i], a, b) == 0) {
        f->terms[i].coef += coef;
        if (f->terms[i].coef == 0) {
            memmove(&f->terms[i], &f->terms[i + 1], (size_t)(f->n - i - 1) * sizeof *f->terms);
            f->n--;
        }
        return;
    }
    if (coef == 0)
        return;
    if (f->n == MAX_TERMS) {
        f->ok = false;
        return;
    }
    memmove(&f->terms[i + 1], &f->terms[i], (size_t)(f->n - i) * sizeof *f->terms);
    f->terms[i] = (Term){a, b, coef};
    f->n++;
}

/* f += scale * g */
static void add_scaled(LinForm *f, const LinForm *g, uint64_t scale)
{
    f->ok &= g->ok;
    for (int i = 0; i < g->n && f->ok; i++)
        add_term(f, g->terms[i].a, g->terms[i].b, g->terms[i].coef * scale);
    f->k += g->k * scale;
}

static LinForm atom(uint32_t reg)
{
    LinForm f = {.ok = true};
    add_term(&f, reg, NO_ATOM, 1);
    return f;
}

static bool single_atom(const LinForm *f, uint32_t *reg)
{
    if (!f->ok || f->n != 1 || f->k != 0 || f->terms[0].coef != 1 || f->terms[0].b != NO_ATOM)
        return false;
    *reg = f->terms[0].a;
    return true;
}

static LinForm form_of(IrValue v, IrInst *const *def, int depth);

/* x * y with neither constant: expanded when one side is a single atom. */
static LinForm product(const LinForm *x, const LinForm *y, uint32_t self)
{
    uint32_t a;
    const LinForm *other = single_atom(y, &a) ? x : single_atom(x, &a) ? y : NULL;
    if (!other)
        return atom(self);
    LinForm f = {.ok = other->ok};
    for (int i = 0; i < other->n && f.ok; i++) {
        if (other->terms[i].b != NO_ATOM)
            return atom(self); /* a third factor: keep the product whole */
        add_term(&f, other->terms[i].a, a, other->terms[i].coef);
    }
    add_term(&f, a, NO_ATOM, other->k);
    return f.ok ? f : atom(self);
}

static LinForm form_of_inst(const IrInst *in, IrInst *const *def, int depth)
{
    if (in->op != IR_ADD && in->op != IR_SUB && in->op != IR_SHL && in->op != IR_MUL)
        return atom(in->result);
    LinForm x = form_of(in->operands[0], def, depth + 1);
    LinForm y = form_of(in->operands[1], def, depth + 1);
    LinForm f = {.ok = true};
    bool y_const = y.ok && y.n == 0;
    switch (in->op) {
    case IR_ADD: add_scaled(&f, &x, 1); add_scaled(&f, &y, 1); return f;
    case IR_SUB: add_scaled(&f, &x, 1); add_scaled(&f, &y, UINT64_MAX); return f;
    case IR_SHL:
        if (!y_const || y.k >= 64)
            return atom(in->result);
        add_scaled(&f, &x, UINT64_C(1) << y.k);
        return f;
    case IR_MUL:
        if (y_const || (x.ok && x.n == 0)) {
            add_scaled(&f, y_const ? &x : &y, y_const ? y.k : x.k);
            return f;
        }
        return product(&x, &y, in->result);
    default: return atom(in->result);
    }
}

static LinForm form_of(IrValue v, IrInst *const *def, int depth)
{
    LinForm f = {.ok = true};
    if (v.kind == IRV_INT) {
        f.k = v.bits;
        return f;
    }
    if (v.kind != IRV_REG || v.type != IRT_I64)
        return (LinForm){.ok = false};
    const IrInst *in = def[v.reg];
    if (!in || depth > MAX_DEPTH)
        return atom(v.reg);
    f = form_of_inst(in, def, depth);
    return f.ok ? f : atom(v.reg);
}

/* ---- rewriting ----------------------------------------------------------------- */

/* An address seen earlier in the block: its form and the value holding it. */
typedef struct Base {
    LinForm form;
    IrValue value;
    IrInst *hoist;      /* set: computed in the sibling arm of a branch, */
    IrBlock *from, *to; /* moved from there above the branch when used */
} Base;

/* Whether l - b is a constant (*atom NO_ATOM) or coef x one plain atom. */
static bool simple_difference(const LinForm *l, const LinForm *b, uint32_t *atom_reg,
                              uint64_t *coef, uint64_t *k)
{
    LinForm d = *l;
    add_scaled(&d, b, UINT64_MAX);
    if (!d.ok || d.n > 1 || (d.n == 1 && d.terms[0].b != NO_ATOM))
        return false;
    *atom_reg = d.n ? d.terms[0].a : NO_ATOM;
    *coef = d.n ? d.terms[0].coef : 0;
    *k = d.k;
    return true;
}

typedef struct Rewriter {
    IrModule *m;
    IrFunc *f;
    IrInst *const *def;
    uint32_t *def_block; /* by register: the block that defines it, kept as bases are hoisted */
    bool *defined;       /* by register: available at this point of the block */
    uint32_t n_regs;     /* registers before the pass: only these are atoms */
    IrBlock pending;     /* new instructions for before the current one */
} Rewriter;

static IrValue emit2(Rewriter *w, IrOp op, IrValue a, IrValue b)
{
    IrInst *in = ir_append(w->m, w->f, &w->pending, op, IRT_I64, 2);
    in->operands[0] = a, in->operands[1] = b;
    return ir_reg(in);
}

/* base + coef * atom + k, appended to w->pending. */
static IrValue materialize(Rewriter *w, IrValue base, uint32_t atom_reg, uint64_t coef, uint64_t k)
{
    IrValue v = base;
    if (atom_reg != NO_ATOM) {
        IrValue a = {.kind = IRV_REG, .type = IRT_I64, .reg = atom_reg};
        IrValue scaled = a;
        if ((coef & (coef - 1)) == 0 && coef != 1) {
            int s = 0;
            while ((UINT64_C(1) << s) != coef)
                s++;
            scaled = emit2(w, IR_SHL, a, ir_int(IRT_I64, s));
        } else if (coef == UINT64_MAX) {
            return k ? emit2(w, IR_ADD, emit2(w, IR_SUB, v, a), ir_int(IRT_I64, (int64_t)k))
                     : emit2(w, IR_SUB, v, a);
        } else if (coef != 1) {
            scaled = emit2(w, IR_MUL, a, ir_int(IRT_I64, (int64_t)coef));
        }
        v = emit2(w, IR_ADD, v, scaled);
    }
    return k ? emit2(w, IR_ADD, v, ir_int(IRT_I64, (int64_t)k)) : v;
}

static bool is_memory(const IrInst *in)
{
    return in->op == IR_LOAD || in->op == IR_STORE || in->op == IR_ATOM;
}

enum { MAX_BASES = 16 };

/* Keeps the latest MAX_BASES addresses of the block. */
static void remember(Base *bases, int *n, const LinForm *form, IrValue value)
{
    if (*n == MAX_BASES) {
        memmove(bases, bases + 1, (MAX_BASES - 1) * sizeof *bases);
        (*n)--;
    }
    bases[(*n)++] = (Base){*form, value, NULL, NULL, NULL};
}

/* Moves a sibling arm's address computation above the branch, where it
 * dominates both arms: the arm being rewritten then reaches its addresses
 * from it (the stencil's x[r, c - 1] is x[r, c] - 4, and x[r, c] is loaded
 * in the other arm).  Its operands are defined above the branch. */
static void hoist_base(IrModule *m, Base *base)
{
    IrBlock *from = base->from, *to = base->to;
    for (uint32_t i = 0; i < from->n_insts; i++)
        if (from->insts[i] == base->hoist) {
            memmove(&from->insts[i], &from->insts[i + 1], (from->n_insts - i - 1) * sizeof *from->insts);
            from->n_insts--;
            break;
        }
    pass_insert_before_end(m, to, base->hoist);
    base->hoist = NULL;
}

static void hoist(Rewriter *w, Base *base)
{
    IrInst *moved = base->hoist;
    int to = cfg_block_index(w->f, base->to);
    hoist_base(w->m, base);
    if (moved->result < w->n_regs && to >= 0)
        w->def_block[moved->result] = (uint32_t)to;
}

/* The address of `in` rewritten from an earlier base, when one is close. */
static bool rewrite_address(Rewriter *w, IrInst *in, Base *bases, int *n_bases)
{
    IrValue addr = in->operands[0];
    if (addr.kind != IRV_REG || addr.type != IRT_I64 || addr.reg >= w->n_regs || !w->def[addr.reg])
        return false;
    LinForm l = form_of(addr, w->def, 0);
    if (!l.ok || l.n < 2)
        return false;
    /* The nearest base a constant away, else the nearest one scaled atom away. */
    for (int want_atom = 0; want_atom < 2; want_atom++)
        for (int i = *n_bases - 1; i >= 0; i--) {
            uint32_t a;
            uint64_t coef, k;
            if (pass_same_value(bases[i].value, addr) ||
                !simple_difference(&l, &bases[i].form, &a, &coef, &k) ||
                (a != NO_ATOM) != want_atom || (a != NO_ATOM && !w->defined[a]))
                continue;
            if (bases[i].hoist)
                hoist(w, &bases[i]);
            in->operands[0] = materialize(w, bases[i].value, a, coef, k);
            remember(bases, n_bases, &l, in->operands[0]);
            return true;
        }
    remember(bases, n_bases, &l, addr);
    return false;
}

static bool rewrite_block(Rewriter *w, IrBlock *b, const Base *seeds, int n_seeds)
{
    Base bases[MAX_BASES];
    int n_bases = n_seeds;
    memcpy(bases, seeds, (size_t)n_seeds * sizeof *bases);
    bool changed = false;
    IrInst **out = NULL;
    uint32_t n_out = 0;
    for (uint32_t i = 0; i < b->n_insts; i++) {
        IrInst *in = b->insts[i];
        w->pending.n_insts = 0;
        if (is_memory(in) && rewrite_address(w, in, bases, &n_bases))
            changed = true;
        for (uint32_t p = 0; p < w->pending.n_insts; p++) {
            out = ir_grow(w->m->arena, out, n_out, sizeof *out);
            out[n_out++] = w->pending.insts[p];
        }
        out = ir_grow(w->m->arena, out, n_out, sizeof *out);
        out[n_out++] = in;
        if (ir_op_defines(in->op) && in->result < w->n_regs)
            w->defined[in->result] = true;
    }
    if (changed) {
        b->insts = out;
        b->n_insts = n_out;
    }
    return changed;
}

/* Whether block `b` (index `index`) defines register `reg`. */
static bool defines(const Rewriter *w, uint32_t index, uint32_t reg)
{
    return reg < w->n_regs && w->def[reg] && w->def_block[reg] == index;
}

/* Bases for block `b` from its sibling arm, when b and the sibling are the
 * two arms of a branch (each entered only from it): the sibling's memory
 * addresses whose last step is pure and whose operands come from above. */
static int sibling_bases(const Rewriter *w, const IrCfg *cfg, uint32_t b, Base *out)
{
    if (cfg->n_preds[b] != 1)
        return 0;
    IrBlock *a = w->f->blocks[cfg->preds[b][0]];
    const IrInst *term = a->insts[a->n_insts - 1];
    if (term->op != IR_CBR || term->target[0] == term->target[1])
        return 0;
    IrBlock *sib = term->target[0] == w->f->blocks[b] ? term->target[1] : term->target[0];
    int si = cfg_block_index(w->f, sib);
    uint32_t sib_index = (uint32_t)si;
    if (si < 0 || cfg->n_preds[si] != 1)
        return 0;
    int n = 0;
    for (uint32_t i = 0; i < sib->n_insts && n < MAX_BASES / 2; i++) {
        const IrInst *in = sib->insts[i];
        IrValue addr = in->n_operands ? in->operands[0] : (IrValue){0};
        if (!is_memory(in) || addr.kind != IRV_REG || addr.reg >= w->n_regs || !w->def[addr.reg])
            continue;
        IrInst *d = w->def[addr.reg];
        bool from_above = defines(w, sib_index, addr.reg) && pass_pure(d) && !pass_may_trap(d);
        for (uint32_t k = 0; from_above && k < d->n_operands; k++)
            from_above = d->operands[k].kind != IRV_REG || !defines(w, sib_index, d->operands[k].reg);
        LinForm f = form_of(addr, w->def, 0);
        if (from_above && f.ok && f.n >= 2)
            out[n++] = (Base){f, addr, d, sib, a};
    }
    return n;
}

/* Which registers are available at the top of each block: parameters and
 * what the dominators define.  One table for the whole walk of the
 * dominator tree (an explicit stack: a kernel of 10,000 ifs in a row has
 * a tree as deep): a block sets its definitions on the way in and clears
 * them on the way out.  (A copy of the table per block was quadratic in
 * time and memory, and the recursion overflowed the stack.) */
static void forget_definitions(Rewriter *w, const IrBlock *b)
{
    for (uint32_t i = 0; i < b->n_insts; i++)
        if (ir_op_defines(b->insts[i]->op) && b->insts[i]->result < w->n_regs)
            w->defined[b->insts[i]->result] = false;
}

static bool walk_dominator_tree(Rewriter *w, const IrCfg *cfg, Arena *scratch)
{
    typedef struct Step {
        uint32_t block;
        bool leaving;
    } Step;
    Step *stack = ARENA_ARRAY(scratch, Step, 2 * (size_t)cfg->n + 1);
    uint32_t depth = 0;
    bool changed = false;
    stack[depth++] = (Step){cfg->rpo[0], false};
    while (depth) {
        Step step = stack[--depth];
        if (step.leaving) {
            forget_definitions(w, w->f->blocks[step.block]);
            continue;
        }
        stack[depth++] = (Step){step.block, true};
        Base seeds[MAX_BASES / 2];
        int n_seeds = sibling_bases(w, cfg, step.block, seeds);
        changed |= rewrite_block(w, w->f->blocks[step.block], seeds, n_seeds);
        for (uint32_t c = cfg->n_children[step.block]; c-- > 0;)
            stack[depth++] = (Step){cfg->children[step.block][c], false};
    }
    return changed;
}

static uint32_t *definition_blocks(const IrFunc *f, uint32_t n_regs, Arena *scratch)
{
    uint32_t *block_of = ARENA_ARRAY(scratch, uint32_t, n_regs ? n_regs : 1);
    for (uint32_t b = 0; b < f->n_blocks; b++)
        for (uint32_t i = 0; i < f->blocks[b]->n_insts; i++) {
            const IrInst *in = f->blocks[b]->insts[i];
            if (ir_op_defines(in->op) && in->result < n_regs)
                block_of[in->result] = b;
        }
    return block_of;
}

bool pass_address(IrModule *m, IrFunc *f, Arena *scratch)
{
    IrCfg *cfg = cfg_build(f, scratch);
    uint32_t n_regs = f->n_regs; /* registers made here are never atoms */
    Rewriter w = {.m = m, .f = f, .def = pass_definitions(f, scratch), .n_regs = n_regs,
                  .def_block = definition_blocks(f, n_regs, scratch),
                  .defined = ARENA_ARRAY(scratch, bool, n_regs ? n_regs : 1)};
    for (uint32_t p = 0; p < f->n_params; p++)
        w.defined[f->params[p].reg] = true;
    return cfg->n_reachable && walk_dominator_tree(&w, cfg, scratch);
}
