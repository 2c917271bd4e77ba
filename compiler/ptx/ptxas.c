/*
 * ptxas.c: run NVIDIA's PTX assembler and read back what each kernel uses.
 *
 * The parser.  `ptxas -v` has printed the same few lines, with small
 * changes, since CUDA 3:
 *
 *   ptxas info    : Compiling entry function 'NAME' for 'sm_XX'
 *   ptxas info    : Function properties for NAME
 *       F bytes stack frame, S bytes spill stores, L bytes spill loads
 *   ptxas info    : Used R registers[, ITEM]...
 *
 * where an ITEM of the "Used" line is one of "N bytes smem", "N bytes
 * cmem[B]", "N bytes cumulative stack size" (CUDA 9 on), "N textures",
 * "used N barriers" (CUDA 12 and 13; "N barriers" in some builds), and on
 * sm_1x "A+B bytes smem" and "A+B bytes lmem".  CUDA 3 printed no
 * properties block; CUDA 12 and 13 add "Compile time" lines; Visual
 * Studio's build log prefixes each line with "1>  " and ends it with CRLF;
 * sm_90 and newer omit cmem[0].  Names are mangled, except in old versions
 * that printed "walk_tree(node, int*)".  So the parser finds its markers
 * anywhere in a line, reads the items of a line as "NUMBER UNIT" pairs
 * through one table (UNITS), ignores items and lines it does not know, and
 * is strict only about the lines it does: a known line that does not read
 * is an error, as is an entry with no "Used" line (truncated output).
 *
 * Non-entry functions get a properties block (in relocatable mode before
 * any entry, else after them) but no "Used" line: a properties block names
 * the function it describes, and only one naming the entry being compiled
 * is the kernel's.  A "Used" line is the entry's unless another function's
 * block came between the entry's "Compiling" line and its own block.
 *
 * Warnings ("ptxas warning : TEXT") say what ptxas did not do as asked:
 * CUDA 13.0 on sm_120, for __launch_bounds__(1024, 2), "Value of threads
 * per SM for entry NAME is out of range. .minnctapersm will be ignored",
 * printed before NAME's "Compiling" line.  So they are kept to the end
 * and then given to each kernel whose name they hold as a whole word;
 * one that names no kernel of the run goes to all of them.
 *
 * The driver.  Each run is a job of jobs.h: fork + execv of ptxas (never
 * a shell: a path with spaces or quotes must reach ptxas as it is), its
 * stdout and stderr into one pipe, stdin from /dev/null, an exec failure
 * told apart from "ptxas failed" by the child's errno.
 * ptxas_run_targets (and ptxas_assemble_targets, the same with the cubin
 * kept) keeps at most one child per online core; results land in their
 * input slot whatever order the children finish in.
 *
 * Relocatable PTX.  nvcc -ptx -rdc=true (or -dc) declares what other files
 * define: `.extern .func` for a call, `.extern .entry` for a device-side
 * launch, `.extern .global` / `.extern .const` for a variable.  ptxas
 * stops at an unresolved call ("fatal: Unresolved extern function") unless
 * given -c, so the driver passes -c exactly when ptxas_needs_compile_only
 * says so (ptxas.h has the rule), which nvcc's whole-program PTX never
 * meets: its only externs are the system calls ptxas resolves itself
 * (vprintf, malloc, free, __assertfail) and dynamic shared memory.  -c
 * only when needed, for it changes figures: a kernel calling a device
 * function of its own module uses 10 registers without -c and 24 with it
 * (sm_75 to sm_121, CUDA 13.0: under -c the call keeps the ABI), and one
 * calling printf 26 and 25.  With -c, a kernel's figures are its own; a
 * kernel that calls nothing of another file gets the figures it gets with
 * the callee defined in the module (tests/data/ptxas/extern.ptx and
 * extern-resolved.ptx), while a caller's registers are the ABI's (24 on
 * sm_75 to sm_120) against 10 with the callee in the module, and nvlink
 * then raises them to the largest count in the call graph (24 -> 204 with
 * a callee of 204).  The PTX is read by a small scanner that skips
 * comments, strings, bodies and initializers, not by a parser.
 */
#include <config.h>

#include "ptxas.h"

#include "jobs.h"
#include "read_file.h"

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- text slices ---------------------------------------------------------- */

