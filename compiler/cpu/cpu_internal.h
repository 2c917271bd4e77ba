/*
 * cpu_internal.h: what the CPU backend's two emitting files share: the
 * state of one function being written as C (cpu_emit.c) and the
 * translation of one instruction (cpu_inst.c).
 */
#ifndef SILK_CPU_INTERNAL_H
#define SILK_CPU_INTERNAL_H

#include "cpu_abi.h"
#include "ir_nan.h"
#include "diag.h"
#include "ir.h"

#include <stdbool.h>
#include <stdio.h>

typedef struct CpuFunc {
    const IrModule *m;
    const IrFunc *f;
    FILE *out;
    Diag *diag;
    IrType *reg_types;        /* each register's type */
    const bool *nan_seen;     /* whether a float register's NaN bits can be seen */
    const uint64_t *shared_at; /* each shared array's offset in the CTA's shared memory */
    Span *stops;              /* each site's source: a stop, or an access that
                               * may fault (index 0 unused) */
    bool *resumable;          /* whether site k is a stop (a thread resumes there) */
    const IrInst **checks;    /* site k's index or assigned check, if it is one */
    uint32_t n_stops;
    uint32_t at;              /* the instruction being written, numbered in the
                               * function (block by block) */
    uint32_t **across;        /* by instruction number: for a stop, the registers
                               * live across it, in increasing order (cpu_emit.c) */
    uint32_t *n_across;
    const IrInst **def;       /* by register: its definition (NULL: a parameter) */
    int32_t *param_of;        /* by register: the parameter it is, -1 none */
    uint32_t n_slots;         /* the most registers any stop saves */
    bool ok;
} CpuFunc;


/* The C type that holds a value of `t`. */
const char *cpu_ctype(IrType t);

/* Operand `v` as a C expression of its type. */
const char *cpu_value(CpuFunc *e, IrValue v, char *buf, size_t size);

/* The type of operand `v` (a register's, or the constant's). */
IrType cpu_value_type(const CpuFunc *e, IrValue v);

/* Writes `in` (not a phi or a terminator) as C statements. */
void cpu_inst(CpuFunc *e, const IrInst *in);

/* Reports that `in` has no C form here; the module is then not used. */
void cpu_error(CpuFunc *e, const IrInst *in, const char *what);

/* A new stop (barrier, collective) at `in`: its number. */
uint32_t cpu_new_stop(CpuFunc *e, const IrInst *in);

/* A new site where `in` may fault (a memory access): its number. */
uint32_t cpu_new_site(CpuFunc *e, const IrInst *in);

/* Stop number k, at the instruction being written (e->at): the thread
 * saves the registers live across it and returns `why`; the label after
 * it, where the step resumes, restores them. */
void cpu_suspend(CpuFunc *e, uint32_t k, const char *why);

#endif
