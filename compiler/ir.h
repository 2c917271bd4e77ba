/*
 * ir.h: Silk's intermediate representation, between the checked AST and
 * the PTX backend.
 *
 * A module holds functions (kernels; device helpers are inlined before
 * the IR) and the shared arrays they use.  A function is a list of basic
 * blocks; a block a list of typed instructions ending in one terminator
 * (br, cbr, ret).  Values are virtual registers, each defined exactly once
 * (SSA; phi instructions join values at the top of a block), or constants.
 * Memory spaces, special registers and barriers are explicit in the
 * instructions, so the backend never has to guess them.
 *
 * The text form (ir_print / ir_parse are exact inverses, so any pass can be
 * tested from hand-written IR):
 *
 *   shared $tile: f32[256]
 *
 *   kernel @saxpy(%0: i64, %1: f32, %2: i64, %3: i64) reqntid 256 minnctapersm 2 {
 *   @b0:
 *     %4: i32 = sreg tid.x
 *     %5: i64 = zext %4
 *     %6: i64 = shl %5, 2
 *     %7: i64 = add %2, %6
 *     %8: f32 = load.global %7
 *     %9: i1 = cmp ult %5, %0
 *     cbr %9, @b1, @b2
 *   @b1:
 *     store.global %7, %8
 *     br @b2
 *   @b2:
 *     ret
 *   }
 *
 * Numbering is deterministic: values in order of definition, blocks in
 * order of appearance.  Constants are written with their type when it is
 * not the one their operand's place implies (ir_operand_type: mostly the
 * instruction's; `cmp ult %5, 42:i64`), integers as signed decimal, floats
 * in hexadecimal (`%a`) when not exact in 17 decimal digits, a NaN as its
 * raw bits (`0x7fc00000`).
 */
#ifndef SILK_IR_H
#define SILK_IR_H

#include "arena.h"
#include "diag.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef enum IrOp {
#define IR_OP(e, name, operands, result) IR_##e,
#include "ir_ops.def"
#undef IR_OP
    IR_OP_COUNT
} IrOp;

/* Value types.  Signedness is in the opcodes; i1 is a predicate. */
typedef enum IrType { IRT_VOID, IRT_I1, IRT_I8, IRT_I16, IRT_I32, IRT_I64, IRT_F16, IRT_F32, IRT_F64 } IrType;

typedef enum IrSpace { IRS_GLOBAL, IRS_SHARED, IRS_PARAM, IRS_LOCAL } IrSpace;

typedef enum IrCmp {
    IRC_EQ, IRC_NE, IRC_SLT, IRC_SLE, IRC_SGT, IRC_SGE, IRC_ULT, IRC_ULE, IRC_UGT, IRC_UGE,
    IRC_FEQ, IRC_FNE, IRC_FLT, IRC_FLE, IRC_FGT, IRC_FGE,
} IrCmp;

typedef enum IrSreg { IRR_TID_X, IRR_NTID_X, IRR_CTAID_X, IRR_NCTAID_X, IRR_LANEID, IRR_WARPID, IRR_NSMID } IrSreg;

typedef enum IrShfl { IRSH_DOWN, IRSH_UP, IRSH_BFLY, IRSH_IDX } IrShfl;

/* Atomic operations; min and max say their signedness, as PTX's do. */
typedef enum IrAtom { IRA_ADD, IRA_SMIN, IRA_UMIN, IRA_SMAX, IRA_UMAX, IRA_EXCH, IRA_CAS } IrAtom;

typedef struct IrBlock IrBlock;
typedef struct IrInst IrInst;

/* An operand: a virtual register or a constant. */
typedef struct IrValue {
    enum { IRV_NONE, IRV_REG, IRV_INT, IRV_FLOAT } kind;
    IrType type;
    uint32_t reg;    /* IRV_REG: the register's number */
    uint64_t bits;   /* IRV_INT: the value, two's complement; IRV_FLOAT: the IEEE bits */
} IrValue;

struct IrInst {
    IrOp op;
    IrType type;          /* of the result (IRT_VOID when none) */
    uint32_t result;      /* the register it defines, when it defines one */
    IrValue *operands;
    uint32_t n_operands;
    union {
        IrCmp cmp;        /* IR_CMP */
        IrSpace space;    /* IR_LOAD, IR_STORE, IR_ATOM, IR_ADDR */
        IrSreg sreg;      /* IR_SREG */
        IrShfl shfl;      /* IR_SHFL */
        uint32_t dim;     /* IR_CHECK: the dimension checked, from 0 */
    };
    IrAtom atom;          /* IR_ATOM */
    const char *symbol;   /* IR_ADDR: the shared array or parameter named;
                           * IR_CHECK: the tensor or array indexed;
                           * IR_ASSIGNED: the variable read */
    IrBlock *target[2];   /* IR_BR: [0]; IR_CBR: then, else */
    IrBlock **incoming;   /* IR_PHI: the predecessor of each operand */
    Span span;            /* the source it came from, for diagnostics */
};

struct IrBlock {
    uint32_t id;
    IrInst **insts;
    uint32_t n_insts;
};

typedef struct IrParam {
    const char *name;
    IrType type;
    uint32_t reg;        /* the register holding it */
    const char *source_type; /* its Silk type ("tensor<f32>[n]", "u64"), for
                              * the CPU backend's launcher; NULL in parsed IR */
} IrParam;

