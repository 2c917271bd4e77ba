/*
 * bufcmp.c: compares the buffers two `silkc exec --out` runs wrote (the
 * GPU's and the CPU backend's, tests/gpu/compare-cpu.sh), buffer by
 * buffer, element by element, and says in one line whether they agree.
 *
 *   bufcmp [--tolerance N:abs=A[,rel=R][,sum=M]]... GOT WANT TYPE:COUNT[:INIT]...
 *
 * The TYPE:COUNT specs are the runs' --buf arguments (INIT ignored), in
 * order: they say how the bytes divide into buffers, and both files must
 * hold exactly that many bytes.  Integers must be bit-identical.  Floats
 * (f16, f32, f64) too, unless --tolerance gives buffer N (from 1) a
 * bound: then |got - want| <= A + R * max(|got|, |want|), where with
 * sum=M, A is per unit of the sum of the magnitudes of buffer M's
 * elements in WANT (the terms of a reduction).  Either way a
 * NaN equals any NaN (a GPU makes NaNs canonical, the CPU keeps their
 * payload) and nothing else; an infinity only itself; without a
 * tolerance -0 is not +0.
 *
 * Prints `same`, or `same within tolerance: buffer N largest difference
 * D (allowed A)...`, or `DIFFERENT: buffer N (f32[1000]) element I: GOT
 * against WANT (why); K elements differ` for the first buffer that
 * differs, at its first element that does.  Exit 0
 * when they agree, 1 when they differ, 2 for a bad command line or a
 * file that cannot be read or has the wrong size.
 */
#include "cpu_prelude.h" /* f16 as the kernels and silkc exec read it */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_BUFFERS = 64 };

typedef struct Spec {
    char type[8];
    int bytes;
    char kind;           /* 's', 'u', 'f' */
    uint64_t count;
    double abs_tol, rel_tol;
    int sum_of;          /* abs_tol is per unit of this buffer's sum of magnitudes; -1: none */
    bool tolerant;
} Spec;

/* What one buffer's comparison found. */
typedef struct Verdict {
    uint64_t differ;     /* elements that differ */
    uint64_t first;      /* the first of them */
    char got[40], want[40], why[80]; /* its values and why they differ */
    double largest, largest_allowed; /* the largest difference within tolerance */
} Verdict;

static const struct {
    const char *name;
    int bytes;
    char kind;
} TYPES[] = {{"i8", 1, 's'}, {"u8", 1, 'u'}, {"i16", 2, 's'}, {"u16", 2, 'u'}, {"i32", 4, 's'},
             {"u32", 4, 'u'}, {"i64", 8, 's'}, {"u64", 8, 'u'}, {"f16", 2, 'f'}, {"f32", 4, 'f'},
             {"f64", 8, 'f'}};

static int usage(const char *why, const char *arg)
{
    fprintf(stderr, "bufcmp: %s '%s'\nusage: bufcmp [--tolerance N:abs=A[,rel=R][,sum=M]]... GOT WANT "
            "TYPE:COUNT[:INIT]...\n", why, arg);
    return 2;
}

static bool parse_spec(const char *text, Spec *s)
{
    const char *colon = strchr(text, ':');
    if (!colon || colon - text >= (ptrdiff_t)sizeof s->type)
        return false;
    memset(s, 0, sizeof *s);
    memcpy(s->type, text, (size_t)(colon - text));
    for (size_t i = 0; i < sizeof TYPES / sizeof *TYPES; i++)
        if (strcmp(TYPES[i].name, s->type) == 0) {
            s->bytes = TYPES[i].bytes;
            s->kind = TYPES[i].kind;
        }
    char *end;
    errno = 0;
    s->count = strtoull(colon + 1, &end, 10);
    return s->bytes && !errno && s->count > 0 && (*end == '\0' || *end == ':');
}

/* N:TERM[,TERM]..., each TERM abs=A, rel=R or sum=M */
static bool parse_tolerance(const char *text, Spec *specs, int *n_tolerances, int index[])
{
    char *end;
    long n = strtol(text, &end, 10);
    if (n < 1 || n > MAX_BUFFERS || *end != ':')
        return false;
    Spec *t = &specs[*n_tolerances]; /* held here until the specs are read */
    t->abs_tol = t->rel_tol = 0;
    t->sum_of = -1;
    for (const char *p = end + 1; *p;) {
        if (strncmp(p, "sum=", 4) == 0) {
            long m = strtol(p + 4, &end, 10);
            if (m < 1 || m > MAX_BUFFERS)
                return false;
            t->sum_of = (int)m - 1;
        } else {
            double *slot = strncmp(p, "abs=", 4) == 0 ? &t->abs_tol
                           : strncmp(p, "rel=", 4) == 0 ? &t->rel_tol : NULL;
            if (!slot)
                return false;
            *slot = strtod(p + 4, &end);
            if (end == p + 4 || *slot < 0 || !isfinite(*slot))
                return false;
        }
        if (*end && *end != ',')
            return false;
        p = *end ? end + 1 : end;
    }
    index[(*n_tolerances)++] = (int)n - 1;
    return true;
}

