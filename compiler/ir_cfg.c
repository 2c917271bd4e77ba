/*
 * ir_cfg.c: the control flow graph of a function and its dominator tree,
 * for the passes.
 *
 * Successors come from each block's last instruction (a cbr whose two
 * targets are one block is one edge, as the verifier counts it);
 * predecessors are gathered in block order, so every table is
 * deterministic.  Reverse postorder is computed with an explicit stack (a
 * deep CFG must not overflow the C stack), and dominators by Cooper,
 * Harvey and Kennedy's iterative algorithm, as in ir_verify.c: kernels
 * have few blocks, so its simplicity wins over Lengauer-Tarjan.  The
 * dominator tree's children lists are in reverse postorder, so a walk of
 * the tree in preorder visits definitions before the uses they dominate.
 * Natural loops are found from the back edges (edges to a dominator).
 * Each block's interval in a walk of the tree (numbered on the way in and
 * on the way out) answers "does a dominate b" in constant time: climbing
 * the idom chain instead made the verifier and the passes quadratic on a
 * kernel of many ifs in a row, whose tree is as deep as it is long.
 */
#include "ir_cfg.h"

#include <assert.h>
#include <string.h>

int cfg_block_index(const IrFunc *f, const IrBlock *b)
{
    if (!b)
        return -1;
    if (b->id < f->n_blocks && f->blocks[b->id] == b)
        return (int)b->id;
    for (uint32_t i = 0; i < f->n_blocks; i++)
        if (f->blocks[i] == b)
            return (int)i;
    return -1;
}

static void add_edge(IrCfg *cfg, Arena *scratch, uint32_t from, int to)
{
    if (to < 0)
        return;
    uint32_t t = (uint32_t)to;
    cfg->preds[t] = ir_grow(scratch, cfg->preds[t], cfg->n_preds[t], sizeof **cfg->preds);
    cfg->preds[t][cfg->n_preds[t]++] = from;
}

static void build_edges(IrCfg *cfg, const IrFunc *f, Arena *scratch)
{
    for (uint32_t b = 0; b < cfg->n; b++) {
        const IrBlock *block = f->blocks[b];
        const IrInst *last = block->n_insts ? block->insts[block->n_insts - 1] : NULL;
        cfg->succ[b][0] = cfg->succ[b][1] = -1;
        if (last && (last->op == IR_BR || last->op == IR_CBR))
            cfg->succ[b][0] = cfg_block_index(f, last->target[0]);
        if (last && last->op == IR_CBR) {
            cfg->succ[b][1] = cfg_block_index(f, last->target[1]);
            if (cfg->succ[b][1] == cfg->succ[b][0])
                cfg->succ[b][1] = -1;
        }
        add_edge(cfg, scratch, b, cfg->succ[b][0]);
        add_edge(cfg, scratch, b, cfg->succ[b][1]);
    }
}

/* Fills cfg->rpo and cfg->n_reachable. */
static void reverse_postorder(IrCfg *cfg, Arena *scratch)
{
    uint32_t n = cfg->n, depth = 0, done = n;
    uint32_t *stack = ARENA_ARRAY(scratch, uint32_t, n);
    int *next_succ = ARENA_ARRAY(scratch, int, n);
    bool *seen = ARENA_ARRAY(scratch, bool, n);
    cfg->rpo = ARENA_ARRAY(scratch, uint32_t, n);
    stack[depth++] = 0;
    seen[0] = true;
    while (depth) {
        uint32_t b = stack[depth - 1];
        if (next_succ[b] < 2) {
            int to = cfg->succ[b][next_succ[b]++];
            if (to >= 0 && !seen[to]) {
                seen[to] = true;
                stack[depth++] = (uint32_t)to;
            }
            continue;
        }
        cfg->rpo[--done] = b; /* postorder, filled from the back */
        depth--;
    }
    memmove(cfg->rpo, cfg->rpo + done, (n - done) * sizeof *cfg->rpo);
    cfg->n_reachable = n - done;
}

static int intersect(const IrCfg *cfg, int a, int b)
{
    while (a != b) {
        while (cfg->rpo_num[a] > cfg->rpo_num[b])
            a = cfg->idom[a];
        while (cfg->rpo_num[b] > cfg->rpo_num[a])
            b = cfg->idom[b];
    }
    return a;
}

static void compute_idom(IrCfg *cfg)
{
    for (uint32_t i = 0; i < cfg->n_reachable; i++)
        cfg->rpo_num[cfg->rpo[i]] = i;
    cfg->idom[0] = 0;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t i = 1; i < cfg->n_reachable; i++) {
            uint32_t b = cfg->rpo[i];
            int new_idom = -1;
            for (uint32_t k = 0; k < cfg->n_preds[b]; k++) {
                int p = (int)cfg->preds[b][k];
                if (cfg->idom[p] >= 0)
                    new_idom = new_idom < 0 ? p : intersect(cfg, p, new_idom);
            }
            if (new_idom != cfg->idom[b]) {
                cfg->idom[b] = new_idom;
                changed = true;
            }
        }
    }
}

