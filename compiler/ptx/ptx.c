/*
 * ptx.c: the PTX backend's module, functions, registers and control flow;
 * instruction selection is in ptx_inst.c.
 *
 * A module: the header (.version, .target, .address_size 64), the shared
 * arrays as module-scope `.shared .align A .b8 name[bytes]` (ptxas gives
 * each kernel the ones it references), then the functions in IR order.
 * A function's body is written first to a memory stream, since selection
 * makes temporaries, and the register declarations, which must come
 * first, are known only at its end.  A function's `smem` (@smem dynamic
 * shared memory) is sized at launch and no IR instruction addresses it
 * yet, so it does not appear in the PTX.
 *
 * Registers: IR values are numbered per class in order of definition,
 * parameters first, from 1 as nvcc does (`%r<N>` declares %r0 .. %rN-1);
 * temporaries follow.  Parameters are `NAME_param_I`, loaded with ld.param
 * at the top of the entry.
 *
 * Addresses: every address is a 64-bit integer used with a state-space
 * load or store (ld.global, ld.shared ...), never a generic one, so
 * `addr.shared $a` is `mov.u64 %rd, a`, the array's offset in the shared
 * window, and no cvta is needed.  Global addresses are the pointers the
 * host passes, which the global window maps one to one.
 *
 * Phis: out of SSA by copies at the end of each predecessor.  The copies
 * of one edge are a parallel copy: a source that another copy of the edge
 * overwrites is first saved in a temporary, so a swap of two phis is
 * right.  A conditional branch whose two edges both need copies gets an
 * edge block ($L__edgeB_T) for its taken edge; with copies on one edge
 * only, the branch is inverted when needed so that the copies run only on
 * their edge.  A branch to the next block in layout order is left out.
 */
#include "ptx.h"

#include "backend.h"

#include "ptx_internal.h"

#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- targets -------------------------------------------------------------- */

/* The PTX ISA version that introduced each target (PTX ISA release notes,
 * and LLVM's NVPTX.td; each one checked against CUDA 13.0's ptxas, which
 * rejects the version just below). */
static const struct {
    const char *target, *version;
} targets[] = {
    {"sm_75", "6.3"},  {"sm_80", "7.0"},   {"sm_86", "7.1"},  {"sm_87", "7.4"},
    {"sm_89", "7.8"},  {"sm_90", "7.8"},   {"sm_90a", "8.0"}, {"sm_100", "8.6"},
    {"sm_100a", "8.6"}, {"sm_103", "8.8"}, {"sm_110", "9.0"}, {"sm_120", "8.7"},
    {"sm_121", "8.8"},
};

const char *ptx_isa_version(const char *target)
{
    for (size_t i = 0; i < sizeof targets / sizeof *targets; i++)
        if (target && strcmp(targets[i].target, target) == 0)
            return targets[i].version;
    return NULL;
}

/* ---- registers and operands ---------------------------------------------------- */

static const char *const class_prefix[PC_COUNT] = {"%p", "%r", "%rd", "%f", "%fd", "%h"};
static const char *const class_decl[PC_COUNT] = {".pred", ".b32", ".b64", ".f32", ".f64", ".b16"};

PtxClass ptx_class(IrType type)
{
    switch (type) {
    case IRT_I1: return PC_PRED;
    case IRT_I8: case IRT_I16: case IRT_F16: return PC_B16;
    case IRT_I32: return PC_B32;
    case IRT_I64: return PC_B64;
    case IRT_F32: return PC_F32;
    default: assert(type == IRT_F64); return PC_F64;
    }
}

static PtxOperand class_reg(PtxClass c, uint32_t n)
{
    PtxOperand o;
    snprintf(o.text, sizeof o.text, "%s%" PRIu32, class_prefix[c], n);
    return o;
}