static unsigned char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    unsigned char *data = malloc(cap);
    for (size_t got; data && (got = fread(data + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) {
            unsigned char *bigger = realloc(data, cap *= 2);
            if (!bigger)
                free(data);
            data = bigger;
        }
    }
    if (ferror(f)) {
        free(data);
        data = NULL;
    }
    fclose(f);
    *len = n;
    return data;
}

static double float_at(const Spec *s, const unsigned char *p)
{
    if (s->bytes == 2) {
        uint16_t h;
        memcpy(&h, p, 2);
        return silk_half_to_double(h);
    }
    if (s->bytes == 4) {
        float f;
        memcpy(&f, p, 4);
        return f;
    }
    double d;
    memcpy(&d, p, 8);
    return d;
}

/* The sum of the magnitudes of a float buffer's elements (NaNs left out). */
static double sum_of_magnitudes(const Spec *s, const unsigned char *data)
{
    double sum = 0;
    for (uint64_t i = 0; i < s->count; i++) {
        double x = fabs(float_at(s, data + i * (uint64_t)s->bytes));
        sum += isnan(x) ? 0 : x;
    }
    return sum;
}

/* Element p as text: integers exactly, floats with the digits of their
 * type (as --dump prints them, but f16 with 9), a NaN "nan". */
static void show(const Spec *s, const unsigned char *p, char *out, size_t size)
{
    uint64_t u = 0;
    memcpy(&u, p, (size_t)s->bytes);
    int shift = 64 - 8 * s->bytes;
    if (s->kind == 'f' && isnan(float_at(s, p)))
        snprintf(out, size, "nan");
    else if (s->kind == 'f') /* the digits that read back exactly */
        snprintf(out, size, s->bytes == 8 ? "%.17g" : "%.9g", float_at(s, p));
    else if (s->kind == 's')
        snprintf(out, size, "%" PRId64, (int64_t)(u << shift) >> shift);
    else
        snprintf(out, size, "%" PRIu64, u);
}

/* Whether floats pa (got) and pb (want) agree; if not, why in `why`;
 * *diff and *allowed the difference and its bound under a tolerance. */
static bool floats_agree(const Spec *s, const unsigned char *pa, const unsigned char *pb,
                         double *diff, double *allowed, char *why, size_t size)
{
    double a = float_at(s, pa), b = float_at(s, pb);
    *diff = 0;
    *allowed = 0;
    if (isnan(a) || isnan(b)) {
        snprintf(why, size, "a NaN equals only a NaN");
        return isnan(a) && isnan(b);
    }
    if (!s->tolerant) {
        snprintf(why, size, "difference %.3g, compared bit for bit", fabs(a - b));
        return memcmp(pa, pb, (size_t)s->bytes) == 0;
    }
    if (isinf(a) || isinf(b)) {
        snprintf(why, size, "an infinity equals only itself");
        return a == b;
    }
    *diff = fabs(a - b);
    *allowed = s->abs_tol + s->rel_tol * fmax(fabs(a), fabs(b));
    snprintf(why, size, "difference %.3g, allowed %.3g", *diff, *allowed);
    return *diff <= *allowed;
}

static Verdict compare(const Spec *s, const unsigned char *got, const unsigned char *want)
{
    Verdict v = {0};
    for (uint64_t i = 0; i < s->count; i++) {
        const unsigned char *pa = got + i * (uint64_t)s->bytes, *pb = want + i * (uint64_t)s->bytes;
        double diff = 0, allowed = 0;
        char why[sizeof v.why] = "compared bit for bit";
        bool same = s->kind == 'f' ? floats_agree(s, pa, pb, &diff, &allowed, why, sizeof why)
                                   : memcmp(pa, pb, (size_t)s->bytes) == 0;
        if (same && diff > v.largest) {
            v.largest = diff;
            v.largest_allowed = allowed;
        }
        if (same || v.differ++)
            continue;
        v.first = i;
        show(s, pa, v.got, sizeof v.got);
        show(s, pb, v.want, sizeof v.want);
        snprintf(v.why, sizeof v.why, "%s", why);
    }
    return v;
}

