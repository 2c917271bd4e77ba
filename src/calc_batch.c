/*
 * calc_batch.c: `silk-occ calc --batch`, for tuning scripts that ask about
 * many configurations: JSON Lines on stdin, one configuration per line
 * with calc's option names as keys ({"arch": "sm_90", "threads": 256,
 * "regs": 64, "dyn_smem": 12288}), one answer per line on stdout with
 * calc's JSON keys for the target and the result (threads ..
 * allocated_vgprs), or {"line": N, "error": "..."} for a line that is not
 * a configuration; the others are still answered.  The checks and the
 * engine are calc's own (calc_prepare), so an answer is the single call's.
 *
 * Fast on purpose: one cJSON parse per line, the last target's lookup
 * kept, and the answer written with fixed formats into one buffer rather
 * than through a cJSON tree.  The strings in an answer are the tables'
 * names (escaped all the same); a line's own text only reaches an error
 * message, which cJSON's printer escapes.
 */
#include "calc_model.h"

#include "escape.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdarg.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
    BATCH_MAX_LINE = 64 * 1024, /* bytes in a line, its newline not counted */
    BATCH_ERROR_SIZE = 512
};

/* The keys: calc's options, '-' written '_'. */
typedef enum BatchKey {
    KEY_ARCH, KEY_GPU, KEY_THREADS, KEY_REGS, KEY_SMEM, KEY_DYN_SMEM, KEY_BARRIERS, KEY_NO_OPTIN,
    KEY_CARVEOUT, KEY_SMS, KEY_VGPRS, KEY_AGPRS, KEY_SGPRS, KEY_LDS, KEY_WAVES_PER_EU, N_KEYS
} BatchKey;

static const struct {
    const char *name;
    int option; /* calc's option code, for which vendor takes it */
    long long min, max;
} KEYS[N_KEYS] = {
    [KEY_ARCH] = {"arch", 'a', 0, 0},          [KEY_GPU] = {"gpu", 'g', 0, 0},
    [KEY_THREADS] = {"threads", 't', 1, 1 << 30}, [KEY_REGS] = {"regs", 'r', 0, 1 << 30},
    [KEY_SMEM] = {"smem", 's', 0, INT64_C(1) << 53}, [KEY_DYN_SMEM] = {"dyn_smem", 'd', 0, INT64_C(1) << 53},
    [KEY_BARRIERS] = {"barriers", 'b', 0, MAX_BARRIERS}, [KEY_NO_OPTIN] = {"no_optin", 'n', 0, 0},
    [KEY_CARVEOUT] = {"carveout", 'c', 0, 100},  [KEY_SMS] = {"sms", 'm', 1, 1 << 20},
    [KEY_VGPRS] = {"vgprs", 'V', 0, 1 << 20},   [KEY_AGPRS] = {"agprs", 'A', 0, 1 << 20},
    [KEY_SGPRS] = {"sgprs", 'P', 0, 1 << 20},   [KEY_LDS] = {"lds", 'L', 0, INT64_C(1) << 53},
    [KEY_WAVES_PER_EU] = {"waves_per_eu", 'E', 1, 64},
};

static const char KEY_LIST[] = "arch, gpu, threads, regs, smem, dyn_smem, barriers, no_optin, "
                               "carveout, sms, vgprs, agprs, sgprs, lds, waves_per_eu";

/* A target found before, by the name a line gave: a tuner's lines name a
 * few targets over and over, and a lookup (case-folded, aliases, both
 * vendors' tables) costs more than the engine. */
enum { BATCH_CACHE = 16, BATCH_MAX_NAME = 64 };
typedef struct CachedTarget {
    char name[BATCH_MAX_NAME];
    bool gpu;
    Target target;
} CachedTarget;

