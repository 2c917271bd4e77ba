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
 * Run with `make bench` (which also runs bench/engine).
 */
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

/* Runs argv, with its output discarded; the best time of three runs. */
static Run run(char *const argv[])
{
    Run best = {0, 0, 0};
    for (int attempt = 0; attempt < 3; attempt++) {
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
    return 0;
}
