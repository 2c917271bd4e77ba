/*
 * check_ir.c: unit tests of the IR: its text form (ir_print and ir_parse,
 * exact inverses) and its verifier.
 *
 * Round trips: hand-written modules in canonical form (a saxpy kernel, a
 * loop with phis, a shared-memory reduction with bar.sync, shuffles and
 * atomics, and one kernel with every other opcode and constants of every
 * type) are parsed, printed and compared with the input byte for byte,
 * then the print is parsed again and ir_verify must accept it.  Together
 * the cases use every opcode of ir_ops.def, which a test checks.
 *
 * Errors are checked as the diagnostics module prints them, through a
 * Diag pointed at an open_memstream FILE: the first line exactly
 * ("t.ir:3:7: error: ...") and the number of errors, so a cascading
 * second error fails the test.  Most verifier cases are text too, since
 * the parser leaves those invariants to the verifier; the few it cannot
 * express (a register defined twice, a branch into another function, IR
 * with no spans) are made by editing a parsed module or by the builders.
 *
 * The passes: the optimised round-trip cases print, parse back and verify
 * and are a fixed point of the pipeline; a pass that breaks the IR is
 * named in the verifier's report.
 */
#include "arena.h"
#include "diag.h"
#include "ir.h"
#include "pass.h"
#include "source.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N(cases) ((int)(sizeof(cases) / sizeof *(cases)))

/* ---- running the parser and the verifier ---------------------------------- */

typedef struct IrRun {
    Arena *arena;
    SourceMap sources;
    Diag diag;
    FILE *diag_out;
    char *diag_text;
    size_t diag_len;
    IrModule *m;
} IrRun;

static void run_init(IrRun *r)
{
    r->arena = arena_new();
    source_map_init(&r->sources, r->arena);
    r->diag_text = NULL;
    r->diag_len = 0;
    r->diag_out = open_memstream(&r->diag_text, &r->diag_len);
    ck_assert_ptr_nonnull(r->diag_out);
    diag_init(&r->diag, &r->sources, r->arena, r->diag_out);
    r->diag.colour = false;
    r->m = NULL;
}

static IrModule *parse(IrRun *r, const char *text)
{
    uint32_t file = source_add_text(&r->sources, "t.ir", text, strlen(text));
    r->m = ir_parse(&r->sources, file, &r->diag, r->arena);
    fflush(r->diag_out);
    return r->m;
}

static int verify(IrRun *r, const IrModule *m)
{
    int n = ir_verify(m, &r->diag);
    fflush(r->diag_out);
    return n;
}

static void run_free(IrRun *r)
{
    fclose(r->diag_out);
    free(r->diag_text);
    arena_free(r->arena);
}

/* The first line of the diagnostics, without its newline. */
static const char *first_diagnostic(const IrRun *r, char *line, size_t size)
{
    const char *text = r->diag_text ? r->diag_text : "";
    snprintf(line, size, "%.*s", (int)strcspn(text, "\n"), text);
    return line;
}

/* The module's text form in a malloc'd string. */
static char *print(const IrModule *m)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(out);
    ir_print(m, out);
    fclose(out);
    return text;
}

static IrModule *parse_ok(IrRun *r, const char *text)
{
    IrModule *m = parse(r, text);
    ck_assert_msg(m != NULL, "parse failed:\n%s", r->diag_text ? r->diag_text : "");
    ck_assert_int_eq(r->diag.errors, 0);
    return m;
}

/* ---- round trips ---------------------------------------------------------- */

/* ir.h's own example. */
static const char saxpy[] =
    "shared $tile: f32[256]\n"
    "\n"
    "kernel @saxpy(%0: i64, %1: f32, %2: i64, %3: i64) reqntid 256 minnctapersm 2 {\n"
    "@b0:\n"
    "  %4: i32 = sreg tid.x\n"
    "  %5: i64 = zext %4\n"
    "  %6: i64 = shl %5, 2\n"
    "  %7: i64 = add %2, %6\n"
    "  %8: f32 = load.global %7\n"
    "  %9: i1 = cmp ult %5, %0\n"
    "  cbr %9, @b1, @b2\n"
    "@b1:\n"
    "  store.global %7, %8\n"
    "  br @b2\n"
    "@b2:\n"
    "  ret\n"
    "}\n";

