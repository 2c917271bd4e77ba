/*
 * lower_expr.c: expressions as IR — constants, locals, arithmetic,
 * comparisons, && and || (short-circuit: the right side may load what the
 * left side guards), conversions, ctx's fields, tensor and shared-array
 * elements (row-major address arithmetic), and the device built-ins.
 * Calls to device functions are inlined by lower_call.c; sum, and min and
 * max of one tile, are lower_reduce.c's.
 *
 * The checker has typed every node, so the IR opcode follows from the
 * Silk type: signedness picks sdiv/udiv, ashr/lshr, slt/ult, sext/zext.
 * What cannot be lowered yet is reported and stands in as a zero of its
 * type, so one run reports every such construct.
 */
#include "lower_internal.h"

#include <string.h>

IrValue lower_zero(const Type *t)
{
    IrType it = lower_type(t);
    if (it == IRT_VOID)
        it = IRT_I32;
    return it >= IRT_F16 ? ir_float(it, 0) : ir_int(it, 0);
}

static IrValue unsupported(Lower *l, Node *e, const char *what)
{
    lower_unsupported(l, e->span, what);
    return lower_zero(e->type);
}

/* ---- conversions ------------------------------------------------------------------ */

IrValue lower_convert(Lower *l, IrValue v, const Type *from, const Type *to)
{
    IrType ft = lower_type(from), tt = lower_type(to);
    bool ffl = type_is_float(from), tfl = type_is_float(to);
    if (tt == IRT_I1) /* to bool: nonzero */
        return lower_cmp(l, ffl ? IRC_FNE : IRC_NE, v, ffl ? ir_float(ft, 0) : ir_int(ft, 0));
    if (ft == IRT_I1) { /* from bool: 0 or 1 */
        IrValue i = lower_op1(l, IR_ZEXT, tfl ? IRT_I32 : tt, v);
        return tfl ? lower_op1(l, IR_UITOFP, tt, i) : i;
    }
    if (ffl && tfl)
        return ft == tt ? v : lower_op1(l, ir_type_bits(tt) > ir_type_bits(ft) ? IR_FPEXT : IR_FPTRUNC, tt, v);
    if (ffl)
        return lower_op1(l, type_is_signed(to) ? IR_FPTOSI : IR_FPTOUI, tt, v);
    if (tfl)
        return lower_op1(l, type_is_signed(from) ? IR_SITOFP : IR_UITOFP, tt, v);
    if (ft == tt) /* i32 <-> u32: the same bits */
        return v;
    if (ir_type_bits(tt) < ir_type_bits(ft))
        return lower_op1(l, IR_TRUNC, tt, v);
    return lower_op1(l, type_is_signed(from) ? IR_SEXT : IR_ZEXT, tt, v);
}

IrValue lower_to_i64(Lower *l, IrValue v, const Type *t)
{
    return lower_convert(l, v, t, type_scalar(type_is_signed(t) ? TY_I64 : TY_U64));
}

/* ---- constants and names --------------------------------------------------------- */

static IrValue constant(Node *e)
{
    IrType t = lower_type(e->type);
    if (e->kind == ND_FLOAT)
        return ir_float(t, e->float_value);
    if (t >= IRT_F16) /* an integer literal typed as a float */
        return ir_float(t, (double)e->int_value);
    return ir_int(t, (int64_t)e->int_value);
}

static IrValue name(Lower *l, Node *e)
{
    IrValue *v = e->symbol ? lower_var(l, e->symbol) : NULL;
    if (!v)
        return unsupported(l, e, "this name (a function, or a whole array used as a value)");
    if (lower_is_tile_like(e->symbol->type) && e->symbol->type->kind != TY_TENSOR)
        return unsupported(l, e, "a whole tile or shared array as a scalar value");
    lower_check_assigned(l, e);
    return *v;
}

/* ---- ctx ------------------------------------------------------------------------------ */

IrValue lower_sreg(Lower *l, IrSreg r)
{
    IrInst *in = lower_emit(l, IR_SREG, IRT_I32, 0);
    in->sreg = r;
    return ir_reg(in);
}

