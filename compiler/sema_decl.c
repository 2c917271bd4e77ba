/*
 * sema_decl.c: a module's top level — declaring its functions and std
 * types, binding its imports, and checking signatures and attributes.
 *
 * @launch is checked here, before any body (launch-attribute.txt: "The
 * arguments are checked before anything else is compiled"); a kernel whose
 * @launch is rejected has its body skipped, since ctx.threads and
 * everything that depends on it would be meaningless.
 */
#include "sema.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

bool sema_is_std(const Checker *k) { return k->module && k->module->package == PKG_STD; }

const char *sema_host_kind(const Node *fn)
{
    uint32_t kind = fn->flags & (NF_ASYNC | NF_TASK);
    return kind == (NF_ASYNC | NF_TASK) ? "an async task fn"
           : kind == NF_ASYNC           ? "an async fn"
           : kind == NF_TASK            ? "a task fn"
                                        : NULL;
}

static Symbol *new_symbol(Checker *k, SymbolKind kind, const char *name, Span span, Node *decl)
{
    Symbol *s = ARENA_NEW(k->arena, Symbol);
    s->kind = kind;
    s->name = name;
    s->span = span;
    s->decl = decl;
    s->module = k->module;
    return s;
}

static void define(Checker *k, Scope *scope, Symbol *s)
{
    Symbol *first = scope_add(scope, s);
    if (!first)
        return;
    diag_error(k->diag, s->span, "'%s' is already declared", s->name);
    diag_note(k->diag, first->span, "the first declaration of '%s' is here", s->name);
}

static void declare_struct(Checker *k, Scope *scope, Node *d)
{
    Symbol *s = new_symbol(k, SYM_STRUCT, d->name, d->name_span, d);
    Type *t = ARENA_NEW(k->arena, Type);
    t->kind = TY_STRUCT;
    t->name = d->name;
    s->type = t;
    define(k, scope, s);
}

static void declare_function(Checker *k, Scope *scope, Node *d)
{
    Symbol *s = new_symbol(k, SYM_FUNC, d->name, d->name_span, d);
    FuncInfo *f = ARENA_NEW(k->arena, FuncInfo);
    f->decl = d;
    f->module = k->module;
    f->gpu = (d->flags & (NF_KERNEL | NF_DEVICE)) != 0;
    f->launch_ok = true;
    s->func = f;
    define(k, scope, s);
}

void sema_declare_module(Checker *k, Module *m)
{
    Module *outer = k->module;
    k->module = m;
    m->scope = scope_new(k->arena, NULL);
    for (uint32_t i = 0; i < m->tree->list.count; i++) {
        Node *d = m->tree->list.items[i];
        if (d->kind == ND_FUNC)
            declare_function(k, m->scope, d);
        else if (d->kind == ND_STRUCT)
            declare_struct(k, m->scope, d);
    }
    k->module = outer;
}

/* ---- imports ------------------------------------------------------------------ */

/* The standard library, loaded, declared and its signatures checked on
 * first use. */
Module *sema_std_module(Checker *k, Span use)
{
    bool fresh = !k->c->std_gpu;
    Module *std = compile_std_gpu(k->c, use);
    if (std && fresh && !std->scope) {
        sema_declare_module(k, std);
        sema_check_signatures(k, std);
    }
    return std;
}

static bool is_relative(const char *path)
{
    return strncmp(path, "./", 2) == 0 || strncmp(path, "../", 3) == 0;
}

/* "dir/of/importer" + "./x.silk" */
static const char *beside(Checker *k, const char *importer, const char *path)
{
    const char *slash = strrchr(importer, '/');
    size_t dir = slash ? (size_t)(slash - importer) + 1 : 0;
    size_t len = dir + strlen(path) + 1;
    char *full = arena_alloc(k->arena, len, 1);
    memcpy(full, importer, dir);
    strcpy(full + dir, path);
    return full;
}

static Module *load_dependency(Checker *k, Node *import)
{
    const CompileOptions *o = &k->c->options;
    for (int i = 0; i < o->n_include_dirs; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.silk", o->include_dirs[i], import->str);
        Module *m = compile_load(k->c, path, import->str, PKG_DEPENDENCY);
        if (m)
            return m;
    }
    diag_error(k->diag, import->span, "cannot find package module '%s': no %s.silk under %s",
               import->str, import->str, o->n_include_dirs ? "the -I directories" : "any -I directory (none given)");
    return NULL;
}

