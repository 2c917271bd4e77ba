/*
 * prune_space.c: a tuning space read from its JSON file and checked once,
 * so that evaluating a configuration can fail only where a formula has no
 * value there (below zero, a division by zero), which is reported with the
 * parameter values that make it so:
 *
 *   {"parameters": {"BLOCK_M": [64, 128], "STAGES": [2, 3]},
 *    "threads": "WARPS*32", "smem": "(BLOCK_M+BLOCK_N)*32*2*STAGES",
 *    "dyn_smem": 0, "regs": 128, "cluster": 2}
 *
 * Every message names the file; the key and, for a formula, its column.
 */
#include "prune_model.h"

#include "escape.h"
#include "json_file.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const COMMAND = "prune";
static const char *const KEY_NAMES[PRUNE_N_KEYS] = {"threads", "regs", "smem", "dyn_smem",
                                                    "cluster"};

const char *prune_key_name(PruneKey key)
{
    return KEY_NAMES[key];
}

/* A JSON number that is a whole number from 0 to 2^53 (every one a double
 * holds exactly), into *out. */
static bool whole_number(const cJSON *item, uint64_t *out)
{
    if (!cJSON_IsNumber(item))
        return false;
    double v = item->valuedouble;
    if (!(v >= 0 && v <= 9007199254740992.0) || floor(v) != v)
        return false;
    *out = (uint64_t)v;
    return true;
}

static bool read_param(const char *path, const cJSON *item, PruneParam *p)
{
    const char *why = size_expr_check_name(item->string);
    if (why) {
        cli_error(COMMAND, "%s: parameters: '%s': %s", QUOTED(path), QUOTED(item->string), why);
        return false;
    }
    snprintf(p->name, sizeof p->name, "%s", item->string);
    int n = cJSON_IsArray(item) ? cJSON_GetArraySize(item) : 0;
    if (n == 0) {
        cli_error(COMMAND, "%s: parameters.%s: not a list of values (a non-empty array of whole "
                           "numbers)", QUOTED(path), p->name);
        return false;
    }
    p->values = malloc((size_t)n * sizeof *p->values);
    if (!p->values) {
        cli_error(COMMAND, "%s: out of memory", QUOTED(path));
        return false;
    }
    const cJSON *v;
    cJSON_ArrayForEach(v, item) {
        if (!whole_number(v, &p->values[p->n])) {
            cli_error(COMMAND, "%s: parameters.%s: value %zu is not a whole number from 0 to 2^53",
                      QUOTED(path), p->name, p->n + 1);
            return false;
        }
        p->n++;
    }
    return true;
}

static bool read_params(const char *path, const cJSON *params, PruneSpace *s)
{
    if (!cJSON_IsObject(params)) {
        cli_error(COMMAND, "%s: parameters: not an object of NAME: [values]", QUOTED(path));
        return false;
    }
    s->n_configs = 1;
    const cJSON *item;
    cJSON_ArrayForEach(item, params) {
        for (size_t i = 0; i < s->n_params; i++)
            if (strcmp(s->params[i].name, item->string) == 0) {
                cli_error(COMMAND, "%s: parameters: '%s' given twice", QUOTED(path), QUOTED(item->string));
                return false;
            }
        if (s->n_params == PRUNE_MAX_PARAMS) {
            cli_error(COMMAND, "%s: parameters: more than %d", QUOTED(path), PRUNE_MAX_PARAMS);
            return false;
        }
        PruneParam *p = &s->params[s->n_params];
        s->names[s->n_params++] = p->name;
        if (!read_param(path, item, p))
            return false;
        /* Checked as it grows, so the product cannot overflow. */
        s->n_configs *= p->n;
        if (s->n_configs > PRUNE_MAX_CONFIGS) {
            cli_error(COMMAND, "%s: parameters: more than %d configurations (%zu with '%s')",
                      QUOTED(path), PRUNE_MAX_CONFIGS, s->n_configs, p->name);
            return false;
        }
    }
    return true;
}

static bool read_formula(const char *path, const cJSON *item, PruneKey key, PruneSpace *s)
{
    uint64_t n;
    const char *name = KEY_NAMES[key];
    if (whole_number(item, &n)) {
        snprintf(s->text_store[key], sizeof s->text_store[key], "%llu", (unsigned long long)n);
        s->text[key] = s->text_store[key];
    } else if (cJSON_IsString(item)) {
        if (!(s->text[key] = strdup(item->valuestring))) {
            cli_error(COMMAND, "%s: out of memory", QUOTED(path));
            return false;
        }
    } else {
        cli_error(COMMAND, "%s: %s: not a whole number or a formula of the parameters (a string)",
                  QUOTED(path), name);
        return false;
    }
    char error[SIZE_EXPR_ERROR_SIZE];
    SizeNames names = {s->names, s->n_params};
    s->formula[key] = size_expr_parse_names(s->text[key], &names, error, sizeof error);
    if (!s->formula[key]) {
        cli_error(COMMAND, "%s: %s '%s': %s", QUOTED(path), name, QUOTED(s->text[key]), error);
        return false;
    }
    /* threads is what threads and warps are: a formula of them is circular. */
    if (key == PRUNE_THREADS && !size_expr_is_constant(s->formula[key])) {
        cli_error(COMMAND, "%s: threads '%s': a formula of the parameters, not of threads or warps",
                  QUOTED(path), QUOTED(s->text[key]));
        return false;
    }
    return true;
}

