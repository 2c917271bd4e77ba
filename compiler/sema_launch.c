/*
 * sema_launch.c: the checked launch block of gpu-launch-blocks.txt,
 *
 *   gpu (grid=G, workspace=W) { target(args...); }
 *
 * every rule of that seed, each with its own message on the offending
 * token: where the block may stand, its two options, the one direct call
 * its body holds (and each rejected form), the launchable-entry contract of
 * its target, the arguments, and the constant geometry the runtime would
 * reject.  The block desugars to std's launch_and_synchronize, so it needs
 * the standard library; its value is a DispatchResult.
 */
#include "sema.h"

#include <stdio.h>
#include <string.h>

enum { MAX_LAUNCH_PARAMS = 32 };
static const uint64_t MAX_WORKSPACE = 1024, MAX_GRID = 4294967295u, MAX_BLOCKS = 2147483647u;

static Type *error_type(void) { return type_scalar(TY_ERROR); }

/* ---- the target's contract ------------------------------------------------------------- */

static bool u64_abi(const Type *t)
{
    return t->kind == TY_U64 || t->kind == TY_TENSOR || t->kind == TY_ERROR;
}

const char *sema_not_launchable(Checker *k, Symbol *fn, char *why, size_t size)
{
    FuncInfo *f = sema_function_info(k, fn);
    Node *d = f->decl;
    if (!f->gpu)
        return "it is an ordinary host function; a launch target is a GPU function (kernel, or attr(device=gpu) fn)";
    if (f->module->package != PKG_ROOT)
        return "it belongs to a dependency package; only the root package's GPU functions are launch targets";
    if (f->result->kind != TY_VOID)
        return "it is a device-only helper: it returns a value, and a launch target returns nothing";
    if (d->list2.count)
        return "it is generic";
    if (d->flags & NF_THROWS)
        return "it declares a typed error";
    if (f->n_params > MAX_LAUNCH_PARAMS) {
        snprintf(why, size, "it has %d parameters; a launch target has at most %d", f->n_params,
                 MAX_LAUNCH_PARAMS);
        return why;
    }
    for (uint32_t i = 0; i < d->list.count; i++) {
        Node *p = d->list.items[i];
        if (p->b || (p->flags & (NF_VARARGS | NF_MUTABLE))) {
            snprintf(why, size, "its parameter '%s' is %s", p->name,
                     p->b ? "defaulted" : (p->flags & NF_VARARGS) ? "variadic" : "mutable");
            return why;
        }
        if (!u64_abi(f->params[i])) {
            char t[96];
            snprintf(why, size, "its parameter '%s' has type %s; launch parameters are u64 (or tensors, passed as a u64 address)",
                     p->name, type_name(f->params[i], t, sizeof t));
            return why;
        }
    }
    return NULL;
}

/* ---- the options ---------------------------------------------------------------------------- */

typedef struct Geometry {
    Node *grid, *workspace;
    bool grid_ok, workspace_ok; /* present and of type u64 */
} Geometry;

static bool check_options(Checker *k, Node *launch, Geometry *g)
{
    bool ok = true;
    for (uint32_t i = 0; i < launch->list.count; i++) {
        Node *o = launch->list.items[i];
        Node **slot = strcmp(o->name, "grid") == 0 ? &g->grid
                      : strcmp(o->name, "workspace") == 0 ? &g->workspace : NULL;
        if (!slot) {
            diag_error(k->diag, o->name_span, "unknown launch option '%s': a launch block takes grid= and workspace=", o->name);
            ok = false;
            continue;
        }
        if (*slot) {
            diag_error(k->diag, o->name_span, "'%s' is given twice", o->name);
            ok = false;
            continue;
        }
        *slot = o->a;
        Type *t = sema_check_expr(k, o->a, type_scalar(TY_U64));
        if (!type_accepts(type_scalar(TY_U64), t)) {
            char what[32];
            snprintf(what, sizeof what, "the %s", o->name);
            sema_check_assignable(k, o->a, t, type_scalar(TY_U64), what);
        }
        bool u64 = t->kind == TY_U64;
        if (slot == &g->grid)
            g->grid_ok = u64;
        else
            g->workspace_ok = u64;
    }
    if (ok && (!g->grid || !g->workspace)) {
        diag_error(k->diag, launch->span, "the launch block needs %s=", !g->grid ? "grid" : "workspace");
        ok = false;
    }
    return ok;
}

/* ---- the body: exactly one direct call ------------------------------------------------------------- */