/* A device helper: a loop whose phis take a back edge from a later block. */
static const char loop[] =
    "func @sum(%0: i32) -> i32 {\n"
    "@b0:\n"
    "  br @b1\n"
    "@b1:\n"
    "  %1: i32 = phi [@b0: 0], [@b2: %5]\n"
    "  %2: i32 = phi [@b0: 0], [@b2: %4]\n"
    "  %3: i1 = cmp slt %2, %0\n"
    "  cbr %3, @b2, @b3\n"
    "@b2:\n"
    "  %4: i32 = add %2, 1\n"
    "  %5: i32 = add %1, %2\n"
    "  br @b1\n"
    "@b3:\n"
    "  ret %1\n"
    "}\n";

/* A block reduction: shuffles within a warp, shared memory across warps. */
static const char reduction[] =
    "shared $partial: f32[32]\n"
    "shared $hist: i32[256] align 16\n"
    "\n"
    "kernel @reduce(%0: i64 $in, %1: i64 $out, %2: i32 $n) reqntid 1024 minnctapersm 1 maxnreg 64 smem 4096 {\n"
    "@b0:\n"
    "  %3: i32 = sreg tid.x\n"
    "  %4: i32 = sreg ntid.x\n"
    "  %5: i32 = sreg ctaid.x\n"
    "  %6: i32 = mul %5, %4\n"
    "  %7: i32 = add %6, %3\n"
    "  %8: i64 = sext %7\n"
    "  %9: i64 = shl %8, 2\n"
    "  %10: i64 = add %0, %9\n"
    "  %11: f32 = load.global %10\n"
    "  %12: f32 = shfl.down %11, 16\n"
    "  %13: f32 = add %11, %12\n"
    "  %14: f32 = shfl.bfly %13, 8\n"
    "  %15: i32 = sreg laneid\n"
    "  %16: i32 = sreg warpid\n"
    "  %17: i64 = addr.shared $partial\n"
    "  %18: i64 = zext %16\n"
    "  check.0 $partial %18, 32\n"
    "  %19: i64 = shl %18, 2\n"
    "  %20: i64 = add %17, %19\n"
    "  store.shared %20, %14\n"
    "  bar.sync\n"
    "  %21: i1 = cmp eq %15, 0:i32\n"
    "  assigned $v %21\n"
    "  cbr %21, @b1, @b2\n"
    "@b1:\n"
    "  %22: f32 = load.shared %20\n"
    "  %23: f32 = atom.global.add %1, %22\n"
    "  %24: i64 = addr.shared $hist\n"
    "  %25: i32 = atom.shared.add %24, 1\n"
    "  br @b2\n"
    "@b2:\n"
    "  ret\n"
    "}\n";

/* Every other opcode, every suffix family, constants of every type:
 * negative integers at each width's minimum, floats in decimal, in
 * exponent form, in hexadecimal (not exact in 17 digits), infinities,
 * a signed zero and NaNs as raw bits. */