static Module *imported_module(Checker *k, Module *m, Node *import)
{
    if (strcmp(import->str, "std/gpu") == 0) {
        if (k->c->options.nostd) {
            diag_error(k->diag, import->span, "the standard library is not available with --nostd");
            return NULL;
        }
        return sema_std_module(k, import->span);
    }
    if (!is_relative(import->str))
        return load_dependency(k, import);
    const char *path = beside(k, m->path, import->str);
    Module *target = compile_load(k->c, path, path, m->package);
    if (!target)
        diag_error(k->diag, import->span, "cannot read '%s': %s", path, strerror(errno));
    return target;
}

/* An imported name is a new symbol for the same declaration: its own name
 * is the alias, but a launch still records the declaration's name. */
/* A name whose import failed: it is defined, as an error, so that its
 * uses say nothing more. */
static void bind_poison(Checker *k, Module *m, Node *item)
{
    Symbol *s = new_symbol(k, SYM_LOCAL, item->a ? item->a->name : item->name, item->name_span, item);
    s->type = type_scalar(TY_ERROR);
    s->read = true;
    scope_add(m->scope, s);
}

static void bind_import(Checker *k, Module *m, Module *from, Node *item)
{
    Symbol *target = scope_find_here(from->scope, item->name);
    if (!target || target->module != from) {
        diag_error(k->diag, item->name_span, "'%s' is not declared in '%s'", item->name,
                   from->import_name);
        bind_poison(k, m, item);
        return;
    }
    Symbol *alias = ARENA_NEW(k->arena, Symbol);
    *alias = *target;
    if (item->a) {
        alias->name = item->a->name;
        alias->span = item->a->span;
    } else {
        alias->span = item->name_span;
    }
    define(k, m->scope, alias);
}

void sema_resolve_imports(Checker *k, Module *m)
{
    Module *outer = k->module;
    k->module = m;
    for (uint32_t i = 0; i < m->tree->list.count; i++) {
        Node *d = m->tree->list.items[i];
        if (d->kind != ND_IMPORT)
            continue;
        Module *from = imported_module(k, m, d);
        if (!from) {
            for (uint32_t j = 0; j < d->list.count; j++)
                bind_poison(k, m, d->list.items[j]);
            continue;
        }
        if (!from->scope)
            sema_declare_module(k, from);
        for (uint32_t j = 0; j < d->list.count; j++)
            bind_import(k, m, from, d->list.items[j]);
    }
    k->module = outer;
}

/* A name the program did not import but std/gpu declares. */
void sema_note_std_name(Checker *k, const char *name)
{
    Module *std = k->c->options.nostd || sema_is_std(k) ? NULL : sema_std_module(k, (Span){0, 0, 0});
    Symbol *s = std && std->scope && !sema_is_std(k) ? scope_find_here(std->scope, name) : NULL;
    if (s)
        diag_note(k->diag, s->span, "'%s' is declared in std/gpu: import { %s } from \"std/gpu\"", name, name);
}

/* ---- types ---------------------------------------------------------------------- */

/* An extent of a kernel parameter's tensor: a constant, or the name of an
 * earlier integer parameter (the parameters are in scope as they come). */
static bool resolve_extent(Checker *k, Node *e, Type *t, int i, bool params)
{
    t->extents[i] = e;
    t->dims[i] = -1;
    if (params && e->kind == ND_NAME) {
        Symbol *s = scope_find(k->scope, e->name);
        if (s && s->kind == SYM_PARAM && type_is_integer(s->type)) {
            e->symbol = s;
            e->type = s->type;
            return true;
        }
        if (!s || s->kind == SYM_PARAM) { /* a later parameter, or a non-integer one */
            diag_error(k->diag, e->span, "an extent must be an integer constant or the name of an earlier integer parameter");
            return false;
        }
    }
    Type *et = sema_check_expr(k, e, type_scalar(TY_U64));
    if (et->kind == TY_ERROR)
        return false;
    ConstValue v = const_eval(k, e);
    if (!v.known || !type_is_integer(v.type)) {
        diag_error(k->diag, e->span, params ? "an extent must be an integer constant or the name of an earlier integer parameter"
                                            : "an extent must be an integer constant");
        return false;
    }
    if (const_is_negative(v) || v.bits == 0) {
        diag_error(k->diag, e->span, "an extent must be positive");
        return false;
    }
    t->dims[i] = (int64_t)v.bits;
    return true;
}

