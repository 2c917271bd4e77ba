/*
 * ir_live.c: the registers live out of each block (ir_live.h).
 *
 * Each register's live range is found alone, by walking back from each of
 * its uses through the predecessors until its definition, so the work is
 * the size of the live ranges: bit sets of every register for every block
 * (an iteration to a fixed point over them) made 20,000 ifs cost 4 s and
 * 675 MB in the register estimate, and 100,000 chained `&&` not finish.
 * The walks run register by register and their (block, register) pairs
 * are then sorted by block, stably, so each block's list comes out in
 * increasing register order, whatever the blocks' order.
 */
#include "ir_live.h"

#include <string.h>

enum { NONE = UINT32_MAX };

/* A use of a register's root: at position `pos` of block `block`, or, for
 * a phi's operand, on the edge out of `block` (pos NONE). */
typedef struct Use {
    uint32_t block, pos;
} Use;

typedef struct Liveness {
    const IrFunc *f;
    Arena *scratch;
    uint32_t n_blocks;
    const uint32_t *root;          /* by register: what a use of it keeps live; NULL: itself */
    uint32_t *index;               /* by block id: the block's position in f->blocks */
    uint32_t max_id;
    uint32_t *def_block, *def_pos; /* by register: where it is defined (NONE: a parameter) */
    uint32_t *pred_first, *preds;  /* by block position: its predecessors, preds[first[b]..first[b + 1]) */
    uint32_t *use_first;           /* by register: its uses, uses[use_first[r]..use_first[r + 1]) */
    uint32_t *use_next;            /* (while the uses are placed) */
    Use *uses;
    uint32_t *out_first, *out_regs; /* by block position: the registers live out of it */
} Liveness;

static void fill_index(Liveness *lv)
{
    uint32_t max_id = 0;
    for (uint32_t b = 0; b < lv->f->n_blocks; b++)
        if (lv->f->blocks[b]->id > max_id)
            max_id = lv->f->blocks[b]->id;
    lv->max_id = max_id;
    lv->index = ARENA_ARRAY(lv->scratch, uint32_t, (size_t)max_id + 1);
    for (uint32_t b = 0; b < lv->f->n_blocks; b++)
        lv->index[lv->f->blocks[b]->id] = b;
}

/* Where each register is defined: block and position (a parameter, or a
 * register nothing defines, is live from the entry up). */
static void fill_definitions(Liveness *lv)
{
    const IrFunc *f = lv->f;
    lv->def_block = ARENA_ARRAY(lv->scratch, uint32_t, f->n_regs + 1);
    lv->def_pos = ARENA_ARRAY(lv->scratch, uint32_t, f->n_regs + 1);
    memset(lv->def_block, 0xff, (f->n_regs + 1) * sizeof *lv->def_block); /* NONE */
    for (uint32_t b = 0; b < f->n_blocks; b++)
        for (uint32_t i = 0; i < f->blocks[b]->n_insts; i++) {
            const IrInst *in = f->blocks[b]->insts[i];
            if (ir_op_defines(in->op) && in->result < f->n_regs) {
                lv->def_block[in->result] = b;
                lv->def_pos[in->result] = i;
            }
        }
}

/* The successors of block b: its branch's targets, one for a cbr whose
 * two targets are one block.  Returns how many (0 to 2). */
static uint32_t successors(const Liveness *lv, uint32_t b, uint32_t succ[2])
{
    const IrBlock *block = lv->f->blocks[b];
    const IrInst *term = block->n_insts ? block->insts[block->n_insts - 1] : NULL;
    if (!term || (term->op != IR_BR && term->op != IR_CBR))
        return 0;
    succ[0] = lv->index[term->target[0]->id];
    if (term->op != IR_CBR || term->target[1] == term->target[0])
        return 1;
    succ[1] = lv->index[term->target[1]->id];
    return 2;
}

/* Turns counts by key (first[k + 1]) into the start of each key's run. */
static void count_to_offsets(uint32_t *first, uint32_t keys)
{
    for (uint32_t k = 0; k < keys; k++)
        first[k + 1] += first[k];
}

