/*
 * frontend.c: how fast `silkc check` is, and how its memory grows.
 *
 * Generates Silk programs of 25,000, 50,000 and 100,000 lines — many
 * kernels (shared memory, loops, atomics, constants) and host functions
 * with launch blocks — runs `silkc check` on each, and prints lines per
 * second and peak memory (the child's maximum resident set).  As a peer
 * measured in the same run, it times `cc -fsyntax-only` on a C program of
 * the same shape and size.  Goal: at least 1,000,000 lines per second on
 * one core, and memory linear in the input (constant bytes per line).
 *
 * Then one kernel of 25,000, 50,000 and 100,000 lines (one body, not many
 * kernels: the size the optimiser and the register estimate see): the time
 * of `silkc check` and of `silkc compile --arch sm_90 --emit=ptx` as a user
 * types it (which runs ptxas, when there is one, for the occupancy
 * warnings), and of the same compile with SILK_PTXAS=none (silkc's own
 * work), and the ratio of the 100,000-line time to the 25,000-line one:
 * 4 when the time is linear.  Goal (issue 11): check under 1 s and the
 * compile under 3 s at 100,000 lines.
 *
 * Then one branchy kernel of the same sizes (a let, an `if` on an `&&`
 * with a let inside, and a short loop every ten lines): check, and compile
 * with SILK_PTXAS=none, with the peak memory of the compile.  Goal: the
 * same, and linear in time and memory.
 *
 * Run with `make bench` (which also runs bench/engine).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { LINES_PER_UNIT = 25 };

/* One kernel and one host function: LINES_PER_UNIT lines of Silk. */
static void silk_unit(FILE *f, int i)
{
    fprintf(f, "@launch(256, 2)\n"
               "kernel scale_%d(n: u64, x: tensor<f32>[4096], y: tensor<f32>[4096]) {\n"
               "  shared tile: f32[256]\n"
               "  let i = ctx.gid\n"
               "  var acc: f32 = 0.0\n"
               "  for j in 0..4u64 step 1 {\n"
               "    acc += x[(i + j) %% 4096] * 2.0\n"
               "  }\n"
               "  tile[ctx.tid] = acc\n"
               "  sync()\n"
               "  if i < n {\n"
               "    y[i %% 4096] = tile[(ctx.tid + 1u32) %% 256u32] + acc\n"
               "  }\n"
               "}\n"
               "\n"
               "fn host_%d(x: u64, y: u64) -> i32 {\n"
               "  let n: u64 = 1048576\n"
               "  let d: DispatchResult = gpu (grid=n, workspace=256) {\n"
               "    scale_%d(n, x, y);\n"
               "  };\n"
               "  if d.launch_failed() {\n"
               "    return 1\n"
               "  }\n"
               "  return 0\n"
               "}\n",
            i, i, i);
}

/* The same shape in C, for the peer. */
static void c_unit(FILE *f, int i)
{
    fprintf(f, "void scale_%d(unsigned long n, float *x, float *y, unsigned gid, unsigned tid) {\n"
               "  static float tile[256];\n"
               "  unsigned long i = gid;\n"
               "  float acc = 0.0f;\n"
               "  for (unsigned long j = 0; j < 4; j += 1) {\n"
               "    acc += x[(i + j) %% 4096] * 2.0f;\n"
               "  }\n"
               "  tile[tid] = acc;\n"
               "  sync_threads();\n"
               "  if (i < n) {\n"
               "    y[i %% 4096] = tile[(tid + 1u) %% 256u] + acc;\n"
               "  }\n"
               "}\n"
               "\n"
               "int host_%d(unsigned long x, unsigned long y) {\n"
               "  unsigned long n = 1048576;\n"
               "  struct dispatch d = launch_and_synchronize(\"scale_%d\", n, 256,\n"
               "    n, x, y);\n"
               "  (void)d;\n"
               "  if (d.launch_status != 0) {\n"
               "    return 1;\n"
               "  }\n"
               "  return 0;\n"
               "}\n",
            i, i, i);
}

static void generate(const char *path, int lines, int silk)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    if (silk)
        fputs("import { DispatchResult } from \"std/gpu\";\n", f);
    else
        fputs("struct dispatch { int launch_status, synchronize_status; };\n"
              "void sync_threads(void);\n"
              "struct dispatch launch_and_synchronize(const char *, unsigned long, unsigned long, ...);\n",
              f);
    for (int i = 0; i < lines / LINES_PER_UNIT; i++)
        (silk ? silk_unit : c_unit)(f, i);
    fclose(f);
}

enum { KERNEL_LINES_PER_STEP = 4 };

/* One kernel whose body is `lines` lines of arithmetic, loads and stores,
 * each value used again a few lines on. */
