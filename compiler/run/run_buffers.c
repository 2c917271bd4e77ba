/*
 * run_buffers.c: the arguments of a kernel run (run.h), the same for
 * every backend: --arg and --buf bind the kernel's parameters in their
 * order (a tensor, or a u64 parameter, which gets the buffer's address,
 * as a launch block passes a Buffer's .address), each --buf a new host
 * buffer of COUNT elements of TYPE filled
 * with INIT (a number, or `random`: integers over their whole range,
 * floats in [-1, 1), the same for the same --seed); after the run
 * run_buffers_dump writes every buffer for people (--dump) and
 * run_buffers_write their bytes, one after the other, to a file (--out).
 * The words of a binding are checked here, at the library's boundary:
 * every message names the option and the parameter it does not fit.
 */
#include "run_internal.h"

#include "cpu_prelude.h" /* f16 conversions, as the kernels make them */
#include "escape.h"
#include "output.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const RunElementType ELEMENT_TYPES[] = {
    {"i8", 1, 's'}, {"u8", 1, 'u'}, {"i16", 2, 's'}, {"u16", 2, 'u'}, {"i32", 4, 's'},
    {"u32", 4, 'u'}, {"i64", 8, 's'}, {"u64", 8, 'u'}, {"f16", 2, 'f'}, {"f32", 4, 'f'},
    {"f64", 8, 'f'},
};

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

/* Whether an integer --arg is a value of its parameter's Silk type (u8 to
 * u64, i8 to i64): the IR keeps only the width, a u64 is an i64 there, so
 * parse_scalar alone took -1 for a u64 and 300 for a u8. */
