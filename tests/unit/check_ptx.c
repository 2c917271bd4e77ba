/*
 * check_ptx.c: unit tests of the PTX backend (compiler/ptx.c, ptx_inst.c).
 *
 * Hand-written IR modules (parsed with ir_parse, checked with ir_verify)
 * cover between them every opcode of ir_ops.def, which a test checks:
 * saxpy; loops whose phis include a swap (a parallel copy) and branches
 * with copies on one or both edges; a block reduction with shared memory,
 * bar.sync and shfl.down; atomics on global and shared memory; i8, i16,
 * f16, f64 and i1 values through every operation that treats them
 * specially; and check_ir's kernel of every other opcode.
 *
 * Golden: each module's PTX for sm_90 against tests/data/ptx/CASE.ptx
 * (reviewed line by line when written; SILK_UPDATE_GOLDEN=1 rewrites them,
 * to be reviewed again).  Then the .version and .target lines for every
 * target, the errors for an unknown target and for IR PTX cannot express,
 * and determinism.
 *
 * Live: every module for every target is assembled by the real ptxas
 * (ptxas_run_targets): no rejections.  A target the installed ptxas does
 * not know is skipped with a message naming it.  The launch bounds reach
 * ptxas: a kernel with 48 values live at once uses more than 32 registers
 * without .maxnreg and at most 32 with `.maxnreg 32`.  Without a ptxas the
 * live tests are left out and, if the rest pass, the program exits 77.
 */
#include <config.h>

#include "arena.h"
#include "diag.h"
#include "ir.h"
#include "amdgpu/amdgpu.h"
#include "amdgpu/llc.h"
#include "ptx/ptx.h"
#include "ptx/ptxas.h"
#include "tempdir.h"
#include "source.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- the IR cases ------------------------------------------------------------ */

static const char saxpy[] =
    "kernel @saxpy(%0: i32 $n, %1: f32 $a, %2: i64 $x, %3: i64 $y) reqntid 256 minnctapersm 2 {\n"
    "@b0:\n"
    "  %4: i32 = sreg ctaid.x\n"
    "  %5: i32 = sreg ntid.x\n"
    "  %6: i32 = sreg tid.x\n"
    "  %7: i32 = mul %4, %5\n"
    "  %8: i32 = add %7, %6\n"
    "  %9: i1 = cmp slt %8, %0\n"
    "  cbr %9, @b1, @b2\n"
    "@b1:\n"
    "  %10: i64 = sext %8\n"
    "  %11: i64 = shl %10, 2\n"
    "  %12: i64 = add %2, %11\n"
    "  %13: i64 = add %3, %11\n"
    "  %14: f32 = load.global %12\n"
    "  %15: f32 = load.global %13\n"
    "  %16: f32 = fma %1, %14, %15\n"
    "  store.global %13, %16\n"
    "  br @b2\n"
    "@b2:\n"
    "  ret\n"
    "}\n";

/* @swap: %3 and %4 trade values each iteration, which sequential copies
 * would get wrong.  @dowhile: the back edge is the header's own, and the
 * exit reads the phi, so the copy must not run on the exit edge.  @edges:
 * both edges of a branch carry copies.  @sum: a helper function. */
static const char loops[] =
    "kernel @swap(%0: i64 $out, %1: i32 $n) reqntid 128 {\n"
    "@b0:\n"
    "  br @b1\n"
    "@b1:\n"
    "  %2: i32 = phi [@b0: 0], [@b2: %6]\n"
    "  %3: i32 = phi [@b0: 1], [@b2: %4]\n"
    "  %4: i32 = phi [@b0: 2], [@b2: %3]\n"
    "  %5: i1 = cmp slt %2, %1\n"
    "  cbr %5, @b2, @b3\n"
    "@b2:\n"
    "  %6: i32 = add %2, 1\n"
    "  br @b1\n"
    "@b3:\n"
    "  %7: i32 = sub %3, %4\n"
    "  store.global %0, %7\n"
    "  ret\n"
    "}\n"
    "\n"
    "kernel @dowhile(%0: i64 $out, %1: i32 $n) {\n"
    "@b0:\n"
    "  br @b1\n"
    "@b1:\n"
    "  %2: i32 = phi [@b0: 0], [@b1: %3]\n"
    "  %3: i32 = add %2, 1\n"
    "  %4: i1 = cmp ult %3, %1\n"
    "  cbr %4, @b1, @b2\n"
    "@b2:\n"
    "  store.global %0, %2\n"
    "  ret\n"
    "}\n"
    "\n"
    "kernel @edges(%0: i64 $out, %1: i32 $n) {\n"
    "@b0:\n"
    "  %2: i1 = cmp sgt %1, 0:i32\n"
    "  cbr %2, @b1, @b2\n"
    "@b1:\n"
    "  %3: i32 = phi [@b0: 7]\n"
    "  br @b3\n"
    "@b2:\n"
    "  %4: i32 = phi [@b0: %1]\n"
    "  br @b3\n"
    "@b3:\n"
    "  %5: i32 = phi [@b1: %3], [@b2: %4]\n"
    "  store.global %0, %5\n"
    "  ret\n"
    "}\n"
    "\n"
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

