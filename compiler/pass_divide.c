/*
 * pass_divide.c: 64-bit unsigned division through 32 bits when the
 * operands fit, with the remainder from the same division.
 *
 * PTX's div.u64 and rem.u64 are long subroutines in SASS and hold many
 * registers; an index divided by a run-time extent (ctx.cta / blocks_x)
 * almost always fits in 32 bits.  As nvcc does (LLVM's division bypass and
 * DivRemPairs), a block with such a division is split at it:
 *
 *   c = and (cmp eq (lshr x, 32), 0),       (the first test left out when x
 *           (cmp ult (sub y, 1), 2^32 - 1)   is a zext of 32 bits: its high
 *   cbr c, @fast, @slow                      half is 0)
 *   @fast: q32 = udiv (trunc x), (trunc y); r32 = (trunc x) - q32 * (trunc y)
 *   @slow: q = udiv x, y; r = x - q * y
 *   @join: q = phi ...; r = phi ...        (zext of q32 and r32 from @fast)
 *
 * and the udiv and urem of the same operands in the rest of the block take
 * their values from the join.  A zero divisor goes the slow way: div.u64
 * by zero gives all ones, and the widened div.u32's 2^32 - 1 would make
 * the passes change what -O0 computes.  Signed division is left as it is.
 *
 * A block is walked once, its instructions going to the block, then to
 * the join of each split in turn, and the blocks made are placed once at
 * the end, each right after the block it came from; the divisions already
 * split are found by a hash of their operands.  Copying the rest of the
 * block at each split, and moving the block array to make room, made a
 * block of n divisions cost n times n (5,000: 8 s and 1.9 GB).
 */
#include "pass_internal.h"

#include <string.h>

/* A division split: its operands, the quotient and remainder at the
 * join, and the next split in the chain of its hash bucket. */
typedef struct Split {
    IrValue x, y, q, r;
    uint32_t next;
} Split;

enum { NO_SPLIT = UINT32_MAX };

typedef struct Divider {
    IrModule *m;
    IrFunc *f;
    IrInst *const *def;
    uint32_t n_regs; /* registers before the pass */
    IrSubst subst;
    Split *splits;   /* the block's so far */
    uint32_t n_splits;
    uint32_t *heads; /* by bucket: its latest split, or NO_SPLIT */
    uint32_t mask;   /* buckets - 1 (a power of two) */
} Divider;

static bool is_wide_division(const IrInst *in)
{
    return (in->op == IR_UDIV || in->op == IR_UREM) && in->type == IRT_I64 &&
           in->operands[1].kind == IRV_REG;
}

/* Whether `v` is known to fit in 32 bits: a zext of a 32-bit value. */
/* The instruction defining `v`, if it is a register defined before the pass. */
static const IrInst *definition(const Divider *d, IrValue v)
{
    return v.kind == IRV_REG && v.reg < d->n_regs ? d->def[v.reg] : NULL;
}

static bool fits_32(const Divider *d, IrValue v)
{
    const IrInst *in = definition(d, v);
    return (v.kind == IRV_INT && v.bits >> 32 == 0) ||
           (in && in->op == IR_ZEXT && ir_type_bits(in->operands[0].type) <= 32);
}

static IrValue op2(Divider *d, IrBlock *b, IrOp op, IrType t, IrValue x, IrValue y)
{
    IrInst *in = ir_append(d->m, d->f, b, op, t, 2);
    in->operands[0] = x, in->operands[1] = y;
    return ir_reg(in);
}

static IrValue op1(Divider *d, IrBlock *b, IrOp op, IrType t, IrValue x)
{
    IrInst *in = ir_append(d->m, d->f, b, op, t, 1);
    in->operands[0] = x;
    return ir_reg(in);
}

/* x / y and x % y in `b`, in type t; then a jump to `join`. */
static void divide_in(Divider *d, IrBlock *b, IrType t, IrValue x, IrValue y, IrBlock *join,
                      IrValue *q, IrValue *r)
{
    *q = op2(d, b, IR_UDIV, t, x, y);
    *r = op2(d, b, IR_SUB, t, x, op2(d, b, IR_MUL, t, *q, y));
    ir_append(d->m, d->f, b, IR_BR, IRT_VOID, 0)->target[0] = join;
}

static IrValue compare(Divider *d, IrBlock *b, IrCmp cmp, IrValue x, IrValue y)
{
    IrInst *in = ir_append(d->m, d->f, b, IR_CMP, IRT_I1, 2);
    in->cmp = cmp;
    in->operands[0] = x, in->operands[1] = y;
    return ir_reg(in);
}

/* The test at the end of `b`: cbr x < 2^32 and 0 < y < 2^32, fast, slow.
 * A zero divisor takes the slow path, since the 64-bit division's
 * quotient by zero (all ones) is not the 32-bit one's widened. */
