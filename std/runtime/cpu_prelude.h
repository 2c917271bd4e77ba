/*
 * cpu_prelude.h: PTX's semantics for the operations C leaves undefined or
 * defines otherwise, as static inline functions the generated C calls
 * (cpu_emit.c embeds this file in every module, after cpu_abi.h).
 *
 * - Integer division by zero and the overflow of INT_MIN / -1 are
 *   unspecified in PTX; the executor gives what NVIDIA GPUs give: a
 *   quotient of all ones, a remainder equal to the dividend, INT_MIN and 0.
 * - Shifts by the width or more: shl and shr.u give 0, shr.s the sign.
 * - Float to integer (cvt.rzi) truncates and saturates; NaN gives 0.
 * - min and max of floats: a NaN operand gives the other one, and -0 is
 *   less than +0.
 * - f16 is kept as its bits; arithmetic is done in double and rounded once
 *   to the nearest f16 (ties to even), which is exact for add, sub and mul.
 * - A float operation whose result is a NaN gives the canonical NaN, as
 *   PTX's do, whatever NaN went in: f32 0x7fffffff, f16 0x7fff, f64
 *   0x7fffffffffffffff; the host's would keep (and mix) payloads.  Moves,
 *   loads, stores, select, neg and abs keep the bits (neg and abs only
 *   flip or clear the sign).
 * Nothing here depends on the C compiler contracting or reassociating:
 * the module is compiled with -ffp-contract=off.
 */
#ifndef SILK_CPU_PRELUDE_H
#define SILK_CPU_PRELUDE_H

#ifndef SILK_CPU_ABI_H /* embedded after it; included, for the tests */
#include "cpu_abi.h"
#endif

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static inline uint32_t silk_f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float silk_bits_f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint64_t silk_f64_bits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static inline double silk_bits_f64(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }

/* An arithmetic result, its NaN made canonical. */
static inline float silk_nan_f32(float f) { return f == f ? f : silk_bits_f32(0x7fffffffu); }
static inline double silk_nan_f64(double d)
{
    return d == d ? d : silk_bits_f64(UINT64_C(0x7fffffffffffffff));
}

/* ---- memory checks ------------------------------------------------------- */

/* Whether `bytes` at global address `a` lie in one of the CTA's buffers
 * (always, when it has no list of them: unchecked). */
static inline int silk_global_ok(const SilkCpuCta *cta, uint64_t a, uint64_t bytes)
{
    if (!cta->buffers)
        return 1;
    for (uint32_t i = 0; i < cta->n_buffers; i++)
        if (a >= cta->buffers[i][0] && a - cta->buffers[i][0] <= cta->buffers[i][1] &&
            cta->buffers[i][1] - (a - cta->buffers[i][0]) >= bytes)
            return 1;
    return 0;
}

static inline int silk_shared_ok(const SilkCpuCta *cta, uint64_t a, uint64_t bytes)
{
    return a <= cta->shared_size && cta->shared_size - a >= bytes;
}

/* ---- race checks (silkc exec --race) --------------------------------------- */

/* Which of the two threads kept, `who`, is another than `tid`: 0 or 1, or
 * -1 when none is (the two kept are always different threads). */
static inline int silk_race_other(const uint16_t who[2], uint32_t tid)
{
    if (who[0] != tid)
        return 0;
    return who[1] != SILK_CPU_NO_THREAD ? 1 : -1;
}

/* A finding of the race checks, for the executor: `why` returned. */
static inline int silk_race_found(SilkCpuRace *r, SilkCpuThread *t, uint64_t a, uint32_t bytes,
                                  int kind, uint32_t site, uint32_t thread, uint32_t other_site,
                                  int other_kind, int why)
{
    t->site = site;
    t->operand[0] = a;
    t->operand[1] = bytes | (uint64_t)kind << 32;
    r->other_thread = thread;
    r->other_site = other_site;
    r->other_kind = (uint32_t)other_kind;
    return why;
}

