/*
 * c_names.c: the C names of a program's host code.
 *
 * A host function `f` is silk_fn_f (silk_fn_f_2, ... when host functions
 * of two modules share the name).  A parameter or local keeps its Silk
 * name, unless C or the generated code needs it: a C keyword, a name the
 * included headers define (a macro such as NAN or linux, a type such as
 * uint64_t), any name with no lowercase letter and more than one
 * character (the headers' macros are such names), or one starting with
 * '_' or silk (in any case), which the generated code and the C
 * implementation use.  Such a name gets a '_' appended; so does every
 * name that already ends in '_', so that two Silk names never meet in
 * one C name.  Within a function every symbol has its own C name: a name
 * Silk shadows in a nested block is numbered (n, n_2, n_3), so that no C
 * declaration ever hides another and an initializer always reads the
 * variable the source means.
 */
#include "c_internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <string.h>

static const char *const RESERVED[] = {
    /* C11's keywords */
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
    "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
    "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef",
    "union", "unsigned", "void", "volatile", "while",
    /* GNU C's, and its predefined macros */
    "asm", "typeof", "linux", "unix", "i386",
    /* what the generated code names, and the headers' lowercase macros */
    "bool", "true", "false", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t",
    "uint32_t", "uint64_t", "uintptr_t", "size_t", "errno", "stdin", "stdout", "stderr",
    "math_errhandling", "main",
};

/* ---- sets of names -------------------------------------------------------------------- */

static uint32_t hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

bool c_names_has(const CNameSet *set, const char *name)
{
    if (!set->capacity)
        return false;
    for (uint32_t i = hash(name) & (set->capacity - 1);; i = (i + 1) & (set->capacity - 1)) {
        if (!set->slots[i])
            return false;
        if (strcmp(set->slots[i], name) == 0)
            return true;
    }
}

static void insert(CNameSet *set, const char *name)
{
    uint32_t i = hash(name) & (set->capacity - 1);
    while (set->slots[i])
        i = (i + 1) & (set->capacity - 1);
    set->slots[i] = name;
    set->count++;
}

/* Adds `name` (kept, not copied); false when it was there. */
bool c_names_add(CEmit *e, CNameSet *set, const char *name)
{
    if (c_names_has(set, name))
        return false;
    if (2 * (set->count + 1) > set->capacity) {
        CNameSet bigger = {.capacity = set->capacity ? 2 * set->capacity : 64};
        bigger.slots = ARENA_ARRAY(e->arena, const char *, bigger.capacity);
        for (uint32_t i = 0; i < set->capacity; i++)
            if (set->slots[i])
                insert(&bigger, set->slots[i]);
        *set = bigger;
    }
    insert(set, name);
    return true;
}

/* ---- one name ------------------------------------------------------------------------- */

static bool starts_with_silk(const char *name)
{
    return strncmp(name, "silk", 4) == 0 || strncmp(name, "Silk", 4) == 0 ||
           strncmp(name, "SILK", 4) == 0;
}

static bool has_lowercase(const char *name)
{
    for (; *name; name++)
        if (islower((unsigned char)*name))
            return true;
    return false;
}

static bool needs_suffix(const char *name)
{
    size_t len = strlen(name);
    if (len == 0 || name[0] == '_' || name[len - 1] == '_' || starts_with_silk(name) ||
        (len > 1 && !has_lowercase(name)))
        return true;
    for (size_t i = 0; i < sizeof RESERVED / sizeof *RESERVED; i++)
        if (strcmp(name, RESERVED[i]) == 0)
            return true;
    return false;
}

const char *c_safe_name(CEmit *e, const char *name)
{
    return needs_suffix(name) ? c_format(e, "%s_", name) : name;
}

/* ---- functions ------------------------------------------------------------------------- */

const char *c_func_name(const CEmit *e, const Node *decl)
{
    for (uint32_t i = 0; i < e->n_funcs; i++)
        if (e->funcs[i]->decl == decl)
            return e->func_names[i];
    return "silk_fn_unknown"; /* unreachable: every host function is named first */
}

/* ---- a function's locals ---------------------------------------------------------------- */

static uint32_t slot_of(const CEmit *e, const Symbol *s)
{
    uintptr_t p = (uintptr_t)s;
    return (uint32_t)((p >> 4) ^ (p >> 20)) & (e->locals_capacity - 1);
}

static CLocal *find_slot(const CEmit *e, const Symbol *s)
{
    uint32_t i = slot_of(e, s);
    while (e->locals[i].symbol && e->locals[i].symbol != s)
        i = (i + 1) & (e->locals_capacity - 1);
    return &e->locals[i];
}

