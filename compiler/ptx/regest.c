/*
 * regest.c: a kernel's resources estimated from the IR (regest.h).
 *
 * Registers.  A liveness analysis per function (ir_live.c, shared with
 * the CPU backend): a register is live out of a block when a path from
 * the block's end reaches a use of it without passing its definition, and
 * a phi's operand is used on its edge, at the end of the predecessor (the
 * phi's result is defined at the top of its block); a use of a
 * rematerialized value counts as a use of its root (below).  Then each
 * block is walked backward from its live-out, and the pressure at each
 * instruction is the larger of what is live before it and what is live
 * after it plus its result (a result nobody reads still needs a register
 * for a moment).
 *
 * Units are 32-bit registers, as ptxas counts them:
 *   - i64 and f64 take two (a pair of 32-bit registers);
 *   - i8, i16, f16, i32, f32 take one (PTX keeps sub-word values in full
 *     32-bit registers; ptxas does not pack two f16 into one unless the
 *     code uses f16x2, which ours never does);
 *   - i1 takes none: a predicate lives in one of the 7 predicate
 *     registers (P0-P6), a separate file that is not part of ptxas's
 *     "Used N registers";
 *   - a kernel parameter counts as its type does, from the entry to its
 *     last use.  ptxas could read it from constant bank 0 at each use
 *     instead, but it mostly loads a parameter it uses more than once into
 *     registers (the 64-bit tensor addresses above all); counting them
 *     lowered the mean absolute error on the programs measured below
 *     from 3.9 to 1.9 registers on the unoptimised IR, and from about 2.7
 *     (with the best overhead refitted) to 2.4 on the optimised IR;
 *   - constants take none: they are immediates;
 *   - an offset made of one value and constants (index + 1, row * 48,
 *     widened, shifted) takes none of its own: ptxas recomputes it, or
 *     folds it into an address, where it is used, so a use of it keeps
 *     its root value live instead (rematerialized, below).
 *
 * Expansions.  IEEE division and square root and integer division become
 * sequences or subroutines in SASS whose temporaries are live with the
 * operands: expansion_units says how many, measured one by one.
 *
 * The overhead.  ptxas needs registers the IR does not show beyond those:
 * the temporaries of a 64-bit address formed from a 32-bit index, live
 * together with the values they combine; and whatever a kernel of any
 * size gets (ptxas reports 8 or more registers for a kernel that only
 * stores two constants, and on sm_90 about 10-12 for the smallest real
 * kernels).  So the estimate is the peak plus REGEST_OVERHEAD (2: one
 * 64-bit temporary pair), and at least REGEST_FLOOR (10).  Both were
 * fitted, with the choices above, to ptxas 13.0 for sm_90 on every kernel
 * of tests/golden/seeds and tests/golden/programs that compiles, plus
 * tests/data/silk/pressure.silk (32 kernels, the optimised IR of
 * 2026-11-29; tests/cli/regest_table.sh prints the table).  Measured error
 * (estimate - ptxas): 24 of 32 within 2 registers, mean absolute 2.3,
 * from -8 (tile_gemm: 40 for 48, whose constant-trip inner loops ptxas
 * unrolls, keeping the loads of several iterations in flight, which no
 * liveness of the rolled loop can see) to +5 (dot_product: 17 for 12,
 * where ptxas strength-reduces the indexed addresses of its loop to
 * pointers); the 48-float pressure kernel 60 for 56.  Other targets come
 * out worse, as ptxas allocates differently there: mean absolute error
 * 2.8 for sm_80, 4.3 for sm_75, 4.0 for sm_120.  ptxas's own
 * optimisations (it folds, reorders, unrolls and rematerialises) are the
 * rest of the error, in both directions.
 *
 * A kernel under .maxnreg (or a .reqntid/.minnctapersm bound) is
 * estimated at that limit, and what passes it as spilled: 4 bytes stored,
 * loaded and of stack frame per register over (ptxas spills more:
 * pressure.silk's `squeezed`, 28 over 32, is estimated at 112 bytes
 * stored; ptxas stores 320 and loads 392).
 *
 * Static shared memory is exact (ir_static_smem): the arrays a kernel addresses, laid out
 * in module order at their alignments, which is what ptxas reports for
 * every golden program.  Barriers: 1 when the kernel has a bar.sync (all
 * of ours use barrier 0), else 0.  No IR construct uses local memory, so
 * the stack frame is 0 but for estimated spills.
 */
#include "regest.h"

#include "ir_live.h"

#include <assert.h>
#include <stdint.h>
#include <string.h>

enum {
    REGEST_FLOOR = 10,         /* the least the estimate says: see above */
    MAX_REGISTERS = 255,       /* per thread, every target from sm_75 on */
    SM_REGISTERS = 64 * 1024,  /* per SM, every target from sm_75 on */
    WARP_ALLOCATION = 8,       /* per thread: 256 registers per warp */
};

/* ---- the tables ------------------------------------------------------------ */