/* What an access that raced with nothing leaves in byte `s`'s record. */
static inline void silk_race_record(SilkCpuShadow *s, uint32_t e, uint32_t tid, int kind,
                                    uint32_t site)
{
    if (kind == SILK_CPU_LOAD) {
        if (s->read_epoch != e) {
            s->read_epoch = e;
            s->reader[0] = (uint16_t)tid, s->read_site[0] = site;
            s->reader[1] = SILK_CPU_NO_THREAD;
        } else if (s->reader[0] != tid && s->reader[1] == SILK_CPU_NO_THREAD) {
            s->reader[1] = (uint16_t)tid, s->read_site[1] = site;
        }
    } else if (kind == SILK_CPU_STORE || s->write_epoch != e) {
        s->write_epoch = e;
        s->writer[0] = (uint16_t)tid, s->write_site[0] = site;
        s->writer[1] = SILK_CPU_NO_THREAD;
        s->atomic = kind == SILK_CPU_ATOMIC;
    } else if (s->atomic && s->writer[0] != tid && s->writer[1] == SILK_CPU_NO_THREAD) {
        s->writer[1] = (uint16_t)tid, s->write_site[1] = site;
    } /* else an atomic after this thread's own store: the store is kept */
}

/* A read of bytes never written, kept when it is the epoch's first
 * (SilkCpuRace.unwritten_thread). */
static inline void silk_race_unwritten(SilkCpuRace *r, uint32_t tid, uint64_t a, uint32_t bytes,
                                       int kind, uint32_t site)
{
    if (r->unwritten_thread != SILK_CPU_NO_THREAD)
        return;
    r->unwritten_thread = tid;
    r->unwritten_site = site;
    r->unwritten_kind = (uint32_t)kind;
    r->unwritten_bytes = bytes;
    r->unwritten_offset = a;
}

/* Thread t's shared access of `bytes` at offset `a` (already inside the
 * shared memory), of `kind`, at `site`, against what the other threads did
 * since the last barrier: 0, or SILK_CPU_RACE with the finding in t.
 * Two accesses race when they touch a byte, come from two threads, one
 * writes, and not both are atomics; a load or an atomic (which reads the
 * old value) of a byte no thread has written since the CTA started reads
 * what the GPU leaves there, garbage, and is kept for the executor to
 * report unless a race is found first (silk_race_unwritten).  A store of the
 * byte the memory already holds (`value`: the bytes a store writes) does
 * not race with the other thread's store that put it there: whichever
 * lands, the byte is the same (lowering's tile reductions have every lane
 * of a warp store the warp's sum to one slot). */
static inline int silk_shared_track(const SilkCpuCta *cta, SilkCpuThread *t, uint64_t a,
                                    uint32_t bytes, int kind, uint32_t site,
                                    const unsigned char *value)
{
    SilkCpuRace *r = cta->race;
    uint32_t e = r->epoch, tid = t->tid;
    for (uint32_t i = 0; i < bytes; i++) {
        SilkCpuShadow *s = &r->shadow[a + i];
        if (kind != SILK_CPU_STORE && s->write_epoch == 0)
            silk_race_unwritten(r, tid, a, bytes, kind, site);
        int w = s->write_epoch == e ? silk_race_other(s->writer, tid) : -1;
        bool same = kind == SILK_CPU_STORE && !s->atomic && value[i] == cta->shared[a + i];
        if (w >= 0 && !(kind == SILK_CPU_ATOMIC && s->atomic) && !same)
            return silk_race_found(r, t, a, bytes, kind, site, s->writer[w], s->write_site[w],
                                   s->atomic ? SILK_CPU_ATOMIC : SILK_CPU_STORE, SILK_CPU_RACE);
        int rd = kind != SILK_CPU_LOAD && s->read_epoch == e ? silk_race_other(s->reader, tid) : -1;
        if (rd >= 0)
            return silk_race_found(r, t, a, bytes, kind, site, s->reader[rd], s->read_site[rd],
                                   SILK_CPU_LOAD, SILK_CPU_RACE);
        silk_race_record(s, e, tid, kind, site);
    }
    return 0;
}

/* ---- f16 ------------------------------------------------------------------ */

static inline double silk_half_to_double(uint16_t h)
{
    int sign = h >> 15, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
    double v;
    if (exponent == 0x1f)
        v = mantissa ? NAN : INFINITY;
    else if (exponent == 0)
        v = ldexp(mantissa, -24);
    else
        v = ldexp(mantissa | 0x400, exponent - 25);
    return sign ? -v : v;
}