PtxOperand ptx_reg(const PtxFunc *e, uint32_t reg)
{
    assert(reg < e->f->n_regs);
    return class_reg(ptx_class(e->types[reg]), e->number[reg]);
}

PtxOperand ptx_temp(PtxFunc *e, IrType type)
{
    PtxClass c = ptx_class(type);
    return class_reg(c, e->next[c]++);
}

IrType ptx_value_type(const PtxFunc *e, IrValue v)
{
    return v.kind == IRV_REG ? e->types[v.reg] : v.type;
}

/* A constant as PTX writes it: floats as their bits (0f, 0d; f16 in hex,
 * for mov.b16), integers in decimal, i1 as 0 or 1. */
static PtxOperand immediate(IrValue v, bool zero)
{
    PtxOperand o;
    int bits = ir_type_bits(v.type);
    if (v.kind == IRV_FLOAT && v.type == IRT_F32)
        snprintf(o.text, sizeof o.text, "0f%08" PRIX64, v.bits);
    else if (v.kind == IRV_FLOAT && v.type == IRT_F64)
        snprintf(o.text, sizeof o.text, "0d%016" PRIX64, v.bits);
    else if (v.kind == IRV_FLOAT)
        snprintf(o.text, sizeof o.text, "0x%04" PRIX64, v.bits);
    else if (zero || bits == 1)
        snprintf(o.text, sizeof o.text, "%" PRIu64, v.bits);
    else if (bits == 64 && v.bits == UINT64_C(1) << 63) /* no positive literal to negate */
        snprintf(o.text, sizeof o.text, "0x8000000000000000");
    else {
        uint64_t sign = UINT64_C(1) << (bits - 1);
        int64_t value = (int64_t)((v.bits ^ sign) - sign); /* sign-extended */
        snprintf(o.text, sizeof o.text, "%" PRId64, value);
    }
    return o;
}

static const char *move_type(IrType type)
{
    static const char *const names[PC_COUNT] = {"pred", "b32", "b64", "f32", "f64", "b16"};
    return names[ptx_class(type)];
}

void ptx_move(PtxFunc *e, IrType type, PtxOperand dst, IrValue v)
{
    PtxOperand src = v.kind == IRV_REG ? ptx_reg(e, v.reg) : immediate(v, false);
    ptx_line(e, "mov.%s %s, %s", move_type(type), dst.text, src.text);
}

PtxOperand ptx_value(PtxFunc *e, IrValue v, bool zero)
{
    if (v.kind == IRV_REG)
        return ptx_reg(e, v.reg);
    if (v.type == IRT_F16 || v.type == IRT_I1) {
        PtxOperand t = ptx_temp(e, v.type);
        ptx_move(e, v.type, t, v);
        return t;
    }
    return immediate(v, zero);
}

const char *ptx_mem_type(IrType type)
{
    switch (type) {
    case IRT_I1: case IRT_I8: return "u8";
    case IRT_I16: return "u16";
    case IRT_I32: return "u32";
    case IRT_I64: return "u64";
    case IRT_F16: return "b16";
    case IRT_F32: return "f32";
    default: assert(type == IRT_F64); return "f64";
    }
}

void ptx_load(PtxFunc *e, const char *space, IrType type, PtxOperand dst, const char *addr)
{
    if (type != IRT_I1) {
        ptx_line(e, "ld.%s.%s %s, %s", space, ptx_mem_type(type), dst.text, addr);
        return;
    }
    PtxOperand byte = ptx_temp(e, IRT_I16); /* a bool is a byte in memory */
    ptx_line(e, "ld.%s.u8 %s, %s", space, byte.text, addr);
    ptx_line(e, "setp.ne.b16 %s, %s, 0", dst.text, byte.text);
}

void ptx_line(PtxFunc *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputc('\t', e->out);
    vfprintf(e->out, fmt, ap);
    fputs(";\n", e->out);
    va_end(ap);
}