static const char every_op[] =
    "kernel @ops(%0: i64 $p, %1: i32, %2: f32, %3: f64) {\n"
    "@b0:\n"
    "  %4: i32 = sub %1, -7\n"
    "  %5: i32 = sdiv %4, 3\n"
    "  %6: i32 = udiv %5, -1\n"
    "  %7: i32 = srem %6, %1\n"
    "  %8: i32 = urem %7, 10\n"
    "  %9: i32 = and %8, 255\n"
    "  %10: i32 = or %9, -2147483648\n"
    "  %11: i32 = xor %10, %1\n"
    "  %12: i32 = lshr %11, 3\n"
    "  %13: i32 = ashr %12, 1\n"
    "  %14: i32 = smin %13, %1\n"
    "  %15: i32 = umin %14, %1\n"
    "  %16: i32 = smax %15, %1\n"
    "  %17: i32 = umax %16, %1\n"
    "  %18: i32 = neg %17\n"
    "  %19: i32 = not %18\n"
    "  %20: i32 = abs %19\n"
    "  %21: f32 = fdiv %2, 0.5\n"
    "  %22: f32 = fmin %21, 0x1.99999ap-4\n"
    "  %23: f32 = fmax %22, -inf\n"
    "  %24: f32 = fma %23, %2, 1.0\n"
    "  %25: f32 = sqrt %24\n"
    "  %26: f32 = rsqrt %25\n"
    "  %27: f32 = exp %26\n"
    "  %28: f32 = log %27\n"
    "  %29: f32 = sin %28\n"
    "  %30: f32 = cos %29\n"
    "  %31: f32 = floor %30\n"
    "  %32: f32 = ceil %31\n"
    "  %33: i1 = cmp flt %32, 100.0:f32\n"
    "  %34: f32 = select %33, %32, 0x7fc00000\n"
    "  %35: i8 = trunc %20\n"
    "  %36: i16 = sext %35\n"
    "  %37: i64 = zext %36\n"
    "  %38: i32 = fptosi %34\n"
    "  %39: i32 = fptoui %34\n"
    "  %40: f64 = sitofp %38\n"
    "  %41: f64 = uitofp %39\n"
    "  %42: f64 = fpext %34\n"
    "  %43: f16 = fptrunc %42\n"
    "  %44: i16 = bitcast %43\n"
    "  %45: f64 = copy %3\n"
    "  %46: i32 = ballot %33\n"
    "  %47: i32 = shfl.up %46, 1\n"
    "  %48: i32 = shfl.idx %47, %1\n"
    "  %49: i32 = sreg nctaid.x\n"
    "  %50: i32 = sreg nsmid\n"
    "  %51: i64 = addr.param $p\n"
    "  %52: i64 = load.param %51\n"
    "  %53: i32 = atom.global.cas %52, %48, %49\n"
    "  %54: i32 = atom.shared.exch %52, 5\n"
    "  %55: i32 = atom.global.smin %52, -3\n"
    "  %56: i32 = atom.global.umax %52, %50\n"
    "  %57: i1 = cmp uge %37, 65535:i64\n"
    "  %58: i8 = select %57, -128, 127\n"
    "  store.local %52, %45\n"
    "  store.global %52, -0.0:f64\n"
    "  store.global %52, 0x1.249ad2594c37dp+332:f64\n"
    "  store.global %52, 1e+20:f64\n"
    "  store.global %52, 123.25:f64\n"
    "  store.global %52, inf:f64\n"
    "  store.global %52, 3.0517578125e-05:f32\n"
    "  store.global %52, -65504.0:f16\n"
    "  store.global %52, 0.0999755859375:f16\n"
    "  store.global %52, 0x7e00:f16\n"
    "  store.global %52, -32768:i16\n"
    "  store.global %52, -9223372036854775808:i64\n"
    "  store.global %52, 1:i1\n"
    "  store.global %52, %44\n"
    "  store.global %52, %53\n"
    "  store.global %52, %54\n"
    "  store.global %52, %55\n"
    "  store.global %52, %56\n"
    "  store.global %52, %58\n"
    "  store.global %52, %40\n"
    "  store.global %52, %41\n"
    "  ret\n"
    "}\n";

static const char *const round_trip_cases[] = {saxpy, loop, reduction, every_op};

START_TEST(test_round_trip)
{
    const char *text = round_trip_cases[_i];
    IrRun r;
    run_init(&r);
    IrModule *m = parse_ok(&r, text);
    char *printed = print(m);
    ck_assert_str_eq(printed, text);
    IrModule *again = parse_ok(&r, printed);
    char *reprinted = print(again);
    ck_assert_str_eq(reprinted, text);
    ck_assert_int_eq(verify(&r, again), 0);
    ck_assert_int_eq(r.diag.errors, 0);
    free(printed);
    free(reprinted);
    run_free(&r);
}
END_TEST

/* The round-trip cases together use every opcode of ir_ops.def. */
START_TEST(test_every_opcode_is_covered)
{
    bool seen[IR_OP_COUNT] = {false};
    IrRun r;
    run_init(&r);
    for (int c = 0; c < N(round_trip_cases); c++) {
        const IrModule *m = parse_ok(&r, round_trip_cases[c]);
        for (uint32_t f = 0; f < m->n_funcs; f++)
            for (uint32_t b = 0; b < m->funcs[f]->n_blocks; b++)
                for (uint32_t i = 0; i < m->funcs[f]->blocks[b]->n_insts; i++)
                    seen[m->funcs[f]->blocks[b]->insts[i]->op] = true;
    }
    for (int op = 0; op < IR_OP_COUNT; op++)
        ck_assert_msg(seen[op], "no round-trip case uses '%s'", ir_op_name((IrOp)op));
    run_free(&r);
}
END_TEST

/* What parsing built, not just what it prints: constant bits, types of
 * register operands, numbering, attributes, names. */
