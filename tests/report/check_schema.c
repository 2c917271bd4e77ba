/*
 * check_schema.c: a JSON Schema validator for the subset
 * docs/report-schema.json and docs/calc-schema.json use (type, required,
 * properties, additionalProperties false, items, enum, minimum), and the
 * test that every `silk-occ report --format json` (and, given its schema,
 * `silk-occ calc --format json`) output satisfies it.  No JSON Schema
 * library is available, so this one is kept to the keywords the schemas
 * need; it first proves itself on built-in cases that must pass and must
 * fail.
 *
 *   check_schema                 self-test, then each .json of tests/report/golden
 *   check_schema FILE.json...    self-test, then those files
 *   check_schema --schema S FILE.json...   the same against schema S (a
 *                                path under $SILK_SRCDIR: docs/calc-schema.json)
 *
 * The schemas and golden files are found under $SILK_SRCDIR (or ".").
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden_files.h"

/* ---- the validator -------------------------------------------------------- */

static bool type_is(const cJSON *v, const char *type)
{
    if (strcmp(type, "object") == 0) return cJSON_IsObject(v);
    if (strcmp(type, "array") == 0) return cJSON_IsArray(v);
    if (strcmp(type, "string") == 0) return cJSON_IsString(v);
    if (strcmp(type, "boolean") == 0) return cJSON_IsBool(v);
    if (strcmp(type, "null") == 0) return cJSON_IsNull(v);
    if (strcmp(type, "number") == 0) return cJSON_IsNumber(v);
    if (strcmp(type, "integer") == 0)
        return cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble);
    return false;
}

static bool check_type(const cJSON *schema, const cJSON *v)
{
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(schema, "type");
    if (!type)
        return true;
    if (cJSON_IsString(type))
        return type_is(v, type->valuestring);
    const cJSON *t;
    cJSON_ArrayForEach(t, type)
        if (cJSON_IsString(t) && type_is(v, t->valuestring))
            return true;
    return false;
}

static bool check_enum(const cJSON *schema, const cJSON *v)
{
    const cJSON *options = cJSON_GetObjectItemCaseSensitive(schema, "enum"), *o;
    if (!options)
        return true;
    cJSON_ArrayForEach(o, options)
        if (cJSON_Compare(o, v, true))
            return true;
    return false;
}

static bool fail(char *err, size_t size, const char *path, const char *what)
{
    snprintf(err, size, "%.300s: %.200s", path[0] ? path : "(root)", what);
    return false;
}

static bool validate(const cJSON *schema, const cJSON *v, const char *path, char *err, size_t size);

static bool validate_object(const cJSON *schema, const cJSON *v, const char *path, char *err,
                            size_t size)
{
    const cJSON *required = cJSON_GetObjectItemCaseSensitive(schema, "required"), *r;
    char sub[512];
    cJSON_ArrayForEach(r, required)
        if (!cJSON_GetObjectItemCaseSensitive(v, r->valuestring)) {
            snprintf(sub, sizeof sub, "required key '%s' missing", r->valuestring);
            return fail(err, size, path, sub);
        }
    const cJSON *props = cJSON_GetObjectItemCaseSensitive(schema, "properties"), *p;
    const cJSON *extra = cJSON_GetObjectItemCaseSensitive(schema, "additionalProperties");
    /* "additionalProperties": false: a key the schema does not list is
     * drift between the writer and the documented format. */
    cJSON_ArrayForEach(p, v)
        if (cJSON_IsFalse(extra) && !cJSON_GetObjectItemCaseSensitive(props, p->string)) {
            snprintf(sub, sizeof sub, "key '%s' is not in the schema", p->string);
            return fail(err, size, path, sub);
        }
    cJSON_ArrayForEach(p, props) {
        const cJSON *item = cJSON_GetObjectItemCaseSensitive(v, p->string);
        snprintf(sub, sizeof sub, "%s.%s", path, p->string);
        if (item && !validate(p, item, sub, err, size))
            return false;
    }
    return true;
}

static bool validate(const cJSON *schema, const cJSON *v, const char *path, char *err, size_t size)
{
    if (!check_type(schema, v))
        return fail(err, size, path, "wrong type");
    if (!check_enum(schema, v))
        return fail(err, size, path, "not one of the enum values");
    const cJSON *min = cJSON_GetObjectItemCaseSensitive(schema, "minimum");
    if (min && cJSON_IsNumber(v) && v->valuedouble < min->valuedouble)
        return fail(err, size, path, "below the minimum");
    if (cJSON_IsObject(v))
        return validate_object(schema, v, path, err, size);
    const cJSON *items = cJSON_GetObjectItemCaseSensitive(schema, "items");
    if (cJSON_IsArray(v) && items) {
        int i = 0;
        const cJSON *e;
        cJSON_ArrayForEach(e, v) {
            char sub[512];
            snprintf(sub, sizeof sub, "%s[%d]", path, i++);
            if (!validate(items, e, sub, err, size))
                return false;
        }
    }
    return true;
}

