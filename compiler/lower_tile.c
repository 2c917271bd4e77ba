/*
 * lower_tile.c: tile variables and tile statements (language.md 5.5) as
 * IR, and the counted loops they are made of.
 *
 * A tile statement `dst = expr` divides dst's elements among exactly
 * ctx.threads threads: thread tid handles the row-major flat elements
 * tid, tid + threads, ...  For each it computes the multi-index (divisions
 * by the extents, constants where they are), evaluates the element-wise
 * expression there and stores the result.  Before the elements, every
 * scalar subexpression and every view's start is evaluated once
 * ("prepared"), so the per-element code is loads, arithmetic and a store.
 *
 * Tile operands are whole tensors (global), whole shared arrays, views
 * `x[start +: width, ...]` of either, and tile variables: a shared array
 * allocated for each, unless `@registers`.  A @registers tile of N
 * elements is N / threads SSA variables per thread (lower_internal.h:
 * slots): element f lives in thread f % threads, slot f / threads.  A
 * statement touching one directly is unrolled, slot by slot, so each slot
 * is a constant; thread tid's elements there are exactly its own slots.
 *
 * `a @ b` ([m, k] x [k, n]) and the `<fmt>_qgemm_t` built-ins read other
 * threads' elements, so their operands must be in memory: a @registers
 * tile or a compound expression there is first written to a shared
 * scratch array by a statement of its own (with its barrier).  Each
 * product element is a loop over k of fma; `@tensorcore` lowers the same
 * scalar way for now (mma.sync fragments are future work; the checker's
 * rules for it still apply).  A product that reads the destination itself
 * is computed into a scratch array first, then copied.
 *
 * Barriers: after a tile statement that writes memory or reads shared
 * memory, a bar.sync (language: a sync() is implied after one that writes
 * shared memory; after reads too, so a later statement may overwrite what
 * other threads were still reading).  Overlapping views of one tensor in
 * one element-wise statement are as racy as the same CUDA code would be.
 */
#include "lower_internal.h"

#include <string.h>

struct LowerTileIndex {
    int rank;
    IrValue idx[TYPE_MAX_DIMS]; /* i64, per dimension */
    IrValue flat;               /* i64 row-major in the statement's shape; none inside a product */
    int64_t slot;               /* the register slot in an unrolled statement; -1 in a loop */
};

/* A tile operand: memory (base address, space, its own type for the
 * extents, a view's starts), or a @registers tile. */
typedef struct TileOperand {
    const Type *type;
    IrValue base;
    IrSpace space;
    bool view;
    IrValue start[TYPE_MAX_DIMS];
    Symbol *regs;
} TileOperand;

/* A prepared node: a scalar's value, or a tile operand. */
typedef struct TilePrep {
    Node *node;
    IrValue scalar;
    TileOperand *operand;
} TilePrep;

typedef struct Tile {
    Lower *l;
    TilePrep *items;
    uint32_t count;
    uint32_t *index;     /* open addressing by node: 1 + an item's position, 0 empty */
    uint32_t index_size; /* a power of two, at least twice count; 0 before the first add */
    bool reads_shared;
    bool has_registers; /* a @registers operand used element by element: unroll */
    bool needs_index;   /* a view or a product: the multi-index, not only the flat one */
} Tile;

/* Where a statement stores: memory, or the slots of a @registers tile. */
typedef struct TileDest {
    const Type *shape;
    TileOperand *op;
    Symbol *regs;
    Symbol *symbol;     /* the named destination, for the alias check */
} TileDest;

static void run(Lower *l, TileDest *dst, Node *value);

bool lower_is_tile_like(const Type *t)
{
    return t && (t->kind == TY_TILE || t->kind == TY_ARRAY || t->kind == TY_TENSOR);
}

bool lower_tile_declared_registers(const Symbol *s)
{
    Node *d = s->decl;
    if (!s->type || s->type->kind != TY_TILE || !d || d->kind != ND_LET || !d->attrs)
        return false;
    for (uint32_t i = 0; i < d->attrs->count; i++)
        if (strcmp(d->attrs->items[i]->name, "registers") == 0)
            return true;
    return false;
}

