/*
 * amdgpu.c: the AMDGPU backend's module, functions, values and control
 * flow; instruction selection is in amdgpu_inst.c.
 *
 * A module: the target triple, the shared arrays as LDS globals
 * (`@name = internal addrspace(3) global [BYTES x i8] poison, align A`:
 * LLVM's module LDS lowering gives each kernel the ones it uses, as ptxas
 * does), the functions in IR order, the intrinsics they call, and one
 * attribute group per kernel.  A function's `smem` (@smem dynamic shared
 * memory) is sized at launch and no IR instruction addresses it yet, so
 * it does not appear in the module.
 *
 * Kernel attributes (amdgpu_waves_per_eu documents the rule):
 *   @launch(N)                -> "amdgpu-flat-work-group-size"="N,N"
 *   no @launch                -> "amdgpu-flat-work-group-size"="1,1024"
 *   min CTAs per SM M         -> "amdgpu-waves-per-eu"="W"
 *   a register cap R          -> "amdgpu-num-vgpr"="R" (a VGPR is a lane's
 *                                32-bit register, as a PTX register is a thread's)
 * and "target-cpu"; on RDNA "+wavefrontsize32", LLVM's default there,
 * written out so that the module says which wave size its lanes assume.
 *
 * Control flow maps one to one: IR blocks are LLVM blocks (b0, b1 ...),
 * IR phis LLVM phis.  LLVM's entry block may have no predecessors, so an
 * IR entry block that is a branch target gets an `entry` block before it
 * (its phis an undefined value from there, which no path reads).
 */
#include "amdgpu.h"

#include "backend.h"

#include "amdgpu_internal.h"
#include "ir_nan.h"

#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- targets -------------------------------------------------------------------- */

/* Each target's wavefront size (LLVM's default for it: AMDGPU.td, and
 * AMDGPUUsage "Processors") and its SIMD's wave slots (LLVM 19
 * AMDGPUBaseInfo.cpp getMaxWavesPerEU: 8 on gfx90a and gfx942, 16 from
 * GFX10.3 on). */
static const struct {
    const char *arch;
    int wave_size, max_waves_per_eu;
} targets[] = {
    {"gfx90a", 64, 8},
    {"gfx942", 64, 8},
    {"gfx1100", 32, 16},
    {"gfx1201", 32, 16},
};

/* A CU has 4 SIMDs on CDNA, and an RDNA WGP (where LLVM places a
 * workgroup by default, WGP mode) has 4 SIMD32s. */
enum { SIMDS_PER_CU = 4, MAX_WORKGROUP = 1024 };

static int target_index(const char *arch)
{
    for (size_t i = 0; arch && i < sizeof targets / sizeof *targets; i++)
        if (strcmp(targets[i].arch, arch) == 0)
            return (int)i;
    return -1;
}

int amdgpu_wave_size(const char *arch)
{
    int i = target_index(arch);
    return i < 0 ? 0 : targets[i].wave_size;
}

int amdgpu_waves_per_eu(const char *arch, int threads, int min_ctas)
{
    int i = target_index(arch);
    if (i < 0 || min_ctas <= 0)
        return 0;
    int size = threads > 0 ? threads : MAX_WORKGROUP;
    long waves = ((long)size + targets[i].wave_size - 1) / targets[i].wave_size;
    long per_eu = (waves * min_ctas + SIMDS_PER_CU - 1) / SIMDS_PER_CU;
    return per_eu > targets[i].max_waves_per_eu ? targets[i].max_waves_per_eu : (int)per_eu;
}

/* ---- values ---------------------------------------------------------------------- */

const char *amdgpu_type(IrType type)
{
    switch (type) {
    case IRT_I1: return "i1";
    case IRT_I8: return "i8";
    case IRT_I16: return "i16";
    case IRT_I32: return "i32";
    case IRT_I64: return "i64";
    case IRT_F16: return "half";
    case IRT_F32: return "float";
    case IRT_F64: return "double";
    case IRT_VOID: break;
    }
    return "void";
}

LlValue amdgpu_reg(uint32_t reg)
{
    LlValue v;
    snprintf(v.text, sizeof v.text, "%%r%" PRIu32, reg);
    return v;
}

LlValue amdgpu_temp(LlFunc *e)
{
    LlValue v;
    snprintf(v.text, sizeof v.text, "%%t%" PRIu32, e->next_temp++);
    return v;
}

LlValue amdgpu_int(long long value)
{
    LlValue v;
    snprintf(v.text, sizeof v.text, "%lld", value);
    return v;
}

IrType amdgpu_value_type(const LlFunc *e, IrValue v)
{
    return v.kind == IRV_REG ? e->types[v.reg] : v.type;
}

/* An f32's bits as the double LLVM writes float constants in: exact for
 * every finite value; a NaN keeps its payload, moved to the top of the
 * double's fraction (LLVM truncates it back). */
