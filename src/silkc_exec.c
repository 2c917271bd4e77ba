/*
 * silkc_exec.c: `silkc exec`, a kernel run on this machine's cores by the
 * CPU backend (cpu.h), with buffers made from the command line, so that a
 * kernel can be tried with no host code and no GPU.
 *
 *   silkc exec FILE... --kernel NAME --grid N [--workspace W] [--sms S]
 *              [--arg VALUE | --buf TYPE:COUNT:INIT]... [--seed S]
 *              [--workers N] [--race] [--dump] [--out FILE] [-O0]
 *
 * --arg and --buf bind the kernel's parameters in their order: --arg a
 * scalar (an integer, or a float for an f32 or f64 parameter), --buf a
 * tensor, whose buffer of COUNT elements of TYPE is filled with INIT: a
 * number, or `random` (integers over their whole range, floats in
 * [-1, 1), the same for the same --seed).  The grid counts work items,
 * as a launch block's does: ceil(N / W) CTAs of W threads.  A
 * @persistent kernel gets its hidden logical-CTA count and
 * min(logical, S) CTAs.  After the run --dump prints every buffer and
 * --out writes their bytes, one after the other, to FILE.  --race builds
 * the kernel with the race checks (CompileOptions.race_checks).
 */
#include "silkc.h"

#include "build.h"
#include "cpu/cpu.h"
#include "cpu/cpu_prelude.h" /* f16 conversions, as the kernels make them */
#include "output.h"
#include "tempdir.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A buffer element type of --buf. */
typedef struct ElementType {
    const char *name;
    int bytes;
    char kind; /* 's' signed, 'u' unsigned, 'f' float */
} ElementType;

static const ElementType ELEMENT_TYPES[] = {
    {"i8", 1, 's'}, {"u8", 1, 'u'}, {"i16", 2, 's'}, {"u16", 2, 'u'}, {"i32", 4, 's'},
    {"u32", 4, 'u'}, {"i64", 8, 's'}, {"u64", 8, 'u'}, {"f16", 2, 'f'}, {"f32", 4, 'f'},
    {"f64", 8, 'f'},
};

typedef struct Buffer {
    const ElementType *type;
    uint64_t count;
    unsigned char *data;
} Buffer;

static int exec_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* One line naming the option or the kernel; exit status 2. */
static int exec_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("silkc: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return EXIT_USAGE;
}

/* ---- values ---------------------------------------------------------------------------- */

static bool parse_u64(const char *text, uint64_t max, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!*text || *text == '-' || *text == '+' || *text == ' ')
        return false;
    unsigned long long v = strtoull(text, &end, 0);
    if (errno || *end || v > max)
        return false;
    *out = v;
    return true;
}

/* An integer (decimal or 0x hex, a sign allowed) as the low bits of its
 * two's complement, or a float's bits for `type` f32/f64. */
static bool parse_scalar(const char *text, const char *type, uint64_t *out)
{
    char *end;
    errno = 0;
    if (strcmp(type, "f32") == 0 || strcmp(type, "f64") == 0 || strcmp(type, "f16") == 0) {
        double d = strtod(text, &end);
        if (!*text || *end || errno == ERANGE)
            return false;
        float f = (float)d;
        uint32_t bits;
        memcpy(&bits, &f, 4);
        if (strcmp(type, "f64") == 0)
            memcpy(out, &d, 8);
        else
            *out = bits;
        return strcmp(type, "f16") != 0;
    }
    if (*text == '-') {
        long long v = strtoll(text, &end, 0);
        *out = (uint64_t)v;
    } else {
        *out = strtoull(text, &end, 0);
    }
    return *text && !*end && !errno;
}

/* A splitmix64 stream: the same numbers for the same seed everywhere. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Element i of `b` set from `bits`: integers the low bytes; for a float,
 * `value` (a number) or, when `random`, one in [-1, 1) from the bits. */