static bool read_key(const char *path, const cJSON *item, PruneSpace *s)
{
    if (strcmp(item->string, "parameters") == 0)
        return read_params(path, item, s);
    for (int k = 0; k < PRUNE_N_KEYS; k++)
        if (strcmp(item->string, KEY_NAMES[k]) == 0)
            return read_formula(path, item, (PruneKey)k, s);
    cli_error(COMMAND, "%s: unknown key '%s' (the keys are parameters, threads, regs, smem, "
                       "dyn_smem and cluster)", QUOTED(path), QUOTED(item->string));
    return false;
}

/* The keys in any order, but the formulas need the parameters' names:
 * "parameters" is read first. */
static bool read_space(const char *path, const cJSON *root, PruneSpace *s)
{
    if (!cJSON_IsObject(root)) {
        cli_error(COMMAND, "%s: not a tuning space (a JSON object with parameters and threads)",
                  QUOTED(path));
        return false;
    }
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(root, "parameters");
    if (!params) {
        cli_error(COMMAND, "%s: parameters: required (an object of NAME: [values])", QUOTED(path));
        return false;
    }
    if (!read_key(path, params, s))
        return false;
    const cJSON *item;
    cJSON_ArrayForEach(item, root) {
        if (item == params)
            continue;
        for (const cJSON *seen = root->child; seen != item; seen = seen->next)
            if (strcmp(seen->string, item->string) == 0) {
                cli_error(COMMAND, "%s: '%s' given twice", QUOTED(path), QUOTED(item->string));
                return false;
            }
        if (!read_key(path, item, s))
            return false;
    }
    if (!s->formula[PRUNE_THREADS]) {
        cli_error(COMMAND, "%s: threads: required (threads per block, a number or a formula)",
                  QUOTED(path));
        return false;
    }
    return true;
}

bool prune_space_read(const char *path, PruneSpace *s)
{
    *s = (PruneSpace){0};
    JsonFileError why;
    char words[128];
    cJSON *root = json_file_parse(path, PRUNE_SPACE_LIMIT_MIB, &why);
    if (!root) {
        cli_error(COMMAND, "%s%s", QUOTED(path),
                  json_file_error(&why, PRUNE_SPACE_LIMIT_MIB, words, sizeof words));
        return false;
    }
    bool ok = read_space(path, root, s);
    cJSON_Delete(root);
    if (!ok)
        prune_space_free(s);
    return ok;
}

void prune_space_free(PruneSpace *s)
{
    for (size_t i = 0; i < s->n_params; i++)
        free(s->params[i].values);
    for (int k = 0; k < PRUNE_N_KEYS; k++) {
        size_expr_free(s->formula[k]);
        if (s->text[k] != s->text_store[k])
            free((char *)s->text[k]);
    }
    *s = (PruneSpace){0};
}

void prune_space_values(const PruneSpace *s, size_t index, uint64_t *values)
{
    for (size_t i = s->n_params; i-- > 0;) {
        values[i] = s->params[i].values[index % s->params[i].n];
        index /= s->params[i].n;
    }
}

/* "BLOCK_M=128 STAGES=3": where a formula has no value. */
static void describe(const PruneSpace *s, const uint64_t *values, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < s->n_params && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s=%llu", i ? " " : "",
                                 s->params[i].name, (unsigned long long)values[i]);
}

bool prune_space_config(const char *path, const PruneSpace *s, size_t index, int warp_size,
                        OccPruneConfig *out)
{
    uint64_t values[PRUNE_MAX_PARAMS], v[PRUNE_N_KEYS] = {0};
    char error[SIZE_EXPR_ERROR_SIZE], where[512];
    prune_space_values(s, index, values);
    for (int k = 0; k < PRUNE_N_KEYS; k++) {
        uint64_t threads = v[PRUNE_THREADS]; /* threads comes first, and is constant */
        if (!s->formula[k])
            continue;
        /* Past INT64_MAX threads is a block too large whatever the rest. */
        long long t = threads > INT64_MAX ? INT64_MAX : (long long)threads;
        if (size_expr_eval_names(s->formula[k], t, (t + warp_size - 1) / warp_size, values, &v[k],
                                 error, sizeof error))
            continue;
        describe(s, values, where, sizeof where);
        cli_error(COMMAND, "%s: %s '%s': at %s: %s", QUOTED(path), KEY_NAMES[k],
                  QUOTED(s->text[k]), where, error);
        return false;
    }
    *out = (OccPruneConfig){.threads = v[PRUNE_THREADS], .regs = v[PRUNE_REGS],
                            .static_smem = v[PRUNE_SMEM], .dynamic_smem = v[PRUNE_DYN_SMEM],
                            .cluster = v[PRUNE_CLUSTER]};
    return true;
}