static IrValue zext64(Lower *l, IrValue v)
{
    return v.kind == IRV_INT ? ir_int(IRT_I64, (int64_t)v.bits) : lower_op1(l, IR_ZEXT, IRT_I64, v);
}

/* ctx.threads: a constant when the CTA size is fixed, else ntid.x. */
IrValue lower_threads(Lower *l)
{
    int n = l->info->reqntid;
    return n ? ir_int(IRT_I32, n) : lower_sreg(l, IRR_NTID_X);
}

static IrValue ctx_field(Lower *l, Node *e)
{
    const char *f = e->name;
    if (strcmp(f, "tid") == 0)
        return lower_sreg(l, IRR_TID_X);
    if (strcmp(f, "lane") == 0)
        return lower_sreg(l, IRR_LANEID);
    /* warpid is the hardware's warp slot, not tid / 32. */
    if (strcmp(f, "warp") == 0)
        return lower_op2(l, IR_LSHR, IRT_I32, lower_sreg(l, IRR_TID_X), ir_int(IRT_I32, 5));
    if (strcmp(f, "threads") == 0)
        return lower_threads(l);
    if (strcmp(f, "lanes") == 0)
        return ir_int(IRT_I32, 32);
    if (strcmp(f, "warps") == 0)
        return l->info->reqntid ? ir_int(IRT_I32, l->info->reqntid / 32)
                                : lower_op2(l, IR_LSHR, IRT_I32, lower_threads(l), ir_int(IRT_I32, 5));
    if (strcmp(f, "sms") == 0) { /* at ctx.sms itself: a target without it (AMD) says where */
        IrInst *in = lower_emit(l, IR_SREG, IRT_I32, 0);
        in->sreg = IRR_NSMID;
        in->span = e->span;
        return ir_reg(in);
    }
    /* In a @persistent function the logical ones (lower.c). */
    if (strcmp(f, "cta") == 0)
        return l->cta.kind != IRV_NONE ? l->cta : zext64(l, lower_sreg(l, IRR_CTAID_X));
    if (strcmp(f, "ctas") == 0)
        return l->ctas.kind != IRV_NONE ? l->ctas : zext64(l, lower_sreg(l, IRR_NCTAID_X));
    /* Each emitting call in its own statement: C leaves the order of a
     * call's arguments open, and the IR's order must be deterministic. */
    if (strcmp(f, "gid") == 0) {
        IrValue cta = l->cta.kind != IRV_NONE ? l->cta : zext64(l, lower_sreg(l, IRR_CTAID_X));
        IrValue n = zext64(l, lower_threads(l));
        IrValue base = lower_op2(l, IR_MUL, IRT_I64, cta, n);
        IrValue tid = zext64(l, lower_sreg(l, IRR_TID_X));
        return lower_op2(l, IR_ADD, IRT_I64, base, tid);
    }
    if (strcmp(f, "size") == 0) {
        IrValue ctas = l->ctas.kind != IRV_NONE ? l->ctas : zext64(l, lower_sreg(l, IRR_NCTAID_X));
        IrValue n = zext64(l, lower_threads(l));
        return lower_op2(l, IR_MUL, IRT_I64, ctas, n);
    }
    return unsupported(l, e, "this field of ctx");
}

static IrValue field(Lower *l, Node *e)
{
    if (e->a->type && e->a->type->kind == TY_CTX)
        return ctx_field(l, e);
    return unsupported(l, e, "fields of values other than ctx");
}

/* ---- operators ------------------------------------------------------------------------- */

static IrValue unary(Lower *l, Node *e)
{
    IrValue a = lower_expr(l, e->a);
    switch (e->op) {
    case TK_PLUS: return a;
    case TK_MINUS: return lower_op1(l, IR_NEG, a.type, a);
    case TK_BANG: return lower_op2(l, IR_XOR, IRT_I1, a, ir_int(IRT_I1, 1));
    case TK_TILDE: return lower_op1(l, IR_NOT, a.type, a);
    default: return unsupported(l, e, "this unary operator");
    }
}

bool lower_is_comparison(TokenKind op)
{
    return op == TK_EQ || op == TK_NE || op == TK_LT || op == TK_LE || op == TK_GT || op == TK_GE;
}

