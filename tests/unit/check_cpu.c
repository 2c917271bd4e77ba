/*
 * check_cpu.c: the CPU backend (compiler/cpu/) against plain C.
 *
 * - Every kernel of examples/ is built through the pipeline for "cpu",
 *   run on at least three grid shapes (one with a partial last CTA
 *   wherever the kernel's guards allow it) and every output element is
 *   compared with a reference computed here: bit for bit where the
 *   arithmetic is exact or done in the same order, within a stated bound
 *   where the kernel sums in another order.  A canary past the end of
 *   every output must survive, so a write past a guard is caught too.
 * - The executor's checks: a divergent barrier (or one some thread exits
 *   without reaching) and a warp collective some lanes never reach stop
 *   the launch with the exact message and source location; a correct kernel with barriers and every kind of warp
 *   collective runs without a fault and computes what PTX says.
 * - A stop saves only the registers live across it: the generated C of a
 *   small kernel with a barrier, against the live set worked out by hand.
 * - The prelude's PTX semantics (cpu_prelude.h, included here directly)
 *   against values worked out by hand.
 *
 * The examples are found under $SILK_SRCDIR (make check sets it), else
 * the source directory configure saw.  Each module is built by the C
 * compiler ($CC, else cc) in a private directory made by mkdtemp.
 */
#include "build.h"
#include "cpu/cpu.h"
#include "cpu_prelude.h"
#include "tempdir.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- building and running a program --------------------------------------------------- */

typedef struct Program {
    Compilation c;
    BuildOptions options;
    Build b;
    FILE *diagnostics;
    char *diag_text;
    size_t diag_len;
    char *dir;          /* private: the Silk written by a test, module.c, module.so */
    CpuModule *module;
} Program;

static const char *const CPU_ARCH[] = {"cpu"};

static void program_start(Program *p)
{
    memset(p, 0, sizeof *p);
    p->dir = tempdir_make("check_cpu", NULL);
    ck_assert_ptr_nonnull(p->dir);
}

/* The Silk file at `path` built for the CPU (with the passes) and loaded;
 * the test fails with the compiler's words when it cannot be. */
static void program_build(Program *p, const char *path)
{
    p->diagnostics = open_memstream(&p->diag_text, &p->diag_len);
    compile_init(&p->c, p->diagnostics);
    ck_assert_msg(compile_load(&p->c, path, path, PKG_ROOT) != NULL, "cannot read %s", path);
    p->options = (BuildOptions){.archs = CPU_ARCH, .n_archs = 1, .last = BUILD_CODE,
                                .optimize = true, .program = "check_cpu"};
    BuildStatus status = build_run(&p->c, &p->options, &p->b);
    diag_finish(&p->c.diag);
    fflush(p->diagnostics);
    ck_assert_msg(status == BUILD_OK, "%s does not build for the CPU:\n%s", path, p->diag_text);
    char error[4096];
    int built;
    p->module = cpu_module_build(p->b.targets[0].code, p->b.targets[0].code_len, p->dir, error,
                                 sizeof error, &built);
    ck_assert_msg(p->module != NULL, "%s", error);
}

/* examples/NAME.silk, from the source tree. */
static void program_example(Program *p, const char *name)
{
    const char *srcdir = getenv("SILK_SRCDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/examples/%s.silk", srcdir && *srcdir ? srcdir : SILK_SOURCE_DIR,
             name);
    program_start(p);
    program_build(p, path);
}

/* Silk written by the test to DIR/NAME, so that messages name that path. */
static void program_text(Program *p, const char *name, const char *text, char *path, size_t size)
{
    program_start(p);
    snprintf(path, size, "%s/%s", p->dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    bool written = fputs(text, f) >= 0;
    ck_assert(fclose(f) == 0 && written);
    program_build(p, path);
}

static void program_free(Program *p)
{
    cpu_module_close(p->module);
    build_finish(&p->b);
    compile_free(&p->c);
    fclose(p->diagnostics);
    free(p->diag_text);
    tempdir_remove(p->dir, 0);
}

static const SilkCpuKernel *kernel(const Program *p, const char *name)
{
    const SilkCpuKernel *k = cpu_module_kernel(p->module, name);
    ck_assert_msg(k != NULL, "no kernel %s", name);
    return k;
}

/* `grid` work items, as a launch block runs them: ceil(grid / threads) CTAs
 * of the kernel's fixed size, on two workers, so that CTAs run at once
 * even on a one-core machine.  False with the executor's line in `error`. */
static bool launch(const SilkCpuKernel *k, uint64_t grid, const uint64_t *params, char *error,
                   size_t size)
{
    ck_assert_uint_gt(k->fixed_threads, 0);
    CpuLaunch l = {.ctas = (grid + k->fixed_threads - 1) / k->fixed_threads,
                   .threads = k->fixed_threads, .sms = 132, .dynamic_shared = k->dynamic_shared,
                   .params = params, .workers = 2};
    return cpu_launch(k, &l, error, size);
}

static void launch_ok(const SilkCpuKernel *k, uint64_t grid, const uint64_t *params)
{
    char error[1024] = "";
    ck_assert_msg(launch(k, grid, params, error, sizeof error), "%s", error);
}

/* A parameter slot holding a buffer's address. */
static uint64_t address(const void *buffer) { return (uint64_t)(uintptr_t)buffer; }

/* ---- buffers ---------------------------------------------------------------------------- */

/* Words past the end of every output that the kernel must not touch. */
enum { CANARY_WORDS = 16 };
static const uint32_t CANARY = 0x7fc0dead; /* a NaN's bits: no kernel computes it by chance */

/* `n` 4-byte elements, then the canary. */
static void *output_buffer(size_t n)
{
    uint32_t *words = calloc(n + CANARY_WORDS, 4);
    ck_assert_ptr_nonnull(words);
    for (size_t i = n; i < n + CANARY_WORDS; i++)
        words[i] = CANARY;
    return words;
}

static void assert_canary(const void *buffer, size_t n, const char *what)
{
    const unsigned char *bytes = buffer;
    for (size_t i = n; i < n + CANARY_WORDS; i++)
        ck_assert_msg(memcmp(bytes + 4 * i, &CANARY, 4) == 0,
                      "%s: element %zu, past the end, was written", what, i);
}

/* A splitmix64 stream: the same inputs on every run and machine. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* A float in [-1, 1), a multiple of 2^-23 (so exact in f32). */
static float random_float(uint64_t *state)
{
    return (float)ldexp((double)(next_random(state) >> 40), -23) - 1.0f;
}

static float *random_floats(size_t n, uint64_t seed)
{
    float *x = output_buffer(n);
    for (size_t i = 0; i < n; i++)
        x[i] = random_float(&seed);
    return x;
}

/* The first of `n` 4-byte elements whose bytes differ; n when none does
 * (compared as bytes: a float's bits, with no aliasing through integers). */
static size_t first_difference(const void *got, const void *want, size_t n)
{
    const unsigned char *g = got, *w = want;
    size_t i = 0;
    while (i < n && memcmp(g + 4 * i, w + 4 * i, 4) == 0)
        i++;
    return i;
}

/* Every float of `got` has the bits of `want` (so -0 is not +0), and the
 * canary after them is whole. */
static void assert_same_floats(const float *got, const float *want, size_t n, const char *what)
{
    size_t i = first_difference(got, want, n);
    ck_assert_msg(i == n, "%s[%zu]: %a, want %a", what, i, i < n ? got[i] : 0.0,
                  i < n ? want[i] : 0.0);
    assert_canary(got, n, what);
}

static void assert_same_words(const uint32_t *got, const uint32_t *want, size_t n,
                              const char *what)
{
    size_t i = first_difference(got, want, n);
    ck_assert_msg(i == n, "%s[%zu]: 0x%08x, want 0x%08x", what, i, i < n ? got[i] : 0,
                  i < n ? want[i] : 0);
    assert_canary(got, n, what);
}

/* ---- the examples ------------------------------------------------------------------------ */

/* saxpy: y = fma(a, x, y) below n.  The kernel calls fma, and the C
 * reference fmaf, both one rounding: exact.  n = 1000 leaves a partial
 * last CTA (232 of 256 threads in range); a grid past n tests the guard. */
START_TEST(test_saxpy)
{
    static const struct { uint64_t n, grid; } shapes[] = {
        {1, 1}, {1000, 1000}, {4096, 4096}, {600, 1024},
    };
    Program p;
    program_example(&p, "saxpy");
    const SilkCpuKernel *k = kernel(&p, "saxpy");
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        uint64_t n = shapes[s].n;
        float *a = random_floats(1, 1), *x = random_floats(n, 2), *y = random_floats(n, 3);
        float *want = output_buffer(n);
        memcpy(want, y, n * sizeof *y);
        for (uint64_t i = 0; i < n; i++)
            want[i] = fmaf(a[0], x[i], want[i]);
        uint64_t params[] = {n, address(a), address(x), address(y)};
        launch_ok(k, shapes[s].grid, params);
        assert_same_floats(y, want, n, "saxpy y");
        free(a), free(x), free(y), free(want);
    }
    program_free(&p);
}
END_TEST

