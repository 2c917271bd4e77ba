/*
 * pass_licm.c: loop-invariant code motion.
 *
 * Loops are natural loops: an edge t -> h where h dominates t is a back
 * edge, and the loop of h is h with every block that reaches a back edge's
 * source without passing h (back edges to one header make one loop).
 * Loops are done smallest first, so an inner loop's invariants land in its
 * preheader, which lies in the outer loop, and move on from there when the
 * outer loop's turn comes.
 *
 * An instruction moves when it is pure (pass_pure), cannot trap (no
 * division or remainder: a loop that runs zero times must not divide by
 * the zero it was guarding against), and every operand is a constant or
 * is defined outside the loop or by an instruction that moves.  Blocks are
 * visited in reverse postorder, so a chain of invariants moves together,
 * in order.  Moving a pure instruction whose loop never runs only computes
 * a value nobody reads.
 *
 * The instructions go to the end of the preheader, before its branch: the
 * one outside predecessor of the header when it ends in `br header`,
 * else a new block placed just before the header, which the outside
 * predecessors now branch to.  The header's phis then take one value from
 * it: with several outside predecessors, a phi in the preheader merges
 * their values.  A preheader is made only for a loop with something to
 * move, and never for a loop whose header is the entry.
 *
 * Registers are a GPU's occupancy: every moved value that the loop still
 * reads is live across the whole loop.  A loop whose invariants would keep
 * more than MAX_VALUES_KEPT_LIVE such values keeps them all where they
 * are (an unrolled tile copy's index arithmetic, recomputed cheaply each
 * time, would otherwise take dozens of registers; ptxas then spends them
 * rather than recompute).
 */
#include "pass_internal.h"

#include <stdlib.h>

enum { MAX_VALUES_KEPT_LIVE = 8 };

typedef struct Licm {
    IrModule *m;
    IrFunc *f;
    IrCfg *cfg;
    Arena *scratch;
    uint32_t room;     /* blocks the tables have room for */
    uint32_t reg_room; /* registers the tables have room for */
    int *def_block;    /* by register (room for the phis made): its block; -1 a parameter */
    int *preheader_of; /* by header: the preheader made for it, or -1 */
    IrLoop *loops;     /* bodies with room for the preheaders made */
    uint32_t n_loops;
} Licm;

static int by_size(const void *a, const void *b)
{
    const IrLoop *x = a, *y = b;
    if (x->size != y->size)
        return x->size < y->size ? -1 : 1;
    return x->header < y->header ? -1 : x->header > y->header;
}

/* ---- what moves -------------------------------------------------------------- */

static bool invariant_operands(const Licm *l, const IrLoop *loop, const IrInst *in, const bool *moves)
{
    for (uint32_t k = 0; k < in->n_operands; k++) {
        IrValue v = in->operands[k];
        if (v.kind != IRV_REG || moves[v.reg])
            continue;
        int d = l->def_block[v.reg];
        if (d >= 0 && loop->body[d])
            return false;
    }
    return true;
}

/* The loop's blocks in reverse postorder, each new preheader just before
 * its header. */
static uint32_t loop_blocks(const Licm *l, const IrLoop *loop, uint32_t *order)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < l->cfg->n_reachable; i++) {
        uint32_t b = l->cfg->rpo[i];
        if (!loop->body[b])
            continue;
        int ph = l->preheader_of[b];
        if (ph >= 0 && loop->body[ph])
            order[n++] = (uint32_t)ph;
        order[n++] = b;
    }
    return n;
}

/* Marks in `moves` (by register) what leaves the loop; returns how many. */
static uint32_t choose_moves(const Licm *l, const IrLoop *loop, bool *moves)
{
    uint32_t *order = ARENA_ARRAY(l->scratch, uint32_t, l->room), count = 0;
    uint32_t n = loop_blocks(l, loop, order);
    for (uint32_t i = 0; i < n; i++) {
        const IrBlock *b = l->f->blocks[order[i]];
        for (uint32_t k = 0; k < b->n_insts; k++) {
            const IrInst *in = b->insts[k];
            if (pass_pure(in) && !pass_may_trap(in) && invariant_operands(l, loop, in, moves)) {
                moves[in->result] = true;
                count++;
            }
        }
    }
    return count;
}