IrCmp lower_cmp_op(TokenKind op, const Type *t)
{
    bool fl = type_is_float(t), sg = type_is_signed(t);
    switch (op) {
    case TK_EQ: return fl ? IRC_FEQ : IRC_EQ;
    case TK_NE: return fl ? IRC_FNE : IRC_NE;
    case TK_LT: return fl ? IRC_FLT : sg ? IRC_SLT : IRC_ULT;
    case TK_LE: return fl ? IRC_FLE : sg ? IRC_SLE : IRC_ULE;
    case TK_GT: return fl ? IRC_FGT : sg ? IRC_SGT : IRC_UGT;
    default: return fl ? IRC_FGE : sg ? IRC_SGE : IRC_UGE;
    }
}

IrOp lower_arith_op(TokenKind op, const Type *t)
{
    bool fl = type_is_float(t), sg = type_is_signed(t);
    switch (op) {
    case TK_PLUS: return IR_ADD;
    case TK_MINUS: return IR_SUB;
    case TK_STAR: return IR_MUL;
    case TK_SLASH: return fl ? IR_FDIV : sg ? IR_SDIV : IR_UDIV;
    case TK_PERCENT: return sg ? IR_SREM : IR_UREM;
    case TK_AMP: return IR_AND;
    case TK_PIPE: return IR_OR;
    case TK_CARET: return IR_XOR;
    case TK_SHL: return IR_SHL;
    case TK_SHR: return sg ? IR_ASHR : IR_LSHR;
    default: return IR_OP_COUNT;
    }
}

/* a && b, a || b, `a` already lowered: b is evaluated only when it decides. */
static IrValue logical(Lower *l, Node *e, IrValue a)
{
    bool is_and = e->op == TK_ANDAND;
    IrBlock *from = l->cur;
    IrBlock *rhs = ir_new_block(l->m, l->f), *join = ir_new_block(l->m, l->f);
    IrInst *cbr = lower_emit(l, IR_CBR, IRT_VOID, 1);
    cbr->operands[0] = a;
    cbr->target[0] = is_and ? rhs : join;
    cbr->target[1] = is_and ? join : rhs;
    l->cur = rhs;
    IrValue b = lower_expr(l, e->b);
    IrBlock *rhs_end = l->cur;
    IrInst *br = lower_emit(l, IR_BR, IRT_VOID, 0);
    br->target[0] = join;
    l->cur = join;
    IrInst *phi = lower_emit(l, IR_PHI, IRT_I1, 2);
    phi->operands[0] = ir_int(IRT_I1, is_and ? 0 : 1);
    phi->incoming[0] = from;
    phi->operands[1] = b;
    phi->incoming[1] = rhs_end;
    return ir_reg(phi);
}

static bool is_logical(const Node *e) { return e->op == TK_ANDAND || e->op == TK_OROR; }

static bool is_folded_integer(const Node *e)
{
    return e->folded == 1 && e->type && type_is_integer(e->type);
}

/* Whether binary operator `e` is lowered from its operands' values (and
 * so is a step of a chain): not a folded constant, not a tile value. */
static bool lowers_operands(const Node *e)
{
    if (e->kind != ND_BINARY || is_folded_integer(e))
        return false;
    return is_logical(e) || !(lower_is_tile_like(e->a->type) || lower_is_tile_like(e->b->type) ||
                              lower_type(e->type) == IRT_VOID);
}

/* Arithmetic or a comparison, `a` already lowered. */
static IrValue arithmetic(Lower *l, Node *e, IrValue a)
{
    const Type *t = e->a->type;
    IrValue b = lower_expr(l, e->b);
    IrOp op = lower_arith_op(e->op, t);
    if (e->op == TK_SHL || e->op == TK_SHR) /* the count may be any integer type */
        b = lower_convert(l, b, e->b->type, t);
    if (op != IR_OP_COUNT)
        return lower_op2(l, op, a.type, a, b);
    if (lower_is_comparison(e->op))
        return lower_cmp(l, lower_cmp_op(e->op, t), a, b);
    return unsupported(l, e, "this binary operator");
}