static void fill_predecessors(Liveness *lv)
{
    uint32_t n = lv->n_blocks, succ[2];
    lv->pred_first = ARENA_ARRAY(lv->scratch, uint32_t, n + 1);
    for (uint32_t b = 0; b < n; b++)
        for (uint32_t k = successors(lv, b, succ); k-- > 0;)
            lv->pred_first[succ[k] + 1]++;
    count_to_offsets(lv->pred_first, n);
    uint32_t *next = ARENA_ARRAY(lv->scratch, uint32_t, n + 1);
    memcpy(next, lv->pred_first, (n + 1) * sizeof *next);
    lv->preds = ARENA_ARRAY(lv->scratch, uint32_t, lv->pred_first[n] + 1);
    for (uint32_t b = 0; b < n; b++)
        for (uint32_t k = successors(lv, b, succ); k-- > 0;)
            lv->preds[next[succ[k]]++] = b;
}

/* The block position of `from` when it is a block of f whose branch
 * leads to block position `to`, else NONE: a phi's operand is used on
 * that edge, and only a real edge counts. */
static uint32_t edge_source(const Liveness *lv, const IrBlock *from, uint32_t to)
{
    if (!from || from->id > lv->max_id || lv->f->blocks[lv->index[from->id]] != from)
        return NONE;
    uint32_t b = lv->index[from->id], succ[2];
    for (uint32_t k = successors(lv, b, succ); k-- > 0;)
        if (succ[k] == to)
            return b;
    return NONE;
}

/* Calls `visit` for each use of a register below n_regs: every operand
 * of an instruction but a phi, and the operands of the phis that lead a
 * block, on their edges (a phi further down uses nothing, as a backward
 * walk that stops at a phi would see it). */
typedef void UseVisit(Liveness *lv, uint32_t root, Use use);

static void each_use(Liveness *lv, UseVisit *visit)
{
    const IrFunc *f = lv->f;
    for (uint32_t b = 0; b < f->n_blocks; b++) {
        const IrBlock *block = f->blocks[b];
        bool leading = true;
        for (uint32_t i = 0; i < block->n_insts; i++) {
            const IrInst *in = block->insts[i];
            leading &= in->op == IR_PHI;
            if (in->op == IR_PHI && !leading)
                continue;
            for (uint32_t k = 0; k < in->n_operands; k++) {
                const IrValue *v = &in->operands[k];
                if (v->kind != IRV_REG || v->reg >= f->n_regs)
                    continue;
                Use use = {b, i};
                if (in->op == IR_PHI && (use.block = edge_source(lv, in->incoming[k], b)) == NONE)
                    continue;
                if (in->op == IR_PHI)
                    use.pos = NONE;
                visit(lv, lv->root ? lv->root[v->reg] : v->reg, use);
            }
        }
    }
}

static void count_use(Liveness *lv, uint32_t root, Use use)
{
    (void)use;
    lv->use_first[root + 1]++;
}

static void place_use(Liveness *lv, uint32_t root, Use use)
{
    lv->uses[lv->use_next[root]++] = use;
}

/* The uses of each root register, together (counted, then placed). */
static void fill_uses(Liveness *lv)
{
    uint32_t n = lv->f->n_regs;
    lv->use_first = ARENA_ARRAY(lv->scratch, uint32_t, n + 1);
    each_use(lv, count_use);
    count_to_offsets(lv->use_first, n);
    lv->use_next = ARENA_ARRAY(lv->scratch, uint32_t, n + 1);
    memcpy(lv->use_next, lv->use_first, (n + 1) * sizeof *lv->use_next);
    lv->uses = ARENA_ARRAY(lv->scratch, Use, lv->use_first[n] + 1);
    each_use(lv, place_use);
}

/* ---- the live ranges ------------------------------------------------------- */

/* One register's live range, found by walking back from each of its uses
 * to its definition: the blocks it is live into and out of, each marked
 * with the register's stamp so it is visited once. */
