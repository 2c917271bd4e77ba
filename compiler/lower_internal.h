/*
 * lower_internal.h: what lower.c (functions, statements, control flow,
 * SSA) and lower_expr.c (expressions) share.  Not a public interface.
 *
 * SSA construction is the simple structured kind: every local (parameter,
 * let, var, loop variable) has its current value in the function's
 * variable map; a branch records the map at each edge that leaves it, and
 * the block where edges meet starts with a phi for each variable whose
 * incoming values differ.  Loop headers get a phi for every mutable
 * variable before the body is lowered, completed from the latch after.
 */
#ifndef SILK_LOWER_INTERNAL_H
#define SILK_LOWER_INTERNAL_H

#include "lower.h"
#include "sema.h"

typedef struct LowerVar {
    Symbol *symbol;
    IrValue value;
} LowerVar;

/* One control-flow edge into a block not yet started: where it comes from
 * and the variables' values along it (the first n_vars of the map). */
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

typedef struct Lower {
    Compilation *c;
    IrModule *m;
    IrFunc *f;
    FuncInfo *info;
    IrBlock *cur;         /* NULL after break / continue / return: dead code */
    LowerVar *vars;
    uint32_t n_vars;
    LowerLoop *loop;
    int errors;           /* constructs reported as unsupported */
} Lower;

/* lower.c */
IrType lower_type(const Type *t);
void lower_unsupported(Lower *l, Span at, const char *what);
IrValue *lower_var(Lower *l, Symbol *s);
void lower_define(Lower *l, Symbol *s, IrValue v);
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

#endif