void ptx_error(PtxFunc *e, const IrInst *in, const char *fmt, ...)
{
    char message[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    e->errors++;
    backend_report(e->diag, e->f, in, message);
}

/* Types and PTX numbers of the IR registers, parameters first. */
static void number_registers(PtxFunc *e)
{
    const IrFunc *f = e->f;
    uint32_t n = f->n_regs ? f->n_regs : 1;
    e->types = ARENA_ARRAY(e->scratch, IrType, n);
    e->number = ARENA_ARRAY(e->scratch, uint32_t, n);
    for (int c = 0; c < PC_COUNT; c++)
        e->next[c] = 1;
    for (uint32_t p = 0; p < f->n_params; p++)
        e->types[f->params[p].reg] = f->params[p].type;
    for (uint32_t p = 0; p < f->n_params; p++)
        e->number[f->params[p].reg] = e->next[ptx_class(f->params[p].type)]++;
    for (uint32_t b = 0; b < f->n_blocks; b++)
        for (uint32_t i = 0; i < f->blocks[b]->n_insts; i++) {
            const IrInst *in = f->blocks[b]->insts[i];
            if (!ir_op_defines(in->op))
                continue;
            e->types[in->result] = in->type;
            e->number[in->result] = e->next[ptx_class(in->type)]++;
        }
}

/* ---- phis and control flow ---------------------------------------------------- */

/* Whether the edge from -> to carries a copy that is not a no-op. */
static bool edge_has_copies(const IrBlock *from, const IrBlock *to)
{
    for (uint32_t i = 0; i < to->n_insts && to->insts[i]->op == IR_PHI; i++) {
        const IrInst *phi = to->insts[i];
        for (uint32_t k = 0; k < phi->n_operands; k++)
            if (phi->incoming[k] == from &&
                !(phi->operands[k].kind == IRV_REG && phi->operands[k].reg == phi->result))
                return true;
    }
    return false;
}

/* The parallel copy of the edge from -> to: sources that a copy of the
 * edge overwrites are saved first, then every phi gets its value. */
static void edge_copies(PtxFunc *e, const IrBlock *from, const IrBlock *to)
{
    uint32_t n = 0;
    while (n < to->n_insts && to->insts[n]->op == IR_PHI)
        n++;
    IrValue *src = ARENA_ARRAY(e->scratch, IrValue, n ? n : 1);
    for (uint32_t i = 0; i < n; i++) {
        const IrInst *phi = to->insts[i];
        for (uint32_t k = 0; k < phi->n_operands; k++)
            if (phi->incoming[k] == from)
                src[i] = phi->operands[k];
    }
    PtxOperand *saved = ARENA_ARRAY(e->scratch, PtxOperand, n ? n : 1);
    bool *is_saved = ARENA_ARRAY(e->scratch, bool, n ? n : 1);
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n && src[i].kind == IRV_REG; j++)
            if (j != i && to->insts[j]->result == src[i].reg && !is_saved[i]) {
                IrType t = to->insts[i]->type;
                saved[i] = ptx_temp(e, t);
                is_saved[i] = true;
                ptx_move(e, t, saved[i], src[i]);
            }
    for (uint32_t i = 0; i < n; i++) {
        const IrInst *phi = to->insts[i];
        if (is_saved[i])
            ptx_line(e, "mov.%s %s, %s", move_type(phi->type), ptx_reg(e, phi->result).text, saved[i].text);
        else if (!(src[i].kind == IRV_REG && src[i].reg == phi->result))
            ptx_move(e, phi->type, ptx_reg(e, phi->result), src[i]);
    }
}

/* Copies, then a jump unless `to` is the next block. */
static void jump(PtxFunc *e, const IrBlock *from, const IrBlock *to, const IrBlock *next)
{
    edge_copies(e, from, to);
    if (to != next)
        ptx_line(e, "bra.uni $L__bb%" PRIu32, to->id);
}