static uint64_t float_as_double_bits(uint32_t bits)
{
    uint64_t sign = (uint64_t)(bits >> 31) << 63;
    uint32_t exponent = bits >> 23 & 0xff, fraction = bits & 0x7fffff;
    if (exponent == 0xff)
        return sign | UINT64_C(0x7ff) << 52 | (uint64_t)fraction << 29;
    float f;
    double d;
    memcpy(&f, &bits, sizeof f);
    d = f;
    uint64_t out;
    memcpy(&out, &d, sizeof out);
    return out;
}

LlValue amdgpu_value(const LlFunc *e, IrValue v)
{
    (void)e;
    if (v.kind == IRV_REG)
        return amdgpu_reg(v.reg);
    LlValue o;
    int bits = ir_type_bits(v.type);
    if (v.kind == IRV_FLOAT && v.type == IRT_F16)
        snprintf(o.text, sizeof o.text, "0xH%04" PRIX64, v.bits & 0xffff);
    else if (v.kind == IRV_FLOAT && v.type == IRT_F32)
        snprintf(o.text, sizeof o.text, "0x%016" PRIX64, float_as_double_bits((uint32_t)v.bits));
    else if (v.kind == IRV_FLOAT)
        snprintf(o.text, sizeof o.text, "0x%016" PRIX64, v.bits);
    else if (bits == 1)
        snprintf(o.text, sizeof o.text, "%s", v.bits & 1 ? "true" : "false");
    else {
        uint64_t sign = UINT64_C(1) << (bits - 1);
        uint64_t low = bits == 64 ? v.bits : v.bits & ((sign << 1) - 1);
        snprintf(o.text, sizeof o.text, "%" PRId64, (int64_t)((low ^ sign) - sign));
    }
    return o;
}

void amdgpu_line(LlFunc *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("  ", e->out);
    vfprintf(e->out, fmt, ap);
    fputc('\n', e->out);
    va_end(ap);
}

void amdgpu_declare(LlFunc *e, const char *declaration)
{
    LlDecls *d = e->decls;
    for (uint32_t i = 0; i < d->n; i++)
        if (strcmp(d->lines[i], declaration) == 0)
            return;
    d->lines = ir_grow(e->arena, d->lines, d->n, sizeof *d->lines);
    d->lines[d->n++] = arena_strndup(e->arena, declaration, strlen(declaration));
}