/* A piece of the text, not NUL-terminated: ptxas's output is parsed where
 * it lies. */
typedef struct Slice {
    const char *p;
    size_t n;
} Slice;

static Slice slice_from(Slice s, size_t i)
{
    assert(i <= s.n);
    return (Slice){s.p + i, s.n - i};
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

static Slice slice_trim(Slice s)
{
    while (s.n && is_blank(s.p[0]))
        s = slice_from(s, 1);
    while (s.n && is_blank(s.p[s.n - 1]))
        s.n--;
    return s;
}

/* The offset of the first (or, `last`, the final) occurrence of `needle`,
 * or SIZE_MAX. */
static size_t slice_find(Slice s, const char *needle, bool last)
{
    size_t k = strlen(needle), found = SIZE_MAX;
    for (size_t i = 0; k <= s.n && i <= s.n - k; i++) {
        if (memcmp(s.p + i, needle, k) == 0) {
            found = i;
            if (!last)
                break;
        }
    }
    return found;
}

static bool slice_is(Slice s, const char *text)
{
    return s.n == strlen(text) && memcmp(s.p, text, s.n) == 0;
}

/* If `s` starts with `prefix`, drop it and return true. */
static bool slice_skip(Slice *s, const char *prefix)
{
    size_t k = strlen(prefix);
    if (s->n < k || memcmp(s->p, prefix, k) != 0)
        return false;
    *s = slice_from(*s, k);
    return true;
}

/* ---- the items of a line ----------------------------------------------------- */

/* Each "NUMBER UNIT" item the parser keeps, and the field it goes to.
 * lmem is sm_1x's per-thread local memory, printed before stack frames were. */
static const struct {
    const char *unit;
    size_t field;
} UNITS[] = {
    {"registers", offsetof(KernelUsage, registers)},
    {"barriers", offsetof(KernelUsage, barriers)},
    {"bytes smem", offsetof(KernelUsage, static_smem)},
    {"bytes cmem[0]", offsetof(KernelUsage, const_bank0)},
    {"bytes stack frame", offsetof(KernelUsage, stack_frame)},
    {"bytes lmem", offsetof(KernelUsage, stack_frame)},
    {"bytes spill stores", offsetof(KernelUsage, spill_stores)},
    {"bytes spill loads", offsetof(KernelUsage, spill_loads)},
};

/* A count: digits, or sm_1x's "A+B" (user and system parts, summed).
 * False if it is neither or does not fit an int. */
static bool parse_count(Slice s, int *value)
{
    long long total = 0, part = 0;
    bool digits = false;
    for (size_t i = 0; i < s.n; i++) {
        char c = s.p[i];
        if (c >= '0' && c <= '9') {
            part = part * 10 + (c - '0');
            digits = true;
            if (part > INT_MAX)
                return false;
        } else if (c == '+' && digits) {
            total += part;
            part = 0;
            digits = false;
        } else {
            return false;
        }
    }
    total += part;
    if (!digits || total > INT_MAX)
        return false;
    *value = (int)total;
    return true;
}

/* Reads one item into *u.  An unknown unit is skipped (later versions add
 * items); a known unit with a count that does not read is an error.
 * `want` (or NULL) names the unit this item must have. */
static bool parse_item(Slice item, KernelUsage *u, const char *want)
{
    item = slice_trim(item);
    slice_skip(&item, "used ");
    size_t space = slice_find(item, " ", false);
    if (space == SIZE_MAX)
        return want == NULL;
    Slice count = {item.p, space};
    Slice unit = slice_trim(slice_from(item, space + 1));
    if (want && !slice_is(unit, want))
        return false;
    for (size_t i = 0; i < sizeof UNITS / sizeof UNITS[0]; i++) {
        if (slice_is(unit, UNITS[i].unit))
            return parse_count(count, (int *)((char *)u + UNITS[i].field));
    }
    return true;
}

/* Reads the comma-separated items of `list` into *u; the first must be
 * `first_unit` when that is not NULL. */
static bool parse_items(Slice list, KernelUsage *u, const char *first_unit)
{
    const char *want = first_unit;
    while (list.n) {
        size_t comma = slice_find(list, ",", false);
        Slice item = {list.p, comma == SIZE_MAX ? list.n : comma};
        if (!parse_item(item, u, want))
            return false;
        want = NULL;
        list = comma == SIZE_MAX ? slice_from(list, list.n) : slice_from(list, comma + 1);
    }
    return want == NULL;
}

/* ---- the lines ----------------------------------------------------------- */

typedef struct Parser {
    Arena *arena;
    KernelUsage *kernels;
    int n_kernels, capacity;
    int current;    /* the entry being compiled; -1 before the first */
    int props;      /* the kernel the next stack-frame line is for; -1: none */
    bool own_block; /* the current kernel's properties block has come */
    bool foreign;   /* another function's block came before it: a "Used" line is that one's */
    const char *arch;
    Slice *warnings; /* the "ptxas warning :" lines' texts, for attribute_warnings */
    int n_warnings, warnings_capacity;
} Parser;

/* What follows "ptxas info    :" in a line, or false if it is not an info line. */
static bool info_body(Slice line, Slice *body)
{
    size_t at = slice_find(line, "ptxas info", false);
    if (at == SIZE_MAX)
        return false;
    Slice rest = slice_trim(slice_from(line, at + strlen("ptxas info")));
    if (!slice_skip(&rest, ":"))
        return false;
    *body = slice_trim(rest);
    return true;
}

static void add_kernel(Parser *ps, Slice name)
{
    if (ps->n_kernels == ps->capacity) {
        int grown = ps->capacity ? 2 * ps->capacity : 4;
        ps->kernels = arena_grow(ps->arena, ps->kernels, (size_t)ps->capacity, (size_t)grown,
                                 sizeof *ps->kernels);
        ps->capacity = grown;
    }
    KernelUsage *u = &ps->kernels[ps->n_kernels];
    *u = (KernelUsage){.name = arena_strndup(ps->arena, name.p, name.n)};
    u->registers = -1; /* until its "Used" line */
    u->barriers = -1;  /* until a version that reports them does */
    ps->current = ps->n_kernels++;
    ps->props = -1;
    ps->own_block = false;
    ps->foreign = false;
}

/* "Compiling entry function 'NAME' for 'ARCH'": the last "' for '" ends the
 * name, which (demangled) may hold quotes and spaces. */
static bool compiling_line(Parser *ps, Slice rest)
{
    size_t sep = slice_find(rest, "' for '", true);
    if (sep == SIZE_MAX || sep < 2 || rest.p[0] != '\'')
        return false;
    Slice name = {rest.p + 1, sep - 1};
    Slice arch = slice_from(rest, sep + strlen("' for '"));
    if (arch.n < 2 || arch.p[arch.n - 1] != '\'')
        return false;
    arch.n--; /* the closing quote */
    if (!ps->arch)
        ps->arch = arena_strndup(ps->arena, arch.p, arch.n);
    add_kernel(ps, name);
    return true;
}

/* "Function properties for NAME": the stack line after it is the current
 * kernel's only if NAME is. */
static void properties_line(Parser *ps, Slice name)
{
    name = slice_trim(name);
    if (name.n && name.p[name.n - 1] == ':')
        name.n--; /* some versions end the header with a colon */
    bool ours = ps->current >= 0 && slice_is(name, ps->kernels[ps->current].name);
    ps->props = ours ? ps->current : -1;
    if (ours)
        ps->own_block = true;
    ps->foreign = !ours && !ps->own_block;
}

/* "Used R registers, ...": the current kernel's, unless it has had its
 * line, or a callee's block came before the kernel's own (then the line, if
 * a version ever printed one there, would be the callee's). */
static bool used_line(Parser *ps, Slice items)
{
    if (ps->current < 0 || ps->foreign)
        return true;
    KernelUsage *u = &ps->kernels[ps->current];
    if (u->registers >= 0)
        return true;
    return parse_items(items, u, "registers");
}

/* Where the item whose unit begins at `unit` begins: back over one space
 * and the count, which skips any prefix such as a build log's "1>". */
static size_t item_start(Slice line, size_t unit)
{
    size_t at = unit;
    if (at && line.p[at - 1] == ' ')
        at--;
    while (at && ((line.p[at - 1] >= '0' && line.p[at - 1] <= '9') || line.p[at - 1] == '+'))
        at--;
    return at;
}

static bool stack_line(Parser *ps, Slice line)
{
    int target = ps->props;
    ps->props = -1;
    if (target < 0)
        return true; /* a device function's */
    return parse_items(line, &ps->kernels[target], "bytes stack frame");
}

/* ---- warnings ------------------------------------------------------------- */

/* What follows "ptxas warning :" in a line, or false if it is not one. */
static bool warning_body(Slice line, Slice *body)
{
    size_t at = slice_find(line, "ptxas warning", false);
    if (at == SIZE_MAX)
        return false;
    Slice rest = slice_trim(slice_from(line, at + strlen("ptxas warning")));
    if (!slice_skip(&rest, ":"))
        return false;
    *body = slice_trim(rest);
    return body->n > 0;
}

/* Kept until every kernel of the run is known: ptxas warns about an
 * entry before its "Compiling" line ("Value of threads per SM for entry
 * NAME is out of range. .minnctapersm will be ignored", CUDA 13.0). */
static void add_warning(Parser *ps, Slice text)
{
    if (ps->n_warnings == ps->warnings_capacity) {
        int grown = ps->warnings_capacity ? 2 * ps->warnings_capacity : 4;
        ps->warnings = arena_grow(ps->arena, ps->warnings, (size_t)ps->warnings_capacity,
                                  (size_t)grown, sizeof *ps->warnings);
        ps->warnings_capacity = grown;
    }
    if (text.n > USAGE_WARNING_MAX_BYTES)
        text.n = USAGE_WARNING_MAX_BYTES;
    ps->warnings[ps->n_warnings++] = text;
}

/* A character of a PTX identifier: a name in a warning ends at one that
 * is not ("entry NAME is", "function 'NAME'", "NAME."). */
static bool is_identifier_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '$';
}