static const char reduction[] =
    "shared $partial: f32[32]\n"
    "\n"
    "kernel @reduce(%0: i64 $in, %1: i64 $out) reqntid 1024 minnctapersm 1 {\n"
    "@b0:\n"
    "  %2: i32 = sreg tid.x\n"
    "  %3: i32 = sreg ntid.x\n"
    "  %4: i32 = sreg ctaid.x\n"
    "  %5: i32 = mul %4, %3\n"
    "  %6: i32 = add %5, %2\n"
    "  %7: i64 = zext %6\n"
    "  %8: i64 = shl %7, 2\n"
    "  %9: i64 = add %0, %8\n"
    "  %10: f32 = load.global %9\n"
    "  %11: f32 = shfl.down %10, 16\n"
    "  %12: f32 = add %10, %11\n"
    "  %13: f32 = shfl.down %12, 8\n"
    "  %14: f32 = add %12, %13\n"
    "  %15: i32 = sreg laneid\n"
    "  %16: i32 = lshr %2, 5\n"
    "  %17: i64 = addr.shared $partial\n"
    "  %18: i64 = zext %16\n"
    "  %19: i64 = shl %18, 2\n"
    "  %20: i64 = add %17, %19\n"
    "  %21: i1 = cmp eq %15, 0:i32\n"
    "  cbr %21, @b1, @b2\n"
    "@b1:\n"
    "  store.shared %20, %14\n"
    "  br @b2\n"
    "@b2:\n"
    "  bar.sync\n"
    "  %22: i1 = cmp eq %2, 0:i32\n"
    "  cbr %22, @b3, @b4\n"
    "@b3:\n"
    "  %23: f32 = load.shared %17\n"
    "  %24: f32 = atom.global.add %1, %23\n"
    "  br @b4\n"
    "@b4:\n"
    "  ret\n"
    "}\n";

static const char atomics[] =
    "shared $hist: i32[256] align 16\n"
    "shared $total: i64[1]\n"
    "\n"
    "kernel @atomics(%0: i64 $data, %1: i64 $out, %2: f64 $w) reqntid 256 {\n"
    "@b0:\n"
    "  %3: i32 = sreg tid.x\n"
    "  %4: i64 = zext %3\n"
    "  %5: i64 = add %0, %4\n"
    "  %6: i8 = load.global %5\n"
    "  %7: i32 = zext %6\n"
    "  %8: i64 = zext %6\n"
    "  %9: i64 = shl %8, 2\n"
    "  %10: i64 = addr.shared $hist\n"
    "  %11: i64 = add %10, %9\n"
    "  %12: i32 = atom.shared.add %11, 1\n"
    "  %13: i32 = atom.shared.smin %11, -5\n"
    "  %14: i32 = atom.shared.umax %11, %7\n"
    "  %15: i32 = atom.shared.exch %11, %12\n"
    "  %16: i32 = atom.shared.cas %11, %13, %14\n"
    "  %17: i64 = addr.shared $total\n"
    "  %18: i64 = atom.shared.add %17, 1\n"
    "  bar.sync\n"
    "  %19: i64 = atom.global.umin %1, %18\n"
    "  %20: i64 = atom.global.smax %1, -1\n"
    "  %21: f64 = atom.global.add %1, %2\n"
    "  %22: f32 = atom.global.exch %1, 1.5\n"
    "  %23: i32 = atom.global.cas %1, 0, %3\n"
    "  %24: i32 = atom.global.umin %1, %16\n"
    "  %25: i32 = atom.global.smax %1, %15\n"
    "  store.global %1, %19\n"
    "  store.global %1, %20\n"
    "  store.global %1, %21\n"
    "  store.global %1, %22\n"
    "  store.global %1, %23\n"
    "  store.global %1, %24\n"
    "  store.global %1, %25\n"
    "  ret\n"
    "}\n";