bool lower_tile_in_registers(const Lower *l, const Symbol *s)
{
    if (lower_tile_declared_registers(s))
        return true;
    for (uint32_t i = 0; i < l->n_promoted; i++)
        if (l->promoted[i] == s)
            return true;
    return false;
}

/* ---- i64 arithmetic, folded where both sides are known ------------------------------------- */

static bool is_const(IrValue v, int64_t c) { return v.kind == IRV_INT && (int64_t)v.bits == c; }

static IrValue add64(Lower *l, IrValue a, IrValue b)
{
    if (a.kind == IRV_INT && b.kind == IRV_INT)
        return ir_int(IRT_I64, (int64_t)(a.bits + b.bits));
    if (is_const(a, 0))
        return b;
    if (is_const(b, 0))
        return a;
    return lower_op2(l, IR_ADD, IRT_I64, a, b);
}

static IrValue mul64(Lower *l, IrValue a, IrValue b)
{
    if (a.kind == IRV_INT && b.kind == IRV_INT)
        return ir_int(IRT_I64, (int64_t)(a.bits * b.bits));
    if (is_const(a, 0) || is_const(b, 0))
        return ir_int(IRT_I64, 0);
    if (is_const(b, 1))
        return a;
    return lower_op2(l, IR_MUL, IRT_I64, a, b);
}

static int log2_exact(IrValue v)
{
    if (v.kind != IRV_INT || v.bits == 0 || (v.bits & (v.bits - 1)))
        return -1;
    int k = 0;
    while ((1ull << k) != v.bits)
        k++;
    return k;
}

/* a / b and a % b, unsigned; shifts and masks for powers of two. */
static IrValue div64(Lower *l, IrValue a, IrValue b, bool rem)
{
    int k = log2_exact(b);
    if (k == 0)
        return rem ? ir_int(IRT_I64, 0) : a;
    if (k > 0)
        return rem ? lower_op2(l, IR_AND, IRT_I64, a, ir_int(IRT_I64, (int64_t)(b.bits - 1)))
                   : lower_op2(l, IR_LSHR, IRT_I64, a, ir_int(IRT_I64, k));
    return lower_op2(l, rem ? IR_UREM : IR_UDIV, IRT_I64, a, b);
}

/* ---- counted loops ----------------------------------------------------------------------- */

IrValue lower_count_open(Lower *l, LowerCount *c, IrValue start, IrValue end, IrValue carried)
{
    IrBlock *entry = l->cur;
    c->header = ir_new_block(l->m, l->f);
    IrBlock *body = ir_new_block(l->m, l->f);
    c->exit = ir_new_block(l->m, l->f);
    lower_emit(l, IR_BR, IRT_VOID, 0)->target[0] = c->header;
    l->cur = c->header;
    c->index = lower_emit(l, IR_PHI, IRT_I64, 2);
    c->index->operands[0] = start;
    c->index->incoming[0] = entry;
    c->carried = NULL;
    if (carried.kind != IRV_NONE) {
        c->carried = lower_emit(l, IR_PHI, carried.type, 2);
        c->carried->operands[0] = carried;
        c->carried->incoming[0] = entry;
    }
    IrValue more = lower_cmp(l, IRC_ULT, ir_reg(c->index), end);
    IrInst *cbr = lower_emit(l, IR_CBR, IRT_VOID, 1);
    cbr->operands[0] = more;
    cbr->target[0] = body;
    cbr->target[1] = c->exit;
    l->cur = body;
    return ir_reg(c->index);
}

IrValue lower_count_close(Lower *l, LowerCount *c, IrValue step, IrValue next)
{
    if (l->cur) {
        IrValue i = lower_op2(l, IR_ADD, IRT_I64, ir_reg(c->index), step);
        c->index->operands[1] = i;
        c->index->incoming[1] = l->cur;
        if (c->carried) {
            c->carried->operands[1] = next;
            c->carried->incoming[1] = l->cur;
        }
        lower_emit(l, IR_BR, IRT_VOID, 0)->target[0] = c->header;
    } else { /* the body never ends (an inlined helper that never returns) */
        c->index->n_operands = 1;
        if (c->carried)
            c->carried->n_operands = 1;
    }
    l->cur = c->exit;
    return c->carried ? ir_reg(c->carried) : (IrValue){0};
}

