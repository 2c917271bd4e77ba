/*
 * verify_record.c: the files of `silk-occ verify --record` and --replay.
 *
 * A record holds everything a run on a device saw: the device's properties,
 * each kernel's attributes, and every question with the runtime's answer,
 * in the order asked.  Replaying one compares the engine with that device
 * again, on any machine; that is how the comparison is tested here, and how
 * a user can send a card we have never seen.  The format (JSON, schema
 * "silk-occ/verify-record/1") is documented in silk-occ(1); each answer is
 * a compact array, because a run asks thousands:
 *
 *   [query, carveout, max_dynamic_smem, block_size, dynamic_smem,
 *    num_blocks, result, min_grid]      result: a number, or the error text
 *
 * An active_clusters answer has a ninth field, its cluster size, and a
 * kernel compiled with its own cluster has "required_cluster": [x, y, z]
 * among its attributes.  Both are new in the same schema: records written
 * before them hold neither, and read as they did.
 */
#include "verify_engine.h"

#include "output.h"
#include "json_file.h"
#include "read_file.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char SCHEMA[] = "silk-occ/verify-record/1";

/* ---- reading -------------------------------------------------------------- */

typedef struct Reader {
    const char *path;
    char *error;
    size_t size;
} Reader;

static bool bad(Reader *r, const char *where, const char *what)
{
    snprintf(r->error, r->size, "%s: %s: %s", r->path, where, what);
    return false;
}

/* A JSON number that is a whole number in min..max (both within 2^53,
 * where every whole double is exact).  The range is checked before the
 * value is converted: 1e300 would not fit an int64_t. */
static bool whole_in_range(const cJSON *item, int64_t min, int64_t max, int64_t *out)
{
    double v = item->valuedouble;
    if (!(v >= (double)min && v <= (double)max) || v != (double)(int64_t)v)
        return false;
    *out = (int64_t)v;
    return true;
}

/* "KEY: VALUE is not a whole number in MIN..MAX", the value as the record
 * spells it (to 17 digits). */
static bool out_of_range(Reader *r, const char *at, const cJSON *item, int64_t min, int64_t max)
{
    char value[32], what[160];
    /* The shortest digits that read back as the value: 1e+300, 4294967328. */
    snprintf(value, sizeof value, "%.15g", item->valuedouble);
    if (strtod(value, NULL) != item->valuedouble)
        snprintf(value, sizeof value, "%.17g", item->valuedouble);
    snprintf(what, sizeof what, "%s is not a whole number in %lld..%lld", value, (long long)min,
             (long long)max);
    return bad(r, at, what);
}

static bool get_int(Reader *r, const cJSON *obj, const char *key, int64_t min, int64_t max,
                    int64_t *out, const char *where)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    char at[128];
    snprintf(at, sizeof at, "%s.%s", where, key);
    if (!cJSON_IsNumber(item))
        return bad(r, at, "missing, or not a number");
    return whole_in_range(item, min, max, out) || out_of_range(r, at, item, min, max);
}

#define GET_INT(obj, key, min, max, dst, where)                                               \
    do {                                                                                      \
        int64_t v_;                                                                           \
        if (!get_int(r, obj, key, min, max, &v_, where))                                      \
            return false;                                                                     \
        dst = v_;                                                                             \
    } while (0)

static bool read_props(Reader *r, const cJSON *d, DeviceProps *p)
{
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(d, "name");
    if (!cJSON_IsString(name))
        return bad(r, "device.name", "missing, or not a string");
    snprintf(p->name, sizeof p->name, "%s", name->valuestring);
    const int64_t big = INT64_C(1) << 40;
    GET_INT(d, "major", 1, 99, p->major, "device");
    GET_INT(d, "minor", 0, 9, p->minor, "device");
    GET_INT(d, "sm_count", 1, 100000, p->sm_count, "device");
    GET_INT(d, "warp_size", 1, 1024, p->warp_size, "device");
    GET_INT(d, "max_threads_per_block", 1, 65536, p->max_threads_per_block, "device");
    GET_INT(d, "max_threads_per_sm", 1, 1 << 20, p->max_threads_per_sm, "device");
    GET_INT(d, "max_blocks_per_sm", 1, 65536, p->max_blocks_per_sm, "device");
    GET_INT(d, "regs_per_sm", 1, 1 << 24, p->regs_per_sm, "device");
    GET_INT(d, "regs_per_block", 1, 1 << 24, p->regs_per_block, "device");
    GET_INT(d, "smem_per_sm", 1, big, p->smem_per_sm, "device");
    GET_INT(d, "smem_per_block", 1, big, p->smem_per_block, "device");
    GET_INT(d, "smem_per_block_optin", 1, big, p->smem_per_block_optin, "device");
    GET_INT(d, "reserved_smem_per_block", 0, big, p->reserved_smem_per_block, "device");
    GET_INT(d, "max_grid_x", 1, INT_MAX, p->max_grid[0], "device");
    GET_INT(d, "max_grid_y", 1, INT_MAX, p->max_grid[1], "device");
    GET_INT(d, "max_grid_z", 1, INT_MAX, p->max_grid[2], "device");
    return true;
}