/* The f16 nearest `d`, ties to even; overflow to infinity. */
static inline uint16_t silk_double_to_half(double d)
{
    uint16_t sign = signbit(d) ? 0x8000 : 0;
    double a = fabs(d);
    if (isnan(d)) /* canonical, whatever the sign and payload */
        return 0x7fff;
    if (a >= 65520.0) /* rounds past the largest finite f16, 65504 */
        return (uint16_t)(sign | 0x7c00);
    if (a < ldexp(1, -14)) { /* subnormal: units of 2^-24 */
        double units = nearbyint(ldexp(a, 24));
        return (uint16_t)(sign | (uint16_t)units);
    }
    int e;
    double m = frexp(a, &e);               /* a = m * 2^e, m in [0.5, 1) */
    double units = nearbyint(ldexp(m, 11)); /* 11 significant bits */
    if (units == 2048) {
        units = 1024;
        e++;
    }
    if (e + 14 >= 31)
        return (uint16_t)(sign | 0x7c00);
    return (uint16_t)(sign | (uint16_t)((e + 14) << 10) | ((uint16_t)units & 0x3ff));
}

static inline uint16_t silk_half_from_float(float f) { return silk_double_to_half(f); }
static inline float silk_half_to_float(uint16_t h) { return (float)silk_half_to_double(h); }

/* ---- integer division, remainder and shifts, per width --------------------- */