const CLocal *c_local(const CEmit *e, const Symbol *symbol)
{
    if (!e->locals_capacity)
        return NULL;
    const CLocal *l = find_slot(e, symbol);
    return l->symbol ? l : NULL;
}

typedef struct Walk {
    CEmit *e;
    uint32_t n;                /* symbols found */
    const Symbol **symbols;    /* the declarations, in order */
    uint32_t capacity;
    uint32_t pass;             /* 0: count, 1: collect */
} Walk;

static void found(Walk *w, const Symbol *s)
{
    if (w->pass == 1)
        w->symbols[w->n] = s;
    w->n++;
}

static void visit_declaration(Node *n, void *data)
{
    if ((n->kind == ND_LET || n->kind == ND_FOR) && n->symbol)
        found(data, n->symbol);
}

/* The reads of every symbol: each use of its name, less its uses as the
 * target of an assignment (a write, or the base of a field written). */
static void visit_use(Node *n, void *data)
{
    CEmit *e = data;
    const Node *target = n->kind == ND_ASSIGN ? n->a : NULL;
    while (target && target->kind == ND_FIELD)
        target = target->a;
    if (n->kind == ND_NAME && n->symbol && c_local(e, n->symbol))
        find_slot(e, n->symbol)->reads++;
    if (target && target->kind == ND_NAME && target->symbol && c_local(e, target->symbol))
        find_slot(e, target->symbol)->reads--;
}

/* A name of its own for `s`: its safe name, or that numbered. */
static void name_symbol(CEmit *e, const Symbol *s)
{
    const char *base = c_safe_name(e, s->name), *name = base;
    for (uint32_t k = 2; !c_names_add(e, &e->names, name); k++)
        name = c_format(e, "%s_%u", base, k);
    CLocal *l = find_slot(e, s);
    *l = (CLocal){.symbol = s, .name = name};
}

void c_names_function(CEmit *e, const FuncInfo *f)
{
    Walk w = {.e = e};
    ast_walk(f->decl->b, e->arena, visit_declaration, &w);
    uint32_t n_symbols = w.n + (uint32_t)f->n_params;
    w.symbols = ARENA_ARRAY(e->arena, const Symbol *, n_symbols + 1);
    for (uint32_t i = 0; i < f->decl->list.count; i++)
        w.symbols[i] = scope_find_here(f->scope, f->decl->list.items[i]->name);
    w.n = (uint32_t)f->n_params;
    w.pass = 1;
    ast_walk(f->decl->b, e->arena, visit_declaration, &w);
    e->locals_capacity = 16;
    while (e->locals_capacity < 2 * (w.n + 1))
        e->locals_capacity *= 2;
    e->locals = ARENA_ARRAY(e->arena, CLocal, e->locals_capacity);
    e->names = (CNameSet){0};
    e->temps = 0;
    for (uint32_t i = 0; i < w.n; i++)
        if (w.symbols[i])
            name_symbol(e, w.symbols[i]);
    ast_walk(f->decl->b, e->arena, visit_use, e);
}

const char *c_temp(CEmit *e, const char *what)
{
    const char *name;
    do
        name = c_format(e, "silk_%s%u", what, ++e->temps);
    while (!c_names_add(e, &e->names, name));
    return name;
}

/* ---- places ---------------------------------------------------------------------------------- */

/* "silk_at_saxpy_27_11": the file's base name (without .silk) as an
 * identifier, its line and column. */
static const char *site_name(CEmit *e, const char *path, uint32_t line, uint32_t col)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t len = strlen(base);
    if (len > 5 && strcmp(base + len - 5, ".silk") == 0)
        len -= 5;
    char *stem = c_format(e, "%.*s", (int)len, base);
    for (char *p = stem; *p; p++)
        if (!isalnum((unsigned char)*p))
            *p = '_';
    const char *name = c_format(e, "silk_at_%s_%u_%u", stem, line, col);
    for (uint32_t k = 2; c_names_has(&e->site_names, name); k++)
        name = c_format(e, "silk_at_%s_%u_%u_%u", stem, line, col, k);
    return name;
}

/* Each call makes its own: two calls never share a place. */
const char *c_site(CEmit *e, Span at)
{
    const SourceFile *file = &e->c->sources.files[at.file];
    uint32_t line, col;
    source_line_col(file, at.start, &line, &col);
    CSite site = {.name = site_name(e, file->path, line, col), .file = file->path, .line = line,
                  .col = col};
    c_names_add(e, &e->site_names, site.name);
    if ((e->n_sites & (e->n_sites - 1)) == 0) /* 0, 1, 2, 4...: full, double it */
        e->sites = arena_grow(e->arena, e->sites, e->n_sites, e->n_sites ? 2 * e->n_sites : 1,
                              sizeof *e->sites);
    e->sites[e->n_sites++] = site;
    return site.name;
}
