/*
 * sema_call.c: calls — conversions T(e), the built-ins, functions of the
 * program, and the standard library's methods (d.is_ok(), Buffer.alloc(n)).
 */
#include "sema.h"

#include <stdio.h>
#include <string.h>

static Type *error_type(void) { return type_scalar(TY_ERROR); }
static const char *tname(const Type *t, char *buf) { return type_name(t, buf, 96); }

static bool argument_count(Checker *k, Node *call, int min, int max, const char *what)
{
    int n = (int)call->list.count;
    if (n >= min && n <= max)
        return true;
    if (min == max)
        diag_error(k->diag, call->span, "%s takes %d argument%s, %d given", what, min, min == 1 ? "" : "s", n);
    else
        diag_error(k->diag, call->span, "%s takes %d to %d arguments, %d given", what, min, max, n);
    return false;
}

/* T(e): between numbers (float to int truncates, narrowing wraps) and bool. */
static Type *check_conversion(Checker *k, Node *call, Type *to)
{
    char a[96], b[96];
    if (!argument_count(k, call, 1, 1, "a conversion"))
        return error_type();
    Type *from = sema_check_expr(k, call->list.items[0], to);
    if (from->kind == TY_ERROR)
        return error_type();
    bool ok = (type_is_numeric(from) && type_is_numeric(to)) ||
              (from->kind == TY_BOOL && type_is_integer(to)) || type_equal(from, to);
    if (!ok) {
        diag_error(k->diag, call->span, "%s cannot be converted to %s", tname(from, a), tname(to, b));
        return error_type();
    }
    return to;
}

/* ---- built-ins ------------------------------------------------------------------------ */

/* The arguments of min, max and the math built-ins share one type.
 * Literal arguments take the type of the first argument that is not one;
 * when all are literals, the type the context asks for, as an operator's
 * would. */
static Type *check_arguments_same(Checker *k, Node *call, bool floats_only, Type *expected)
{
    char buf[96];
    Type *t = NULL;
    for (uint32_t i = 0; i < call->list.count && !t; i++)
        if (!sema_is_flexible(call->list.items[i]))
            t = sema_check_expr(k, call->list.items[i], NULL);
    if (!t && call->list.count > 0 && expected && type_is_numeric(expected))
        t = sema_check_expr(k, call->list.items[0], expected);
    if (t && t->kind == TY_ERROR)
        return t;
    for (uint32_t i = 0; i < call->list.count; i++) {
        if (call->list.items[i]->type)
            continue; /* the one checked above */
        Type *a = sema_check_expr(k, call->list.items[i], t);
        if (a->kind == TY_ERROR)
            return a;
        if (!t)
            t = a;
        else
            sema_check_assignable(k, call->list.items[i], a, t, "this argument");
    }
    if (t && (floats_only ? !type_is_float(t) : !type_is_numeric(t))) {
        diag_error(k->diag, call->span, "'%s' needs %s arguments, not %s", call->a->name,
                   floats_only ? "float" : "numeric", tname(t, buf));
        return error_type();
    }
    return t ? t : error_type();
}

/* The first argument of an atomic: an element of a tensor or shared array. */
static Type *check_atomic(Checker *k, Node *call)
{
    Node *target = call->list.items[0];
    Type *t = sema_check_expr(k, target, NULL);
    if (t->kind == TY_ERROR)
        return t;
    if (target->kind != ND_INDEX || !target->a->type ||
        (target->a->type->kind != TY_TENSOR && target->a->type->kind != TY_ARRAY)) {
        diag_error(k->diag, target->span, "'%s' takes an element of a tensor or shared array: %s(t[i], v)",
                   call->a->name, call->a->name);
        return type_scalar(TY_ERROR);
    }
    for (uint32_t i = 1; i < call->list.count; i++)
        sema_check_assignable(k, call->list.items[i], sema_check_expr(k, call->list.items[i], t), t, "the value");
    return t;
}

