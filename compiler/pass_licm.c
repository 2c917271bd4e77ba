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
 *
 * Each loop's work is the size of that loop and of the uses of what it
 * moves, so a kernel of many loops is linear: the tables by register and
 * by block are shared by all the loops, marked with the number of the
 * loop that set them (tables made for each loop, and scans of the whole
 * function for each, made 2,000 loops take most of a second and hundreds
 * of megabytes).
 */
#include "pass_internal.h"

#include <stdlib.h>

enum { MAX_VALUES_KEPT_LIVE = 8 };

typedef struct Licm {
    IrModule *m;
    IrFunc *f;
    IrCfg *cfg;
    IrLoops *loops;    /* innermost with room for the preheaders made */
    Arena *scratch;
    uint32_t room;     /* blocks the tables have room for */
    uint32_t reg_room; /* registers the tables have room for */
    int *def_block;    /* by register (room for the phis made): its block; -1 a parameter */
    int *preheader_of; /* by header: the preheader made for it, or -1 */
    IrInst ***users;   /* by register: the instructions that read it (or once did) */
    uint32_t *n_users;
    uint32_t stamp;    /* 1 + the loop being done: what the tables below say of it */
    uint32_t *moving;  /* by register: stamp when the loop's invariants include it */
    uint32_t *counted; /* by register: stamp when values_kept_live counted it */
    uint32_t *outside; /* by block: stamp when it enters the loop's header from outside */
} Licm;

static bool moves(const Licm *l, uint32_t reg)
{
    return l->moving[reg] == l->stamp;
}

/* ---- what moves -------------------------------------------------------------- */

static bool invariant_operands(const Licm *l, uint32_t loop, const IrInst *in)
{
    for (uint32_t k = 0; k < in->n_operands; k++) {
        IrValue v = in->operands[k];
        if (v.kind != IRV_REG || moves(l, v.reg))
            continue;
        int d = l->def_block[v.reg];
        if (d >= 0 && cfg_loop_holds(l->loops, loop, (uint32_t)d))
            return false;
    }
    return true;
}

/* The loop's blocks in reverse postorder, each new preheader just before
 * its header; `order` has room for twice the loop's blocks. */
static uint32_t loop_blocks(const Licm *l, uint32_t loop, uint32_t *order)
{
    const IrLoop *lp = &l->loops->loop[loop];
    uint32_t n = 0;
    for (uint32_t i = 0; i < lp->size; i++) {
        uint32_t b = lp->blocks[i];
        int ph = l->preheader_of[b];
        if (ph >= 0 && cfg_loop_holds(l->loops, loop, (uint32_t)ph))
            order[n++] = (uint32_t)ph;
        order[n++] = b;
    }
    return n;
}

/* Marks what leaves the loop (l->moving); returns them, *n_moved of them. */
static uint32_t *choose_moves(Licm *l, uint32_t loop, uint32_t *n_moved)
{
    uint32_t *order = ARENA_ARRAY(l->scratch, uint32_t, 2 * l->loops->loop[loop].size);
    uint32_t n = loop_blocks(l, loop, order), *moved = NULL;
    *n_moved = 0;
    for (uint32_t i = 0; i < n; i++) {
        const IrBlock *b = l->f->blocks[order[i]];
        for (uint32_t k = 0; k < b->n_insts; k++) {
            const IrInst *in = b->insts[k];
            if (pass_pure(in) && !pass_may_trap(in) && invariant_operands(l, loop, in)) {
                l->moving[in->result] = l->stamp;
                moved = ir_grow(l->scratch, moved, *n_moved, sizeof *moved);
                moved[(*n_moved)++] = in->result;
            }
        }
    }
    return moved;
}

/* ---- the preheader ------------------------------------------------------------ */

static void retarget(IrInst *term, const IrBlock *from, IrBlock *to)
{
    for (int t = 0; t < 2; t++)
        if (term->target[t] == from)
            term->target[t] = to;
}