void amdgpu_error(LlFunc *e, const IrInst *in, const char *fmt, ...)
{
    char message[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    e->errors++;
    backend_report(e->diag, e->f, in, message);
}

/* The IR type of every register, parameters first. */
static void type_registers(LlFunc *e)
{
    const IrFunc *f = e->f;
    e->types = ARENA_ARRAY(e->arena, IrType, f->n_regs + 1);
    for (uint32_t p = 0; p < f->n_params; p++)
        e->types[f->params[p].reg] = f->params[p].type;
    for (uint32_t b = 0; b < f->n_blocks; b++)
        for (uint32_t i = 0; i < f->blocks[b]->n_insts; i++) {
            const IrInst *in = f->blocks[b]->insts[i];
            if (ir_op_defines(in->op))
                e->types[in->result] = in->type;
        }
}

/* ---- control flow ------------------------------------------------------------------ */

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

static void phi(LlFunc *e, const IrInst *in, bool from_entry)
{
    fprintf(e->out, "  %%r%" PRIu32 " = phi %s ", in->result, amdgpu_type(in->type));
    for (uint32_t k = 0; k < in->n_operands; k++)
        fprintf(e->out, "%s[ %s, %%b%" PRIu32 " ]", k ? ", " : "", amdgpu_value(e, in->operands[k]).text,
                in->incoming[k]->id);
    if (from_entry)
        fprintf(e->out, "%s[ poison, %%entry ]", in->n_operands ? ", " : "");
    fputc('\n', e->out);
}

static void ret(LlFunc *e, const IrInst *in)
{
    if (in->n_operands == 1)
        amdgpu_line(e, "ret %s %s", amdgpu_type(e->f->result), amdgpu_value(e, in->operands[0]).text);
    else
        amdgpu_line(e, "ret void");
}

static void terminator(LlFunc *e, const IrInst *in)
{
    switch (in->op) {
    case IR_BR: amdgpu_line(e, "br label %%b%" PRIu32, in->target[0]->id); break;
    case IR_CBR:
        amdgpu_line(e, "br i1 %s, label %%b%" PRIu32 ", label %%b%" PRIu32,
                amdgpu_value(e, in->operands[0]).text, in->target[0]->id, in->target[1]->id);
        break;
    default: assert(in->op == IR_RET); ret(e, in); break;
    }
}

static void emit_block(LlFunc *e, const IrBlock *b, bool from_entry)
{
    fprintf(e->out, "b%" PRIu32 ":\n", b->id);
    for (uint32_t i = 0; i < b->n_insts; i++) {
        const IrInst *in = b->insts[i];
        if (in->op == IR_PHI)
            phi(e, in, from_entry);
        else if (ir_op_is_terminator(in->op))
            terminator(e, in);
        else
            amdgpu_inst(e, in);
    }
}

/* ---- functions ------------------------------------------------------------------------ */

/* A symbol as LLVM names it: bare when it is an identifier, else quoted. */
static void symbol(FILE *out, const char *name)
{
    bool bare = name[0] && strchr("0123456789", name[0]) == NULL;
    for (const char *p = name; *p && bare; p++)
        bare = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
               *p == '_' || *p == '.' || *p == '$';
    fprintf(out, bare ? "@%s" : "@\"%s\"", name);
}

static void emit_header(FILE *out, const IrFunc *f, uint32_t attr_group)
{
    if (f->kernel)
        fputs("define amdgpu_kernel void ", out);
    else /* a helper of hand-written IR (the IR has no calls): hidden, as HIP's device
          * functions; llc-19 crashes on an internal function nothing calls */
        fprintf(out, "define hidden %s ", amdgpu_type(f->result));
    symbol(out, f->name);
    fputc('(', out);
    for (uint32_t p = 0; p < f->n_params; p++)
        fprintf(out, "%s%s %%r%" PRIu32, p ? ", " : "", amdgpu_type(f->params[p].type), f->params[p].reg);
    fprintf(out, ") #%" PRIu32 " {\n", attr_group);
}

static int emit_func(const IrModule *m, const IrFunc *f, const char *arch, uint32_t attr_group,
                     LlDecls *decls, FILE *out, Diag *diag)
{
    LlFunc e = {.m = m, .f = f, .arch = arch, .wave_size = amdgpu_wave_size(arch), .diag = diag,
                .out = out, .arena = m->arena, .decls = decls};
    type_registers(&e);
    /* The CPU backend's analysis of where a NaN's bits can be seen, so that
     * both make the same results canonical (amdgpu_inst.c). */
    e.nan_seen = ir_nan_seen(m, f);
    emit_header(out, f, attr_group);
    bool entry = f->n_blocks > 0 && is_target(f, f->blocks[0]);
    if (entry)
        fputs("entry:\n  br label %b0\n", out);
    for (uint32_t b = 0; b < f->n_blocks; b++)
        emit_block(&e, f->blocks[b], entry && b == 0);
    fputs("}\n", out);
    return e.errors;
}

/* Attribute group `group`: the kernel's launch attributes (see the top). */
static void emit_attributes(FILE *out, const IrFunc *f, const char *arch, uint32_t group)
{
    fprintf(out, "attributes #%" PRIu32 " = { ", group);
    if (f->kernel) {
        if (f->reqntid)
            fprintf(out, "\"amdgpu-flat-work-group-size\"=\"%d,%d\" ", f->reqntid, f->reqntid);
        else
            fprintf(out, "\"amdgpu-flat-work-group-size\"=\"1,%d\" ", MAX_WORKGROUP);
        int waves = amdgpu_waves_per_eu(arch, f->reqntid, f->minnctapersm);
        if (waves > 0)
            fprintf(out, "\"amdgpu-waves-per-eu\"=\"%d\" ", waves);
        if (f->maxnreg)
            fprintf(out, "\"amdgpu-num-vgpr\"=\"%d\" ", f->maxnreg);
    }
    fprintf(out, "\"target-cpu\"=\"%s\" ", arch);
    if (amdgpu_wave_size(arch) == 32)
        fputs("\"target-features\"=\"+wavefrontsize32\" ", out);
    fputs("}\n", out);
}

static void emit_shared(FILE *out, const IrModule *m)
{
    for (uint32_t s = 0; s < m->n_shared; s++) {
        const IrShared *a = &m->shared[s];
        uint32_t align = a->align ? a->align : ir_natural_align(a->elem);
        symbol(out, a->name);
        fprintf(out, " = internal addrspace(3) global [%" PRIu64 " x i8] poison, align %" PRIu32 "\n",
                a->count * ir_natural_align(a->elem), align);
    }
}

bool amdgpu_emit_module(const IrModule *m, const char *arch, FILE *out, Diag *diag)
{
    if (target_index(arch) < 0) {
        diag_error(diag, (Span){UINT32_MAX, 0, 0}, "unknown AMDGPU target '%s'", arch ? arch : "");
        return false;
    }
    fprintf(out, "; Generated by silkc for %s\ntarget triple = \"amdgcn-amd-amdhsa\"\n", arch);
    if (m->n_shared)
        fputc('\n', out);
    emit_shared(out, m);
    LlDecls decls = {0};
    int errors = 0;
    for (uint32_t i = 0; i < m->n_funcs; i++) {
        fputc('\n', out);
        errors += emit_func(m, m->funcs[i], arch, i, &decls, out, diag);
    }
    if (decls.n)
        fputc('\n', out);
    for (uint32_t i = 0; i < decls.n; i++)
        fprintf(out, "%s\n", decls.lines[i]);
    fputc('\n', out);
    for (uint32_t i = 0; i < m->n_funcs; i++)
        emit_attributes(out, m->funcs[i], arch, i);
    return errors == 0;
}