static Type *resolve_array(Checker *k, Node *n, TypeKind kind, Type *elem, bool params)
{
    if (n->list2.count > TYPE_MAX_DIMS) {
        diag_error(k->diag, n->list2.items[TYPE_MAX_DIMS]->span, "more than %d dimensions",
                   TYPE_MAX_DIMS);
        return type_scalar(TY_ERROR);
    }
    Type *t = ARENA_NEW(k->arena, Type);
    t->kind = kind;
    t->elem = elem;
    t->rank = (int)n->list2.count;
    for (int i = 0; i < t->rank; i++)
        if (!resolve_extent(k, n->list2.items[i], t, i, params && kind == TY_TENSOR))
            return type_scalar(TY_ERROR);
    return t;
}

/* tensor<T>[...] and tile<T>[...]: one scalar element type and extents. */
static Type *resolve_view(Checker *k, Node *n, TypeKind kind, bool params)
{
    const char *what = kind == TY_TENSOR ? "tensor" : "tile";
    if (n->list.count != 1) {
        diag_error(k->diag, n->span, "%s takes one element type: %s<f32>[...]", what, what);
        return type_scalar(TY_ERROR);
    }
    Type *elem = sema_resolve_type(k, n->list.items[0], false);
    if (elem->kind != TY_ERROR && !type_is_numeric(elem)) {
        char buf[64];
        diag_error(k->diag, n->list.items[0]->span, "a %s's elements must be numbers, not %s",
                   what, type_name(elem, buf, sizeof buf));
        return type_scalar(TY_ERROR);
    }
    if (n->list2.count == 0) {
        diag_error(k->diag, n->span, "a %s needs its extents: %s<%s>[d0, d1, ...]", what, what,
                   elem->name);
        return type_scalar(TY_ERROR);
    }
    return elem->kind == TY_ERROR ? elem : resolve_array(k, n, kind, elem, params);
}

Type *sema_resolve_type(Checker *k, Node *n, bool params)
{
    if (!n)
        return type_scalar(TY_VOID);
    if (strcmp(n->name, "tensor") == 0)
        return resolve_view(k, n, TY_TENSOR, params);
    if (strcmp(n->name, "tile") == 0)
        return resolve_view(k, n, TY_TILE, params);
    Type *t = type_scalar_named(n->name);
    if (!t) {
        Symbol *s = scope_find(k->scope ? k->scope : k->module->scope, n->name);
        if (scope_is_poison(s))
            return type_scalar(TY_ERROR);
        if (s && s->kind == SYM_STRUCT)
            t = s->type;
    }
    if (!t) {
        diag_error(k->diag, n->name_span, "unknown type '%s'", n->name);
        sema_note_std_name(k, n->name);
        return type_scalar(TY_ERROR);
    }
    if (n->list.count > 0) {
        diag_error(k->diag, n->span, "'%s' takes no type arguments", n->name);
        return type_scalar(TY_ERROR);
    }
    if (n->list2.count > 0) /* f32[256]: a shared array */
        return resolve_array(k, n, TY_ARRAY, t, false);
    return t;
}

/* A std struct's fields, in order. */
static void resolve_struct_fields(Checker *k, Symbol *s)
{
    Node *d = s->decl;
    Type *t = s->type;
    t->n_fields = (int)d->list.count;
    t->fields = ARENA_ARRAY(k->arena, Field, d->list.count ? d->list.count : 1);
    for (uint32_t i = 0; i < d->list.count; i++) {
        t->fields[i].name = d->list.items[i]->name;
        t->fields[i].type = sema_resolve_type(k, d->list.items[i]->a, false);
    }
}

/* ---- attributes --------------------------------------------------------------- */

/* The most CTAs any multiprocessor holds (max_blocks_per_sm, 32 from 5.0
 * to 10.3 in arch-tables/compute-capabilities.csv). */