static void add_user(Licm *l, uint32_t reg, IrInst *in)
{
    l->users[reg] = ir_grow(l->scratch, l->users[reg], l->n_users[reg], sizeof **l->users);
    l->users[reg][l->n_users[reg]++] = in;
}

static bool enters_from_outside(const Licm *l, const IrBlock *b)
{
    return l->outside[cfg_block_index(l->f, b)] == l->stamp;
}

/* Each phi of the header takes its outside values from `ph`, in the place
 * of the first of them: through a new phi in `ph` when there are several. */
static void split_phis(Licm *l, IrBlock *header, IrBlock *ph)
{
    for (uint32_t i = 0; i < header->n_insts && header->insts[i]->op == IR_PHI; i++) {
        IrInst *phi = header->insts[i];
        uint32_t n_out = 0, kept = 0, j = 0;
        for (uint32_t k = 0; k < phi->n_operands; k++)
            n_out += enters_from_outside(l, phi->incoming[k]);
        IrInst *merge = n_out > 1 ? ir_append(l->m, l->f, ph, IR_PHI, phi->type, n_out) : NULL;
        if (merge)
            l->def_block[merge->result] = cfg_block_index(l->f, ph);
        for (uint32_t k = 0; k < phi->n_operands; k++) {
            IrValue v = phi->operands[k];
            if (!enters_from_outside(l, phi->incoming[k])) {
                phi->operands[kept] = v;
                phi->incoming[kept++] = phi->incoming[k];
                continue;
            }
            if (merge) {
                merge->operands[j] = v;
                merge->incoming[j] = phi->incoming[k];
                if (v.kind == IRV_REG)
                    add_user(l, v.reg, merge);
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
static int preheader(Licm *l, uint32_t loop)
{
    IrFunc *f = l->f;
    uint32_t h = l->loops->loop[loop].header, n_out = 0, only = 0;
    IrBlock *header = f->blocks[h];
    for (uint32_t k = 0; k < l->cfg->n_preds[h]; k++) {
        uint32_t p = l->cfg->preds[h][k];
        if (!cfg_loop_holds(l->loops, loop, p)) {
            l->outside[p] = l->stamp;
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
    split_phis(l, header, ph);
    ir_append(l->m, f, ph, IR_BR, IRT_VOID, 0)->target[0] = header;
    for (uint32_t k = 0; k < l->cfg->n_preds[h]; k++) {
        uint32_t p = l->cfg->preds[h][k];
        if (l->outside[p] == l->stamp)
            retarget(f->blocks[p]->insts[f->blocks[p]->n_insts - 1], header, ph);
    }
    l->preheader_of[h] = index;
    l->loops->innermost[index] = l->loops->loop[loop].parent; /* it lies in every loop around this one */
    return index;
}

/* ---- moving ------------------------------------------------------------------------ */

/* Moves the marked instructions, in the order loop_blocks gives, to the
 * end of block `to` before its branch. */
static void move_marked(Licm *l, uint32_t loop, uint32_t to)
{
    IrBlock *dest = l->f->blocks[to];
    uint32_t *order = ARENA_ARRAY(l->scratch, uint32_t, 2 * l->loops->loop[loop].size);
    uint32_t n = loop_blocks(l, loop, order);
    for (uint32_t i = 0; i < n; i++) {
        IrBlock *b = l->f->blocks[order[i]];
        bool *gone = ARENA_ARRAY(l->scratch, bool, b->n_insts);
        for (uint32_t k = 0; k < b->n_insts; k++) {
            IrInst *in = b->insts[k];
            if (!ir_op_defines(in->op) || in->op == IR_PHI || !moves(l, in->result))
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

static bool reads(const IrInst *in, uint32_t reg)
{
    for (uint32_t k = 0; k < in->n_operands; k++)
        if (in->operands[k].kind == IRV_REG && in->operands[k].reg == reg)
            return true;
    return false;
}

/* How many moved values an instruction that stays reads: each is a
 * register live across the whole loop once moved.  Found from the moved
 * values' users, not by a scan of the function. */
static uint32_t values_kept_live(const Licm *l, const uint32_t *moved, uint32_t n_moved)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < n_moved; i++) {
        uint32_t reg = moved[i];
        for (uint32_t u = 0; u < l->n_users[reg] && l->counted[reg] != l->stamp; u++) {
            const IrInst *in = l->users[reg][u];
            if ((ir_op_defines(in->op) && moves(l, in->result)) || !reads(in, reg))
                continue;
            l->counted[reg] = l->stamp;
            n++;
        }
    }
    return n;
}

static bool hoist_loop(Licm *l, uint32_t loop)
{
    l->stamp++;
    uint32_t n_moved;
    uint32_t *moved = choose_moves(l, loop, &n_moved);
    if (n_moved == 0 || values_kept_live(l, moved, n_moved) > MAX_VALUES_KEPT_LIVE)
        return false;
    int to = preheader(l, loop);
    if (to < 0)
        return false;
    move_marked(l, loop, (uint32_t)to);
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
    l->users = ARENA_ARRAY(l->scratch, IrInst **, l->reg_room);
    l->n_users = ARENA_ARRAY(l->scratch, uint32_t, l->reg_room);
    l->moving = ARENA_ARRAY(l->scratch, uint32_t, l->reg_room);
    l->counted = ARENA_ARRAY(l->scratch, uint32_t, l->reg_room);
    l->outside = ARENA_ARRAY(l->scratch, uint32_t, l->room);
    l->preheader_of = ARENA_ARRAY(l->scratch, int, l->room);
    for (uint32_t b = 0; b < l->room; b++)
        l->preheader_of[b] = -1;
    for (uint32_t p = 0; p < f->n_params; p++)
        l->def_block[f->params[p].reg] = -1;
    for (uint32_t b = 0; b < f->n_blocks; b++)
        for (uint32_t i = 0; i < f->blocks[b]->n_insts; i++) {
            IrInst *in = f->blocks[b]->insts[i];
            if (ir_op_defines(in->op))
                l->def_block[in->result] = (int)b;
            for (uint32_t k = 0; k < in->n_operands; k++)
                if (in->operands[k].kind == IRV_REG)
                    add_user(l, in->operands[k].reg, in);
        }
}

/* Smallest first, so an inner loop's invariants reach its preheader,
 * which lies in the outer loop, before the outer loop's turn; the order
 * of two of one size is their headers'. */
typedef struct LoopTurn {
    uint32_t size, header, loop;
} LoopTurn;

static int by_size(const void *a, const void *b)
{
    const LoopTurn *x = a, *y = b;
    if (x->size != y->size)
        return x->size < y->size ? -1 : 1;
    return x->header < y->header ? -1 : x->header > y->header;
}

static LoopTurn *turns(const IrLoops *loops, Arena *scratch)
{
    LoopTurn *t = ARENA_ARRAY(scratch, LoopTurn, loops->n + 1);
    for (uint32_t i = 0; i < loops->n; i++)
        t[i] = (LoopTurn){loops->loop[i].size, loops->loop[i].header, i};
    qsort(t, loops->n, sizeof *t, by_size);
    return t;
}

bool pass_licm(IrModule *m, IrFunc *f, Arena *scratch)
{
    Licm l = {.m = m, .f = f, .cfg = cfg_build(f, scratch), .scratch = scratch};
    init_tables(&l);
    l.loops = cfg_find_loops(l.cfg, l.room, scratch);
    const LoopTurn *order = turns(l.loops, scratch);
    bool changed = false;
    for (uint32_t i = 0; i < l.loops->n; i++)
        changed |= hoist_loop(&l, order[i].loop);
    place_preheaders(&l);
    return changed;
}
