/*
 * ir.c: the IR's tables and builders.  Opcode names, arities and classes
 * come from ir_ops.def only; the names of types, spaces, predicates,
 * special registers, shuffle modes and atomic operations are the text
 * form's, shared by ir_print.c and ir_parse.c so the two cannot drift.
 *
 * Constants keep their bits as ir.h says: an integer as the low bits of its
 * two's complement (higher bits zero), a float as its IEEE encoding in its
 * own width.  f16 has no C type, so its conversions are done here on the
 * bits, without libm (the compiler library does not link it).
 *
 * The builders append to arena arrays through ir_grow, whose capacity is
 * implied by the count (a power of two, at least 4), so the IR structs
 * need no capacity fields.  The static shared memory a function uses is
 * counted here too, once for every caller (ir_static_smem).
 */
#include "ir.h"

#include <assert.h>
#include <string.h>

/* ---- tables -------------------------------------------------------------- */

enum { CLASS_R, CLASS_N, CLASS_T };

static const char *const op_names[IR_OP_COUNT] = {
#define IR_OP(e, name, operands, result) [IR_##e] = name,
#include "ir_ops.def"
#undef IR_OP
};

static const signed char op_operands[IR_OP_COUNT] = {
#define IR_OP(e, name, operands, result) [IR_##e] = operands,
#include "ir_ops.def"
#undef IR_OP
};

static const unsigned char op_class[IR_OP_COUNT] = {
#define IR_OP(e, name, operands, result) [IR_##e] = CLASS_##result,
#include "ir_ops.def"
#undef IR_OP
};

static const char *const type_names[] = {
    [IRT_VOID] = "void", [IRT_I1] = "i1",   [IRT_I8] = "i8",   [IRT_I16] = "i16", [IRT_I32] = "i32",
    [IRT_I64] = "i64",   [IRT_F16] = "f16", [IRT_F32] = "f32", [IRT_F64] = "f64",
};

static const unsigned char type_bits[] = {
    [IRT_VOID] = 0, [IRT_I1] = 1,   [IRT_I8] = 8,   [IRT_I16] = 16, [IRT_I32] = 32,
    [IRT_I64] = 64, [IRT_F16] = 16, [IRT_F32] = 32, [IRT_F64] = 64,
};

static const char *const space_names[] = {"global", "shared", "param", "local"};
static const char *const cmp_names[] = {"eq",  "ne",  "slt", "sle", "sgt", "sge", "ult", "ule",
                                        "ugt", "uge", "feq", "fne", "flt", "fle", "fgt", "fge"};
static const char *const sreg_names[] = {"tid.x", "ntid.x", "ctaid.x", "nctaid.x", "laneid", "warpid", "nsmid"};
static const char *const shfl_names[] = {"down", "up", "bfly", "idx"};
static const char *const atom_names[] = {"add", "smin", "umin", "smax", "umax", "exch", "cas"};

#define COUNT_OF(a) (sizeof(a) / sizeof *(a))
static_assert(COUNT_OF(type_names) == IRT_F64 + 1, "a name for every type");
static_assert(COUNT_OF(cmp_names) == IRC_FGE + 1, "a name for every predicate");
static_assert(COUNT_OF(sreg_names) == IRR_NSMID + 1, "a name for every special register");

const char *ir_op_name(IrOp op)
{
    assert(op < IR_OP_COUNT);
    return op_names[op];
}

const char *ir_type_name(IrType type)
{
    assert(type <= IRT_F64);
    return type_names[type];
}

int ir_type_bits(IrType type)
{
    assert(type <= IRT_F64);
    return type_bits[type];
}

uint32_t ir_natural_align(IrType type)
{
    int bits = ir_type_bits(type);
    return bits < 8 ? 1 : (uint32_t)bits / 8;
}

int ir_op_operands(IrOp op)
{
    assert(op < IR_OP_COUNT);
    return op_operands[op];
}

bool ir_op_defines(IrOp op)
{
    assert(op < IR_OP_COUNT);
    return op_class[op] == CLASS_R;
}

bool ir_op_is_terminator(IrOp op)
{
    assert(op < IR_OP_COUNT);
    return op_class[op] == CLASS_T;
}

const char *ir_space_name(IrSpace space)
{
    assert(space < COUNT_OF(space_names));
    return space_names[space];
}

const char *ir_cmp_name(IrCmp cmp)
{
    assert(cmp < COUNT_OF(cmp_names));
    return cmp_names[cmp];
}

const char *ir_sreg_name(IrSreg sreg)
{
    assert(sreg < COUNT_OF(sreg_names));
    return sreg_names[sreg];
}

