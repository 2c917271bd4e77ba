/*
 * ir_print.c: the IR's text form (ir.h shows it), written so that
 * ir_parse reads it back to the same text.
 *
 * The module's shared arrays come first, one a line, then each function
 * after a blank line.  Numbers are printed as stored, never renumbered, so
 * that printing is an exact inverse of parsing; builders and passes keep
 * the numbering deterministic.
 *
 * Constants: a constant's `:T` is written exactly when its type is not the
 * one its operand slot implies (ir_operand_type), so `shl %5, 2` in an i64
 * instruction stays short and `cmp ult %5, 10:i64` says what cmp cannot.
 * Integers are signed decimal in their width (i1 as 0 or 1).  A float is
 * written in decimal when its exact value has at most 17 significant
 * digits, so a decimal in the text is never a rounded one; otherwise as C's
 * hexadecimal float (`%a`); infinities as `inf`; a NaN as its raw IEEE bits
 * in hexadecimal without a `p` exponent (`0x7fc00000`), so its payload
 * survives.
 */
#include "ir.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

enum {
    MAX_SIGNIFICANT = 17,
    /* "%.1074f" of the largest double: 309 digits, '.', 1074 digits. */
    EXACT_BYTES = 1500,
};

static uint64_t width_mask(IrType type)
{
    int bits = ir_type_bits(type);
    return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

static void print_int(FILE *out, IrType type, uint64_t bits)
{
    uint64_t mask = width_mask(type), v = bits & mask;
    if (type == IRT_I1 || !(v & ((mask >> 1) + 1)))
        fprintf(out, "%" PRIu64, v);
    else
        fprintf(out, "%" PRId64, (int64_t)(v | ~mask));
}

/* The significant digits of the exact decimal expansion of `d` (finite,
 * nonzero), and how many digits it has before the point.  glibc prints
 * doubles exactly, and 1074 places hold every double's expansion. */
static int significant_digits(double d, int *int_digits)
{
    char text[EXACT_BYTES], digits[EXACT_BYTES];
    snprintf(text, sizeof text, "%.1074f", d);
    const char *p = text + (text[0] == '-');
    *int_digits = p[0] == '0' ? 0 : (int)(strchr(p, '.') - p);
    int n = 0;
    for (const char *q = p; *q; q++)
        if (*q != '.')
            digits[n++] = *q;
    int lo = 0, hi = n;
    while (lo < n && digits[lo] == '0')
        lo++;
    while (hi > lo && digits[hi - 1] == '0')
        hi--;
    return hi - lo;
}

static void print_float(FILE *out, IrType type, uint64_t bits)
{
    bits &= width_mask(type);
    double d = ir_float_value(type, bits);
    if (isnan(d)) {
        fprintf(out, "0x%" PRIx64, bits);
        return;
    }
    if (isinf(d) || d == 0) {
        fprintf(out, "%s%s", signbit(d) ? "-" : "", isinf(d) ? "inf" : "0.0");
        return;
    }
    int int_digits, n = significant_digits(d, &int_digits);
    if (n > MAX_SIGNIFICANT) {
        fprintf(out, "%a", d);
        return;
    }
    /* Enough precision for the integer part keeps 100.0 out of exponent
     * form; with n digits the %g text is the exact value. */
    int precision = int_digits > n && int_digits <= MAX_SIGNIFICANT ? int_digits : n;
    char text[64];
    snprintf(text, sizeof text, "%.*g", precision, d);
    fprintf(out, "%s%s", text, strpbrk(text, ".e") ? "" : ".0");
}

static void print_value(FILE *out, IrValue v, IrType slot)
{
    switch (v.kind) {
    case IRV_REG: fprintf(out, "%%%u", v.reg); return;
    case IRV_INT: print_int(out, v.type, v.bits); break;
    case IRV_FLOAT: print_float(out, v.type, v.bits); break;
    default: fputs("?", out); return; /* no operand: only built IR has one, the verifier says so */
    }
    if (v.type != slot)
        fprintf(out, ":%s", ir_type_name(v.type));
}

static void print_block_ref(FILE *out, const IrBlock *b)
{
    if (b)
        fprintf(out, "@b%u", b->id);
    else
        fputs("@?", out);
}

static void print_operands(FILE *out, const IrFunc *f, const IrInst *in, uint32_t from)
{
    for (uint32_t i = from; i < in->n_operands; i++) {
        fputs(i > from ? ", " : " ", out);
        print_value(out, in->operands[i], ir_operand_type(f, in, i));
    }
}

/* The opcode with its suffix, as ir.h's text form spells it. */
static void print_opcode(FILE *out, const IrInst *in)
{
    fputs(ir_op_name(in->op), out);
    switch (in->op) {
    case IR_LOAD: case IR_STORE: case IR_ADDR:
        fprintf(out, ".%s", ir_space_name(in->space));
        break;
    case IR_ATOM: fprintf(out, ".%s.%s", ir_space_name(in->space), ir_atom_name(in->atom)); break;
    case IR_SHFL: fprintf(out, ".%s", ir_shfl_name(in->shfl)); break;
    case IR_CMP: fprintf(out, " %s", ir_cmp_name(in->cmp)); break;
    case IR_SREG: fprintf(out, " %s", ir_sreg_name(in->sreg)); break;
    case IR_CHECK: fprintf(out, ".%u $%s", in->dim, in->symbol ? in->symbol : "?"); break;
    case IR_ASSIGNED: fprintf(out, " $%s", in->symbol ? in->symbol : "?"); break;
    default: break;
    }
}

static void print_inst(FILE *out, const IrFunc *f, const IrInst *in)
{
    fputs("  ", out);
    if (ir_op_defines(in->op))
        fprintf(out, "%%%u: %s = ", in->result, ir_type_name(in->type));
    print_opcode(out, in);
    switch (in->op) {
    case IR_ADDR: fprintf(out, " $%s", in->symbol ? in->symbol : "?"); break;
    case IR_BR:
        fputc(' ', out);
        print_block_ref(out, in->target[0]);
        break;
    case IR_CBR:
        print_operands(out, f, in, 0);
        for (int t = 0; t < 2; t++) {
            fputs(", ", out);
            print_block_ref(out, in->target[t]);
        }
        break;
    case IR_PHI:
        for (uint32_t i = 0; i < in->n_operands; i++) {
            fputs(i ? ", [" : " [", out);
            print_block_ref(out, in->incoming ? in->incoming[i] : NULL);
            fputs(": ", out);
            print_value(out, in->operands[i], in->type);
            fputc(']', out);
        }
        break;
    default: print_operands(out, f, in, 0); break;
    }
    fputc('\n', out);
}

static void print_header(FILE *out, const IrFunc *f)
{
    fprintf(out, "%s @%s(", f->kernel ? "kernel" : "func", f->name);
    for (uint32_t i = 0; i < f->n_params; i++) {
        const IrParam *p = &f->params[i];
        fprintf(out, "%s%%%u: %s", i ? ", " : "", p->reg, ir_type_name(p->type));
        if (p->name)
            fprintf(out, " $%s", p->name);
    }
    fputc(')', out);
    if (f->result != IRT_VOID)
        fprintf(out, " -> %s", ir_type_name(f->result));
    if (f->reqntid)
        fprintf(out, " reqntid %d", f->reqntid);
    if (f->minnctapersm)
        fprintf(out, " minnctapersm %d", f->minnctapersm);
    if (f->maxnreg)
        fprintf(out, " maxnreg %d", f->maxnreg);
    if (f->dynamic_smem)
        fprintf(out, " smem %" PRIu64, f->dynamic_smem);
    fputs(" {\n", out);
}

static void print_func(FILE *out, const IrFunc *f)
{
    print_header(out, f);
    for (uint32_t b = 0; b < f->n_blocks; b++) {
        const IrBlock *block = f->blocks[b];
        fprintf(out, "@b%u:\n", block->id);
        for (uint32_t i = 0; i < block->n_insts; i++)
            print_inst(out, f, block->insts[i]);
    }
    fputs("}\n", out);
}

/* The alignment is written only when it is not the element's own. */
static void print_shared(FILE *out, const IrShared *s)
{
    fprintf(out, "shared $%s: %s[%" PRIu64 "]", s->name, ir_type_name(s->elem), s->count);
    if (s->align && s->align != ir_natural_align(s->elem))
        fprintf(out, " align %u", s->align);
    fputc('\n', out);
}

void ir_print(const IrModule *m, FILE *out)
{
    for (uint32_t i = 0; i < m->n_shared; i++)
        print_shared(out, &m->shared[i]);
    for (uint32_t i = 0; i < m->n_funcs; i++) {
        if (i > 0 || m->n_shared > 0)
            fputc('\n', out);
        print_func(out, m->funcs[i]);
    }
}
