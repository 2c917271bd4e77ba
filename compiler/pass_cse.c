/*
 * pass_cse.c: common-subexpression elimination over the dominator tree.
 *
 * The tree is walked in preorder (an explicit stack: deep trees must not
 * overflow the C stack).  The instructions available at a block are those
 * of the blocks that dominate it, kept on one stack that is cut back when
 * the walk leaves a subtree, so an instruction is only ever merged into
 * one that dominates it: two alike in sibling branches stay apart.  A pure
 * instruction (pass_pure: no memory, no phi, no shfl or ballot, no
 * warpid) equal to an available one (same opcode, type, predicate or
 * special register or symbol, and operands, either order for the
 * commutative ones) is deleted and its uses read the earlier one, unless
 * a loop lies between the two: the merged value would then be live across
 * the whole loop, a register the GPU pays for in occupancy to save an
 * instruction ptxas recomputes cheaply (an unrolled tile copy's addresses
 * took 86 registers instead of 48 that way).
 *
 * Loads are never merged, even with no store between: that needs memory
 * dependence this compiler does not have yet, and a barrier or another
 * thread's store may change what a second load reads.
 *
 * The available instructions are found by a hash of their key
 * (pass_hash_inst): a table of chains through the available stack, the
 * innermost first, so a lookup costs the few entries that share a bucket
 * and leaving a subtree unlinks its entries from their chains' heads (they
 * were pushed last).  A scan of the stack made CSE quadratic: 20,000
 * statements took 3.8 s in this pass alone.
 */
#include "pass_internal.h"

#include <string.h>

/* An available instruction: its block, and the entry below it in the
 * chain of its bucket (UINT32_MAX: none). */
typedef struct Available {
    IrInst *inst;
    uint32_t block;
    uint32_t bucket;
    uint32_t next;
} Available;

typedef struct Cse {
    IrFunc *f;
    IrCfg *cfg;
    IrSubst subst;
    Available *avail; /* the available instructions, innermost block last */
    uint32_t n_avail;
    uint32_t *heads;  /* by bucket: the innermost entry in it, or UINT32_MAX */
    uint32_t mask;    /* buckets - 1 (a power of two) */
    uint32_t *headers_to; /* by rpo position i: the loop headers at positions below i */
    bool changed;
} Cse;

enum { NO_ENTRY = UINT32_MAX };

/* The nearest available instruction equal to `in`, or NULL; *block is its block. */
static IrInst *find_available(const Cse *c, const IrInst *in, uint32_t *block)
{
    uint32_t bucket = pass_hash_inst(in) & c->mask;
    for (uint32_t i = c->heads[bucket]; i != NO_ENTRY; i = c->avail[i].next)
        if (pass_equal_insts(c->avail[i].inst, in)) {
            *block = c->avail[i].block;
            return c->avail[i].inst;
        }
    return NULL;
}

static void make_available(Cse *c, IrInst *in, uint32_t block)
{
    uint32_t bucket = pass_hash_inst(in) & c->mask;
    c->avail[c->n_avail] = (Available){in, block, bucket, c->heads[bucket]};
    c->heads[bucket] = c->n_avail++;
}

/* Back to the first `mark` entries: the ones dropped are their chains'
 * heads, having been pushed after everything below them. */
static void cut_available(Cse *c, uint32_t mark)
{
    while (c->n_avail > mark) {
        const Available *top = &c->avail[--c->n_avail];
        c->heads[top->bucket] = top->next;
    }
}

/* Whether a value of block `from` may stand for one of block `b` (which
 * `from` dominates) without being live across a loop it was not live
 * across before: no loop header lies after `from` and up to b in reverse
 * postorder (a loop around b, or one that runs between them; a loop in a
 * side branch is taken for one, which only loses a merge).  A loop around
 * `from` has its header at or before it, as a header dominates its loop.
 * A value live across a loop is a register the whole loop long, which the
 * GPU pays for in occupancy to save an instruction ptxas would recompute
 * cheaply.  Counted headers answer in one step: asking each loop made a
 * kernel of many loops quadratic. */
static bool no_loop_between(const Cse *c, uint32_t from, uint32_t b)
{
    const uint32_t *rpo_num = c->cfg->rpo_num;
    return c->headers_to[rpo_num[b] + 1] == c->headers_to[rpo_num[from] + 1];
}

/* headers_to[i]: how many loop headers come before rpo position i. */
static uint32_t *count_headers(const IrCfg *cfg, Arena *scratch)
{
    uint32_t *to = ARENA_ARRAY(scratch, uint32_t, cfg->n_reachable + 1);
    for (uint32_t i = 0; i < cfg->n_reachable; i++)
        to[i + 1] = to[i] + cfg_loop_header(cfg, cfg->rpo[i]);
    return to;
}

static void visit_block(Cse *c, uint32_t index, Arena *scratch)
{
    IrBlock *b = c->f->blocks[index];
    bool *dead = ARENA_ARRAY(scratch, bool, b->n_insts ? b->n_insts : 1);
    bool any = false;
    for (uint32_t i = 0; i < b->n_insts; i++) {
        IrInst *in = b->insts[i];
        c->changed |= pass_subst_inst(&c->subst, in);
        if (!pass_pure(in))
            continue;
        uint32_t from;
        IrInst *twin = find_available(c, in, &from);
        if (twin && no_loop_between(c, from, index)) {
            pass_subst_set(&c->subst, in->result, ir_reg(twin));
            dead[i] = any = true;
            continue;
        }
        make_available(c, in, index);
    }
    if (any) {
        pass_delete_insts(b, dead);
        c->changed = true;
    }
}

/* Preorder over the dominator tree; a stack entry with `leaving` set cuts
 * the available stack back to where the block found it. */
static void walk_dominator_tree(Cse *c, Arena *scratch)
{
    typedef struct Step {
        uint32_t block, mark;
        bool leaving;
    } Step;
    Step *stack = ARENA_ARRAY(scratch, Step, 2 * (size_t)c->cfg->n + 1);
    uint32_t depth = 0;
    stack[depth++] = (Step){0, 0, false};
    while (depth) {
        Step step = stack[--depth];
        if (step.leaving) {
            cut_available(c, step.mark);
            continue;
        }
        stack[depth++] = (Step){step.block, c->n_avail, true};
        visit_block(c, step.block, scratch);
        for (uint32_t k = c->cfg->n_children[step.block]; k-- > 0;)
            stack[depth++] = (Step){c->cfg->children[step.block][k], 0, false};
    }
}

bool pass_cse(IrModule *m, IrFunc *f, Arena *scratch)
{
    (void)m;
    uint32_t n_insts = 0;
    for (uint32_t b = 0; b < f->n_blocks; b++)
        n_insts += f->blocks[b]->n_insts;
    Cse c = {.f = f, .cfg = cfg_build(f, scratch), .subst = pass_subst_new(f, scratch)};
    c.avail = ARENA_ARRAY(scratch, Available, n_insts ? n_insts : 1);
    uint32_t buckets = 16;
    while (buckets < 2 * (uint64_t)n_insts) /* at most half full */
        buckets *= 2;
    c.mask = buckets - 1;
    c.heads = ARENA_ARRAY(scratch, uint32_t, buckets);
    memset(c.heads, 0xff, buckets * sizeof *c.heads); /* NO_ENTRY */
    c.headers_to = count_headers(c.cfg, scratch);
    walk_dominator_tree(&c, scratch);
    c.changed |= pass_subst_func(&c.subst, f);
    return c.changed;
}