/* reduce's result, total[0] after the launch, against a reference in
 * double.  Bound: each input passes through at most h = L + 5 + 3 + C
 * rounded additions (L the elements one thread sums, five shfl_down and
 * three shfl_xor steps, then one atomic per CTA in any order), so the
 * error is at most gamma_h * (|total0| + sum |x|), gamma_h = h u / (1 - h u),
 * u = 2^-24 (Higham, Accuracy and Stability of Numerical Algorithms, 4.2).
 * The reference's own error, at most n 2^-53 sum |x| in double, is far
 * below that. */
static void check_reduce(const SilkCpuKernel *k, uint64_t n, uint64_t grid, const float *input,
                         bool exact)
{
    float *total = output_buffer(1);
    total[0] = 0.25f;
    double sum = total[0], magnitude = fabs(total[0]);
    for (uint64_t i = 0; i < n; i++) {
        sum += input[i];
        magnitude += fabs(input[i]);
    }
    uint64_t params[] = {n, address(input), address(total)};
    launch_ok(k, grid, params);
    uint64_t ctas = (grid + 255) / 256, per_thread = (n + ctas * 256 - 1) / (ctas * 256);
    double h = (double)(per_thread + 5 + 3 + ctas), u = 0x1p-24;
    double bound = exact ? 0 : h * u / (1 - h * u) * magnitude;
    ck_assert_msg(fabs(total[0] - sum) <= bound, "reduce of %llu on %llu: %.9g, want %.9g +- %.3g",
                  (unsigned long long)n, (unsigned long long)grid, total[0], sum, bound);
    assert_canary(total, 1, "reduce total");
    free(total);
}

START_TEST(test_reduce)
{
    static const struct { uint64_t n, grid; } shapes[] = {
        {1, 1}, {1000, 300}, {100000, 16 * 256}, {4097, 3 * 256 + 1},
    };
    Program p;
    program_example(&p, "reduce");
    const SilkCpuKernel *k = kernel(&p, "reduce");
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        float *input = random_floats(shapes[s].n, 10 + s);
        check_reduce(k, shapes[s].n, shapes[s].grid, input, false);
        free(input);
    }
    /* Multiples of 1/8 in [-4, 4]: every partial sum, in any order, is a
     * multiple of 1/8 below 2^21 in magnitude, exact in f32, so the sum is
     * exact whatever order the atomics take. */
    uint64_t n = 100000, seed = 7;
    float *input = output_buffer(n);
    for (uint64_t i = 0; i < n; i++)
        input[i] = (float)((int)(next_random(&seed) % 65) - 32) / 8;
    check_reduce(k, n, 5 * 256 + 3, input, true);
    free(input);
    program_free(&p);
}
END_TEST

/* transpose: copies only, so exact.  Its extents must be multiples of 32
 * (one CTA per 32x32 tile, no guard): no partial CTA is possible. */
START_TEST(test_transpose)
{
    static const struct { uint64_t rows, cols; } shapes[] = {{32, 32}, {64, 96}, {96, 32}};
    Program p;
    program_example(&p, "transpose");
    const SilkCpuKernel *k = kernel(&p, "transpose");
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        uint64_t rows = shapes[s].rows, cols = shapes[s].cols;
        float *input = random_floats(rows * cols, 20 + s), *output = output_buffer(rows * cols);
        float *want = output_buffer(rows * cols);
        for (uint64_t r = 0; r < rows; r++)
            for (uint64_t c = 0; c < cols; c++)
                want[c * rows + r] = input[r * cols + c];
        uint64_t params[] = {rows, cols, address(input), address(output)};
        launch_ok(k, (rows / 32) * (cols / 32) * 256, params);
        assert_same_floats(output, want, rows * cols, "transpose output");
        free(input), free(output), free(want);
    }
    program_free(&p);
}
END_TEST

