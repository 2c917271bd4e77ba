/*
 * ptx_internal.h: what ptx.c (the module, functions, registers and control
 * flow) and ptx_inst.c (instruction selection) share.  Not for other
 * modules.
 *
 * Register classes: each IR value lives in one PTX virtual register of the
 * class its type needs.  i1 is a predicate; i8, i16 and f16 live in .b16
 * registers, since PTX has no 8-bit registers (an i8's upper byte is left
 * undefined, and the instructions that read it, like division, comparison
 * and right shifts, extend the low byte first); i32 and i64 in .b32 and
 * .b64; f32 and f64 in their float classes.
 */
#ifndef SILK_PTX_INTERNAL_H
#define SILK_PTX_INTERNAL_H

#include "arena.h"
#include "ir.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef enum PtxClass { PC_PRED, PC_B32, PC_B64, PC_F32, PC_F64, PC_B16, PC_COUNT } PtxClass;

/* One operand's text: a register ("%rd7") or an immediate ("0f3F800000"). */
typedef struct PtxOperand {
    char text[32];
} PtxOperand;

/* The function being emitted. */
typedef struct PtxFunc {
    const IrModule *m;
    const IrFunc *f;
    Diag *diag;
    FILE *out;                /* the body, written before the declarations */
    Arena *scratch;           /* dropped after the function */
    IrType *types;            /* by IR register */
    uint32_t *number;         /* by IR register: its number in its class */
    uint32_t next[PC_COUNT];  /* the next free number of each class */
    int errors;
} PtxFunc;

PtxClass ptx_class(IrType type);
/* The IR register `reg`'s PTX register. */
PtxOperand ptx_reg(const PtxFunc *e, uint32_t reg);
/* A fresh register for a value of `type` (a temporary of the selection). */
PtxOperand ptx_temp(PtxFunc *e, IrType type);
/* An operand as an instruction's source: a register, or an immediate
 * (integers sign-extended, or zero-extended when `zero`); f16 and i1
 * constants, which PTX has no immediates for outside mov, are first moved
 * into a temporary. */
PtxOperand ptx_value(PtxFunc *e, IrValue v, bool zero);
/* The IR type of an operand. */
IrType ptx_value_type(const PtxFunc *e, IrValue v);
/* `mov` of `v` into `dst`, immediates of every type included. */
void ptx_move(PtxFunc *e, IrType type, PtxOperand dst, IrValue v);
/* The memory type of a load, store or parameter ("u8", "b16", "f32"). */
const char *ptx_mem_type(IrType type);
/* ld.SPACE of a `type` at `addr` ("[%rd3]") into `dst`; i1 through a .b16. */
void ptx_load(PtxFunc *e, const char *space, IrType type, PtxOperand dst, const char *addr);
/* One line of the body: a tab, the instruction, ";". */
void ptx_line(PtxFunc *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Reports that `in` has no PTX form here. */
void ptx_error(PtxFunc *e, const IrInst *in, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ptx_inst.c: one instruction that is not a phi or a terminator. */
void ptx_inst(PtxFunc *e, const IrInst *in);

#endif