typedef struct Liveness {
    const IrFunc *f;
    Arena *scratch;
    int *units;          /* by register: 32-bit units it takes while live */
    uint32_t *root;      /* by register: what a use of it keeps live (see remat) */
    const IrLive *live;  /* each block's live-out, of the roots (ir_live.h) */
} Liveness;

static int type_units(IrType type)
{
    switch (type) {
    case IRT_VOID: case IRT_I1: return 0;
    case IRT_I64: case IRT_F64: return 2;
    default: return 1;
    }
}

/* Units by register: from each definition's type and each parameter's. */
static void fill_units(Liveness *lv)
{
    const IrFunc *f = lv->f;
    lv->units = ARENA_ARRAY(lv->scratch, int, f->n_regs + 1);
    for (uint32_t b = 0; b < f->n_blocks; b++)
        for (uint32_t i = 0; i < f->blocks[b]->n_insts; i++) {
            const IrInst *in = f->blocks[b]->insts[i];
            if (ir_op_defines(in->op) && in->result < f->n_regs)
                lv->units[in->result] = type_units(in->type);
        }
    for (uint32_t i = 0; i < f->n_params; i++)
        if (f->params[i].reg < f->n_regs)
            lv->units[f->params[i].reg] = type_units(f->params[i].type);
}

/* Whether ptxas recomputes `in` where it is used instead of keeping it:
 * integer arithmetic of one register and constants (an index plus 4, a
 * row times 48, shifted by 2, widened).  The optimiser's CSE shares such
 * offsets between a load and a store far apart, and ptxas undoes that: it
 * folds a constant offset into the address ([R+0x40]) or recomputes it in
 * an instruction.  (Without this, a kernel holding 48 loaded floats was
 * estimated at 154 registers; ptxas uses 56.) */
static bool rematerialized(const IrInst *in)
{
    switch (in->op) {
    case IR_ADD: case IR_SUB: case IR_MUL: case IR_SHL: case IR_LSHR: case IR_ASHR:
    case IR_AND: case IR_OR: case IR_XOR: case IR_ZEXT: case IR_SEXT: case IR_TRUNC:
    case IR_COPY: break;
    default: return false;
    }
    if (in->type == IRT_F16 || in->type == IRT_F32 || in->type == IRT_F64 || in->type == IRT_I1)
        return false;
    int registers = 0;
    for (uint32_t k = 0; k < in->n_operands; k++)
        registers += in->operands[k].kind == IRV_REG;
    return registers == 1;
}

/* root[r]: r itself, or for a rematerialized value the root of its one
 * register operand, which a use then keeps live instead.  Blocks are
 * walked until nothing changes, as a definition may come later in the
 * block order than a use in a loop. */
static void fill_roots(Liveness *lv)
{
    const IrFunc *f = lv->f;
    lv->root = ARENA_ARRAY(lv->scratch, uint32_t, f->n_regs + 1);
    for (uint32_t r = 0; r < f->n_regs; r++)
        lv->root[r] = r;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t b = 0; b < f->n_blocks; b++)
            for (uint32_t i = 0; i < f->blocks[b]->n_insts; i++) {
                const IrInst *in = f->blocks[b]->insts[i];
                if (!rematerialized(in) || in->result >= f->n_regs)
                    continue;
                uint32_t from = 0;
                for (uint32_t k = 0; k < in->n_operands; k++)
                    if (in->operands[k].kind == IRV_REG && in->operands[k].reg < f->n_regs)
                        from = lv->root[in->operands[k].reg];
                if (from != lv->root[in->result] && from != in->result) {
                    lv->root[in->result] = from;
                    changed = true;
                }
            }
    }
}

/* ---- the peak -------------------------------------------------------------- */

/* The registers live at a point of the backward walk of one block, as a
 * sparse set (Briggs and Torczon): adding, removing and testing cost one
 * step, and emptying it none, so a block costs what it holds, not the
 * function's registers.  `units` is what the members take. */
typedef struct LiveSet {
    uint32_t *dense, *sparse, n;
    int units;
} LiveSet;

static bool set_has(const LiveSet *s, uint32_t reg)
{
    uint32_t i = s->sparse[reg];
    return i < s->n && s->dense[i] == reg;
}

static void set_add(const Liveness *lv, LiveSet *s, uint32_t reg)
{
    if (set_has(s, reg))
        return;
    s->sparse[reg] = s->n;
    s->dense[s->n++] = reg;
    s->units += lv->units[reg];
}

static void set_remove(const Liveness *lv, LiveSet *s, uint32_t reg)
{
    if (!set_has(s, reg))
        return;
    uint32_t last = s->dense[--s->n];
    s->dense[s->sparse[reg]] = last;
    s->sparse[last] = s->sparse[reg];
    s->units -= lv->units[reg];
}

/* The registers an instruction needs for itself, beyond its operands,
 * where ptxas expands it into a sequence or a subroutine: IEEE division
 * and square root (div.rn, sqrt.rn: a fast path, a check, a slow path)
 * and integer division.  Measured with ptxas 13.0 for sm_90 as the
 * registers of a kernel doing `a / b` (or `sqrt(a)`, `a % b`) on two
 * loaded values, less those of the same kernel doing `a + b`. */
