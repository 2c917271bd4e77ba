/*
 * report_rows.c: the figures of a `silk-occ report --format json` run as
 * lines for tests/cuda/corpus.sh (jq is not a dependency).  Fields are
 * separated by tabs (demangled names hold spaces); null is "null".
 *
 *   K  arch  symbol  has_symbol  regs  static_smem  spill_stores  spill_loads  kernel
 *   R  arch  symbol  threads  dynamic_smem  active_blocks  regs  static_smem
 *
 * one K line per report (kernel x target) and one R line per row of its
 * occupancy_table.  symbol is the report's "symbol" (the mangled name);
 * when the report has none (has_symbol 0) it is the "kernel" instead, so
 * that the other checks still run.  Exit 2 when the file is not such a
 * report.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t size = 0, cap = 65536;
    char *text = malloc(cap);
    size_t n;
    while (text && (n = fread(text + size, 1, cap - size - 1, f)) > 0) {
        size += n;
        if (size + 1 == cap) {
            char *bigger = realloc(text, cap *= 2);
            if (!bigger) {
                free(text);
                text = NULL;
                break;
            }
            text = bigger;
        }
    }
    fclose(f);
    if (text)
        text[size] = '\0';
    return text;
}

static const cJSON *get(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* An integer (printed without a fraction), "null", or "?" when absent. */
static void put_number(const cJSON *o, const char *key)
{
    const cJSON *v = get(o, key);
    if (cJSON_IsNumber(v))
        printf("\t%.0f", v->valuedouble);
    else if (cJSON_IsNull(v))
        fputs("\tnull", stdout);
    else
        fputs("\t?", stdout);
}

static const char *string_or(const cJSON *o, const char *key, const char *otherwise)
{
    const cJSON *v = get(o, key);
    return cJSON_IsString(v) ? v->valuestring : otherwise;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fputs("usage: report_rows REPORT.json\n", stderr);
        return 2;
    }
    char *text = slurp(argv[1]);
    cJSON *doc = text ? cJSON_Parse(text) : NULL;
    const cJSON *reports = doc ? get(doc, "reports") : NULL;
    if (!cJSON_IsArray(reports)) {
        fprintf(stderr, "report_rows: %s: not a silk-occ report (no \"reports\" array)\n", argv[1]);
        free(text);
        cJSON_Delete(doc);
        return 2;
    }
    const cJSON *r;
    cJSON_ArrayForEach(r, reports) {
        const char *arch = string_or(r, "arch", "?");
        const char *kernel = string_or(r, "kernel", "?");
        const char *symbol = string_or(r, "symbol", NULL);
        int has_symbol = symbol != NULL;
        if (!symbol)
            symbol = kernel;
        const cJSON *res = get(r, "resources");
        printf("K\t%s\t%s\t%d", arch, symbol, has_symbol);
        put_number(res, "regs_per_thread");
        put_number(res, "static_smem");
        put_number(res, "spill_stores");
        put_number(res, "spill_loads");
        /* The size a library's contract or --fixed-block-size pins (0: none). */
        const cJSON *pin = get(get(r, "selected"), "pin"), *pinned = get(pin, "threads");
        printf("\t%s\t%d\n", kernel, cJSON_IsNumber(pinned) ? pinned->valueint : 0);
        const cJSON *row;
        cJSON_ArrayForEach(row, get(r, "occupancy_table")) {
            printf("R\t%s\t%s", arch, symbol);
            put_number(row, "threads");
            put_number(row, "dynamic_smem");
            put_number(row, "active_blocks_per_sm");
            put_number(row, "regs_per_thread");
            put_number(row, "static_smem");
            putchar('\n');
        }
    }
    free(text);
    cJSON_Delete(doc);
    return 0;
}
