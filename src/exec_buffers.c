/*
 * exec_buffers.c: the arguments of `silkc exec` (exec.h), the same for
 * every backend: --arg and --buf bind the kernel's parameters in their
 * order (a tensor, or a u64 parameter, which gets the buffer's address,
 * as a launch block passes a Buffer's .address), each --buf a new host
 * buffer of COUNT elements of TYPE filled
 * with INIT (a number, or `random`: integers over their whole range,
 * floats in [-1, 1), the same for the same --seed); after the run
 * --dump prints every buffer and --out writes their bytes, one after the
 * other, to FILE.
 */
#include "exec.h"
#include "escape.h"

#include "cpu_prelude.h" /* f16 conversions, as the kernels make them */
#include "output.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const ExecElementType ELEMENT_TYPES[] = {
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
static void set_element(ExecBuffer *b, uint64_t i, uint64_t bits, double value, bool random)
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
static int make_buffer(const SilkcRequest *r, const char *spec, uint64_t *seed, ExecBuffer *b)
{
    char type[8], init[64];
    uint64_t count;
    const char *c1 = strchr(spec, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c2 || (size_t)(c1 - spec) >= sizeof type || strlen(c2 + 1) >= sizeof init)
        return exec_error(r, "--buf '%s': give TYPE:COUNT:INIT, as f32:1024:random", QUOTED(spec));
    snprintf(type, sizeof type, "%.*s", (int)(c1 - spec), spec);
    snprintf(init, sizeof init, "%s", c2 + 1);
    char count_text[32];
    snprintf(count_text, sizeof count_text, "%.*s", (int)(c2 - c1 - 1), c1 + 1);
    b->type = NULL;
    for (size_t i = 0; i < sizeof ELEMENT_TYPES / sizeof *ELEMENT_TYPES; i++)
        if (strcmp(ELEMENT_TYPES[i].name, type) == 0)
            b->type = &ELEMENT_TYPES[i];
    if (!b->type)
        return exec_error(r, "--buf '%s': unknown type '%s' (i8 u8 i16 u16 i32 u32 i64 u64 f16 f32 f64)",
                             QUOTED(spec), QUOTED(type));
    if (!parse_u64(count_text, (UINT64_C(1) << 32), &count) || count == 0)
        return exec_error(r, "--buf '%s': the count must be a whole number from 1 to 2^32", QUOTED(spec));
    bool random = strcmp(init, "random") == 0;
    uint64_t bits = 0;
    char *end;
    double value = strtod(init, &end);
    if (!random && (!*init || *end || !parse_scalar(init, b->type->kind == 'f' ? "f64" : "i64", &bits)))
        return exec_error(r, "--buf '%s': INIT must be a number or 'random'", QUOTED(spec));
    b->count = count;
    b->data = calloc(count, (size_t)b->type->bytes);
    if (!b->data) {
        silkc_error(r->diag, "--buf '%s': out of memory", QUOTED(spec));
        return EXIT_ENVIRONMENT;
    }
    for (uint64_t i = 0; i < count; i++)
        set_element(b, i, random ? next_random(seed) : bits, value, random);
    return EXIT_OK;
}

/* ---- binding --------------------------------------------------------------------------- */

/* Parameter i of `k` bound to the buffer of --buf `bind`, made here. */
static int bind_buffer(const SilkcRequest *r, const ExecKernel *k, uint32_t i, const ExecBinding *bind,
                       uint64_t *seed, ExecArgs *a)
{
    const char *source = k->param_source_types[i];
    ExecBuffer *b = &a->buffers[a->n_buffers];
    int rc = make_buffer(r, bind->text, seed, b);
    if (rc != EXIT_OK)
        return rc;
    size_t elem = strcspn(source + 7, ">");
    bool address = strcmp(source, "u64") == 0; /* any buffer: its address */
    if (!address && (strlen(b->type->name) != elem || strncmp(source + 7, b->type->name, elem) != 0)) {
        free(b->data);
        b->data = NULL;
        return exec_error(r, "--buf '%s': parameter %" PRIu32 " (%s) is a %s", QUOTED(bind->text), i + 1,
                             k->param_names[i], source);
    }
    a->param_buffer[i] = a->n_buffers++;
    return EXIT_OK;
}