/* stencil: the kernel computes 0.25 * (up + down + left + right), added
 * left to right; the reference does the same additions in the same
 * order, and the product by 0.25 is exact, so the results are too.  The
 * grid must tile it (rows a multiple of 8, cols of 32): no partial CTA. */
START_TEST(test_stencil)
{
    static const struct { uint64_t rows, cols; } shapes[] = {{8, 32}, {16, 64}, {40, 96}};
    Program p;
    program_example(&p, "stencil");
    const SilkCpuKernel *k = kernel(&p, "stencil");
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        uint64_t rows = shapes[s].rows, cols = shapes[s].cols;
        float *in = random_floats(rows * cols, 30 + s), *out = output_buffer(rows * cols);
        float *want = output_buffer(rows * cols);
        for (uint64_t r = 0; r < rows; r++)
            for (uint64_t c = 0; c < cols; c++) {
                uint64_t i = r * cols + c;
                bool edge = r == 0 || c == 0 || r == rows - 1 || c == cols - 1;
                want[i] = edge ? in[i]
                               : 0.25f * (in[i - cols] + in[i + cols] + in[i - 1] + in[i + 1]);
            }
        uint64_t params[] = {rows, cols, address(in), address(out)};
        launch_ok(k, (rows / 8) * (cols / 32) * 256, params);
        assert_same_floats(out, want, rows * cols, "stencil output");
        free(in), free(out), free(want);
    }
    program_free(&p);
}
END_TEST

/* histogram: integer counts, exact.  The bins start at b, not 0, so that
 * the atomics must add to what is there; one input of a single byte value
 * has every thread contend for one bin. */
START_TEST(test_histogram)
{
    static const struct { uint64_t n, grid; int only; } shapes[] = {
        {1, 1, -1}, {1000, 300, -1}, {100000, 64 * 256, -1}, {70000, 5 * 256 + 77, -1},
        {50000, 4 * 256, 200},
    };
    Program p;
    program_example(&p, "histogram");
    const SilkCpuKernel *k = kernel(&p, "histogram");
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        uint64_t n = shapes[s].n, seed = 40 + s;
        unsigned char *data = malloc(n);
        uint32_t *bins = output_buffer(256), *want = output_buffer(256);
        ck_assert_ptr_nonnull(data);
        for (uint32_t b = 0; b < 256; b++)
            bins[b] = want[b] = b;
        for (uint64_t i = 0; i < n; i++) {
            data[i] = shapes[s].only >= 0 ? (unsigned char)shapes[s].only
                                          : (unsigned char)next_random(&seed);
            want[data[i]]++;
        }
        uint64_t params[] = {n, address(data), address(bins)};
        launch_ok(k, shapes[s].grid, params);
        assert_same_words(bins, want, 256, "histogram bins");
        free(data), free(bins), free(want);
    }
    program_free(&p);
}
END_TEST

/* sgemm: each output is fma(a[i, p], b[p, j], acc) for p from 0 to k in
 * order (32-wide slabs in order, each slab in order), and so is the
 * reference: exact, though it is a reduction.  Extents are multiples of
 * 32 (no guards), so no partial CTA. */
START_TEST(test_sgemm)
{
    static const struct { uint64_t m, n, k; } shapes[] = {
        {32, 32, 32}, {64, 96, 32}, {96, 32, 128},
    };
    Program p;
    program_example(&p, "sgemm");
    const SilkCpuKernel *kern = kernel(&p, "sgemm");
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        uint64_t m = shapes[s].m, n = shapes[s].n, k = shapes[s].k;
        float *a = random_floats(m * k, 50 + s), *b = random_floats(k * n, 60 + s);
        float *c = output_buffer(m * n), *want = output_buffer(m * n);
        for (uint64_t i = 0; i < m; i++)
            for (uint64_t j = 0; j < n; j++) {
                float acc = 0;
                for (uint64_t q = 0; q < k; q++)
                    acc = fmaf(a[i * k + q], b[q * n + j], acc);
                want[i * n + j] = acc;
            }
        uint64_t params[] = {m, n, k, address(a), address(b), address(c)};
        launch_ok(kern, (m / 32) * (n / 32) * 256, params);
        assert_same_floats(c, want, m * n, "sgemm c");
        free(a), free(b), free(c), free(want);
    }
    program_free(&p);
}
END_TEST

/* ---- the executor's checks ------------------------------------------------------------------ */

/* `text` as DIR/NAME, its kernel `name` (whose one parameter is a
 * tensor of `grid` u32) launched over `grid` work items: the launch must
 * fail with `expected`, where each %s is the file's path. */
static void assert_fault(const char *file, const char *text, const char *name, uint64_t grid,
                         const char *expected)
{
    Program p;
    char path[4096], want[8192], error[1024] = "";
    program_text(&p, file, text, path, sizeof path);
    uint32_t *out = output_buffer(grid);
    uint64_t params[] = {address(out)};
    ck_assert_msg(!launch(kernel(&p, name), grid, params, error, sizeof error),
                  "%s ran without a fault", name);
    snprintf(want, sizeof want, expected, path, path);
    ck_assert_str_eq(error, want);
    free(out);
    program_free(&p);
}

/* Threads below 40 wait at one barrier, the others at another. */
START_TEST(test_divergent_barrier)
{
    assert_fault("diverge.silk",
                 "@launch(64)\n"
                 "kernel diverge(out: tensor<u32>[64]) {\n"
                 "  if ctx.tid < 40 {\n"
                 "    sync()\n"
                 "  } else {\n"
                 "    sync()\n"
                 "  }\n"
                 "  out[ctx.tid] = 1\n"
                 "}\n",
                 "diverge", 64,
                 "%s:4:5: kernel diverge, CTA 0, thread 0: a barrier not reached by every "
                 "thread: thread 40 waits at %s:6:5 instead");
}
END_TEST

/* Only CTA 2 of 4 diverges, while the others run on other workers: the
 * message names that CTA. */
START_TEST(test_divergent_barrier_in_a_later_cta)
{
    assert_fault("late.silk",
                 "@launch(32)\n"
                 "kernel late(out: tensor<u32>[128]) {\n"
                 "  if ctx.cta == 2 && ctx.tid >= 8 {\n"
                 "    sync()\n"
                 "  } else {\n"
                 "    sync()\n"
                 "  }\n"
                 "  out[ctx.gid] = 1\n"
                 "}\n",
                 "late", 128,
                 "%s:6:5: kernel late, CTA 2, thread 0: a barrier not reached by every "
                 "thread: thread 8 waits at %s:4:5 instead");
}
END_TEST