/* ---- the self-test -------------------------------------------------------- */

static const char *const SELF_SCHEMA =
    "{\"type\":\"object\",\"required\":[\"a\"],\"properties\":{"
    "\"a\":{\"type\":\"integer\",\"minimum\":1},"
    "\"b\":{\"type\":[\"string\",\"null\"],\"enum\":[\"x\",\"y\",null]},"
    "\"c\":{\"type\":\"array\",\"items\":{\"type\":\"boolean\"}},"
    "\"d\":{\"type\":\"object\",\"properties\":{\"e\":{\"type\":\"integer\"}},"
    "\"additionalProperties\":false}}}";

static const struct {
    const char *json;
    bool valid;
    const char *error; /* the message when invalid */
} SELF_CASES[] = {
    {"{\"a\":1}", true, ""},
    {"{\"a\":3,\"b\":\"y\",\"c\":[true,false]}", true, ""},
    {"{\"a\":2,\"b\":null}", true, ""},
    {"{}", false, "(root): required key 'a' missing"},
    {"{\"a\":1.5}", false, ".a: wrong type"},
    {"{\"a\":0}", false, ".a: below the minimum"},
    {"{\"a\":1,\"b\":\"z\"}", false, ".b: not one of the enum values"},
    {"{\"a\":1,\"b\":4}", false, ".b: wrong type"},
    {"{\"a\":1,\"c\":[true,1]}", false, ".c[1]: wrong type"},
    {"[]", false, "(root): wrong type"},
    {"{\"a\":1,\"z\":0,\"d\":{\"e\":1}}", true, ""}, /* the root allows more keys */
    {"{\"a\":1,\"d\":{\"e\":1,\"f\":2}}", false, ".d: key 'f' is not in the schema"},
};

static int self_test(void)
{
    cJSON *schema = cJSON_Parse(SELF_SCHEMA);
    int failures = 0;
    for (size_t i = 0; i < sizeof SELF_CASES / sizeof *SELF_CASES; i++) {
        cJSON *v = cJSON_Parse(SELF_CASES[i].json);
        char err[512] = "";
        bool ok = validate(schema, v, "", err, sizeof err);
        if (ok != SELF_CASES[i].valid || (!ok && strcmp(err, SELF_CASES[i].error) != 0)) {
            printf("FAIL: self-test %s: got %s '%s', want %s '%s'\n", SELF_CASES[i].json,
                   ok ? "valid" : "invalid", err, SELF_CASES[i].valid ? "valid" : "invalid",
                   SELF_CASES[i].error);
            failures++;
        }
        cJSON_Delete(v);
    }
    cJSON_Delete(schema);
    return failures;
}

/* ---- the files ------------------------------------------------------------ */

static cJSON *load_json(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *text = malloc((size_t)n + 1);
    size_t got = text ? fread(text, 1, (size_t)n, f) : 0;
    fclose(f);
    cJSON *v = NULL;
    if (text) {
        text[got] = '\0';
        v = cJSON_Parse(text);
    }
    free(text);
    return v;
}

static int check_file(const cJSON *schema, const char *path)
{
    cJSON *v = load_json(path);
    char err[512] = "";
    if (!v) {
        printf("FAIL: %s: cannot read or parse\n", path);
        return 1;
    }
    bool ok = validate(schema, v, "", err, sizeof err);
    cJSON_Delete(v);
    if (!ok)
        printf("FAIL: %s: %s\n", path, err);
    return ok ? 0 : 1;
}

static int check_one(const char *path, void *schema)
{
    return check_file(schema, path);
}

static int check_golden(const cJSON *schema, const char *srcdir)
{
    return golden_each(srcdir, ".json", check_one, (void *)schema);
}

int main(int argc, char **argv)
{
    const char *srcdir = getenv("SILK_SRCDIR") ? getenv("SILK_SRCDIR") : ".";
    const char *schema_path = "docs/report-schema.json";
    if (argc > 1 && strcmp(argv[1], "--schema") == 0) {
        /* Another schema has no golden files of its own: name the files. */
        if (argc < 4) {
            printf("usage: check_schema --schema SCHEMA FILE.json...\n");
            return 2;
        }
        schema_path = argv[2];
        argv += 2;
        argc -= 2;
    }
    int failures = self_test();
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", srcdir, schema_path);
    cJSON *schema = load_json(path);
    if (!schema) {
        printf("FAIL: %s: cannot read or parse\n", path);
        return 1;
    }
    if (argc > 1)
        for (int i = 1; i < argc; i++)
            failures += check_file(schema, argv[i]);
    else
        failures += check_golden(schema, srcdir);
    cJSON_Delete(schema);
    return failures ? 1 : 0;
}