typedef struct Walk {
    Liveness *lv;
    uint32_t reg, stamp;
    uint32_t *in_stamp, *out_stamp; /* by block position */
    uint32_t *work, n_work;         /* blocks it became live into, their predecessors next */
    uint32_t *out_pairs, n_pairs;   /* (block, register) live-out, two words each */
} Walk;

static void live_into(Walk *w, uint32_t b)
{
    if (w->in_stamp[b] == w->stamp)
        return;
    w->in_stamp[b] = w->stamp;
    w->work[w->n_work++] = b;
}

static void live_out_of(Walk *w, uint32_t b)
{
    if (w->out_stamp[b] == w->stamp)
        return;
    w->out_stamp[b] = w->stamp;
    w->out_pairs = ir_grow(w->lv->scratch, w->out_pairs, w->n_pairs, 2 * sizeof *w->out_pairs);
    w->out_pairs[2 * w->n_pairs] = b;
    w->out_pairs[2 * w->n_pairs++ + 1] = w->reg;
    if (w->lv->def_block[w->reg] != b)
        live_into(w, b);
}

/* A use in the block that defines the register, below the definition,
 * needs nothing from above; any other makes it live into the block. */
static void walk_register(Walk *w, uint32_t reg)
{
    const Liveness *lv = w->lv;
    w->reg = reg;
    w->stamp = reg + 1;
    for (uint32_t u = lv->use_first[reg]; u < lv->use_first[reg + 1]; u++) {
        Use use = lv->uses[u];
        if (use.pos == NONE)
            live_out_of(w, use.block);
        else if (lv->def_block[reg] != use.block || lv->def_pos[reg] > use.pos)
            live_into(w, use.block);
        while (w->n_work) {
            uint32_t b = w->work[--w->n_work];
            for (uint32_t p = lv->pred_first[b]; p < lv->pred_first[b + 1]; p++)
                live_out_of(w, lv->preds[p]);
        }
    }
}

/* Every block's live-out set, as lists: the walks' pairs sorted by block. */
static void fill_live_out(Liveness *lv)
{
    uint32_t n = lv->n_blocks;
    Walk w = {.lv = lv};
    w.in_stamp = ARENA_ARRAY(lv->scratch, uint32_t, n);
    w.out_stamp = ARENA_ARRAY(lv->scratch, uint32_t, n);
    w.work = ARENA_ARRAY(lv->scratch, uint32_t, n);
    for (uint32_t r = 0; r < lv->f->n_regs; r++)
        walk_register(&w, r);
    lv->out_first = ARENA_ARRAY(lv->scratch, uint32_t, n + 1);
    for (uint32_t i = 0; i < w.n_pairs; i++)
        lv->out_first[w.out_pairs[2 * i] + 1]++;
    count_to_offsets(lv->out_first, n);
    uint32_t *next = ARENA_ARRAY(lv->scratch, uint32_t, n + 1);
    memcpy(next, lv->out_first, (n + 1) * sizeof *next);
    lv->out_regs = ARENA_ARRAY(lv->scratch, uint32_t, w.n_pairs + 1);
    for (uint32_t i = 0; i < w.n_pairs; i++)
        lv->out_regs[next[w.out_pairs[2 * i]]++] = w.out_pairs[2 * i + 1];
}

IrLive *ir_live_build(const IrFunc *f, const uint32_t *root, Arena *scratch)
{
    IrLive *live = ARENA_ARRAY(scratch, IrLive, 1);
    live->n_blocks = f->n_blocks;
    if (f->n_blocks == 0) {
        live->out_first = ARENA_ARRAY(scratch, uint32_t, 1);
        live->out_regs = ARENA_ARRAY(scratch, uint32_t, 1);
        return live;
    }
    Liveness lv = {.f = f, .scratch = scratch, .n_blocks = f->n_blocks, .root = root};
    fill_index(&lv);
    fill_definitions(&lv);
    fill_predecessors(&lv);
    fill_uses(&lv);
    fill_live_out(&lv);
    live->out_first = lv.out_first;
    live->out_regs = lv.out_regs;
    return live;
}