/* ---- operands ------------------------------------------------------------------------------ */

/* The prepared operands are found by node through a hash of its address
 * (only looked up, never iterated, so the order of the output does not
 * depend on it): a scan made a statement of n operands cost n times n. */
static uint32_t node_slot(const Tile *t, const Node *e)
{
    uint64_t h = (uint64_t)(uintptr_t)e * UINT64_C(0x9E3779B97F4A7C15);
    return (uint32_t)(h >> 32) & (t->index_size - 1);
}

static TilePrep *find(Tile *t, const Node *e)
{
    if (!t->index_size)
        return NULL;
    for (uint32_t i = node_slot(t, e); t->index[i]; i = (i + 1) & (t->index_size - 1))
        if (t->items[t->index[i] - 1].node == e)
            return &t->items[t->index[i] - 1];
    return NULL;
}

static void index_item(Tile *t, uint32_t item)
{
    uint32_t i = node_slot(t, t->items[item].node);
    while (t->index[i])
        i = (i + 1) & (t->index_size - 1);
    t->index[i] = item + 1;
}

static void add(Tile *t, Node *e, IrValue scalar, TileOperand *op)
{
    t->items = ir_grow(t->l->m->arena, t->items, t->count, sizeof *t->items);
    t->items[t->count++] = (TilePrep){.node = e, .scalar = scalar, .operand = op};
    if (2 * (uint64_t)t->count > t->index_size) { /* rebuild at twice the size */
        t->index_size = t->index_size ? 2 * t->index_size : 16;
        t->index = ARENA_ARRAY(t->l->m->arena, uint32_t, t->index_size);
        for (uint32_t k = 0; k < t->count; k++)
            index_item(t, k);
    } else {
        index_item(t, t->count - 1);
    }
}

/* The operand a name or view stands for; NULL (reported) otherwise. */
static TileOperand *operand_of(Lower *l, Node *e)
{
    Node *name = e->kind == ND_INDEX ? e->a : e;
    Symbol *s = name->kind == ND_NAME ? name->symbol : NULL;
    IrValue *v = s && lower_is_tile_like(s->type) ? lower_var(l, s) : NULL;
    if (!v) {
        lower_unsupported(l, e->span, "this tile operand");
        return NULL;
    }
    TileOperand *op = ARENA_NEW(l->m->arena, TileOperand);
    op->type = s->type;
    if (lower_tile_in_registers(l, s)) {
        if (e->kind == ND_INDEX) {
            lower_unsupported(l, e->span, "a view of a @registers tile");
            return NULL;
        }
        op->regs = s;
        return op;
    }
    op->base = *v;
    op->space = s->type->kind == TY_TENSOR ? IRS_GLOBAL : IRS_SHARED;
    if (e->kind == ND_INDEX) {
        op->view = true;
        for (uint32_t d = 0; d < e->list.count; d++) {
            Node *x = e->list.items[d]->a;
            op->start[d] = lower_to_i64(l, lower_expr(l, x), x->type);
        }
    }
    return op;
}

/* Row-major address of the element at `ix` (of a view: offset by its starts). */
static IrValue operand_address(Lower *l, const TileOperand *op, const LowerTileIndex *ix)
{
    IrValue lin = ix->flat;
    if (op->view || lin.kind == IRV_NONE) {
        for (int d = 0; d < op->type->rank; d++) {
            IrValue i = op->view ? add64(l, op->start[d], ix->idx[d]) : ix->idx[d];
            lin = d == 0 ? i : add64(l, mul64(l, lin, lower_extent(l, op->type, d)), i);
        }
    }
    IrValue off = lower_scale(l, lin, ir_natural_align(lower_type(op->type->elem)));
    return add64(l, op->base, off);
}