/* Threads 40 and up exit without reaching the barrier the others wait
 * at: the condition is not uniform across the CTA, whatever a GPU that
 * counts exited threads as arrived does with it. */
START_TEST(test_barrier_skipped_by_exit)
{
    assert_fault("skip.silk",
                 "@launch(64)\n"
                 "kernel skip(out: tensor<u32>[64]) {\n"
                 "  if ctx.tid < 40 {\n"
                 "    sync()\n"
                 "  }\n"
                 "  out[ctx.tid] = 1\n"
                 "}\n",
                 "skip", 64,
                 "%s:4:5: kernel skip, CTA 0, thread 0: a barrier not reached by every "
                 "thread: thread 40 has exited");
}
END_TEST

/* Lanes 16 to 31 skip the shuffle, store and exit. */
START_TEST(test_shuffle_lanes_exited)
{
    assert_fault("partial.silk",
                 "@launch(64)\n"
                 "kernel partial(out: tensor<u32>[64]) {\n"
                 "  var v = ctx.tid\n"
                 "  if ctx.lane < 16 {\n"
                 "    v = shfl_down(v, 1)\n"
                 "  }\n"
                 "  out[ctx.tid] = v\n"
                 "}\n",
                 "partial", 64,
                 "%s:5:9: kernel partial, CTA 0, thread 0: a warp collective that lane 16 "
                 "(thread 16) never reaches: it has exited");
}
END_TEST

/* Lanes 16 to 31 wait at another shuffle than lanes 0 to 15. */
START_TEST(test_shuffle_lanes_elsewhere)
{
    assert_fault("split.silk",
                 "@launch(32)\n"
                 "kernel split(out: tensor<u32>[32]) {\n"
                 "  var v = ctx.tid\n"
                 "  if ctx.lane < 16 {\n"
                 "    v = shfl_down(v, 1)\n"
                 "  } else {\n"
                 "    v = shfl_xor(v, 1)\n"
                 "  }\n"
                 "  out[ctx.tid] = v\n"
                 "}\n",
                 "split", 32,
                 "%s:5:9: kernel split, CTA 0, thread 0: a warp collective that lane 16 "
                 "(thread 16) never reaches: it waits at %s:7:9");
}
END_TEST

/* Barriers in a loop and under a branch every thread takes the same way,
 * then every kind of warp collective; each lane's results stored. */
static const char UNIFORM[] =
    "@launch(128)\n"
    "kernel uniform(n: u64, rounds: u64, vals: tensor<u32>[n], down: tensor<u32>[n],\n"
    "               up: tensor<u32>[n], bfly: tensor<u32>[n], idx: tensor<u32>[n],\n"
    "               votes: tensor<u32>[n]) {\n"
    "  shared buf: u32[128]\n"
    "  var v = ctx.tid\n"
    "  var r: u64 = 0\n"
    "  while r < rounds {\n"
    "    buf[ctx.tid] = v\n"
    "    sync()\n"
    "    v = buf[127 - ctx.tid] + 1\n"
    "    sync()\n"
    "    r += 1\n"
    "  }\n"
    "  if rounds > 2 {\n"
    "    sync()\n"
    "  }\n"
    "  let g = ctx.gid\n"
    "  vals[g] = v\n"
    "  down[g] = shfl_down(u32(g), 3)\n"
    "  up[g] = shfl_up(u32(g), 5)\n"
    "  bfly[g] = shfl_xor(u32(g), 6)\n"
    "  idx[g] = shfl(u32(g), 7)\n"
    "  votes[g] = ballot(ctx.lane % 3 == 0)\n"
    "}\n";

/* What PTX gives lane g % 32 of each, by hand.  Each round reverses the
 * CTA's values and adds one: after R rounds, tid + R when R is even,
 * 127 - tid + R when odd.  A shuffle whose source lane is out of the
 * warp keeps the lane's own value; lanes 0, 3, ..., 30 vote yes. */
static uint32_t uniform_expected(int which, uint32_t g, uint32_t rounds)
{
    uint32_t lane = g % 32, tid = g % 128;
    switch (which) {
    case 0: return (rounds % 2 ? 127 - tid : tid) + rounds;
    case 1: return lane + 3 <= 31 ? g + 3 : g;
    case 2: return lane >= 5 ? g - 5 : g;
    case 3: return g ^ 6;
    case 4: return g - lane + 7;
    default: return 0x49249249u;
    }
}

START_TEST(test_uniform_kernel_never_faults)
{
    static const char *const names[] = {"vals", "down", "up", "bfly", "idx", "votes"};
    enum { N = 4 * 128 };
    Program p;
    char path[4096];
    program_text(&p, "uniform.silk", UNIFORM, path, sizeof path);
    const SilkCpuKernel *k = kernel(&p, "uniform");
    for (uint32_t rounds = 0; rounds < 6; rounds += 3) {
        uint32_t *out[6], want[N + CANARY_WORDS];
        uint64_t params[8] = {N, rounds};
        for (int b = 0; b < 6; b++) {
            out[b] = output_buffer(N);
            params[2 + b] = address(out[b]);
        }
        launch_ok(k, N, params);
        for (int b = 0; b < 6; b++) {
            for (uint32_t g = 0; g < N; g++)
                want[g] = uniform_expected(b, g, rounds);
            assert_same_words(out[b], want, N, names[b]);
            free(out[b]);
        }
    }
    program_free(&p);
}
END_TEST

/* A barrier saves only the registers live across it.  The kernel's IR
 * (silkc compile --emit=ir) has 18 registers, %0 to %17:
 *   %2 = addr.shared $live_s; %3 = sreg tid.x; %4 = zext %3;
 *   %5 = shl %4, 2; %6 = shl %3, 2; %7 = add %0, %5; %8 = load %7;
 *   %9 = mul %8, 2.0; %10 = add %9, 1.0; %11 = add %2, %6; store %11, %10
 *   bar.sync
 *   %12 = sub 63, %3; ...; %14 = add %2, %13; %15 = load %14;
 *   %16 = add %15, %9; %17 = add %1, %5; store %17, %16
 * so five are live across the barrier: %1 (the parameter y), %2 (the
 * array's address) and %3 (tid), which the resumption takes again, and
 * %5 (i's byte offset) and %9 (a), which are saved: two slots a thread
 * where every register used to be saved (18).  The barrier is site 3,
 * after the checked load and store. */