/* Whether `text` names `name` as a whole identifier. */
static bool names_kernel(Slice text, const char *name)
{
    size_t k = strlen(name);
    for (size_t i = 0; k && k <= text.n && i <= text.n - k; i++)
        if (memcmp(text.p + i, name, k) == 0 && (i == 0 || !is_identifier_char(text.p[i - 1])) &&
            (i + k == text.n || !is_identifier_char(text.p[i + k])))
            return true;
    return false;
}

static void give_warning(Parser *ps, KernelUsage *u, Slice text)
{
    if (!u->warnings)
        u->warnings = ARENA_ARRAY(ps->arena, const char *, USAGE_MAX_WARNINGS);
    for (int i = 0; i < u->n_warnings; i++)
        if (strlen(u->warnings[i]) == text.n && memcmp(u->warnings[i], text.p, text.n) == 0)
            return; /* said once is enough */
    if (u->n_warnings < USAGE_MAX_WARNINGS)
        u->warnings[u->n_warnings++] = arena_strndup(ps->arena, text.p, text.n);
}

/* Each warning to the kernels it names; one naming none (a module-wide
 * one) to every kernel of the run, since any of them may be the cause. */
static void attribute_warnings(Parser *ps)
{
    for (int w = 0; w < ps->n_warnings; w++) {
        bool named = false;
        for (int k = 0; k < ps->n_kernels; k++)
            if (names_kernel(ps->warnings[w], ps->kernels[k].name)) {
                give_warning(ps, &ps->kernels[k], ps->warnings[w]);
                named = true;
            }
        for (int k = 0; !named && k < ps->n_kernels; k++)
            give_warning(ps, &ps->kernels[k], ps->warnings[w]);
    }
}