static Type *check_memory_builtin(Checker *k, Node *call, bool store)
{
    if (call->list2.count != 1) {
        diag_error(k->diag, call->span, "%s needs one type argument: %s<T>(...)", call->a->name, call->a->name);
        return error_type();
    }
    Type *t = sema_resolve_type(k, call->list2.items[0], false);
    Type *addr = sema_check_expr(k, call->list.items[0], type_scalar(TY_U64));
    sema_check_assignable(k, call->list.items[0], addr, type_scalar(TY_U64), "the address");
    if (store)
        sema_check_assignable(k, call->list.items[1], sema_check_expr(k, call->list.items[1], t), t, "the value");
    return store ? type_scalar(TY_VOID) : t;
}

static Type *check_reduction_or_pair(Checker *k, Node *call, Type *expected)
{
    if (call->list.count == 2)
        return check_arguments_same(k, call, false, expected);
    Type *t = sema_check_expr(k, call->list.items[0], NULL);
    if (t->kind != TY_TILE && t->kind != TY_ERROR && t->kind != TY_ARRAY && t->kind != TY_TENSOR) {
        diag_error(k->diag, call->span, "'%s' of one argument reduces a tile", call->a->name);
        return error_type();
    }
    return t->kind == TY_ERROR ? t : t->elem;
}

/* The quantized GEMM built-ins need a CTA of exactly 256 threads
 * (launch-attribute.txt, "Interactions"). */
static Type *check_qgemm(Checker *k, Node *call)
{
    int threads = k->func->reqntid;
    if (threads != 256) {
        if (threads == 0)
            diag_error(k->diag, call->a->span, "%s needs @launch(256): this function has no fixed thread count",
                       call->a->name);
        else
            diag_error(k->diag, call->a->span, "%s needs @launch(256): this kernel's CTA has %d threads",
                       call->a->name, threads);
    }
    Type *operand[3];
    for (uint32_t i = 0; i < 3; i++)
        operand[i] = sema_check_expr(k, call->list.items[i], NULL);
    /* a [m, k] x b [k, n] -> [m, n], in the scale's (float) type. */
    Type *a = operand[0], *b = operand[1], *scale = operand[2];
    bool shaped = (a->kind == TY_TILE || a->kind == TY_TENSOR || a->kind == TY_ARRAY) &&
                  (b->kind == TY_TILE || b->kind == TY_TENSOR || b->kind == TY_ARRAY) &&
                  a->rank == 2 && b->rank == 2;
    if (!shaped) {
        if (a->kind != TY_ERROR && b->kind != TY_ERROR)
            diag_error(k->diag, call->span, "%s multiplies two matrices: %s(a, b, scale)", call->a->name, call->a->name);
        return error_type();
    }
    /* Silk has no 8- or 4-bit float types: the code generator multiplies
     * the elements as the integers their types say, which is int8's meaning
     * and not the others'.  Said at the call, so it is never silent. */
    if (strncmp(call->a->name, "int8_", 5) != 0)
        diag_warning(k->diag, W_QGEMM_FORMAT, call->a->span,
                     "%s: the elements are multiplied as the integers of their type; %.*s values are not decoded",
                     call->a->name, (int)(strstr(call->a->name, "_qgemm_t") - call->a->name), call->a->name);
    Type *t = ARENA_NEW(k->arena, Type);
    t->kind = TY_TILE;
    t->elem = type_is_float(scale) ? scale : type_scalar(TY_F32);
    t->rank = 2;
    t->dims[0] = a->dims[0];
    t->dims[1] = b->dims[1];
    return t;
}