START_TEST(test_barrier_saves_only_live_registers)
{
    static const char STOP[] = "    t->resume = t->site = 3u;\n"
                               "    t->regs[0] = (r5);\n"
                               "    t->regs[1] = silk_f32_bits(r9);\n"
                               "    return SILK_CPU_AT_BARRIER;\n"
                               "stop3:\n"
                               "    r1 = (uint64_t)cta->params[1];\n"
                               "    r2 = (uint32_t)0u;\n"
                               "    r3 = t->tid;\n"
                               "    r5 = (uint64_t)t->regs[0];\n"
                               "    r9 = silk_bits_f32(t->regs[1]);\n"
                               "    r12 = ";
    Program p;
    char path[4096];
    program_text(&p, "live.silk",
                 "@launch(64)\n"
                 "kernel live(x: tensor<f32>[64], y: tensor<f32>[64]) {\n"
                 "  shared s: f32[64]\n"
                 "  let i = ctx.tid\n"
                 "  let a = x[i] * 2.0\n"
                 "  let b = a + 1.0\n"
                 "  s[i] = b\n"
                 "  sync()\n"
                 "  y[i] = s[63 - i] + a\n"
                 "}\n",
                 path, sizeof path);
    const char *step = strstr(p.b.targets[0].code, "static int silk_step_live(");
    ck_assert_ptr_nonnull(step);
    const char *end = strstr(step, "\n}\n"), *stop = strstr(step, "    t->resume = t->site = ");
    ck_assert(end && stop && stop < end);
    ck_assert_msg(strncmp(stop, STOP, strlen(STOP)) == 0, "the barrier's code:\n%.400s", stop);
    const char *next = strstr(stop + 1, "    t->resume = t->site = "), *zero = strstr(step, " = 0;");
    ck_assert(!next || next > end); /* the one stop */
    ck_assert_msg(!zero || zero > end, "a register zeroed: %.40s", zero);
    const SilkCpuKernel *k = kernel(&p, "live");
    ck_assert_uint_eq(k->n_regs, 2);
    float *x = random_floats(64, 5), *y = output_buffer(64), want[64];
    uint64_t params[] = {address(x), address(y)};
    launch_ok(k, 64, params);
    for (int i = 0; i < 64; i++)
        want[i] = (x[63 - i] * 2.0f + 1.0f) + x[i] * 2.0f;
    assert_same_floats(y, want, 64, "y");
    free(x);
    free(y);
    program_free(&p);
}
END_TEST

/* A run stopped by a signal once its module is built and loaded (as
 * when a user stops silkc exec): cleanup.h's handler removes module.c and
 * module.so with their directory, so nothing is left under $TMPDIR. */
START_TEST(test_signal_leaves_no_module_behind)
{
    char base[] = "/tmp/check_cpu-signal-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(base));
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        setenv("TMPDIR", base, 1);
        Program p;
        program_example(&p, "saxpy");
        raise(SIGTERM);
        _exit(0); /* not reached: the handler dies of the signal */
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM, "status 0x%x", status);
    ck_assert_msg(rmdir(base) == 0, "%s: %s: the module was left behind", base, strerror(errno));
}
END_TEST

/* ---- the prelude: PTX's semantics in C ------------------------------------------------------ */

/* Division by zero gives all ones and a remainder equal to the dividend,
 * at every width and in both signednesses; INT_MIN / -1 wraps. */
START_TEST(test_prelude_division)
{
    ck_assert_uint_eq(silk_udiv8(5, 0), 0xff);
    ck_assert_uint_eq(silk_urem8(5, 0), 5);
    ck_assert_uint_eq(silk_udiv16(5, 0), 0xffff);
    ck_assert_uint_eq(silk_udiv32(7, 0), 0xffffffffu);
    ck_assert_uint_eq(silk_urem32(7, 0), 7);
    ck_assert_uint_eq(silk_udiv64(7, 0), UINT64_MAX);
    ck_assert_uint_eq(silk_urem64(UINT64_MAX, 0), UINT64_MAX);
    ck_assert_uint_eq(silk_sdiv32((uint32_t)-7, 0), 0xffffffffu);
    ck_assert_uint_eq(silk_srem32((uint32_t)-7, 0), (uint32_t)-7);
    ck_assert_uint_eq(silk_sdiv8(0x90, 0), 0xff);
    ck_assert_uint_eq(silk_srem8(0x90, 0), 0x90);
    ck_assert_uint_eq(silk_sdiv64(42, 0), UINT64_MAX);
    ck_assert_uint_eq(silk_srem64((uint64_t)-42, 0), (uint64_t)-42);
    /* INT_MIN / -1 overflows to INT_MIN, remainder 0 */
    ck_assert_uint_eq(silk_sdiv8(0x80, 0xff), 0x80);
    ck_assert_uint_eq(silk_srem8(0x80, 0xff), 0);
    ck_assert_uint_eq(silk_sdiv16(0x8000, 0xffff), 0x8000);
    ck_assert_uint_eq(silk_sdiv32(0x80000000u, 0xffffffffu), 0x80000000u);
    ck_assert_uint_eq(silk_srem32(0x80000000u, 0xffffffffu), 0);
    ck_assert_uint_eq(silk_sdiv64(UINT64_C(1) << 63, UINT64_MAX), UINT64_C(1) << 63);
    ck_assert_uint_eq(silk_srem64(UINT64_C(1) << 63, UINT64_MAX), 0);
    /* otherwise C's: the quotient truncated, the remainder the dividend's sign */
    ck_assert_uint_eq(silk_sdiv32((uint32_t)-7, 2), (uint32_t)-3);
    ck_assert_uint_eq(silk_srem32((uint32_t)-7, 2), (uint32_t)-1);
    ck_assert_uint_eq(silk_sdiv8((uint8_t)-7, (uint8_t)-2), 3);
    ck_assert_uint_eq(silk_srem8(7, (uint8_t)-2), 1);
    ck_assert_uint_eq(silk_sdiv32(7, (uint32_t)-1), (uint32_t)-7);
    ck_assert_uint_eq(silk_udiv32(0xfffffff0u, 16), 0x0fffffffu);
}
END_TEST