static void collect_children(IrCfg *cfg, Arena *scratch)
{
    for (uint32_t i = 1; i < cfg->n_reachable; i++) {
        uint32_t b = cfg->rpo[i], parent = (uint32_t)cfg->idom[b];
        cfg->children[parent] =
            ir_grow(scratch, cfg->children[parent], cfg->n_children[parent], sizeof **cfg->children);
        cfg->children[parent][cfg->n_children[parent]++] = b;
    }
}

/* Numbers the dominator tree's blocks in one walk with an explicit stack:
 * enter[b] on the way in, leave[b] after all that b dominates. */
static void number_dominator_tree(IrCfg *cfg, Arena *scratch)
{
    uint32_t n = cfg->n, clock = 0, depth = 0;
    cfg->enter = ARENA_ARRAY(scratch, uint32_t, n);
    cfg->leave = ARENA_ARRAY(scratch, uint32_t, n);
    uint32_t *stack = ARENA_ARRAY(scratch, uint32_t, n), *next_child = ARENA_ARRAY(scratch, uint32_t, n);
    if (cfg->n_reachable == 0)
        return;
    stack[depth++] = cfg->rpo[0];
    cfg->enter[cfg->rpo[0]] = clock++;
    while (depth) {
        uint32_t b = stack[depth - 1];
        if (next_child[b] < cfg->n_children[b]) {
            uint32_t child = cfg->children[b][next_child[b]++];
            cfg->enter[child] = clock++;
            stack[depth++] = child;
        } else {
            cfg->leave[b] = clock++;
            depth--;
        }
    }
}

IrCfg *cfg_build(const IrFunc *f, Arena *scratch)
{
    assert(f->n_blocks > 0);
    IrCfg *cfg = ARENA_NEW(scratch, IrCfg);
    uint32_t n = cfg->n = f->n_blocks;
    cfg->succ = arena_alloc(scratch, n, sizeof *cfg->succ);
    cfg->preds = ARENA_ARRAY(scratch, uint32_t *, n);
    cfg->n_preds = ARENA_ARRAY(scratch, uint32_t, n);
    cfg->rpo_num = ARENA_ARRAY(scratch, uint32_t, n);
    cfg->idom = ARENA_ARRAY(scratch, int, n);
    cfg->children = ARENA_ARRAY(scratch, uint32_t *, n);
    cfg->n_children = ARENA_ARRAY(scratch, uint32_t, n);
    for (uint32_t b = 0; b < n; b++)
        cfg->idom[b] = -1;
    build_edges(cfg, f, scratch);
    reverse_postorder(cfg, scratch);
    compute_idom(cfg);
    collect_children(cfg, scratch);
    number_dominator_tree(cfg, scratch);
    return cfg;
}

/* Adds to the body what reaches `tail` without passing the header. */
static void add_back_edge(const IrCfg *cfg, IrLoop *loop, uint32_t *work, uint32_t tail)
{
    uint32_t n_work = 0;
    if (!loop->body[tail]) {
        loop->body[tail] = true;
        work[n_work++] = tail;
    }
    while (n_work) {
        uint32_t b = work[--n_work];
        for (uint32_t k = 0; k < cfg->n_preds[b]; k++) {
            uint32_t p = cfg->preds[b][k];
            if (!loop->body[p] && cfg_reachable(cfg, p)) {
                loop->body[p] = true;
                work[n_work++] = p;
            }
        }
    }
}

uint32_t cfg_find_loops(const IrCfg *cfg, uint32_t room, Arena *scratch, IrLoop **loops)
{
    assert(room >= cfg->n);
    uint32_t n_loops = 0, *work = ARENA_ARRAY(scratch, uint32_t, cfg->n);
    *loops = ARENA_ARRAY(scratch, IrLoop, cfg->n);
    for (uint32_t i = 0; i < cfg->n_reachable; i++) {
        uint32_t h = cfg->rpo[i];
        IrLoop loop = {.header = h};
        for (uint32_t k = 0; k < cfg->n_preds[h]; k++) {
            uint32_t t = cfg->preds[h][k];
            if (!cfg_reachable(cfg, t) || !cfg_dominates(cfg, h, t))
                continue;
            if (!loop.body) {
                loop.body = ARENA_ARRAY(scratch, bool, room);
                loop.body[h] = true;
            }
            add_back_edge(cfg, &loop, work, t);
        }
        if (!loop.body)
            continue;
        for (uint32_t b = 0; b < cfg->n; b++)
            loop.size += loop.body[b];
        (*loops)[n_loops++] = loop;
    }
    return n_loops;
}

bool cfg_reachable(const IrCfg *cfg, uint32_t b)
{
    return b < cfg->n && cfg->idom[b] >= 0;
}

bool cfg_dominates(const IrCfg *cfg, uint32_t a, uint32_t b)
{
    assert(cfg_reachable(cfg, a) && cfg_reachable(cfg, b));
    return cfg->enter[a] <= cfg->enter[b] && cfg->leave[b] <= cfg->leave[a];
}
