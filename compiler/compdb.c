/*
 * compdb.c: compile_commands.json into CUDA units (compdb.h).
 *
 * The database is read whole under read_file's limit and parsed by cJSON;
 * each entry is checked before it is used, since the file is outside
 * text: "file" and "directory" must be strings, the directory must exist
 * (a unit measured elsewhere would find other headers), and "arguments"
 * (an array of strings) or "command" (a string, split by
 * nvcc_split_flags: never by a shell) must give the words.
 *
 * Flags are kept by a table, not dropped by one: what reaches nvcc is
 * only what changes the device compile (include paths, macros, the
 * language, device code generation), so a flag of the host compiler or
 * of a launcher cannot break the measuring's compile.  An option whose
 * value is a separate word (-o out.o, -MF x.d, -Xptxas -v) takes that
 * word with it, kept or dropped alike, so a value never reads as a flag.
 */
#include "compdb.h"

#include "escape.h"
#include "ptx/nvcc.h"
#include "json_file.h"
#include "read_file.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the flags ----------------------------------------------------------- */

typedef struct FlagRule {
    const char *name;
    bool value;   /* takes a value: the next word, or NAME=VALUE */
    bool joined;  /* the value may follow the name directly: -Iinc, -DN=4, -O3 */
    bool arch;    /* decides the architecture list: kept only with keep_arch */
} FlagRule;

static const FlagRule KEPT[] = {
    {"-I", true, true, false},           {"--include-path", true, false, false},
    {"-isystem", true, true, false},     {"--system-include", true, false, false},
    {"-idirafter", true, false, false},  {"-D", true, true, false},
    {"--define-macro", true, false, false}, {"-U", true, true, false},
    {"--undefine-macro", true, false, false}, {"-include", true, false, false},
    {"--pre-include", true, false, false}, {"-x", true, true, false},
    {"--x", true, false, false},         {"-std", true, false, false},
    {"--std", true, false, false},       {"-Xcompiler", true, false, false},
    {"--compiler-options", true, false, false}, {"-ccbin", true, false, false},
    {"--compiler-bindir", true, false, false}, {"-maxrregcount", true, false, false},
    {"--maxrregcount", true, false, false}, {"-rdc", true, false, false},
    {"--relocatable-device-code", true, false, false}, {"-ftz", true, false, false},
    {"--ftz", true, false, false},       {"-prec-div", true, false, false},
    {"--prec-div", true, false, false},  {"-prec-sqrt", true, false, false},
    {"--prec-sqrt", true, false, false}, {"-fmad", true, false, false},
    {"--fmad", true, false, false},      {"-O", false, true, false},
    {"-G", false, false, false},         {"--device-debug", false, false, false},
    {"-lineinfo", false, false, false},  {"--generate-line-info", false, false, false},
    {"-use_fast_math", false, false, false}, {"--use_fast_math", false, false, false},
    {"--extended-lambda", false, false, false}, {"-extended-lambda", false, false, false},
    {"-arch", true, false, true},        {"--gpu-architecture", true, false, true},
    {"-gencode", true, false, true},     {"--generate-code", true, false, true},
    {"-code", true, false, true},        {"--gpu-code", true, false, true},
};

/* Dropped, with the separate word each takes. */
static const char *const DROPPED_WITH_VALUE[] = {
    "-o", "--output-file", "-MF", "-MT", "-MQ", "-MJ", "--dependency-output", "-odir",
    "--output-directory", "-Xptxas", "--ptxas-options", "-Xlinker", "--linker-options",
    "-Xnvlink", "--nvlink-options", "-Xarchive", "--archive-options", "-L", "--library-path",
    "-l", "--library", "-t", "--threads", "-keep-dir", "--keep-dir", "-Xfatbin",
    "--fatbin-options", "-split-compile", "--split-compile"};

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* How word w reads under rule r: 0 no match, 1 the whole option in w,
 * 2 the name alone (its value is the next word). */