/* A chain of binary operators leans left and is as deep as the source is
 * long: its left spine is gathered in a list and lowered bottom up, not
 * by recursion (which overflowed the stack at 32,000 terms).  Only the
 * right sides recurse, as deep as the parser's nesting limit allows. */
static IrValue binary(Lower *l, Node *top)
{
    if (!lowers_operands(top))
        return unsupported(l, top, "a tile value outside a tile statement");
    Node **spine = NULL;
    uint32_t n = 0;
    Node *e = top;
    for (; lowers_operands(e); e = e->a) {
        if ((n & (n - 1)) == 0) /* 0, 1, 2, 4...: full, double it */
            spine = arena_grow(l->m->arena, spine, n, n ? 2 * (size_t)n : 1, sizeof *spine);
        spine[n++] = e;
    }
    IrValue v = lower_expr(l, e);
    while (n-- > 0)
        v = is_logical(spine[n]) ? logical(l, spine[n], v) : arithmetic(l, spine[n], v);
    return v;
}

/* ---- memory ------------------------------------------------------------------------------ */

IrValue lower_extent(Lower *l, const Type *t, int d)
{
    if (t->dims[d] >= 0)
        return ir_int(IRT_I64, t->dims[d]);
    Node *x = t->extents[d];
    IrValue *v = x && x->symbol ? lower_var(l, x->symbol) : NULL;
    if (!v)
        return ir_int(IRT_I64, 1); /* unreachable for a checked tensor type */
    return lower_to_i64(l, *v, x->symbol->type);
}

/* element size * index, as a shift when the size is a power of two */
IrValue lower_scale(Lower *l, IrValue index, uint32_t size)
{
    int shift = 0;
    while ((1u << shift) < size)
        shift++;
    if ((1u << shift) == size)
        return shift ? lower_op2(l, IR_SHL, IRT_I64, index, ir_int(IRT_I64, shift)) : index;
    return lower_op2(l, IR_MUL, IRT_I64, index, ir_int(IRT_I64, size));
}

/* Index `i` of dimension d of `array`, written at `x`, against its extent. */
static void check_index(Lower *l, const Node *x, const char *array, int d, IrValue i,
                        IrValue extent)
{
    Span statement = l->span;
    l->span = x->span;
    IrInst *in = lower_emit(l, IR_CHECK, IRT_VOID, 2);
    l->span = statement;
    in->operands[0] = i;
    in->operands[1] = extent;
    in->symbol = array;
    in->dim = (uint32_t)d;
}

bool lower_address(Lower *l, Node *e, IrValue *addr, IrSpace *space)
{
    Node *base = e->a;
    const Type *t = base->type;
    bool shared_tile = t && t->kind == TY_TILE && base->kind == ND_NAME && base->symbol &&
                       !lower_tile_in_registers(l, base->symbol);
    if (!t || (t->kind != TY_TENSOR && t->kind != TY_ARRAY && !shared_tile) || base->kind != ND_NAME) {
        lower_unsupported(l, e->span, "indexing anything but a tensor or shared array by name");
        return false;
    }
    if ((int)e->list.count != t->rank || lower_type(t->elem) == IRT_I1) {
        lower_unsupported(l, e->span, "this element access (views, or bool elements)");
        return false;
    }
    for (uint32_t i = 0; i < e->list.count; i++)
        if (e->list.items[i]->kind == ND_SLICE) {
            lower_unsupported(l, e->span, "views (start +: width)");
            return false;
        }
    IrValue *b = lower_var(l, base->symbol);
    IrValue index = {0};
    for (int d = 0; d < t->rank; d++) {
        Node *x = e->list.items[d];
        IrValue i = lower_to_i64(l, lower_expr(l, x), x->type);
        if (l->c->options.bounds_checks)
            check_index(l, x, base->name, d, i, lower_extent(l, t, d));
        index = d == 0 ? i
                       : lower_op2(l, IR_ADD, IRT_I64, lower_op2(l, IR_MUL, IRT_I64, index, lower_extent(l, t, d)), i);
    }
    IrValue off = lower_scale(l, index, ir_natural_align(lower_type(t->elem)));
    *addr = lower_op2(l, IR_ADD, IRT_I64, *b, off);
    *space = t->kind == TY_TENSOR ? IRS_GLOBAL : IRS_SHARED;
    return true;
}