static IrValue operand_element(Lower *l, const TileOperand *op, const LowerTileIndex *ix, Span at)
{
    if (op->regs) {
        IrValue *v = ix->slot >= 0 ? lower_var_slot(l, op->regs, (uint32_t)ix->slot) : NULL;
        if (v)
            return *v;
        lower_unsupported(l, at, "a @registers tile here");
        return lower_zero(op->type->elem);
    }
    return lower_load(l, lower_type(op->type->elem), operand_address(l, op, ix), op->space);
}

/* ---- preparing a statement's value ---------------------------------------------------------- */

static bool is_qgemm(const Node *e)
{
    return e->kind == ND_CALL && e->a->kind == ND_NAME && !e->a->symbol && strstr(e->a->name, "_qgemm_t");
}

/* `e` written to a new shared scratch array by a statement of its own. */
static TileOperand *materialize(Lower *l, Node *e)
{
    const Type *ty = e->type;
    uint64_t n = 1;
    for (int d = 0; d < ty->rank; d++) {
        if (ty->dims[d] < 0) {
            lower_unsupported(l, e->span, "a product operand of run-time extents that is not in memory");
            return NULL;
        }
        n *= (uint64_t)ty->dims[d];
    }
    TileOperand *op = ARENA_NEW(l->m->arena, TileOperand);
    Type *shape = ARENA_NEW(l->m->arena, Type);
    *shape = *ty;
    shape->kind = TY_TILE;
    op->type = shape;
    op->space = IRS_SHARED;
    op->base = lower_shared_alloc(l, "tile", lower_type(ty->elem), n);
    TileDest dst = {.shape = shape, .op = op};
    run(l, &dst, e);
    return op;
}

/* Scalars evaluated, operands made; `matrix`: read at other threads'
 * elements (an operand of a product), so it must be in memory. */
static void prepare(Tile *t, Node *e, bool matrix);

/* A binary operator on tiles that prepare and element take apart (the
 * step of a chain): `a + b + ...` leans left and is as deep as it is
 * long, so both walk its left spine in a loop, keeping the spine in a
 * list, and recurse only on right sides. */
static bool is_tile_step(const Node *e, bool matrix)
{
    return e->kind == ND_BINARY && !matrix && lower_is_tile_like(e->type);
}

/* Appends `e` to an arena list that doubles. */
static Node **push_node(Tile *t, Node **list, uint32_t *n, Node *e)
{
    if ((*n & (*n - 1)) == 0) /* 0, 1, 2, 4...: full, double it */
        list = arena_grow(t->l->m->arena, list, *n, *n ? 2 * (size_t)*n : 1, sizeof *list);
    list[(*n)++] = e;
    return list;
}

/* One operand of a statement that is not a step of a chain. */
static void prepare_operand(Tile *t, Node *e, bool matrix)
{
    Lower *l = t->l;
    if (!lower_is_tile_like(e->type)) {
        add(t, e, lower_expr(l, e), NULL);
        return;
    }
    TileOperand *op = NULL;
    if (e->kind == ND_NAME || e->kind == ND_INDEX) {
        op = operand_of(l, e);
        if (op && op->regs && matrix)
            op = materialize(l, e);
        else if (op && op->regs)
            t->has_registers = true;
    } else if (matrix) {
        op = materialize(l, e);
    } else if (e->kind == ND_UNARY) {
        prepare(t, e->a, false);
        return;
    } else if (is_qgemm(e) && e->list.count == 3) {
        t->needs_index = true;
        prepare(t, e->list.items[0], true);
        prepare(t, e->list.items[1], true);
        prepare(t, e->list.items[2], false);
        return;
    } else {
        lower_unsupported(l, e->span, "this tile expression");
    }
    if (op && !op->regs && op->space == IRS_SHARED)
        t->reads_shared = true;
    if (op && op->view)
        t->needs_index = true;
    add(t, e, op ? (IrValue){0} : lower_zero(e->type->elem), op);
}