static bool parse_line(Parser *ps, Slice line)
{
    Slice body;
    if (warning_body(line, &body)) {
        add_warning(ps, body);
        return true;
    }
    if (!info_body(line, &body)) {
        size_t at = slice_find(line, "bytes stack frame", false);
        return at == SIZE_MAX || stack_line(ps, slice_from(line, item_start(line, at)));
    }
    if (slice_skip(&body, "Compiling entry function "))
        return compiling_line(ps, body);
    if (slice_skip(&body, "Function properties for "))
        properties_line(ps, body);
    else if (slice_skip(&body, "Used "))
        return used_line(ps, body);
    return true;
}

bool ptxas_parse(const char *text, size_t len, Arena *arena, UsageReport *out)
{
    Parser ps = {.arena = arena, .current = -1, .props = -1};
    Slice rest = {text, len};
    bool ok = true;
    while (ok && rest.n) {
        size_t nl = slice_find(rest, "\n", false);
        size_t end = nl == SIZE_MAX ? rest.n : nl;
        ok = parse_line(&ps, (Slice){rest.p, end});
        rest = slice_from(rest, nl == SIZE_MAX ? rest.n : nl + 1);
    }
    for (int i = 0; ok && i < ps.n_kernels; i++)
        ok = ps.kernels[i].registers >= 0;
    if (ok)
        attribute_warnings(&ps);
    *out = (UsageReport){.arch = ps.arch};
    if (ok) {
        out->kernels = ps.kernels;
        out->n_kernels = ps.n_kernels;
    }
    return ok;
}

