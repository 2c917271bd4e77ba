/*
 * check_cli.c: silk-occ as its users meet it, through the built program.
 *
 * Every case runs $SILK_OCC (posix_spawn, no shell, NO_COLOR=1, stdin from
 * /dev/null) and captures its stdout, its stderr and its exit status.  The
 * error cases (one table, one loop test per row) give each bad input --
 * unknown and misplaced names, out-of-range and malformed numbers and
 * sizes, limits of the target architecture, option and command mistakes,
 * missing and malformed --arch-table files -- and require exit status 2,
 * nothing on stdout and exactly the one expected line on stderr.  The
 * other cases check the non-multiple-of-32 warning; `calc --format json`
 * key by key against values worked out by hand from the rules of
 * occupancy/calc.c (the arithmetic is in the comments), with a product,
 * without an SM count, and for the three sweeps; `--format csv` parsed with
 * libcsv, against fixed values and against the JSON of the same run; the
 * key lines of the text output; the help and version output; `arch list`
 * and `arch show` in every format; and --arch-table files that override a
 * limit and add a product (the CSV files in tests/data, $SILK_TEST_DATA).
 *
 * Run through `make check`, which sets SILK_OCC and SILK_TEST_DATA; without
 * them the program skips (exit 77).
 */
#include <config.h>

#include <check.h>
#include <cjson/cJSON.h>
#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

enum { EXIT_USAGE_STATUS = 2, MAX_ARGS = 24, MAX_CSV_FIELDS = 48 };

/* Program output in a failure message, cut to what Check can carry. */
#define SHOW "%.1500s"

static const char *program;  /* $SILK_OCC */
static const char *data_dir; /* $SILK_TEST_DATA */

/* ---- running the program ------------------------------------------------ */

typedef struct Buffer {
    char *data; /* always NUL-terminated */
    size_t len, cap;
} Buffer;

static void buffer_append(Buffer *b, const char *data, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *grown = realloc(b->data, cap);
        ck_assert_msg(grown != NULL, "out of memory");
        b->data = grown;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, n);
    b->len += n;
    b->data[b->len] = '\0';
}

typedef struct Output {
    char *cmdline; /* "silk-occ calc --arch ...", for messages */
    int status;    /* the exit status; 128 + N when killed by signal N */
    Buffer out, err;
} Output;

/* Reads both pipes until both close, so that neither can fill and block. */
static void drain(int out_fd, int err_fd, Buffer *out, Buffer *err)
{
    struct pollfd fds[2] = {{.fd = out_fd, .events = POLLIN}, {.fd = err_fd, .events = POLLIN}};
    Buffer *bufs[2] = {out, err};
    int open_fds = 2;
    while (open_fds > 0) {
        if (poll(fds, 2, -1) < 0) {
            ck_assert_msg(errno == EINTR, "poll: %s", strerror(errno));
            continue;
        }
        for (int i = 0; i < 2; i++) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            char chunk[8192];
            ssize_t n = read(fds[i].fd, chunk, sizeof chunk);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                close(fds[i].fd);
                fds[i].fd = -1;
                open_fds--;
                continue;
            }
            buffer_append(bufs[i], chunk, (size_t)n);
        }
    }
}

/* Runs silk-occ with `args` (NULL-terminated, without the program name). */
static Output run_program(const char *const *args)
{
    Output o = {0};
    char *argv[MAX_ARGS + 2];
    int argc = 0;
    Buffer cmdline = {0};
    buffer_append(&cmdline, "silk-occ", 8);
    argv[argc++] = (char *)program;
    for (; args[argc - 1]; argc++) {
        ck_assert_msg(argc <= MAX_ARGS, "too many arguments");
        argv[argc] = (char *)args[argc - 1];
        buffer_append(&cmdline, " ", 1);
        buffer_append(&cmdline, args[argc - 1], strlen(args[argc - 1]));
    }
    argv[argc] = NULL;
    o.cmdline = cmdline.data;
    /* Empty outputs still read as "". */
    buffer_append(&o.out, "", 0);
    buffer_append(&o.err, "", 0);

    int out_pipe[2], err_pipe[2];
    ck_assert_msg(pipe(out_pipe) == 0 && pipe(err_pipe) == 0, "pipe: %s", strerror(errno));
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
    posix_spawn_file_actions_addclose(&actions, out_pipe[0]);
    posix_spawn_file_actions_addclose(&actions, out_pipe[1]);
    posix_spawn_file_actions_addclose(&actions, err_pipe[0]);
    posix_spawn_file_actions_addclose(&actions, err_pipe[1]);
    pid_t pid;
    int rc = posix_spawn(&pid, program, &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    close(out_pipe[1]);
    close(err_pipe[1]);
    ck_assert_msg(rc == 0, "cannot run %s: %s", program, strerror(rc));

    drain(out_pipe[0], err_pipe[0], &o.out, &o.err);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        ck_assert_msg(errno == EINTR, "waitpid: %s", strerror(errno));
    o.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return o;
}

#define RUN(...) run_program((const char *const[]){__VA_ARGS__, NULL})

static void output_free(Output *o)
{
    free(o->cmdline);
    free(o->out.data);
    free(o->err.data);
}

/* Exit status 0 and nothing on stderr. */
static void expect_success(const Output *o)
{
    ck_assert_msg(o->status == 0, "%s: exit status %d, want 0; stderr:\n" SHOW, o->cmdline,
                  o->status, o->err.data);
    ck_assert_msg(o->err.len == 0, "%s: unexpected stderr:\n" SHOW, o->cmdline, o->err.data);
}

static void expect_contains(const Output *o, const char *text, const char *want)
{
    ck_assert_msg(strstr(text, want) != NULL, "%s: output lacks\n  \"%s\"\nin:\n" SHOW, o->cmdline,
                  want, text);
}

static void expect_starts_with(const Output *o, const char *text, const char *want)
{
    ck_assert_msg(strncmp(text, want, strlen(want)) == 0,
                  "%s: output does not start with\n  \"%s\"\nbut is:\n" SHOW, o->cmdline, want, text);
}

/* `text` with every "@DATA@" replaced by $SILK_TEST_DATA; malloc'd. */
static char *expand(const char *text)
{
    Buffer b = {0};
    buffer_append(&b, "", 0);
    const char *p = text;
    const char *mark;
    while ((mark = strstr(p, "@DATA@")) != NULL) {
        buffer_append(&b, p, (size_t)(mark - p));
        buffer_append(&b, data_dir, strlen(data_dir));
        p = mark + 6;
    }
    buffer_append(&b, p, strlen(p));
    return b.data;
}

static char *data_file(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "@DATA@/%s", name);
    return expand(path);
}

/* ---- JSON --------------------------------------------------------------- */

/* The program's stdout as a JSON object; the exit status must be 0. */
/* stdout as a JSON object, from a run that exited with `status`. */
static cJSON *parse_json_status(const Output *o, int status)
{
    ck_assert_msg(o->status == status, "%s: exit status %d, want %d; stderr:\n" SHOW, o->cmdline,
                  o->status, status, o->err.data);
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(o->out.data, &end, true);
    ck_assert_msg(root != NULL, "%s: stdout is not JSON (near offset %ld):\n" SHOW, o->cmdline,
                  end ? (long)(end - o->out.data) : -1L, o->out.data);
    ck_assert_msg(cJSON_IsObject(root), "%s: JSON is not an object", o->cmdline);
    return root;
}

static cJSON *parse_json_stdout(const Output *o)
{
    return parse_json_status(o, 0);
}

/* The same, and nothing on stderr. */
static cJSON *parse_json(const Output *o)
{
    expect_success(o);
    return parse_json_stdout(o);
}

/* The item at a dotted path ("next_step.regs_to_cut"); it must exist. */
static const cJSON *json_at(const cJSON *root, const char *path)
{
    char key[128];
    const cJSON *item = root;
    const char *p = path;
    while (*p) {
        size_t n = strcspn(p, ".");
        ck_assert_msg(n < sizeof key, "path too long: %s", path);
        memcpy(key, p, n);
        key[n] = '\0';
        ck_assert_msg(cJSON_IsObject(item), "JSON: '%s' of '%s' is not inside an object", key, path);
        item = cJSON_GetObjectItemCaseSensitive(item, key);
        ck_assert_msg(item != NULL, "JSON: key '%s' missing", path);
        p += n + (p[n] == '.');
    }
    return item;
}

static void expect_number(const cJSON *root, const char *path, double want)
{
    const cJSON *item = json_at(root, path);
    ck_assert_msg(cJSON_IsNumber(item), "JSON: '%s' is not a number", path);
    double got = item->valuedouble;
    ck_assert_msg(fabs(got - want) <= 1e-12 * fmax(1.0, fabs(want)), "JSON: '%s' is %.17g, want %.17g",
                  path, got, want);
}

static void expect_null(const cJSON *root, const char *path)
{
    ck_assert_msg(cJSON_IsNull(json_at(root, path)), "JSON: '%s' is not null", path);
}

static void expect_string(const cJSON *root, const char *path, const char *want)
{
    const cJSON *item = json_at(root, path);
    ck_assert_msg(cJSON_IsString(item), "JSON: '%s' is not a string", path);
    ck_assert_msg(strcmp(item->valuestring, want) == 0, "JSON: '%s' is \"%s\", want \"%s\"", path,
                  item->valuestring, want);
}

static void expect_bool(const cJSON *root, const char *path, bool want)
{
    const cJSON *item = json_at(root, path);
    ck_assert_msg(cJSON_IsBool(item), "JSON: '%s' is not a boolean", path);
    ck_assert_msg(cJSON_IsTrue(item) == want, "JSON: '%s' is %s, want %s", path,
                  cJSON_IsTrue(item) ? "true" : "false", want ? "true" : "false");
}

/* limited_by: exactly these names, in this order (NULL-terminated). */
static void expect_limited_by(const cJSON *o, const char *const *want)
{
    const cJSON *list = json_at(o, "limited_by");
    ck_assert_msg(cJSON_IsArray(list), "JSON: 'limited_by' is not an array");
    int n = 0;
    while (want[n])
        n++;
    ck_assert_msg(cJSON_GetArraySize(list) == n, "JSON: 'limited_by' has %d names, want %d",
                  cJSON_GetArraySize(list), n);
    for (int i = 0; i < n; i++) {
        const cJSON *name = cJSON_GetArrayItem(list, i);
        ck_assert_msg(cJSON_IsString(name) && strcmp(name->valuestring, want[i]) == 0,
                      "JSON: limited_by[%d] is not \"%s\"", i, want[i]);
    }
}

#define LIMITED_BY(o, ...) expect_limited_by((o), (const char *const[]){__VA_ARGS__, NULL})

static const char *const limiter_names[] = {"warps",    "registers", "shared_memory",
                                            "blocks",   "barriers",  "virtual_resources"};
enum { N_LIMITERS = sizeof limiter_names / sizeof *limiter_names };

/* limits: the CTAs each resource allows, in limiter_names order; -1: null. */
static void expect_limits(const cJSON *o, const long want[N_LIMITERS])
{
    const cJSON *limits = json_at(o, "limits");
    ck_assert_msg(cJSON_GetArraySize(limits) == N_LIMITERS, "JSON: 'limits' has %d keys, want %d",
                  cJSON_GetArraySize(limits), N_LIMITERS);
    for (int i = 0; i < N_LIMITERS; i++) {
        char path[64];
        snprintf(path, sizeof path, "limits.%s", limiter_names[i]);
        if (want[i] < 0)
            expect_null(o, path);
        else
            expect_number(o, path, (double)want[i]);
    }
}

/* The keys a calc result and every sweep row share, for both vendors
 * (the other vendor's null): those of a report's occupancy-table row. */
static const char *const result_keys[] = {
    "threads", "regs_per_thread", "static_smem", "dynamic_smem", "warps_per_block",
    "active_blocks_per_sm", "active_warps_per_sm", "max_warps_per_sm", "waves_per_simd",
    "max_waves_per_simd", "occupancy", "limited_by", "limits", "limits_unit",
    "allocated_regs_per_block", "allocated_smem_per_block", "allocated_vgprs",
};
enum { N_RESULT_KEYS = sizeof result_keys / sizeof *result_keys };