IrValue lower_load(Lower *l, IrType type, IrValue addr, IrSpace space)
{
    IrInst *in = lower_emit(l, IR_LOAD, type, 1);
    in->operands[0] = addr;
    in->space = space;
    return ir_reg(in);
}

void lower_store(Lower *l, IrValue addr, IrValue v, IrSpace space)
{
    IrInst *st = lower_emit(l, IR_STORE, IRT_VOID, 2);
    st->operands[0] = addr;
    st->operands[1] = v;
    st->space = space;
}

static IrValue element(Lower *l, Node *e)
{
    IrValue addr;
    IrSpace space;
    if (!lower_address(l, e, &addr, &space))
        return lower_zero(e->type);
    return lower_load(l, lower_type(e->type), addr, space);
}

/* A name for the array unique in the module: kernel_name. */
IrValue lower_shared_alloc(Lower *l, const char *base, IrType elem, uint64_t count)
{
    size_t len = strlen(l->f->name) + strlen(base) + 16;
    char *nm = arena_alloc(l->m->arena, len, 1);
    snprintf(nm, len, "%s_%s", l->f->name, base);
    for (uint32_t i = 0, k = 1; i < l->m->n_shared; i++)
        if (strcmp(l->m->shared[i].name, nm) == 0) {
            snprintf(nm, len, "%s_%s_%u", l->f->name, base, (unsigned)k++);
            i = (uint32_t)-1;
        }
    ir_add_shared(l->m, nm, elem, count);
    IrInst *a = lower_emit(l, IR_ADDR, IRT_I64, 0);
    a->space = IRS_SHARED;
    a->symbol = nm;
    return ir_reg(a);
}

void lower_shared_decl(Lower *l, Node *s)
{
    const Type *t = s->symbol->type;
    uint64_t count = 1;
    for (int d = 0; d < t->rank; d++)
        count *= (uint64_t)(t->dims[d] > 0 ? t->dims[d] : 1);
    IrType elem = lower_type(t->elem);
    if (elem == IRT_VOID || elem == IRT_I1) {
        lower_unsupported(l, s->span, "shared arrays of this element type");
        elem = IRT_I32;
    }
    lower_define(l, s->symbol, lower_shared_alloc(l, s->name, elem, count));
}

/* ---- calls ---------------------------------------------------------------------------- */

static IrValue arg(Lower *l, Node *call, uint32_t i) { return lower_expr(l, call->list.items[i]); }

static IrValue math1(Lower *l, Node *e, IrOp op)
{
    IrValue a = arg(l, e, 0);
    return lower_op1(l, op, a.type, a);
}

static IrValue minmax(Lower *l, Node *e, bool is_min)
{
    if (e->list.count != 2)
        return lower_reduce(l, e, is_min ? "min" : "max");
    const Type *t = e->list.items[0]->type;
    IrOp op = type_is_float(t) ? (is_min ? IR_FMIN : IR_FMAX)
              : type_is_signed(t) ? (is_min ? IR_SMIN : IR_SMAX)
                                  : (is_min ? IR_UMIN : IR_UMAX);
    IrValue a = arg(l, e, 0), b = arg(l, e, 1);
    return lower_op2(l, op, a.type, a, b);
}

/* One shfl of a 32-bit value (i32 or f32), which is all the IR's shfl
 * moves, as PTX's shfl.sync.b32 does. */
static IrValue shuffle32(Lower *l, IrValue v, IrValue lane, IrShfl mode)
{
    IrInst *in = lower_emit(l, IR_SHFL, v.type, 2);
    in->operands[0] = v;
    in->operands[1] = lane;
    in->shfl = mode;
    return ir_reg(in);
}

/* A 64-bit integer as two shuffles of its halves, with the same lane
 * operand, so both come from the same source lane (what CUDA's
 * __shfl_sync does for long long and double). */