/* Shifts by the width or more: shl and shr.u give 0, shr.s the sign. */
START_TEST(test_prelude_shifts)
{
    ck_assert_uint_eq(silk_shl32(1, 31), 0x80000000u);
    ck_assert_uint_eq(silk_shl32(1, 32), 0);
    ck_assert_uint_eq(silk_shl32(0xffffffffu, 255), 0);
    ck_assert_uint_eq(silk_shl8(0x81, 1), 0x02);
    ck_assert_uint_eq(silk_shl8(1, 8), 0);
    ck_assert_uint_eq(silk_shl16(1, 16), 0);
    ck_assert_uint_eq(silk_shl64(1, 63), UINT64_C(1) << 63);
    ck_assert_uint_eq(silk_shl64(1, 64), 0);
    ck_assert_uint_eq(silk_lshr32(0x80000000u, 31), 1);
    ck_assert_uint_eq(silk_lshr32(0x80000000u, 32), 0);
    ck_assert_uint_eq(silk_lshr8(0x80, 9), 0);
    ck_assert_uint_eq(silk_lshr64(UINT64_MAX, 64), 0);
    ck_assert_uint_eq(silk_lshr64(UINT64_MAX, 0xffffffffu), 0);
    ck_assert_uint_eq(silk_ashr32(0x80000000u, 4), 0xf8000000u);
    ck_assert_uint_eq(silk_ashr32(0x80000000u, 32), 0xffffffffu);
    ck_assert_uint_eq(silk_ashr32(0x7fffffffu, 40), 0);
    ck_assert_uint_eq(silk_ashr8(0x80, 8), 0xff);
    ck_assert_uint_eq(silk_ashr8(0x40, 200), 0);
    ck_assert_uint_eq(silk_ashr16(0x8000, 15), 0xffff);
    ck_assert_uint_eq(silk_ashr64(UINT64_C(1) << 63, 64), UINT64_MAX);
    ck_assert_uint_eq(silk_ashr64(UINT64_MAX >> 1, 1000), 0);
}
END_TEST

/* cvt.rzi: truncation toward zero, saturated at the type's bounds; NaN
 * gives 0. */
START_TEST(test_prelude_float_to_int)
{
    ck_assert_uint_eq(silk_f2s32(NAN), 0);
    ck_assert_uint_eq(silk_f2u32(NAN), 0);
    ck_assert_uint_eq(silk_f2s64(-NAN), 0);
    ck_assert_uint_eq(silk_f2u64(NAN), 0);
    ck_assert_uint_eq(silk_f2s32(-1.9), (uint32_t)-1);
    ck_assert_uint_eq(silk_f2s32(1.9), 1);
    ck_assert_uint_eq(silk_f2s32(3e9), 0x7fffffffu);
    ck_assert_uint_eq(silk_f2s32(-3e9), 0x80000000u);
    ck_assert_uint_eq(silk_f2s32(2147483647.9), 0x7fffffffu);
    ck_assert_uint_eq(silk_f2s32(-2147483648.9), 0x80000000u);
    ck_assert_uint_eq(silk_f2s32(INFINITY), 0x7fffffffu);
    ck_assert_uint_eq(silk_f2s32(-INFINITY), 0x80000000u);
    ck_assert_uint_eq(silk_f2s16(40000.0), 0x7fff);
    ck_assert_uint_eq(silk_f2s16(-40000.0), 0x8000);
    ck_assert_uint_eq(silk_f2s8(-128.5), 0x80);
    ck_assert_uint_eq(silk_f2u8(300.0), 0xff);
    ck_assert_uint_eq(silk_f2u32(-1.0), 0);
    ck_assert_uint_eq(silk_f2u32(-0.5), 0);
    ck_assert_uint_eq(silk_f2u32(-INFINITY), 0);
    ck_assert_uint_eq(silk_f2u32(4294967295.5), 0xffffffffu);
    ck_assert_uint_eq(silk_f2u32(5e9), 0xffffffffu);
    ck_assert_uint_eq(silk_f2s64(1e19), (uint64_t)INT64_MAX);
    ck_assert_uint_eq(silk_f2s64(-1e19), UINT64_C(1) << 63);
    ck_assert_uint_eq(silk_f2s64(-0x1p63), UINT64_C(1) << 63);
    ck_assert_uint_eq(silk_f2s64(0x1.fffffffffffffp62), UINT64_C(0x7ffffffffffffc00));
    ck_assert_uint_eq(silk_f2u64(2e19), UINT64_MAX);
    ck_assert_uint_eq(silk_f2u64(0x1.fffffffffffffp63), UINT64_C(0xfffffffffffff800));
}
END_TEST

/* min.f32 and max.f32: a NaN operand gives the other; -0 is below +0. */
START_TEST(test_prelude_min_max)
{
    ck_assert(silk_fmin(NAN, 1.0) == 1.0);
    ck_assert(silk_fmin(1.0, NAN) == 1.0);
    ck_assert(silk_fmax(NAN, -INFINITY) == -INFINITY);
    ck_assert(silk_fmax(2.0, -NAN) == 2.0);
    ck_assert(isnan(silk_fmin(NAN, NAN)));
    ck_assert(isnan(silk_fmax(NAN, NAN)));
    ck_assert(silk_fmin(-0.0, 0.0) == 0 && signbit(silk_fmin(-0.0, 0.0)));
    ck_assert(silk_fmin(0.0, -0.0) == 0 && signbit(silk_fmin(0.0, -0.0)));
    ck_assert(silk_fmax(-0.0, 0.0) == 0 && !signbit(silk_fmax(-0.0, 0.0)));
    ck_assert(silk_fmax(0.0, -0.0) == 0 && !signbit(silk_fmax(0.0, -0.0)));
    ck_assert(silk_fmin(-INFINITY, 1.0) == -INFINITY);
    ck_assert(silk_fmax(-3.0, -2.0) == -2.0);
    ck_assert(silk_fmin(-3.0, -2.0) == -3.0);
}
END_TEST

/* ---- the race checks' record (cpu_prelude.h's silk_shared_track) ------------------------- */

typedef struct Shadowed {
    unsigned char memory[8];
    SilkCpuShadow shadow[8];
    SilkCpuRace race;
    SilkCpuCta cta;
    SilkCpuThread thread[4];
} Shadowed;

static void shadowed_start(Shadowed *s)
{
    memset(s, 0, sizeof *s);
    s->race = (SilkCpuRace){.epoch = 1, .shadow = s->shadow, .unwritten_thread = SILK_CPU_NO_THREAD};
    s->cta = (SilkCpuCta){.shared = s->memory, .shared_size = 8, .race = &s->race, .ntid = 4};
    for (uint32_t i = 0; i < 4; i++)
        s->thread[i].tid = i;
}