static void set_element(Buffer *b, uint64_t i, uint64_t bits, double value, bool random)
{
    unsigned char *p = b->data + i * (uint64_t)b->type->bytes;
    if (b->type->kind != 'f') {
        memcpy(p, &bits, (size_t)b->type->bytes); /* little-endian: the low bytes */
        return;
    }
    if (random)
        value = ldexp((double)(bits >> 11), -52) - 1.0;
    if (b->type->bytes == 2) {
        uint16_t h = silk_double_to_half(value); /* nearest, ties to even */
        memcpy(p, &h, 2);
    } else if (b->type->bytes == 4) {
        float f = (float)value;
        memcpy(p, &f, 4);
    } else {
        memcpy(p, &value, 8);
    }
}

/* --buf TYPE:COUNT:INIT */
static int make_buffer(const char *spec, uint64_t *seed, Buffer *b)
{
    char type[8], init[64];
    uint64_t count;
    const char *c1 = strchr(spec, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c2 || (size_t)(c1 - spec) >= sizeof type || strlen(c2 + 1) >= sizeof init)
        return exec_error("--buf '%s': give TYPE:COUNT:INIT, as f32:1024:random", spec);
    snprintf(type, sizeof type, "%.*s", (int)(c1 - spec), spec);
    snprintf(init, sizeof init, "%s", c2 + 1);
    char count_text[32];
    snprintf(count_text, sizeof count_text, "%.*s", (int)(c2 - c1 - 1), c1 + 1);
    b->type = NULL;
    for (size_t i = 0; i < sizeof ELEMENT_TYPES / sizeof *ELEMENT_TYPES; i++)
        if (strcmp(ELEMENT_TYPES[i].name, type) == 0)
            b->type = &ELEMENT_TYPES[i];
    if (!b->type)
        return exec_error("--buf '%s': unknown type '%s' (i8 u8 i16 u16 i32 u32 i64 u64 f16 f32 f64)",
                          spec, type);
    if (!parse_u64(count_text, (UINT64_C(1) << 32), &count) || count == 0)
        return exec_error("--buf '%s': the count must be a whole number from 1 to 2^32", spec);
    bool random = strcmp(init, "random") == 0;
    uint64_t bits = 0;
    char *end;
    double value = strtod(init, &end);
    if (!random && (!*init || *end || !parse_scalar(init, b->type->kind == 'f' ? "f64" : "i64", &bits)))
        return exec_error("--buf '%s': INIT must be a number or 'random'", spec);
    b->count = count;
    b->data = calloc(count, (size_t)b->type->bytes);
    if (!b->data) {
        fprintf(stderr, "silkc: error: --buf '%s': out of memory\n", spec);
        return EXIT_ENVIRONMENT;
    }
    for (uint64_t i = 0; i < count; i++)
        set_element(b, i, random ? next_random(seed) : bits, value, random);
    return EXIT_OK;
}

/* ---- the command ---------------------------------------------------------------------- */

/* The parameters of `k` from the bindings, in order; buffers made. */
static int bind_parameters(const SilkcRequest *r, const SilkCpuKernel *k, uint64_t *params,
                           Buffer *buffers, int *n_buffers)
{
    uint32_t user_params = k->n_params - (k->persistent ? 1 : 0);
    if ((uint32_t)r->n_bindings != user_params)
        return exec_error("--kernel %s takes %" PRIu32 " parameters, and %d --arg and --buf were given",
                          k->name, user_params, r->n_bindings);
    uint64_t seed = r->seed;
    for (int i = 0; i < r->n_bindings; i++) {
        const ExecBinding *bind = &r->bindings[i];
        const char *type = k->param_types[i], *name = k->param_names[i];
        const char *source = k->param_source_types[i];
        bool tensor = strncmp(source, "tensor<", 7) == 0;
        if (bind->buffer != tensor)
            return exec_error("%s '%s': parameter %d (%s) is %s %s, %s", bind->buffer ? "--buf" : "--arg",
                              bind->text, i + 1, name, tensor ? "a" : "of type", source,
                              tensor ? "given with --buf" : "given with --arg");
        if (bind->buffer) {
            int rc = make_buffer(bind->text, &seed, &buffers[*n_buffers]);
            if (rc != EXIT_OK)
                return rc;
            size_t elem = strcspn(source + 7, ">");
            const char *buffer_type = buffers[*n_buffers].type->name;
            if (strlen(buffer_type) != elem || strncmp(source + 7, buffer_type, elem) != 0) {
                free(buffers[*n_buffers].data);
                return exec_error("--buf '%s': parameter %d (%s) is a %s", bind->text, i + 1, name,
                                  source);
            }
            params[i] = (uint64_t)(uintptr_t)buffers[(*n_buffers)++].data;
        } else if (!parse_scalar(bind->text, type, &params[i])) {
            return exec_error("--arg '%s': not a value of parameter %d (%s: %s)", bind->text, i + 1,
                              name, type);
        }
    }
    return EXIT_OK;
}