enum { MAX_MIN_BLOCKS = 32 };

/* An attribute argument that must be an integer constant, with its value
 * as written in `text` (room for 24) for the messages.  A u64 past
 * INT64_MAX saturates to a value of the same remainder mod 32, so the
 * checks below see a huge positive number with its true divisibility. */
static bool attribute_integer(Checker *k, Node *arg, const char *rule, int64_t *out, char *text)
{
    Type *t = sema_check_expr(k, arg, NULL);
    if (t->kind == TY_ERROR) /* already reported, overflow included */
        return false;
    ConstValue v = type_is_integer(t) ? const_eval(k, arg) : (ConstValue){0};
    if (!v.known) {
        diag_error(k->diag, arg->span, "%s", rule);
        return false;
    }
    bool negative = const_is_negative(v);
    *out = negative || v.bits <= INT64_MAX ? (int64_t)v.bits : INT64_MAX - 31 + (int64_t)(v.bits % 32);
    if (negative)
        snprintf(text, 24, "%lld", (long long)(int64_t)v.bits);
    else
        snprintf(text, 24, "%llu", (unsigned long long)v.bits);
    return true;
}

/* @launch(threads[, min_blocks[, max_regs]]), with the seed's four
 * rejections, each positioned on its argument, and an upper bound on
 * each: no value reaches FuncInfo's int, nor a PTX directive, wrapped. */
static void check_launch_attribute(Checker *k, FuncInfo *f, Node *attr)
{
    static const char *const arity = "@launch takes 1 to 3 integer arguments";
    NodeList *args = &attr->list;
    f->has_launch = true;
    f->launch_ok = false;
    if (args->count == 0 || args->count > 3) {
        diag_error(k->diag, args->count ? args->items[3]->span : attr->span, "%s", arity);
        return;
    }
    int64_t value[3] = {0, 1, 0};
    char text[3][24];
    for (uint32_t i = 0; i < args->count; i++)
        if (!attribute_integer(k, args->items[i], arity, &value[i], text[i]))
            return;
    if (value[0] <= 0 || value[0] % 32 != 0) {
        diag_error(k->diag, args->items[0]->span,
                   "@launch threads must be a positive multiple of 32: with %s the CTA would "
                   "not be a whole number of warps", text[0]);
        return;
    }
    if (value[0] > 1024) {
        diag_error(k->diag, args->items[0]->span,
                   "@launch threads must be at most 1024, the block limit: %s is too many",
                   text[0]);
        return;
    }
    if (args->count > 1 && value[1] <= 0) {
        diag_error(k->diag, args->items[1]->span,
                   "@launch min_blocks must be positive: it is the CTAs per multiprocessor to aim for");
        return;
    }
    /* ptxas ignores a larger .minnctapersm on every target, and past
     * INT_MAX the directive would wrap. */
    if (args->count > 1 && value[1] > MAX_MIN_BLOCKS) {
        diag_error(k->diag, args->items[1]->span,
                   "@launch min_blocks must be at most %d, the most CTAs a multiprocessor holds: "
                   "%s is too many", MAX_MIN_BLOCKS, text[1]);
        return;
    }
    if (args->count > 2 && (value[2] < 16 || value[2] > 255)) {
        diag_error(k->diag, args->items[2]->span,
                   "@launch max_regs must be 16 to 255, the range .maxnreg accepts");
        return;
    }
    f->reqntid = (int)value[0];
    f->reqntid_span = args->items[0]->span;
    f->min_blocks = args->count > 1 ? (int)value[1] : 0;
    f->max_regs = args->count > 2 ? (int)value[2] : 0;
    f->launch_ok = true;
}

static void check_smem_attribute(Checker *k, FuncInfo *f, Node *attr)
{
    int64_t bytes;
    char text[24];
    if (attr->list.count != 1) {
        diag_error(k->diag, attr->span, "@smem takes one argument: the dynamic shared memory in bytes");
        return;
    }
    if (!attribute_integer(k, attr->list.items[0], "@smem takes an integer constant number of bytes", &bytes,
                           text))
        return;
    if (bytes < 0)
        diag_error(k->diag, attr->list.items[0]->span, "@smem cannot be negative");
    else
        f->smem = (uint64_t)bytes;
}