static void prepare(Tile *t, Node *e, bool matrix)
{
    Node **spine = NULL;
    uint32_t n = 0;
    for (; is_tile_step(e, matrix); e = e->a) {
        t->needs_index |= e->op == TK_AT;
        spine = push_node(t, spine, &n, e);
        matrix = e->op == TK_AT;
    }
    prepare_operand(t, e, matrix);
    while (n-- > 0)
        prepare(t, spine[n]->b, spine[n]->op == TK_AT);
}

/* ---- elements ------------------------------------------------------------------------------- */

static IrValue element(Tile *t, Node *e, const LowerTileIndex *ix);

static TileOperand *prepared_operand(Tile *t, Node *e)
{
    TilePrep *p = find(t, e);
    return p ? p->operand : NULL;
}

/* One element of [m, k] @ [k, n] (or a qgemm): the loop over k.  Integer
 * (qgemm) operands widen to i32 and accumulate there. */
static IrValue product(Tile *t, Node *a, Node *b, IrType acc_type, bool widen, const LowerTileIndex *ix)
{
    Lower *l = t->l;
    TileOperand *A = prepared_operand(t, a), *B = prepared_operand(t, b);
    if (!A || !B || ix->rank != 2)
        return acc_type >= IRT_F16 ? ir_float(acc_type, 0) : ir_int(acc_type, 0);
    IrValue zero = acc_type >= IRT_F16 ? ir_float(acc_type, 0) : ir_int(acc_type, 0);
    IrValue depth = lower_extent(l, a->type, 1);
    LowerCount c;
    IrValue k = lower_count_open(l, &c, ir_int(IRT_I64, 0), depth, zero);
    LowerTileIndex ia = {.rank = 2, .idx = {ix->idx[0], k}, .slot = -1};
    LowerTileIndex ib = {.rank = 2, .idx = {k, ix->idx[1]}, .slot = -1};
    IrValue x = operand_element(l, A, &ia, a->span);
    IrValue y = operand_element(l, B, &ib, b->span);
    if (widen) {
        x = lower_convert(l, x, a->type->elem, type_scalar(TY_I32));
        y = lower_convert(l, y, b->type->elem, type_scalar(TY_I32));
    }
    IrValue acc = ir_reg(c.carried), next;
    if (acc_type >= IRT_F16) {
        IrInst *fma = lower_emit(l, IR_FMA, acc_type, 3);
        fma->operands[0] = x, fma->operands[1] = y, fma->operands[2] = acc;
        next = ir_reg(fma);
    } else {
        next = lower_op2(l, IR_ADD, acc_type, lower_op2(l, IR_MUL, acc_type, x, y), acc);
    }
    return lower_count_close(l, &c, ir_int(IRT_I64, 1), next);
}

/* <fmt>_qgemm_t(a, b, scale)[i, j] = F(sum over k of a[i, k] * b[k, j] in
 * i32) * scale, F the result's float type.  The formats' element bytes
 * are read as the integers their Silk types say (i8 signed, u8 not). */
static IrValue qgemm(Tile *t, Node *e, const LowerTileIndex *ix)
{
    Lower *l = t->l;
    const Type *f = e->type->elem;
    IrValue sum = product(t, e->list.items[0], e->list.items[1], IRT_I32, true, ix);
    IrValue real = lower_convert(l, sum, type_scalar(TY_I32), f);
    Node *scale = e->list.items[2];
    IrValue s = lower_convert(l, element(t, scale, ix), scale->type, f);
    return lower_op2(l, IR_MUL, lower_type(f), real, s);
}

/* One element of `e`, an element-wise operator, `a` its left side's. */
static IrValue elementwise(Tile *t, Node *e, IrValue a, const LowerTileIndex *ix)
{
    Lower *l = t->l;
    IrValue b = element(t, e->b, ix);
    const Type *et = e->type->elem;
    IrOp op = lower_arith_op(e->op, et);
    if (op == IR_OP_COUNT) {
        lower_unsupported(l, e->span, "this operator on tiles");
        return lower_zero(et);
    }
    return lower_op2(l, op, lower_type(et), a, b);
}

/* A chain's spine in a loop: down to an operand prepared or not
 * element-wise, then each step's right side, bottom up. */