/* What --batch keeps from line to line: the tables, the targets found. */
typedef struct Batch {
    ArchTable table;
    AmdTable amd;
    CachedTarget cache[BATCH_CACHE];
    size_t n_cached, next_evicted;
    /* Occupancy as text, by (active, max) up to 64 each (every table's
     * warps or waves): %.17g is a fifth of a line's time otherwise. */
    char occupancy[65][65][32];
    char error[BATCH_ERROR_SIZE];
    char *out;      /* the answers, written out when nearly full */
    size_t used;
    FILE *stream;
} Batch;

__attribute__((format(printf, 2, 3))) static bool line_error(Batch *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->error, sizeof b->error, fmt, ap);
    va_end(ap);
    return false;
}

/* ---- a line's keys -------------------------------------------------------- */

static bool whole(const cJSON *v, long long min, long long max, long long *out)
{
    if (!cJSON_IsNumber(v) || floor(v->valuedouble) != v->valuedouble ||
        v->valuedouble < (double)min || v->valuedouble > (double)max)
        return false;
    *out = (long long)v->valuedouble;
    return true;
}

static bool number_key(Batch *b, BatchKey k, const cJSON *v, long long *out)
{
    if (whole(v, KEYS[k].min, KEYS[k].max, out))
        return true;
    return line_error(b, "%s: not a whole number from %lld to %lld", KEYS[k].name, KEYS[k].min,
                      KEYS[k].max);
}

static bool carveout_key(Batch *b, const cJSON *v, CalcOptions *o)
{
    static const struct {
        const char *name;
        int percent;
    } names[] = {{"default", OCC_CARVEOUT_DEFAULT}, {"max-shared", 100}, {"max-l1", 0}, {"half", 50}};
    long long percent;
    for (size_t i = 0; cJSON_IsString(v) && i < sizeof names / sizeof *names; i++)
        if (strcmp(v->valuestring, names[i].name) == 0) {
            o->carveout = names[i].percent;
            return true;
        }
    if (!whole(v, 0, 100, &percent))
        return line_error(b, "carveout: not \"default\", \"max-shared\", \"max-l1\", \"half\" or "
                             "a percentage 0..100");
    o->carveout = (int)percent;
    return true;
}

/* waves_per_eu: MIN or [MIN, MAX], as the attribute is written. */
static bool waves_key(Batch *b, const cJSON *v, CalcOptions *o)
{
    long long min, max = 0;
    int n = cJSON_IsArray(v) ? cJSON_GetArraySize(v) : 0;
    bool ok = n ? (n <= 2 && whole(cJSON_GetArrayItem(v, 0), 1, 64, &min) &&
                   (n == 1 || whole(cJSON_GetArrayItem(v, 1), 1, 64, &max)))
                : whole(v, 1, 64, &min);
    if (!ok)
        return line_error(b, "waves_per_eu: not MIN or [MIN, MAX], each from 1 to 64");
    o->waves_per_eu_min = (int)min;
    o->waves_per_eu_max = (int)max;
    return true;
}

static bool string_key(Batch *b, BatchKey k, const cJSON *v, const char **out)
{
    if (!cJSON_IsString(v) || strlen(v->valuestring) >= BATCH_MAX_NAME)
        return line_error(b, "%s: not a name (a string of at most %d bytes)", KEYS[k].name,
                          BATCH_MAX_NAME - 1);
    *out = v->valuestring;
    return true;
}