/* A sweep row has exactly the result keys. */
static void expect_row_keys(const cJSON *row, int i)
{
    ck_assert_msg(cJSON_IsObject(row), "sweep row %d is not an object", i);
    ck_assert_msg(cJSON_GetArraySize(row) == N_RESULT_KEYS, "sweep row %d has %d keys, want %d", i,
                  cJSON_GetArraySize(row), N_RESULT_KEYS);
    for (int k = 0; k < N_RESULT_KEYS; k++)
        ck_assert_msg(cJSON_GetObjectItemCaseSensitive(row, result_keys[k]) != NULL,
                      "sweep row %d lacks '%s'", i, result_keys[k]);
}

static const cJSON *sweep_rows(const cJSON *root, const char *variable, int want_rows)
{
    expect_string(root, "sweep.variable", variable);
    const cJSON *rows = json_at(root, "sweep.rows");
    ck_assert_msg(cJSON_IsArray(rows), "JSON: 'sweep.rows' is not an array");
    ck_assert_msg(cJSON_GetArraySize(rows) == want_rows, "JSON: %d sweep rows, want %d",
                  cJSON_GetArraySize(rows), want_rows);
    for (int i = 0; i < want_rows; i++)
        expect_row_keys(cJSON_GetArrayItem(rows, i), i);
    return rows;
}

/* ---- CSV ---------------------------------------------------------------- */

typedef struct CsvRow {
    char *field[MAX_CSV_FIELDS];
    int n;
} CsvRow;

typedef struct CsvTable {
    CsvRow *rows;
    size_t n_rows, cap;
    CsvRow current;
    bool too_many_fields;
} CsvTable;

static void csv_on_field(void *data, size_t len, void *user)
{
    CsvTable *t = user;
    if (t->current.n == MAX_CSV_FIELDS) {
        t->too_many_fields = true;
        return;
    }
    char *copy = malloc(len + 1);
    ck_assert_msg(copy != NULL, "out of memory");
    memcpy(copy, data, len);
    copy[len] = '\0';
    t->current.field[t->current.n++] = copy;
}

static void csv_on_row(int terminator, void *user)
{
    (void)terminator;
    CsvTable *t = user;
    if (t->n_rows == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 64;
        t->rows = realloc(t->rows, t->cap * sizeof *t->rows);
        ck_assert_msg(t->rows != NULL, "out of memory");
    }
    t->rows[t->n_rows++] = t->current;
    t->current = (CsvRow){0};
}

/* The program's stdout as CSV rows (header first); the run must have
 * succeeded, every row must have as many fields as the header. */
static CsvTable parse_csv(const Output *o)
{
    expect_success(o);
    CsvTable t = {0};
    struct csv_parser parser;
    ck_assert_int_eq(csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI), 0);
    size_t used = csv_parse(&parser, o->out.data, o->out.len, csv_on_field, csv_on_row, &t);
    ck_assert_msg(used == o->out.len, "%s: CSV does not parse at byte %zu: %s", o->cmdline, used,
                  csv_strerror(csv_error(&parser)));
    ck_assert_msg(csv_fini(&parser, csv_on_field, csv_on_row, &t) == 0, "%s: CSV ends badly: %s",
                  o->cmdline, csv_strerror(csv_error(&parser)));
    csv_free(&parser);
    ck_assert_msg(!t.too_many_fields, "%s: a CSV row has more than %d fields", o->cmdline,
                  MAX_CSV_FIELDS);
    ck_assert_msg(t.n_rows > 0, "%s: no CSV header", o->cmdline);
    for (size_t i = 1; i < t.n_rows; i++)
        ck_assert_msg(t.rows[i].n == t.rows[0].n, "%s: CSV row %zu has %d fields, the header %d",
                      o->cmdline, i, t.rows[i].n, t.rows[0].n);
    return t;
}

static void csv_free_table(CsvTable *t)
{
    for (size_t i = 0; i < t->n_rows; i++)
        for (int j = 0; j < t->rows[i].n; j++)
            free(t->rows[i].field[j]);
    free(t->rows);
    *t = (CsvTable){0};
}

static void expect_csv_header(const CsvTable *t, const char *const *want, int n)
{
    ck_assert_msg(t->rows[0].n == n, "CSV header has %d columns, want %d", t->rows[0].n, n);
    for (int i = 0; i < n; i++)
        ck_assert_msg(strcmp(t->rows[0].field[i], want[i]) == 0,
                      "CSV header column %d is \"%s\", want \"%s\"", i + 1, t->rows[0].field[i],
                      want[i]);
}

static void expect_csv_row(const CsvTable *t, size_t row, const char *const *want)
{
    ck_assert_msg(row < t->n_rows, "CSV has no row %zu", row);
    for (int i = 0; i < t->rows[row].n; i++)
        ck_assert_msg(strcmp(t->rows[row].field[i], want[i]) == 0,
                      "CSV row %zu, column %s: \"%s\", want \"%s\"", row, t->rows[0].field[i],
                      t->rows[row].field[i], want[i]);
}

/* A CSV result row says what the JSON result object says: strings and
 * numbers alike, limited_by as ';'-joined names, limit_X as limits.X,
 * and an empty cell for a JSON null. */
static void expect_csv_matches_json(const CsvTable *t, size_t row, const cJSON *o, const cJSON *root)
{
    for (int i = 0; i < t->rows[0].n; i++) {
        const char *column = t->rows[0].field[i], *cell = t->rows[row].field[i];
        char path[96];
        if (strncmp(column, "limit_", 6) == 0) {
            /* The other vendor's limiters: in the header, empty in the row. */
            if (!cJSON_HasObjectItem(json_at(o, "limits"), column + 6)) {
                ck_assert_msg(cell[0] == '\0', "CSV row %zu: %s is \"%s\", not a limiter of the "
                              "row's vendor", row, column, cell);
                continue;
            }
            snprintf(path, sizeof path, "limits.%s", column + 6);
        } else
            snprintf(path, sizeof path, "%s", column);
        /* The target belongs to the whole run, not to a sweep row. */
        bool of_run = strcmp(column, "vendor") == 0 || strcmp(column, "arch") == 0 ||
                      strcmp(column, "compute_capability") == 0 || strcmp(column, "gpu") == 0 ||
                      strcmp(column, "sm_count") == 0;
        const cJSON *item = json_at(of_run ? root : o, path);
        if (strcmp(column, "limited_by") == 0) {
            char joined[256] = "";
            const cJSON *name;
            cJSON_ArrayForEach(name, item) {
                if (joined[0])
                    strcat(joined, ";");
                strcat(joined, name->valuestring);
            }
            ck_assert_msg(strcmp(cell, joined) == 0, "CSV row %zu: limited_by \"%s\", JSON \"%s\"",
                          row, cell, joined);
        } else if (cJSON_IsNull(item)) {
            ck_assert_msg(cell[0] == '\0', "CSV row %zu: %s is \"%s\", JSON null", row, column, cell);
        } else if (cJSON_IsString(item)) {
            ck_assert_msg(strcmp(cell, item->valuestring) == 0, "CSV row %zu: %s \"%s\", JSON \"%s\"",
                          row, column, cell, item->valuestring);
        } else {
            ck_assert_msg(cJSON_IsNumber(item), "JSON %s is neither null, string nor number", path);
            char *end;
            double v = strtod(cell, &end);
            ck_assert_msg(*cell && !*end, "CSV row %zu: %s \"%s\" is not a number", row, column, cell);
            /* The CSV writes occupancy with 6 decimals. */
            ck_assert_msg(fabs(v - item->valuedouble) <= 5e-7, "CSV row %zu: %s %s, JSON %.17g", row,
                          column, cell, item->valuedouble);
        }
    }
}

/* ---- the error messages --------------------------------------------------- */

typedef struct ErrorCase {
    const char *args[MAX_ARGS];
    const char *message; /* the whole of stderr, without its newline */
} ErrorCase;

/* "@DATA@" in arguments and messages is $SILK_TEST_DATA. */
#define CALC "calc", "--arch", "sm_90"
#define E "silk-occ calc: error: "
#define A "silk-occ arch: error: "
#define V "silk-occ verify: error: "
#define LIST_THEM "; 'silk-occ arch list' lists them"