static Type *check_device_builtin(Checker *k, Node *call, const char *name, Type *expected)
{
    if (strcmp(name, "sync") == 0)
        return type_scalar(TY_VOID);
    if (strcmp(name, "ballot") == 0) {
        sema_check_assignable(k, call->list.items[0], sema_check_expr(k, call->list.items[0], type_scalar(TY_BOOL)),
                         type_scalar(TY_BOOL), "the predicate");
        return type_scalar(TY_U32);
    }
    if (strncmp(name, "shfl", 4) == 0) {
        /* Any scalar moves between lanes, as with CUDA's __shfl_sync
         * (lowering splits or widens what is not 32 bits); a tile,
         * tensor or array is not one lane's value. */
        char buf[96];
        Type *t = sema_check_expr(k, call->list.items[0], NULL);
        Type *lane = sema_check_expr(k, call->list.items[1], type_scalar(TY_U32));
        sema_check_assignable(k, call->list.items[1], lane, type_scalar(TY_U32), "the lane");
        if (t->kind != TY_ERROR && !type_is_numeric(t) && t->kind != TY_BOOL) {
            diag_error(k->diag, call->list.items[0]->span, "'%s' moves a number or a bool, not %s", name,
                       type_name(t, buf, sizeof buf));
            return error_type();
        }
        return t;
    }
    if (strncmp(name, "atomic_", 7) == 0)
        return check_atomic(k, call);
    if (strcmp(name, "load") == 0 || strcmp(name, "store") == 0)
        return check_memory_builtin(k, call, name[0] == 's');
    if (strcmp(name, "min") == 0 || strcmp(name, "max") == 0 || strcmp(name, "sum") == 0)
        return check_reduction_or_pair(k, call, expected);
    if (strstr(name, "_qgemm_t"))
        return check_qgemm(k, call);
    bool floats = strcmp(name, "abs") != 0;
    return check_arguments_same(k, call, floats, expected);
}

static Type *check_builtin(Checker *k, Node *call, const Builtin *b, Type *expected)
{
    bool device = k->func && k->func->gpu;
    if (b->where == BUILTIN_DEVICE && !device) {
        diag_error(k->diag, call->a->span, "'%s' is a device built-in: it exists only in GPU functions", b->name);
        return error_type();
    }
    if (b->where == BUILTIN_HOST && device) {
        diag_error(k->diag, call->a->span, "'%s' is for host code", b->name);
        return error_type();
    }
    if (call->list2.count && strcmp(b->name, "load") != 0 && strcmp(b->name, "store") != 0) {
        diag_error(k->diag, call->list2.items[0]->span, "'%s' takes no type arguments", b->name);
        return error_type();
    }
    if (!argument_count(k, call, b->min_args, b->max_args, b->signature))
        return error_type();
    if (b->where == BUILTIN_HOST) {
        for (uint32_t i = 0; i < call->list.count; i++)
            if (sema_check_expr(k, call->list.items[i], NULL)->kind == TY_VOID)
                diag_error(k->diag, call->list.items[i]->span, "this has no value to print");
        return type_scalar(TY_VOID);
    }
    return check_device_builtin(k, call, b->name, expected);
}

/* ---- functions -------------------------------------------------------------------------- */

static void check_arguments(Checker *k, Node *call, FuncInfo *f, int first, const char *name)
{
    int given = (int)call->list.count + first;
    if (given < f->n_params - (f->varargs ? 1 : 0) || (!f->varargs && given > f->n_params)) {
        diag_error(k->diag, call->span, "'%s' takes %d argument%s, %d given", name, f->n_params - first,
                   f->n_params - first == 1 ? "" : "s", given - first);
        return;
    }
    for (int i = first; i < given; i++) {
        int p = i < f->n_params ? i : f->n_params - 1;
        Node *arg = call->list.items[i - first];
        Type *want = f->params[p];
        Type *got = sema_check_expr(k, arg, want);
        if (type_accepts(want, got))
            continue;
        char what[64];
        snprintf(what, sizeof what, "argument %d of '%s'", i - first + 1, name);
        sema_check_assignable(k, arg, got, want, what);
    }
}