static bool read_key(Batch *b, BatchKey k, const cJSON *v, CalcOptions *o)
{
    long long n = 0;
    switch (k) {
    case KEY_ARCH: return string_key(b, k, v, &o->arch);
    case KEY_GPU: return string_key(b, k, v, &o->gpu);
    case KEY_NO_OPTIN:
        if (!cJSON_IsBool(v))
            return line_error(b, "no_optin: not true or false");
        o->optin = !cJSON_IsTrue(v);
        return true;
    case KEY_CARVEOUT: return carveout_key(b, v, o);
    case KEY_WAVES_PER_EU: return waves_key(b, v, o);
    default: break;
    }
    if (!number_key(b, k, v, &n))
        return false;
    switch (k) {
    case KEY_THREADS: o->threads = n; o->have_threads = true; break;
    case KEY_REGS: o->regs = n; o->have_regs = true; break;
    case KEY_SMEM: o->smem = (uint64_t)n; break;
    case KEY_DYN_SMEM: o->dyn_smem = (uint64_t)n; break;
    case KEY_BARRIERS: o->barriers = n; break;
    case KEY_SMS: o->sms = n; o->have_sms = true; break;
    case KEY_VGPRS: o->vgprs = n; o->have_vgprs = true; break;
    case KEY_AGPRS: o->agprs = n; break;
    case KEY_SGPRS: o->sgprs = n; break;
    case KEY_LDS: o->lds = (uint64_t)n; break;
    default: break;
    }
    return true;
}

/* The vendor-only options a line gave, named as calc's checks name them. */
static void note_vendor_key(CalcOptions *o, BatchKey k)
{
    static const char *const options[N_KEYS] = {
        [KEY_REGS] = "--regs", [KEY_SMEM] = "--smem", [KEY_DYN_SMEM] = "--dyn-smem",
        [KEY_BARRIERS] = "--barriers", [KEY_NO_OPTIN] = "--no-optin", [KEY_CARVEOUT] = "--carveout",
        [KEY_SMS] = "--sms", [KEY_VGPRS] = "--vgprs", [KEY_AGPRS] = "--agprs",
        [KEY_SGPRS] = "--sgprs", [KEY_LDS] = "--lds", [KEY_WAVES_PER_EU] = "--waves-per-eu"};
    bool amd = k >= KEY_VGPRS;
    if (options[k] && !amd && !o->nvidia_option)
        o->nvidia_option = options[k];
    if (options[k] && amd && !o->amd_option)
        o->amd_option = options[k];
}

/* The key named name, or N_KEYS: by its first letter first, as every
 * line names four or five keys. */
static int find_key(const char *name)
{
    for (int k = 0; k < N_KEYS; k++)
        if (KEYS[k].name[0] == name[0] && strcmp(KEYS[k].name, name) == 0)
            return k;
    return N_KEYS;
}

static bool read_line_options(Batch *b, const cJSON *root, CalcOptions *o)
{
    if (!cJSON_IsObject(root))
        return line_error(b, "not a JSON object of calc's options");
    const cJSON *v;
    unsigned seen = 0;
    cJSON_ArrayForEach(v, root) {
        int k = find_key(v->string);
        if (k == N_KEYS)
            return line_error(b, "unknown key '%s' (the keys are %s)", QUOTED(v->string), KEY_LIST);
        if (seen & (1u << k))
            return line_error(b, "%s: given twice", KEYS[k].name);
        seen |= 1u << k;
        note_vendor_key(o, (BatchKey)k);
        if (!read_key(b, (BatchKey)k, v, o))
            return false;
    }
    if (!o->arch == !o->gpu)
        return line_error(b, o->arch ? "arch and gpu: give one, not both"
                                     : "arch or gpu: the target GPU is required");
    return true;
}

/* ---- the target, kept from the last line ------------------------------------ */

static bool find_nvidia(Batch *b, const char *name, bool gpu, Target *t)
{
    char suggestion[OCC_ALIASES_MAX];
    *t = (Target){0};
    if (gpu && (t->gpu = arch_table_find_product(&b->table, name)) &&
        (t->arch = arch_table_product_arch(&b->table, t->gpu))) {
        t->sm_count = t->gpu->sm_count;
        snprintf(t->gpu_asked, sizeof t->gpu_asked, "%s", name);
    } else if (!gpu) {
        t->arch = arch_table_find(&b->table, name);
    }
    if (t->arch) {
        arch_sm_name(t->arch, t->sm_name, sizeof t->sm_name);
        return true;
    }
    bool suggested = arch_table_suggest(&b->table, name, gpu ? OCC_SUGGEST_PRODUCTS : OCC_SUGGEST_ARCHS,
                                        suggestion, sizeof suggestion);
    return line_error(b, "%s: unknown %s '%s'%s%s%s", gpu ? "gpu" : "arch",
                      gpu ? "GPU" : "architecture", QUOTED(name),
                      suggested ? " (did you mean '" : "", suggested ? suggestion : "",
                      suggested ? "'?)" : "");
}