static const ErrorCase error_cases[] = {
    /* names */
    {{"calc", "--arch", "sm_91", "--threads", "256", "--regs", "64"},
     E "--arch: unknown architecture 'sm_91' (did you mean 'sm_90'?)" LIST_THEM},
    {{"calc", "--arch", "hoper", "--threads", "256", "--regs", "64"},
     E "--arch: unknown architecture 'hoper' (did you mean 'hopper'?)" LIST_THEM},
    {{"calc", "--arch", "h100-sxm", "--threads", "256", "--regs", "64"},
     E "--arch: 'h100-sxm' is a GPU product, not an architecture: use --gpu h100-sxm"},
    {{"calc", "--gpu", "sm_90", "--threads", "256", "--regs", "64"},
     E "--gpu: 'sm_90' is an architecture, not a GPU product: use --arch sm_90"},
    {{"calc", "--gpu", "h10", "--threads", "256", "--regs", "64"},
     E "--gpu: unknown GPU 'h10' (did you mean 'h100'?)" LIST_THEM},
    /* a close name of the other kind comes with the option that takes it */
    {{"calc", "--gpu", "hoper", "--threads", "256", "--regs", "64"},
     E "--gpu: unknown GPU 'hoper' (did you mean --arch hopper?)" LIST_THEM},
    {{"calc", "--arch", "h10", "--threads", "256", "--regs", "64"},
     E "--arch: unknown architecture 'h10' (did you mean --gpu h100?)" LIST_THEM},
    {{"calc", "--gpu", "nosuchgpu", "--threads", "256", "--regs", "64"},
     E "--gpu: unknown GPU 'nosuchgpu'" LIST_THEM},
    /* --threads */
    {{CALC, "--threads", "0", "--regs", "64"}, E "--threads: '0' is too small (at least 1)"},
    {{CALC, "--threads", "-5", "--regs", "64"}, E "--threads: '-5' is negative (at least 1)"},
    {{CALC, "--threads", "2048", "--regs", "64"},
     E "--threads: 2048 is above the block limit of 1024 threads on sm_90"},
    {{CALC, "--threads", "99999999999999999999999", "--regs", "64"},
     E "--threads: '99999999999999999999999' is too large (at most 1073741824)"},
    {{CALC, "--threads", "abc", "--regs", "64"}, E "--threads: 'abc' is not a number"},
    {{CALC, "--threads", "12abc", "--regs", "64"}, E "--threads: '12abc' is not a whole number"},
    /* --regs */
    {{CALC, "--threads", "256", "--regs", "256"},
     E "--regs: 256 is above the 255 registers a thread may use on sm_90"},
    /* shared memory: the static limit (48 KiB on 9.0), the default and
     * opt-in limits (48 KiB, 227 KiB) of static + dynamic */
    {{CALC, "--threads", "256", "--regs", "64", "--smem", "64K"},
     E "--smem: 64 KiB of static shared memory is above the 48 KiB static limit per block on "
       "sm_90; larger sizes must be dynamic (--dyn-smem)"},
    {{CALC, "--threads", "256", "--regs", "64", "--dyn-smem", "100K", "--no-optin"},
     E "--dyn-smem: 100 KiB of shared memory per block is above the 48 KiB default limit on "
       "sm_90; drop --no-optin (the kernel opts in with cudaFuncSetAttribute(kernel, "
       "cudaFuncAttributeMaxDynamicSharedMemorySize, bytes)) to use up to 227 KiB"},
    {{CALC, "--threads", "256", "--regs", "64", "--dyn-smem", "300K"},
     E "--dyn-smem: 300 KiB of shared memory per block is above the 227 KiB opt-in limit on sm_90"},
    {{CALC, "--threads", "256", "--regs", "64", "--smem", "40K", "--dyn-smem", "200K"},
     E "--dyn-smem: 240 KiB of shared memory per block is above the 227 KiB opt-in limit on sm_90"},
    /* sizes */
    {{CALC, "--threads", "256", "--regs", "64", "--smem", "12Q"},
     E "--smem: '12Q' has an unknown unit 'Q' (use K/KiB or M/MiB)"},
    {{CALC, "--threads", "256", "--regs", "64", "--smem", "-4"}, E "--smem: '-4' is negative"},
    {{CALC, "--threads", "256", "--regs", "64", "--dyn-smem", "99999999999999999999999"},
     E "--dyn-smem: '99999999999999999999999' is too large"},
    {{CALC, "--threads", "256", "--regs", "64", "--dyn-smem", "9999999999999999999K"},
     E "--dyn-smem: '9999999999999999999K' is too large"},
    {{CALC, "--threads", "256", "--regs", "64", "--smem", "lots"},
     E "--smem: 'lots' is not a size (bytes, or a number with K/KiB or M/MiB); as a formula, "
       "1:1: unknown name 'lots' (the names are 'threads' and 'warps')"},
    /* other values */
    {{CALC, "--threads", "256", "--regs", "64", "--carveout", "150"},
     E "--carveout: '150' is too large (at most 100)"},
    {{CALC, "--threads", "256", "--regs", "64", "--carveout", "bogus"},
     E "--carveout: 'bogus' is not default, max-shared, max-l1, half or a percentage 0..100"},
    {{CALC, "--threads", "256", "--regs", "64", "--format", "xml"},
     E "--format: 'xml' is not a format (text, json, csv)"},
    {{CALC, "--threads", "256", "--regs", "64", "--sweep", "bogus"},
     E "--sweep: 'bogus' is not threads, regs or smem"},
    {{CALC, "--threads", "256", "--regs", "64", "--work", "0"},
     E "--work: '0' is too small (at least 1)"},
    {{CALC, "--threads", "256", "--regs", "64", "--work", "99999999999999999999"},
     E "--work: '99999999999999999999' is too large (at most 9223372036854775807)"},
    {{CALC, "--threads", "256", "--regs", "64", "--barriers", "17"},
     E "--barriers: '17' is too large (at most 16)"},
    {{CALC, "--threads", "256", "--regs", "64", "--sms", "0"}, E "--sms: '0' is too small (at least 1)"},
    /* the command line */
    {{CALC, "--threads", "256", "--regs", "64", "--frobnicate"},
     E "unknown option '--frobnicate'; 'silk-occ help calc' lists them"},
    {{CALC, "--threads", "256", "--regs"}, E "--regs: needs a value"},
    {{"calc", "--threads", "256", "--regs", "64", "--arch"}, E "--arch: needs a value"},
    {{CALC, "--regs", "64"}, E "--threads: required (threads per CTA)"},
    {{CALC, "--threads", "256"}, E "--regs: required (registers per thread, from ptxas -v)"},
    {{"calc", "--threads", "256", "--regs", "64"}, E "--arch or --gpu: the target GPU is required"},
    {{CALC, "--gpu", "h100", "--threads", "256", "--regs", "64"},
     E "--arch and --gpu: give one, not both"},
    {{CALC, "--threads", "256", "--regs", "64", "extra"}, E "unexpected argument 'extra'"},
    {{"frob"}, "silk-occ: error: unknown command 'frob'; 'silk-occ --help' lists the commands"},
    {{"help", "nosuch"}, "silk-occ: error: help: unknown command 'nosuch'"},
    /* arch */
    {{"arch", "show", "nosuch"}, A "unknown architecture or GPU 'nosuch'" LIST_THEM},
    {{"arch", "show", "hoper"}, A "unknown architecture or GPU 'hoper' (did you mean 'hopper'?)"},
    {{"arch", "frob"}, A "expected 'list' or 'show NAME'; 'silk-occ help arch' shows usage"},
    {{"arch"}, A "expected 'list' or 'show NAME'; 'silk-occ help arch' shows usage"},
    {{"arch", "show"}, A "show: give one architecture or GPU name"},
    {{"arch", "show", "sm_90", "--format", "csv"},
     A "--format: 'csv' is for 'arch list'; 'arch show' writes text or json"},
    {{"arch", "list", "--format", "xml"}, A "--format: 'xml' is not a format (text, json, csv)"},
    {{"arch", "list", "--frob"}, A "unknown option '--frob'; 'silk-occ help arch' lists them"},
    {{"arch", "list", "--format"}, A "--format: needs a value"},
    /* --arch-table: a missing file, and malformed ones (FILE:LINE: field) */
    {{CALC, "--threads", "256", "--regs", "64", "--arch-table", "@DATA@/no-such-table.csv"},
     E "--arch-table: @DATA@/no-such-table.csv: cannot open: No such file or directory"},
    {{"arch", "list", "--arch-table", "@DATA@/no-such-table.csv"},
     A "--arch-table: @DATA@/no-such-table.csv: cannot open: No such file or directory"},
    {{CALC, "--threads", "256", "--regs", "64", "--arch-table", "@DATA@/bad-not-integer.csv"},
     E "--arch-table: @DATA@/bad-not-integer.csv:3: field 'max_blocks_per_sm': 'lots' is not an "
       "integer"},
    {{CALC, "--threads", "256", "--regs", "64", "--arch-table", "@DATA@/bad-missing-column.csv"},
     E "--arch-table: @DATA@/bad-missing-column.csv:3: field 'max_threads_per_sm': missing (a new "
       "row must give every column)"},
    {{CALC, "--threads", "256", "--regs", "64", "--arch-table", "@DATA@/bad-unknown-column.csv"},
     E "--arch-table: @DATA@/bad-unknown-column.csv:1: field 'max_bananas': not a column of the "
       "compute-capability table"},
    {{CALC, "--threads", "256", "--regs", "64", "--arch-table", "@DATA@/bad-unterminated-quote.csv"},
     E "--arch-table: @DATA@/bad-unterminated-quote.csv:2: field 'family': malformed CSV: "
       "a quoted field that never closes"},
    {{CALC, "--threads", "256", "--regs", "64", "--arch-table", "@DATA@/bad-field-count.csv"},
     E "--arch-table: @DATA@/bad-field-count.csv:2: field 'regs_per_sm': the row has 2 fields, "
       "the header 3"},
    {{CALC, "--threads", "256", "--regs", "64", "--arch-table", "@DATA@/bad-out-of-range.csv"},
     E "--arch-table: @DATA@/bad-out-of-range.csv:2: field 'max_blocks_per_sm': 0 is outside "
       "1..65536"},
    {{"arch", "list", "--arch-table", "@DATA@/bad-product-cc.csv"},
     A "--arch-table: @DATA@/bad-product-cc.csv:2: field 'cc': 4.2 is not in the "
       "compute-capability table"},
    /* a good file first does not hide a bad one after it */
    {{"arch", "show", "sm_90", "--arch-table", "@DATA@/arch-blocks16.csv", "--arch-table",
      "@DATA@/bad-not-integer.csv"},
     A "--arch-table: @DATA@/bad-not-integer.csv:3: field 'max_blocks_per_sm': 'lots' is not an "
       "integer"},
    /* verify: options, files and records, all refused before a device is asked */
    {{"verify", "--device", "-1"}, V "--device: '-1' is negative (at least 0)"},
    {{"verify", "--device", "x"}, V "--device: 'x' is not a number"},
    {{"verify", "--device", "5000"}, V "--device: '5000' is too large (at most 1023)"},
    {{"verify", "--device"}, V "--device: needs a value"},
    {{"verify", "--format", "csv"}, V "--format: 'csv' is not a format (text, json)"},
    {{"verify", "--frob"}, V "unknown option '--frob'; 'silk-occ help verify' lists them"},
    {{"verify", "kernel.txt"}, V "kernel.txt: not a .silk, .ptx or .cubin file"},
    {{"verify", "@DATA@/no-such.ptx"}, V "@DATA@/no-such.ptx: cannot read: No such file or directory"},
    {{"verify", "--replay", "@DATA@/verify/h200-header.json", "k.ptx"},
     V "--replay: a record already holds its kernels; give no FILE and no --record"},
    {{"verify", "--replay", "@DATA@/verify/no-such.json"},
     V "--replay: @DATA@/verify/no-such.json: cannot read: No such file or directory"},
    {{"verify", "--replay", "@DATA@/verify/bad-json.json"},
     V "--replay: @DATA@/verify/bad-json.json:4:27: not valid JSON"},
    {{"verify", "--replay", "@DATA@/verify/bad-schema.json"},
     V "--replay: @DATA@/verify/bad-schema.json: schema: not a silk-occ verify record "
       "(\"silk-occ/verify-record/1\")"},
    {{"verify", "--replay", "@DATA@/verify/bad-field.json"},
     V "--replay: @DATA@/verify/bad-field.json: kernels[0].attributes.num_regs: missing, or not "
       "a number"},
};
enum { N_ERROR_CASES = sizeof error_cases / sizeof *error_cases };

START_TEST(test_error_message)
{
    const ErrorCase *c = &error_cases[_i];
    const char *args[MAX_ARGS + 1];
    char *expanded[MAX_ARGS];
    int n = 0;
    for (; n < MAX_ARGS && c->args[n]; n++)
        args[n] = expanded[n] = expand(c->args[n]);
    args[n] = NULL;
    char *message = expand(c->message);
    Output o = run_program(args);
    ck_assert_msg(o.status == EXIT_USAGE_STATUS, "%s: exit status %d, want %d; stderr:\n" SHOW,
                  o.cmdline, o.status, EXIT_USAGE_STATUS, o.err.data);
    ck_assert_msg(o.out.len == 0, "%s: an error wrote to stdout:\n" SHOW, o.cmdline, o.out.data);
    size_t len = strlen(message);
    ck_assert_msg(o.err.len == len + 1 && strncmp(o.err.data, message, len) == 0 &&
                      o.err.data[len] == '\n',
                  "%s: stderr is not the one expected line\n  want: %s\n  got:  " SHOW, o.cmdline,
                  message, o.err.data);
    output_free(&o);
    free(message);
    for (int i = 0; i < n; i++)
        free(expanded[i]);
}
END_TEST

/* `silk-occ` alone: the usage, on stderr, and exit status 2. */
START_TEST(test_no_command)
{
    Output o = run_program((const char *const[]){NULL});
    ck_assert_msg(o.status == EXIT_USAGE_STATUS, "exit status %d, want 2", o.status);
    ck_assert_msg(o.out.len == 0, "usage error wrote to stdout:\n" SHOW, o.out.data);
    expect_starts_with(&o, o.err.data, "usage: silk-occ COMMAND [OPTIONS]\n");
    expect_contains(&o, o.err.data, "\n  calc ");
    output_free(&o);
}
END_TEST

/* ---- the partial-warp warning ---------------------------------------------- */

/* 100 threads are 4 warps = 128 lanes; 28 idle, 28/128 = 21.875%. */
START_TEST(test_partial_warp_warning)
{
    static const char warning[] =
        "silk-occ calc: warning: --threads: 100 is not a multiple of 32: the last warp has 28 idle "
        "lanes, 21.9% of the CTA's 4 warps (128 lanes) wasted\n";
    Output o = RUN(CALC, "--threads", "100", "--regs", "64");
    ck_assert_msg(o.status == 0, "%s: exit status %d, want 0", o.cmdline, o.status);
    ck_assert_msg(strcmp(o.err.data, warning) == 0, "%s: stderr\n  want: %s  got:  " SHOW, o.cmdline,
                  warning, o.err.data);
    expect_contains(&o, o.out.data, "kernel: 100 threads per CTA (4 warps), 64 registers per thread");
    output_free(&o);

    /* The warning leaves stdout JSON alone.  4 warps of 2048 registers:
     * 8 warps fit a sub-partition's 16384, 8 * 4 / 4 = 8 CTAs, 32 warps. */
    o = RUN(CALC, "--threads", "100", "--regs", "64", "--format", "json");
    ck_assert_msg(strcmp(o.err.data, warning) == 0, "%s: stderr\n  want: %s  got:  " SHOW, o.cmdline,
                  warning, o.err.data);
    cJSON *root = parse_json_stdout(&o);
    expect_number(root, "threads", 100);
    expect_number(root, "warps_per_block", 4);
    expect_number(root, "active_blocks_per_sm", 8);
    expect_number(root, "occupancy", 0.5);
    cJSON_Delete(root);
    output_free(&o);

    /* A whole number of warps has no warning. */
    o = RUN(CALC, "--threads", "96", "--regs", "64");
    expect_success(&o);
    output_free(&o);
}
END_TEST