/* ---- relocatable PTX --------------------------------------------------------- */

/* A token of PTX: a directive (".extern"), a name, a number, a string or
 * one other character; `line` when a newline came before it. */
typedef struct Token {
    Slice text;
    bool line;
} Token;

typedef struct Scanner {
    Slice rest;
    Token token; /* the current one; text.n == 0 at the end */
} Scanner;

static bool is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '$' || c == '%';
}

/* Skips blanks and comments; true if a newline was among them. */
static bool skip_blanks(Slice *s)
{
    bool line = false;
    while (s->n) {
        if (s->p[0] == '\n' || is_blank(s->p[0]) || s->p[0] == '\f' || s->p[0] == '\v') {
            line |= s->p[0] == '\n';
            *s = slice_from(*s, 1);
        } else if (s->n >= 2 && s->p[0] == '/' && s->p[1] == '/') {
            size_t nl = slice_find(*s, "\n", false);
            *s = slice_from(*s, nl == SIZE_MAX ? s->n : nl);
        } else if (s->n >= 2 && s->p[0] == '/' && s->p[1] == '*') {
            size_t close = slice_find(slice_from(*s, 2), "*/", false);
            line |= memchr(s->p, '\n', close == SIZE_MAX ? s->n : close + 4) != NULL;
            *s = slice_from(*s, close == SIZE_MAX ? s->n : close + 4);
        } else {
            break;
        }
    }
    return line;
}

static void next_token(Scanner *sc)
{
    bool line = skip_blanks(&sc->rest);
    Slice s = sc->rest;
    size_t n = s.n ? 1 : 0;
    if (s.n && s.p[0] == '"') {
        while (n < s.n && s.p[n] != '"')
            n += s.p[n] == '\\' && n + 1 < s.n ? 2 : 1;
        n = n < s.n ? n + 1 : s.n;
    } else if (s.n && (s.p[0] == '.' || is_name_char(s.p[0]))) {
        while (n < s.n && (is_name_char(s.p[n]) || s.p[n] == '.'))
            n++; /* ".b8", "0f3F800000", "1.5", "$str$1" */
    }
    sc->token = (Token){{s.p, n}, line};
    sc->rest = slice_from(s, n);
}

static bool token_is(const Scanner *sc, const char *text)
{
    return slice_is(sc->token.text, text);
}

/* Past the '}' matching the current '{'. */
static void skip_braces(Scanner *sc)
{
    for (int depth = 0; sc->token.text.n; next_token(sc)) {
        if (token_is(sc, "{"))
            depth++;
        else if (token_is(sc, "}") && --depth == 0)
            break;
    }
    next_token(sc);
}

/* One module-scope declaration, as far as ptxas_needs_compile_only asks. */
typedef struct Decl {
    bool external;       /* .extern */
    bool visible;        /* .visible or .weak: linked by name from other files */
    const char *kind;    /* ".func", ".entry", ".global", ".const", ".shared", ... or NULL */
    Slice name;          /* the function's or variable's; n == 0: none */
} Decl;

static bool is_space_directive(const Scanner *sc)
{
    static const char *const kinds[] = {".func", ".entry", ".global", ".const", ".shared",
                                        ".local", ".tex"};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        if (token_is(sc, kinds[i]))
            return true;
    }
    return false;
}

static const char *token_kind(const Scanner *sc)
{
    return token_is(sc, ".func")     ? ".func"
           : token_is(sc, ".entry")  ? ".entry"
           : token_is(sc, ".global") ? ".global"
           : token_is(sc, ".const")  ? ".const"
           : token_is(sc, ".shared") ? ".shared"
                                     : ".other";
}

/* Reads the declaration at the current token, to just past its ';' or
 * body.  The name is the first name after the kind outside parentheses
 * (a .func's return parameters come before it). */