/* Thread `tid`'s access of byte 0, of `kind`, at site 10 + tid; a store
 * writes `value` there when the check lets it.  Returns the finding. */
static int access_byte(Shadowed *s, uint32_t tid, int kind, unsigned char value)
{
    int found = silk_shared_track(&s->cta, &s->thread[tid], 0, 1, kind, 10 + tid, &value);
    if (!found && kind != SILK_CPU_LOAD)
        s->memory[0] = value;
    return found;
}

/* The other access a finding names: its thread, site and kind. */
static void ck_other(const Shadowed *s, uint32_t thread, int kind)
{
    ck_assert_uint_eq(s->race.other_thread, thread);
    ck_assert_uint_eq(s->race.other_site, 10 + thread);
    ck_assert_uint_eq(s->race.other_kind, (uint32_t)kind);
}

START_TEST(test_race_record)
{
    enum { L = SILK_CPU_LOAD, S = SILK_CPU_STORE, A = SILK_CPU_ATOMIC };
    Shadowed s;
    /* Nothing written: a load, an atomic read garbage, the epoch's first
     * such read kept for the executor to report at the epoch's end... */
    shadowed_start(&s);
    ck_assert_int_eq(access_byte(&s, 0, L, 0), 0);
    ck_assert_int_eq(access_byte(&s, 2, L, 0), 0);
    ck_assert_uint_eq(s.race.unwritten_thread, 0);
    ck_assert_uint_eq(s.race.unwritten_site, 10);
    ck_assert_uint_eq(s.race.unwritten_kind, L);
    /* ...unless another thread writes the bytes in the same epoch: the
     * reader only ran first, and the finding is the race. */
    ck_assert_int_eq(access_byte(&s, 1, S, 5), SILK_CPU_RACE);
    ck_other(&s, 0, L);
    shadowed_start(&s);
    ck_assert_int_eq(access_byte(&s, 3, A, 0), 0);
    ck_assert_uint_eq(s.race.unwritten_thread, 3);
    ck_assert_uint_eq(s.race.unwritten_kind, A);
    shadowed_start(&s); /* a store reads nothing */
    ck_assert_int_eq(access_byte(&s, 1, S, 5), 0);
    ck_assert_uint_eq(s.race.unwritten_thread, SILK_CPU_NO_THREAD);
    ck_assert_int_eq(access_byte(&s, 1, L, 0), 0); /* its own store */
    ck_assert_int_eq(access_byte(&s, 2, L, 0), SILK_CPU_RACE);
    ck_other(&s, 1, S);
    ck_assert_uint_eq(s.thread[2].site, 12);
    s.race.epoch++; /* a barrier orders them */
    ck_assert_int_eq(access_byte(&s, 2, L, 0), 0);
    ck_assert_int_eq(access_byte(&s, 3, L, 0), 0); /* reads never race with reads */
    ck_assert_int_eq(access_byte(&s, 2, S, 6), SILK_CPU_RACE); /* WAR: the reader kept is 3 */
    ck_other(&s, 3, L);
    ck_assert_int_eq(access_byte(&s, 3, A, 1), SILK_CPU_RACE); /* an atomic against a load */
    ck_other(&s, 2, L);

    shadowed_start(&s); /* WAW; a store of the byte already there is none */
    ck_assert_int_eq(access_byte(&s, 0, S, 7), 0);
    ck_assert_int_eq(access_byte(&s, 1, S, 7), 0);
    ck_assert_int_eq(access_byte(&s, 2, S, 8), SILK_CPU_RACE);
    ck_other(&s, 1, S);

    shadowed_start(&s); /* atomics do not race with atomics; a load does, its own thread's too */
    ck_assert_int_eq(access_byte(&s, 0, S, 0), 0);
    s.race.epoch++;
    ck_assert_int_eq(access_byte(&s, 0, A, 1), 0);
    ck_assert_int_eq(access_byte(&s, 1, A, 2), 0);
    ck_assert_int_eq(access_byte(&s, 2, A, 3), 0);
    ck_assert_int_eq(access_byte(&s, 0, L, 0), SILK_CPU_RACE); /* thread 1's atomic is kept */
    ck_other(&s, 1, A);

    shadowed_start(&s); /* a store, then its own atomic: the store is kept for the others */
    ck_assert_int_eq(access_byte(&s, 0, S, 0), 0);
    ck_assert_int_eq(access_byte(&s, 0, A, 1), 0);
    ck_assert_int_eq(access_byte(&s, 1, A, 2), SILK_CPU_RACE);
    ck_other(&s, 0, S);
}
END_TEST

/* A NaN result is PTX's canonical NaN, whatever its sign and payload;
 * other values keep their bits, -0 and infinities included. */
START_TEST(test_prelude_canonical_nan)
{
    ck_assert_uint_eq(silk_f32_bits(silk_nan_f32(silk_bits_f32(0xffc00000u))), 0x7fffffffu);
    ck_assert_uint_eq(silk_f32_bits(silk_nan_f32(silk_bits_f32(0x7f800001u))), 0x7fffffffu);
    ck_assert_uint_eq(silk_f32_bits(silk_nan_f32(-0.0f)), 0x80000000u);
    ck_assert_uint_eq(silk_f32_bits(silk_nan_f32(-INFINITY)), 0xff800000u);
    ck_assert_uint_eq(silk_f64_bits(silk_nan_f64(silk_bits_f64(UINT64_C(0xfff8000000000001)))),
                      UINT64_C(0x7fffffffffffffff));
    ck_assert_uint_eq(silk_f64_bits(silk_nan_f64(1.5)), UINT64_C(0x3ff8000000000000));
    float old = silk_bits_f32(0x3f800000u); /* 1.0 + -inf + inf: the sum's NaN made canonical */
    silk_atomic_add_f32(&old, -INFINITY);
    silk_atomic_add_f32(&old, INFINITY);
    ck_assert_uint_eq(silk_f32_bits(old), 0x7fffffffu);
}
END_TEST

/* True when `h` is an f16 NaN: exponent all ones, mantissa not zero. */
static bool half_is_nan(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0; }

/* f16 from double, rounded to nearest, ties to even; each expected value
 * worked out by hand from the format (1 sign, 5 exponent bits biased by
 * 15, 10 mantissa bits; subnormals in units of 2^-24). */