static void branch_on_width(Divider *d, IrBlock *b, IrValue x, IrValue y, IrBlock *fast,
                            IrBlock *slow)
{
    IrValue test;
    IrValue y_less_1 = op2(d, b, IR_SUB, IRT_I64, y, ir_int(IRT_I64, 1));
    /* 0 < y < 2^32 is y - 1 < 2^32 - 1, unsigned, in one comparison */
    IrValue y_fits = compare(d, b, IRC_ULT, y_less_1, ir_int(IRT_I64, UINT32_MAX));
    if (fits_32(d, x)) {
        test = y_fits;
    } else {
        IrValue high = op2(d, b, IR_LSHR, IRT_I64, x, ir_int(IRT_I64, 32));
        test = op2(d, b, IR_AND, IRT_I1, compare(d, b, IRC_EQ, high, ir_int(IRT_I64, 0)), y_fits);
    }
    IrInst *cbr = ir_append(d->m, d->f, b, IR_CBR, IRT_VOID, 1);
    cbr->operands[0] = test;
    cbr->target[0] = fast, cbr->target[1] = slow;
}

static IrValue join_phi(Divider *d, IrBlock *join, IrValue from_fast, IrBlock *fast,
                        IrValue from_slow, IrBlock *slow)
{
    IrInst *phi = ir_append(d->m, d->f, join, IR_PHI, IRT_I64, 2);
    phi->operands[0] = from_fast, phi->incoming[0] = fast;
    phi->operands[1] = from_slow, phi->incoming[1] = slow;
    return ir_reg(phi);
}

/* A hash of a division's operands (the divisor is a register). */
static uint32_t operands_hash(IrValue x, IrValue y)
{
    uint64_t a = x.kind == IRV_REG ? x.reg : x.bits * 31 + x.type;
    uint64_t h = (a * 0x9e3779b97f4a7c15u + x.kind) ^ ((uint64_t)y.reg * 0xc2b2ae3d27d4eb4fu);
    return (uint32_t)(h >> 32 ^ h);
}

/* The split of a division by the same operands made earlier in the block, or NULL. */
static Split *find_split(const Divider *d, IrValue x, IrValue y)
{
    for (uint32_t i = d->heads[operands_hash(x, y) & d->mask]; i != NO_SPLIT; i = d->splits[i].next)
        if (pass_same_value(d->splits[i].x, x) && pass_same_value(d->splits[i].y, y))
            return &d->splits[i];
    return NULL;
}

/* Ends block `b` with the test of x / y and makes the fast and slow paths
 * and their join, where the walk goes on; returns the split. */
static Split *split(Divider *d, IrBlock *b, IrValue x, IrValue y, IrBlock **join_out)
{
    IrBlock *fast = ir_new_block(d->m, d->f), *slow = ir_new_block(d->m, d->f);
    IrBlock *join = ir_new_block(d->m, d->f);
    branch_on_width(d, b, x, y, fast, slow);
    IrValue q32, r32, q64, r64;
    divide_in(d, fast, IRT_I32, op1(d, fast, IR_TRUNC, IRT_I32, x),
              op1(d, fast, IR_TRUNC, IRT_I32, y), join, &q32, &r32);
    fast->n_insts--; /* the widening goes before the jump */
    IrValue qf = op1(d, fast, IR_ZEXT, IRT_I64, q32), rf = op1(d, fast, IR_ZEXT, IRT_I64, r32);
    ir_append(d->m, d->f, fast, IR_BR, IRT_VOID, 0)->target[0] = join;
    divide_in(d, slow, IRT_I64, x, y, join, &q64, &r64);
    Split *s = &d->splits[d->n_splits];
    uint32_t bucket = operands_hash(x, y) & d->mask;
    *s = (Split){.x = x, .y = y, .next = d->heads[bucket]};
    s->q = join_phi(d, join, qf, fast, q64, slow);
    s->r = join_phi(d, join, rf, fast, r64, slow);
    d->heads[bucket] = d->n_splits++;
    *join_out = join;
    return s;
}

static bool splits_here(const Divider *d, const IrInst *in)
{
    return is_wide_division(in) && in->result < d->n_regs;
}

static void append(Divider *d, IrBlock *b, IrInst *in)
{
    b->insts = ir_grow(d->m->arena, b->insts, b->n_insts, sizeof *b->insts);
    b->insts[b->n_insts++] = in;
}

/* Tables for the splits of a block of `n` instructions. */
static void reset_splits(Divider *d, uint32_t n, Arena *scratch)
{
    uint32_t buckets = 16;
    while (buckets < 2 * (uint64_t)n) /* at most half full */
        buckets *= 2;
    d->splits = ARENA_ARRAY(scratch, Split, n);
    d->n_splits = 0;
    d->heads = ARENA_ARRAY(scratch, uint32_t, buckets);
    memset(d->heads, 0xff, buckets * sizeof *d->heads); /* NO_SPLIT */
    d->mask = buckets - 1;
}