static void read_decl(Scanner *sc, Decl *d)
{
    *d = (Decl){0};
    int parens = 0;
    bool initializer = false;
    while (sc->token.text.n) {
        Slice t = sc->token.text;
        if (token_is(sc, ";") && parens == 0) {
            next_token(sc);
            return;
        }
        if (token_is(sc, "{") && parens == 0) {
            skip_braces(sc); /* a body ends the declaration; an initializer does not */
            if (!initializer)
                return;
            continue;
        }
        if (token_is(sc, "("))
            parens++;
        else if (token_is(sc, ")") && parens > 0)
            parens--;
        else if (token_is(sc, "="))
            initializer = true;
        else if (token_is(sc, ".extern"))
            d->external = true;
        else if (token_is(sc, ".visible") || token_is(sc, ".weak"))
            d->visible = true;
        else if (!d->kind && is_space_directive(sc))
            d->kind = token_kind(sc);
        else if (d->kind && !d->name.n && parens == 0 && t.p[0] != '.' &&
                 !(t.p[0] >= '0' && t.p[0] <= '9') && is_name_char(t.p[0]))
            d->name = t;
        next_token(sc);
    }
}

/* Directives that end at the end of their line, with no ';'. */
static bool is_line_directive(const Scanner *sc)
{
    return token_is(sc, ".version") || token_is(sc, ".target") ||
           token_is(sc, ".address_size") || token_is(sc, ".file");
}

/* The functions ptxas itself resolves in whole-program mode: the system
 * calls of NVIDIA's "PTX Interoperability" (printf, malloc, free,
 * assert), which nvcc declares .extern .func without -rdc. */
static bool is_system_call(Slice name)
{
    return slice_is(name, "vprintf") || slice_is(name, "malloc") || slice_is(name, "free") ||
           slice_is(name, "__assertfail");
}

/* Whether `d` is an extern ptxas cannot resolve without -c. */
static bool needs_linking(const Decl *d)
{
    if (!d->external || !d->kind || !d->name.n)
        return false;
    if (strcmp(d->kind, ".func") == 0)
        return !is_system_call(d->name);
    return strcmp(d->kind, ".entry") == 0 || strcmp(d->kind, ".global") == 0 ||
           strcmp(d->kind, ".const") == 0;
}

/* Whether `d` defines a function other files may call: nvcc -rdc=true
 * marks every non-static device function .visible, whole-program PTX
 * none (nvcc keeps them .func, as silkc does), and ptxas assembles such
 * a module whole, inlining and allocating across calls, where nvcc -dc's
 * ptxas -c keeps the calls: 15 registers against 24 for a kernel calling
 * its own file's function. */
static bool is_relocatable_function(const Decl *d)
{
    return d->visible && !d->external && d->kind && strcmp(d->kind, ".func") == 0;
}

typedef struct Names {
    Slice *items;
    size_t n, capacity;
} Names;

static bool names_add(Names *names, Slice name)
{
    if (names->n == names->capacity) {
        size_t grown = names->capacity ? 2 * names->capacity : 16;
        Slice *items = realloc(names->items, grown * sizeof *items);
        if (!items)
            return false;
        names->items = items;
        names->capacity = grown;
    }
    names->items[names->n++] = name;
    return true;
}

static int compare_names(const void *a, const void *b)
{
    const Slice *x = a, *y = b;
    int order = memcmp(x->p, y->p, x->n < y->n ? x->n : y->n);
    return order ? order : (x->n > y->n) - (x->n < y->n);
}

/* Whether sorted `names` holds `name`: a module may define thousands of
 * functions and declare hundreds of externs. */
static bool names_has(const Names *names, Slice name)
{
    return names->n && bsearch(&name, names->items, names->n, sizeof name, compare_names);
}

/* What one scan of a module finds: the externs that need linking, the
 * names it defines, its entries, and whether it defines a function other
 * files may call.  ok is false when out of memory. */
typedef struct ModuleScan {
    Names externs, defined, entries;
    bool relocatable, ok;
} ModuleScan;

