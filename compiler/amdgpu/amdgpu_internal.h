/*
 * amdgpu_internal.h: what amdgpu.c (the module, functions, blocks and
 * phis) and amdgpu_inst.c (instruction selection) share.  Not for other
 * modules.
 *
 * Each IR register is the LLVM value %rN of the same number, of the LLVM
 * type of its IR type (i1 ... i64, half, float, double); selection's
 * temporaries are %tN.  Addresses stay 64-bit integers as in the IR and
 * become pointers of their address space at each access.
 */
#ifndef SILK_AMDGPU_INTERNAL_H
#define SILK_AMDGPU_INTERNAL_H

#include "arena.h"
#include "ir.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* One operand's text: "%r7", "%t3", "-1", "0x3FF0000000000000", "true". */
typedef struct LlValue {
    char text[40];
} LlValue;

/* The intrinsics a module calls, each declared once at its end. */
typedef struct LlDecls {
    const char **lines; /* "declare i32 @llvm.amdgcn.workitem.id.x()" */
    uint32_t n;
} LlDecls;

/* The function being emitted. */
typedef struct LlFunc {
    const IrModule *m;
    const IrFunc *f;
    const char *arch;
    int wave_size;          /* 32 or 64 */
    Diag *diag;
    FILE *out;
    Arena *arena;           /* the module's: declarations outlive the function */
    LlDecls *decls;
    IrType *types;          /* by IR register */
    const bool *nan_seen;   /* by IR register: a float whose NaN bits can be seen */
    uint32_t next_temp;
    int errors;
} LlFunc;

/* "i32", "half", "float" ... */
const char *amdgpu_type(IrType type);
/* An operand as LLVM writes it: a register or a constant of its type. */
LlValue amdgpu_value(const LlFunc *e, IrValue v);
/* The IR type of an operand. */
IrType amdgpu_value_type(const LlFunc *e, IrValue v);
/* IR register `reg`'s value. */
LlValue amdgpu_reg(uint32_t reg);
/* A fresh temporary. */
LlValue amdgpu_temp(LlFunc *e);
/* An integer constant's text. */
LlValue amdgpu_int(long long value);
/* One line of the body: two spaces, the instruction. */
void amdgpu_line(LlFunc *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* `declaration` ("declare i32 @llvm.amdgcn.workitem.id.x()") at the
 * module's end, once however many calls need it. */
void amdgpu_declare(LlFunc *e, const char *declaration);
/* Reports that `in` has no AMDGPU form here. */
void amdgpu_error(LlFunc *e, const IrInst *in, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* amdgpu_inst.c: one instruction that is not a phi or a terminator. */
void amdgpu_inst(LlFunc *e, const IrInst *in);

#endif