static void dump_element(const Buffer *b, uint64_t i)
{
    const unsigned char *p = b->data + i * (uint64_t)b->type->bytes;
    uint64_t u = 0;
    memcpy(&u, p, (size_t)b->type->bytes);
    if (b->type->kind == 'f' && b->type->bytes == 2) {
        printf("%.5g", silk_half_to_double((uint16_t)u)); /* 5 digits read back an f16 */
    } else if (b->type->kind == 'f' && b->type->bytes == 4) {
        float f;
        memcpy(&f, p, 4);
        printf("%.9g", f);
    } else if (b->type->kind == 'f') {
        double d;
        memcpy(&d, p, 8);
        printf("%.17g", d);
    } else if (b->type->kind == 's') {
        int shift = 64 - 8 * b->type->bytes; /* sign-extend the low bytes */
        printf("%" PRId64, (int64_t)(u << shift) >> shift);
    } else {
        printf("%" PRIu64, u);
    }
}

/* --dump: each buffer, eight elements a line. */
static void dump(const Buffer *buffers, int n)
{
    for (int b = 0; b < n; b++) {
        printf("buffer %d: %s[%" PRIu64 "]\n", b + 1, buffers[b].type->name, buffers[b].count);
        for (uint64_t i = 0; i < buffers[b].count; i++) {
            dump_element(&buffers[b], i);
            putchar(i % 8 == 7 || i + 1 == buffers[b].count ? '\n' : ' ');
        }
    }
}

/* --out FILE: the buffers' bytes, one after the other. */
static int write_buffers(const char *path, const Buffer *buffers, int n, const SilkcRequest *r)
{
    Output out;
    if (!output_open(&out, path, (const char *const *)r->inputs, r->n_inputs)) {
        fprintf(stderr, "silkc: error: %s\n", out.error);
        return out.failure == OUTPUT_CANNOT_WRITE ? EXIT_ENVIRONMENT : EXIT_USAGE;
    }
    for (int b = 0; b < n; b++)
        fwrite(buffers[b].data, (size_t)buffers[b].type->bytes, buffers[b].count, out.file);
    output_flush(&out);
    if (!output_commit(&out)) {
        fprintf(stderr, "silkc: error: %s\n", out.error);
        return EXIT_ENVIRONMENT;
    }
    return EXIT_OK;
}

/* The launch's geometry, checked as the seed's launch rules say. */
static int plan_launch(const SilkcRequest *r, const SilkCpuKernel *k, CpuLaunch *l)
{
    uint64_t threads = r->workspace ? r->workspace : k->fixed_threads;
    if (!threads)
        return exec_error("--kernel %s has no fixed CTA size: give --workspace", k->name);
    if (k->fixed_threads && threads != k->fixed_threads)
        return exec_error("--workspace %" PRIu64 ": kernel %s runs CTAs of %" PRIu32 " threads "
                          "(@launch)", threads, k->name, k->fixed_threads);
    uint64_t ctas = (r->grid + threads - 1) / threads;
    if (ctas > UINT32_MAX)
        return exec_error("--grid %" PRIu64 ": more than 2^32 - 1 CTAs of %" PRIu64 " threads",
                          r->grid, threads);
    *l = (CpuLaunch){.ctas = ctas, .threads = (uint32_t)threads, .sms = r->sms,
                     .dynamic_shared = k->dynamic_shared, .workers = r->workers};
    if (k->persistent && ctas > r->sms)
        l->ctas = r->sms;
    return EXIT_OK;
}