static void scan_module(const char *ptx, size_t len, ModuleScan *scan)
{
    Scanner sc = {.rest = {ptx, ptx ? len : 0}};
    *scan = (ModuleScan){.ok = true};
    next_token(&sc);
    while (scan->ok && sc.token.text.n) {
        if (is_line_directive(&sc)) {
            do
                next_token(&sc);
            while (sc.token.text.n && !sc.token.line);
            continue;
        }
        Decl d;
        read_decl(&sc, &d);
        scan->relocatable |= is_relocatable_function(&d);
        if (needs_linking(&d))
            scan->ok = names_add(&scan->externs, d.name);
        else if (!d.external && d.kind && d.name.n)
            scan->ok = names_add(&scan->defined, d.name) &&
                       (strcmp(d.kind, ".entry") != 0 || names_add(&scan->entries, d.name));
    }
}

static void scan_free(ModuleScan *scan)
{
    free(scan->externs.items);
    free(scan->defined.items);
    free(scan->entries.items);
}

/* Out of memory: no -c.  Wrongly left out, ptxas fails and says why;
 * wrongly added, it would change the figures without a word. */
static bool scan_needs_compile_only(ModuleScan *scan)
{
    if (!scan->ok)
        return false;
    if (scan->relocatable)
        return true;
    if (scan->defined.n)
        qsort(scan->defined.items, scan->defined.n, sizeof *scan->defined.items, compare_names);
    for (size_t i = 0; i < scan->externs.n; i++)
        if (!names_has(&scan->defined, scan->externs.items[i]))
            return true;
    return false;
}

bool ptxas_needs_compile_only(const char *ptx, size_t len)
{
    ModuleScan scan;
    scan_module(ptx, len, &scan);
    bool needs = scan_needs_compile_only(&scan);
    scan_free(&scan);
    return needs;
}

/* ---- finding ptxas -------------------------------------------------------- */

static const char *const PTXAS_CANDIDATES[] = {
#ifdef PTXAS_PATH
    PTXAS_PATH, /* configure's (--with-cuda, by default /usr/local/cuda) */
#endif
    "ptxas", NULL};

const char *ptxas_find(void)
{
    return jobs_find_tool("SILK_PTXAS", PTXAS_CANDIDATES);
}

/* ---- running ptxas -------------------------------------------------------- */

/* What the driver needs to know of one PTX file before and after ptxas
 * runs on it: whether it needs -c, and its entries, each of which a
 * working ptxas reports (NUL-terminated, in the arena). */
typedef struct PtxFacts {
    bool compile_only;
    const char **entries;
    size_t n_entries;
} PtxFacts;

static PtxFacts read_facts(const char *path, Arena *arena)
{
    PtxFacts facts = {0};
    size_t len;
    char *text = read_file(path, READ_FILE_CODE_LIMIT_MIB, &len);
    if (!text)
        return facts; /* ptxas will say why */
    ModuleScan scan;
    scan_module(text, len, &scan);
    facts.compile_only = scan_needs_compile_only(&scan);
    facts.entries = ARENA_ARRAY(arena, const char *, scan.entries.n + 1);
    for (size_t i = 0; scan.ok && i < scan.entries.n; i++)
        facts.entries[facts.n_entries++] =
            arena_strndup(arena, scan.entries.items[i].p, scan.entries.items[i].n);
    scan_free(&scan);
    free(text);
    return facts;
}

/* A ptxas that exits 0 has written its output file and reported every
 * entry it was given; one that did not (a wrong SILK_PTXAS, /bin/true) is
 * no ptxas, and its silence must not pass for a kernel using nothing.
 * NULL when it did, else what it left out. */
static const char *missing_result(const UsageReport *report, const PtxFacts *facts,
                                  const char *cubin, Arena *arena)
{
    struct stat st;
    if (cubin && (stat(cubin, &st) != 0 || (S_ISREG(st.st_mode) && st.st_size == 0)))
        return "exited 0 without writing its output file";
    for (size_t i = 0; i < facts->n_entries; i++)
        if (!usage_kernel(report, facts->entries[i])) {
            const char *format = "exited 0 without reporting the resources of kernel '%s'";
            size_t size = strlen(format) + strlen(facts->entries[i]);
            char *text = arena_alloc(arena, size, 1);
            snprintf(text, size, format, facts->entries[i]);
            return text;
        }
    return NULL;
}

/* Fills one pair's report from its job: ptxas's -v output parsed, or its
 * exit status with its output verbatim, or PTXAS_NO_RESULT with what a
 * ptxas that exited 0 left out. */