static void generate_kernel(const char *path, int lines)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    fputs("@launch(256)\n"
          "kernel long_body(x: tensor<f32>[4096], y: tensor<f32>[4096]) {\n"
          "  let i = ctx.gid\n"
          "  var acc: f32 = 0.0\n", f);
    for (int k = 0; k < (lines - 5) / KERNEL_LINES_PER_STEP; k++)
        fprintf(f, "  let a%d = x[(i + %du64) %% 4096u64] * 2.0 + 1.0\n"
                   "  acc = acc * a%d + 0.5\n"
                   "  y[(i + %du64) %% 4096u64] = acc - a%d\n"
                   "  acc = acc / 3.0\n",
                k, k, k, k, k);
    fputs("}\n", f);
    fclose(f);
}

enum { BRANCHY_LINES_PER_STEP = 10 };

/* One kernel whose body is `lines` lines of branches: in each step a let
 * between, an if on a `&&` (two branches) with a let inside, and a short
 * loop (the shapes whose liveness, loops and lowering were quadratic). */
static void generate_branchy_kernel(const char *path, int lines)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    fputs("@launch(256)\n"
          "kernel branchy_body(x: tensor<f32>[4096], y: tensor<f32>[4096]) {\n"
          "  let i = ctx.gid\n"
          "  var acc: f32 = 0.0\n", f);
    for (int k = 0; k < (lines - 5) / BRANCHY_LINES_PER_STEP; k++)
        fprintf(f, "  let a%d = x[(i + %du64) %% 4096u64]\n"
                   "  if a%d > 0.5 && a%d < 2.0 {\n"
                   "    let b%d = a%d * 2.0 + 1.0\n"
                   "    acc = acc + b%d\n"
                   "  }\n"
                   "  for j in 0..4u64 step 1 {\n"
                   "    acc = acc * 0.5 + x[(i + j + %du64) %% 4096u64]\n"
                   "  }\n"
                   "  y[(i + %du64) %% 4096u64] = acc\n"
                   "  acc = acc / 3.0\n",
                k, k, k, k, k, k, k, k, k);
    fputs("}\n", f);
    fclose(f);
}

typedef struct Run {
    double seconds;
    long peak_kib;
    int status;
} Run;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Runs argv, with its output discarded; the best time of `attempts` runs. */
static Run run_n(char *const argv[], int attempts)
{
    Run best = {0, 0, 0};
    for (int attempt = 0; attempt < attempts; attempt++) {
        fflush(stdout); /* or the child's freopen would write our buffer */
        double start = now();
        pid_t pid = fork();
        if (pid == 0) {
            if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
                _exit(127);
            execvp(argv[0], argv);
            _exit(127);
        }
        int status;
        struct rusage usage;
        wait4(pid, &status, 0, &usage);
        double seconds = now() - start;
        if (attempt == 0 || seconds < best.seconds)
            best.seconds = seconds;
        best.peak_kib = usage.ru_maxrss;
        best.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    return best;
}

static Run run(char *const argv[]) { return run_n(argv, 3); }

static int failed(const char *what, int status)
{
    fprintf(stderr, "bench/frontend: %s failed (%d) on the generated kernel\n", what, status);
    return 1;
}

/* One kernel of each size: check, compile (ptxas as found), compile
 * without ptxas.  ptxas itself takes minutes and gigabytes on a kernel
 * this long, so the compile with it runs once, under `timeout` with
 * BENCH_PTXAS_LIMIT seconds (default 300); past it the figure is printed
 * as that limit with '>' and the ratio is not given. */
static int bench_kernel(const char *silkc)
{
    const char *limit = getenv("BENCH_PTXAS_LIMIT") ? getenv("BENCH_PTXAS_LIMIT") : "300";
    static const int sizes[] = {25000, 50000, 100000};
    double first[3] = {0}, last[3] = {0};
    bool ptx_ratio_known = true;
    printf("\none kernel of N lines%s\n%8s  %10s  %14s  %18s\n", getenv("SILK_PTXAS") ? " (SILK_PTXAS set)" : "",
           "lines", "check s", "compile ptx s", "  without ptxas s");
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        char path[] = "/tmp/silk-bench-XXXXXX.silk", out[] = "/tmp/silk-bench-XXXXXX.ptx";
        close(mkstemps(path, 5));
        close(mkstemps(out, 4));
        generate_kernel(path, sizes[i]);
        char *compile[] = {(char *)silkc, "compile", "--arch", "sm_90", "--emit=ptx", path, "-o", out, NULL};
        Run check = run((char *const[]){(char *)silkc, "check", path, NULL});
        char *limited[] = {"timeout", (char *)limit, (char *)silkc, "compile", "--arch", "sm_90", "--emit=ptx",
                           path, "-o", out, NULL};
        Run ptx = run_n(limited, 1);
        bool ptx_timed_out = ptx.status == 124;
        if (ptx_timed_out)
            ptx.status = 0;
        const char *saved = getenv("SILK_PTXAS");
        setenv("SILK_PTXAS", "none", 1);
        Run own = run(compile);
        if (saved)
            setenv("SILK_PTXAS", saved, 1);
        else
            unsetenv("SILK_PTXAS");
        unlink(path);
        unlink(out);
        if (check.status != 0 || ptx.status != 0 || own.status != 0)
            return failed(check.status ? "silkc check" : "silkc compile", check.status ? check.status : ptx.status ? ptx.status : own.status);
        if (ptx_timed_out)
            printf("%8d  %10.3f  %13s%s  %18.3f\n", sizes[i], check.seconds, ">", limit, own.seconds);
        else
            printf("%8d  %10.3f  %14.3f  %18.3f\n", sizes[i], check.seconds, ptx.seconds, own.seconds);
        ptx_ratio_known &= !ptx_timed_out;
        double t[3] = {check.seconds, ptx.seconds, own.seconds};
        for (int k = 0; k < 3; k++) {
            if (i == 0)
                first[k] = t[k];
            last[k] = t[k];
        }
    }
    if (ptx_ratio_known)
        printf("%8s  %10.2f  %14.2f  %18.2f   (4.00: linear)\n", "100k/25k", last[0] / first[0],
               last[1] / first[1], last[2] / first[2]);
    else
        printf("%8s  %10.2f  %14s  %18.2f   (4.00: linear)\n", "100k/25k", last[0] / first[0], "-",
               last[2] / first[2]);
    return 0;
}