/* attr(device=gpu) is the only attr(...) a declaration takes. */
static void check_attr_arguments(Checker *k, Node *attr)
{
    for (uint32_t i = 0; i < attr->list.count; i++) {
        Node *arg = attr->list.items[i];
        if (arg->kind != ND_ATTR_ARG)
            continue;
        if (strcmp(arg->name, "device") != 0)
            diag_error(k->diag, arg->name_span, "unknown attribute key '%s' (a declaration takes attr(device=gpu))", arg->name);
        else if (!(arg->a && arg->a->kind == ND_NAME && strcmp(arg->a->name, "gpu") == 0))
            diag_error(k->diag, arg->a ? arg->a->span : arg->span, "the only device is gpu: attr(device=gpu)");
    }
}

static bool seen_before(Node *fn, uint32_t i)
{
    for (uint32_t j = 0; j < i; j++)
        if (strcmp(fn->attrs->items[j]->name, fn->attrs->items[i]->name) == 0)
            return true;
    return false;
}

static void check_function_attributes(Checker *k, FuncInfo *f)
{
    Node *fn = f->decl;
    for (uint32_t i = 0; fn->attrs && i < fn->attrs->count; i++) {
        Node *attr = fn->attrs->items[i];
        const char *name = attr->name;
        bool gpu_only = strcmp(name, "launch") == 0 || strcmp(name, "smem") == 0 ||
                        strcmp(name, "persistent") == 0;
        if (seen_before(fn, i))
            diag_error(k->diag, attr->span, "%s%s is given twice", strcmp(name, "attr") ? "@" : "", name);
        else if (gpu_only && !f->gpu)
            diag_error(k->diag, attr->span, "@%s applies only to GPU functions (kernel, or attr(device=gpu) fn)", name);
        else if (strcmp(name, "launch") == 0)
            check_launch_attribute(k, f, attr);
        else if (strcmp(name, "smem") == 0)
            check_smem_attribute(k, f, attr);
        else if (strcmp(name, "persistent") == 0)
            f->persistent = true;
        else if (strcmp(name, "attr") == 0)
            check_attr_arguments(k, attr);
        else if (strcmp(name, "registers") == 0 || strcmp(name, "tensorcore") == 0)
            diag_error(k->diag, attr->span, "@%s applies to a tile statement, not to a function", name);
        else
            diag_error(k->diag, attr->name_span, "unknown attribute '@%s'", name);
    }
}

/* ---- signatures --------------------------------------------------------------- */

/* The forms the first version of Silk leaves out, parsed so that this can
 * say so (and a launch target can say which contract rule it breaks). */
static void check_unsupported_forms(Checker *k, FuncInfo *f, Node *p, bool last)
{
    if (p->flags & NF_MUTABLE)
        diag_error(k->diag, p->span, "parameters are immutable: remove 'var' from '%s'", p->name);
    if (p->b)
        diag_error(k->diag, p->b->span, "parameters have no default values in Silk");
    if (p->flags & NF_VARARGS) {
        if (!sema_is_std(k))
            diag_error(k->diag, p->span, "variadic parameters are not part of Silk");
        else if (!last)
            diag_error(k->diag, p->span, "only the last parameter may repeat");
        else
            f->varargs = true;
    }
}

static void check_params(Checker *k, FuncInfo *f)
{
    Node *fn = f->decl;
    f->scope = scope_new(k->arena, k->module->scope);
    f->n_params = (int)fn->list.count;
    f->params = ARENA_ARRAY(k->arena, Type *, fn->list.count ? fn->list.count : 1);
    Scope *outer = k->scope;
    k->scope = f->scope; /* extents may name earlier parameters */
    for (uint32_t i = 0; i < fn->list.count; i++) {
        Node *p = fn->list.items[i];
        check_unsupported_forms(k, f, p, i + 1 == fn->list.count);
        Type *t = sema_resolve_type(k, p->a, f->gpu);
        if (t->kind == TY_TENSOR && !f->gpu) {
            diag_error(k->diag, p->a->span, "tensor parameters are for GPU functions; host code passes an address (u64)");
            t = type_scalar(TY_ERROR);
        }
        f->params[i] = t;
        Symbol *s = new_symbol(k, SYM_PARAM, p->name, p->name_span, p);
        s->type = t;
        s->read = true; /* parameters are not -Wunused-variable's business */
        define(k, f->scope, s);
    }
    k->scope = outer;
}

