/*
 * check_lower.c: unit tests of lowering (compiler/lower.c, lower_expr.c):
 * small Silk kernels are checked by the front end, lowered, and the IR
 * verified (no violations).  A saxpy kernel and a loop are compared with
 * their expected IR text; a kernel using every lowered construct must
 * verify; what is not lowered yet must be reported, not dropped.  When a
 * ptxas is installed, every module's PTX for sm_90 is assembled by it (no
 * rejections), and the seed's lanes-and-warps kernel carries
 * `.reqntid 128, 1, 1` and `.minnctapersm 4`.
 */
#include <config.h>

#include "compile.h"
#include "ir.h"
#include "lower.h"
#include "ptx/ptx.h"
#include "ptx/ptxas.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- helpers ------------------------------------------------------------------ */

typedef struct Lowered {
    Compilation c;
    IrModule *m;
    int check_errors;
} Lowered;

/* Checks and lowers `src`; diagnostics go to stderr (the test's log). */
static void lower_text(Lowered *out, const char *src)
{
    compile_init(&out->c, stderr);
    out->c.options.nostd = true;
    ck_assert_ptr_nonnull(compile_add_text(&out->c, "t.silk", src, strlen(src), PKG_ROOT));
    out->check_errors = compile_check(&out->c);
    out->m = lower_module(&out->c, out->c.arena);
}

/* The module's text form, malloc'd. */
static char *ir_text(const IrModule *m)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ir_print(m, f);
    fclose(f);
    return buf;
}

/* Checked, lowered and verified without a word. */
static IrModule *lower_ok(Lowered *lo, const char *src)
{
    lower_text(lo, src);
    ck_assert_int_eq(lo->check_errors, 0);
    ck_assert_ptr_nonnull(lo->m);
    int violations = ir_verify(lo->m, &lo->c.diag);
    if (violations) {
        char *text = ir_text(lo->m);
        fprintf(stderr, "%s", text);
        free(text);
    }
    ck_assert_int_eq(violations, 0);
    return lo->m;
}

/* The module's PTX for sm_90, malloc'd (NULL when the emitter refused). */
static char *ptx_text(const IrModule *m, Diag *diag)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    bool ok = ptx_emit_module(m, "sm_90", f, diag);
    fclose(f);
    if (!ok) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* ptxas accepts the PTX (when there is a ptxas). */
static void assemble(const char *ptx)
{
    const char *ptxas = ptxas_find();
    if (!ptxas) {
        fprintf(stderr, "check_lower: no ptxas, PTX not assembled\n");
        return;
    }
    char path[] = "/tmp/check_lower_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, ptx, strlen(ptx)), (ssize_t)strlen(ptx));
    close(fd);
    Arena *a = arena_new();
    UsageReport r;
    int rc = ptxas_run(ptxas, path, "sm_90", a, &r);
    if (rc != 0)
        fprintf(stderr, "ptxas rejected:\n%s\n%s\n", r.errors ? r.errors : "", ptx);
    ck_assert_int_eq(rc, 0);
    arena_free(a);
    unlink(path);
}

/* Lowered, verified, emitted and assembled. */
static char *full(Lowered *lo, const char *src)
{
    IrModule *m = lower_ok(lo, src);
    char *ptx = ptx_text(m, &lo->c.diag);
    ck_assert_ptr_nonnull(ptx);
    assemble(ptx);
    return ptx;
}

/* ---- cases --------------------------------------------------------------------- */

static const char saxpy_src[] =
    "@launch(256, 2)\n"
    "kernel saxpy(n: u64, a: f32, x: tensor<f32>[n], y: tensor<f32>[n]) {\n"
    "  let i = ctx.gid\n"
    "  if i < n {\n"
    "    y[i] = a * x[i] + y[i]\n"
    "  }\n"
    "}\n";

/* Reviewed: gid = ctaid * 256 + tid; each element access its own
 * address arithmetic (CSE is a later pass). */
static const char saxpy_ir[] =
    "kernel @saxpy(%0: i64 $n, %1: f32 $a, %2: i64 $x, %3: i64 $y) reqntid 256 minnctapersm 2 {\n"
    "@b0:\n"
    "  %4: i32 = sreg ctaid.x\n"
    "  %5: i64 = zext %4\n"
    "  %6: i64 = mul %5, 256\n"
    "  %7: i32 = sreg tid.x\n"
    "  %8: i64 = zext %7\n"
    "  %9: i64 = add %6, %8\n"
    "  %10: i1 = cmp ult %9, %0\n"
    "  cbr %10, @b1, @b2\n"
    "@b1:\n"
    "  %11: i64 = shl %9, 2\n"
    "  %12: i64 = add %2, %11\n"
    "  %13: f32 = load.global %12\n"
    "  %14: f32 = mul %1, %13\n"
    "  %15: i64 = shl %9, 2\n"
    "  %16: i64 = add %3, %15\n"
    "  %17: f32 = load.global %16\n"
    "  %18: f32 = add %14, %17\n"
    "  %19: i64 = shl %9, 2\n"
    "  %20: i64 = add %3, %19\n"
    "  store.global %20, %18\n"
    "  br @b2\n"
    "@b2:\n"
    "  ret\n"
    "}\n";

