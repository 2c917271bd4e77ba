/*
 * ir_cfg.h: a function's control flow graph and dominator tree, computed
 * from the terminators, for the verifier and the passes.
 *
 * A back edge is an edge t -> h where h dominates t; the natural loop of
 * h is h and every block that reaches such a t without passing h.
 *
 * Blocks are named by their index in f->blocks, which the passes keep
 * equal to their id (pass_run renumbers after every pass).  The graph is a
 * snapshot: a pass that changes the edges builds it again.
 */
#ifndef SILK_IR_CFG_H
#define SILK_IR_CFG_H

#include "ir.h"

typedef struct IrCfg {
    uint32_t n;          /* blocks */
    int (*succ)[2];      /* by block: up to two distinct successors, -1 none */
    uint32_t **preds;    /* by block: distinct predecessors, in block order */
    uint32_t *n_preds;
    uint32_t *rpo;       /* the reachable blocks in reverse postorder */
    uint32_t n_reachable;
    uint32_t *rpo_num;   /* by block: its position in rpo */
    int *idom;           /* by block: immediate dominator; the entry its own; -1 unreachable */
    uint32_t **children; /* by block: the blocks it immediately dominates, in rpo */
    uint32_t *n_children;
    uint32_t *enter, *leave; /* by block: its interval in a preorder walk of the dominator tree */
} IrCfg;

/* A natural loop.  Two natural loops are disjoint or one holds the
 * other, so the loops form a tree: each has a parent, the innermost loop
 * around it. */
typedef struct IrLoop {
    uint32_t header;
    int parent;          /* the innermost loop around this one, -1 none */
    uint32_t *blocks;    /* its blocks, those of loops inside it included, in reverse postorder */
    uint32_t size;       /* (so the header is blocks[0]) */
    uint32_t enter, leave; /* a walk of the loop tree numbers it, and every loop inside it, in [enter, leave) */
} IrLoop;

/* The loops of a graph, in reverse postorder of their headers (so a loop
 * comes after every loop around it), and the innermost loop of each block. */
typedef struct IrLoops {
    IrLoop *loop;
    uint32_t n;
    int *innermost;      /* by block, with room for `room` blocks: -1 in no loop */
} IrLoops;

/* The graph of `f` with all its tables in `scratch`. */
IrCfg *cfg_build(const IrFunc *f, Arena *scratch);

/* The index of block `b` in `f`, or -1 when it is none of its blocks. */
int cfg_block_index(const IrFunc *f, const IrBlock *b);

/* Whether block a dominates block b (both reachable), a == b included. */
bool cfg_dominates(const IrCfg *cfg, uint32_t a, uint32_t b);

/* The natural loops of the graph, one per header (its back edges
 * together); `innermost` has room for `room` >= cfg->n blocks, so a pass
 * can place the blocks it adds.  In `scratch`; the time and memory are
 * the sum of the loops' sizes (the blocks times the nesting depth). */
IrLoops *cfg_find_loops(const IrCfg *cfg, uint32_t room, Arena *scratch);

/* Whether loop `loop` holds block `b` (one of the `room`): in constant time. */
bool cfg_loop_holds(const IrLoops *loops, uint32_t loop, uint32_t b);

/* Whether block b is the header of a loop: the target of a back edge. */
bool cfg_loop_header(const IrCfg *cfg, uint32_t b);

/* Whether block b is reachable from the entry. */
bool cfg_reachable(const IrCfg *cfg, uint32_t b);

#endif