/* The target the line names, kept for the next lines; NULL after the
 * line's error. */
static Target *find_target(Batch *b, const CalcOptions *o)
{
    const char *name = o->gpu ? o->gpu : o->arch;
    bool gpu = o->gpu != NULL;
    for (size_t i = 0; i < b->n_cached; i++)
        if (b->cache[i].gpu == gpu && strcmp(b->cache[i].name, name) == 0)
            return &b->cache[i].target;
    Target t;
    if (!target_resolve_amd(&b->amd, name, gpu, &t) && !find_nvidia(b, name, gpu, &t))
        return NULL;
    /* Full: the oldest entry goes. */
    CachedTarget *c = &b->cache[b->n_cached < BATCH_CACHE ? b->n_cached++ : b->next_evicted++ % BATCH_CACHE];
    snprintf(c->name, sizeof c->name, "%s", name);
    c->gpu = gpu;
    c->target = t;
    return &c->target;
}

/* ---- the answer ------------------------------------------------------------- */

static void flush_out(Batch *b)
{
    fwrite(b->out, 1, b->used, b->stream);
    b->used = 0;
}

static void put(Batch *b, const char *text)
{
    size_t len = strlen(text);
    memcpy(b->out + b->used, text, len);
    b->used += len;
}

static void put_uint(Batch *b, uint64_t v)
{
    char digits[24];
    int n = 0;
    if (v < 10) { /* most figures: one digit */
        b->out[b->used++] = (char)('0' + v);
        return;
    }
    do
        digits[n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    while (n)
        b->out[b->used++] = digits[--n];
}

static void put_key_uint(Batch *b, const char *key, uint64_t v)
{
    put(b, key);
    put_uint(b, v);
}

static void put_key_int_or_null(Batch *b, const char *key, bool known, long long v)
{
    put(b, key);
    if (known)
        put_uint(b, (uint64_t)v);
    else
        put(b, "null");
}

/* A table's name as a JSON string: the tables' names are plain, but a
 * user's --arch-table row is outside text all the same. */
static void put_string(Batch *b, const char *s)
{
    b->out[b->used++] = '"';
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            b->out[b->used++] = '\\', b->out[b->used++] = (char)c;
        else if (c < 0x20)
            b->used += (size_t)snprintf(b->out + b->used, 8, "\\u%04x", c);
        else
            b->out[b->used++] = (char)c;
    }
    b->out[b->used++] = '"';
}

static void write_limits(Batch *b, const OccFigures *f)
{
    put(b, ",\"limited_by\":[");
    bool first = true;
    for (int i = 0; i < f->n_limiters; i++)
        if (f->limited_by & (1u << i)) {
            put(b, first ? "\"" : ",\"");
            put(b, occ_vendor_limiter_name(f->vendor, i));
            put(b, "\"");
            first = false;
        }
    put(b, "],\"limits\":{");
    for (int i = 0; i < f->n_limiters; i++) {
        put(b, i ? ",\"" : "\"");
        put(b, occ_vendor_limiter_name(f->vendor, i));
        put_key_int_or_null(b, "\":", f->limit[i] != INT_MAX, f->limit[i]);
    }
    put(b, "},\"limits_unit\":\"");
    put(b, occ_limit_unit(f->vendor));
    put(b, "\"");
}

/* %.17g: the very double calc's cJSON writes, read back; into buf when
 * the pair is past the memo's. */