START_TEST(test_prelude_to_half)
{
    ck_assert_uint_eq(silk_double_to_half(1.0), 0x3c00);
    ck_assert_uint_eq(silk_double_to_half(-2.0), 0xc000);
    ck_assert_uint_eq(silk_double_to_half(0.0), 0x0000);
    ck_assert_uint_eq(silk_double_to_half(-0.0), 0x8000);
    ck_assert_uint_eq(silk_double_to_half(65504.0), 0x7bff); /* the largest f16 */
    ck_assert_uint_eq(silk_double_to_half(65519.99), 0x7bff); /* below the midpoint to 2^16 */
    ck_assert_uint_eq(silk_double_to_half(65520.0), 0x7c00); /* the tie: to even, 2^16: inf */
    ck_assert_uint_eq(silk_double_to_half(-65520.0), 0xfc00);
    ck_assert_uint_eq(silk_double_to_half(1e6), 0x7c00);
    ck_assert_uint_eq(silk_double_to_half(INFINITY), 0x7c00);
    ck_assert_uint_eq(silk_double_to_half(-INFINITY), 0xfc00);
    ck_assert_uint_eq(silk_double_to_half(NAN), 0x7fff); /* the canonical NaN, as PTX's */
    ck_assert_uint_eq(silk_double_to_half(-NAN), 0x7fff);
    /* ulp(1) is 2^-10: halfway ties go to the even mantissa */
    ck_assert_uint_eq(silk_double_to_half(1 + 0x1p-11), 0x3c00);           /* to 1 */
    ck_assert_uint_eq(silk_double_to_half(1 + 3 * 0x1p-11), 0x3c02);       /* to 1 + 2^-9 */
    ck_assert_uint_eq(silk_double_to_half(1 + 0x1p-11 + 0x1p-30), 0x3c01); /* past the tie */
    ck_assert_uint_eq(silk_double_to_half(2047.5), 0x6800); /* a tie that carries: 2048 */
    ck_assert_uint_eq(silk_double_to_half(1.0 / 3), 0x3555);
    /* subnormals, in units of 2^-24 */
    ck_assert_uint_eq(silk_double_to_half(0x1p-24), 0x0001);
    ck_assert_uint_eq(silk_double_to_half(-0x1p-24), 0x8001);
    ck_assert_uint_eq(silk_double_to_half(0x1p-25), 0x0000);     /* the tie, to even 0 */
    ck_assert_uint_eq(silk_double_to_half(3 * 0x1p-25), 0x0002); /* 1.5 units: to 2 */
    ck_assert_uint_eq(silk_double_to_half(0x1p-25 + 0x1p-40), 0x0001);
    ck_assert_uint_eq(silk_double_to_half(1023 * 0x1p-24), 0x03ff); /* the largest */
    ck_assert_uint_eq(silk_double_to_half(1023.5 * 0x1p-24), 0x0400); /* up to the least normal */
    ck_assert_uint_eq(silk_double_to_half(0x1p-14), 0x0400);
    ck_assert_uint_eq(silk_double_to_half(0x1p-30), 0x0000);
    /* from float: the same one rounding */
    ck_assert_uint_eq(silk_half_from_float(1 + 0x1p-11f), 0x3c00);
    ck_assert_uint_eq(silk_half_from_float(65504.0f), 0x7bff);
}
END_TEST

START_TEST(test_prelude_from_half)
{
    ck_assert(silk_half_to_double(0x3c00) == 1.0);
    ck_assert(silk_half_to_double(0xc000) == -2.0);
    ck_assert(silk_half_to_double(0x7bff) == 65504.0);
    ck_assert(silk_half_to_double(0x0001) == 0x1p-24);
    ck_assert(silk_half_to_double(0x03ff) == 1023 * 0x1p-24);
    ck_assert(silk_half_to_double(0x0400) == 0x1p-14);
    ck_assert(silk_half_to_double(0x3555) == 0x1.554p-2);
    ck_assert(silk_half_to_double(0x8000) == 0 && signbit(silk_half_to_double(0x8000)));
    ck_assert(silk_half_to_double(0x7c00) == INFINITY);
    ck_assert(silk_half_to_double(0xfc00) == -INFINITY);
    ck_assert(isnan(silk_half_to_double(0x7e00)));
    ck_assert(isnan(silk_half_to_double(0x7c01)));
    ck_assert(silk_half_to_float(0x7bff) == 65504.0f);
    /* every f16 that is not a NaN comes back to its own bits */
    uint32_t h = 0;
    while (h <= 0xffff && (half_is_nan((uint16_t)h) ||
                           silk_double_to_half(silk_half_to_double((uint16_t)h)) == h))
        h++;
    ck_assert_msg(h > 0xffff, "f16 0x%04x comes back as 0x%04x", h,
                  silk_double_to_half(silk_half_to_double((uint16_t)h)));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cpu");
    /* Each example builds a module with the C compiler: slower than
     * Check's default of 4 s on a loaded machine. */
    TCase *examples = tcase_create("examples");
    tcase_set_timeout(examples, 120);
    tcase_add_test(examples, test_saxpy);
    tcase_add_test(examples, test_reduce);
    tcase_add_test(examples, test_transpose);
    tcase_add_test(examples, test_stencil);
    tcase_add_test(examples, test_histogram);
    tcase_add_test(examples, test_sgemm);
    suite_add_tcase(s, examples);
    TCase *checks = tcase_create("checks");
    tcase_set_timeout(checks, 60);
    tcase_add_test(checks, test_divergent_barrier);
    tcase_add_test(checks, test_divergent_barrier_in_a_later_cta);
    tcase_add_test(checks, test_barrier_skipped_by_exit);
    tcase_add_test(checks, test_shuffle_lanes_exited);
    tcase_add_test(checks, test_shuffle_lanes_elsewhere);
    tcase_add_test(checks, test_uniform_kernel_never_faults);
    tcase_add_test(checks, test_barrier_saves_only_live_registers);
    tcase_add_test(checks, test_signal_leaves_no_module_behind);
    suite_add_tcase(s, checks);
    TCase *prelude = tcase_create("prelude");
    tcase_add_test(prelude, test_prelude_division);
    tcase_add_test(prelude, test_prelude_shifts);
    tcase_add_test(prelude, test_prelude_float_to_int);
    tcase_add_test(prelude, test_prelude_min_max);
    tcase_add_test(prelude, test_prelude_canonical_nan);
    tcase_add_test(prelude, test_race_record);
    tcase_add_test(prelude, test_prelude_to_half);
    tcase_add_test(prelude, test_prelude_from_half);
    suite_add_tcase(s, prelude);
    SRunner *runner = srunner_create(s);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