START_TEST(test_parse_builds_the_module)
{
    IrRun r;
    run_init(&r);
    IrModule *m = parse_ok(&r, reduction);
    ck_assert_uint_eq(m->n_shared, 2);
    ck_assert_uint_eq(m->shared[0].align, 4);
    ck_assert_uint_eq(m->shared[1].align, 16);
    const IrFunc *f = m->funcs[0];
    ck_assert_str_eq(f->params[1].name, "out");
    ck_assert_int_eq(f->reqntid, 1024);
    ck_assert_uint_eq(f->dynamic_smem, 4096);
    ck_assert_uint_eq(f->n_regs, 26);
    const IrInst *cmp = f->blocks[0]->insts[21];
    ck_assert_int_eq(cmp->op, IR_CMP);
    ck_assert_int_eq(cmp->operands[0].type, IRT_I32); /* filled in from %15's definition */
    ck_assert_uint_eq(cmp->operands[1].bits, 0);
    ck_assert_uint_eq(cmp->span.start, (uint32_t)(strstr(reduction, "%21: i1") - reduction));
    ck_assert_uint_eq(cmp->span.end, (uint32_t)(strstr(reduction, "0:i32\n") + 5 - reduction));

    IrModule *ops = parse_ok(&r, every_op);
    const IrBlock *b0 = ops->funcs[0]->blocks[0];
    ck_assert_uint_eq(b0->insts[2]->operands[1].bits, 0xffffffffu); /* udiv %5, -1 */
    ck_assert_uint_eq(b0->insts[54]->operands[1].bits, 0x80);      /* select %57, -128, 127 */
    run_free(&r);
}
END_TEST

START_TEST(test_float_bits)
{
    ck_assert_uint_eq(ir_float_bits(IRT_F16, 1.0), 0x3c00);
    ck_assert_uint_eq(ir_float_bits(IRT_F16, 65504.0), 0x7bff);
    ck_assert_uint_eq(ir_float_bits(IRT_F16, 65520.0), 0x7c00); /* the tie rounds up to inf */
    ck_assert_uint_eq(ir_float_bits(IRT_F16, 0x1p-24), 0x0001);
    ck_assert_uint_eq(ir_float_bits(IRT_F16, 0x1p-25), 0x0000); /* tie to even: zero */
    ck_assert_uint_eq(ir_float_bits(IRT_F16, 0x1.8p-25), 0x0001);
    ck_assert_uint_eq(ir_float_bits(IRT_F16, 1.0 + 0x1p-11), 0x3c00); /* tie to even */
    ck_assert_uint_eq(ir_float_bits(IRT_F16, -2.0), 0xc000);
    for (uint32_t h = 0; h < 0x7c00; h++) /* every finite positive f16 survives */
        ck_assert_uint_eq(ir_float_bits(IRT_F16, ir_float_value(IRT_F16, h)), h);
    ck_assert(ir_float_value(IRT_F32, 0x3fc00000) == 1.5);
}
END_TEST

/* A non-canonical spelling parses to the same bits and prints canonically. */
START_TEST(test_non_canonical_input)
{
    IrRun r;
    run_init(&r);
    const IrModule *m = parse_ok(&r,
        "# a comment\n"
        "kernel @k(%0: i64)   {   # trailing\n"
        "\n"
        "@b0:\n"
        "  store.global %0, 0x1.8p+1:f32\n"
        "  store.global %0, 255:i8\n"
        "  store.global %0, 0x10:i32\n"
        "  store.global %0, 0.1:f64\n"
        "  store.global %0, 2:f32\n"
        "  ret\n"
        "}\n");
    char *text = print(m);
    ck_assert_str_eq(text,
        "kernel @k(%0: i64) {\n"
        "@b0:\n"
        "  store.global %0, 3.0:f32\n"
        "  store.global %0, -1:i8\n"
        "  store.global %0, 16:i32\n"
        "  store.global %0, 0x1.999999999999ap-4:f64\n"
        "  store.global %0, 2.0:f32\n"
        "  ret\n"
        "}\n");
    free(text);
    run_free(&r);
}
END_TEST

/* ---- parser errors --------------------------------------------------------- */

typedef struct ErrorCase {
    const char *text;
    const char *first; /* the first diagnostic line */
    int errors;
} ErrorCase;

#define KERNEL(body) "kernel @saxpy(%0: i64) {\n@b0:\n" body "}\n"