/* The kernel run: parameters bound, launched, buffers shown. */
static int run_kernel(const SilkcRequest *r, const SilkCpuKernel *k)
{
    CpuLaunch launch;
    int rc = plan_launch(r, k, &launch);
    uint64_t *params = calloc(k->n_params + 1, sizeof *params);
    Buffer *buffers = calloc((size_t)r->n_bindings + 1, sizeof *buffers);
    int n_buffers = 0;
    if (rc == EXIT_OK && (!params || !buffers)) {
        fputs("silkc: error: out of memory\n", stderr);
        rc = EXIT_ENVIRONMENT;
    }
    if (rc == EXIT_OK)
        rc = bind_parameters(r, k, params, buffers, &n_buffers);
    if (rc == EXIT_OK && k->persistent) /* the logical CTAs, the hidden last parameter */
        params[k->n_params - 1] = (r->grid + launch.threads - 1) / launch.threads;
    launch.params = params;
    uint64_t (*ranges)[2] = calloc((size_t)n_buffers + 1, sizeof *ranges);
    for (int b = 0; ranges && b < n_buffers; b++) {
        ranges[b][0] = (uint64_t)(uintptr_t)buffers[b].data;
        ranges[b][1] = buffers[b].count * (uint64_t)buffers[b].type->bytes;
    }
    launch.buffers = (const uint64_t(*)[2])ranges; /* every global access checked */
    launch.n_buffers = ranges ? (uint32_t)n_buffers : 0;
    char error[1024];
    if (rc == EXIT_OK && !cpu_launch(k, &launch, error, sizeof error)) {
        fprintf(stderr, "%s\n", error);
        rc = EXIT_FINDINGS;
    }
    if (rc == EXIT_OK && r->dump)
        dump(buffers, n_buffers);
    if (rc == EXIT_OK && r->output)
        rc = write_buffers(r->output, buffers, n_buffers, r);
    for (int b = 0; b < n_buffers; b++)
        free(buffers[b].data);
    free(ranges);
    free(buffers);
    free(params);
    return rc;
}

/* The module built and loaded from the build's C, then the kernel run. */
static int run_module(const Build *b, const SilkcRequest *r)
{
    const char *base;
    char *dir = tempdir_make("silkc-exec", &base);
    if (!dir) {
        fprintf(stderr, "silkc: error: cannot make a temporary directory in %s: %s\n", base,
                strerror(errno));
        return EXIT_ENVIRONMENT;
    }
    char error[4096];
    CpuModule *m = cpu_module_build(b->targets[0].code, b->targets[0].code_len, dir, error,
                                    sizeof error);
    int rc = EXIT_OK;
    const SilkCpuKernel *k = m ? cpu_module_kernel(m, r->kernel) : NULL;
    if (!m) {
        fprintf(stderr, "silkc: error: %s\n", error);
        rc = EXIT_ENVIRONMENT;
    } else if (!k) {
        rc = exec_error("--kernel %s: no such kernel in the program", r->kernel);
    } else {
        rc = run_kernel(r, k);
    }
    cpu_module_close(m);
    tempdir_remove(dir, 0);
    return rc;
}

int silkc_exec(Compilation *c, const SilkcRequest *r)
{
    if (!r->kernel)
        return exec_error("%s", "--kernel: give the kernel to run, as --kernel saxpy");
    if (!r->grid)
        return exec_error("%s", "--grid: give the work items, as --grid 1024");
    static const char *const archs[] = {"cpu"};
    BuildOptions options = {.archs = archs, .n_archs = 1, .last = BUILD_CODE,
                            .optimize = !r->no_optimize, .program = "silkc"};
    Build b;
    BuildStatus status = build_run(c, &options, &b);
    int rc = status == BUILD_OK ? run_module(&b, r) : EXIT_FINDINGS;
    build_finish(&b);
    return rc;
}