/* ---- the preheader ------------------------------------------------------------ */

static void retarget(IrInst *term, const IrBlock *from, IrBlock *to)
{
    for (int t = 0; t < 2; t++)
        if (term->target[t] == from)
            term->target[t] = to;
}

/* Each phi of the header takes its outside values from `ph`, in the place
 * of the first of them: through a new phi in `ph` when there are several. */
static void split_phis(Licm *l, IrBlock *header, IrBlock *ph, const bool *outside)
{
    for (uint32_t i = 0; i < header->n_insts && header->insts[i]->op == IR_PHI; i++) {
        IrInst *phi = header->insts[i];
        uint32_t n_out = 0, kept = 0, j = 0;
        for (uint32_t k = 0; k < phi->n_operands; k++)
            n_out += outside[cfg_block_index(l->f, phi->incoming[k])];
        IrInst *merge = n_out > 1 ? ir_append(l->m, l->f, ph, IR_PHI, phi->type, n_out) : NULL;
        if (merge)
            l->def_block[merge->result] = cfg_block_index(l->f, ph);
        for (uint32_t k = 0; k < phi->n_operands; k++) {
            IrValue v = phi->operands[k];
            if (!outside[cfg_block_index(l->f, phi->incoming[k])]) {
                phi->operands[kept] = v;
                phi->incoming[kept++] = phi->incoming[k];
                continue;
            }
            if (merge) {
                merge->operands[j] = v;
                merge->incoming[j] = phi->incoming[k];
            }
            if (j++ == 0) {
                phi->operands[kept] = merge ? ir_reg(merge) : v;
                phi->incoming[kept++] = ph;
            }
        }
        phi->n_operands = kept;
    }
}

/* The block the loop's invariants go to, made when needed; -1 when the
 * header is the entry. */
static int preheader(Licm *l, const IrLoop *loop)
{
    IrFunc *f = l->f;
    IrBlock *header = f->blocks[loop->header];
    uint32_t n_out = 0, only = 0;
    bool *outside = ARENA_ARRAY(l->scratch, bool, l->room);
    for (uint32_t k = 0; k < l->cfg->n_preds[loop->header]; k++) {
        uint32_t p = l->cfg->preds[loop->header][k];
        if (!loop->body[p]) {
            outside[p] = true;
            only = p;
            n_out++;
        }
    }
    if (n_out == 0)
        return -1;
    IrBlock *pred = f->blocks[only];
    if (n_out == 1 && pred->insts[pred->n_insts - 1]->op == IR_BR)
        return (int)only;
    IrBlock *ph = ir_new_block(l->m, f);
    int index = (int)f->n_blocks - 1;
    split_phis(l, header, ph, outside);
    ir_append(l->m, f, ph, IR_BR, IRT_VOID, 0)->target[0] = header;
    for (uint32_t p = 0; p < l->cfg->n; p++)
        if (outside[p])
            retarget(f->blocks[p]->insts[f->blocks[p]->n_insts - 1], header, ph);
    l->preheader_of[loop->header] = index;
    for (uint32_t i = 0; i < l->n_loops; i++) /* it lies in every loop around this one */
        if (l->loops[i].header != loop->header && l->loops[i].body[loop->header])
            l->loops[i].body[index] = true;
    return index;
}

/* ---- moving ------------------------------------------------------------------------ */

/* Moves the marked instructions, in the order loop_blocks gives, to the
 * end of block `to` before its branch. */
static void move_marked(Licm *l, const IrLoop *loop, const bool *moves, uint32_t to)
{
    IrBlock *dest = l->f->blocks[to];
    uint32_t *order = ARENA_ARRAY(l->scratch, uint32_t, l->room);
    uint32_t n = loop_blocks(l, loop, order);
    for (uint32_t i = 0; i < n; i++) {
        IrBlock *b = l->f->blocks[order[i]];
        bool *gone = ARENA_ARRAY(l->scratch, bool, b->n_insts);
        for (uint32_t k = 0; k < b->n_insts; k++) {
            IrInst *in = b->insts[k];
            if (!ir_op_defines(in->op) || in->op == IR_PHI || !moves[in->result])
                continue;
            gone[k] = true;
            dest->insts = ir_grow(l->m->arena, dest->insts, dest->n_insts, sizeof *dest->insts);
            dest->insts[dest->n_insts] = dest->insts[dest->n_insts - 1]; /* the branch stays last */
            dest->insts[dest->n_insts++ - 1] = in;
            l->def_block[in->result] = (int)to;
        }
        pass_delete_insts(b, gone);
    }
}