static int match_rule(const FlagRule *r, const char *w)
{
    size_t len = strlen(r->name);
    if (strcmp(w, r->name) == 0)
        return r->value ? 2 : 1;
    if (strncmp(w, r->name, len) != 0)
        return 0;
    if (r->value && w[len] == '=')
        return 1;
    return r->joined ? 1 : 0;
}

static bool dropped_with_value(const char *w)
{
    for (size_t i = 0; i < sizeof DROPPED_WITH_VALUE / sizeof *DROPPED_WITH_VALUE; i++)
        if (strcmp(w, DROPPED_WITH_VALUE[i]) == 0)
            return true;
    return false;
}

/* The rule that keeps w, or NULL; *words is 2 when it takes the next. */
static const FlagRule *kept_rule(const char *w, int *words)
{
    for (size_t i = 0; i < sizeof KEPT / sizeof *KEPT; i++)
        if ((*words = match_rule(&KEPT[i], w)))
            return &KEPT[i];
    return NULL;
}

int compdb_keep_flags(char *const words[], int n, const char *source, bool keep_arch,
                      Arena *arena, char ***out)
{
    char **kept = ARENA_ARRAY(arena, char *, (size_t)n + 2);
    int k = 0;
    for (int i = 1; i < n; i++) {
        const char *w = words[i];
        int taken = 0;
        const FlagRule *r = kept_rule(w, &taken);
        bool keep = r && (keep_arch || !r->arch);
        if (!r && (starts_with(w, "--expt-") || starts_with(w, "-expt-")))
            keep = (taken = 1);
        /* -dc is -rdc=true -c: the -c is the build's, the -rdc the device's. */
        if (!r && (strcmp(w, "-dc") == 0 || strcmp(w, "--device-c") == 0)) {
            kept[k++] = "-rdc=true";
            continue;
        }
        if (!r && dropped_with_value(w))
            taken = 2;
        if (keep)
            kept[k++] = (char *)w;
        if (taken == 2 && i + 1 < n) {
            if (keep)
                kept[k++] = words[i + 1];
            i++;
        }
        (void)source; /* a non-option word (the source, an object) is never kept */
    }
    kept[k] = NULL;
    *out = kept;
    return k;
}

bool compdb_is_cuda(char *const words[], int n, const char *file)
{
    size_t len = strlen(file);
    if (len >= 3 && strcmp(file + len - 3, ".cu") == 0)
        return true;
    for (int i = 1; i < n; i++) {
        const char *w = words[i];
        if ((strcmp(w, "-x") == 0 || strcmp(w, "--x") == 0) && i + 1 < n)
            if (strcmp(words[i + 1], "cu") == 0)
                return true;
        if (strcmp(w, "-xcu") == 0 || strcmp(w, "-x=cu") == 0 || strcmp(w, "--x=cu") == 0)
            return true;
    }
    return false;
}

/* ---- the entries ---------------------------------------------------------- */

typedef struct Reader {
    const char *path;
    const char *base;  /* the database's folder, where a relative directory starts */
    const char *cwd;   /* ours, for the units' names; NULL when unknown */
    bool keep_arch;
    Arena *arena;
    char *error;
    size_t size;
} Reader;

static char *join_path(const char *dir, const char *path, Arena *arena)
{
    if (path[0] == '/' || !dir || !dir[0])
        return arena_strndup(arena, path, strlen(path));
    size_t size = strlen(dir) + strlen(path) + 2;
    char *s = arena_alloc(arena, size, 1);
    snprintf(s, size, "%s/%s", dir, path);
    return s;
}

static bool bad_entry(const Reader *r, int i, const char *what)
{
    snprintf(r->error, r->size, "%s: entry %d: %s", ESCAPED(r->path), i, what);
    return false;
}