const char *ir_shfl_name(IrShfl mode)
{
    assert(mode < COUNT_OF(shfl_names));
    return shfl_names[mode];
}

const char *ir_atom_name(IrAtom atom)
{
    assert(atom < COUNT_OF(atom_names));
    return atom_names[atom];
}

/* One dispatch over the opcodes whose operands are not all of the
 * instruction's own type. */
IrType ir_operand_type(const IrFunc *f, const IrInst *inst, uint32_t index)
{
    switch (inst->op) {
    /* A shared address may be 32 bits (the window is smaller than 4 GiB). */
    case IR_LOAD: return inst->space == IRS_SHARED ? IRT_VOID : IRT_I64;
    case IR_STORE: return index == 0 && inst->space != IRS_SHARED ? IRT_I64 : IRT_VOID;
    case IR_ATOM: return index != 0 ? inst->type : inst->space == IRS_SHARED ? IRT_VOID : IRT_I64;
    case IR_SHFL: return index == 1 ? IRT_I32 : inst->type;
    case IR_BALLOT: case IR_CBR: case IR_ASSIGNED: return IRT_I1;
    case IR_CHECK: return IRT_I64;
    case IR_SELECT: return index == 0 ? IRT_I1 : inst->type;
    case IR_CMP: return IRT_VOID;
    case IR_SEXT: case IR_ZEXT: case IR_TRUNC: case IR_FPTOSI: case IR_FPTOUI:
    case IR_SITOFP: case IR_UITOFP: case IR_FPEXT: case IR_FPTRUNC: case IR_BITCAST:
        return IRT_VOID;
    case IR_RET: return f ? f->result : IRT_VOID;
    default: return inst->type;
    }
}

/* ---- float constants ----------------------------------------------------- */

static double double_of_bits(uint64_t bits)
{
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

static uint64_t bits_of_double(double d)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return bits;
}

/* Every f16 is a double: the fields move over, rebiased. */
static double half_value(uint16_t h)
{
    uint64_t sign = (uint64_t)(h >> 15) << 63;
    unsigned e = (h >> 10) & 0x1f, m = h & 0x3ff;
    if (e == 0) {
        double d = (double)m * 0x1p-24; /* zero or subnormal, exact */
        return sign ? -d : d;
    }
    if (e == 31) /* inf, or NaN with its payload at the top of the fraction */
        return double_of_bits(sign | 0x7ffull << 52 | (uint64_t)m << 42);
    return double_of_bits(sign | (uint64_t)(e - 15 + 1023) << 52 | (uint64_t)m << 42);
}

/* Rounds the double's 53-bit significand to the f16 grid: units of 2^(E-10)
 * for a normal result, of 2^-24 below; ties to even. */
static uint16_t half_bits(double d)
{
    uint64_t b = bits_of_double(d);
    uint16_t sign = (uint16_t)((b >> 63) << 15);
    int e = (int)((b >> 52) & 0x7ff);
    uint64_t mant = b & ((1ull << 52) - 1);
    if (e == 0x7ff)
        return sign | (mant ? 0x7e00 : 0x7c00);
    int exp = e - 1023;
    if (e == 0 || exp < -26) /* far below half the smallest subnormal */
        return sign;
    if (exp > 15)
        return sign | 0x7c00;
    mant |= 1ull << 52;
    int unit = exp >= -14 ? exp - 10 : -24;
    int shift = unit - (exp - 52);
    uint64_t q = mant >> shift, rem = mant & ((1ull << shift) - 1), half = 1ull << (shift - 1);
    if (rem > half || (rem == half && (q & 1)))
        q++;
    if (exp < -14) /* subnormal; q == 1024 is the smallest normal's encoding */
        return sign | (uint16_t)q;
    if (q == 2048) {
        q = 1024;
        if (++exp > 15)
            return sign | 0x7c00;
    }
    return sign | (uint16_t)((exp + 15) << 10) | (uint16_t)(q - 1024);
}

double ir_float_value(IrType type, uint64_t bits)
{
    switch (type) {
    case IRT_F16: return half_value((uint16_t)bits);
    case IRT_F32: {
        uint32_t b = (uint32_t)bits;
        float f;
        memcpy(&f, &b, sizeof f);
        return f;
    }
    default: assert(type == IRT_F64); return double_of_bits(bits);
    }
}

uint64_t ir_float_bits(IrType type, double value)
{
    switch (type) {
    case IRT_F16: return half_bits(value);
    case IRT_F32: {
        float f = (float)value;
        uint32_t b;
        memcpy(&b, &f, sizeof b);
        return b;
    }
    default: assert(type == IRT_F64); return bits_of_double(value);
    }
}