static IrValue shuffle64(Lower *l, IrValue v, IrValue lane, IrShfl mode)
{
    IrValue lo = lower_op1(l, IR_TRUNC, IRT_I32, v);
    IrValue hi = lower_op1(l, IR_TRUNC, IRT_I32, lower_op2(l, IR_LSHR, IRT_I64, v, ir_int(IRT_I64, 32)));
    lo = lower_op1(l, IR_ZEXT, IRT_I64, shuffle32(l, lo, lane, mode));
    hi = lower_op1(l, IR_ZEXT, IRT_I64, shuffle32(l, hi, lane, mode));
    return lower_op2(l, IR_OR, IRT_I64, lower_op2(l, IR_SHL, IRT_I64, hi, ir_int(IRT_I64, 32)), lo);
}

/* shfl(x, lane) of any scalar sema lets through (a number or a bool):
 * 32-bit values directly; 64-bit ones by halves (f64 as its bits);
 * narrower ones widened to 32 bits (f16 as its bits, a bool as 0 or 1),
 * shuffled and narrowed back. */
static IrValue shuffle(Lower *l, Node *e, IrShfl mode)
{
    IrValue v = arg(l, e, 0);
    Node *k = e->list.items[1];
    IrValue lane = lower_convert(l, lower_expr(l, k), k->type, type_scalar(TY_I32));
    IrType t = v.type;
    switch (t) {
    case IRT_I32: case IRT_F32:
        return shuffle32(l, v, lane, mode);
    case IRT_I64:
        return shuffle64(l, v, lane, mode);
    case IRT_F64:
        return lower_op1(l, IR_BITCAST, IRT_F64, shuffle64(l, lower_op1(l, IR_BITCAST, IRT_I64, v), lane, mode));
    case IRT_I1: {
        IrValue x = shuffle32(l, lower_op1(l, IR_ZEXT, IRT_I32, v), lane, mode);
        return lower_cmp(l, IRC_NE, x, ir_int(IRT_I32, 0));
    }
    case IRT_I8: case IRT_I16: case IRT_F16: {
        IrType bits = t == IRT_F16 ? IRT_I16 : t;
        IrValue x = t == IRT_F16 ? lower_op1(l, IR_BITCAST, IRT_I16, v) : v;
        x = lower_op1(l, IR_TRUNC, bits, shuffle32(l, lower_op1(l, IR_ZEXT, IRT_I32, x), lane, mode));
        return t == IRT_F16 ? lower_op1(l, IR_BITCAST, IRT_F16, x) : x;
    }
    default:
        return unsupported(l, e, "a shuffle of this type");
    }
}

static IrValue atomic(Lower *l, Node *e, IrAtom op)
{
    Node *target = e->list.items[0];
    IrValue addr;
    IrSpace space;
    if (target->kind != ND_INDEX || !lower_address(l, target, &addr, &space))
        return lower_zero(e->type);
    const Type *t = target->type;
    if (type_is_signed(t) && (op == IRA_UMIN || op == IRA_UMAX))
        op = op == IRA_UMIN ? IRA_SMIN : IRA_SMAX;
    uint32_t n = op == IRA_CAS ? 3 : 2;
    IrValue ops[3] = {addr, arg(l, e, 1), n == 3 ? arg(l, e, 2) : (IrValue){0}};
    IrInst *in = lower_emit(l, IR_ATOM, lower_type(t), n);
    for (uint32_t i = 0; i < n; i++)
        in->operands[i] = ops[i];
    in->space = space;
    in->atom = op;
    return ir_reg(in);
}

static IrValue raw_memory(Lower *l, Node *e, bool is_store)
{
    IrValue addr = arg(l, e, 0);
    if (!is_store)
        return lower_load(l, lower_type(e->type), addr, IRS_GLOBAL);
    IrValue v = arg(l, e, 1); /* before the store is appended */
    IrInst *in = lower_emit(l, IR_STORE, IRT_VOID, 2);
    in->operands[0] = addr;
    in->operands[1] = v;
    in->space = IRS_GLOBAL;
    return ir_int(IRT_I32, 0);
}