static void finish_pair(const JobRun *run, const char *arch, const PtxFacts *facts,
                        const char *cubin, Arena *arena, UsageReport *out)
{
    if (run->status == JOBS_NOT_STARTED) {
        *out = (UsageReport){.exit_status = PTXAS_NOT_STARTED};
    } else {
        int result = run->status;
        const char *missing = NULL;
        if (result == 0 && !ptxas_parse(run->output, run->len, arena, out))
            result = PTXAS_BAD_OUTPUT;
        if (result == 0 && (missing = missing_result(out, facts, cubin, arena)))
            result = PTXAS_NO_RESULT;
        if (result != 0)
            *out = (UsageReport){.errors = missing ? missing : run->output};
        out->exit_status = result;
        out->signal = run->signal;
    }
    out->arch = arena_strndup(arena, arch, strlen(arch));
}

/* The first result (in input order) that is not 0, errno set for a start
 * failure. */
static int first_failure(const JobRun *runs, const UsageReport *out, int n)
{
    for (int i = 0; i < n; i++) {
        int result = out[i].exit_status;
        if (result == PTXAS_NOT_STARTED)
            errno = runs[i].error;
        if (result != 0)
            return result;
    }
    return 0;
}

/* ptxas_run_targets and ptxas_assemble_targets: `PTXAS [-c] -v --gpu-name
 * ARCH -o CUBIN PTX` per pair, CUBIN /dev/null when only the report is
 * wanted, -c when the PTX needs linking (ptxas_needs_compile_only; read
 * once for consecutive pairs of the same file), both paths operands that
 * cannot read as options (jobs_operand). */
static int run_pool(const char *ptxas, const char *ptx_paths[], const char *archs[],
                    const char *cubin_paths[], int n, Arena *arena, UsageReport *out)
{
    if (n == 0)
        return 0;
    if (n < 0 || !ptxas || !ptx_paths || !archs) {
        errno = EINVAL;
        return PTXAS_NOT_STARTED;
    }
    const char *path = jobs_resolve_command(ptxas, arena); /* NULL: no pair can start */
    JobRun *runs = ARENA_ARRAY(arena, JobRun, (size_t)n);
    PtxFacts *facts = ARENA_ARRAY(arena, PtxFacts, (size_t)n);
    for (int i = 0; i < n; i++) {
        bool same_file = i > 0 && strcmp(ptx_paths[i], ptx_paths[i - 1]) == 0;
        facts[i] = same_file ? facts[i - 1] : read_facts(ptx_paths[i], arena);
        const char *cubin = cubin_paths ? jobs_operand(cubin_paths[i], arena) : "/dev/null";
        const char *args[] = {"-v", "--gpu-name", archs[i], "-o", cubin,
                              jobs_operand(ptx_paths[i], arena), NULL};
        char **argv = ARENA_ARRAY(arena, char *, sizeof args / sizeof args[0] + 2);
        int k = 0;
        argv[k++] = (char *)(path ? path : ptxas);
        if (facts[i].compile_only)
            argv[k++] = "-c";
        memcpy(argv + k, args, sizeof args);
        runs[i] = (JobRun){.path = path, .argv = argv};
    }
    jobs_run(runs, n, arena);
    for (int i = 0; i < n; i++)
        finish_pair(&runs[i], archs[i], &facts[i], cubin_paths ? cubin_paths[i] : NULL, arena,
                    &out[i]);
    return first_failure(runs, out, n);
}

int ptxas_run_targets(const char *ptxas, const char *ptx_paths[], const char *archs[], int n,
                      Arena *arena, UsageReport *out)
{
    return run_pool(ptxas, ptx_paths, archs, NULL, n, arena, out);
}

int ptxas_assemble_targets(const char *ptxas, const char *ptx_paths[], const char *archs[],
                           const char *cubin_paths[], int n, Arena *arena, UsageReport *out)
{
    if (n > 0 && !cubin_paths) {
        errno = EINVAL;
        return PTXAS_NOT_STARTED;
    }
    return run_pool(ptxas, ptx_paths, archs, cubin_paths, n, arena, out);
}

int ptxas_run(const char *ptxas, const char *ptx_path, const char *arch, Arena *arena,
              UsageReport *out)
{
    return ptxas_run_targets(ptxas, &ptx_path, &arch, 1, arena, out);
}