static void cond_branch(PtxFunc *e, const IrBlock *b, const IrInst *in, const IrBlock *next)
{
    const IrBlock *then = in->target[0], *other = in->target[1];
    IrValue c = in->operands[0];
    if (then == other || c.kind != IRV_REG) {
        jump(e, b, then == other || c.bits ? then : other, next);
        return;
    }
    PtxOperand pred = ptx_reg(e, c.reg);
    const char *p = pred.text;
    bool copies_then = edge_has_copies(b, then), copies_other = edge_has_copies(b, other);
    if (!copies_then && !copies_other && then == next) { /* fall through to `then` */
        ptx_line(e, "@!%s bra $L__bb%" PRIu32, p, other->id);
    } else if (!copies_then) {
        ptx_line(e, "@%s bra $L__bb%" PRIu32, p, then->id);
        jump(e, b, other, next);
    } else if (!copies_other) {
        ptx_line(e, "@!%s bra $L__bb%" PRIu32, p, other->id);
        jump(e, b, then, next);
    } else {
        ptx_line(e, "@%s bra $L__edge%" PRIu32 "_%" PRIu32, p, b->id, then->id);
        jump(e, b, other, NULL);
        fprintf(e->out, "$L__edge%" PRIu32 "_%" PRIu32 ":\n", b->id, then->id);
        jump(e, b, then, next);
    }
}

static void ret(PtxFunc *e, const IrInst *in)
{
    if (in->n_operands == 1) {
        IrType t = e->f->result;
        PtxOperand v = ptx_value(e, in->operands[0], false);
        if (t == IRT_I1) { /* a bool is a byte */
            PtxOperand byte = ptx_temp(e, IRT_I16);
            ptx_line(e, "selp.u16 %s, 1, 0, %s", byte.text, v.text);
            v = byte;
        }
        ptx_line(e, "st.param.%s [func_retval0], %s", ptx_mem_type(t), v.text);
    }
    ptx_line(e, "ret");
}

static void terminator(PtxFunc *e, const IrBlock *b, const IrInst *in, const IrBlock *next)
{
    switch (in->op) {
    case IR_BR: jump(e, b, in->target[0], next); break;
    case IR_CBR: cond_branch(e, b, in, next); break;
    default: assert(in->op == IR_RET); ret(e, in); break;
    }
}

/* Whether some branch of the function goes to `b`. */
static bool is_target(const IrFunc *f, const IrBlock *b)
{
    for (uint32_t i = 0; i < f->n_blocks; i++) {
        const IrBlock *from = f->blocks[i];
        const IrInst *last = from->n_insts ? from->insts[from->n_insts - 1] : NULL;
        if (last && (last->op == IR_BR || last->op == IR_CBR) &&
            (last->target[0] == b || (last->op == IR_CBR && last->target[1] == b)))
            return true;
    }
    return false;
}

static void emit_block(PtxFunc *e, uint32_t index)
{
    const IrFunc *f = e->f;
    const IrBlock *b = f->blocks[index];
    const IrBlock *next = index + 1 < f->n_blocks ? f->blocks[index + 1] : NULL;
    if (index > 0 || is_target(f, b))
        fprintf(e->out, "$L__bb%" PRIu32 ":\n", b->id);
    for (uint32_t i = 0; i < b->n_insts; i++) {
        const IrInst *in = b->insts[i];
        if (ir_op_is_terminator(in->op))
            terminator(e, b, in, next);
        else if (in->op != IR_PHI)
            ptx_inst(e, in);
    }
}

/* ---- functions ---------------------------------------------------------------------- */

static void emit_params(FILE *out, const IrFunc *f)
{
    fprintf(out, "%s(", f->name);
    for (uint32_t p = 0; p < f->n_params; p++)
        fprintf(out, "%s\n\t.param .%s %s_param_%" PRIu32, p ? "," : "", ptx_mem_type(f->params[p].type),
                f->name, p);
    fputs(f->n_params ? "\n)\n" : ")\n", out);
}