static IrValue builtin(Lower *l, Node *e, const char *n)
{
    static const struct {
        const char *name;
        IrOp op;
    } math[] = {{"abs", IR_ABS},     {"sqrt", IR_SQRT}, {"rsqrt", IR_RSQRT}, {"exp", IR_EXP},
                {"log", IR_LOG},     {"sin", IR_SIN},   {"cos", IR_COS},     {"floor", IR_FLOOR},
                {"ceil", IR_CEIL}};
    for (size_t i = 0; i < sizeof math / sizeof *math; i++)
        if (strcmp(n, math[i].name) == 0)
            return math1(l, e, math[i].op);
    if (strcmp(n, "sync") == 0) {
        lower_emit(l, IR_BARRIER, IRT_VOID, 0);
        return ir_int(IRT_I32, 0);
    }
    if (strcmp(n, "fma") == 0) {
        IrValue a = arg(l, e, 0), b = arg(l, e, 1), c = arg(l, e, 2);
        IrInst *in = lower_emit(l, IR_FMA, a.type, 3);
        in->operands[0] = a, in->operands[1] = b, in->operands[2] = c;
        return ir_reg(in);
    }
    if (strcmp(n, "min") == 0 || strcmp(n, "max") == 0)
        return minmax(l, e, n[1] == 'i');
    if (strcmp(n, "shfl") == 0) return shuffle(l, e, IRSH_IDX);
    if (strcmp(n, "shfl_down") == 0) return shuffle(l, e, IRSH_DOWN);
    if (strcmp(n, "shfl_up") == 0) return shuffle(l, e, IRSH_UP);
    if (strcmp(n, "shfl_xor") == 0) return shuffle(l, e, IRSH_BFLY);
    if (strcmp(n, "ballot") == 0) {
        IrValue p = arg(l, e, 0);
        return lower_op1(l, IR_BALLOT, IRT_I32, p);
    }
    if (strcmp(n, "atomic_add") == 0) return atomic(l, e, IRA_ADD);
    if (strcmp(n, "atomic_min") == 0) return atomic(l, e, IRA_UMIN);
    if (strcmp(n, "atomic_max") == 0) return atomic(l, e, IRA_UMAX);
    if (strcmp(n, "atomic_exch") == 0) return atomic(l, e, IRA_EXCH);
    if (strcmp(n, "atomic_cas") == 0) return atomic(l, e, IRA_CAS);
    if (strcmp(n, "load") == 0 || strcmp(n, "store") == 0)
        return raw_memory(l, e, n[0] == 's');
    if (strcmp(n, "sum") == 0)
        return lower_reduce(l, e, "sum");
    /* The qgemm built-ins give tiles: lower_tile.c, in tile statements. */
    return unsupported(l, e, "a tile value outside a tile statement");
}

static IrValue call(Lower *l, Node *e)
{
    Node *callee = e->a;
    if (callee->kind == ND_NAME && callee->symbol && callee->symbol->kind == SYM_FUNC)
        return lower_call(l, e);
    if (callee->kind != ND_NAME)
        return unsupported(l, e, "this call");
    const Type *to = type_scalar_named(callee->name);
    if (to && !callee->symbol) {
        Node *x = e->list.items[0];
        return lower_convert(l, lower_expr(l, x), x->type, to);
    }
    if (builtin_find(callee->name) && !callee->symbol) {
        Span statement = l->span; /* a barrier or a shuffle is placed at its call */
        l->span = e->span;
        IrValue v = builtin(l, e, callee->name);
        l->span = statement;
        return v;
    }
    return unsupported(l, e, "this call");
}

/* ---- the dispatcher --------------------------------------------------------------------- */

IrValue lower_expr(Lower *l, Node *e)
{
    if (e->folded == 1 && e->type && type_is_integer(e->type))
        return ir_int(lower_type(e->type), (int64_t)e->int_value);
    switch (e->kind) {
    case ND_INT: case ND_FLOAT: case ND_BOOL: return constant(e);
    case ND_NAME: return name(l, e);
    case ND_UNARY: return unary(l, e);
    case ND_BINARY: return binary(l, e);
    case ND_CALL: return call(l, e);
    case ND_INDEX: return element(l, e);
    case ND_FIELD: return field(l, e);
    default: return unsupported(l, e, "this expression");
    }
}