/* "required_cluster": [x, y, z], each 1..1024; absent: no cluster of its own. */
static bool read_cluster(Reader *r, const cJSON *c, FuncAttrs *f, const char *where)
{
    if (!c)
        return true;
    char at[160];
    snprintf(at, sizeof at, "%s.required_cluster", where);
    if (!cJSON_IsArray(c) || cJSON_GetArraySize(c) != 3)
        return bad(r, at, "not an array of 3 numbers");
    for (int i = 0; i < 3; i++) {
        const cJSON *item = cJSON_GetArrayItem(c, i);
        int64_t v;
        if (!cJSON_IsNumber(item))
            return bad(r, at, "not an array of 3 numbers");
        if (!whole_in_range(item, 1, 1024, &v))
            return out_of_range(r, at, item, 1, 1024);
        f->cluster_dims[i] = (int)v;
    }
    return true;
}

static bool read_attrs(Reader *r, const cJSON *a, FuncAttrs *f, const char *where)
{
    if (!cJSON_IsObject(a))
        return bad(r, where, "missing, or not an object");
    const int64_t big = INT64_C(1) << 40;
    GET_INT(a, "num_regs", 0, 65536, f->num_regs, where);
    GET_INT(a, "static_smem", 0, big, f->static_smem, where);
    GET_INT(a, "local_bytes", 0, big, f->local_bytes, where);
    GET_INT(a, "const_bytes", 0, big, f->const_bytes, where);
    GET_INT(a, "max_threads_per_block", 1, 65536, f->max_threads_per_block, where);
    GET_INT(a, "max_dynamic_smem", 0, big, f->max_dynamic_smem, where);
    return read_cluster(r, cJSON_GetObjectItemCaseSensitive(a, "required_cluster"), f, where);
}

enum { ANSWER_FIELDS = 8, CLUSTER_FIELDS = 9, RESULT_FIELD = 6 };

/* The fields of an answer after the query's name: each its own range, so
 * that a block size of 2^32 + 32 is refused, not taken as 32. */
static const struct {
    const char *name;
    int64_t min, max;
} answer_fields[CLUSTER_FIELDS] = {
    {"query", 0, 0},
    {"carveout", -1, 100},
    {"max_dynamic_smem", 0, INT64_C(1) << 40},
    {"block_size", 0, 65536},
    {"dynamic_smem", 0, INT64_C(1) << 40},
    {"num_blocks", 0, INT_MAX},
    {"result", -1, INT64_C(1) << 40},
    {"min_grid", 0, INT64_C(1) << 40},
    {"cluster_size", 1, 1024},
};

/* One compact answer array (see the top of the file). */
static bool read_answer(Reader *r, const cJSON *a, VerifyQuery *q, VerifyAnswer *ans,
                        const char *where)
{
    if (!cJSON_IsArray(a))
        return bad(r, where, "not an array of 8 fields");
    const cJSON *kind = cJSON_GetArrayItem(a, 0);
    if (!cJSON_IsString(kind) || !verify_query_kind(kind->valuestring, &q->kind))
        return bad(r, where,
                   "field 1 is not active_blocks, block_size, dynamic_smem or active_clusters");
    int fields = q->kind == VQ_ACTIVE_CLUSTERS ? CLUSTER_FIELDS : ANSWER_FIELDS;
    if (cJSON_GetArraySize(a) != fields)
        return bad(r, where, fields == ANSWER_FIELDS ? "not an array of 8 fields"
                                                     : "an active_clusters answer is not an "
                                                       "array of 9 fields");
    int64_t v[CLUSTER_FIELDS] = {0};
    for (int i = 1; i < fields; i++) {
        const cJSON *item = cJSON_GetArrayItem(a, i);
        if (i == RESULT_FIELD && cJSON_IsString(item))
            continue; /* an error instead of a result */
        char at[160];
        snprintf(at, sizeof at, "%s[%d] (%s)", where, i, answer_fields[i].name);
        if (!cJSON_IsNumber(item))
            return bad(r, at, "not a number");
        if (!whole_in_range(item, answer_fields[i].min, answer_fields[i].max, &v[i]))
            return out_of_range(r, at, item, answer_fields[i].min, answer_fields[i].max);
    }
    *q = (VerifyQuery){q->kind, (int)v[1], v[2], (int)v[3], v[4], (int)v[5], (int)v[8]};
    memset(ans, 0, sizeof *ans);
    const cJSON *result = cJSON_GetArrayItem(a, RESULT_FIELD);
    ans->ok = cJSON_IsNumber(result);
    if (!ans->ok)
        snprintf(ans->error, sizeof ans->error, "%s", result->valuestring);
    ans->value = v[RESULT_FIELD];
    ans->min_grid = v[7];
    return true;
}