/* Why PTX cannot carry `name` as a GPU function's name, or NULL.  The PTX
 * ISA's identifiers are [a-zA-Z]{followsym}* or [_$%]{followsym}+, so a
 * lone '_' is none; of its predefined identifiers only WARP_SZ lacks the
 * '%' a Silk name cannot spell.  Its reserved instruction keywords (add,
 * ret, ...) ptxas takes as entry names, so they stay allowed: checked by
 * tests/cli/ptx_names.sh, which compiles a kernel of each name. */
static const char *ptx_unnameable(const char *name)
{
    if (strcmp(name, "_") == 0)
        return "a PTX name that starts with '_' needs a second character";
    if (strcmp(name, "WARP_SZ") == 0)
        return "PTX predefines it as the warp size";
    return NULL;
}

static void check_function_form(Checker *k, FuncInfo *f)
{
    Node *fn = f->decl;
    const char *why = f->gpu ? ptx_unnameable(fn->name) : NULL;
    if (why)
        diag_error(k->diag, fn->name_span, "a GPU function cannot be named '%s': %s", fn->name, why);
    if (!sema_is_std(k) && strchr(fn->name, '.'))
        diag_error(k->diag, fn->name_span, "methods are declared only by the standard library");
    else if (!sema_is_std(k) && !fn->b)
        diag_error(k->diag, fn->name_span, "function '%s' needs a body", fn->name);
    if (fn->list2.count)
        diag_error(k->diag, fn->list2.items[0]->span, "generic functions are not part of Silk");
    if (fn->flags & NF_THROWS)
        diag_error(k->diag, fn->c->span, "typed errors are not part of Silk");
    if ((fn->flags & NF_KERNEL) && fn->a)
        diag_error(k->diag, fn->a->span, "a kernel returns nothing");
    if ((fn->flags & (NF_ASYNC | NF_TASK)) && f->gpu)
        diag_error(k->diag, fn->name_span, "a GPU function cannot be async or a task");
    else if ((fn->flags & (NF_ASYNC | NF_TASK)) && fn->a)
        diag_error(k->diag, fn->a->span, "%s runs on its own and returns nothing to its caller",
                   sema_host_kind(fn));
}

FuncInfo *sema_function_info(Checker *k, Symbol *fn)
{
    FuncInfo *f = fn->func;
    if (f->checked_signature)
        return f;
    f->checked_signature = true;
    Module *outer = k->module;
    Scope *outer_scope = k->scope;
    FuncInfo *outer_func = k->func;
    k->module = f->module; /* a signature sees its own module's top level */
    k->scope = NULL;
    k->func = NULL;
    /* @launch first: "checked before anything else is compiled". */
    f->reqntid = (f->decl->flags & NF_KERNEL) ? 256 : 0;
    check_function_attributes(k, f);
    check_function_form(k, f);
    check_params(k, f);
    /* A kernel's written return type was reported (check_function_form);
     * it is treated as returning nothing from here on. */
    bool kernel = f->decl->flags & NF_KERNEL;
    f->result = f->decl->a && !kernel ? sema_resolve_type(k, f->decl->a, false) : type_scalar(TY_VOID);
    f->launchable = f->gpu && f->result->kind == TY_VOID;
    k->module = outer;
    k->scope = outer_scope;
    k->func = outer_func;
    return f;
}

void sema_check_signatures(Checker *k, Module *m)
{
    Module *outer = k->module;
    k->module = m;
    uint32_t n;
    Symbol **symbols = scope_symbols(m->scope, &n);
    for (uint32_t i = 0; i < n; i++) {
        Symbol *s = symbols[i];
        if (s->module != m)
            continue; /* imported */
        if (s->kind == SYM_FUNC)
            sema_function_info(k, s);
        else if (s->kind == SYM_STRUCT && !sema_is_std(k))
            diag_error(k->diag, s->decl->span, "struct declarations are only for the standard library");
        else if (s->kind == SYM_STRUCT)
            resolve_struct_fields(k, s);
    }
    k->module = outer;
}