/* ---- calc --format json ------------------------------------------------------ */

/* sm_90, 256 threads, 64 registers, no shared memory:
 *   warps:     256 / 32 = 8 warps per CTA; 2048 / 32 = 64 warp slots; 64 / 8 = 8 CTAs
 *   registers: 64 * 32 = 2048 per warp (a multiple of the 256 unit); a
 *              sub-partition holds 65536 / 4 = 16384, so 8 warps; 4 * 8 = 32
 *              warps per SM = 4 CTAs; 2048 * 8 = 16384 per CTA
 *   shared:    0 + 1024 reserved = 1024 per CTA (a multiple of 128); the
 *              default carveout is the 228 KiB = 233472 B config; 233472 / 1024 = 228
 *   blocks 32; barriers 64 / 1 = 64; virtual resources: none on 9.0 (null)
 *   => 4 CTAs, registers binding, 32 of 64 warps, occupancy 0.5
 *   next step: 5 CTAs need 10 warps per sub-partition, 16384 / 10 -> at most
 *              1536 per warp = 48 per thread: cut 16; 65 registers round to
 *              2304 per warp, 7 warps, 3 CTAs: slack 0
 *   shared slack: 4 CTAs while 233472 / alloc >= 4, alloc <= 58368 (456 units)
 *              = 57344 + 1024 reserved: slack 57344
 *   best block: 1024 threads, 32 warps of 2048 = 65536 registers, 1 CTA (no
 *              size holds more than 32 warps' registers, larger wins ties) */
static void expect_sm90_256_64(const cJSON *root)
{
    expect_string(root, "schema", "silk-occ/calc/2");
    expect_string(root, "vendor", "nvidia");
    expect_string(root, "arch", "sm_90");
    expect_string(root, "compute_capability", "9.0");
    expect_string(root, "family", "Hopper");
    expect_number(root, "warp_size", 32);
    expect_string(root, "unit", "SM");
    expect_number(root, "threads", 256);
    expect_number(root, "regs_per_thread", 64);
    expect_number(root, "static_smem", 0);
    expect_number(root, "dynamic_smem", 0);
    expect_number(root, "warps_per_block", 8);
    expect_number(root, "active_blocks_per_sm", 4);
    expect_number(root, "active_warps_per_sm", 32);
    expect_number(root, "max_warps_per_sm", 64);
    expect_null(root, "waves_per_simd");
    expect_null(root, "max_waves_per_simd");
    expect_number(root, "occupancy", 0.5);
    LIMITED_BY(root, "registers");
    expect_limits(root, (const long[]){8, 4, 228, 32, 64, -1});
    expect_string(root, "limits_unit", "ctas_per_sm");
    expect_number(root, "allocated_regs_per_block", 16384);
    expect_number(root, "allocated_smem_per_block", 1024);
    expect_null(root, "allocated_vgprs");
    expect_null(root, "agprs");
    expect_null(root, "sgprs");
    expect_null(root, "waves_per_eu_max");
    expect_number(root, "barriers", 1);
    expect_bool(root, "smem_optin", true);
    expect_string(root, "carveout", "default");
    expect_number(root, "smem_per_sm", 233472);
    expect_number(root, "next_step.regs_to_cut", 16);
    expect_number(root, "next_step.regs_cut_blocks_per_sm", 5);
    expect_null(root, "next_step.smem_to_cut"); /* no shared memory to cut */
    expect_null(root, "next_step.smem_cut_blocks_per_sm");
    expect_null(root, "next_step.regs_cut_waves_per_simd");
    expect_null(root, "next_step.sgprs_to_cut");
    expect_number(root, "next_step.regs_slack", 0);
    expect_number(root, "next_step.smem_slack", 57344);
    /* 128, 256, 512 and 1024 all reach 32 warps: the guide's policy
     * advises 256, the runtime's search the largest. */
    expect_number(root, "best_block_size.threads", 256);
    expect_number(root, "best_block_size.active_blocks_per_sm", 4);
    expect_number(root, "runtime_block_size.threads", 1024);
    expect_number(root, "runtime_block_size.active_blocks_per_sm", 1);
}

START_TEST(test_json_arch)
{
    Output o = RUN(CALC, "--threads", "256", "--regs", "64", "--format", "json");
    cJSON *root = parse_json(&o);
    expect_sm90_256_64(root);
    expect_null(root, "gpu");
    expect_null(root, "sm_count");
    expect_null(root, "persistent_grid");
    expect_null(root, "best_block_size.min_grid");
    expect_null(root, "runtime_block_size.min_grid");
    ck_assert_msg(!cJSON_HasObjectItem(root, "work"), "'work' without --work");
    ck_assert_msg(!cJSON_HasObjectItem(root, "sweep"), "'sweep' without --sweep");
    cJSON_Delete(root);
    output_free(&o);

    /* Other names of 9.0 give the same answer. */
    const char *const names[] = {"9.0", "sm_90a", "compute_90", "HOPPER"};
    for (int i = 0; i < 4; i++) {
        o = RUN("calc", "--arch", names[i], "--threads", "256", "--regs", "64", "--format", "json");
        root = parse_json(&o);
        expect_sm90_256_64(root);
        cJSON_Delete(root);
        output_free(&o);
    }
}
END_TEST

/* h100-sxm: 132 SMs.  Work of 1000000 in CTAs of 256: ceil = 3907 CTAs
 * (3906 * 256 = 999936, the last has 64).  A wave is 132 * 4 = 528 CTAs:
 * 3907 / 528 = 7.3996..., 7 full (3696), the last 211 / 528; 8 waves
 * offer 4224 slots, 4224 - 3907 = 317 idle.  The tie of 128 and 256 goes
 * to the smaller tail: 7813 CTAs of 128 in waves of 1056 leave 635 of 8448
 * slots idle (7.517%), 256 leaves 317 of 4224 (7.505%).  Best block: 4
 * CTAs * 132 = 528; the runtime's 1024: 1 CTA * 132. */
START_TEST(test_json_gpu_work)
{
    Output o = RUN("calc", "--gpu", "h100-sxm", "--threads", "256", "--regs", "64", "--work",
                   "1000000", "--format", "json");
    cJSON *root = parse_json(&o);
    expect_sm90_256_64(root);
    expect_string(root, "gpu", "h100-sxm");
    expect_number(root, "sm_count", 132);
    expect_number(root, "persistent_grid", 528);
    expect_number(root, "best_block_size.min_grid", 528);
    expect_number(root, "runtime_block_size.min_grid", 132);
    expect_number(root, "work", 1000000);
    expect_number(root, "ctas", 3907);
    expect_number(root, "waves", 3907.0 / 528.0);
    expect_number(root, "full_waves", 7);
    expect_number(root, "last_wave_fill", 211.0 / 528.0);
    expect_number(root, "idle_fraction", 317.0 / 4224.0);
    expect_number(root, "tail_threads", 64);
    cJSON_Delete(root);
    output_free(&o);

    /* --sms replaces the product's count: 100 * 4 = 400 per wave,
     * 3907 / 400 = 9.7675, 9 full, the last 307 / 400, 93 of 4000 idle. */
    o = RUN(CALC, "--sms", "100", "--threads", "256", "--regs", "64", "--work", "1000000",
            "--format", "json");
    root = parse_json(&o);
    expect_null(root, "gpu");
    expect_number(root, "sm_count", 100);
    expect_number(root, "persistent_grid", 400);
    expect_number(root, "waves", 3907.0 / 400.0);
    expect_number(root, "full_waves", 9);
    expect_number(root, "last_wave_fill", 307.0 / 400.0);
    expect_number(root, "idle_fraction", 93.0 / 4000.0);
    cJSON_Delete(root);
    output_free(&o);

    /* Work of exactly one wave: 102400 / 256 = 400 CTAs = 100 * 4: one full
     * wave, the last (only) wave whole (fill 1), nothing idle, and the last
     * CTA a whole 256. */
    o = RUN(CALC, "--sms", "100", "--threads", "256", "--regs", "64", "--work", "102400",
            "--format", "json");
    root = parse_json(&o);
    expect_number(root, "ctas", 400);
    expect_number(root, "tail_threads", 256);
    expect_number(root, "waves", 1.0);
    expect_number(root, "full_waves", 1);
    expect_number(root, "last_wave_fill", 1.0);
    expect_number(root, "idle_fraction", 0.0);
    cJSON_Delete(root);
    output_free(&o);
}
END_TEST

/* --arch and --work: CTAs are known, waves are not. */
START_TEST(test_json_work_without_sms)
{
    Output o = RUN(CALC, "--threads", "256", "--regs", "64", "--work", "1000000", "--format", "json");
    cJSON *root = parse_json(&o);
    expect_sm90_256_64(root);
    expect_number(root, "work", 1000000);
    expect_number(root, "ctas", 3907);
    expect_number(root, "tail_threads", 64);
    expect_null(root, "waves");
    expect_null(root, "full_waves");
    expect_null(root, "last_wave_fill");
    expect_null(root, "idle_fraction");
    expect_null(root, "persistent_grid");
    cJSON_Delete(root);
    output_free(&o);
}
END_TEST

/* 256 threads, 32 registers, 28 KiB dynamic: 28672 + 1024 reserved = 29696
 * per CTA, 233472 / 29696 = 7.86: 7 CTAs, shared memory binding.  8 CTAs
 * need at most 233472 / 8 = 29184 per CTA, 28160 without the reservation:
 * cut 512 B.  Registers (1024 per warp, 16 warps per sub-partition, 8 CTAs)
 * gain nothing.  7 CTAs hold while alloc <= 233472 / 7 -> 260 units = 33280,
 * 32256 usable: slack 3584. */
START_TEST(test_json_shared_memory)
{
    Output o = RUN(CALC, "--threads", "256", "--regs", "32", "--dyn-smem", "28K", "--format", "json");
    cJSON *root = parse_json(&o);
    expect_number(root, "dynamic_smem", 28672);
    expect_number(root, "active_blocks_per_sm", 7);
    expect_number(root, "active_warps_per_sm", 56);
    expect_number(root, "occupancy", 56.0 / 64.0);
    LIMITED_BY(root, "shared_memory");
    expect_limits(root, (const long[]){8, 8, 7, 32, 64, -1});
    expect_number(root, "allocated_regs_per_block", 8192);
    expect_number(root, "allocated_smem_per_block", 29696);
    expect_null(root, "next_step.regs_to_cut");
    expect_null(root, "next_step.regs_cut_blocks_per_sm");
    expect_number(root, "next_step.smem_to_cut", 512);
    expect_number(root, "next_step.smem_cut_blocks_per_sm", 8);
    expect_number(root, "next_step.smem_slack", 3584);
    cJSON_Delete(root);
    output_free(&o);

    /* --carveout 50: 50% of 233472 = 116736 -> the 132 KiB (135168) config;
     * 135168 / 29696 = 4.55: 4 CTAs. */
    o = RUN(CALC, "--threads", "256", "--regs", "32", "--dyn-smem", "28K", "--carveout", "50",
            "--format", "json");
    root = parse_json(&o);
    expect_number(root, "carveout", 50);
    expect_number(root, "smem_per_sm", 135168);
    expect_number(root, "active_blocks_per_sm", 4);
    LIMITED_BY(root, "shared_memory");
    cJSON_Delete(root);
    output_free(&o);
}
END_TEST

/* --barriers 16: 64 / 16 = 4 CTAs of 32 threads and 16 registers (512 per
 * warp, 32 warps per sub-partition, 128 CTAs; 64 warps; 32 CTA slots). */
START_TEST(test_json_barriers)
{
    Output o = RUN(CALC, "--threads", "32", "--regs", "16", "--barriers", "16", "--format", "json");
    cJSON *root = parse_json(&o);
    expect_number(root, "barriers", 16);
    expect_number(root, "active_blocks_per_sm", 4);
    LIMITED_BY(root, "barriers");
    expect_limits(root, (const long[]){64, 128, 228, 32, 4, -1});
    cJSON_Delete(root);
    output_free(&o);
}
END_TEST