/* The entry's words: "arguments" or, split here, "command". */
static bool entry_words(const Reader *r, const cJSON *e, int i, char ***words, int *n)
{
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(e, "arguments");
    const cJSON *command = cJSON_GetObjectItemCaseSensitive(e, "command");
    if (cJSON_IsArray(args)) {
        int count = cJSON_GetArraySize(args), k = 0;
        char **list = ARENA_ARRAY(r->arena, char *, (size_t)count + 1);
        for (const cJSON *a = args->child; a; a = a->next) {
            if (!cJSON_IsString(a))
                return bad_entry(r, i, "\"arguments\" holds a value that is not a string");
            list[k++] = arena_strndup(r->arena, a->valuestring, strlen(a->valuestring));
        }
        list[k] = NULL;
        *words = list;
        *n = k;
    } else if (cJSON_IsString(command)) {
        char why[256], line[320];
        if (!nvcc_split_flags(command->valuestring, r->arena, words, n, why, sizeof why)) {
            snprintf(line, sizeof line, "\"command\": %s", why);
            return bad_entry(r, i, line);
        }
    } else {
        return bad_entry(r, i, "no \"arguments\" (an array of strings) or \"command\" (a string)");
    }
    if (*n == 0)
        return bad_entry(r, i, "an empty command");
    return true;
}

/* `file` for people: below our working directory, relative to it. */
static const char *unit_name(const Reader *r, const char *file)
{
    size_t len = r->cwd ? strlen(r->cwd) : 0;
    if (len && strncmp(file, r->cwd, len) == 0 && file[len] == '/')
        return file + len + 1;
    return file;
}

/* The entry's compiler, when it is nvcc (a launcher's word before it,
 * ccache or sccache, is passed over). */
static const char *entry_compiler(char **words, int n, int *first)
{
    *first = 0;
    for (int i = 0; i < n && i < 2; i++) {
        const char *slash = strrchr(words[i], '/');
        const char *base = slash ? slash + 1 : words[i];
        if (strcmp(base, "nvcc") == 0) {
            *first = i;
            return words[i];
        }
        if (strcmp(base, "ccache") != 0 && strcmp(base, "sccache") != 0)
            break;
    }
    return NULL;
}

/* One entry: false after an error; *cuda false for an entry of another
 * language, which the report passes over. */
static bool read_entry(const Reader *r, const cJSON *e, int i, CompdbUnit *u, bool *cuda)
{
    if (!cJSON_IsObject(e))
        return bad_entry(r, i, "not an object");
    const cJSON *file = cJSON_GetObjectItemCaseSensitive(e, "file");
    const cJSON *dir = cJSON_GetObjectItemCaseSensitive(e, "directory");
    if (!cJSON_IsString(file) || !file->valuestring[0])
        return bad_entry(r, i, "no \"file\" (a string)");
    if (!cJSON_IsString(dir) || !dir->valuestring[0])
        return bad_entry(r, i, "no \"directory\" (a string)");
    char **words;
    int n, first;
    if (!entry_words(r, e, i, &words, &n))
        return false;
    *cuda = compdb_is_cuda(words, n, file->valuestring);
    if (!*cuda)
        return true;
    const char *directory = join_path(r->base, dir->valuestring, r->arena);
    struct stat st;
    bool found = stat(directory, &st) == 0;
    if (!found || !S_ISDIR(st.st_mode)) {
        char line[320];
        snprintf(line, sizeof line, "directory %s: %s", ESCAPED(directory),
                 found ? "not a directory" : strerror(errno));
        return bad_entry(r, i, line);
    }
    const char *nvcc = entry_compiler(words, n, &first);
    if (nvcc && strchr(nvcc, '/')) /* "../cuda/bin/nvcc" starts at the directory */
        nvcc = join_path(directory, nvcc, r->arena);
    *u = (CompdbUnit){.file = join_path(directory, file->valuestring, r->arena),
                      .directory = directory, .compiler = nvcc, .entry = i};
    u->name = unit_name(r, u->file);
    u->n_flags = compdb_keep_flags(words + first, n - first, file->valuestring, r->keep_arch,
                                   r->arena, &u->flags);
    return true;
}