/* Sub-word, half, double and predicate values through the operations
 * that treat them specially. */
static const char types[] =
    "kernel @types(%0: i64 $p, %1: i8 $c, %2: i16 $s, %3: f16 $h, %4: f64 $d, %5: i1 $b) {\n"
    "@b0:\n"
    "  %6: i8 = load.global %0\n"
    "  %7: i8 = add %6, %1\n"
    "  %8: i8 = sdiv %7, -3\n"
    "  %9: i8 = udiv %7, 200\n"
    "  %10: i8 = ashr %8, %1\n"
    "  %11: i8 = lshr %9, 1\n"
    "  %12: i8 = shl %10, %11\n"
    "  %13: i8 = smax %12, %6\n"
    "  %14: i8 = abs %13\n"
    "  %15: i1 = cmp ult %14, %6\n"
    "  %16: i16 = sext %14\n"
    "  %17: i16 = mul %16, %2\n"
    "  %18: i16 = srem %17, 7\n"
    "  %19: i16 = umin %18, %2\n"
    "  %20: i16 = neg %19\n"
    "  %21: i1 = cmp sle %20, -2:i16\n"
    "  %22: i8 = trunc %20\n"
    "  %23: f16 = load.global %0\n"
    "  %24: f16 = add %23, %3\n"
    "  %25: f16 = mul %24, 1.5\n"
    "  %26: f16 = fdiv %25, %3\n"
    "  %27: f16 = sqrt %26\n"
    "  %28: f16 = neg %27\n"
    "  %29: f16 = abs %28\n"
    "  %30: f16 = fma %29, %3, -2.0\n"
    "  %31: f16 = fmax %30, %23\n"
    "  %32: i1 = cmp fge %31, 0.5:f16\n"
    "  %33: f16 = select %32, %31, %3\n"
    "  %34: f32 = fpext %33\n"
    "  %35: i16 = bitcast %33\n"
    "  %36: f64 = sin %4\n"
    "  %37: f64 = exp %36\n"
    "  %38: f64 = sqrt %37\n"
    "  %39: f64 = rsqrt %38\n"
    "  %40: f64 = floor %39\n"
    "  %41: f64 = fdiv %40, 3.0\n"
    "  %42: f64 = abs %41\n"
    "  %43: i1 = cmp fne %42, %4\n"
    "  %44: i1 = and %15, %21\n"
    "  %45: i1 = or %44, %32\n"
    "  %46: i1 = xor %45, %43\n"
    "  %47: i1 = not %46\n"
    "  %48: i1 = add %47, %5\n"
    "  %49: i1 = mul %48, %15\n"
    "  %50: i1 = smin %49, 1\n"
    "  %51: i1 = select %50, %5, %49\n"
    "  %52: i1 = cmp eq %51, %5\n"
    "  %53: i32 = zext %52\n"
    "  %54: i64 = sext %52\n"
    "  %55: f32 = sitofp %52\n"
    "  %56: i1 = trunc %53\n"
    "  %57: i1 = fptoui %34\n"
    "  %58: i1 = load.global %0\n"
    "  %59: f32 = bitcast %53\n"
    "  %60: f16 = fptrunc %4\n"
    "  %61: i8 = fptosi %34\n"
    "  %62: f32 = uitofp %22\n"
    "  store.global %0, %56\n"
    "  store.global %0, %57\n"
    "  store.global %0, %58\n"
    "  store.global %0, %22\n"
    "  store.global %0, %35\n"
    "  store.global %0, %42\n"
    "  store.global %0, %54\n"
    "  store.global %0, %55\n"
    "  store.global %0, %59\n"
    "  store.global %0, %60\n"
    "  store.global %0, %61\n"
    "  store.global %0, %62\n"
    "  store.global %0, 1.0:f16\n"
    "  store.global %0, -1:i8\n"
    "  ret\n"
    "}\n";