/* Registers 0..255 at 256 threads: 256 rows.  32 registers: 1024 per warp,
 * 16 warps per sub-partition, 16 * 4 / 8 = 8 CTAs = the 8 the warp slots
 * allow: both bind.  0 registers: no register limit (null).  255: 8160 ->
 * 8192 per warp, 2 warps per sub-partition, 8 / 8 = 1 CTA, 65536 per CTA. */
START_TEST(test_json_sweep_regs)
{
    Output o = RUN(CALC, "--threads", "256", "--sweep", "regs", "--format", "json");
    cJSON *root = parse_json(&o);
    const cJSON *rows = sweep_rows(root, "regs", 256);
    for (int i = 0; i < 256; i++) {
        const cJSON *row = cJSON_GetArrayItem(rows, i);
        expect_number(row, "regs_per_thread", i);
        expect_number(row, "threads", 256);
    }
    const cJSON *r0 = cJSON_GetArrayItem(rows, 0);
    expect_number(r0, "active_blocks_per_sm", 8);
    LIMITED_BY(r0, "warps");
    expect_limits(r0, (const long[]){8, -1, 228, 32, 64, -1});
    const cJSON *r32 = cJSON_GetArrayItem(rows, 32);
    expect_number(r32, "active_blocks_per_sm", 8);
    expect_number(r32, "active_warps_per_sm", 64);
    expect_number(r32, "occupancy", 1.0);
    LIMITED_BY(r32, "warps", "registers");
    expect_limits(r32, (const long[]){8, 8, 228, 32, 64, -1});
    expect_number(r32, "allocated_regs_per_block", 8192);
    const cJSON *r64 = cJSON_GetArrayItem(rows, 64); /* the worked example: 4 */
    expect_number(r64, "active_blocks_per_sm", 4);
    LIMITED_BY(r64, "registers");
    const cJSON *r255 = cJSON_GetArrayItem(rows, 255);
    expect_number(r255, "active_blocks_per_sm", 1);
    expect_number(r255, "allocated_regs_per_block", 65536);
    cJSON_Delete(root);
    output_free(&o);
}
END_TEST

/* Threads 32..1024 by warps at 64 registers: 32 rows.  32 threads: one warp,
 * 32 CTAs by registers (8 warps per sub-partition * 4) and by CTA slots.
 * 1024 threads: 32 warps of 2048 = 65536 registers, 1 CTA. */
START_TEST(test_json_sweep_threads)
{
    Output o = RUN(CALC, "--regs", "64", "--sweep", "threads", "--format", "json");
    cJSON *root = parse_json(&o);
    const cJSON *rows = sweep_rows(root, "threads", 32);
    for (int i = 0; i < 32; i++)
        expect_number(cJSON_GetArrayItem(rows, i), "threads", 32 * (i + 1));
    const cJSON *first = cJSON_GetArrayItem(rows, 0);
    expect_number(first, "active_blocks_per_sm", 32);
    LIMITED_BY(first, "registers", "blocks");
    expect_number(cJSON_GetArrayItem(rows, 7), "active_blocks_per_sm", 4); /* 256 threads */
    const cJSON *last = cJSON_GetArrayItem(rows, 31);
    expect_number(last, "active_blocks_per_sm", 1);
    expect_number(last, "allocated_regs_per_block", 65536);
    LIMITED_BY(last, "registers");
    cJSON_Delete(root);
    output_free(&o);
}
END_TEST

/* Shared memory from 0 by 128-byte units up to the opt-in limit 232448:
 * 232448 / 128 + 1 = 1817 rows.  Row 224: 28672 (see test_json_shared_memory),
 * 7 CTAs.  The last: 232448 + 1024 = 233472, the whole SM, 1 CTA. */
START_TEST(test_json_sweep_smem)
{
    Output o = RUN(CALC, "--threads", "256", "--regs", "32", "--sweep", "smem", "--format", "json");
    cJSON *root = parse_json(&o);
    const cJSON *rows = sweep_rows(root, "smem", 1817);
    const cJSON *r224 = cJSON_GetArrayItem(rows, 224);
    expect_number(r224, "dynamic_smem", 28672);
    expect_number(r224, "static_smem", 0);
    expect_number(r224, "active_blocks_per_sm", 7);
    expect_number(r224, "allocated_smem_per_block", 29696);
    LIMITED_BY(r224, "shared_memory");
    const cJSON *last = cJSON_GetArrayItem(rows, 1816);
    expect_number(last, "dynamic_smem", 232448);
    expect_number(last, "active_blocks_per_sm", 1);
    expect_number(last, "allocated_smem_per_block", 233472);
    cJSON_Delete(root);
    output_free(&o);
}
END_TEST

/* ---- calc --format csv ------------------------------------------------------- */

/* The same columns for both vendors: the report's CSV's that a
 * calculation has. */
static const char *const calc_csv_header[] = {
    "vendor", "arch", "compute_capability", "gpu", "sm_count", "threads", "regs_per_thread",
    "static_smem", "dynamic_smem", "warps_per_block", "active_blocks_per_sm",
    "active_warps_per_sm", "max_warps_per_sm", "waves_per_simd", "max_waves_per_simd",
    "occupancy", "limited_by", "limit_warps", "limit_registers", "limit_shared_memory",
    "limit_blocks", "limit_barriers", "limit_virtual_resources", "limit_waves", "limit_vgprs",
    "limit_sgprs", "limit_lds", "limit_workgroups", "limit_waves_per_eu",
    "allocated_regs_per_block", "allocated_smem_per_block",
};
enum { CSV_GPU = 3, CSV_THREADS = 5, CSV_REGS = 6, CSV_DYNAMIC_SMEM = 8, CSV_LIMITED_BY = 16 };
enum { N_CALC_CSV_COLUMNS = sizeof calc_csv_header / sizeof *calc_csv_header };

START_TEST(test_csv_single)
{
    /* The worked example of test_json_arch. */
    Output o = RUN(CALC, "--threads", "256", "--regs", "64", "--format", "csv");
    CsvTable t = parse_csv(&o);
    expect_csv_header(&t, calc_csv_header, N_CALC_CSV_COLUMNS);
    ck_assert_msg(t.n_rows == 2, "%zu CSV rows, want a header and 1", t.n_rows);
    expect_csv_row(&t, 1, (const char *const[]){"nvidia", "sm_90", "9.0", "", "", "256", "64", "0",
                                                "0", "8", "4", "32", "64", "", "", "0.500000",
                                                "registers", "8", "4", "228", "32", "64", "", "",
                                                "", "", "", "", "", "16384", "1024"});
    Output j = RUN(CALC, "--threads", "256", "--regs", "64", "--format", "json");
    cJSON *root = parse_json(&j);
    expect_csv_matches_json(&t, 1, root, root);
    cJSON_Delete(root);
    output_free(&j);
    csv_free_table(&t);
    output_free(&o);

    /* A product fills the gpu column; two binding limiters join with ';'. */
    o = RUN("calc", "--gpu", "h100-sxm", "--threads", "256", "--sweep", "regs", "--format", "csv");
    t = parse_csv(&o);
    ck_assert_msg(t.n_rows == 257, "%zu CSV rows, want a header and 256", t.n_rows);
    ck_assert_str_eq(t.rows[33].field[CSV_GPU], "h100-sxm");
    ck_assert_str_eq(t.rows[33].field[CSV_REGS], "32");
    ck_assert_str_eq(t.rows[33].field[CSV_LIMITED_BY], "warps;registers");
    j = RUN("calc", "--gpu", "h100-sxm", "--threads", "256", "--sweep", "regs", "--format", "json");
    root = parse_json(&j);
    const cJSON *rows = sweep_rows(root, "regs", 256);
    for (int i = 0; i < 256; i++)
        expect_csv_matches_json(&t, (size_t)i + 1, cJSON_GetArrayItem(rows, i), root);
    cJSON_Delete(root);
    output_free(&j);
    csv_free_table(&t);
    output_free(&o);
}
END_TEST

/* 32 thread counts on sm_90 (32..1024); each row as its JSON twin. */
START_TEST(test_csv_sweep_threads)
{
    Output o = RUN(CALC, "--regs", "64", "--sweep", "threads", "--format", "csv");
    CsvTable t = parse_csv(&o);
    expect_csv_header(&t, calc_csv_header, N_CALC_CSV_COLUMNS);
    ck_assert_msg(t.n_rows == 33, "%zu CSV rows, want a header and 32", t.n_rows);
    for (size_t i = 1; i <= 32; i++) {
        char want[16];
        snprintf(want, sizeof want, "%zu", 32 * i);
        ck_assert_str_eq(t.rows[i].field[CSV_THREADS], want);
    }
    Output j = RUN(CALC, "--regs", "64", "--sweep", "threads", "--format", "json");
    cJSON *root = parse_json(&j);
    const cJSON *rows = sweep_rows(root, "threads", 32);
    for (int i = 0; i < 32; i++)
        expect_csv_matches_json(&t, (size_t)i + 1, cJSON_GetArrayItem(rows, i), root);
    cJSON_Delete(root);
    output_free(&j);
    csv_free_table(&t);
    output_free(&o);

    /* Without opt-in the shared-memory sweep stops at 48 KiB: 49152 / 128 + 1. */
    o = RUN(CALC, "--threads", "256", "--regs", "32", "--sweep", "smem", "--no-optin", "--format",
            "csv");
    t = parse_csv(&o);
    ck_assert_msg(t.n_rows == 386, "%zu CSV rows, want a header and 385", t.n_rows);
    ck_assert_str_eq(t.rows[385].field[CSV_DYNAMIC_SMEM], "49152");
    csv_free_table(&t);
    output_free(&o);
}
END_TEST

/* ---- calc text ------------------------------------------------------------------ */