static const ErrorCase parse_errors[] = {
    {KERNEL("  %1: i33 = sreg tid.x\n  ret\n"), "t.ir:3:7: error: expected a type", 1},
    {KERNEL("  %1: i32 = frob %0\n  ret\n"), "t.ir:3:13: error: unknown opcode 'frob'", 1},
    {KERNEL("  %1: i32 = frob.x %0\n  ret\n"), "t.ir:3:13: error: unknown opcode 'frob'", 1},
    {KERNEL("  %1: i64 = add %7, 1\n  ret\n"), "t.ir:3:17: error: %7 is used but never defined", 1},
    {KERNEL("  br @b9\n"), "t.ir:3:6: error: @b9 is not a block of @saxpy", 1},
    {KERNEL("  %3: i32 = sreg tid.x\n  %3: i32 = sreg laneid\n  ret\n"), "t.ir:4:3: error: %3 is defined twice", 1},
    {KERNEL("  %1: f32 = load.foo %0\n  ret\n"), "t.ir:3:13: error: unknown address space 'foo'", 1},
    {KERNEL("  %1: f32 = load %0\n  ret\n"), "t.ir:3:13: error: 'load' needs its address space", 1},
    {KERNEL("  %1: i64 = add.global %0, 1\n  ret\n"), "t.ir:3:13: error: 'add' takes no suffix", 1},
    {KERNEL("  %1: i32 = atom.shared.xor %0, 1\n  ret\n"), "t.ir:3:13: error: unknown atomic operation 'xor'", 1},
    {KERNEL("  %1: i1 = cmp lt %0, %0\n  ret\n"), "t.ir:3:16: error: unknown predicate 'lt'", 1},
    {KERNEL("  %1: i32 = sreg tid.y\n  ret\n"), "t.ir:3:18: error: unknown special register 'tid.y'", 1},
    {KERNEL("  %1: i1 = cmp eq %0, 1\n  ret\n"),
     "t.ir:3:23: error: the constant 1 needs its type here, as in 1:i32", 1},
    {KERNEL("  store.global %0, 300:i8\n  ret\n"), "t.ir:3:20: error: 300 does not fit in i8", 1},
    {KERNEL("  store.global %0, -129:i8\n  ret\n"), "t.ir:3:20: error: -129 does not fit in i8", 1},
    {KERNEL("  store.global %0, 1.5:i32\n  ret\n"), "t.ir:3:20: error: '1.5' is not an integer", 1},
    {KERNEL("  store.global %0, 0x1ffff:f16\n  ret\n"), "t.ir:3:20: error: 0x1ffff is not a f16 bit pattern", 1},
    {KERNEL("  %1: i32 = store.global %0, %0\n  ret\n"), "t.ir:3:13: error: 'store' gives no value", 1},
    {KERNEL("  sreg tid.x\n  ret\n"), "t.ir:3:3: error: 'sreg' gives a value: write %N: T = sreg ...", 1},
    {KERNEL("  ret ?\n"), "t.ir:3:7: error: unexpected character '?'", 1},
    {KERNEL("  br @b0 @b0\n"), "t.ir:3:10: error: expected the end of the line", 1},
    {KERNEL("@b0:\n  ret\n"), "t.ir:3:1: error: @b0 is defined twice", 1},
    {"kernel @k() {\n  ret\n}\n", "t.ir:2:3: error: expected a block label (@b0:) before the first instruction", 1},
    {"kernel @k() frob 3 {\n@b0:\n  ret\n}\n", "t.ir:1:13: error: unknown attribute 'frob'", 1},
    {"kernel @k() {\n@b0:\n  ret\n", "t.ir:3:7: error: expected '}' at the end of the function", 1},
    {"shared $s: f32[x]\n", "t.ir:1:16: error: expected a number", 1},
    {"frob\n", "t.ir:1:1: error: expected 'shared', 'kernel' or 'func'", 1},
    /* recovery: one error per bad line, and the function's end still checked */
    {KERNEL("  %1: i33 = sreg tid.x\n  %2: i32 = frob\n  %3: i64 = add %0, %9\n  br @b4\n"),
     "t.ir:3:7: error: expected a type", 4},
    /* a bad header still has its body read */
    {"kernel @k(%0 i64) {\n@b0:\n  %1: i32 = frob\n  ret\n}\n", "t.ir:1:14: error: expected ':' and the parameter's type", 2},
};