/* check_ir.c's kernel of every other opcode, constants of every type. */
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
    "  check.0 $x %37, 1024\n" /* the CPU backend's: no PTX */
    "  assigned $v %33\n"
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
    "  %59: i32 = sreg warpid\n"
    "  %60: i32 = shfl.bfly %59, 4\n"
    "  %61: i32 = mul %60, %1\n"
    "  store.local %52, %45\n"
    "  store.global %52, -0.0:f64\n"
    "  store.global %52, 0x1.249ad2594c37dp+332:f64\n"
    "  store.global %52, 3.0517578125e-05:f32\n"
    "  store.global %52, -65504.0:f16\n"
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
    "  store.global %52, %61\n"
    "  ret\n"
    "}\n";

typedef struct Case {
    const char *name; /* tests/data/ptx/NAME.ptx */
    const char *text;
} Case;

static const Case cases[] = {
    {"saxpy", saxpy}, {"loops", loops}, {"reduction", reduction},
    {"atomics", atomics}, {"types", types}, {"every_op", every_op},
};

/* Every target and the PTX ISA version it needs, written here apart from
 * ptx.c's table (from the PTX ISA's release notes and LLVM's NVPTX.td). */
static const struct {
    const char *target, *version;
} targets[] = {
    {"sm_75", "6.3"}, {"sm_80", "7.0"}, {"sm_86", "7.1"},   {"sm_87", "7.4"},
    {"sm_89", "7.8"}, {"sm_90", "7.8"}, {"sm_90a", "8.0"},  {"sm_100", "8.6"},
    {"sm_103", "8.8"}, {"sm_110", "9.0"}, {"sm_120", "8.7"}, {"sm_121", "8.8"},
};

/* ---- running the parser and the backend ------------------------------------------ */

typedef struct Run {
    Arena *arena;
    SourceMap sources;
    Diag diag;
    FILE *diag_out;
    char *diag_text;
    size_t diag_len;
} Run;

static void run_init(Run *r)
{
    r->arena = arena_new();
    source_map_init(&r->sources, r->arena);
    r->diag_text = NULL;
    r->diag_len = 0;
    r->diag_out = open_memstream(&r->diag_text, &r->diag_len);
    ck_assert_ptr_nonnull(r->diag_out);
    diag_init(&r->diag, &r->sources, r->arena, r->diag_out);
    r->diag.colour = false;
}

static void run_free(Run *r)
{
    fclose(r->diag_out);
    free(r->diag_text);
    arena_free(r->arena);
}

/* The case parsed and verified. */
static IrModule *parse_ok(Run *r, const char *text)
{
    uint32_t file = source_add_text(&r->sources, "t.ir", text, strlen(text));
    IrModule *m = ir_parse(&r->sources, file, &r->diag, r->arena);
    fflush(r->diag_out);
    ck_assert_msg(m != NULL, "parse failed:\n%s", r->diag_text ? r->diag_text : "");
    ck_assert_int_eq(ir_verify(m, &r->diag), 0);
    return m;
}

/* The PTX in a malloc'd string; *ok is what ptx_emit_module returned. */
static char *emit(Run *r, const IrModule *m, const char *target, bool *ok)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(out);
    *ok = ptx_emit_module(m, target, out, &r->diag);
    fclose(out);
    fflush(r->diag_out);
    return text;
}

static char *emit_ok(Run *r, const char *ir, const char *target)
{
    bool ok;
    char *ptx = emit(r, parse_ok(r, ir), target, &ok);
    ck_assert_msg(ok, "ptx_emit_module failed:\n%s", r->diag_text ? r->diag_text : "");
    return ptx;
}

/* tests/data: $SILK_TEST_DATA under make check, else the source tree's. */
static void data_path(char *buf, size_t size, const char *name)
{
    const char *dir = getenv("SILK_TEST_DATA");
    int len = snprintf(buf, size, "%s/ptx/%s.ptx", dir && *dir ? dir : SILK_TEST_DATA_DIR, name);
    ck_assert_int_lt(len, (int)size);
}