static void emit_header(FILE *out, const IrFunc *f)
{
    if (f->kernel)
        fputs(".visible .entry ", out);
    else if (f->result != IRT_VOID) /* internal, as nvcc's whole-program PTX */
        fprintf(out, ".func (.param .%s func_retval0) ", ptx_mem_type(f->result));
    else
        fputs(".func ", out);
    emit_params(out, f);
    /* A fixed CTA size is .reqntid, not .maxntid: the driver then refuses
     * a launch of another size, and a reader of the PTX (silk-occ report
     * k.ptx) sees the one size the .silk file has.  ptxas caps registers
     * the same under either with .minnctapersm. */
    if (f->reqntid)
        fprintf(out, ".reqntid %d, 1, 1\n", f->reqntid);
    if (f->minnctapersm)
        fprintf(out, ".minnctapersm %d\n", f->minnctapersm);
    if (f->maxnreg)
        fprintf(out, ".maxnreg %d\n", f->maxnreg);
}

/* The body into e->out: parameters, then the blocks in order. */
static void emit_body(PtxFunc *e)
{
    const IrFunc *f = e->f;
    for (uint32_t p = 0; p < f->n_params; p++) {
        size_t size = strlen(f->name) + 24; /* "[", "_param_", up to 10 digits, "]" */
        char *addr = arena_alloc(e->scratch, size, 1);
        snprintf(addr, size, "[%s_param_%" PRIu32 "]", f->name, p);
        ptx_load(e, "param", f->params[p].type, ptx_reg(e, f->params[p].reg), addr);
    }
    for (uint32_t b = 0; b < f->n_blocks; b++)
        emit_block(e, b);
}

static int emit_func(const IrModule *m, const IrFunc *f, FILE *out, Diag *diag)
{
    PtxFunc e = {.m = m, .f = f, .diag = diag, .scratch = arena_new_like(diag ? diag->arena : NULL)};
    char *body = NULL;
    size_t len = 0;
    e.out = open_memstream(&body, &len);
    if (!e.out) {
        arena_free(e.scratch);
        diag_error(diag, (Span){UINT32_MAX, 0, 0}, "in @%s: out of memory for the PTX", f->name);
        return 1;
    }
    number_registers(&e);
    emit_body(&e);
    fclose(e.out);
    emit_header(out, f);
    fputs("{\n", out);
    for (int c = 0; c < PC_COUNT; c++)
        if (e.next[c] > 1)
            fprintf(out, "\t.reg %s %s<%" PRIu32 ">;\n", class_decl[c], class_prefix[c], e.next[c]);
    fprintf(out, "\n%s}\n", body);
    free(body);
    arena_free(e.scratch);
    return e.errors;
}

bool ptx_emit_module(const IrModule *m, const char *target, FILE *out, Diag *diag)
{
    const char *version = ptx_isa_version(target);
    if (!version) {
        diag_error(diag, (Span){UINT32_MAX, 0, 0}, "unknown PTX target '%s'", target ? target : "");
        return false;
    }
    fprintf(out, "//\n// Generated by silkc\n//\n\n.version %s\n.target %s\n.address_size 64\n", version, target);
    if (m->n_shared)
        fputc('\n', out);
    for (uint32_t s = 0; s < m->n_shared; s++) {
        const IrShared *a = &m->shared[s];
        uint32_t align = a->align ? a->align : ir_natural_align(a->elem);
        fprintf(out, ".shared .align %" PRIu32 " .b8 %s[%" PRIu64 "];\n", align, a->name,
                a->count * ir_natural_align(a->elem));
    }
    int errors = 0;
    for (uint32_t i = 0; i < m->n_funcs; i++) {
        fputc('\n', out);
        errors += emit_func(m, m->funcs[i], out, diag);
    }
    return errors == 0;
}