START_TEST(test_parse_error)
{
    const ErrorCase *c = &parse_errors[_i];
    IrRun r;
    run_init(&r);
    ck_assert_ptr_null(parse(&r, c->text));
    char line[512];
    ck_assert_str_eq(first_diagnostic(&r, line, sizeof line), c->first);
    ck_assert_msg(r.diag.errors == c->errors, "%d errors, expected %d:\n%s", r.diag.errors, c->errors,
                  r.diag_text);
    run_free(&r);
}
END_TEST

/* All the errors of the recovery case, in order. */
START_TEST(test_parse_reports_every_line)
{
    IrRun r;
    run_init(&r);
    parse(&r, parse_errors[N(parse_errors) - 2].text);
    const char *want[] = {
        "t.ir:3:7: error: expected a type",
        "t.ir:4:13: error: unknown opcode 'frob'",
        "t.ir:6:6: error: @b4 is not a block of @saxpy",
        "t.ir:5:21: error: %9 is used but never defined",
    };
    const char *p = r.diag_text;
    for (int i = 0; i < N(want); i++) {
        p = strstr(p, "t.ir:");
        ck_assert_ptr_nonnull(p);
        ck_assert_int_eq(strncmp(p, want[i], strlen(want[i])), 0);
        p += strlen(want[i]);
    }
    run_free(&r);
}
END_TEST

/* ---- verifier errors -------------------------------------------------------- */

static const ErrorCase verify_errors[] = {
    {KERNEL("  %1: i32 = sreg tid.x\n"), "t.ir:3:3: error: @b0 does not end in a terminator (br, cbr, ret)", 1},
    {KERNEL("  br @b1\n  ret\n@b1:\n  ret\n"), "t.ir:3:3: error: 'br' ends @b0 before its last instruction", 1},
    {"kernel @k(%0: i1) {\n@b0:\n  cbr %0, @b1, @b2\n@b1:\n  %1: i32 = sreg tid.x\n  br @b2\n@b2:\n"
     "  %2: i32 = add %1, 1\n  ret\n}\n",
     "t.ir:8:3: error: %1 is used before it is defined", 1},
    {KERNEL("  %1: i32 = add %2, 1\n  %2: i32 = sreg tid.x\n  ret\n"),
     "t.ir:3:3: error: %2 is used before it is defined", 1},
    {"kernel @k(%0: i1) {\n@b0:\n  cbr %0, @b1, @b2\n@b1:\n  %1: i32 = sreg tid.x\n  br @b2\n@b2:\n"
     "  %2: i32 = phi [@b1: %1]\n  ret\n}\n",
     "t.ir:8:3: error: phi has 1 operand but @b2 has 2 predecessors", 1},
    {"kernel @k(%0: i1) {\n@b0:\n  cbr %0, @b1, @b2\n@b1:\n  %1: i32 = sreg tid.x\n  br @b2\n@b2:\n"
     "  %3: i32 = sreg laneid\n  %2: i32 = phi [@b1: %1], [@b0: 0]\n  ret\n}\n",
     "t.ir:9:3: error: a phi must come before the other instructions of @b2", 1},
    {"kernel @k(%0: i1) {\n@b0:\n  cbr %0, @b1, @b2\n@b1:\n  %1: i32 = sreg tid.x\n  br @b2\n@b2:\n"
     "  %2: i32 = phi [@b1: %1], [@b0: %1]\n  ret\n}\n",
     "t.ir:8:3: error: %1 is used before it is defined", 1},
    {KERNEL("  %1: i32 = sreg tid.x\n  %2: i32 = add %1, %0\n  ret\n"),
     "t.ir:4:3: error: operand 2 of 'add' is i64, expected i32", 1},
    {"kernel @k(%0: i32) {\n@b0:\n  %1: f32 = load.global %0\n  ret\n}\n",
     "t.ir:3:3: error: operand 1 of 'load' is i32, expected i64", 1},
    {KERNEL("  %1: i32 = trunc %0\n  %2: i64 = sext %1\n  %3: i32 = sext %2\n  ret\n"),
     "t.ir:5:3: error: 'sext' cannot convert i64 to i32", 1},
    {KERNEL("  %1: i1 = cmp slt %0, 0:i32\n  ret\n"), "t.ir:3:3: error: the operands of 'cmp' are i64 and i32", 1},
    {KERNEL("  %1: i64 = fdiv %0, %0\n  ret\n"), "t.ir:3:3: error: 'fdiv' needs a float type, not i64", 1},
    {KERNEL("  %1: i64 = add %0\n  ret\n"), "t.ir:3:3: error: 'add' takes 2 operands, not 1", 1},
    {KERNEL("  ret %0\n"), "t.ir:3:3: error: 'ret' takes 0 operands, not 1", 1},
    {KERNEL("  %1: i64 = addr.shared $nothing\n  ret\n"), "t.ir:3:3: error: $nothing is not a shared array", 1},
    {KERNEL("  %1: i32 = atom.param.add %0, 1\n  ret\n"),
     "t.ir:3:3: error: 'atom' works on global or shared memory only", 1},
    {"kernel @k() {\n@b0:\n  %0: i1 = sreg laneid\n  ret\n}\n", "t.ir:3:3: error: 'sreg' gives i32, not i1", 1},
    {KERNEL("  assigned $x %0\n  ret\n"), "t.ir:3:3: error: operand 1 of 'assigned' is i64, expected i1", 1},
};