/* A whole file in a malloc'd string, or NULL. */
static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(out);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        fwrite(buf, 1, n, out);
    fclose(f);
    fclose(out);
    return text;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    ck_assert_msg(f != NULL, "cannot write %s: %s", path, strerror(errno));
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

/* The first line where two texts differ, for the failure message. */
static int first_difference(const char *a, const char *b)
{
    int line = 1;
    for (; *a && *a == *b; a++, b++)
        line += *a == '\n';
    return line;
}

/* ---- golden ------------------------------------------------------------------------- */

START_TEST(test_golden)
{
    const Case *c = &cases[_i];
    Run r;
    run_init(&r);
    char *ptx = emit_ok(&r, c->text, "sm_90");
    char path[4096];
    data_path(path, sizeof path, c->name);
    const char *update = getenv("SILK_UPDATE_GOLDEN");
    if (update && strcmp(update, "1") == 0)
        write_file(path, ptx);
    char *want = read_file(path);
    ck_assert_msg(want != NULL, "cannot read %s: %s", path, strerror(errno));
    ck_assert_msg(strcmp(ptx, want) == 0, "%s differs from the output at line %d; the output:\n%s", path,
                  first_difference(ptx, want), ptx);
    free(want);
    free(ptx);
    run_free(&r);
}
END_TEST

/* Together the cases use every opcode. */
START_TEST(test_every_opcode_is_covered)
{
    bool seen[IR_OP_COUNT] = {false};
    Run r;
    run_init(&r);
    for (int c = 0; c < N(cases); c++) {
        const IrModule *m = parse_ok(&r, cases[c].text);
        for (uint32_t f = 0; f < m->n_funcs; f++)
            for (uint32_t b = 0; b < m->funcs[f]->n_blocks; b++)
                for (uint32_t i = 0; i < m->funcs[f]->blocks[b]->n_insts; i++)
                    seen[m->funcs[f]->blocks[b]->insts[i]->op] = true;
    }
    for (int op = 0; op < IR_OP_COUNT; op++)
        ck_assert_msg(seen[op], "no case uses '%s'", ir_op_name((IrOp)op));
    run_free(&r);
}
END_TEST

/* ---- the same cases on AMD GPUs (issue 15) ---------------------------------------------- */

static const char *const amd_targets[] = {"gfx90a", "gfx942", "gfx1100", "gfx1201"};