static const char *occupancy_text(Batch *b, const OccFigures *f, char buf[32])
{
    bool memo = f->active >= 0 && f->active <= 64 && f->max_active >= 0 && f->max_active <= 64;
    char *text = memo ? b->occupancy[f->active][f->max_active] : buf;
    if (!memo || text[0] == '\0')
        snprintf(text, 32, "%.17g", occ_figures_occupancy(f));
    return text;
}

/* calc's keys for the target and the result, in calc's order. */
static void write_answer(Batch *b, const CalcModel *m)
{
    const Target *t = &m->target;
    const CalcRow *r = &m->row;
    const OccFigures *f = &r->fig;
    bool nv = t->vendor == OCC_NVIDIA;
    put(b, nv ? "{\"vendor\":\"nvidia\",\"arch\":" : "{\"vendor\":\"amd\",\"arch\":");
    put_string(b, t->sm_name);
    put(b, ",\"gpu\":");
    if (t->gpu || t->amd_gpu)
        put_string(b, t->gpu ? t->gpu->id : t->amd_gpu->id);
    else
        put(b, "null");
    put_key_int_or_null(b, ",\"sm_count\":", t->sm_count > 0, t->sm_count);
    put_key_uint(b, ",\"threads\":", (uint64_t)r->threads);
    put_key_uint(b, ",\"regs_per_thread\":", (uint64_t)r->regs);
    put_key_uint(b, ",\"static_smem\":", r->static_smem);
    put_key_uint(b, ",\"dynamic_smem\":", r->dynamic_smem);
    put_key_uint(b, ",\"warps_per_block\":", (uint64_t)r->warps);
    put_key_uint(b, ",\"active_blocks_per_sm\":", (uint64_t)f->groups);
    put_key_int_or_null(b, ",\"active_warps_per_sm\":", nv, f->active);
    put_key_int_or_null(b, ",\"max_warps_per_sm\":", nv, f->max_active);
    put_key_int_or_null(b, ",\"waves_per_simd\":", !nv, f->active);
    put_key_int_or_null(b, ",\"max_waves_per_simd\":", !nv, f->max_active);
    char occupancy[32];
    put(b, ",\"occupancy\":");
    put(b, occupancy_text(b, f, occupancy));
    write_limits(b, f);
    put_key_int_or_null(b, ",\"allocated_regs_per_block\":", nv, r->nvidia.allocated_regs_per_block);
    put_key_int_or_null(b, ",\"allocated_smem_per_block\":", nv, (long long)r->nvidia.allocated_smem_per_block);
    put_key_int_or_null(b, ",\"allocated_vgprs\":", !nv, r->amd.allocated_vgprs);
    put(b, "}\n");
}

static void write_error(Batch *b, unsigned long long line)
{
    cJSON *s = cJSON_CreateString(b->error);
    char *text = s ? cJSON_PrintUnformatted(s) : NULL;
    flush_out(b); /* the message may be long: straight to the stream */
    fprintf(b->stream, "{\"line\":%llu,\"error\":%s}\n", line, text ? text : "\"out of memory\"");
    free(text);
    cJSON_Delete(s);
}

/* ---- the loop ----------------------------------------------------------------- */

static bool blank(const char *s, size_t len);

static bool answer(Batch *b, const char *text, size_t len)
{
    if (memchr(text, '\0', len))
        return line_error(b, "holds a NUL byte");
    const char *end;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, false);
    if (root && !blank(end, len - (size_t)(end - text))) {
        cJSON_Delete(root);
        root = NULL;
    }
    if (!root)
        return line_error(b, "not valid JSON");
    CalcOptions o = {.barriers = 1, .optin = true, .carveout = OCC_CARVEOUT_DEFAULT,
                     .error = b->error, .error_size = sizeof b->error};
    Target *target = NULL, copy;
    CalcModel m; /* calc_prepare fills it whole once it builds; rows before */
    m.rows = NULL;
    bool ok = read_line_options(b, root, &o) && (target = find_target(b, &o)) != NULL;
    if (ok && o.have_sms) { /* the one change calc_prepare makes to a target */
        copy = *target;
        target = &copy;
    }
    ok = ok && calc_prepare(&o, target, &m);
    if (ok)
        write_answer(b, &m);
    free(m.rows);
    cJSON_Delete(root);
    return ok;
}