IrValue ir_reg(const IrInst *def)
{
    return (IrValue){.kind = IRV_REG, .type = def->type, .reg = def->result};
}

IrValue ir_int(IrType type, int64_t value)
{
    int bits = ir_type_bits(type);
    uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
    return (IrValue){.kind = IRV_INT, .type = type, .bits = (uint64_t)value & mask};
}

IrValue ir_float(IrType type, double value)
{
    return (IrValue){.kind = IRV_FLOAT, .type = type, .bits = ir_float_bits(type, value)};
}

/* ---- building ------------------------------------------------------------ */

void *ir_grow(Arena *arena, void *items, uint32_t count, size_t size)
{
    if (count == 0)
        return arena_alloc(arena, 4, size);
    if (count < 4 || (count & (count - 1)) != 0)
        return items;
    return arena_grow(arena, items, count, (size_t)count * 2, size);
}

IrModule *ir_new_module(Arena *arena)
{
    IrModule *m = ARENA_NEW(arena, IrModule);
    m->arena = arena;
    return m;
}

IrFunc *ir_new_func(IrModule *m, const char *name, bool kernel)
{
    IrFunc *f = ARENA_NEW(m->arena, IrFunc);
    f->name = name;
    f->kernel = kernel;
    m->funcs = ir_grow(m->arena, m->funcs, m->n_funcs, sizeof *m->funcs);
    m->funcs[m->n_funcs++] = f;
    return f;
}

IrParam *ir_add_param(IrModule *m, IrFunc *f, const char *name, IrType type)
{
    f->params = ir_grow(m->arena, f->params, f->n_params, sizeof *f->params);
    IrParam *p = &f->params[f->n_params++];
    *p = (IrParam){.name = name, .type = type, .reg = f->n_regs++};
    return p;
}

IrBlock *ir_new_block(IrModule *m, IrFunc *f)
{
    IrBlock *b = ARENA_NEW(m->arena, IrBlock);
    b->id = f->n_blocks;
    f->blocks = ir_grow(m->arena, f->blocks, f->n_blocks, sizeof *f->blocks);
    f->blocks[f->n_blocks++] = b;
    return b;
}

IrShared *ir_add_shared(IrModule *m, const char *name, IrType elem, uint64_t count)
{
    m->shared = ir_grow(m->arena, m->shared, m->n_shared, sizeof *m->shared);
    IrShared *s = &m->shared[m->n_shared++];
    *s = (IrShared){.name = name, .elem = elem, .count = count};
    return s;
}

/* ---- accounting ---------------------------------------------------------------- */

static bool addresses_shared(const IrFunc *f, const char *name)
{
    for (uint32_t b = 0; b < f->n_blocks; b++)
        for (uint32_t i = 0; i < f->blocks[b]->n_insts; i++) {
            const IrInst *in = f->blocks[b]->insts[i];
            if (in->op == IR_ADDR && in->space == IRS_SHARED && in->symbol &&
                strcmp(in->symbol, name) == 0)
                return true;
        }
    return false;
}

uint64_t ir_static_smem(const IrModule *m, const IrFunc *f)
{
    uint64_t offset = 0;
    for (uint32_t s = 0; s < m->n_shared; s++) {
        const IrShared *a = &m->shared[s];
        if (!addresses_shared(f, a->name))
            continue;
        uint64_t align = a->align ? a->align : ir_natural_align(a->elem);
        uint64_t size = ir_natural_align(a->elem);
        if (offset > UINT64_MAX - align)
            return UINT64_MAX;
        offset = (offset + align - 1) / align * align;
        if (a->count > (UINT64_MAX - offset) / size)
            return UINT64_MAX;
        offset += a->count * size;
    }
    return offset;
}

IrInst *ir_append(IrModule *m, IrFunc *f, IrBlock *b, IrOp op, IrType type, uint32_t n_operands)
{
    IrInst *in = ARENA_NEW(m->arena, IrInst);
    in->op = op;
    in->type = type;
    in->n_operands = n_operands;
    if (n_operands)
        in->operands = ARENA_ARRAY(m->arena, IrValue, n_operands);
    if (op == IR_PHI && n_operands)
        in->incoming = ARENA_ARRAY(m->arena, IrBlock *, n_operands);
    if (ir_op_defines(op))
        in->result = f->n_regs++;
    b->insts = ir_grow(m->arena, b->insts, b->n_insts, sizeof *b->insts);
    b->insts[b->n_insts++] = in;
    return in;
}