int exec_bind(const SilkcRequest *r, const ExecKernel *k, const ExecPlan *plan, ExecArgs *a)
{
    *a = (ExecArgs){0};
    a->params = calloc(k->n_params + 1, sizeof *a->params);
    a->param_buffer = calloc(k->n_params + 1, sizeof *a->param_buffer);
    a->buffers = calloc((size_t)r->n_bindings + 1, sizeof *a->buffers);
    if (!a->params || !a->param_buffer || !a->buffers) {
        silkc_error(r->diag, "%s", "out of memory");
        return EXIT_ENVIRONMENT;
    }
    for (uint32_t i = 0; i < k->n_params; i++)
        a->param_buffer[i] = -1;
    uint32_t user_params = k->n_params - (k->persistent ? 1 : 0);
    if ((uint32_t)r->n_bindings != user_params)
        return exec_error(r, "--kernel %s takes %" PRIu32 " parameters, and %d --arg and --buf were given",
                             k->name, user_params, r->n_bindings);
    uint64_t seed = r->seed;
    for (uint32_t i = 0; i < user_params; i++) {
        const ExecBinding *bind = &r->bindings[i];
        const char *type = k->param_types[i], *name = k->param_names[i];
        const char *source = k->param_source_types[i];
        bool tensor = strncmp(source, "tensor<", 7) == 0;
        bool address = strcmp(source, "u64") == 0; /* a raw address, as load<T>(p) takes */
        int rc = EXIT_OK;
        if (bind->buffer != tensor && !(bind->buffer && address))
            return exec_error(r, "%s '%s': parameter %" PRIu32 " (%s) is %s %s, %s",
                                 bind->buffer ? "--buf" : "--arg", QUOTED(bind->text), i + 1, name,
                                 tensor ? "a" : "of type", source,
                                 tensor ? "given with --buf" : "given with --arg");
        if (bind->buffer)
            rc = bind_buffer(r, k, i, bind, &seed, a);
        else if (!parse_scalar(bind->text, type, &a->params[i]) || !fits_source_type(bind->text, source))
            rc = exec_error(r, "--arg '%s': not a value of parameter %" PRIu32 " (%s: %s)",
                            QUOTED(bind->text), i + 1, name, source); /* u64, not the IR's i64 */
        if (rc != EXIT_OK)
            return rc;
    }
    if (k->persistent) /* the logical CTAs, the hidden last parameter */
        a->params[k->n_params - 1] = plan->logical;
    return EXIT_OK;
}

void exec_args_free(ExecArgs *a)
{
    for (int b = 0; a->buffers && b < a->n_buffers; b++)
        free(a->buffers[b].data);
    free(a->buffers);
    free(a->param_buffer);
    free(a->params);
    *a = (ExecArgs){0};
}

/* ---- after the run ---------------------------------------------------------------------- */

static void dump_element(const ExecBuffer *b, uint64_t i)
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
static void dump(const ExecBuffer *buffers, int n)
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
static int write_buffers(const char *path, const ExecBuffer *buffers, int n, const SilkcRequest *r)
{
    Output out;
    if (!output_open(&out, path, (const char *const *)r->inputs, r->n_inputs)) {
        silkc_error(r->diag, "%s", out.error);
        return out.failure == OUTPUT_CANNOT_WRITE ? EXIT_ENVIRONMENT : EXIT_USAGE;
    }
    for (int b = 0; b < n; b++)
        fwrite(buffers[b].data, (size_t)buffers[b].type->bytes, buffers[b].count, out.file);
    output_flush(&out);
    if (!output_commit(&out)) {
        silkc_error(r->diag, "%s", out.error);
        return EXIT_ENVIRONMENT;
    }
    return EXIT_OK;
}

int exec_show(const SilkcRequest *r, const ExecArgs *a)
{
    if (r->dump)
        dump(a->buffers, a->n_buffers);
    return r->output ? write_buffers(r->output, a->buffers, a->n_buffers, r) : EXIT_OK;
}