static const char *rejected_statement(const Node *s)
{
    switch (s->kind) {
    case ND_LET: case ND_SHARED:
        return "a launch block cannot declare anything: it holds exactly one call";
    case ND_LAUNCH:
        return "a launch block cannot hold another launch block";
    case ND_IF: case ND_WHILE: case ND_FOR: case ND_RETURN: case ND_BREAK: case ND_CONTINUE:
    case ND_BLOCK:
        return "a launch block cannot hold control flow: it holds exactly one call";
    case ND_ASSIGN:
        return "a launch block holds a call, not an assignment";
    case ND_EXPR_STMT:
        return s->a->kind == ND_CALL || s->a->kind == ND_LAUNCH ? NULL
               : "a launch block holds exactly one direct call, as fill(output.address, 42);";
    default:
        return "a launch block holds exactly one direct call";
    }
}

static const char *rejected_callee(const Node *call)
{
    const Node *callee = call->a;
    if (callee->kind == ND_FIELD)
        return "a field call cannot be launched: call the GPU function by its name";
    if (callee->kind == ND_PATH)
        return "a qualified call cannot be launched: import the GPU function and call it by its name";
    if (callee->kind != ND_NAME || (callee->flags & NF_PARENS))
        return "a function value cannot be launched: call the GPU function by its name";
    if (call->list2.count)
        return "a call with generic arguments cannot be launched";
    return NULL;
}

/* The body's one call, or NULL after reporting what is wrong. */
static Node *the_call(Checker *k, Node *launch)
{
    NodeList *body = &launch->list2;
    if (body->count == 0) {
        diag_error(k->diag, launch->span, "a launch block holds exactly one call: { kernel(args); }");
        return NULL;
    }
    for (uint32_t i = 0; i < body->count; i++) {
        const char *why = rejected_statement(body->items[i]);
        if (why) {
            diag_error(k->diag, body->items[i]->span, "%s", why);
            return NULL;
        }
    }
    if (body->count > 1) {
        diag_error(k->diag, body->items[1]->span, "a launch block holds exactly one call, not %u", body->count);
        return NULL;
    }
    Node *stmt = body->items[0];
    Node *call = stmt->a;
    const char *why = call->kind == ND_LAUNCH ? "a launch block cannot hold another launch block"
                                               : rejected_callee(call);
    if (why) {
        diag_error(k->diag, call->kind == ND_LAUNCH ? call->span : call->a->span, "%s", why);
        return NULL;
    }
    if (!(stmt->flags & NF_SEMI)) {
        diag_error(k->diag, call->span, "the call in a launch block ends with ';'");
        return NULL;
    }
    return call;
}

/* ---- the target and its arguments -------------------------------------------------------------------- */

static Symbol *the_target(Checker *k, Node *call)
{
    Symbol *s = sema_lookup(k, call->a->name);
    if (scope_is_poison(s))
        return NULL;
    if (!s) {
        diag_error(k->diag, call->a->span, "unknown function '%s'", call->a->name);
        return NULL;
    }
    if (s->kind != SYM_FUNC) {
        diag_error(k->diag, call->a->span, "'%s' is not a function: a function value cannot be launched", s->name);
        return NULL;
    }
    char buf[256];
    const char *why = sema_not_launchable(k, s, buf, sizeof buf);
    if (why) {
        diag_error(k->diag, call->a->span, "'%s' cannot be launched: %s", s->name, why);
        diag_note(k->diag, s->func->decl->name_span, "'%s' is declared here", s->func->decl->name);
        return NULL;
    }
    call->a->symbol = s;
    return s;
}

static void check_launch_arguments(Checker *k, Node *call, Symbol *target)
{
    FuncInfo *f = target->func;
    if ((int)call->list.count != f->n_params) {
        diag_error(k->diag, call->span, "'%s' takes %d argument%s, %u given", target->name, f->n_params,
                   f->n_params == 1 ? "" : "s", call->list.count);
        for (uint32_t i = 0; i < call->list.count; i++) /* their names are used */
            sema_check_expr(k, call->list.items[i], NULL);
        return;
    }
    for (uint32_t i = 0; i < call->list.count; i++) {
        Node *arg = call->list.items[i];
        Type *got = sema_check_expr(k, arg, type_scalar(TY_U64));
        if (type_accepts(type_scalar(TY_U64), got))
            continue;
        char what[160];
        snprintf(what, sizeof what, "argument %u of '%s' (%s%s)", i + 1, target->name,
                 f->params[i]->kind == TY_TENSOR ? "the address of tensor " : "",
                 f->decl->list.items[i]->name);
        sema_check_assignable(k, arg, got, type_scalar(TY_U64), what);
    }
}

/* ---- the geometry --------------------------------------------------------------------------------- */