/* `text` with the first `from` replaced by `to`, in the arena. */
static char *replaced(Arena *arena, const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    ck_assert_ptr_nonnull(at);
    size_t len = strlen(text) - strlen(from) + strlen(to);
    char *out = arena_alloc(arena, len + 1, 1);
    snprintf(out, len + 1, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    return out;
}

/* A case's IR for AMD: every_op's three instructions with no AMD form
 * (test_amdgpu_refusals) replaced by ones that keep the types. */
static const char *amd_text(Run *r, int c)
{
    if (strcmp(cases[c].name, "every_op") != 0)
        return cases[c].text;
    char *t = replaced(r->arena, cases[c].text, "sreg nsmid", "sreg ntid.x");
    t = replaced(r->arena, t, "addr.param $p", "copy 0");
    return replaced(r->arena, t, "load.param %51", "copy %51");
}

/* What has no AMD form, each refused at its instruction. */
START_TEST(test_amdgpu_refusals)
{
    Run r;
    run_init(&r);
    const IrModule *m = parse_ok(&r, every_op);
    FILE *out = fopen("/dev/null", "w");
    ck_assert(!amdgpu_emit_module(m, amd_targets[_i], out, &r.diag));
    fclose(out);
    fflush(r.diag_out);
    const char *want[] = {
        "t.ir:51:3: error: ctx.sms has no AMDGPU form: no register holds the number of CUs\n",
        "t.ir:52:3: error: the address of a kernel parameter has no AMDGPU form\n",
        "t.ir:53:3: error: parameter-space memory has no AMDGPU form\n",
    };
    for (int i = 0; i < N(want); i++)
        ck_assert_msg(strstr(r.diag_text, want[i]) != NULL, "no '%s' in:\n%s", want[i], r.diag_text);
    ck_assert_int_eq(r.diag.errors, 3);
    run_free(&r);
}
END_TEST

/* Every case, so every opcode, has an AMDGPU form on each AMD target, and
 * llc-19 and ld.lld-19 (when installed) make a code object of it whose
 * metadata names every kernel. */
START_TEST(test_amdgpu_every_case)
{
    const char *arch = amd_targets[_i];
    for (int c = 0; c < N(cases); c++) {
        Run r;
        run_init(&r);
        const IrModule *m = parse_ok(&r, amd_text(&r, c));
        char *text = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&text, &len);
        bool ok = amdgpu_emit_module(m, arch, out, &r.diag);
        fclose(out);
        fflush(r.diag_out);
        ck_assert_msg(ok, "%s on %s:\n%s", cases[c].name, arch, r.diag_text ? r.diag_text : "");
        const char *llc = amdgpu_llc_find(), *lld = amdgpu_lld_find(), *base;
        char *dir = llc && lld ? tempdir_make("silk-check-ptx", &base) : NULL;
        if (dir) {
            char ll[4096], obj[4096], hsaco[4096];
            snprintf(ll, sizeof ll, "%s/k.ll", dir);
            snprintf(obj, sizeof obj, "%s/k.o", dir);
            snprintf(hsaco, sizeof hsaco, "%s/k.hsaco", dir);
            FILE *f = fopen(ll, "w");
            fputs(text, f);
            fclose(f);
            const char **kernels = ARENA_ARRAY(r.arena, const char *, m->n_funcs + 1);
            int n_kernels = 0;
            for (uint32_t k = 0; k < m->n_funcs; k++)
                if (m->funcs[k]->kernel)
                    kernels[n_kernels++] = m->funcs[k]->name;
            const char *lls[] = {ll}, *archs[] = {arch}, *objs[] = {obj}, *hsacos[] = {hsaco}, *tools[1];
            UsageReport got;
            int rc = amdgpu_compile_targets(llc, lld, lls, archs, objs, hsacos, 1, kernels, n_kernels,
                                            r.arena, &got, tools);
            ck_assert_msg(rc == 0, "%s on %s: %s\n%s", cases[c].name, arch, got.errors ? got.errors : "", text);
            ck_assert_int_eq(got.n_kernels, n_kernels);
            tempdir_remove(dir, 0);
        }
        free(text);
        run_free(&r);
    }
}
END_TEST

/* ---- targets ------------------------------------------------------------------------ */

START_TEST(test_target_header)
{
    Run r;
    run_init(&r);
    char *ptx = emit_ok(&r, saxpy, targets[_i].target);
    char want[256];
    snprintf(want, sizeof want, "\n.version %s\n.target %s\n.address_size 64\n", targets[_i].version,
             targets[_i].target);
    ck_assert_msg(strstr(ptx, want) != NULL, "no '%s' in:\n%s", want, ptx);
    ck_assert_str_eq(ptx_isa_version(targets[_i].target), targets[_i].version);
    free(ptx);
    run_free(&r);
}
END_TEST

START_TEST(test_unknown_target)
{
    Run r;
    run_init(&r);
    bool ok = true;
    char *ptx = emit(&r, parse_ok(&r, saxpy), "sm_70", &ok);
    ck_assert(!ok);
    ck_assert_int_eq(r.diag.errors, 1);
    ck_assert_ptr_nonnull(strstr(r.diag_text, "unknown PTX target 'sm_70'"));
    ck_assert_ptr_null(ptx_isa_version("sm_9"));
    ck_assert_ptr_null(ptx_isa_version(NULL));
    free(ptx);
    run_free(&r);
}
END_TEST

/* What PTX cannot express is an error at the instruction. */
static const struct {
    const char *text, *message;
} emit_errors[] = {
    {"kernel @k(%0: i64) {\n@b0:\n  %1: i8 = atom.global.add %0, 1\n  ret\n}\n",
     "t.ir:3:3: error: 'atom.add' of i8 has no PTX form"},
    {"kernel @k(%0: i64 $p) {\n@b0:\n  %1: i64 = addr.param $p\n  store.param %1, 1:i32\n  ret\n}\n",
     "t.ir:4:3: error: a kernel's parameters cannot be stored to in PTX"},
    {"kernel @k(%0: i1) {\n@b0:\n  %1: i1 = sdiv %0, %0\n  ret\n}\n", "t.ir:3:3: error: 'sdiv' of i1 has no PTX form"},
};

