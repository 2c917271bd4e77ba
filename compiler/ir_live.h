/*
 * ir_live.h: which registers of a function are live out of each block,
 * for the register estimate (ptx/regest.c, which walks each block back
 * from its live-out to find the peak) and the CPU backend (cpu/cpu_emit.c,
 * which saves at a stop only what is live across it).
 *
 * A register is live out of a block when a path from the block's end
 * reaches a use of it without passing its definition.  A phi's operand is
 * used on its edge, at the end of the predecessor (the phi's result is
 * defined at the top of its block); only the phis that lead a block use
 * anything, and only on a real edge.
 *
 * `root` lets a client count a use of one register as a use of another
 * (regest's rematerialized offsets keep their root value live instead);
 * NULL: each register is its own.
 */
#ifndef SILK_IR_LIVE_H
#define SILK_IR_LIVE_H

#include "arena.h"
#include "ir.h"

typedef struct IrLive {
    uint32_t n_blocks;
    uint32_t *out_first; /* by block position in f->blocks: its live-out registers */
    uint32_t *out_regs;  /* are out_regs[out_first[b] .. out_first[b + 1]), in increasing order */
} IrLive;

/* The live-out sets of `f`'s blocks, all tables in `scratch`.  Registers
 * at or past f->n_regs are ignored.  The work is the size of the live
 * ranges, not blocks times registers: each register's range is walked
 * back from its uses alone. */
IrLive *ir_live_build(const IrFunc *f, const uint32_t *root, Arena *scratch);

#endif