START_TEST(test_verify_error)
{
    const ErrorCase *c = &verify_errors[_i];
    IrRun r;
    run_init(&r);
    IrModule *m = parse_ok(&r, c->text);
    int n = verify(&r, m);
    char line[512];
    ck_assert_str_eq(first_diagnostic(&r, line, sizeof line), c->first);
    ck_assert_msg(n == c->errors, "%d errors, expected %d:\n%s", n, c->errors, r.diag_text);
    run_free(&r);
}
END_TEST

/* The parser refuses a second definition, so the module is edited. */
START_TEST(test_verify_defined_twice)
{
    IrRun r;
    run_init(&r);
    IrModule *m = parse_ok(&r, KERNEL("  %1: i32 = sreg tid.x\n  %2: i32 = sreg laneid\n  ret\n"));
    m->funcs[0]->blocks[0]->insts[1]->result = 1;
    ck_assert_int_eq(verify(&r, m), 1);
    char line[512];
    ck_assert_str_eq(first_diagnostic(&r, line, sizeof line), "t.ir:4:3: error: %1 is defined twice");
    run_free(&r);
}
END_TEST

/* Nor can text branch into another function. */
START_TEST(test_verify_branch_into_another_function)
{
    IrRun r;
    run_init(&r);
    IrModule *m = parse_ok(&r, "kernel @a() {\n@b0:\n  br @b1\n@b1:\n  ret\n}\n\n"
                               "kernel @b() {\n@b0:\n  br @b5\n@b5:\n  ret\n}\n");
    m->funcs[0]->blocks[0]->insts[0]->target[0] = m->funcs[1]->blocks[1];
    ck_assert_int_eq(verify(&r, m), 1);
    char line[512];
    ck_assert_str_eq(first_diagnostic(&r, line, sizeof line), "t.ir:3:3: error: @b5 is not a block of @a");
    run_free(&r);
}
END_TEST

/* Built IR: the builders number blocks and registers; it prints as text
 * and, without spans, errors name function, block and instruction. */
START_TEST(test_built_ir)
{
    IrRun r;
    run_init(&r);
    IrModule *m = ir_new_module(r.arena);
    ir_add_shared(m, "tile", IRT_F32, 64);
    IrFunc *f = ir_new_func(m, "saxpy", true);
    f->reqntid = 64;
    IrParam *a = ir_add_param(m, f, "a", IRT_I64);
    IrBlock *b0 = ir_new_block(m, f), *b1 = ir_new_block(m, f);
    IrInst *tid = ir_append(m, f, b0, IR_SREG, IRT_I32, 0);
    tid->sreg = IRR_TID_X;
    IrInst *wide = ir_append(m, f, b0, IR_ZEXT, IRT_I64, 1);
    wide->operands[0] = ir_reg(tid);
    IrInst *br = ir_append(m, f, b0, IR_BR, IRT_VOID, 0);
    br->target[0] = b1;
    IrInst *sum = ir_append(m, f, b1, IR_ADD, IRT_I64, 2);
    sum->operands[0] = (IrValue){.kind = IRV_REG, .type = IRT_I64, .reg = a->reg};
    sum->operands[1] = ir_reg(wide);
    IrInst *st = ir_append(m, f, b1, IR_STORE, IRT_VOID, 2);
    st->space = IRS_GLOBAL;
    st->operands[0] = ir_reg(sum);
    st->operands[1] = ir_float(IRT_F32, -2.5);
    ir_append(m, f, b1, IR_RET, IRT_VOID, 0);
    char *text = print(m);
    ck_assert_str_eq(text,
        "shared $tile: f32[64]\n\n"
        "kernel @saxpy(%0: i64 $a) reqntid 64 {\n"
        "@b0:\n  %1: i32 = sreg tid.x\n  %2: i64 = zext %1\n  br @b1\n"
        "@b1:\n  %3: i64 = add %0, %2\n  store.global %3, -2.5:f32\n  ret\n}\n");
    free(text);
    ck_assert_int_eq(verify(&r, m), 0);

    sum->operands[1] = (IrValue){.kind = IRV_REG, .type = IRT_I64, .reg = 3}; /* itself */
    ck_assert_int_eq(verify(&r, m), 1);
    char line[512];
    ck_assert_str_eq(first_diagnostic(&r, line, sizeof line),
                     "silkc: error: in @saxpy, @b1, instruction 0: %3 is used before it is defined");
    run_free(&r);
}
END_TEST