static void check_workspace(Checker *k, Node *w, uint64_t workspace, FuncInfo *f)
{
    if (f->reqntid && workspace != (uint64_t)f->reqntid) {
        diag_error(k->diag, w->span, "the workspace (%llu) differs from the CTA size of '%s' (%d threads): every CTA has exactly %d threads",
                   (unsigned long long)workspace, f->decl->name, f->reqntid, f->reqntid);
        if (f->has_launch)
            diag_note(k->diag, f->reqntid_span, "@launch fixes it here");
        else
            diag_note(k->diag, f->decl->name_span, "a kernel without @launch has 256 threads");
        return;
    }
    if (workspace % 32 != 0)
        diag_warning(k->diag, W_PARTIAL_WARP, w->span,
                     "a workspace of %llu is not a whole number of warps: %llu of the last warp's 32 lanes idle",
                     (unsigned long long)workspace, (unsigned long long)(32 - workspace % 32));
}

/* The runtime would reject this geometry; with constants, so does the compiler. */
static void check_geometry(Checker *k, Geometry *g, FuncInfo *f)
{
    ConstValue none = {0};
    ConstValue grid = g->grid_ok ? const_eval(k, g->grid) : none;
    ConstValue workspace = g->workspace_ok ? const_eval(k, g->workspace) : none;
    if (workspace.known && workspace.bits == 0) {
        diag_error(k->diag, g->workspace->span, "the workspace must be nonzero");
        workspace = none; /* nothing more can be said of the grid against it */
    } else if (workspace.known && workspace.bits > MAX_WORKSPACE) {
        diag_error(k->diag, g->workspace->span, "the workspace (%llu) exceeds 1024 work items", (unsigned long long)workspace.bits);
        workspace = none;
    } else if (workspace.known && f->launch_ok) {
        check_workspace(k, g->workspace, workspace.bits, f);
    }
    if (!grid.known)
        return;
    if (grid.bits == 0)
        diag_error(k->diag, g->grid->span, "the grid must be nonzero");
    else if (grid.bits > MAX_GRID)
        diag_error(k->diag, g->grid->span, "the grid (%llu) exceeds 4294967295 work items", (unsigned long long)grid.bits);
    else if (workspace.known && workspace.bits != 0 && grid.bits % workspace.bits != 0)
        diag_error(k->diag, g->grid->span, "the grid (%llu) is not divisible by the workspace (%llu)",
                   (unsigned long long)grid.bits, (unsigned long long)workspace.bits);
    else if (workspace.known && workspace.bits != 0 && grid.bits / workspace.bits > MAX_BLOCKS)
        diag_error(k->diag, g->grid->span, "the grid makes %llu blocks; at most 2147483647",
                   (unsigned long long)(grid.bits / workspace.bits));
}

/* Marks the locals a rejected body names as read, so that one mistake is
 * not followed by "unused variable" for each of them. */
static void mark_name_read(Node *n, void *checker)
{
    Checker *k = checker;
    if (n->kind == ND_NAME) {
        Symbol *s = sema_lookup(k, n->name);
        if (s)
            s->read = true;
    }
}

static void mark_read(Checker *k, NodeList *list)
{
    for (uint32_t i = 0; i < list->count; i++)
        ast_walk(list->items[i], k->arena, mark_name_read, k);
}

/* ---- the block ----------------------------------------------------------------------------------------- */

Type *sema_check_launch(Checker *k, Node *launch)
{
    if (k->func && k->func->gpu) {
        diag_error(k->diag, launch->span, "a launch block is host code: it is not valid inside a GPU function");
        return error_type();
    }
    if (k->c->options.nostd) {
        diag_error(k->diag, launch->span, "a launch block needs the standard library's launch_and_synchronize, which --nostd removes");
        return error_type();
    }
    Module *std = sema_std_module(k, launch->span);
    if (std && !scope_find_here(std->scope, "launch_and_synchronize")) {
        diag_error(k->diag, launch->span, "the standard library in use declares no launch_and_synchronize, which a launch block needs");
        return error_type();
    }
    Geometry g = {0};
    bool options_ok = check_options(k, launch, &g);
    Node *call = the_call(k, launch);
    Symbol *target = call ? the_target(k, call) : NULL;
    if (target)
        check_launch_arguments(k, call, target);
    if (options_ok && target)
        check_geometry(k, &g, target->func);
    else if (!call)
        mark_read(k, &launch->list2); /* its names were used, if wrongly */
    if (!(launch->flags & NF_VALUE))
        return type_scalar(TY_VOID);
    Symbol *result = std && std->scope ? scope_find_here(std->scope, "DispatchResult") : NULL;
    return result ? result->type : error_type();
}
