/*
 * silkrt_print.c: print and println: the values, one space between them,
 * as one write, so that the lines of two tasks never interleave.
 *
 * Integers in decimal; bool true or false; str as it is; a float in the
 * fewest significant digits that read back as the same value (f16, f32
 * and f64 each at its own precision), written as Python's repr writes
 * one, without a trailing ".0": fixed notation for decimal exponents
 * from -4 to 15 (0.0001, 0.1, 1, 1000000000000000), else 1e-05, 1e+16;
 * nan, inf, -inf, -0.  A DispatchResult and a Buffer as their fields:
 * `DispatchResult { launch_status: 0, synchronize_status: 0 }`,
 * `Buffer { address: 0x1000, bytes: 64 }`.
 */
#include "silkrt_internal.h"

#include "cpu_prelude.h" /* f16 as the device has it */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { F16, F32, F64 } Precision;

/* Whether `text` reads back as `v` at precision `p`. */
static bool reads_back(const char *text, double v, Precision p)
{
    double back = strtod(text, NULL);
    switch (p) {
    case F16: return silk_double_to_half(back) == silk_double_to_half(v);
    case F32: return strtof(text, NULL) == (float)v;
    default: return back == v;
    }
}

/* The decimal digits of `v` (finite, > 0), fewest first, and the decimal
 * exponent of the first. */
static void shortest_digits(double v, Precision p, char *digits, int *exponent)
{
    static const int max_digits[] = {5, 9, 17};
    char text[40];
    int n = 1;
    for (; n < max_digits[p]; n++) {
        snprintf(text, sizeof text, "%.*e", n - 1, v);
        if (reads_back(text, v, p))
            break;
    }
    snprintf(text, sizeof text, "%.*e", n - 1, v); /* "d.ddde+XX" */
    char *e = strchr(text, 'e');
    *exponent = atoi(e + 1);
    size_t k = 0;
    for (const char *c = text; c < e; c++)
        if (*c != '.')
            digits[k++] = *c;
    while (k > 1 && digits[k - 1] == '0') /* "1.0e+30" at the 17th digit: 1e+30 */
        k--;
    digits[k] = '\0';
}

static void write_float(FILE *out, double v, Precision p)
{
    if (isnan(v)) {
        fputs("nan", out);
        return;
    }
    if (signbit(v))
        fputc('-', out);
    v = fabs(v);
    if (isinf(v) || v == 0) {
        fputs(v == 0 ? "0" : "inf", out);
        return;
    }
    char digits[40];
    int x, n;
    shortest_digits(v, p, digits, &x);
    n = (int)strlen(digits);
    if (x < -4 || x > 15) {
        fprintf(out, "%c%s%s", digits[0], n > 1 ? "." : "", digits + 1);
        fprintf(out, "e%c%02d", x < 0 ? '-' : '+', abs(x));
    } else if (x < 0) {
        fputs("0.", out);
        for (int z = 0; z < -x - 1; z++)
            fputc('0', out);
        fputs(digits, out);
    } else if (n <= x + 1) {
        fputs(digits, out);
        for (int z = 0; z < x + 1 - n; z++)
            fputc('0', out);
    } else {
        fprintf(out, "%.*s.%s", x + 1, digits, digits + x + 1);
    }
}

static void write_value(FILE *out, const SilkrtValue *v)
{
    switch (v->kind) {
    case SILKRT_V_BOOL: fputs(v->u ? "true" : "false", out); break;
    case SILKRT_V_INT: fprintf(out, "%" PRId64, v->i); break;
    case SILKRT_V_UINT: fprintf(out, "%" PRIu64, v->u); break;
    case SILKRT_V_F16: write_float(out, silk_half_to_double(v->h), F16); break;
    case SILKRT_V_F32: write_float(out, v->f, F32); break;
    case SILKRT_V_F64: write_float(out, v->d, F64); break;
    case SILKRT_V_STR: fwrite(v->s.bytes, 1, (size_t)v->s.len, out); break;
    case SILKRT_V_DISPATCH:
        fprintf(out, "DispatchResult { launch_status: %" PRId32 ", synchronize_status: %" PRId32 " }",
                v->r.launch_status, v->r.synchronize_status);
        break;
    case SILKRT_V_BUFFER:
        fprintf(out, "Buffer { address: 0x%" PRIx64 ", bytes: %" PRIu64 " }", v->b.address, v->b.bytes);
        break;
    }
}

void silkrt_print(const SilkrtValue *values, uint32_t n, bool newline)
{
    char *line = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&line, &len);
    for (uint32_t i = 0; out && i < n; i++) {
        if (i)
            fputc(' ', out);
        write_value(out, &values[i]);
    }
    if (out && newline)
        fputc('\n', out);
    if (out && fclose(out) == 0) {
        pthread_mutex_lock(&silkrt_state.lock);
        fwrite(line, 1, len, stdout);
        pthread_mutex_unlock(&silkrt_state.lock);
    }
    free(line);
}
