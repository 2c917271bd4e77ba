/*
 * cpu_reference.c: the plain C peers of bench/cpu.sh, which compiles this
 * file with `cc -O2 -ffp-contract=off` (the floating-point rule of the CPU
 * backend's own modules, so that both sides round alike).
 *
 *   cpu_reference saxpy N [OUT]          y = fma(a, x, y) over N floats
 *   cpu_reference reduce N               the sum of N floats, one by one
 *   cpu_reference sgemm M N K [OUT]      C = A * B, the naive triple loop
 *   cpu_reference compute T ITERS [OUT]  bench/cpu_compute.silk's loop, T times
 *
 * Each loop is written as one would write it in C, and runs over buffers
 * filled exactly as `silkc exec --buf TYPE:COUNT:random` fills them (the
 * same splitmix64 stream from seed 1, consumed in parameter order), so the
 * results can be compared with the kernel's: OUT gets every buffer's bytes
 * in the layout of `silkc exec --out`.  The program prints `loop S`, the
 * seconds of the loop alone (CLOCK_MONOTONIC); the script times the whole
 * process, allocation and filling included, as the peer of the command a
 * user types.  reduce prints its f32 sum, and the sum and the sum of
 * magnitudes in double, for the script's tolerance.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- buffers, as silkc exec makes them ------------------------------------------------- */

static uint64_t seed = 1; /* silkc exec's --seed default */

/* silkc exec's splitmix64 step (compiler/run/run_buffers.c, next_random). */
static uint64_t next_random(void)
{
    uint64_t z = (seed += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* f32:COUNT:random — floats in [-1, 1) from the stream's top 53 bits. */
static float *random_floats(size_t count)
{
    float *p = calloc(count, sizeof *p);
    for (size_t i = 0; p && i < count; i++)
        p[i] = (float)(ldexp((double)(next_random() >> 11), -52) - 1.0);
    return p;
}

/* f32:COUNT:value */
static float *filled_floats(size_t count, float value)
{
    float *p = calloc(count, sizeof *p);
    for (size_t i = 0; p && value != 0 && i < count; i++)
        p[i] = value;
    return p;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The buffers one after the other, as `silkc exec --out` writes them. */
static int write_out(const char *path, float *const buffers[], const size_t counts[], int n)
{
    FILE *f = fopen(path, "wb");
    int ok = f != NULL;
    for (int b = 0; ok && b < n; b++)
        ok = fwrite(buffers[b], sizeof(float), counts[b], f) == counts[b];
    if (f && fclose(f) != 0)
        ok = 0;
    if (!ok)
        perror(path);
    return ok ? 0 : 1;
}

static size_t count_arg(const char *text)
{
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    return *end || v == 0 ? 0 : (size_t)v;
}

/* ---- the loops ------------------------------------------------------------------------ */

/* --buf f32:1:2 --buf f32:N:random --buf f32:N:1, as bench/cpu.sh runs saxpy. */
static int saxpy(size_t n, const char *out)
{
    float *a = filled_floats(1, 2.0f), *x = random_floats(n), *y = filled_floats(n, 1.0f);
    if (!a || !x || !y)
        return 1;
    double start = now();
    for (size_t i = 0; i < n; i++)
        y[i] = fmaf(a[0], x[i], y[i]);
    printf("loop %.6f\n", now() - start);
    return out ? write_out(out, (float *[]){a, x, y}, (size_t[]){1, n, n}, 3) : 0;
}

/* --buf f32:N:random --buf f32:1:0.  A float sum in order, as C is written;
 * the double sums only check the kernel's (its order of adds differs). */
static int reduce(size_t n)
{
    float *x = random_floats(n);
    if (!x)
        return 1;
    double start = now();
    float sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += x[i];
    double seconds = now() - start, exact = 0, magnitude = 0;
    for (size_t i = 0; i < n; i++) {
        exact += x[i];
        magnitude += fabs(x[i]);
    }
    printf("loop %.6f\nsum %.9g\nexact %.17g\nmagnitude %.17g\n", seconds, sum, exact, magnitude);
    return 0;
}

/* --buf f32:M*K:random --buf f32:K*N:random --buf f32:M*N:0.  The kernel
 * also adds the products in order of k with fma, so C is bit for bit its. */
static int sgemm(size_t m, size_t n, size_t k, const char *out)
{
    float *a = random_floats(m * k), *b = random_floats(k * n), *c = filled_floats(m * n, 0);
    if (!a || !b || !c)
        return 1;
    double start = now();
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++) {
            float acc = 0;
            for (size_t p = 0; p < k; p++)
                acc = fmaf(a[i * k + p], b[p * n + j], acc);
            c[i * n + j] = acc;
        }
    printf("loop %.6f\n", now() - start);
    return out ? write_out(out, (float *[]){a, b, c}, (size_t[]){m * k, k * n, m * n}, 3) : 0;
}

/* bench/cpu_compute.silk for threads 0..T-1 (--arg T --arg ITERS --buf f32:T:0). */
static int compute(size_t threads, uint32_t iters, const char *out)
{
    float *result = filled_floats(threads, 0);
    if (!result)
        return 1;
    double start = now();
    for (size_t i = 0; i < threads; i++) {
        uint32_t h = (uint32_t)i + 1;
        float f = 1.0f, g = 0.5f;
        for (uint32_t j = 0; j < iters; j++) {
            h = h * 1664525u + 1013904223u;
            h ^= h >> 13;
            float v = (float)(h & 1023u) * 0.0009765625f;
            f = fmaf(f, 0.999f, v);
            g = g * 0.5f + f;
            g = g < 1000000.0f ? g : 1000000.0f;
        }
        result[i] = f + g + (float)(h & 7u);
    }
    printf("loop %.6f\n", now() - start);
    return out ? write_out(out, (float *[]){result}, (size_t[]){threads}, 1) : 0;
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    size_t a = argc > 2 ? count_arg(argv[2]) : 0, b = argc > 3 ? count_arg(argv[3]) : 0;
    size_t c = argc > 4 ? count_arg(argv[4]) : 0;
    if (strcmp(what, "saxpy") == 0 && a && argc <= 4)
        return saxpy(a, argc > 3 ? argv[3] : NULL);
    if (strcmp(what, "reduce") == 0 && a && argc == 3)
        return reduce(a);
    if (strcmp(what, "sgemm") == 0 && a && b && c && argc <= 6)
        return sgemm(a, b, c, argc > 5 ? argv[5] : NULL);
    if (strcmp(what, "compute") == 0 && a && b && b <= UINT32_MAX && argc <= 5)
        return compute(a, (uint32_t)b, argc > 4 ? argv[4] : NULL);
    fputs("usage: cpu_reference saxpy N [OUT] | reduce N | sgemm M N K [OUT] |"
          " compute THREADS ITERS [OUT]\n", stderr);
    return 2;
}