/* One branchy kernel of each size: check, and compile without ptxas
 * (ptxas on it is what the first kernel table shows: minutes). */
static int bench_branchy_kernel(const char *silkc)
{
    static const int sizes[] = {25000, 50000, 100000};
    double first[2] = {0}, last[2] = {0};
    printf("\none branchy kernel of N lines\n%8s  %10s  %18s  %12s\n", "lines", "check s", "  without ptxas s",
           "peak KiB");
    const char *saved = getenv("SILK_PTXAS");
    setenv("SILK_PTXAS", "none", 1);
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        char path[] = "/tmp/silk-bench-XXXXXX.silk", out[] = "/tmp/silk-bench-XXXXXX.ptx";
        close(mkstemps(path, 5));
        close(mkstemps(out, 4));
        generate_branchy_kernel(path, sizes[i]);
        Run check = run((char *const[]){(char *)silkc, "check", path, NULL});
        Run own = run((char *const[]){(char *)silkc, "compile", "--arch", "sm_90", "--emit=ptx", path, "-o", out, NULL});
        unlink(path);
        unlink(out);
        if (check.status != 0 || own.status != 0)
            return failed(check.status ? "silkc check" : "silkc compile", check.status ? check.status : own.status);
        printf("%8d  %10.3f  %18.3f  %12ld\n", sizes[i], check.seconds, own.seconds, own.peak_kib);
        double t[2] = {check.seconds, own.seconds};
        for (int k = 0; k < 2; k++) {
            if (i == 0)
                first[k] = t[k];
            last[k] = t[k];
        }
    }
    if (saved)
        setenv("SILK_PTXAS", saved, 1);
    else
        unsetenv("SILK_PTXAS");
    printf("%8s  %10.2f  %18.2f   (4.00: linear)\n", "100k/25k", last[0] / first[0], last[1] / first[1]);
    return 0;
}

int main(int argc, char **argv)
{
    const char *silkc = argc > 1 ? argv[1] : "src/silkc";
    const char *cc = getenv("CC") ? getenv("CC") : "cc";
    static const int sizes[] = {25000, 50000, 100000};
    printf("%8s  %14s %10s %9s  %14s %10s  %s\n", "lines", "silkc lines/s", "peak KiB", "B/line",
           "cc lines/s", "peak KiB", "silkc/cc speed");
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        char silk_path[] = "/tmp/silk-bench-XXXXXX.silk", c_path[] = "/tmp/silk-bench-XXXXXX.c";
        close(mkstemps(silk_path, 5));
        close(mkstemps(c_path, 2));
        generate(silk_path, sizes[i], 1);
        generate(c_path, sizes[i], 0);
        Run s = run((char *const[]){(char *)silkc, "check", silk_path, NULL});
        Run c = run((char *const[]){(char *)cc, "-fsyntax-only", "-w", c_path, NULL});
        unlink(silk_path);
        unlink(c_path);
        if (s.status != 0) {
            fprintf(stderr, "bench/frontend: silkc check failed (%d) on the generated program\n", s.status);
            return 1;
        }
        printf("%8d  %14.0f %10ld %9.0f  %14.0f %10ld  %.2fx\n", sizes[i], sizes[i] / s.seconds,
               s.peak_kib, s.peak_kib * 1024.0 / sizes[i], sizes[i] / c.seconds, c.peak_kib,
               c.seconds / s.seconds);
    }
    return bench_kernel(silkc) || bench_branchy_kernel(silkc);
}
