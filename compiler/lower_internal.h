/*
 * lower_internal.h: what the lowering files share: lower.c (functions,
 * statements, control flow, SSA, @persistent), lower_expr.c (expressions),
 * lower_call.c (inlined calls), lower_tile.c (tiles), lower_promote.c
 * (tile variables kept in registers), lower_reduce.c (reductions).  Not a
 * public interface.
 *
 * SSA construction is the simple structured kind: every local (parameter,
 * let, var, loop variable) has its current value in the function's
 * variable map; a branch records, at each edge that leaves it, the values
 * of the variables that can change (a var, a loop variable, a tile's
 * slots: lower_changes), and the block where edges meet starts with a phi
 * for each of them whose incoming values differ.  Loop headers get a phi
 * for every mutable variable before the body is lowered, completed from
 * the latch after.  A `let` has one value wherever it is in scope, so it
 * is not copied at each edge: copying the whole map made a kernel of many
 * lets and many branches quadratic.
 */
#ifndef SILK_LOWER_INTERNAL_H
#define SILK_LOWER_INTERNAL_H

#include "lower.h"
#include "sema.h"

/* A local's current value.  A @registers tile is one entry per register
 * slot (slot 0, 1, ...): each slot then gets its own phis at joins. */
typedef struct LowerVar {
    Symbol *symbol;
    uint32_t slot;
    IrValue value;
} LowerVar;

/* One control-flow edge into a block not yet started: where it comes from
 * and the values along it of the variables that can change, in the order
 * of Lower.changing (those in scope where the edges meet come first). */
typedef struct LowerEdge {
    IrBlock *from;
    IrValue *values;
} LowerEdge;

typedef struct LowerEdges {
    LowerEdge *items;
    uint32_t count;
} LowerEdges;

typedef struct LowerLoop {
    struct LowerLoop *outer;
    uint32_t n_vars;      /* variables in scope at the loop's entry */
    IrBlock *latch, *exit;
    LowerEdges continues, breaks;
} LowerLoop;

/* A device helper being inlined (lower_call.c): where its `return`s go and
 * the value each carries; `outer` is the call it was inlined into, so a
 * call to a helper already on this chain is recursion. */
typedef struct LowerInline {
    struct LowerInline *outer;
    FuncInfo *callee;
    IrBlock *cont;        /* the call's continuation */
    LowerEdges returns;
    IrValue *values;      /* the value of each return edge (none: void) */
    uint32_t n_vars;      /* the caller's variables in scope at the call */
} LowerInline;

typedef struct Lower {
    Compilation *c;
    IrModule *m;
    IrFunc *f;
    FuncInfo *info;
    IrBlock *cur;         /* NULL after break / continue / return: dead code */
    Span span;            /* the source of the instructions made now: the
                           * innermost statement or call being lowered */
    LowerVar *vars;
    uint32_t n_vars;
    /* The entries of vars whose value can change, by index, in order;
     * those past n_vars are out of scope (lower_changes drops them). */
    uint32_t *changing;
    uint32_t n_changing;
    LowerLoop *loop;
    LowerInline *inl;     /* NULL outside an inlined helper */
    /* @persistent: the logical CTA index and count (IRV_NONE otherwise),
     * and the loop's latch, where the body's `return`s go. */
    IrValue cta, ctas;
    IrBlock *persistent_latch;
    LowerEdges persistent_next;
    /* The function's reduction scratch array of each type: its index in
     * the module's shared arrays + 1 (0: none yet); lower_reduce.c. */
    uint32_t reduce_scratch[IRT_F64 + 1];
    Symbol **promoted;    /* tile variables kept in registers (lower_promote.c) */
    uint32_t n_promoted;
    int errors;           /* constructs reported as unsupported */
} Lower;

/* lower.c */
IrType lower_type(const Type *t);
void lower_unsupported(Lower *l, Span at, const char *what);
IrValue *lower_var(Lower *l, Symbol *s);
void lower_define(Lower *l, Symbol *s, IrValue v);
/* Slot `slot` of a @registers tile (lower_var is slot 0). */
IrValue *lower_var_slot(Lower *l, Symbol *s, uint32_t slot);
void lower_define_slot(Lower *l, Symbol *s, uint32_t slot, IrValue v);
/* The statements of a block, in a scope of their own. */
void lower_body(Lower *l, Node *block);
IrInst *lower_emit(Lower *l, IrOp op, IrType type, uint32_t n_operands);
IrValue lower_op1(Lower *l, IrOp op, IrType type, IrValue a);
IrValue lower_op2(Lower *l, IrOp op, IrType type, IrValue a, IrValue b);
IrValue lower_cmp(Lower *l, IrCmp cmp, IrValue a, IrValue b);
/* Ends the current block with a branch to `to`, recording the edge. */
void lower_jump(Lower *l, IrBlock *to, LowerEdges *edges);
/* Starts `b` as the join of `edges` (phis where values differ); the
 * current block becomes NULL when no edge reaches it. */