/* Splits block b at each wide division whose operands no division before
 * it had; those that had take the first one's values.  The instructions
 * after a split go to its join.  True when it split. */
static bool split_block(Divider *d, IrBlock *b, Arena *scratch)
{
    uint32_t n = b->n_insts, first = 0;
    while (first < n && !splits_here(d, b->insts[first]))
        first++;
    if (first == n)
        return false;
    reset_splits(d, n - first, scratch);
    IrInst **rest = ARENA_ARRAY(scratch, IrInst *, n - first);
    memcpy(rest, b->insts + first, (n - first) * sizeof *rest);
    b->n_insts = first; /* the test is appended in the room of the rest */
    IrBlock *cur = b;
    for (uint32_t i = 0; i < n - first; i++) {
        IrInst *in = rest[i];
        if (!splits_here(d, in)) {
            append(d, cur, in);
            continue;
        }
        IrValue x = in->operands[0], y = in->operands[1];
        Split *s = find_split(d, x, y);
        if (!s)
            s = split(d, cur, x, y, &cur);
        pass_subst_set(&d->subst, in->result, in->op == IR_UDIV ? s->q : s->r);
    }
    pass_retarget_phis(cur, b);
    return true;
}

/* The blocks made for block i (f->blocks[made[i]..made[i + 1])) right after it. */
static void place_made_blocks(IrFunc *f, uint32_t n_old, const uint32_t *made, Arena *scratch)
{
    IrBlock **order = ARENA_ARRAY(scratch, IrBlock *, f->n_blocks);
    uint32_t n = 0;
    for (uint32_t i = 0; i < n_old; i++) {
        order[n++] = f->blocks[i];
        for (uint32_t k = made[i]; k < made[i + 1]; k++)
            order[n++] = f->blocks[k];
    }
    memcpy(f->blocks, order, n * sizeof *order);
}

/* Whether `v` is the divisor's test of a split, `cmp ult (sub y, 1), 2^32 - 1`. */
static bool is_divisor_test(const Divider *d, IrValue v)
{
    const IrInst *cmp = definition(d, v);
    if (!cmp || cmp->op != IR_CMP || cmp->cmp != IRC_ULT || cmp->operands[1].kind != IRV_INT ||
        cmp->operands[1].bits != UINT32_MAX)
        return false;
    const IrInst *less = definition(d, cmp->operands[0]);
    return less && less->op == IR_SUB && less->operands[1].kind == IRV_INT && less->operands[1].bits == 1;
}

/* Whether block `p` ends in the test of a split already made (the
 * divisor's test, alone or and-ed after the dividend's), whose else
 * target is the slow path (so a second run of the pipeline finds nothing
 * to do there). */
static bool tests_width(const Divider *d, const IrBlock *p)
{
    const IrInst *t = p->n_insts ? p->insts[p->n_insts - 1] : NULL;
    if (!t || t->op != IR_CBR)
        return false;
    const IrInst *both = definition(d, t->operands[0]);
    if (both && both->op == IR_AND && both->type == IRT_I1)
        return is_divisor_test(d, both->operands[1]);
    return is_divisor_test(d, t->operands[0]);
}

/* By block id: whether the block is the slow path of a split already
 * made.  Found once, not by a scan of every block for each block (which
 * made the pass quadratic).  The blocks this run adds have ids past the
 * table; their divisions are new registers, which are never split. */
static bool *find_slow_paths(const Divider *d, Arena *scratch)
{
    uint32_t n = d->f->n_blocks;
    bool *slow = ARENA_ARRAY(scratch, bool, n ? n : 1);
    for (uint32_t i = 0; i < n; i++) {
        const IrBlock *p = d->f->blocks[i];
        const IrBlock *target = tests_width(d, p) ? p->insts[p->n_insts - 1]->target[1] : NULL;
        if (target && target->id < n && d->f->blocks[target->id] == target)
            slow[target->id] = true;
    }
    return slow;
}

bool pass_divide(IrModule *m, IrFunc *f, Arena *scratch)
{
    Divider d = {.m = m, .f = f, .def = pass_definitions(f, scratch), .n_regs = f->n_regs,
                 .subst = pass_subst_new(f, scratch)};
    bool changed = false;
    uint32_t n_old = f->n_blocks;
    const bool *slow = find_slow_paths(&d, scratch);
    uint32_t *made = ARENA_ARRAY(scratch, uint32_t, n_old + 1);
    for (uint32_t bi = 0; bi < n_old; bi++) {
        made[bi] = f->n_blocks;
        IrBlock *b = f->blocks[bi];
        if (b->id >= n_old || !slow[b->id])
            changed |= split_block(&d, b, scratch);
    }
    made[n_old] = f->n_blocks;
    if (changed) {
        place_made_blocks(f, n_old, made, scratch);
        pass_subst_func(&d.subst, f);
    }
    return changed;
}