/* The database's folder ("." for a bare name). */
static const char *folder_of(const char *path, Arena *arena)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return ".";
    return arena_strndup(arena, path, slash == path ? 1 : (size_t)(slash - path));
}

static cJSON *parse_database(const Reader *r)
{
    JsonFileError why;
    cJSON *root = json_file_parse(r->path, READ_FILE_CODE_LIMIT_MIB, &why);
    char words[256];
    if (!root)
        snprintf(r->error, r->size, "%s%s", ESCAPED(r->path),
                 json_file_error(&why, READ_FILE_CODE_LIMIT_MIB, words, sizeof words));
    return root;
}

static bool read_entries(const Reader *r, const cJSON *root, CompdbUnit **units, int *n)
{
    int count = cJSON_GetArraySize(root), i = 0;
    if (count > COMPDB_MAX_ENTRIES) {
        snprintf(r->error, r->size, "%s: %d entries, more than the %d a database may hold",
                 ESCAPED(r->path), count, COMPDB_MAX_ENTRIES);
        return false;
    }
    CompdbUnit *list = ARENA_ARRAY(r->arena, CompdbUnit, (size_t)count + 1);
    *n = 0;
    for (const cJSON *e = root->child; e; e = e->next, i++) {
        bool cuda = false;
        if (!read_entry(r, e, i, &list[*n], &cuda))
            return false;
        *n += cuda;
    }
    if (*n == 0) {
        snprintf(r->error, r->size, "%s: no CUDA translation unit (an entry whose file is .cu, "
                                    "or whose command has -x cu)", ESCAPED(r->path));
        return false;
    }
    *units = list;
    return true;
}

bool compdb_read(const char *path, bool keep_arch, Arena *arena, CompdbUnit **units, int *n,
                 char *error, size_t size)
{
    char cwd[PATH_MAX];
    Reader r = {.path = path, .base = folder_of(path, arena),
                .cwd = getcwd(cwd, sizeof cwd) ? cwd : NULL, .keep_arch = keep_arch,
                .arena = arena, .error = error, .size = size};
    cJSON *root = parse_database(&r);
    if (!root)
        return false;
    bool ok = cJSON_IsArray(root);
    if (!ok)
        snprintf(error, size, "%s: not a compile database (a JSON array of entries)", ESCAPED(path));
    ok = ok && read_entries(&r, root, units, n);
    cJSON_Delete(root);
    return ok;
}

/* ---- the build's targets ------------------------------------------------- */

/* Appends each "sm_NN" of `value` to the list in buf, once. */
static void add_machine_archs(const char *value, char *buf, size_t size)
{
    for (const char *p = strstr(value, "sm_"); p; p = strstr(p + 3, "sm_")) {
        size_t digits = strspn(p + 3, "0123456789");
        if (digits == 0 || digits > 4)
            continue;
        char arch[16], list[1024], item[20];
        snprintf(arch, sizeof arch, "sm_%.*s", (int)digits, p + 3);
        snprintf(list, sizeof list, ",%s,", buf);
        snprintf(item, sizeof item, ",%s,", arch);
        size_t used = strlen(buf);
        if (!strstr(list, item) && used + strlen(arch) + 2 < size)
            snprintf(buf + used, size - used, "%s%s", used ? "," : "", arch);
    }
}

void compdb_build_archs(const CompdbUnit *units, int n, char *buf, size_t size)
{
    buf[0] = '\0';
    for (int u = 0; u < n; u++)
        for (int i = 0; i < units[u].n_flags; i++) {
            int taken = 0;
            const FlagRule *r = kept_rule(units[u].flags[i], &taken);
            if (!r || !r->arch)
                continue;
            const char *value = taken == 2 && i + 1 < units[u].n_flags
                                    ? units[u].flags[++i]
                                    : units[u].flags[i] + strlen(r->name);
            add_machine_archs(value, buf, size);
        }
}