static IrValue binary(Tile *t, Node *e, const LowerTileIndex *ix)
{
    if (e->op == TK_AT) /* @tensorcore too: the scalar product (mma is future work) */
        return product(t, e->a, e->b, lower_type(e->type->elem), false, ix);
    Node **spine = NULL;
    uint32_t n = 0;
    for (; e->kind == ND_BINARY && e->op != TK_AT && !find(t, e); e = e->a)
        spine = push_node(t, spine, &n, e);
    IrValue v = element(t, e, ix);
    while (n-- > 0)
        v = elementwise(t, spine[n], v, ix);
    return v;
}

static IrValue element(Tile *t, Node *e, const LowerTileIndex *ix)
{
    Lower *l = t->l;
    TilePrep *p = find(t, e);
    if (p)
        return p->operand ? operand_element(l, p->operand, ix, e->span) : p->scalar;
    if (e->kind == ND_BINARY)
        return binary(t, e, ix);
    if (e->kind == ND_UNARY) {
        IrValue a = element(t, e->a, ix);
        IrType it = lower_type(e->type->elem);
        return e->op == TK_MINUS ? lower_op1(l, IR_NEG, it, a) : e->op == TK_TILDE ? lower_op1(l, IR_NOT, it, a) : a;
    }
    if (is_qgemm(e))
        return qgemm(t, e, ix);
    return lower_zero(e->type->elem); /* reported by prepare */
}

/* ---- the division among threads -------------------------------------------------------------- */

/* The flat index, and the multi-index when something needs it (whole
 * operands of the statement's shape use the flat one). */
static void index_of(Tile *t, LowerTileIndex *ix, IrValue flat, const IrValue *ext, int rank)
{
    Lower *l = t->l;
    ix->rank = rank;
    ix->flat = flat;
    if (!t->needs_index)
        return;
    IrValue rest = flat;
    for (int d = rank - 1; d > 0; d--) {
        ix->idx[d] = div64(l, rest, ext[d], true);
        rest = div64(l, rest, ext[d], false);
    }
    ix->idx[0] = rest;
}

/* Thread tid's elements of `shape`: unrolled over register slots, or a
 * loop from tid by threads. */
static IrValue iterate(Tile *t, const Type *shape, Node *value, bool unroll, LowerTileVisit visit, void *data,
                       IrValue acc)
{
    Lower *l = t->l;
    IrValue ext[TYPE_MAX_DIMS], count = ir_int(IRT_I64, 1);
    for (int d = 0; d < shape->rank; d++) {
        ext[d] = lower_extent(l, shape, d);
        count = mul64(l, count, ext[d]);
    }
    IrValue tid = lower_op1(l, IR_ZEXT, IRT_I64, lower_sreg(l, IRR_TID_X));
    int threads = l->info->reqntid;
    LowerTileIndex ix;
    if (unroll) {
        if (!threads || count.kind != IRV_INT || count.bits % (uint64_t)threads) {
            lower_unsupported(l, value->span, "a @registers tile whose elements do not divide by the threads");
            return acc;
        }
        for (uint64_t s = 0; s < count.bits / (uint64_t)threads; s++) {
            index_of(t, &ix, add64(l, tid, ir_int(IRT_I64, (int64_t)(s * (uint64_t)threads))), ext, shape->rank);
            ix.slot = (int64_t)s;
            acc = visit(l, data, element(t, value, &ix), &ix, acc);
        }
        return acc;
    }
    IrValue step = threads ? ir_int(IRT_I64, threads) : lower_op1(l, IR_ZEXT, IRT_I64, lower_threads(l));
    LowerCount c;
    IrValue flat = lower_count_open(l, &c, tid, count, acc);
    index_of(t, &ix, flat, ext, shape->rank);
    ix.slot = -1;
    IrValue carried = c.carried ? ir_reg(c.carried) : (IrValue){0};
    IrValue next = visit(l, data, element(t, value, &ix), &ix, carried);
    return lower_count_close(l, &c, step, next);
}

IrValue lower_tile_fold(Lower *l, Node *value, LowerTileVisit visit, void *data, IrValue acc)
{
    Tile t = {.l = l};
    prepare(&t, value, false);
    return iterate(&t, value->type, value, t.has_registers, visit, data, acc);
}