/* The verdicts in one line; the exit status. */
static int report(const Spec *specs, const Verdict *v, int n)
{
    for (int b = 0; b < n; b++)
        if (v[b].differ) {
            printf("DIFFERENT: buffer %d (%s[%" PRIu64 "]) element %" PRIu64 ": %s against %s "
                   "(%s); %" PRIu64 " element%s differ%s\n", b + 1, specs[b].type, specs[b].count,
                   v[b].first, v[b].got, v[b].want, v[b].why, v[b].differ,
                   v[b].differ == 1 ? "" : "s", v[b].differ == 1 ? "s" : "");
            return 1;
        }
    bool tolerant = false;
    for (int b = 0; b < n; b++)
        if (v[b].largest > 0) {
            printf("%s buffer %d largest difference %.3g (allowed %.3g)",
                   tolerant ? ";" : "same within tolerance:", b + 1, v[b].largest, v[b].largest_allowed);
            tolerant = true;
        }
    puts(tolerant ? "" : "same");
    return 0;
}

int main(int argc, char **argv)
{
    Spec specs[MAX_BUFFERS], tolerances[MAX_BUFFERS];
    int tolerance_of[MAX_BUFFERS], n_tolerances = 0, i = 1, n = 0;
    for (; i < argc && strcmp(argv[i], "--tolerance") == 0; i += 2)
        if (i + 1 >= argc || n_tolerances == MAX_BUFFERS ||
            !parse_tolerance(argv[i + 1], tolerances, &n_tolerances, tolerance_of))
            return usage("bad --tolerance", i + 1 < argc ? argv[i + 1] : "");
    if (argc - i < 3)
        return usage("give two files and the buffers' specs, not", argc > i ? argv[i] : "");
    const char *got_path = argv[i], *want_path = argv[i + 1];
    uint64_t total = 0;
    for (i += 2; i < argc; i++, n++) {
        if (n == MAX_BUFFERS || !parse_spec(argv[i], &specs[n]))
            return usage("bad buffer spec", argv[i]);
        total += specs[n].count * (uint64_t)specs[n].bytes;
    }
    for (int t = 0; t < n_tolerances; t++) {
        if (tolerance_of[t] >= n || specs[tolerance_of[t]].kind != 'f')
            return usage("no float buffer for", argv[2 * t + 2]);
        int sum_of = tolerances[t].sum_of;
        if (sum_of >= n || (sum_of >= 0 && specs[sum_of].kind != 'f'))
            return usage("no float buffer to sum for", argv[2 * t + 2]);
        specs[tolerance_of[t]].abs_tol = tolerances[t].abs_tol;
        specs[tolerance_of[t]].rel_tol = tolerances[t].rel_tol;
        specs[tolerance_of[t]].sum_of = sum_of;
        specs[tolerance_of[t]].tolerant = true;
    }
    size_t got_len, want_len;
    unsigned char *got = read_all(got_path, &got_len), *want = read_all(want_path, &want_len);
    int rc = 0;
    if (!got || !want) {
        fprintf(stderr, "bufcmp: cannot read %s\n", !got ? got_path : want_path);
        rc = 2;
    } else if (got_len != total || want_len != total) {
        fprintf(stderr, "bufcmp: %s has %zu bytes, and the buffers %" PRIu64 "\n",
                got_len != total ? got_path : want_path, got_len != total ? got_len : want_len, total);
        rc = 2;
    } else {
        Verdict v[MAX_BUFFERS];
        uint64_t at = 0, starts[MAX_BUFFERS];
        for (int b = 0; b < n; b++, at += specs[b - 1].count * (uint64_t)specs[b - 1].bytes)
            starts[b] = at;
        for (int b = 0; b < n; b++)
            if (specs[b].tolerant && specs[b].sum_of >= 0)
                specs[b].abs_tol *= sum_of_magnitudes(&specs[specs[b].sum_of], want + starts[specs[b].sum_of]);
        at = 0;
        for (int b = 0; b < n; b++) {
            v[b] = compare(&specs[b], got + at, want + at);
            at += specs[b].count * (uint64_t)specs[b].bytes;
        }
        rc = report(specs, v, n);
    }
    free(got);
    free(want);
    return rc;
}