START_TEST(test_emit_error)
{
    Run r;
    run_init(&r);
    bool ok = true;
    char *ptx = emit(&r, parse_ok(&r, emit_errors[_i].text), "sm_90", &ok);
    ck_assert(!ok);
    ck_assert_int_eq(r.diag.errors, 1);
    ck_assert_msg(strncmp(r.diag_text, emit_errors[_i].message, strlen(emit_errors[_i].message)) == 0,
                  "got: %s", r.diag_text);
    free(ptx);
    run_free(&r);
}
END_TEST

/* The same module gives the same bytes. */
START_TEST(test_deterministic)
{
    Run r;
    run_init(&r);
    for (int c = 0; c < N(cases); c++) {
        char *a = emit_ok(&r, cases[c].text, "sm_80"), *b = emit_ok(&r, cases[c].text, "sm_80");
        ck_assert_str_eq(a, b);
        free(a);
        free(b);
    }
    run_free(&r);
}
END_TEST

/* ---- live ------------------------------------------------------------------------------ */

typedef struct LiveDir {
    char path[4096];
    char **files;
    int n_files;
} LiveDir;

static void live_dir_make(LiveDir *d)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(d->path, sizeof d->path, "%s/silk-ptx.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(d->path));
    d->files = NULL;
    d->n_files = 0;
}

/* Writes `ptx` to a new file of the directory and returns its path. */
static const char *live_file(LiveDir *d, const char *name, const char *target, const char *ptx)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s-%s.ptx", d->path, name, target);
    write_file(path, ptx);
    d->files = realloc(d->files, (size_t)(d->n_files + 1) * sizeof *d->files);
    ck_assert_ptr_nonnull(d->files);
    d->files[d->n_files] = strdup(path);
    return d->files[d->n_files++];
}

static void live_dir_remove(LiveDir *d)
{
    for (int i = 0; i < d->n_files; i++) {
        unlink(d->files[i]);
        free(d->files[i]);
    }
    free(d->files);
    rmdir(d->path);
}

/* Whether the installed ptxas knows `target`: it names it in its error
 * when not ("Value 'sm_110' is not defined for option 'gpu-name'"). */
static bool ptxas_knows(const UsageReport *r)
{
    return r->exit_status == 0 || !r->errors || !strstr(r->errors, "is not defined for option 'gpu-name'");
}

START_TEST(test_live_every_case_every_target)
{
    enum { PAIRS = N(cases) * N(targets) };
    Run r;
    run_init(&r);
    LiveDir d;
    live_dir_make(&d);
    const char *paths[PAIRS], *archs[PAIRS];
    for (int i = 0; i < PAIRS; i++) {
        const Case *c = &cases[i / N(targets)];
        archs[i] = targets[i % N(targets)].target;
        char *ptx = emit_ok(&r, c->text, archs[i]);
        paths[i] = live_file(&d, c->name, archs[i], ptx);
        free(ptx);
    }
    UsageReport out[PAIRS];
    ptxas_run_targets(ptxas_find(), paths, archs, PAIRS, r.arena, out);
    int assembled = 0;
    for (int i = 0; i < PAIRS; i++) {
        if (!ptxas_knows(&out[i])) {
            if (i < N(targets)) /* once per target */
                printf("SKIP %s: the installed ptxas does not know it\n", archs[i]);
            continue;
        }
        ck_assert_msg(out[i].exit_status == 0, "ptxas rejected %s for %s (a compiler bug):\n%s", cases[i / N(targets)].name,
                      archs[i], out[i].errors ? out[i].errors : "");
        assembled++;
    }
    ck_assert_int_gt(assembled, 0);
    live_dir_remove(&d);
    run_free(&r);
}
END_TEST

/* A kernel with 48 floats live at once: every load comes before the first
 * store, and the stores may alias the loads, so ptxas cannot interleave
 * them. */