/* ---- statements ------------------------------------------------------------------------------ */

static IrValue store_element(Lower *l, void *data, IrValue v, const LowerTileIndex *ix, IrValue acc)
{
    TileDest *d = data;
    if (d->regs)
        *lower_var_slot(l, d->regs, (uint32_t)ix->slot) = v;
    else
        lower_store(l, operand_address(l, d->op, ix), v, d->op->space);
    return acc;
}

static bool names(const Node *e, const Symbol *s)
{
    if (!e || !s)
        return false;
    if (e->kind == ND_NAME)
        return e->symbol == s;
    if (e->kind == ND_INDEX)
        return names(e->a, s);
    if (e->kind == ND_BINARY)
        return names(e->a, s) || names(e->b, s);
    if (e->kind == ND_UNARY)
        return names(e->a, s);
    for (uint32_t i = 0; e->kind == ND_CALL && i < e->list.count; i++)
        if (names(e->list.items[i], s))
            return true;
    return false;
}

/* Whether a product in `e` reads `s` (other threads' old elements). */
static bool product_reads(const Node *e, const Symbol *s)
{
    if (!e || !lower_is_tile_like(e->type))
        return false;
    if ((e->kind == ND_BINARY && e->op == TK_AT) || is_qgemm(e))
        return names(e, s);
    if (e->kind == ND_BINARY)
        return product_reads(e->a, s) || product_reads(e->b, s);
    return e->kind == ND_UNARY && product_reads(e->a, s);
}

static void run(Lower *l, TileDest *dst, Node *value)
{
    Tile t = {.l = l, .needs_index = dst->op && dst->op->view};
    if (dst->op && product_reads(value, dst->symbol)) {
        TileOperand *tmp = materialize(l, value);
        add(&t, value, lower_zero(dst->shape->elem), tmp);
        t.reads_shared = true;
    } else {
        prepare(&t, value, false);
    }
    if (!l->cur)
        return;
    iterate(&t, dst->shape, value, t.has_registers || dst->regs, store_element, dst, (IrValue){0});
    if (!dst->regs || t.reads_shared)
        lower_emit(l, IR_BARRIER, IRT_VOID, 0);
}

void lower_tile_let(Lower *l, Node *s)
{
    Symbol *sym = s->symbol;
    const Type *ty = sym->type;
    uint64_t n = 1;
    for (int d = 0; d < ty->rank; d++)
        n *= (uint64_t)(ty->dims[d] > 0 ? ty->dims[d] : 1);
    TileDest dst = {.shape = ty, .symbol = sym};
    if (lower_tile_in_registers(l, sym)) {
        int threads = l->info->reqntid;
        if (!threads || n % (uint64_t)threads) {
            lower_unsupported(l, s->span, "a @registers tile whose elements do not divide by the threads");
            return;
        }
        for (uint64_t i = 0; i < n / (uint64_t)threads; i++)
            lower_define_slot(l, sym, (uint32_t)i, lower_zero(ty->elem));
        dst.regs = sym;
    } else {
        TileOperand *op = ARENA_NEW(l->m->arena, TileOperand);
        op->type = ty;
        op->space = IRS_SHARED;
        op->base = lower_shared_alloc(l, s->name, lower_type(ty->elem), n);
        lower_define(l, sym, op->base);
        dst.op = op;
    }
    if (s->b)
        run(l, &dst, s->b);
}

void lower_tile_assign(Lower *l, Node *s)
{
    Node *target = s->a;
    Node *name = target->kind == ND_INDEX ? target->a : target;
    if (s->op != TK_ASSIGN || name->kind != ND_NAME || !name->symbol) {
        lower_unsupported(l, s->span, "this tile statement");
        return;
    }
    TileDest dst = {.shape = target->type, .symbol = name->symbol};
    if (target == name && lower_tile_in_registers(l, name->symbol)) {
        dst.regs = name->symbol;
    } else {
        dst.op = operand_of(l, target);
        if (!dst.op)
            return;
    }
    run(l, &dst, s->b);
}
