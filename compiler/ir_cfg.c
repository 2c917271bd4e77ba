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
 * Natural loops are found from the back edges (edges to a dominator), as
 * a tree with each block's innermost loop, so "does loop L hold block b"
 * is also one comparison of intervals.
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

/* ---- loops --------------------------------------------------------------------- */

static bool is_back_edge(const IrCfg *cfg, uint32_t tail, uint32_t header)
{
    return cfg_reachable(cfg, tail) && cfg_dominates(cfg, header, tail);
}

bool cfg_loop_header(const IrCfg *cfg, uint32_t b)
{
    if (!cfg_reachable(cfg, b))
        return false;
    for (uint32_t k = 0; k < cfg->n_preds[b]; k++)
        if (is_back_edge(cfg, cfg->preds[b][k], b))
            return true;
    return false;
}

/* The bodies are found one loop at a time, each block marked with the
 * loop that reached it last: one flag per block for every loop made 2,000
 * loops take 185 MB and their scans quadratic time. */
typedef struct LoopFinder {
    const IrCfg *cfg;
    IrLoops *loops;
    uint32_t *mark; /* by block: 1 + the last loop whose body it joined */
    uint32_t *work;
} LoopFinder;

/* Adds to loop l what reaches `tail` without passing its header (marked
 * already); returns how many blocks joined. */
static uint32_t add_back_edge(LoopFinder *lf, uint32_t l, uint32_t tail)
{
    const IrCfg *cfg = lf->cfg;
    uint32_t n_work = 0, joined = 0;
    if (lf->mark[tail] != l + 1) {
        lf->mark[tail] = l + 1;
        lf->work[n_work++] = tail;
    }
    while (n_work) {
        uint32_t b = lf->work[--n_work];
        lf->loops->innermost[b] = (int)l; /* a later loop holding b lies inside l */
        joined++;
        for (uint32_t k = 0; k < cfg->n_preds[b]; k++) {
            uint32_t p = cfg->preds[b][k];
            if (lf->mark[p] != l + 1 && cfg_reachable(cfg, p)) {
                lf->mark[p] = l + 1;
                lf->work[n_work++] = p;
            }
        }
    }
    return joined;
}

/* The loop of header h, inside the innermost loop found so far that
 * holds h (the loops are found outermost first). */
static void find_body(LoopFinder *lf, uint32_t h)
{
    IrLoops *loops = lf->loops;
    uint32_t l = loops->n++;
    IrLoop *loop = &loops->loop[l];
    *loop = (IrLoop){.header = h, .parent = loops->innermost[h], .size = 1};
    lf->mark[h] = l + 1;
    loops->innermost[h] = (int)l;
    for (uint32_t k = 0; k < lf->cfg->n_preds[h]; k++)
        if (is_back_edge(lf->cfg, lf->cfg->preds[h][k], h))
            loop->size += add_back_edge(lf, l, lf->cfg->preds[h][k]);
}

/* Numbers the loop tree in preorder, each loop's interval holding those
 * inside it.  A parent comes before its children in the array, so the
 * subtree sizes are summed backward and the numbers handed out forward. */
static void number_loop_tree(IrLoops *loops, Arena *scratch)
{
    uint32_t *next = ARENA_ARRAY(scratch, uint32_t, loops->n + 1), roots = 0;
    for (uint32_t l = loops->n; l-- > 0;) {
        IrLoop *loop = &loops->loop[l];
        loop->leave += 1; /* the subtree's size, for now */
        if (loop->parent >= 0)
            loops->loop[loop->parent].leave += loop->leave;
    }
    for (uint32_t l = 0; l < loops->n; l++) {
        IrLoop *loop = &loops->loop[l];
        uint32_t *slot = loop->parent >= 0 ? &next[loop->parent] : &roots;
        loop->enter = *slot;
        *slot += loop->leave;
        loop->leave += loop->enter;
        next[l] = loop->enter + 1;
    }
}

/* Each loop's blocks in reverse postorder: each block goes to its
 * innermost loop and every loop around that one. */
static void list_blocks(const IrCfg *cfg, IrLoops *loops, Arena *scratch)
{
    uint32_t total = 0;
    for (uint32_t l = 0; l < loops->n; l++)
        total += loops->loop[l].size;
    uint32_t *all = ARENA_ARRAY(scratch, uint32_t, total ? total : 1);
    uint32_t *filled = ARENA_ARRAY(scratch, uint32_t, loops->n + 1);
    for (uint32_t l = 0, at = 0; l < loops->n; l++) {
        loops->loop[l].blocks = all + at;
        at += loops->loop[l].size;
    }
    for (uint32_t i = 0; i < cfg->n_reachable; i++) {
        uint32_t b = cfg->rpo[i];
        for (int l = loops->innermost[b]; l >= 0; l = loops->loop[l].parent)
            loops->loop[l].blocks[filled[l]++] = b;
    }
}

IrLoops *cfg_find_loops(const IrCfg *cfg, uint32_t room, Arena *scratch)
{
    assert(room >= cfg->n);
    IrLoops *loops = ARENA_NEW(scratch, IrLoops);
    loops->loop = ARENA_ARRAY(scratch, IrLoop, cfg->n);
    loops->innermost = ARENA_ARRAY(scratch, int, room);
    for (uint32_t b = 0; b < room; b++)
        loops->innermost[b] = -1;
    LoopFinder lf = {cfg, loops, ARENA_ARRAY(scratch, uint32_t, cfg->n), ARENA_ARRAY(scratch, uint32_t, cfg->n)};
    for (uint32_t i = 0; i < cfg->n_reachable; i++)
        if (cfg_loop_header(cfg, cfg->rpo[i]))
            find_body(&lf, cfg->rpo[i]);
    number_loop_tree(loops, scratch);
    list_blocks(cfg, loops, scratch);
    return loops;
}

bool cfg_loop_holds(const IrLoops *loops, uint32_t loop, uint32_t b)
{
    int inner = loops->innermost[b];
    return inner >= 0 && loops->loop[loop].enter <= loops->loop[inner].enter &&
           loops->loop[inner].enter < loops->loop[loop].leave;
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