typedef struct IrFunc {
    const char *name;    /* the kernel's symbol */
    bool kernel;
    IrParam *params;
    uint32_t n_params;
    IrType result;       /* IRT_VOID for a kernel */
    int reqntid;         /* the fixed CTA size (.reqntid: Silk has no bound
                          * short of a fixed size); 0: each launch's */
    int minnctapersm, maxnreg;          /* 0: not given */
    uint64_t dynamic_smem;              /* @smem */
    IrBlock **blocks;    /* blocks[0] is the entry */
    uint32_t n_blocks;
    uint32_t n_regs;     /* registers are numbered 0 .. n_regs-1 */
    Span span;           /* the kernel's name in the source (lowering); zero in parsed IR */
} IrFunc;

typedef struct IrShared {
    const char *name;
    IrType elem;
    uint64_t count;      /* elements */
    uint32_t align;
} IrShared;

typedef struct IrModule {
    Arena *arena;
    IrFunc **funcs;
    uint32_t n_funcs;
    IrShared *shared;
    uint32_t n_shared;
    /* Lowered for the CPU backend's race checks (silkc exec --race): it
     * tracks every shared access.  Not in the text form. */
    bool race_checks;
} IrModule;

const char *ir_op_name(IrOp op);
const char *ir_type_name(IrType type);
int ir_type_bits(IrType type);

/* ---- opcode facts (from ir_ops.def) and the names of the text form ---- */

/* The bytes a value of `type` takes in memory (i1: 1), its natural alignment. */
uint32_t ir_natural_align(IrType type);
/* Value operands an opcode takes; -1: variable (phi, atom, ret). */
int ir_op_operands(IrOp op);
/* Whether the opcode defines a register (class R). */
bool ir_op_defines(IrOp op);
/* Whether the opcode ends its block (class T). */
bool ir_op_is_terminator(IrOp op);
/* "global", "shared", "param", "local". */
const char *ir_space_name(IrSpace space);
/* "eq" ... "uge", "feq" ... "fge". */
const char *ir_cmp_name(IrCmp cmp);
/* "tid.x", "ntid.x", "ctaid.x", "nctaid.x", "laneid", "warpid", "nsmid". */
const char *ir_sreg_name(IrSreg sreg);
/* "down", "up", "bfly", "idx". */
const char *ir_shfl_name(IrShfl mode);
/* "add", "min", "max", "exch", "cas". */
const char *ir_atom_name(IrAtom atom);
/* The type operand `index` of `inst` (in `f`) must have when the opcode and
 * the instruction's type fix it; IRT_VOID when they leave it open (cmp, the
 * conversions, a store's value).  The text form omits a constant's `:T`
 * exactly when its type is this one, and the verifier checks it. */
IrType ir_operand_type(const IrFunc *f, const IrInst *inst, uint32_t index);

/* ---- constants ---- */

/* The value of a float constant's IEEE `bits` of `type` (f16, f32, f64), exactly. */
double ir_float_value(IrType type, uint64_t bits);
/* The IEEE bits of `value` rounded to `type` (to nearest, ties to even). */
uint64_t ir_float_bits(IrType type, double value);
/* A register operand naming the value `def` defines (its result and type). */
IrValue ir_reg(const IrInst *def);
/* An integer constant of `type`, kept as the low bits of two's complement. */
IrValue ir_int(IrType type, int64_t value);
/* A float constant of `type`, rounded to it. */
IrValue ir_float(IrType type, double value);

/* ---- building (all memory from the module's arena) ---- */

/* Room for one more element at the end of an arena array of `count`
 * elements of `size` bytes: a copy when the capacity (a power of two, at
 * least 4) is full, else `items` itself.  Capacity needs no field. */
void *ir_grow(Arena *arena, void *items, uint32_t count, size_t size);
/* An empty module whose memory comes from `arena`. */
IrModule *ir_new_module(Arena *arena);
/* A new function at the end of the module, with no parameters or blocks. */
IrFunc *ir_new_func(IrModule *m, const char *name, bool kernel);
/* A parameter at the end of `f`'s list, in the next free register. */
IrParam *ir_add_param(IrModule *m, IrFunc *f, const char *name, IrType type);
/* A new empty block at the end of `f`, numbered by its position. */
IrBlock *ir_new_block(IrModule *m, IrFunc *f);
/* A shared array at the end of the module's list (align 0: natural). */
IrShared *ir_add_shared(IrModule *m, const char *name, IrType elem, uint64_t count);
/* A new instruction at the end of `b` with `n_operands` empty operands
 * (and as many incoming blocks for a phi); one that defines a value gets
 * the next free register of `f`. */
IrInst *ir_append(IrModule *m, IrFunc *f, IrBlock *b, IrOp op, IrType type, uint32_t n_operands);

/* ---- accounting ---- */

/* The bytes of static shared memory `f` uses: the module's shared arrays
 * it addresses, each at its alignment, in module order (what ptxas
 * reports for it); UINT64_MAX when the sum does not fit.  The one count
 * of it: the estimate (regest.h) and the build's limit (build.c) read it. */
uint64_t ir_static_smem(const IrModule *m, const IrFunc *f);

/* The text form (see above) to `out`. */
void ir_print(const IrModule *m, FILE *out);

/* The text form back into a module; errors (file:line:col, as every
 * diagnostic) go to `diag`.  Returns NULL when the text had errors. */
IrModule *ir_parse(const SourceMap *sources, uint32_t file, Diag *diag, Arena *arena);

/* Checks the invariants every pass keeps: each block ends in exactly one
 * terminator and has none before it; each register is defined once and
 * before every use on every path (dominance); operand types match the
 * opcode; phis come first and have one operand per predecessor; branch
 * targets belong to the function.  Returns the number of violations,
 * each reported to `diag` naming function, block and instruction. */
int ir_verify(const IrModule *m, Diag *diag);
/* The same for one function of `m`. */
int ir_verify_func(const IrModule *m, const IrFunc *f, Diag *diag);

#endif