/* ---- the passes (pass.h; each pass has golden tests in tests/ir) ------------ */

/* The optimised module of each round-trip case prints, parses back and
 * verifies, and the pipeline has reached its fixed point: a second run
 * changes nothing. */
START_TEST(test_optimize_fixed_point)
{
    IrRun r;
    run_init(&r);
    IrModule *m = parse_ok(&r, round_trip_cases[_i]);
    ck_assert(ir_optimize(m, &r.diag, true));
    char *once = print(m);
    IrModule *again = parse_ok(&r, once);
    ck_assert_int_eq(verify(&r, again), 0);
    ck_assert(ir_optimize(again, &r.diag, true));
    char *twice = print(again);
    ck_assert_str_eq(twice, once);
    free(once);
    free(twice);
    run_free(&r);
}
END_TEST

/* A pass that breaks the IR: it drops the entry's first instruction, whose
 * value the next one reads. */
static bool pass_break(IrModule *m, IrFunc *f, Arena *scratch)
{
    (void)m, (void)scratch;
    IrBlock *b = f->blocks[0];
    memmove(b->insts, b->insts + 1, (b->n_insts - 1) * sizeof *b->insts);
    b->n_insts--;
    return true;
}

/* The verifier after each pass names the pass that broke the IR. */
START_TEST(test_pass_blamed)
{
    IrRun r;
    run_init(&r);
    IrModule *m = parse_ok(&r, saxpy);
    ck_assert(!pass_run(m, "break", pass_break, &r.diag, true, NULL));
    fflush(r.diag_out);
    ck_assert_int_eq(r.diag.errors, 2);
    ck_assert_ptr_nonnull(strstr(r.diag_text, "%4 is used but never defined"));
    ck_assert_ptr_nonnull(
        strstr(r.diag_text, "error: the IR failed verification after pass break: a compiler bug\n"));
    run_free(&r);
}
END_TEST

/* ---- the suite --------------------------------------------------------------- */

static Suite *ir_suite(void)
{
    Suite *s = suite_create("ir");
    TCase *tc = tcase_create("text form");
    tcase_add_loop_test(tc, test_round_trip, 0, N(round_trip_cases));
    tcase_add_test(tc, test_every_opcode_is_covered);
    tcase_add_test(tc, test_parse_builds_the_module);
    tcase_add_test(tc, test_float_bits);
    tcase_add_test(tc, test_non_canonical_input);
    suite_add_tcase(s, tc);

    tc = tcase_create("parse errors");
    tcase_add_loop_test(tc, test_parse_error, 0, N(parse_errors));
    tcase_add_test(tc, test_parse_reports_every_line);
    suite_add_tcase(s, tc);

    tc = tcase_create("verifier");
    tcase_add_loop_test(tc, test_verify_error, 0, N(verify_errors));
    tcase_add_test(tc, test_verify_defined_twice);
    tcase_add_test(tc, test_verify_branch_into_another_function);
    tcase_add_test(tc, test_built_ir);
    suite_add_tcase(s, tc);

    tc = tcase_create("passes");
    tcase_add_loop_test(tc, test_optimize_fixed_point, 0, N(round_trip_cases));
    tcase_add_test(tc, test_pass_blamed);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(ir_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