static char *many_live_kernel(const char *bounds)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(f);
    enum { LIVE = 48 };
    fprintf(f, "kernel @many(%%0: i64 $in, %%1: i64 $out) reqntid 256 minnctapersm 2%s {\n@b0:\n", bounds);
    uint32_t reg = 2;
    for (int i = 0; i < LIVE; i++, reg += 2) {
        fprintf(f, "  %%%u: i64 = add %%0, %d\n", reg, 4 * i);
        fprintf(f, "  %%%u: f32 = load.global %%%u\n", reg + 1, reg);
    }
    for (int i = 0; i < LIVE; i++, reg++) {
        fprintf(f, "  %%%u: i64 = add %%1, %d\n", reg, 4 * i);
        fprintf(f, "  store.global %%%u, %%%u\n", reg, 2 + 2 * (LIVE - 1 - i) + 1);
    }
    fputs("  ret\n}\n", f);
    fclose(f);
    return text;
}

START_TEST(test_live_launch_bounds)
{
    Run r;
    run_init(&r);
    LiveDir d;
    live_dir_make(&d);
    char *free_ir = many_live_kernel(""), *capped_ir = many_live_kernel(" maxnreg 32");
    char *free_ptx = emit_ok(&r, free_ir, "sm_80"), *capped_ptx = emit_ok(&r, capped_ir, "sm_80");
    ck_assert_ptr_nonnull(strstr(capped_ptx, "\n.reqntid 256, 1, 1\n.minnctapersm 2\n.maxnreg 32\n{\n"));
    ck_assert_ptr_null(strstr(free_ptx, ".maxnreg"));
    const char *paths[2] = {live_file(&d, "free", "sm_80", free_ptx), live_file(&d, "capped", "sm_80", capped_ptx)};
    const char *archs[2] = {"sm_80", "sm_80"};
    UsageReport out[2];
    int status = ptxas_run_targets(ptxas_find(), paths, archs, 2, r.arena, out);
    ck_assert_msg(status == 0, "ptxas: %s%s", out[0].errors ? out[0].errors : "", out[1].errors ? out[1].errors : "");
    const KernelUsage *unbounded = usage_kernel(&out[0], "many"), *capped = usage_kernel(&out[1], "many");
    ck_assert_ptr_nonnull(unbounded);
    ck_assert_ptr_nonnull(capped);
    ck_assert_msg(unbounded->registers > 32, "without .maxnreg: %d registers", unbounded->registers);
    ck_assert_msg(capped->registers <= 32, "with .maxnreg 32: %d registers", capped->registers);
    free(free_ir);
    free(capped_ir);
    free(free_ptx);
    free(capped_ptx);
    live_dir_remove(&d);
    run_free(&r);
}
END_TEST

/* ---- suites ------------------------------------------------------------------------------ */

static Suite *ptx_suite(void)
{
    Suite *s = suite_create("ptx");
    TCase *tc = tcase_create("golden");
    tcase_add_loop_test(tc, test_golden, 0, N(cases));
    tcase_add_test(tc, test_every_opcode_is_covered);
    tcase_add_loop_test(tc, test_amdgpu_every_case, 0, N(amd_targets));
    tcase_add_loop_test(tc, test_amdgpu_refusals, 0, N(amd_targets));
    suite_add_tcase(s, tc);

    tc = tcase_create("targets");
    tcase_add_loop_test(tc, test_target_header, 0, N(targets));
    tcase_add_test(tc, test_unknown_target);
    tcase_add_loop_test(tc, test_emit_error, 0, N(emit_errors));
    tcase_add_test(tc, test_deterministic);
    suite_add_tcase(s, tc);
    return s;
}

static Suite *live_suite(void)
{
    Suite *s = suite_create("ptx live");
    TCase *tc = tcase_create("ptxas");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_live_every_case_every_target);
    tcase_add_test(tc, test_live_launch_bounds);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    const char *ptxas = ptxas_find();
    SRunner *sr = srunner_create(ptx_suite());
    if (ptxas)
        srunner_add_suite(sr, live_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    if (failed)
        return EXIT_FAILURE;
    if (!ptxas) {
        puts("SKIP: live ptxas tests of the PTX backend: no ptxas (set SILK_PTXAS or configure --with-cuda=DIR)");
        return 77;
    }
    return EXIT_SUCCESS;
}