/* stdin read in large blocks and cut at newlines, so that a line's NUL
 * bytes are seen (fgets would hide them) and a line past the limit is
 * skipped without being held. */
typedef struct Reader {
    FILE *in;
    char *buf;
    size_t start, end;
    bool eof;
} Reader;

enum { READER_SIZE = BATCH_MAX_LINE + 1 + (1 << 16) };

/* Reads more after moving what is left to the front; false at the end. */
static bool refill(Reader *r)
{
    if (r->eof)
        return false;
    memmove(r->buf, r->buf + r->start, r->end - r->start);
    r->end -= r->start;
    r->start = 0;
    size_t n = fread(r->buf + r->end, 1, READER_SIZE - r->end, r->in);
    r->end += n;
    r->eof = n == 0;
    return n > 0;
}

/* The next line in *line (not NUL-terminated), its length; -1 at the
 * end; -2 for a line longer than BATCH_MAX_LINE (skipped whole). */
static long next_line(Reader *r, const char **line)
{
    bool skipping = false;
    for (;;) {
        char *nl = memchr(r->buf + r->start, '\n', r->end - r->start);
        size_t len = (nl ? (size_t)(nl - r->buf) : r->end) - r->start;
        if (!nl && len > BATCH_MAX_LINE) { /* drop what is held, keep looking */
            skipping = true;
            r->start = r->end;
        }
        if (nl || (!skipping && len > 0 && r->eof)) {
            *line = r->buf + r->start;
            r->start += len + (nl != NULL);
            return skipping || len > BATCH_MAX_LINE ? -2 : (long)len;
        }
        if (!refill(r)) {
            if (skipping)
                return -2;
            if (r->start == r->end)
                return -1;
        }
    }
}

/* Blank lines are no configuration and get no answer, as JSON Lines
 * readers skip them. */
static bool blank(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
        i++;
    return i == len;
}

int calc_batch(char **tables, int n_tables, FILE *in, FILE *out)
{
    Batch *b = calloc(1, sizeof *b);
    Reader r = {.in = in, .buf = malloc(READER_SIZE)};
    char *buf = malloc(1 << 16);
    if (!b || !r.buf || !buf) {
        cli_error("calc", "--batch: out of memory");
        free(b), free(r.buf), free(buf);
        return EXIT_ENVIRONMENT;
    }
    if (!target_load_tables("calc", &b->table, &b->amd, tables, n_tables)) {
        free(b), free(r.buf), free(buf);
        return EXIT_USAGE;
    }
    b->out = buf;
    b->stream = out;
    bool bad = false;
    long len;
    const char *line;
    for (unsigned long long n = 1; (len = next_line(&r, &line)) != -1; n++) {
        bool ok = len == -2 ? line_error(b, "longer than %d bytes", BATCH_MAX_LINE)
                : blank(line, (size_t)len) ? true
                : answer(b, line, (size_t)len);
        if (!ok)
            write_error(b, n);
        bad |= !ok;
        if (b->used > (1 << 16) - 2048) /* an answer is under 1 KiB */
            flush_out(b);
    }
    flush_out(b);
    amd_table_free(&b->amd);
    arch_table_free(&b->table);
    free(b), free(r.buf), free(buf);
    if (fflush(out) != 0 || ferror(out)) {
        cli_error("calc", "--batch: cannot write the answers");
        return EXIT_ENVIRONMENT;
    }
    return bad ? EXIT_FINDINGS : EXIT_OK;
}
