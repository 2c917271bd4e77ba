/*
 * silkgen_text.c: what the rest of silkgen stands on: the seed's random
 * stream, text that grows, and the table of Silk's scalar types.
 *
 * The stream is splitmix64 (Steele, Lea and Flood), chosen because it is
 * ten lines, has no bad seeds, and gives the same numbers everywhere: the
 * program silkgen writes for a seed must be the same bytes on every
 * machine, so nothing here may depend on the C library's rand(), on
 * pointer values or on the locale.
 */
#include "silkgen.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the random stream ------------------------------------------------------------ */

uint64_t rng_next(Rng *r)
{
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Lemire's multiply-shift: no modulo bias worth the name for small n, and
 * no division. */
uint32_t rng_below(Rng *r, uint32_t n)
{
    if (n == 0)
        return 0;
    return (uint32_t)(((rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

int rng_range(Rng *r, int lo, int hi)
{
    if (hi <= lo)
        return lo;
    return lo + (int)rng_below(r, (uint32_t)(hi - lo + 1));
}

bool rng_percent(Rng *r, unsigned percent)
{
    return rng_below(r, 100) < percent;
}

/* ---- text ----------------------------------------------------------------------------- */

static void text_reserve(Text *t, size_t more)
{
    if (t->len + more + 1 <= t->cap)
        return;
    size_t cap = t->cap ? t->cap : 256;
    while (cap < t->len + more + 1)
        cap *= 2;
    char *s = realloc(t->s, cap);
    if (!s) {
        fputs("silkgen: out of memory\n", stderr);
        exit(1);
    }
    t->s = s;
    t->cap = cap;
}

/* Formats straight into the text, growing it when the first try did not
 * fit (no vsnprintf(NULL, 0, ...), which gcc's sanitizer builds warn of). */
void text_vprintf(Text *t, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    text_reserve(t, 256);
    int n = vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
    if (n > 0 && (size_t)n >= t->cap - t->len) {
        text_reserve(t, (size_t)n);
        vsnprintf(t->s + t->len, (size_t)n + 1, fmt, again);
    }
    va_end(again);
    if (n > 0)
        t->len += (size_t)n;
    t->s[t->len] = '\0';
}

void text_printf(Text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    text_vprintf(t, fmt, ap);
    va_end(ap);
}

void text_append(Text *t, const Text *u)
{
    if (!u->len)
        return;
    text_reserve(t, u->len);
    memcpy(t->s + t->len, u->s, u->len);
    t->len += u->len;
    t->s[t->len] = '\0';
}

void text_free(Text *t)
{
    free(t->s);
    *t = (Text){0};
}

/* ---- types ----------------------------------------------------------------------------- */

static const struct {
    const char *name;
    int bits;
    bool is_signed, is_float;
} ty_table[TY_COUNT] = {
    [TY_BOOL] = {"bool", 1, false, false},
    [TY_I8] = {"i8", 8, true, false},    [TY_I16] = {"i16", 16, true, false},
    [TY_I32] = {"i32", 32, true, false}, [TY_I64] = {"i64", 64, true, false},
    [TY_U8] = {"u8", 8, false, false},   [TY_U16] = {"u16", 16, false, false},
    [TY_U32] = {"u32", 32, false, false}, [TY_U64] = {"u64", 64, false, false},
    [TY_F16] = {"f16", 16, true, true},  [TY_F32] = {"f32", 32, true, true},
    [TY_F64] = {"f64", 64, true, true},
};

const char *ty_name(Ty t) { return ty_table[t].name; }
int ty_bits(Ty t) { return ty_table[t].bits; }
bool ty_is_float(Ty t) { return ty_table[t].is_float; }
bool ty_is_int(Ty t) { return t != TY_BOOL && !ty_table[t].is_float; }
bool ty_is_signed(Ty t) { return ty_table[t].is_signed; }

bool ty_has_suffix(Ty t)
{
    return t == TY_I32 || t == TY_I64 || t == TY_U32 || t == TY_U64 || t == TY_F32 || t == TY_F64;
}