static int expansion_units(const IrInst *in)
{
    bool wide = in->type == IRT_F64 || in->type == IRT_I64;
    switch (in->op) {
    case IR_FDIV: return wide ? 14 : 7;
    case IR_SQRT: return wide ? 8 : 2;
    case IR_SDIV: case IR_UDIV: case IR_SREM: case IR_UREM: return wide ? 10 : 4;
    default: return 0;
    }
}

/* One instruction walked backward: its result dies above it, its operands
 * (a phi's are on the edges, not here) are live above it. */
static void step_back(const Liveness *lv, LiveSet *live, const IrInst *in)
{
    if (ir_op_defines(in->op) && in->result < lv->f->n_regs)
        set_remove(lv, live, in->result);
    if (in->op == IR_PHI)
        return;
    for (uint32_t k = 0; k < in->n_operands; k++) {
        const IrValue *v = &in->operands[k];
        if (v->kind == IRV_REG && v->reg < lv->f->n_regs)
            set_add(lv, live, lv->root[v->reg]);
    }
}

/* The most units live in block b, walking back from its live-out. */
static int block_peak(const Liveness *lv, uint32_t b, LiveSet *live)
{
    const IrBlock *block = lv->f->blocks[b];
    live->n = 0;
    live->units = 0;
    for (uint32_t i = lv->live->out_first[b]; i < lv->live->out_first[b + 1]; i++)
        set_add(lv, live, lv->live->out_regs[i]);
    int peak = live->units;
    for (uint32_t i = block->n_insts; i-- > 0;) {
        const IrInst *in = block->insts[i];
        bool dead = ir_op_defines(in->op) && in->result < lv->f->n_regs &&
                    lv->root[in->result] == in->result &&
                    !set_has(live, in->result); /* (a rematerialized one is never live) */
        if (dead && live->units + lv->units[in->result] > peak)
            peak = live->units + lv->units[in->result]; /* a dead result, for a moment */
        step_back(lv, live, in);
        /* the operands are live while the expansion's temporaries are */
        if (live->units + expansion_units(in) > peak)
            peak = live->units + expansion_units(in);
    }
    return peak;
}

int regest_live_units(const IrFunc *f, Arena *scratch)
{
    if (f->n_blocks == 0)
        return 0;
    Liveness lv = {.f = f, .scratch = scratch};
    fill_units(&lv);
    fill_roots(&lv);
    lv.live = ir_live_build(f, lv.root, scratch);
    LiveSet live = {ARENA_ARRAY(scratch, uint32_t, f->n_regs + 1),
                    ARENA_ARRAY(scratch, uint32_t, f->n_regs + 1), 0, 0};
    int peak = 0;
    for (uint32_t b = 0; b < f->n_blocks; b++) {
        int p = block_peak(&lv, b, &live);
        if (p > peak)
            peak = p;
    }
    return peak;
}

/* ---- the rest of the usage ---------------------------------------------------- */

int regest_register_cap(const IrFunc *f)
{
    int cap = MAX_REGISTERS;
    if (f->maxnreg > 0 && f->maxnreg < cap)
        cap = f->maxnreg;
    if (f->reqntid > 0 && f->minnctapersm > 0) {
        long threads = ((long)f->reqntid + 31) / 32 * 32 * f->minnctapersm;
        long bound = SM_REGISTERS / threads / WARP_ALLOCATION * WARP_ALLOCATION;
        if (bound < cap)
            cap = bound < REGEST_FLOOR ? REGEST_FLOOR : (int)bound;
    }
    return cap;
}

static bool has_barrier(const IrFunc *f)
{
    for (uint32_t b = 0; b < f->n_blocks; b++)
        for (uint32_t i = 0; i < f->blocks[b]->n_insts; i++)
            if (f->blocks[b]->insts[i]->op == IR_BARRIER)
                return true;
    return false;
}

KernelUsage regest_kernel(const IrModule *m, const IrFunc *f, Arena *arena)
{
    KernelUsage u = {.name = arena_strndup(arena, f->name, strlen(f->name)), .estimated = true};
    Arena *scratch = arena_new_like(arena); /* the liveness tables, dropped here */
    int wanted = regest_live_units(f, scratch) + REGEST_OVERHEAD;
    arena_free(scratch);
    if (wanted < REGEST_FLOOR)
        wanted = REGEST_FLOOR;
    int cap = regest_register_cap(f);
    u.registers = wanted < cap ? wanted : cap;
    if (wanted > cap) {
        u.spill_stores = 4 * (wanted - cap);
        u.spill_loads = 4 * (wanted - cap);
        u.stack_frame = 4 * (wanted - cap);
    }
    uint64_t smem = ir_static_smem(m, f);
    u.static_smem = smem > INT32_MAX ? INT32_MAX : (int)smem;
    u.barriers = has_barrier(f) ? 1 : 0;
    u.max_threads = f->reqntid;
    return u;
}