START_TEST(test_text)
{
    Output o = RUN(CALC, "--threads", "256", "--regs", "64");
    expect_success(&o);
    const char *out = o.out.data;
    expect_starts_with(&o, out, "sm_90 (Hopper, compute capability 9.0)\n"
                                "kernel: 256 threads per CTA (8 warps), 64 registers per thread, "
                                "0 B static + 0 B dynamic shared memory, 1 barrier\n");
    expect_contains(&o, out, "\n  warp slots                  8\n");
    expect_contains(&o, out, "\n  registers                   4  <- limits\n");
    expect_contains(&o, out, "\n  shared memory             228\n");
    expect_contains(&o, out, "\n  virtual resources           -\n");
    expect_contains(&o, out, "\n  4 CTAs per SM, 32 of 64 warps: 50.0% theoretical occupancy\n");
    expect_contains(&o, out, "\n  allocated per CTA: 16384 registers, 1 KiB shared memory "
                             "(1 KiB reserved by the driver)\n");
    expect_contains(&o, out, "\nRegisters limit occupancy: a CTA is allocated 16384 registers (64 "
                             "per thread, in 256-register units per warp, each warp in one of 4 "
                             "sub-partitions of 16384 registers), so 4 CTAs fit in the SM's 65536.\n");
    expect_contains(&o, out, "\nNext step: cut 16 registers per thread (to 48) for 5 CTAs per SM "
                             "(62.5%).\n");
    expect_contains(&o, out, "\nSlack: 0 more registers per thread, 56 KiB more shared memory per "
                             "CTA, before losing a CTA.\n");
    expect_contains(&o, out, "\nBest block size for this kernel: 256 threads (4 CTAs per SM, "
                             "50.0%); the runtime's cudaOccupancyMaxPotentialBlockSize: 1024 "
                             "threads (1 CTA per SM).\n");
    ck_assert_msg(strchr(out, '\033') == NULL, "colour escapes with NO_COLOR set:\n" SHOW, out);
    ck_assert_msg(strstr(out, "Work of") == NULL, "waves without --work:\n" SHOW, out);
    output_free(&o);

    /* 255 registers (2 warps per sub-partition, 8 per SM): 32..256 threads
     * all reach 8 warps and 512 fits none, so the policy and the runtime
     * both answer 256 and the runtime's is not repeated. */
    o = RUN(CALC, "--threads", "256", "--regs", "255");
    expect_success(&o);
    expect_contains(&o, o.out.data, "\nBest block size for this kernel: 256 threads (1 CTA per "
                                    "SM, 12.5%).\n");
    output_free(&o);

    o = RUN("calc", "--gpu", "h100-sxm", "--threads", "256", "--regs", "64", "--work", "1000000");
    expect_success(&o);
    out = o.out.data;
    expect_starts_with(&o, out, "sm_90 (Hopper, compute capability 9.0), H100 SXM5 80GB, 132 SMs\n");
    expect_contains(&o, out, "\nWork of 1000000 items: 3907 CTAs of 256 threads (the last has 64).\n"
                             "On 132 SMs at 4 CTAs each, a wave is 528 CTAs: 7.40 waves, 7 full, "
                             "the last 40.0% full; 7.5% of CTA slots idle.\n"
                             "Persistent grid: 528 CTAs (132 SMs x 4).\n");
    output_free(&o);

    o = RUN(CALC, "--threads", "256", "--regs", "64", "--work", "1000000");
    expect_success(&o);
    expect_contains(&o, o.out.data, "\nWork of 1000000 items: 3907 CTAs. Give --gpu or --sms N for "
                                    "waves, the last wave's fill and the persistent grid.\n");
    output_free(&o);

    o = RUN(CALC, "--threads", "256", "--regs", "32", "--dyn-smem", "28K");
    expect_success(&o);
    expect_contains(&o, o.out.data, "\nShared memory limits occupancy: a CTA is allocated 29 KiB (in "
                                    "128-byte units) of a 228 KiB carveout, so 7 CTAs fit.\n"
                                    "Next step: cutting registers alone gains no CTA; or cut 512 B of "
                                    "shared memory per CTA (to 27.50 KiB) for 8 CTAs per SM (100.0%).\n");
    output_free(&o);

    /* One CTA is singular: 1024 threads of 64 registers (see test_json_arch:
     * 32 warps of 2048 fill the register file); 32 registers halve that. */
    o = RUN(CALC, "--threads", "1024", "--regs", "64");
    expect_success(&o);
    expect_contains(&o, o.out.data, "\n  1 CTA per SM, 32 of 64 warps: 50.0% theoretical occupancy\n");
    expect_contains(&o, o.out.data, "), so 1 CTA fits in the SM's 65536.\n"
                                    "Next step: cut 32 registers per thread (to 32) for 2 CTAs per SM "
                                    "(100.0%).\n");
    output_free(&o);

    o = RUN(CALC, "--threads", "32", "--regs", "16", "--barriers", "16");
    expect_success(&o);
    expect_contains(&o, o.out.data, "\nNamed barriers limit occupancy: the SM has 64 for its CTAs "
                                    "and each uses 16, so 4 CTAs fit.\n");
    output_free(&o);

    /* The register sweep folds runs of equal results (see test_json_sweep_regs). */
    o = RUN(CALC, "--threads", "256", "--sweep", "regs");
    expect_success(&o);
    expect_contains(&o, o.out.data, "\n0-24                          8       64     100.0%  warp slots\n"
                                    "25-32                         8       64     100.0%  warp slots, "
                                    "registers\n");
    expect_contains(&o, o.out.data, "\n49-64                         4       32      50.0%  registers\n");
    expect_contains(&o, o.out.data, "\n129-255                       1        8      12.5%  registers\n");
    output_free(&o);
}
END_TEST

/* ---- help and version --------------------------------------------------------- */

static const char calc_usage[] =
    "usage: silk-occ calc (--arch ARCH | --gpu PRODUCT) --threads N --regs R [options]\n";
static const char arch_usage[] = "usage: silk-occ arch list [--format text|json|csv] [--arch-table FILE]\n";

START_TEST(test_help)
{
    static const struct {
        const char *args[3];
        const char *starts;
    } cases[] = {
        {{"--help"}, "usage: silk-occ COMMAND [OPTIONS]\n"},
        {{"-h"}, "usage: silk-occ COMMAND [OPTIONS]\n"},
        {{"help"}, "usage: silk-occ COMMAND [OPTIONS]\n"},
        {{"help", "calc"}, calc_usage},
        {{"calc", "--help"}, calc_usage},
        {{"help", "arch"}, arch_usage},
        {{"arch", "--help"}, arch_usage},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *args[4] = {cases[i].args[0], cases[i].args[1], cases[i].args[2], NULL};
        Output o = run_program(args);
        expect_success(&o);
        expect_starts_with(&o, o.out.data, cases[i].starts);
        output_free(&o);
    }

    Output o = RUN("--help");
    expect_contains(&o, o.out.data, "\n  calc     ");
    expect_contains(&o, o.out.data, "\n  arch     ");
    output_free(&o);

    /* help calc and calc --help are the same text, with every option. */
    Output a = RUN("help", "calc"), b = RUN("calc", "--help");
    ck_assert_str_eq(a.out.data, b.out.data);
    const char *const options[] = {"--arch ", "--gpu ", "--threads ", "--regs ", "--smem ",
                                   "--dyn-smem ", "--barriers ", "--no-optin ", "--carveout ",
                                   "--work ", "--sms ", "--sweep ", "--format ", "--arch-table "};
    for (size_t i = 0; i < sizeof options / sizeof *options; i++)
        expect_contains(&a, a.out.data, options[i]);
    output_free(&a);
    output_free(&b);

    o = RUN("--version");
    expect_success(&o);
    ck_assert_str_eq(o.out.data, "silk-occ " PACKAGE_VERSION "\n");
    output_free(&o);
}
END_TEST

/* ---- arch ----------------------------------------------------------------------- */

static const char *const all_ccs[][2] = {
    {"5.0", "sm_50"}, {"5.2", "sm_52"},   {"5.3", "sm_53"},   {"6.0", "sm_60"},   {"6.1", "sm_61"},
    {"6.2", "sm_62"}, {"7.0", "sm_70"},   {"7.2", "sm_72"},   {"7.5", "sm_75"},   {"8.0", "sm_80"},
    {"8.6", "sm_86"}, {"8.7", "sm_87"},   {"8.9", "sm_89"},   {"9.0", "sm_90"},   {"10.0", "sm_100"},
    {"10.3", "sm_103"}, {"11.0", "sm_110"}, {"12.0", "sm_120"}, {"12.1", "sm_121"},
};
enum { N_CCS = sizeof all_ccs / sizeof *all_ccs };

/* Some products the built-in table has, with their cc and SM count. */
static const struct {
    const char *id, *cc;
    int sms;
} some_products[] = {
    {"gtx-750-ti", "5.0", 5}, {"t4", "7.5", 40},      {"a100-80gb", "8.0", 108},
    {"l4", "8.9", 58},        {"h100-sxm", "9.0", 132}, {"h200", "9.0", 132},
    {"b200", "10.0", 148},    {"gb10", "12.1", 48},
};

static int count_json_array(const Output *o, const char *key)
{
    cJSON *root = parse_json(o);
    const cJSON *list = json_at(root, key);
    ck_assert_msg(cJSON_IsArray(list), "'%s' is not an array", key);
    int n = cJSON_GetArraySize(list);
    cJSON_Delete(root);
    return n;
}

START_TEST(test_arch_list)
{
    Output text = RUN("arch", "list");
    expect_success(&text);
    for (int i = 0; i < N_CCS; i++) {
        char line[64];
        snprintf(line, sizeof line, "\n%-5s %-8s ", all_ccs[i][0], all_ccs[i][1]);
        expect_contains(&text, text.out.data, line);
    }
    for (size_t i = 0; i < sizeof some_products / sizeof *some_products; i++) {
        char line[64];
        snprintf(line, sizeof line, "\n%-20s ", some_products[i].id);
        expect_contains(&text, text.out.data, line);
    }

    /* JSON: both vendors' rows in one array each, NVIDIA's first, each
     * with its vendor and its name as "arch". */
    Output json = RUN("arch", "list", "--format", "json");
    cJSON *root = parse_json(&json);
    expect_string(root, "schema", "silk-occ/arch/2");
    const cJSON *archs = json_at(root, "architectures");
    int n_archs = cJSON_GetArraySize(archs);
    ck_assert_int_gt(n_archs, N_CCS);
    for (int i = 0; i < n_archs; i++) {
        const cJSON *a = cJSON_GetArrayItem(archs, i);
        expect_string(a, "vendor", i < N_CCS ? "nvidia" : "amd");
        if (i < N_CCS) {
            expect_string(a, "cc", all_ccs[i][0]);
            expect_string(a, "arch", all_ccs[i][1]);
        }
    }
    const cJSON *gfx942 = NULL, *a;
    cJSON_ArrayForEach(a, archs) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(a, "arch");
        if (cJSON_IsString(name) && strcmp(name->valuestring, "gfx942") == 0)
            gfx942 = a;
    }
    ck_assert_msg(gfx942 != NULL, "arch list JSON lacks gfx942");
    expect_number(gfx942, "max_waves_per_simd", 8);
    expect_number(gfx942, "lds_per_unit", 65536);
    const cJSON *sm90 = cJSON_GetArrayItem(archs, 13);
    expect_number(sm90, "max_threads_per_sm", 2048);
    expect_number(sm90, "max_blocks_per_sm", 32);
    expect_number(sm90, "smem_per_block_optin", 232448);
    const cJSON *gpus = json_at(root, "gpus");
    int n_gpus = cJSON_GetArraySize(gpus), n_nvidia_gpus = 0;
    cJSON_ArrayForEach(a, gpus) {
        const cJSON *vendor = cJSON_GetObjectItemCaseSensitive(a, "vendor");
        ck_assert_msg(cJSON_IsString(vendor), "a gpu of arch list JSON lacks its vendor");
        n_nvidia_gpus += strcmp(vendor->valuestring, "nvidia") == 0;
    }
    for (size_t i = 0; i < sizeof some_products / sizeof *some_products; i++) {
        const cJSON *found = NULL, *g;
        cJSON_ArrayForEach(g, gpus) {
            const cJSON *id = cJSON_GetObjectItemCaseSensitive(g, "id");
            if (cJSON_IsString(id) && strcmp(id->valuestring, some_products[i].id) == 0)
                found = g;
        }
        ck_assert_msg(found != NULL, "arch list JSON lacks %s", some_products[i].id);
        expect_string(found, "cc", some_products[i].cc);
        expect_number(found, "sm_count", some_products[i].sms);
    }

    /* CSV: a header, one row per architecture, then one per product, of
     * both vendors, with the same columns. */
    Output csv = RUN("arch", "list", "--format", "csv");
    CsvTable t = parse_csv(&csv);
    expect_csv_header(&t, (const char *const[]){"kind", "vendor", "name", "cc", "arch", "unit",
                                                "sm_count", "max_threads_per_sm",
                                                "max_blocks_per_sm", "smem_per_sm"}, 10);
    ck_assert_msg(t.n_rows == 1 + (size_t)n_archs + (size_t)n_gpus,
                  "arch list CSV has %zu rows, want 1 + %d + %d", t.n_rows, n_archs, n_gpus);
    expect_csv_row(&t, 14, (const char *const[]){"arch", "nvidia", "sm_90", "9.0", "sm_90", "SM", "",
                                                 "2048", "32", "233472"});
    bool found_h200 = false, found_mi300x = false;
    for (size_t i = 1 + (size_t)n_archs; i < t.n_rows; i++) {
        ck_assert_str_eq(t.rows[i].field[0], "gpu");
        if (strcmp(t.rows[i].field[2], "h200") == 0) {
            expect_csv_row(&t, i, (const char *const[]){"gpu", "nvidia", "h200", "9.0", "sm_90", "SM",
                                                        "132", "2048", "32", "233472"});
            found_h200 = true;
        }
        if (strcmp(t.rows[i].field[2], "mi300x") == 0) {
            expect_csv_row(&t, i, (const char *const[]){"gpu", "amd", "mi300x", "", "gfx942", "CU",
                                                        "304", "", "", "65536"});
            found_mi300x = true;
        }
    }
    ck_assert_msg(found_h200 && found_mi300x, "arch list CSV lacks h200 or mi300x");
    /* The text lists as many products: one line each after the blank line,
     * up to the next one (the AMD targets and products follow). */
    const char *products = strstr(text.out.data, "\n\n");
    ck_assert_ptr_nonnull(products);
    int lines = 0;
    for (const char *p = products + 2; *p && !(p[0] == '\n' && p[-1] == '\n'); p++)
        lines += *p == '\n';
    /* The gfx column is as wide as the longest name, gfx1100+wave64+cumode. */
    ck_assert_ptr_nonnull(strstr(text.out.data, "\ngfx942                CDNA3"));
    ck_assert_ptr_nonnull(strstr(text.out.data, "\ngfx1100+wave64+cumode RDNA3"));
    ck_assert_int_eq(lines, 1 + n_nvidia_gpus);
    csv_free_table(&t);
    cJSON_Delete(root);
    output_free(&csv);
    output_free(&json);
    output_free(&text);
}
END_TEST