static Type *check_function_call(Checker *k, Node *call, Symbol *s)
{
    FuncInfo *f = sema_function_info(k, s);
    call->a->symbol = s;
    if (call->list2.count) {
        diag_error(k->diag, call->list2.items[0]->span, "'%s' is not generic", s->name);
        return error_type();
    }
    bool device = k->func && k->func->gpu;
    if (device && !f->gpu) {
        diag_error(k->diag, call->a->span, "'%s' is a host function: device code cannot call it", s->name);
        return error_type();
    }
    if (!device && f->gpu && f->result->kind != TY_VOID) {
        diag_error(k->diag, call->a->span, "'%s' is a device-only helper: GPU code calls it; host code can neither call nor launch it",
                   s->name);
        return error_type();
    }
    if (!device && f->gpu) {
        diag_error(k->diag, call->a->span, "'%s' is a GPU function: host code launches it with gpu (grid=..., workspace=...) { %s(...); }",
                   s->name, s->name);
        return error_type();
    }
    check_arguments(k, call, f, 0, s->name);
    /* Calling one starts it; its caller goes on at once and gets nothing
     * back, so the call is a statement of its own (language.md 6.7). */
    const char *kind = sema_host_kind(f->decl);
    if (kind && call != k->statement_call) {
        diag_error(k->diag, call->a->span, "'%s' is %s: a call starts it and gives no value, so it is a statement of its own",
                   s->name, kind);
        return error_type();
    }
    return kind ? type_scalar(TY_VOID) : f->result;
}

/* A std method: value.name(...) passes the value as `self`; Type.name(...)
 * calls an associated function. */
static Type *check_method_call(Checker *k, Node *call)
{
    char buf[96], full[160];
    Node *field = call->a;
    Node *base = field->a;
    Symbol *type_symbol = base->kind == ND_NAME ? sema_lookup(k, base->name) : NULL;
    bool on_type = type_symbol && type_symbol->kind == SYM_STRUCT;
    Type *t = on_type ? type_symbol->type : sema_check_expr(k, base, NULL);
    if (t->kind == TY_ERROR)
        return t;
    if (t->kind != TY_STRUCT) {
        diag_error(k->diag, field->name_span, "%s has no method '%s'", tname(t, buf), field->name);
        return error_type();
    }
    snprintf(full, sizeof full, "%s.%s", t->name, field->name);
    Module *std = k->c->std_gpu;
    Symbol *m = std && std->scope ? scope_find_here(std->scope, full) : NULL;
    if (!m) {
        diag_error(k->diag, field->name_span, "%s has no method '%s'", t->name, field->name);
        return error_type();
    }
    FuncInfo *f = sema_function_info(k, m);
    bool has_self = f->n_params > 0 && strcmp(f->decl->list.items[0]->name, "self") == 0;
    if (has_self == on_type) {
        if (has_self)
            diag_error(k->diag, field->name_span, "%s is called on a value: value.%s(...)", full, field->name);
        else
            diag_error(k->diag, field->name_span, "%s is called on the type: %s(...)", full, full);
        return error_type();
    }
    check_arguments(k, call, f, has_self ? 1 : 0, full);
    field->symbol = m; /* the method, for the code generator */
    return f->result;
}

Type *sema_check_call(Checker *k, Node *call, Type *expected)
{
    Node *callee = call->a;
    if (callee->kind == ND_FIELD)
        return check_method_call(k, call);
    if (callee->kind != ND_NAME) {
        sema_check_expr(k, callee, NULL);
        if (callee->type && callee->type->kind != TY_ERROR)
            diag_error(k->diag, callee->span, "this cannot be called");
        return error_type();
    }
    Symbol *s = sema_lookup(k, callee->name);
    if (scope_is_poison(s))
        return error_type();
    if (s && s->kind == SYM_FUNC)
        return check_function_call(k, call, s);
    if (s) {
        diag_error(k->diag, callee->span, "'%s' is not a function", callee->name);
        return error_type();
    }
    Type *to = type_scalar_named(callee->name);
    if (to && to->kind != TY_STR)
        return check_conversion(k, call, to);
    const Builtin *b = builtin_find(callee->name);
    if (b)
        return check_builtin(k, call, b, expected);
    diag_error(k->diag, callee->span, "unknown function '%s'", callee->name);
    sema_note_std_name(k, callee->name);
    for (uint32_t i = 0; i < call->list.count; i++) /* their names are used */
        sema_check_expr(k, call->list.items[i], NULL);
    return error_type();
}