static const char loop_src[] =
    "@launch(128)\n"
    "kernel rowsum(rows: u32, m: tensor<i32>[rows, 8], out: tensor<i32>[rows]) {\n"
    "  let r = ctx.tid\n"
    "  if r >= rows { return }\n"
    "  var s = 0\n"
    "  for j in 0..8 {\n"
    "    if m[r, j] < 0 { continue }\n"
    "    s += m[r, j]\n"
    "  }\n"
    "  out[r] = s\n"
    "}\n";

/* Reviewed: s and j are header phis; `continue` reaches the latch (@b5)
 * with s unchanged, so the latch joins s; the exit stores the header's s. */
static const char loop_ir[] =
    "kernel @rowsum(%0: i32 $rows, %1: i64 $m, %2: i64 $out) reqntid 128 {\n"
    "@b0:\n"
    "  %3: i32 = sreg tid.x\n"
    "  %4: i1 = cmp uge %3, %0\n"
    "  cbr %4, @b1, @b2\n"
    "@b1:\n"
    "  ret\n"
    "@b2:\n"
    "  br @b3\n"
    "@b3:\n"
    "  %5: i32 = phi [@b2: 0], [@b5: %24]\n"
    "  %6: i32 = phi [@b2: 0], [@b5: %25]\n"
    "  %7: i1 = cmp slt %6, 8:i32\n"
    "  cbr %7, @b4, @b6\n"
    "@b4:\n"
    "  %8: i64 = zext %3\n"
    "  %9: i64 = sext %6\n"
    "  %10: i64 = mul %8, 8\n"
    "  %11: i64 = add %10, %9\n"
    "  %12: i64 = shl %11, 2\n"
    "  %13: i64 = add %1, %12\n"
    "  %14: i32 = load.global %13\n"
    "  %15: i1 = cmp slt %14, 0:i32\n"
    "  cbr %15, @b7, @b8\n"
    "@b5:\n"
    "  %24: i32 = phi [@b7: %5], [@b8: %23]\n"
    "  %25: i32 = add %6, 1\n"
    "  br @b3\n"
    "@b6:\n"
    "  %26: i64 = zext %3\n"
    "  %27: i64 = shl %26, 2\n"
    "  %28: i64 = add %2, %27\n"
    "  store.global %28, %5\n"
    "  ret\n"
    "@b7:\n"
    "  br @b5\n"
    "@b8:\n"
    "  %16: i64 = zext %3\n"
    "  %17: i64 = sext %6\n"
    "  %18: i64 = mul %16, 8\n"
    "  %19: i64 = add %18, %17\n"
    "  %20: i64 = shl %19, 2\n"
    "  %21: i64 = add %1, %20\n"
    "  %22: i32 = load.global %21\n"
    "  %23: i32 = add %5, %22\n"
    "  br @b5\n"
    "}\n";

static void expect_ir(const char *src, const char *want)
{
    Lowered lo;
    IrModule *m = lower_ok(&lo, src);
    char *got = ir_text(m);
    if (strcmp(got, want) != 0)
        fprintf(stderr, "IR differs; got:\n%s", got);
    ck_assert_str_eq(got, want);
    char *ptx = ptx_text(m, &lo.c.diag);
    ck_assert_ptr_nonnull(ptx);
    assemble(ptx);
    free(ptx);
    free(got);
    compile_free(&lo.c);
}

START_TEST(test_saxpy) { expect_ir(saxpy_src, saxpy_ir); }
END_TEST

START_TEST(test_loop) { expect_ir(loop_src, loop_ir); }
END_TEST