START_TEST(test_arch_show)
{
    Output o = RUN("arch", "show", "sm_90");
    expect_success(&o);
    expect_starts_with(&o, o.out.data, "sm_90: Hopper, compute capability 9.0\n");
    expect_contains(&o, o.out.data, "\n  threads per SM             2048 (64 warps)\n");
    expect_contains(&o, o.out.data, "\n  CTAs per SM                32\n");
    expect_contains(&o, o.out.data, "\n  shared memory per CTA      48 KiB, 227 KiB with opt-in\n");
    expect_contains(&o, o.out.data, "\n  names                      9.0 sm_90 compute_90 sm_90a hopper\n");
    /* Other names of the same row print the same. */
    Output alias = RUN("arch", "show", "Hopper");
    expect_success(&alias);
    ck_assert_str_eq(alias.out.data, o.out.data);
    output_free(&alias);
    output_free(&o);

    o = RUN("arch", "show", "h200");
    expect_success(&o);
    expect_starts_with(&o, o.out.data, "H200 SXM 141GB (h200): compute capability 9.0, 132 SMs, "
                                       "141 GiB\n\nsm_90: Hopper, compute capability 9.0\n");
    output_free(&o);

    o = RUN("arch", "show", "h200", "--format", "json");
    cJSON *root = parse_json(&o);
    expect_string(root, "schema", "silk-occ/arch/2");
    expect_string(root, "gpu.vendor", "nvidia");
    expect_string(root, "gpu.id", "h200");
    expect_string(root, "gpu.arch", "sm_90");
    expect_string(root, "gpu.cc", "9.0");
    expect_number(root, "gpu.sm_count", 132);
    expect_number(root, "gpu.memory_gib", 141);
    expect_string(root, "architecture.vendor", "nvidia");
    expect_string(root, "architecture.cc", "9.0");
    expect_string(root, "architecture.arch", "sm_90");
    expect_number(root, "architecture.max_threads_per_sm", 2048);
    expect_number(root, "architecture.max_warps_per_sm", 64);
    cJSON_Delete(root);
    output_free(&o);

    o = RUN("arch", "show", "sm_90", "--format", "json");
    root = parse_json(&o);
    expect_string(root, "architecture.family", "Hopper");
    expect_number(root, "architecture.barriers_per_sm", 64);
    const cJSON *configs = json_at(root, "architecture.smem_configs");
    ck_assert_int_eq(cJSON_GetArraySize(configs), 10);
    ck_assert_int_eq(cJSON_GetArrayItem(configs, 9)->valueint, 233472);
    ck_assert_msg(!cJSON_HasObjectItem(root, "gpu"), "an architecture shows a gpu");
    cJSON_Delete(root);
    output_free(&o);

    /* An AMD product: the same two objects, in its vendor's columns; its
     * sm_count counts WGPs (96 CUs in pairs), as calc's does. */
    o = RUN("arch", "show", "rx-7900-xtx", "--format", "json");
    root = parse_json(&o);
    expect_string(root, "schema", "silk-occ/arch/2");
    expect_string(root, "architecture.vendor", "amd");
    expect_string(root, "architecture.arch", "gfx1100");
    expect_string(root, "architecture.occupancy_unit", "WGP");
    expect_number(root, "architecture.wave_size", 32);
    expect_string(root, "gpu.vendor", "amd");
    expect_string(root, "gpu.arch", "gfx1100");
    expect_number(root, "gpu.sm_count", 48);
    expect_number(root, "gpu.compute_units", 96);
    cJSON_Delete(root);
    output_free(&o);
}
END_TEST

/* ---- --arch-table --------------------------------------------------------------- */

/* 32 threads, 16 registers on 9.0: 64 warp-slot CTAs, 128 register CTAs
 * (512 per warp, 32 warps per sub-partition), 228 shared memory, 64
 * barriers; the CTA slots bind: 32 built in, 16 with arch-blocks16.csv. */
START_TEST(test_table_override)
{
    char *blocks16 = data_file("arch-blocks16.csv");
    Output o = RUN(CALC, "--threads", "32", "--regs", "16", "--format", "json");
    cJSON *root = parse_json(&o);
    expect_number(root, "active_blocks_per_sm", 32);
    LIMITED_BY(root, "blocks");
    cJSON_Delete(root);
    output_free(&o);

    o = RUN(CALC, "--threads", "32", "--regs", "16", "--arch-table", blocks16, "--format", "json");
    root = parse_json(&o);
    expect_number(root, "active_blocks_per_sm", 16);
    expect_number(root, "active_warps_per_sm", 16);
    expect_number(root, "occupancy", 0.25);
    /* Only the CTA slots bind (barriers, whatever the table's rule for
     * them, would be listed if they allowed as few). */
    LIMITED_BY(root, "blocks");
    expect_number(root, "limits.warps", 64);
    expect_number(root, "limits.registers", 128);
    expect_number(root, "limits.shared_memory", 228);
    expect_number(root, "limits.blocks", 16);
    cJSON_Delete(root);
    output_free(&o);

    o = RUN(CALC, "--threads", "32", "--regs", "16", "--arch-table", blocks16);
    expect_success(&o);
    expect_contains(&o, o.out.data, "\n  16 CTAs per SM, 16 of 64 warps: 25.0% theoretical occupancy\n");
    expect_contains(&o, o.out.data, "\nThe SM's CTA slots limit occupancy: it holds at most 16 CTAs "
                                    "of any size; larger CTAs would raise it.\n");
    output_free(&o);

    /* arch show and arch list see the override; other rows keep theirs. */
    o = RUN("arch", "show", "sm_90", "--arch-table", blocks16);
    expect_success(&o);
    expect_contains(&o, o.out.data, "\n  CTAs per SM                16\n");
    expect_contains(&o, o.out.data, "\n  threads per SM             2048 (64 warps)\n");
    output_free(&o);
    o = RUN("arch", "show", "sm_80", "--arch-table", blocks16);
    expect_success(&o);
    expect_contains(&o, o.out.data, "\n  CTAs per SM                32\n");
    output_free(&o);
    free(blocks16);
}
END_TEST

/* product-new.csv adds test-gpu-7 (alias tg7): 9.0 with 7 SMs.  At 256
 * threads and 64 registers (4 CTAs) the persistent grid is 7 * 4 = 28. */
START_TEST(test_table_new_product)
{
    char *product = data_file("product-new.csv"), *blocks16 = data_file("arch-blocks16.csv");
    Output o = RUN("calc", "--gpu", "test-gpu-7", "--threads", "256", "--regs", "64");
    ck_assert_msg(o.status == EXIT_USAGE_STATUS, "test-gpu-7 known without its table");
    output_free(&o);

    const char *const names[] = {"test-gpu-7", "TG7"};
    for (int i = 0; i < 2; i++) {
        o = RUN("calc", "--gpu", names[i], "--threads", "256", "--regs", "64", "--arch-table",
                product, "--format", "json");
        cJSON *root = parse_json(&o);
        expect_string(root, "gpu", "test-gpu-7");
        expect_string(root, "arch", "sm_90");
        expect_number(root, "sm_count", 7);
        expect_number(root, "active_blocks_per_sm", 4);
        expect_number(root, "persistent_grid", 28);
        cJSON_Delete(root);
        output_free(&o);
    }

    o = RUN("calc", "--gpu", "tg7", "--threads", "256", "--regs", "64", "--arch-table", product);
    expect_success(&o);
    expect_starts_with(&o, o.out.data, "sm_90 (Hopper, compute capability 9.0), Test GPU Seven, 7 SMs\n");
    output_free(&o);

    /* Both files: the product on the overridden row, 16 CTAs * 7 = 112. */
    o = RUN("calc", "--gpu", "tg7", "--threads", "32", "--regs", "16", "--arch-table", blocks16,
            "--arch-table", product, "--format", "json");
    cJSON *root = parse_json(&o);
    expect_number(root, "active_blocks_per_sm", 16);
    expect_number(root, "persistent_grid", 112);
    cJSON_Delete(root);
    output_free(&o);

    /* arch list has exactly one more product; arch show finds it. */
    o = RUN("arch", "list", "--format", "json");
    int before = count_json_array(&o, "gpus");
    output_free(&o);
    o = RUN("arch", "list", "--format", "json", "--arch-table", product);
    ck_assert_int_eq(count_json_array(&o, "gpus"), before + 1);
    output_free(&o);
    o = RUN("arch", "show", "tg7", "--arch-table", product);
    expect_success(&o);
    expect_starts_with(&o, o.out.data, "Test GPU Seven (test-gpu-7): compute capability 9.0, 7 SMs, 8 GiB\n");
    output_free(&o);
    free(product);
    free(blocks16);
}
END_TEST

/* ---- verify ------------------------------------------------------------------------ */

/* Here there is no GPU: one line naming the runtime's reason, exit 3.
 * Where there is one, the built-in kernels must all agree. */
START_TEST(test_verify_no_device)
{
    Output o = RUN("verify");
    if (o.status == 3) {
        const char *want = "silk-occ verify: error: no CUDA device: ";
        ck_assert_msg(strncmp(o.err.data, want, strlen(want)) == 0, "stderr: " SHOW, o.err.data);
        ck_assert_msg(strchr(o.err.data, '\n') == o.err.data + o.err.len - 1,
                      "not one line: " SHOW, o.err.data);
        ck_assert_int_eq((int)o.out.len, 0);
    } else {
        ck_assert_msg(o.status == 0, "exit %d on a machine with a device:\n" SHOW, o.status,
                      o.out.data);
        expect_contains(&o, o.out.data, ", 0 disagree\n");
    }
    output_free(&o);
}
END_TEST

/* The H200 record (tests/data/verify/README.md): 15 properties and 4,696
 * answers of the nine built-in kernels, all agreeing. */
START_TEST(test_verify_replay_text)
{
    char *record = data_file("verify/h200-header.json");
    Output o = RUN("verify", "--replay", record);
    expect_success(&o);
    expect_starts_with(&o, o.out.data, "device 0: NVIDIA H200, compute capability 9.0, 132 SMs\n"
                                       "properties: 15 checked, 0 disagree\n");
    expect_contains(&o, o.out.data, "kernel regs_free                114 regs      0 B smem  256 "
                                    "threads max    384 checked, 0 disagree\n");
    expect_contains(&o, o.out.data, "\n4711 checked, 0 disagree\n");
    /* Recorded before cluster questions were asked: none are compared. */
    ck_assert_msg(strstr(o.out.data, "clusters:") == NULL, "stdout: " SHOW, o.out.data);
    output_free(&o);
    free(record);
}
END_TEST

START_TEST(test_verify_replay_json)
{
    char *record = data_file("verify/h200-header.json");
    Output o = RUN("verify", "--replay", record, "--format", "json");
    expect_success(&o);
    cJSON *root = parse_json(&o);
    expect_string(root, "schema", "silk-occ/verify/1");
    expect_string(root, "device.name", "NVIDIA H200");
    expect_string(root, "device.compute_capability", "9.0");
    expect_number(root, "device.sm_count", 132);
    expect_string(root, "device.table_row", "9.0");
    expect_number(root, "checked", 4711);
    expect_number(root, "disagree", 0);
    const cJSON *props = json_at(root, "properties");
    ck_assert_int_eq(cJSON_GetArraySize(props), 15);
    const cJSON *p;
    cJSON_ArrayForEach(p, props) expect_bool(p, "agree", true);
    expect_string(cJSON_GetArrayItem(props, 14), "field", "sm_count");
    expect_string(cJSON_GetArrayItem(props, 14), "source", "product h200");
    const cJSON *kernels = json_at(root, "kernels");
    ck_assert_int_eq(cJSON_GetArraySize(kernels), 9);
    const cJSON *k = cJSON_GetArrayItem(kernels, 7);
    expect_string(k, "name", "smem_44k");
    expect_number(k, "attributes.static_smem", 45056);
    expect_number(k, "attributes.max_threads_per_block", 512);
    expect_number(k, "checked", 536);
    expect_number(k, "disagree", 0);
    ck_assert_int_eq(cJSON_GetArraySize(json_at(root, "disagreements")), 0);
    ck_assert_ptr_null(cJSON_GetObjectItem(root, "clusters"));
    cJSON_Delete(root);
    output_free(&o);
    free(record);
}
END_TEST