static bool fits_source_type(const char *text, const char *source)
{
    int bits = 0;
    char sign = source[0];
    if ((sign != 'u' && sign != 'i') || sscanf(source + 1, "%d", &bits) != 1 || bits < 8 || bits > 64)
        return true; /* not an integer type: parse_scalar decides */
    char *end;
    errno = 0;
    if (sign == 'u') {
        if (strchr(text, '-'))
            return false;
        unsigned long long v = strtoull(text, &end, 0);
        return !errno && (bits == 64 || v <= (1ULL << bits) - 1);
    }
    long long v = strtoll(text, &end, 0);
    long long max = bits == 64 ? LLONG_MAX : (1LL << (bits - 1)) - 1;
    return !errno && v <= max && v >= -max - 1;
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
static void set_element(RunBuffer *b, uint64_t i, uint64_t bits, double value, bool random)
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
static int make_buffer(Diag *d, const char *spec, uint64_t *seed, RunBuffer *b)
{
    char type[8], init[64];
    uint64_t count;
    const char *c1 = strchr(spec, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c2 || (size_t)(c1 - spec) >= sizeof type || strlen(c2 + 1) >= sizeof init)
        return run_error(d, "--buf '%s': give TYPE:COUNT:INIT, as f32:1024:random", QUOTED(spec));
    snprintf(type, sizeof type, "%.*s", (int)(c1 - spec), spec);
    snprintf(init, sizeof init, "%s", c2 + 1);
    char count_text[32];
    snprintf(count_text, sizeof count_text, "%.*s", (int)(c2 - c1 - 1), c1 + 1);
    b->type = NULL;
    for (size_t i = 0; i < sizeof ELEMENT_TYPES / sizeof *ELEMENT_TYPES; i++)
        if (strcmp(ELEMENT_TYPES[i].name, type) == 0)
            b->type = &ELEMENT_TYPES[i];
    if (!b->type)
        return run_error(d, "--buf '%s': unknown type '%s' (i8 u8 i16 u16 i32 u32 i64 u64 f16 f32 f64)",
                            QUOTED(spec), QUOTED(type));
    if (!parse_u64(count_text, (UINT64_C(1) << 32), &count) || count == 0)
        return run_error(d, "--buf '%s': the count must be a whole number from 1 to 2^32", QUOTED(spec));
    bool random = strcmp(init, "random") == 0;
    uint64_t bits = 0;
    char *end;
    double value = strtod(init, &end);
    if (!random && (!*init || *end || !parse_scalar(init, b->type->kind == 'f' ? "f64" : "i64", &bits)))
        return run_error(d, "--buf '%s': INIT must be a number or 'random'", QUOTED(spec));
    b->count = count;
    b->data = calloc(count, (size_t)b->type->bytes);
    if (!b->data) {
        return run_fail(d, EXIT_ENVIRONMENT, "--buf '%s': out of memory", QUOTED(spec));
    }
    for (uint64_t i = 0; i < count; i++)
        set_element(b, i, random ? next_random(seed) : bits, value, random);
    return EXIT_OK;
}

/* ---- binding --------------------------------------------------------------------------- */

/* Parameter i of `k` bound to the buffer of --buf `bind`, made here. */
static int bind_buffer(Diag *d, const RunKernel *k, uint32_t i, const RunBinding *bind,
                       uint64_t *seed, RunArgs *a)
{
    const char *source = k->param_source_types[i];
    RunBuffer *b = &a->buffers[a->n_buffers];
    int rc = make_buffer(d, bind->text, seed, b);
    if (rc != EXIT_OK)
        return rc;
    size_t elem = strcspn(source + 7, ">");
    bool address = strcmp(source, "u64") == 0; /* any buffer: its address */
    if (!address && (strlen(b->type->name) != elem || strncmp(source + 7, b->type->name, elem) != 0)) {
        free(b->data);
        b->data = NULL;
        return run_error(d, "--buf '%s': parameter %" PRIu32 " (%s) is a %s", QUOTED(bind->text), i + 1,
                            k->param_names[i], source);
    }
    a->param_buffer[i] = a->n_buffers++;
    return EXIT_OK;
}

int run_bind(Diag *d, const RunRequest *q, const RunKernel *k, const RunPlan *plan, RunArgs *a)
{
    *a = (RunArgs){0};
    a->params = calloc(k->n_params + 1, sizeof *a->params);
    a->param_buffer = calloc(k->n_params + 1, sizeof *a->param_buffer);
    a->buffers = calloc((size_t)q->n_bindings + 1, sizeof *a->buffers);
    if (!a->params || !a->param_buffer || !a->buffers)
        return run_fail(d, EXIT_ENVIRONMENT, "%s", "out of memory");
    for (uint32_t i = 0; i < k->n_params; i++)
        a->param_buffer[i] = -1;
    uint32_t user_params = k->n_params - (k->persistent ? 1 : 0);
    if ((uint32_t)q->n_bindings != user_params)
        return run_error(d, "--kernel %s takes %" PRIu32 " parameters, and %d --arg and --buf were given",
                            k->name, user_params, q->n_bindings);
    uint64_t seed = q->seed;
    for (uint32_t i = 0; i < user_params; i++) {
        const RunBinding *bind = &q->bindings[i];
        const char *type = k->param_types[i], *name = k->param_names[i];
        const char *source = k->param_source_types[i];
        bool tensor = strncmp(source, "tensor<", 7) == 0;
        bool address = strcmp(source, "u64") == 0; /* a raw address, as load<T>(p) takes */
        int rc = EXIT_OK;
        if (bind->buffer != tensor && !(bind->buffer && address))
            return run_error(d, "%s '%s': parameter %" PRIu32 " (%s) is %s %s, %s",
                                bind->buffer ? "--buf" : "--arg", QUOTED(bind->text), i + 1, name,
                                tensor ? "a" : "of type", source,
                                tensor ? "given with --buf" : "given with --arg");
        if (bind->buffer)
            rc = bind_buffer(d, k, i, bind, &seed, a);
        else if (!parse_scalar(bind->text, type, &a->params[i]) || !fits_source_type(bind->text, source))
            rc = run_error(d, "--arg '%s': not a value of parameter %" PRIu32 " (%s: %s)",
                           QUOTED(bind->text), i + 1, name, source); /* u64, not the IR's i64 */
        if (rc != EXIT_OK)
            return rc;
    }
    if (k->persistent) /* the logical CTAs, the hidden last parameter */
        a->params[k->n_params - 1] = plan->logical;
    return EXIT_OK;
}

void run_args_free(RunArgs *a)
{
    for (int b = 0; a->buffers && b < a->n_buffers; b++)
        free(a->buffers[b].data);
    free(a->buffers);
    free(a->param_buffer);
    free(a->params);
    *a = (RunArgs){0};
}

/* ---- after the run ---------------------------------------------------------------------- */

void run_args_take_buffers(RunArgs *a, RunBuffers *out)
{
    *out = (RunBuffers){.buffers = a->buffers, .n = a->n_buffers};
    a->buffers = NULL;
    a->n_buffers = 0;
}

void run_buffers_free(RunBuffers *b)
{
    for (int i = 0; b->buffers && i < b->n; i++)
        free(b->buffers[i].data);
    free(b->buffers);
    *b = (RunBuffers){0};
}

static void dump_element(const RunBuffer *b, uint64_t i, FILE *out)
{
    const unsigned char *p = b->data + i * (uint64_t)b->type->bytes;
    uint64_t u = 0;
    memcpy(&u, p, (size_t)b->type->bytes);
    if (b->type->kind == 'f' && b->type->bytes == 2) {
        fprintf(out, "%.5g", silk_half_to_double((uint16_t)u)); /* 5 digits read back an f16 */
    } else if (b->type->kind == 'f' && b->type->bytes == 4) {
        float f;
        memcpy(&f, p, 4);
        fprintf(out, "%.9g", f);
    } else if (b->type->kind == 'f') {
        double d;
        memcpy(&d, p, 8);
        fprintf(out, "%.17g", d);
    } else if (b->type->kind == 's') {
        int shift = 64 - 8 * b->type->bytes; /* sign-extend the low bytes */
        fprintf(out, "%" PRId64, (int64_t)(u << shift) >> shift);
    } else {
        fprintf(out, "%" PRIu64, u);
    }
}

void run_buffers_dump(const RunBuffers *b, FILE *out)
{
    for (int n = 0; n < b->n; n++) {
        const RunBuffer *buf = &b->buffers[n];
        fprintf(out, "buffer %d: %s[%" PRIu64 "]\n", n + 1, buf->type->name, buf->count);
        for (uint64_t i = 0; i < buf->count; i++) {
            dump_element(buf, i, out);
            putc(i % 8 == 7 || i + 1 == buf->count ? '\n' : ' ', out);
        }
    }
}

int run_buffers_write(Diag *d, const RunBuffers *b, const char *path, const char *const *inputs,
                      int n_inputs)
{
    Output out;
    if (!output_open(&out, path, inputs, n_inputs))
        return run_fail(d, out.failure == OUTPUT_CANNOT_WRITE ? EXIT_ENVIRONMENT : EXIT_USAGE,
                        "%s", out.error);
    for (const RunBuffer *buf = b->buffers; buf < b->buffers + b->n; buf++)
        fwrite(buf->data, (size_t)buf->type->bytes, buf->count, out.file);
    output_flush(&out);
    if (!output_commit(&out))
        return run_fail(d, EXIT_ENVIRONMENT, "%s", out.error);
    return EXIT_OK;
}