/* Every construct lowered so far, in one kernel that must verify and assemble. */
static const char all_src[] =
    "@launch(256)\n"
    "kernel all(n: u64, addr: u64, x: tensor<f32>[n], h: tensor<u32>[16], g: tensor<i32>[4, n]) {\n"
    "  shared buf: f32[256]\n"
    "  shared cnt: u32[2, 16]\n"
    "  let t = ctx.tid\n"
    "  buf[t] = 0.0\n"
    "  if t < 32 { cnt[t / 16, t % 16] = 0 }\n"
    "  sync()\n"
    "  var acc: f32 = 0.0\n"
    "  var i = ctx.gid\n"
    "  while i < n && x[i] >= 0.0 {\n"
    "    acc = fma(x[i], 2.0, acc)\n"
    "    if acc > 100.0 { break }\n"
    "    i += ctx.size\n"
    "  }\n"
    "  acc += shfl_down(acc, 16)\n"
    "  acc = max(acc, shfl_xor(acc, 1))\n"
    "  acc = sqrt(abs(acc)) + rsqrt(acc + 1.0) + exp(acc) + log(acc + 1.0)\n"
    "  acc = sin(acc) + cos(acc) + floor(acc) + ceil(acc)\n"
    "  let b = ballot(acc > 0.0 || t == 0u32)\n"
    "  atomic_add(cnt[0, t % 16], 1u32)\n"
    "  atomic_add(buf[ctx.lane], acc)\n"
    "  sync()\n"
    "  let k = i32(t) - 7\n"
    "  var m = k / 3 + k % 5 - (k >> 1) + (k << 2) ^ ~k\n"
    "  m = min(m, 100)\n"
    "  m *= 2\n"
    "  if ctx.warp == 1u32 { atomic_max(g[1, i % n], m) } else if ctx.warp == 2u32 { atomic_min(g[2, 0], m) } else { atomic_exch(g[3, 0], m) }\n"
    "  let old = atomic_cas(h[0], b, 1u32)\n"
    "  for j in 0u64..n step 2 {\n"
    "    if j == 4 { continue }\n"
    "    store<f32>(addr + j * 4, f32(j) + f32(old) + f32(i64(m)) + buf[t])\n"
    "  }\n"
    "  let w = load<f64>(addr) / 2.0\n"
    "  store<u8>(addr + 8, u8(w))\n"
    "  x[0] = f32(w) + f32(u16(ctx.warps * ctx.lanes + ctx.threads)) + f32(ctx.sms) + f32(ctx.cta + ctx.ctas)\n"
    "}\n";

START_TEST(test_all)
{
    Lowered lo;
    free(full(&lo, all_src));
    compile_free(&lo.c);
}
END_TEST

/* The seed's kernel: its launch bounds reach the PTX. */
START_TEST(test_seed_bounds)
{
    Lowered lo;
    char *ptx = full(&lo,
                     "@launch(128, 4)\n"
                     "kernel lanes_and_warps(O: tensor<i32>[1, 2]) {\n"
                     "  O[0, 0] = i32(ctx.warps)\n"
                     "  O[0, 1] = i32(ctx.lanes)\n"
                     "}\n");
    ck_assert_ptr_nonnull(strstr(ptx, ".reqntid 128, 1, 1"));
    ck_assert_ptr_null(strstr(ptx, ".maxntid")); /* a fixed size, not a bound */
    ck_assert_ptr_nonnull(strstr(ptx, ".minnctapersm 4"));
    free(ptx);
    compile_free(&lo.c);
}
END_TEST

/* A launch-sized device function: no .reqntid (nor .maxntid), ctx.threads
 * from ntid.x. */
START_TEST(test_runtime_threads)
{
    Lowered lo;
    char *ptx = full(&lo,
                     "attr(device=gpu) fn fill(out: u64, value: u64) {\n"
                     "  store<u64>(out + ctx.gid * 8, value + u64(ctx.threads) + u64(ctx.warps))\n"
                     "}\n");
    ck_assert_ptr_null(strstr(ptx, ".reqntid"));
    ck_assert_ptr_null(strstr(ptx, ".maxntid"));
    ck_assert_ptr_nonnull(strstr(ptx, "%ntid.x"));
    free(ptx);
    compile_free(&lo.c);
}
END_TEST

/* What cannot be lowered (recursion cannot be inlined): reported at the
 * construct, and no module. */
START_TEST(test_unsupported)
{
    Lowered lo;
    lower_text(&lo,
               "attr(device=gpu) fn sq(v: f32) -> f32 { return sq(v) * v }\n"
               "kernel k(x: tensor<f32>[4]) {\n"
               "  x[0] = sq(x[1])\n"
               "}\n");
    ck_assert_int_eq(lo.check_errors, 0);
    ck_assert_ptr_null(lo.m);
    ck_assert_int_eq(lo.c.diag.errors, 1);
    compile_free(&lo.c);
}
END_TEST

static Suite *lower_suite(void)
{
    Suite *s = suite_create("lower");
    TCase *tc = tcase_create("lower");
    tcase_add_test(tc, test_saxpy);
    tcase_add_test(tc, test_loop);
    tcase_add_test(tc, test_all);
    tcase_add_test(tc, test_seed_bounds);
    tcase_add_test(tc, test_runtime_threads);
    tcase_add_test(tc, test_unsupported);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(lower_suite());
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
