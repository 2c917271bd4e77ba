/*
 * lower_call.c: calls to device functions, inlined (ir.h: a module holds
 * only kernels).  A call lowers its arguments in the caller, binds the
 * callee's parameters to them, and lowers the callee's body in the current
 * function; each `return v` is an edge to the call's continuation block,
 * whose phi is the call's value.  Helpers of imported packages inline the
 * same way: name resolution already tied their bodies to their symbols.
 *
 * Recursion cannot be inlined (the checker does not reject it): a call to
 * a function already being inlined on the current chain is an error at
 * that call, so lowering always ends.
 */
#include "lower_internal.h"

/* The callee's parameter symbols are in its own scope, by name. */
static void bind_params(Lower *l, FuncInfo *info, const IrValue *args)
{
    Node *fn = info->decl;
    for (uint32_t i = 0; i < fn->list.count; i++) {
        Symbol *s = info->scope ? scope_find_here(info->scope, fn->list.items[i]->name) : NULL;
        if (s)
            lower_define(l, s, args[i]);
    }
}

static bool is_recursive(const Lower *l, const FuncInfo *info)
{
    for (const LowerInline *i = l->inl; i; i = i->outer)
        if (i->callee == info)
            return true;
    return false;
}

/* The call's value at the continuation: the one value every return
 * carried, or a phi of them. */
static IrValue call_value(Lower *l, LowerInline *inl, const Type *result)
{
    if (!l->cur || inl->returns.count == 0 || lower_type(result) == IRT_VOID)
        return lower_zero(result);
    IrValue first = inl->values[0];
    bool same = true;
    for (uint32_t i = 1; i < inl->returns.count; i++) {
        IrValue v = inl->values[i];
        same = same && v.kind == first.kind && v.reg == first.reg && v.bits == first.bits;
    }
    if (same)
        return first;
    IrInst *phi = lower_emit(l, IR_PHI, first.type, inl->returns.count);
    for (uint32_t i = 0; i < inl->returns.count; i++) {
        phi->operands[i] = inl->values[i];
        phi->incoming[i] = inl->returns.items[i].from;
    }
    return ir_reg(phi);
}

IrValue lower_call(Lower *l, Node *e)
{
    Symbol *fn = e->a->symbol;
    FuncInfo *info = fn->func;
    if (!info || !info->decl || !info->decl->b || info->decl->list.count != e->list.count) {
        lower_unsupported(l, e->span, "a call to a function without a device body");
        return lower_zero(e->type);
    }
    if (is_recursive(l, info)) {
        diag_error(&l->c->diag, e->span, "recursive call to '%s' cannot be inlined into GPU code", fn->name);
        l->errors++;
        return lower_zero(e->type);
    }
    uint32_t n_args = e->list.count;
    IrValue *args = n_args ? ARENA_ARRAY(l->m->arena, IrValue, n_args) : NULL;
    for (uint32_t i = 0; i < n_args; i++)
        args[i] = lower_expr(l, e->list.items[i]);
    if (!l->cur)
        return lower_zero(e->type);
    LowerInline inl = {.outer = l->inl, .callee = info, .n_vars = l->n_vars};
    inl.cont = ir_new_block(l->m, l->f);
    bind_params(l, info, args);
    LowerLoop *loop = l->loop;
    l->loop = NULL; /* break and continue do not cross the call */
    l->inl = &inl;
    lower_body(l, info->decl->b);
    if (l->cur) /* fell off the end: a helper returning nothing */
        lower_inline_return(l, NULL);
    l->inl = inl.outer;
    l->loop = loop;
    lower_join(l, inl.cont, &inl.returns, inl.n_vars);
    return call_value(l, &inl, e->type);
}

void lower_inline_return(Lower *l, Node *s)
{
    LowerInline *inl = l->inl;
    IrValue v = s && s->a ? lower_expr(l, s->a) : (IrValue){0};
    if (!l->cur)
        return;
    if (v.kind == IRV_NONE && inl->callee->result && lower_type(inl->callee->result) != IRT_VOID)
        v = lower_zero(inl->callee->result); /* fell off the end of a value helper */
    inl->values = ir_grow(l->m->arena, inl->values, inl->returns.count, sizeof *inl->values);
    inl->values[inl->returns.count] = v;
    lower_jump(l, inl->cont, &inl->returns);
}