/* How many moved values an instruction that stays reads: each is a
 * register live across the whole loop once moved. */
static uint32_t values_kept_live(const Licm *l, const bool *moves)
{
    bool *counted = ARENA_ARRAY(l->scratch, bool, l->reg_room);
    uint32_t n = 0;
    for (uint32_t b = 0; b < l->f->n_blocks; b++)
        for (uint32_t i = 0; i < l->f->blocks[b]->n_insts; i++) {
            const IrInst *in = l->f->blocks[b]->insts[i];
            if (ir_op_defines(in->op) && moves[in->result])
                continue;
            for (uint32_t k = 0; k < in->n_operands; k++) {
                IrValue v = in->operands[k];
                if (v.kind == IRV_REG && moves[v.reg] && !counted[v.reg]) {
                    counted[v.reg] = true;
                    n++;
                }
            }
        }
    return n;
}

static bool hoist_loop(Licm *l, const IrLoop *loop)
{
    bool *moves = ARENA_ARRAY(l->scratch, bool, l->reg_room);
    if (choose_moves(l, loop, moves) == 0 || values_kept_live(l, moves) > MAX_VALUES_KEPT_LIVE)
        return false;
    int to = preheader(l, loop);
    if (to < 0)
        return false;
    move_marked(l, loop, moves, (uint32_t)to);
    return true;
}

/* The blocks in their order, each preheader made just before its header. */
static void place_preheaders(Licm *l)
{
    IrFunc *f = l->f;
    IrBlock **order = ARENA_ARRAY(l->scratch, IrBlock *, f->n_blocks);
    uint32_t n = 0;
    for (uint32_t b = 0; b < l->cfg->n; b++) {
        if (l->preheader_of[b] >= 0)
            order[n++] = f->blocks[l->preheader_of[b]];
        order[n++] = f->blocks[b];
    }
    for (uint32_t b = 0; b < n; b++)
        f->blocks[b] = order[b];
}

static void init_tables(Licm *l)
{
    IrFunc *f = l->f;
    uint32_t n_insts = 0;
    for (uint32_t b = 0; b < f->n_blocks; b++)
        n_insts += f->blocks[b]->n_insts;
    l->room = 2 * f->n_blocks;
    l->reg_room = f->n_regs + n_insts + 1; /* each phi split once at most */
    l->def_block = ARENA_ARRAY(l->scratch, int, l->reg_room);
    l->preheader_of = ARENA_ARRAY(l->scratch, int, l->room);
    for (uint32_t b = 0; b < l->room; b++)
        l->preheader_of[b] = -1;
    for (uint32_t p = 0; p < f->n_params; p++)
        l->def_block[f->params[p].reg] = -1;
    for (uint32_t b = 0; b < f->n_blocks; b++)
        for (uint32_t i = 0; i < f->blocks[b]->n_insts; i++)
            if (ir_op_defines(f->blocks[b]->insts[i]->op))
                l->def_block[f->blocks[b]->insts[i]->result] = (int)b;
}

bool pass_licm(IrModule *m, IrFunc *f, Arena *scratch)
{
    Licm l = {.m = m, .f = f, .cfg = cfg_build(f, scratch), .scratch = scratch};
    init_tables(&l);
    l.n_loops = cfg_find_loops(l.cfg, l.room, scratch, &l.loops);
    qsort(l.loops, l.n_loops, sizeof *l.loops, by_size);
    bool changed = false;
    for (uint32_t i = 0; i < l.n_loops; i++)
        changed |= hoist_loop(&l, &l.loops[i]);
    place_preheaders(&l);
    return changed;
}