static bool read_kernel(Reader *r, const cJSON *k, VerifyRecord *rec, int i)
{
    char where[64];
    snprintf(where, sizeof where, "kernels[%d]", i);
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(k, "name");
    if (!cJSON_IsString(name))
        return bad(r, where, "no name");
    VerifyKernel *vk = &rec->kernels[i];
    snprintf(vk->name, sizeof vk->name, "%s", name->valuestring);
    vk->origin = r->path;
    snprintf(where, sizeof where, "kernels[%d].attributes", i);
    if (!read_attrs(r, cJSON_GetObjectItemCaseSensitive(k, "attributes"), &vk->attrs, where))
        return false;
    const cJSON *answers = cJSON_GetObjectItemCaseSensitive(k, "answers");
    if (!cJSON_IsArray(answers))
        return bad(r, where, "no answers array");
    int n = cJSON_GetArraySize(answers);
    rec->queries[i] = calloc((size_t)n + 1, sizeof **rec->queries);
    rec->answers[i] = calloc((size_t)n + 1, sizeof **rec->answers);
    if (!rec->queries[i] || !rec->answers[i])
        return bad(r, where, "out of memory");
    int j = 0;
    for (const cJSON *a = answers->child; a; a = a->next, j++) {
        snprintf(where, sizeof where, "kernels[%d].answers[%d]", i, j);
        if (!read_answer(r, a, &rec->queries[i][j], &rec->answers[i][j], where))
            return false;
    }
    rec->n_queries[i] = n;
    return true;
}

static bool read_root(Reader *r, const cJSON *root, VerifyRecord *out)
{
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
    if (!cJSON_IsString(schema) || strcmp(schema->valuestring, SCHEMA) != 0)
        return bad(r, "schema", "not a silk-occ verify record (\"silk-occ/verify-record/1\")");
    const cJSON *device = cJSON_GetObjectItemCaseSensitive(root, "device");
    if (!cJSON_IsObject(device))
        return bad(r, "device", "missing, or not an object");
    if (!read_props(r, device, &out->props))
        return false;
    const cJSON *kernels = cJSON_GetObjectItemCaseSensitive(root, "kernels");
    if (!cJSON_IsArray(kernels))
        return bad(r, "kernels", "missing, or not an array");
    int n = cJSON_GetArraySize(kernels);
    out->kernels = calloc((size_t)n + 1, sizeof *out->kernels);
    out->queries = calloc((size_t)n + 1, sizeof *out->queries);
    out->answers = calloc((size_t)n + 1, sizeof *out->answers);
    out->n_queries = calloc((size_t)n + 1, sizeof *out->n_queries);
    if (!out->kernels || !out->queries || !out->answers || !out->n_queries)
        return bad(r, "kernels", "out of memory");
    out->n_kernels = n;
    int i = 0;
    for (const cJSON *k = kernels->child; k; k = k->next, i++)
        if (!read_kernel(r, k, out, i))
            return false;
    return true;
}

bool verify_record_read(const char *path, VerifyRecord *out, char *error, size_t size)
{
    memset(out, 0, sizeof *out);
    Reader r = {path, error, size};
    /* "FILE:LINE:COL: not valid JSON" at the byte cJSON stopped at (the
     * end of the text when it gives none).  Columns count bytes from 1. */
    JsonFileError why;
    cJSON *root = json_file_parse(path, READ_FILE_DATA_LIMIT_MIB, &why);
    char words[256];
    if (!root)
        snprintf(error, size, "%s%s", path,
                 json_file_error(&why, READ_FILE_DATA_LIMIT_MIB, words, sizeof words));
    bool ok = root && read_root(&r, root, out);
    cJSON_Delete(root);
    if (!ok)
        verify_record_free(out);
    return ok;
}

void verify_record_free(VerifyRecord *r)
{
    for (int i = 0; r->queries && i < r->n_kernels; i++) {
        free(r->queries[i]);
        free(r->answers[i]);
    }
    free(r->kernels);
    free(r->queries);
    free(r->answers);
    free(r->n_queries);
    memset(r, 0, sizeof *r);
}

/* ---- writing -------------------------------------------------------------- */