#define SILK_INT_OPS(bits)                                                                        \
    static inline uint##bits##_t silk_udiv##bits(uint##bits##_t a, uint##bits##_t b)              \
    {                                                                                             \
        return b ? (uint##bits##_t)(a / b) : (uint##bits##_t)-1;                                   \
    }                                                                                             \
    static inline uint##bits##_t silk_urem##bits(uint##bits##_t a, uint##bits##_t b)              \
    {                                                                                             \
        return b ? (uint##bits##_t)(a % b) : a;                                                   \
    }                                                                                             \
    static inline uint##bits##_t silk_sdiv##bits(uint##bits##_t a, uint##bits##_t b)              \
    {                                                                                             \
        int##bits##_t x = (int##bits##_t)a, y = (int##bits##_t)b;                                 \
        if (y == 0)                                                                               \
            return (uint##bits##_t)-1;                                                            \
        if (y == -1)                                                                              \
            return (uint##bits##_t)(0 - a); /* INT_MIN / -1 wraps to INT_MIN */                  \
        return (uint##bits##_t)(x / y);                                                           \
    }                                                                                             \
    static inline uint##bits##_t silk_srem##bits(uint##bits##_t a, uint##bits##_t b)              \
    {                                                                                             \
        int##bits##_t x = (int##bits##_t)a, y = (int##bits##_t)b;                                 \
        if (y == 0)                                                                               \
            return a;                                                                             \
        if (y == -1)                                                                              \
            return 0;                                                                             \
        return (uint##bits##_t)(x % y);                                                           \
    }                                                                                             \
    static inline uint##bits##_t silk_shl##bits(uint##bits##_t a, uint32_t n)                      \
    {                                                                                             \
        return n >= bits ? 0 : (uint##bits##_t)((uint64_t)a << n);                                 \
    }                                                                                             \
    static inline uint##bits##_t silk_lshr##bits(uint##bits##_t a, uint32_t n)                     \
    {                                                                                             \
        return n >= bits ? 0 : (uint##bits##_t)(a >> n);                                          \
    }                                                                                             \
    static inline uint##bits##_t silk_ashr##bits(uint##bits##_t a, uint32_t n)                     \
    {                                                                                             \
        int##bits##_t x = (int##bits##_t)a; /* >> of a negative: arithmetic in GCC and Clang */    \
        return (uint##bits##_t)(x >> (n >= bits ? bits - 1 : n));                                 \
    }                                                                                             \
    static inline uint##bits##_t silk_f2s##bits(double d)                                          \
    {                                                                                             \
        double lo = -ldexp(1, bits - 1), hi = ldexp(1, bits - 1);                                 \
        if (isnan(d))                                                                             \
            return 0;                                                                             \
        d = trunc(d);                                                                             \
        if (d <= lo)                                                                              \
            return (uint##bits##_t)((uint##bits##_t)1 << (bits - 1));                             \
        if (d >= hi)                                                                              \
            return (uint##bits##_t)(((uint##bits##_t)1 << (bits - 1)) - 1);                       \
        return (uint##bits##_t)(int##bits##_t)d;                                                   \
    }                                                                                             \
    static inline uint##bits##_t silk_f2u##bits(double d)                                          \
    {                                                                                             \
        if (isnan(d) || d <= 0)                                                                   \
            return 0;                                                                             \
        d = trunc(d);                                                                             \
        if (d >= ldexp(1, bits))                                                                  \
            return (uint##bits##_t)-1;                                                            \
        return (uint##bits##_t)d;                                                                 \
    }

SILK_INT_OPS(8)
SILK_INT_OPS(16)
SILK_INT_OPS(32)
SILK_INT_OPS(64)
#undef SILK_INT_OPS

/* ---- float min and max (PTX min.f32: NaN gives the other, -0 < +0) ---------- */

static inline double silk_fmin(double a, double b)
{
    if (isnan(a))
        return b;
    if (isnan(b))
        return a;
    if (a == b)
        return signbit(a) ? a : b;
    return a < b ? a : b;
}

static inline double silk_fmax(double a, double b)
{
    if (isnan(a))
        return b;
    if (isnan(b))
        return a;
    if (a == b)
        return signbit(a) ? b : a;
    return a > b ? a : b;
}

/* ---- atomics (memory of other CTAs is touched by other worker threads) ------ */

static inline float silk_atomic_add_f32(float *p, float v)
{
    uint32_t old = __atomic_load_n((uint32_t *)p, __ATOMIC_RELAXED), want;
    do
        want = silk_f32_bits(silk_nan_f32(silk_bits_f32(old) + v));
    while (!__atomic_compare_exchange_n((uint32_t *)p, &old, want, 0, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED));
    return silk_bits_f32(old);
}

static inline double silk_atomic_add_f64(double *p, double v)
{
    uint64_t old = __atomic_load_n((uint64_t *)p, __ATOMIC_RELAXED), want;
    do
        want = silk_f64_bits(silk_nan_f64(silk_bits_f64(old) + v));
    while (!__atomic_compare_exchange_n((uint64_t *)p, &old, want, 0, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED));
    return silk_bits_f64(old);
}

/* atom.cas: the old value; the new one stored only where the old equals `expected`. */
static inline uint32_t silk_atomic_cas32(uint32_t *p, uint32_t expected, uint32_t value)
{
    __atomic_compare_exchange_n(p, &expected, value, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return expected;
}

static inline uint64_t silk_atomic_cas64(uint64_t *p, uint64_t expected, uint64_t value)
{
    __atomic_compare_exchange_n(p, &expected, value, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return expected;
}

#define SILK_ATOMIC_MINMAX(name, type, better)                                                    \
    static inline type name(type *p, type v)                                                      \
    {                                                                                             \
        type old = __atomic_load_n(p, __ATOMIC_RELAXED);                                          \
        while ((better) && !__atomic_compare_exchange_n(p, &old, v, 0, __ATOMIC_RELAXED,          \
                                                        __ATOMIC_RELAXED))                        \
            ;                                                                                     \
        return old;                                                                               \
    }
SILK_ATOMIC_MINMAX(silk_atomic_smin32, int32_t, v < old)
SILK_ATOMIC_MINMAX(silk_atomic_smax32, int32_t, v > old)
SILK_ATOMIC_MINMAX(silk_atomic_umin32, uint32_t, v < old)
SILK_ATOMIC_MINMAX(silk_atomic_umax32, uint32_t, v > old)
SILK_ATOMIC_MINMAX(silk_atomic_smin64, int64_t, v < old)
SILK_ATOMIC_MINMAX(silk_atomic_smax64, int64_t, v > old)
SILK_ATOMIC_MINMAX(silk_atomic_umin64, uint64_t, v < old)
SILK_ATOMIC_MINMAX(silk_atomic_umax64, uint64_t, v > old)
#undef SILK_ATOMIC_MINMAX

#endif
