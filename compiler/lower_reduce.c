/*
 * lower_reduce.c: `sum`, `max` and `min` of a tile or a whole tensor
 * (language.md 5.5), which give the scalar to every thread.
 *
 * Each thread first combines its own elements (lower_tile_fold: the
 * elements tid, tid + threads, ... or its register slots).  Then, when the
 * thread count is a fixed multiple of 32 and the value 32 bits wide, a
 * warp butterfly (shfl.bfly 16, 8, 4, 2, 1) leaves the warp's value in
 * every lane; every lane writes it to the warp's slot of a shared scratch
 * array (the same value, so which write lands does not matter).
 * Otherwise every thread writes its own partial to a slot of its own (up
 * to 1024).  The function's reductions of one type share one scratch.  After a bar.sync every thread combines the slots in the same
 * order, so all get the identical result, even for floats; a second
 * bar.sync lets the scratch be written again (a reduction in a loop).
 */
#include "lower_internal.h"

#include <math.h>
#include <string.h>

typedef struct Reduction {
    const char *which; /* "sum", "min", "max" */
    const Type *type;
} Reduction;

static IrValue combine(Lower *l, const Reduction *r, IrValue a, IrValue b)
{
    bool fl = type_is_float(r->type), sg = type_is_signed(r->type);
    IrOp op = IR_ADD;
    if (strcmp(r->which, "min") == 0)
        op = fl ? IR_FMIN : sg ? IR_SMIN : IR_UMIN;
    else if (strcmp(r->which, "max") == 0)
        op = fl ? IR_FMAX : sg ? IR_SMAX : IR_UMAX;
    return lower_op2(l, op, a.type, a, b);
}

/* The value that changes nothing: 0 (for floats -0.0: -0.0 + -0.0 is
 * -0.0, +0.0 + -0.0 is not), or the far end of the type's range. */
static IrValue identity(const Reduction *r)
{
    IrType t = lower_type(r->type);
    bool is_min = strcmp(r->which, "min") == 0;
    if (strcmp(r->which, "sum") == 0)
        return type_is_float(r->type) ? ir_float(t, -0.0) : lower_zero(r->type);
    if (type_is_float(r->type))
        return ir_float(t, is_min ? INFINITY : -INFINITY);
    int bits = ir_type_bits(t);
    uint64_t top = 1ull << (bits - 1);
    if (type_is_signed(r->type))
        return ir_int(t, is_min ? (int64_t)(top - 1) : -(int64_t)(top - 1) - 1); /* i64 too */
    return ir_int(t, is_min ? -1 : 0);
}

static IrValue fold_element(Lower *l, void *data, IrValue v, const LowerTileIndex *ix, IrValue acc)
{
    (void)ix;
    return combine(l, data, acc, v);
}

/* The warp's value in every lane. */
static IrValue butterfly(Lower *l, const Reduction *r, IrValue v)
{
    for (int offset = 16; offset > 0; offset /= 2) {
        IrInst *sh = lower_emit(l, IR_SHFL, v.type, 2);
        sh->operands[0] = v;
        sh->operands[1] = ir_int(IRT_I32, offset);
        sh->shfl = IRSH_BFLY;
        v = combine(l, r, v, ir_reg(sh));
    }
    return v;
}

/* The function's scratch array of type `t`, at least `slots` long: one a
 * type, shared by its reductions (each ends with a bar.sync, so the next
 * one may write it). */
static IrValue scratch(Lower *l, IrType t, uint64_t slots)
{
    uint32_t i = l->reduce_scratch[t];
    if (!i) {
        IrValue base = lower_shared_alloc(l, "reduce", t, slots);
        l->reduce_scratch[t] = l->m->n_shared;
        return base;
    }
    IrShared *s = &l->m->shared[i - 1];
    if (s->count < slots)
        s->count = slots;
    IrInst *a = lower_emit(l, IR_ADDR, IRT_I64, 0);
    a->space = IRS_SHARED;
    a->symbol = s->name;
    return ir_reg(a);
}

static IrValue slot_address(Lower *l, IrValue base, IrValue slot, IrType t)
{
    return lower_op2(l, IR_ADD, IRT_I64, base, lower_scale(l, slot, ir_natural_align(t)));
}

IrValue lower_reduce(Lower *l, Node *call, const char *which)
{
    Node *arg = call->list.items[0];
    Reduction r = {.which = which, .type = call->type};
    IrType t = lower_type(r.type);
    if (t == IRT_VOID || t == IRT_I1 || !lower_is_tile_like(arg->type)) {
        lower_unsupported(l, call->span, "this reduction");
        return lower_zero(call->type);
    }
    IrValue v = lower_tile_fold(l, arg, fold_element, &r, identity(&r));
    if (!l->cur)
        return lower_zero(call->type);
    int threads = l->info->reqntid;
    bool warps = threads > 0 && threads % 32 == 0 && ir_type_bits(t) == 32;
    uint64_t slots = warps ? (uint64_t)threads / 32 : threads ? (uint64_t)threads : 1024;
    if (warps)
        v = butterfly(l, &r, v);
    IrValue base = scratch(l, t, slots);
    IrValue tid = lower_op1(l, IR_ZEXT, IRT_I64, lower_sreg(l, IRR_TID_X));
    IrValue mine = warps ? lower_op2(l, IR_LSHR, IRT_I64, tid, ir_int(IRT_I64, 5)) : tid;
    lower_store(l, slot_address(l, base, mine, t), v, IRS_SHARED);
    lower_emit(l, IR_BARRIER, IRT_VOID, 0);
    IrValue n = threads ? ir_int(IRT_I64, (int64_t)slots) : lower_op1(l, IR_ZEXT, IRT_I64, lower_threads(l));
    LowerCount c;
    IrValue i = lower_count_open(l, &c, ir_int(IRT_I64, 0), n, identity(&r));
    IrValue part = lower_load(l, t, slot_address(l, base, i, t), IRS_SHARED);
    IrValue total = lower_count_close(l, &c, ir_int(IRT_I64, 1), combine(l, &r, ir_reg(c.carried), part));
    lower_emit(l, IR_BARRIER, IRT_VOID, 0);
    return total;
}