void lower_join(Lower *l, IrBlock *b, LowerEdges *edges, uint32_t n_vars);
void lower_add_edge(Lower *l, LowerEdges *edges, IrBlock *from);
/* Before a read of `name` (an ND_NAME): with race checks, when it is a
 * var declared without a value, the check that it has been assigned. */
void lower_check_assigned(Lower *l, Node *name);

/* lower_expr.c */
IrValue lower_expr(Lower *l, Node *e);
/* The value converted from Silk type `from` to `to` (T(e)). */
IrValue lower_convert(Lower *l, IrValue v, const Type *from, const Type *to);
/* An integer value of any width as an i64 (signed or not per `t`). */
IrValue lower_to_i64(Lower *l, IrValue v, const Type *t);
/* The address of element `e` (an ND_INDEX of a tensor or shared array),
 * and the space it lives in; false (reported) when it cannot be had. */
bool lower_address(Lower *l, Node *e, IrValue *addr, IrSpace *space);
void lower_shared_decl(Lower *l, Node *s);
/* A new shared array named after the function and `base`, unique in the
 * module; returns its address. */
IrValue lower_shared_alloc(Lower *l, const char *base, IrType elem, uint64_t count);
/* Extent `d` of tensor, array or tile type `t` as an i64 (a parameter's
 * value when it is not constant). */
IrValue lower_extent(Lower *l, const Type *t, int d);
/* index * size (bytes), as a shift when size is a power of two. */
IrValue lower_scale(Lower *l, IrValue index, uint32_t size);
IrValue lower_load(Lower *l, IrType type, IrValue addr, IrSpace space);
void lower_store(Lower *l, IrValue addr, IrValue v, IrSpace space);
/* The IR opcode of binary operator `op` on Silk type `t` (IR_OP_COUNT:
 * a comparison or none), and the comparison of a comparison operator. */
IrOp lower_arith_op(TokenKind op, const Type *t);
IrCmp lower_cmp_op(TokenKind op, const Type *t);
bool lower_is_comparison(TokenKind op);
/* ctx.threads: a constant when the CTA size is fixed, else ntid.x (i32). */
IrValue lower_threads(Lower *l);
IrValue lower_sreg(Lower *l, IrSreg r);
IrValue lower_zero(const Type *t);

/* lower_call.c: a call to a device function, inlined. */
IrValue lower_call(Lower *l, Node *e);
/* `return` inside an inlined helper: an edge to the call's continuation. */
void lower_inline_return(Lower *l, Node *s);

/* lower_tile.c: tile variables and tile statements. */
/* Whether `t` is a tile operand's type: tile, tensor, shared array. */
bool lower_is_tile_like(const Type *t);
/* A @registers tile, or one lower_promote.c put in registers. */
bool lower_tile_declared_registers(const Symbol *s);
bool lower_tile_in_registers(const Lower *l, const Symbol *s);

/* lower_promote.c: the tile variables of `body` that live in registers
 * although not declared @registers (into l->promoted). */
void lower_promote_tiles(Lower *l, Node *body);
void lower_tile_let(Lower *l, Node *s);
void lower_tile_assign(Lower *l, Node *s);
/* One counted loop `for i = start; i < end; i += step` (i64), carrying
 * one value (IRV_NONE: none) through its header's phi. */
typedef struct LowerCount {
    IrBlock *header, *exit;
    IrInst *index, *carried;
} LowerCount;
IrValue lower_count_open(Lower *l, LowerCount *c, IrValue start, IrValue end, IrValue carried);
/* Ends the body (the carried value's next one) and continues after the
 * loop; returns the carried value there. */
IrValue lower_count_close(Lower *l, LowerCount *c, IrValue step, IrValue next);
/* Each element of tile expression `value` this thread owns, in order:
 * `visit` gets the element's value and the accumulator; returns the last. */
typedef struct LowerTileIndex LowerTileIndex;
typedef IrValue (*LowerTileVisit)(Lower *l, void *data, IrValue element, const LowerTileIndex *ix, IrValue acc);
IrValue lower_tile_fold(Lower *l, Node *value, LowerTileVisit visit, void *data, IrValue acc);

/* lower_reduce.c: sum/min/max of a tile or a whole tensor. */
IrValue lower_reduce(Lower *l, Node *call, const char *which);

#endif