/* The record tests/data/verify/NAME, parsed. */
static cJSON *read_record(const char *name)
{
    char *path = data_file(name);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
    Buffer text = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buffer_append(&text, chunk, n);
    fclose(f);
    free(path);
    cJSON *root = cJSON_Parse(text.data);
    free(text.data);
    ck_assert(root != NULL);
    return root;
}

/* `root` written to a file of its own (and freed); the file's path. */
static char *write_record(cJSON *root)
{
    char *out = strdup("/tmp/silk-verify-XXXXXX");
    int fd = mkstemp(out);
    ck_assert(fd >= 0);
    char *json = cJSON_PrintUnformatted(root);
    ck_assert(write(fd, json, strlen(json)) == (ssize_t)strlen(json));
    close(fd);
    free(json);
    cJSON_Delete(root);
    return out;
}

/* The H200 record with one answer and one property changed: both are
 * reported, with their inputs, and the exit status is 1. */
static char *altered_record(void)
{
    cJSON *root = read_record("verify/h200-header.json");
    /* regs_free's first question: 32 threads, no dynamic smem, default carveout. */
    cJSON *first = cJSON_GetArrayItem(json_at(json_at(root, "kernels")->child, "answers"), 0);
    cJSON *result = cJSON_GetArrayItem(first, 6);
    ck_assert_int_eq((int)result->valuedouble, 16);
    cJSON_SetNumberValue(result, 17);
    cJSON_SetNumberValue(cJSON_GetObjectItem(json_at(root, "device"), "max_grid_y"), 32768);
    return write_record(root);
}

START_TEST(test_verify_disagreement)
{
    char *record = altered_record();
    Output o = RUN("verify", "--replay", record);
    ck_assert_msg(o.status == 1, "exit status %d, want 1", o.status);
    expect_contains(&o, o.out.data, "  property max_grid_y: device 32768, the 9.0 row 65535\n"
                                    "properties: 15 checked, 1 disagree\n");
    expect_contains(&o, o.out.data,
                    "disagree: regs_free: cudaOccupancyMaxActiveBlocksPerMultiprocessor (block 32, "
                    "dynamic smem 0; carveout default, max dynamic smem 49152): runtime 17, "
                    "silk-occ 16\n4711 checked, 2 disagree\n");
    output_free(&o);
    o = RUN("verify", "--replay", record, "--format", "json");
    cJSON *root = parse_json_status(&o, 1);
    expect_number(root, "disagree", 2);
    const cJSON *d = json_at(root, "disagreements")->child;
    expect_string(d, "kernel", "regs_free");
    expect_string(d, "call", "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    expect_number(d, "threads", 32);
    expect_number(d, "dynamic_smem", 0);
    expect_number(d, "carveout", -1);
    expect_number(d, "runtime.active_blocks_per_sm", 17);
    expect_number(d, "engine.active_blocks_per_sm", 16);
    cJSON_Delete(root);
    output_free(&o);
    remove(record);
    free(record);
}
END_TEST

/* A copy of the record tests/data/verify/NAME with the result of answer
 * `answer` of kernel `kernel` set to `value`, in a file of its own. */
static char *record_with_answer(const char *name, int kernel, int answer, double value)
{
    cJSON *root = read_record(name);
    cJSON *k = cJSON_GetArrayItem(json_at(root, "kernels"), kernel);
    cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(k, "answers"), answer);
    cJSON_SetNumberValue(cJSON_GetArrayItem(row, 6), value);
    return write_record(root);
}

/* An H100 SXM5 under the name its driver gives it, which the tables do not
 * spell: the layout is h100-sxm's (9.0, 132 SMs, 8 GPCs), and the one
 * cluster answer made wrong (260 clusters of 4 x 256 threads, where the
 * GPCs hold 264) is the one disagreement.  Put right, all agree. */
START_TEST(test_verify_clusters_h100)
{
    char *record = data_file("verify/h100-clusters.json");
    Output o = RUN("verify", "--replay", record);
    ck_assert_msg(o.status == 1, "exit status %d, want 1", o.status);
    expect_contains(&o, o.out.data,
                    "clusters: product h100-sxm (by compute capability 9.0 and 132 SMs), 8 GPCs: "
                    "6 checked, 1 disagree\n"
                    "disagree: tile_sum: cudaOccupancyMaxActiveClusters (cluster 4, block 256, "
                    "dynamic smem 0; carveout default, max dynamic smem 49152): runtime 260, "
                    "silk-occ 264\n20 checked, 1 disagree\n");
    output_free(&o);
    o = RUN("verify", "--replay", record, "--format", "json");
    cJSON *root = parse_json_status(&o, 1);
    expect_string(root, "clusters.product", "h100-sxm");
    expect_string(root, "clusters.matched_by", "compute_capability_and_sm_count");
    expect_number(root, "clusters.gpcs", 8);
    const cJSON *answers = json_at(root, "clusters.answers");
    ck_assert_int_eq(cJSON_GetArraySize(answers), 6);
    const cJSON *wrong = cJSON_GetArrayItem(answers, 1);
    expect_string(wrong, "call", "cudaOccupancyMaxActiveClusters");
    expect_number(wrong, "cluster_size", 4);
    expect_number(wrong, "threads", 256);
    expect_number(wrong, "runtime.active_clusters", 260);
    expect_number(wrong, "engine.active_clusters", 264);
    expect_bool(wrong, "agree", false);
    /* 8 CTAs of 1024 threads: 4 clusters a GPC, 32, not 132 x 2 / 8 = 33. */
    expect_number(cJSON_GetArrayItem(answers, 2), "engine.active_clusters", 32);
    expect_bool(cJSON_GetArrayItem(answers, 2), "agree", true);
    expect_number(json_at(root, "disagreements")->child, "cluster_size", 4);
    cJSON_Delete(root);
    output_free(&o);
    free(record);

    record = record_with_answer("verify/h100-clusters.json", 0, 2, 264);
    o = RUN("verify", "--replay", record);
    expect_success(&o);
    expect_contains(&o, o.out.data, "8 GPCs: 6 checked, 0 disagree\n20 checked, 0 disagree\n");
    output_free(&o);
    remove(record);
    free(record);
}
END_TEST

/* An H200, whose GPC count is not public: each device figure is listed and
 * checked only against SMs x CTAs per SM / cluster size.  A device figure
 * above that bound (34 clusters of 8 x 1024 threads, bound 33) disagrees. */
START_TEST(test_verify_clusters_h200)
{
    char *record = data_file("verify/h200-clusters.json");
    Output o = RUN("verify", "--replay", record);
    expect_success(&o);
    expect_contains(&o, o.out.data,
                    "clusters: the GPC layout of product h200 is not public: 6 checked against "
                    "the bound SMs x CTAs per SM / cluster size, 0 disagree\n"
                    "  these figures are the device's own (send them to us with the card's GPC "
                    "count):\n"
                    "  cluster tile_sum: 2 CTAs of 128 threads: device 1056, bound 1056\n"
                    "  cluster tile_sum: 4 CTAs of 256 threads: device 264, bound 264\n"
                    "  cluster tile_sum: 8 CTAs of 1024 threads: device 32, bound 33\n"
                    "  cluster tile_sum: 16 CTAs of 256 threads: device 66, bound 66\n"
                    "  cluster pair_reduce: 2 CTAs of 256 threads: device 264, bound 264\n"
                    "  cluster pair_reduce: 2 CTAs of 512 threads: device 132, bound 132\n"
                    "22 checked, 0 disagree\n");
    output_free(&o);
    o = RUN("verify", "--replay", record, "--format", "json");
    cJSON *root = parse_json(&o);
    expect_string(root, "clusters.product", "h200");
    expect_string(root, "clusters.matched_by", "name");
    expect_null(root, "clusters.gpcs");
    const cJSON *row = cJSON_GetArrayItem(json_at(root, "clusters.answers"), 2);
    expect_number(row, "runtime.active_clusters", 32);
    expect_number(row, "engine.active_clusters", 33);
    expect_bool(row, "engine.bound", true);
    expect_bool(row, "agree", true);
    cJSON_Delete(root);
    output_free(&o);
    free(record);

    record = record_with_answer("verify/h200-clusters.json", 0, 3, 34);
    o = RUN("verify", "--replay", record);
    ck_assert_msg(o.status == 1, "exit status %d, want 1", o.status);
    expect_contains(&o, o.out.data,
                    "  cluster tile_sum: 8 CTAs of 1024 threads: device 34, bound 33\n");
    expect_contains(&o, o.out.data,
                    "disagree: tile_sum: cudaOccupancyMaxActiveClusters (cluster 8, block 1024, "
                    "dynamic smem 0; carveout default, max dynamic smem 49152): runtime 34, "
                    "silk-occ at most 33\n22 checked, 1 disagree\n");
    output_free(&o);
    remove(record);
    free(record);
}
END_TEST

/* ---- the suite ------------------------------------------------------------------- */

static Suite *cli_suite(void)
{
    Suite *s = suite_create("cli");

    TCase *errors = tcase_create("errors");
    tcase_set_timeout(errors, 30);
    tcase_add_loop_test(errors, test_error_message, 0, N_ERROR_CASES);
    tcase_add_test(errors, test_no_command);
    tcase_add_test(errors, test_partial_warp_warning);
    suite_add_tcase(s, errors);

    TCase *calc = tcase_create("calc");
    /* The sweeps print a few thousand rows; the margin is for sanitizers. */
    tcase_set_timeout(calc, 120);
    tcase_add_test(calc, test_json_arch);
    tcase_add_test(calc, test_json_gpu_work);
    tcase_add_test(calc, test_json_work_without_sms);
    tcase_add_test(calc, test_json_shared_memory);
    tcase_add_test(calc, test_json_barriers);
    tcase_add_test(calc, test_json_sweep_regs);
    tcase_add_test(calc, test_json_sweep_threads);
    tcase_add_test(calc, test_json_sweep_smem);
    tcase_add_test(calc, test_csv_single);
    tcase_add_test(calc, test_csv_sweep_threads);
    tcase_add_test(calc, test_text);
    tcase_add_test(calc, test_help);
    suite_add_tcase(s, calc);

    TCase *arch = tcase_create("arch");
    tcase_set_timeout(arch, 60);
    tcase_add_test(arch, test_arch_list);
    tcase_add_test(arch, test_arch_show);
    tcase_add_test(arch, test_table_override);
    tcase_add_test(arch, test_table_new_product);
    suite_add_tcase(s, arch);

    TCase *verify = tcase_create("verify");
    tcase_set_timeout(verify, 60);
    tcase_add_test(verify, test_verify_no_device);
    tcase_add_test(verify, test_verify_replay_text);
    tcase_add_test(verify, test_verify_replay_json);
    tcase_add_test(verify, test_verify_disagreement);
    tcase_add_test(verify, test_verify_clusters_h100);
    tcase_add_test(verify, test_verify_clusters_h200);
    suite_add_tcase(s, verify);
    return s;
}

int main(void)
{
    program = getenv("SILK_OCC");
    if (!program || !*program) {
        puts("SKIP: SILK_OCC not set (run through make check)");
        return 77;
    }
    data_dir = getenv("SILK_TEST_DATA");
    if (!data_dir || !*data_dir) {
        puts("SKIP: SILK_TEST_DATA not set (run through make check)");
        return 77;
    }
    if (setenv("NO_COLOR", "1", 1) != 0) {
        perror("check_cli: setenv");
        return EXIT_FAILURE;
    }
    SRunner *runner = srunner_create(cli_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