static cJSON *props_json(const DeviceProps *p)
{
    cJSON *d = cJSON_CreateObject();
    cJSON_AddStringToObject(d, "name", p->name);
    cJSON_AddNumberToObject(d, "major", p->major);
    cJSON_AddNumberToObject(d, "minor", p->minor);
    cJSON_AddNumberToObject(d, "sm_count", p->sm_count);
    cJSON_AddNumberToObject(d, "warp_size", p->warp_size);
    cJSON_AddNumberToObject(d, "max_threads_per_block", p->max_threads_per_block);
    cJSON_AddNumberToObject(d, "max_threads_per_sm", p->max_threads_per_sm);
    cJSON_AddNumberToObject(d, "max_blocks_per_sm", p->max_blocks_per_sm);
    cJSON_AddNumberToObject(d, "regs_per_sm", p->regs_per_sm);
    cJSON_AddNumberToObject(d, "regs_per_block", p->regs_per_block);
    cJSON_AddNumberToObject(d, "smem_per_sm", (double)p->smem_per_sm);
    cJSON_AddNumberToObject(d, "smem_per_block", (double)p->smem_per_block);
    cJSON_AddNumberToObject(d, "smem_per_block_optin", (double)p->smem_per_block_optin);
    cJSON_AddNumberToObject(d, "reserved_smem_per_block", (double)p->reserved_smem_per_block);
    cJSON_AddNumberToObject(d, "max_grid_x", p->max_grid[0]);
    cJSON_AddNumberToObject(d, "max_grid_y", p->max_grid[1]);
    cJSON_AddNumberToObject(d, "max_grid_z", p->max_grid[2]);
    return d;
}

cJSON *verify_attrs_json(const FuncAttrs *f)
{
    cJSON *a = cJSON_CreateObject();
    cJSON_AddNumberToObject(a, "num_regs", f->num_regs);
    cJSON_AddNumberToObject(a, "static_smem", (double)f->static_smem);
    cJSON_AddNumberToObject(a, "local_bytes", (double)f->local_bytes);
    cJSON_AddNumberToObject(a, "const_bytes", (double)f->const_bytes);
    cJSON_AddNumberToObject(a, "max_threads_per_block", f->max_threads_per_block);
    cJSON_AddNumberToObject(a, "max_dynamic_smem", (double)f->max_dynamic_smem);
    if (f->cluster_dims[0] > 0) /* only then: older readers know no such key */
        cJSON_AddItemToObject(a, "required_cluster", cJSON_CreateIntArray(f->cluster_dims, 3));
    return a;
}

static cJSON *answer_json(const VerifyQuery *q, const VerifyAnswer *a)
{
    cJSON *row = cJSON_CreateArray();
    cJSON_AddItemToArray(row, cJSON_CreateString(verify_query_name(q->kind)));
    const double fields[] = {q->carveout, (double)q->max_dynamic_smem, q->block_size,
                             (double)q->dynamic_smem, q->num_blocks};
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
        cJSON_AddItemToArray(row, cJSON_CreateNumber(fields[i]));
    cJSON_AddItemToArray(row, a->ok ? cJSON_CreateNumber((double)a->value)
                                    : cJSON_CreateString(a->error));
    cJSON_AddItemToArray(row, cJSON_CreateNumber((double)a->min_grid));
    if (q->kind == VQ_ACTIVE_CLUSTERS)
        cJSON_AddItemToArray(row, cJSON_CreateNumber(q->cluster_size));
    return row;
}

bool verify_record_write(const char *path, const char *const inputs[], int n_inputs,
                         const VerifyRecord *r, char *error, size_t size)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "schema", SCHEMA);
    cJSON_AddItemToObject(root, "device", props_json(&r->props));
    cJSON *kernels = cJSON_AddArrayToObject(root, "kernels");
    for (int i = 0; i < r->n_kernels; i++) {
        cJSON *k = cJSON_CreateObject();
        cJSON_AddStringToObject(k, "name", r->kernels[i].name);
        cJSON_AddItemToObject(k, "attributes", verify_attrs_json(&r->kernels[i].attrs));
        cJSON *answers = cJSON_AddArrayToObject(k, "answers");
        for (int j = 0; j < r->n_queries[i]; j++)
            cJSON_AddItemToArray(answers, answer_json(&r->queries[i][j], &r->answers[i][j]));
        cJSON_AddItemToArray(kernels, k);
    }
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    /* Whole or not there, and never over one of the inputs (output.h). */
    Output out;
    bool ok = text && output_open(&out, path, inputs, n_inputs);
    if (ok) {
        fputs(text, out.file);
        fputc('\n', out.file);
        ok = output_commit(&out);
    }
    if (!ok)
        snprintf(error, size, "%s", text ? out.error : "out of memory");
    free(text);
    return ok;
}
