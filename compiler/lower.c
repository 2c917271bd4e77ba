/*
 * lower.c: the root package's GPU functions as IR — functions, their
 * parameters and launch bounds, statements and control flow, and the SSA
 * form of locals (lower_internal.h says how).  Expressions are in
 * lower_expr.c.
 *
 * Control flow is structured (if, while, for, break, continue, return), so
 * every join point is known before its predecessors are lowered: its block
 * is made first and its incoming edges recorded, each with the variables'
 * values, and the join's phis are built when the last edge is in.  A loop
 * has one latch, where the body's end and every `continue` meet (and a
 * for's step is added), so its header has exactly two predecessors.
 *
 * A @persistent function's body is wrapped here in its loop over the
 * logical work-groups (lower.h gives the ABI).  Tile variables and tile
 * statements are lower_tile.c's, calls to device functions lower_call.c's.
 */
#include "lower_internal.h"

#include <string.h>

/* ---- helpers --------------------------------------------------------------------- */

IrType lower_type(const Type *t)
{
    switch (t->kind) {
    case TY_BOOL: return IRT_I1;
    case TY_I8: case TY_U8: return IRT_I8;
    case TY_I16: case TY_U16: return IRT_I16;
    case TY_I32: case TY_U32: return IRT_I32;
    case TY_I64: case TY_U64: case TY_TENSOR: return IRT_I64;
    case TY_F16: return IRT_F16;
    case TY_F32: return IRT_F32;
    case TY_F64: return IRT_F64;
    default: return IRT_VOID;
    }
}

void lower_unsupported(Lower *l, Span at, const char *what)
{
    diag_error(&l->c->diag, at, "not yet supported by the code generator: %s", what);
    l->errors++;
}

/* Whether map entry `i` is symbol s's slot `slot`. */
static bool entry_is(const Lower *l, uint32_t i, const Symbol *s, uint32_t slot)
{
    return i < l->n_vars && l->vars[i].symbol == s && l->vars[i].slot == slot;
}

/* The latest entry wins.  A slot 0 (every scalar) is found through the
 * symbol's cached index, which lower_define_slot keeps at its latest
 * entry; a scan of the map from the top made a kernel of n lets cost n
 * times n (25,000 lines: 0.4 s, 100,000: 3 s).  The scan stays for the
 * other slots and for a cache left stale when a scope was dropped. */
IrValue *lower_var_slot(Lower *l, Symbol *s, uint32_t slot)
{
    if (slot == 0 && s->lower_entry && entry_is(l, s->lower_entry - 1, s, 0))
        return &l->vars[s->lower_entry - 1].value;
    for (uint32_t i = l->n_vars; i-- > 0;)
        if (entry_is(l, i, s, slot)) {
            if (slot == 0)
                s->lower_entry = i + 1;
            return &l->vars[i].value;
        }
    return NULL;
}

IrValue *lower_var(Lower *l, Symbol *s) { return lower_var_slot(l, s, 0); }

/* Whether a local's value can change after its definition: a var, a
 * loop variable, and a tile, whose register slots its statements write. */
static bool can_change(const Symbol *s)
{
    return s->mutable || s->kind == SYM_LOOP || (s->type && s->type->kind == TY_TILE);
}

/* How many of the variables that can change are in scope: the first
 * ones of l->changing, after those of scopes left are dropped. */
static uint32_t lower_changes(Lower *l)
{
    while (l->n_changing && l->changing[l->n_changing - 1] >= l->n_vars)
        l->n_changing--;
    return l->n_changing;
}

void lower_define_slot(Lower *l, Symbol *s, uint32_t slot, IrValue v)
{
    lower_changes(l); /* before the entry of a dropped one is reused */
    if (can_change(s)) {
        l->changing = ir_grow(l->m->arena, l->changing, l->n_changing, sizeof *l->changing);
        l->changing[l->n_changing++] = l->n_vars;
    }
    l->vars = ir_grow(l->m->arena, l->vars, l->n_vars, sizeof *l->vars);
    l->vars[l->n_vars++] = (LowerVar){.symbol = s, .slot = slot, .value = v};
    if (slot == 0)
        s->lower_entry = l->n_vars;
}

void lower_define(Lower *l, Symbol *s, IrValue v) { lower_define_slot(l, s, 0, v); }

IrInst *lower_emit(Lower *l, IrOp op, IrType type, uint32_t n_operands)
{
    IrInst *in = ir_append(l->m, l->f, l->cur, op, type, n_operands);
    in->span = l->span; /* for the CPU backend's messages, and the PTX backend's */
    return in;
}

IrValue lower_op1(Lower *l, IrOp op, IrType type, IrValue a)
{
    IrInst *in = lower_emit(l, op, type, 1);
    in->operands[0] = a;
    return ir_reg(in);
}

IrValue lower_op2(Lower *l, IrOp op, IrType type, IrValue a, IrValue b)
{
    IrInst *in = lower_emit(l, op, type, 2);
    in->operands[0] = a;
    in->operands[1] = b;
    return ir_reg(in);
}

IrValue lower_cmp(Lower *l, IrCmp cmp, IrValue a, IrValue b)
{
    IrInst *in = lower_emit(l, IR_CMP, IRT_I1, 2);
    in->operands[0] = a;
    in->operands[1] = b;
    in->cmp = cmp;
    return ir_reg(in);
}

/* ---- edges and joins ---------------------------------------------------------------- */

void lower_add_edge(Lower *l, LowerEdges *edges, IrBlock *from)
{
    Arena *a = l->m->arena;
    uint32_t n = lower_changes(l);
    edges->items = ir_grow(a, edges->items, edges->count, sizeof *edges->items);
    IrValue *values = n ? ARENA_ARRAY(a, IrValue, n) : NULL;
    for (uint32_t k = 0; k < n; k++)
        values[k] = l->vars[l->changing[k]].value;
    edges->items[edges->count++] = (LowerEdge){.from = from, .values = values};
}

void lower_jump(Lower *l, IrBlock *to, LowerEdges *edges)
{
    if (!l->cur)
        return;
    IrInst *br = lower_emit(l, IR_BR, IRT_VOID, 0);
    br->target[0] = to;
    lower_add_edge(l, edges, l->cur);
    l->cur = NULL;
}

static bool same_value(IrValue a, IrValue b)
{
    return a.kind == b.kind && a.type == b.type && a.reg == b.reg && a.bits == b.bits;
}

/* A phi for the k-th variable that can change when its edges disagree;
 * its single value otherwise. */
static IrValue join_var(Lower *l, LowerEdges *edges, uint32_t k)
{
    IrValue first = edges->items[0].values[k];
    uint32_t i = 1;
    while (i < edges->count && same_value(edges->items[i].values[k], first))
        i++;
    if (i == edges->count)
        return first;
    IrInst *phi = lower_emit(l, IR_PHI, first.type, edges->count);
    for (i = 0; i < edges->count; i++) {
        phi->operands[i] = edges->items[i].values[k];
        phi->incoming[i] = edges->items[i].from;
    }
    return ir_reg(phi);
}

void lower_join(Lower *l, IrBlock *b, LowerEdges *edges, uint32_t n_vars)
{
    l->n_vars = n_vars; /* what the branches declared is out of scope */
    l->cur = b;
    if (edges->count == 0) {
        /* Nothing reaches it; it still needs its terminator. */
        lower_emit(l, IR_RET, IRT_VOID, 0);
        l->cur = NULL;
        return;
    }
    uint32_t n = lower_changes(l);
    for (uint32_t k = 0; k < n; k++)
        l->vars[l->changing[k]].value = join_var(l, edges, k);
}

/* ---- vars declared without a value (race checks) ------------------------------------ */

/* The map slot of a var's hidden flag, "assigned": an i1 that lowering
 * keeps as it keeps the var's value, so that joins give it phis. */
enum { ASSIGNED_SLOT = UINT32_MAX };

/* Symbol s's flag, when it is a var declared without a value and the
 * compilation asks for race checks; NULL otherwise. */
static IrValue *assigned_flag(Lower *l, Symbol *s)
{
    if (!l->c->options.race_checks || !s->mutable)
        return NULL;
    return lower_var_slot(l, s, ASSIGNED_SLOT);
}

void lower_check_assigned(Lower *l, Node *name)
{
    IrValue *flag = name->symbol ? assigned_flag(l, name->symbol) : NULL;
    if (!flag || (flag->kind == IRV_INT && flag->bits == 1) || !l->cur)
        return;
    Span statement = l->span;
    l->span = name->span;
    IrInst *in = lower_emit(l, IR_ASSIGNED, IRT_VOID, 1);
    l->span = statement;
    in->operands[0] = *flag;
    in->symbol = name->symbol->name;
}

/* ---- statements ------------------------------------------------------------------- */

static void lower_block(Lower *l, Node *block);

static void lower_let(Lower *l, Node *s)
{
    if (s->symbol->type->kind == TY_TILE) {
        lower_tile_let(l, s);
        return;
    }
    IrType t = lower_type(s->symbol->type);
    IrValue v = s->b ? lower_expr(l, s->b) : t >= IRT_F16 ? ir_float(t, 0) : ir_int(t, 0);
    lower_define(l, s->symbol, v);
    /* Without a value the GPU's register holds anything: a read before an
     * assignment is checked (the 0 above only keeps the IR defined). */
    if (!s->b && s->symbol->mutable && l->c->options.race_checks)
        lower_define_slot(l, s->symbol, ASSIGNED_SLOT, ir_int(IRT_I1, 0));
}

static IrOp compound_op(TokenKind op)
{
    switch (op) {
    case TK_PLUS_ASSIGN: return IR_ADD;
    case TK_MINUS_ASSIGN: return IR_SUB;
    case TK_STAR_ASSIGN: return IR_MUL;
    case TK_SLASH_ASSIGN: return IR_SDIV;
    case TK_PERCENT_ASSIGN: return IR_SREM;
    case TK_AMP_ASSIGN: return IR_AND;
    case TK_PIPE_ASSIGN: return IR_OR;
    case TK_CARET_ASSIGN: return IR_XOR;
    case TK_SHL_ASSIGN: return IR_SHL;
    case TK_SHR_ASSIGN: return IR_ASHR;
    default: return IR_COPY;
    }
}

/* `old OP value` for a compound assignment, with the signedness and
 * floatness of type `t` picked as a binary expression's would be. */
static IrValue compound(Lower *l, TokenKind op, const Type *t, IrValue old, IrValue v)
{
    IrOp o = compound_op(op);
    bool fl = type_is_float(t), sg = type_is_signed(t);
    if (o == IR_SDIV)
        o = fl ? IR_FDIV : sg ? IR_SDIV : IR_UDIV;
    else if (o == IR_SREM && !sg)
        o = IR_UREM;
    else if (o == IR_ASHR && !sg)
        o = IR_LSHR;
    return lower_op2(l, o, old.type, old, v);
}

static void lower_store_to(Lower *l, Node *target, TokenKind op, IrValue v)
{
    IrValue addr;
    IrSpace space;
    if (!lower_address(l, target, &addr, &space))
        return;
    if (op != TK_ASSIGN)
        v = compound(l, op, target->type, lower_load(l, lower_type(target->type), addr, space), v);
    lower_store(l, addr, v, space);
}

static void lower_assign(Lower *l, Node *s)
{
    Node *target = s->a;
    if (target->type && lower_is_tile_like(target->type)) {
        lower_tile_assign(l, s);
        return;
    }
    IrValue v = lower_expr(l, s->b);
    /* x <<= c: the count may be of any integer type (sema_stmt.c), and is
     * converted to x's, as x << c's is (lower_expr.c). */
    if ((s->op == TK_SHL_ASSIGN || s->op == TK_SHR_ASSIGN) && s->b->type)
        v = lower_convert(l, v, s->b->type, target->type);
    if (target->kind == ND_INDEX) {
        lower_store_to(l, target, s->op, v);
        return;
    }
    IrValue *var = target->kind == ND_NAME ? lower_var(l, target->symbol) : NULL;
    if (!var) {
        lower_unsupported(l, s->span, "this assignment's target");
        return;
    }
    if (s->op != TK_ASSIGN) /* x += v reads x */
        lower_check_assigned(l, target);
    *var = s->op == TK_ASSIGN ? v : compound(l, s->op, target->type, *var, v);
    IrValue *flag = assigned_flag(l, target->symbol);
    if (flag)
        *flag = ir_int(IRT_I1, 1);
}

static void lower_if(Lower *l, Node *s)
{
    IrValue cond = lower_expr(l, s->a);
    IrBlock *then = ir_new_block(l->m, l->f);
    IrBlock *other = s->c ? ir_new_block(l->m, l->f) : NULL;
    IrBlock *join = ir_new_block(l->m, l->f);
    IrInst *cbr = lower_emit(l, IR_CBR, IRT_VOID, 1);
    cbr->operands[0] = cond;
    cbr->target[0] = then;
    cbr->target[1] = other ? other : join;
    uint32_t n = l->n_vars;
    LowerEdges edges = {0};
    /* The values at the branch: the else branch (or the edge past the
     * then branch) starts from them. */
    LowerEdges before = {0};
    lower_add_edge(l, other ? &before : &edges, l->cur);
    l->cur = then;
    lower_block(l, s->b);
    lower_jump(l, join, &edges);
    if (other) {
        l->n_vars = n;
        for (uint32_t k = lower_changes(l); k-- > 0;)
            l->vars[l->changing[k]].value = before.items[0].values[k];
        l->cur = other;
        if (s->c->kind == ND_IF)
            lower_if(l, s->c);
        else
            lower_block(l, s->c);
        lower_jump(l, join, &edges);
    }
    lower_join(l, join, &edges, n);
}

/* The header's phis: one for each mutable variable (k-th of those that
 * can change), its first operand the entry value; the second (from the
 * latch) is filled by close_loop.  *n is how many variables can change. */
static IrInst **open_loop(Lower *l, IrBlock *header, IrBlock *entry, uint32_t *n)
{
    *n = lower_changes(l);
    IrInst **phis = *n ? ARENA_ARRAY(l->m->arena, IrInst *, *n) : NULL;
    l->cur = header;
    for (uint32_t k = 0; k < *n; k++) {
        LowerVar *var = &l->vars[l->changing[k]];
        if (!var->symbol->mutable && var->symbol->kind != SYM_LOOP)
            continue;
        IrInst *phi = lower_emit(l, IR_PHI, var->value.type, 2);
        phi->operands[0] = var->value;
        phi->incoming[0] = entry;
        phis[k] = phi;
        var->value = ir_reg(phi);
    }
    return phis;
}

/* The latch's values into the header's phis.  When no path reaches the
 * latch the header has one predecessor, and each phi one operand.  The
 * n variables are still the first n of l->changing: the body's scopes
 * only added after them. */
static void close_loop(Lower *l, IrBlock *header, IrInst **phis, uint32_t n)
{
    IrBlock *latch = l->cur;
    if (latch) {
        IrInst *br = lower_emit(l, IR_BR, IRT_VOID, 0);
        br->target[0] = header;
    }
    for (uint32_t k = 0; k < n; k++) {
        if (!phis[k])
            continue;
        if (latch) {
            phis[k]->operands[1] = l->vars[l->changing[k]].value;
            phis[k]->incoming[1] = latch;
        } else {
            phis[k]->n_operands = 1;
        }
    }
    l->cur = NULL;
}

/* A loop: `header` already made and entered from the current block.
 * The condition (NULL: none) is lowered in the header; `step` (NULL: none)
 * is added to variable `var` in the latch. */
static void lower_loop(Lower *l, Node *cond, Node *body, Symbol *var, IrValue step,
                       const Type *var_type, IrValue end)
{
    IrBlock *entry = l->cur;
    IrBlock *header = ir_new_block(l->m, l->f);
    IrBlock *first = ir_new_block(l->m, l->f);
    LowerLoop loop = {.outer = l->loop, .n_vars = l->n_vars};
    loop.latch = ir_new_block(l->m, l->f);
    loop.exit = ir_new_block(l->m, l->f);
    IrInst *br = lower_emit(l, IR_BR, IRT_VOID, 0);
    br->target[0] = header;
    uint32_t n_changing;
    IrInst **phis = open_loop(l, header, entry, &n_changing);
    IrValue c;
    if (var) {
        IrValue i = *lower_var(l, var);
        c = lower_cmp(l, type_is_signed(var_type) ? IRC_SLT : IRC_ULT, i, end);
    } else {
        c = lower_expr(l, cond);
    }
    IrInst *cbr = lower_emit(l, IR_CBR, IRT_VOID, 1);
    cbr->operands[0] = c;
    cbr->target[0] = first;
    cbr->target[1] = loop.exit;
    lower_add_edge(l, &loop.breaks, l->cur);
    l->cur = first;
    l->loop = &loop;
    lower_block(l, body);
    l->loop = loop.outer;
    lower_jump(l, loop.latch, &loop.continues);
    lower_join(l, loop.latch, &loop.continues, loop.n_vars);
    if (var && l->cur) {
        IrValue *i = lower_var(l, var);
        *i = lower_op2(l, IR_ADD, i->type, *i, step);
    }
    close_loop(l, header, phis, n_changing);
    lower_join(l, loop.exit, &loop.breaks, loop.n_vars);
}

static void lower_while(Lower *l, Node *s)
{
    lower_loop(l, s->a, s->b, NULL, (IrValue){0}, NULL, (IrValue){0});
}

/* for i in a..b step s: the bounds and step are evaluated once, before
 * the loop; the loop runs while i < b. */
static void lower_for(Lower *l, Node *s)
{
    uint32_t n = l->n_vars;
    const Type *t = s->symbol->type;
    IrValue start = lower_expr(l, s->a);
    IrValue end = lower_expr(l, s->b);
    IrValue step = s->c ? lower_expr(l, s->c) : ir_int(lower_type(t), 1);
    if (!l->cur)
        return;
    lower_define(l, s->symbol, start);
    lower_loop(l, NULL, s->d, s->symbol, step, t, end);
    l->n_vars = n;
}

static void lower_break(Lower *l, Node *s)
{
    (void)s;
    lower_jump(l, s->kind == ND_BREAK ? l->loop->exit : l->loop->latch,
               s->kind == ND_BREAK ? &l->loop->breaks : &l->loop->continues);
}

static void lower_return(Lower *l, Node *s)
{
    if (l->inl) {
        lower_inline_return(l, s);
        return;
    }
    if (l->persistent_latch && !s->a) { /* on to the next logical work-group */
        lower_jump(l, l->persistent_latch, &l->persistent_next);
        return;
    }
    if (s->a) {
        lower_unsupported(l, s->span, "returning a value from device code");
        return;
    }
    lower_emit(l, IR_RET, IRT_VOID, 0);
    l->cur = NULL;
}

static void lower_stmt(Lower *l, Node *s)
{
    l->span = s->span;
    switch (s->kind) {
    case ND_LET: lower_let(l, s); break;
    case ND_SHARED: lower_shared_decl(l, s); break;
    case ND_ASSIGN: lower_assign(l, s); break;
    case ND_EXPR_STMT: lower_expr(l, s->a); break;
    case ND_IF: lower_if(l, s); break;
    case ND_WHILE: lower_while(l, s); break;
    case ND_FOR: lower_for(l, s); break;
    case ND_BREAK: case ND_CONTINUE: lower_break(l, s); break;
    case ND_RETURN: lower_return(l, s); break;
    case ND_BLOCK: lower_block(l, s); break;
    case ND_EMPTY: break;
    default: lower_unsupported(l, s->span, "this statement"); break;
    }
}

/* Statements after a break, continue or return are dead: not lowered. */
static void lower_block(Lower *l, Node *block)
{
    uint32_t n = l->n_vars;
    for (uint32_t i = 0; i < block->list.count && l->cur; i++)
        lower_stmt(l, block->list.items[i]);
    l->n_vars = n;
}

void lower_body(Lower *l, Node *block) { lower_block(l, block); }

/* ---- functions and the module -------------------------------------------------- */

static void lower_params(Lower *l, FuncInfo *info)
{
    Node *fn = info->decl;
    for (uint32_t i = 0; i < fn->list.count; i++) {
        Node *p = fn->list.items[i];
        /* Names resolve to the symbols of the function's scope. */
        Symbol *s = info->scope ? scope_find_here(info->scope, p->name) : NULL;
        IrType t = lower_type(info->params[i]);
        if (t == IRT_VOID || t == IRT_I1) {
            lower_unsupported(l, p->span, "a parameter of this type");
            t = IRT_I64;
        }
        IrParam *ip = ir_add_param(l->m, l->f, p->name, t);
        char name[128];
        const char *text = type_name(info->params[i], name, sizeof name);
        ip->source_type = arena_strndup(l->m->arena, text, strlen(text));
        if (s)
            lower_define(l, s, (IrValue){.kind = IRV_REG, .type = t, .reg = ip->reg});
    }
}

static IrValue zext_sreg(Lower *l, IrSreg r) { return lower_op1(l, IR_ZEXT, IRT_I64, lower_sreg(l, r)); }

/* @persistent (language.md section 7): the body, written for one work-group,
 * runs for the logical work-groups cta = ctaid.x, ctaid.x + nctaid.x, ...
 * below the logical count, the hidden last parameter (lower.h).  A
 * `return` goes on to the next one.  When the body uses shared memory, a
 * bar.sync in the latch keeps one iteration's reads of it before the
 * next one's writes. */
static void lower_persistent(Lower *l, Node *body)
{
    IrParam *p = ir_add_param(l->m, l->f, LOWER_LOGICAL_CTAS, IRT_I64);
    l->ctas = (IrValue){.kind = IRV_REG, .type = IRT_I64, .reg = p->reg};
    IrBlock *entry = l->cur;
    IrValue first = zext_sreg(l, IRR_CTAID_X);
    IrBlock *header = ir_new_block(l->m, l->f), *run = ir_new_block(l->m, l->f);
    IrBlock *latch = ir_new_block(l->m, l->f), *exit = ir_new_block(l->m, l->f);
    lower_emit(l, IR_BR, IRT_VOID, 0)->target[0] = header;
    l->cur = header;
    IrInst *cta = lower_emit(l, IR_PHI, IRT_I64, 2);
    cta->operands[0] = first;
    cta->incoming[0] = entry;
    l->cta = ir_reg(cta);
    IrValue more = lower_cmp(l, IRC_ULT, l->cta, l->ctas);
    IrInst *cbr = lower_emit(l, IR_CBR, IRT_VOID, 1);
    cbr->operands[0] = more;
    cbr->target[0] = run;
    cbr->target[1] = exit;
    l->cur = run;
    l->persistent_latch = latch;
    uint32_t n = l->n_vars, n_shared = l->m->n_shared;
    lower_block(l, body);
    lower_jump(l, latch, &l->persistent_next);
    l->persistent_latch = NULL;
    lower_join(l, latch, &l->persistent_next, n);
    if (l->cur) {
        if (l->m->n_shared > n_shared || l->info->smem)
            lower_emit(l, IR_BARRIER, IRT_VOID, 0);
        IrValue next = lower_op2(l, IR_ADD, IRT_I64, l->cta, zext_sreg(l, IRR_NCTAID_X));
        cta->operands[1] = next;
        cta->incoming[1] = l->cur;
        lower_emit(l, IR_BR, IRT_VOID, 0)->target[0] = header;
    } else {
        cta->n_operands = 1;
    }
    l->cur = exit;
}

static void lower_func(Lower *l, Symbol *fn)
{
    FuncInfo *info = fn->func;
    l->info = info;
    l->f = ir_new_func(l->m, fn->name, true);
    l->f->span = info->decl->name_span;
    l->f->reqntid = info->reqntid;
    l->f->minnctapersm = info->min_blocks;
    l->f->maxnreg = info->max_regs;
    l->f->dynamic_smem = info->smem;
    l->n_vars = 0;
    l->loop = NULL;
    l->inl = NULL;
    l->cta = l->ctas = (IrValue){0};
    l->persistent_next = (LowerEdges){0};
    memset(l->reduce_scratch, 0, sizeof l->reduce_scratch);
    l->cur = ir_new_block(l->m, l->f);
    lower_promote_tiles(l, info->decl->b);
    lower_params(l, info);
    if (info->persistent)
        lower_persistent(l, info->decl->b);
    else
        lower_block(l, info->decl->b);
    if (l->cur)
        lower_emit(l, IR_RET, IRT_VOID, 0);
}

static bool is_root_kernel(const Symbol *s, const Module *m)
{
    return s->kind == SYM_FUNC && s->module == m && s->func && s->func->gpu &&
           s->func->launchable && s->func->decl && s->func->decl->b;
}

IrModule *lower_module(Compilation *c, Arena *arena)
{
    Lower l = {.c = c, .m = ir_new_module(arena)};
    l.m->race_checks = c->options.race_checks;
    if (c->diag.errors > 0)
        return l.m;
    for (uint32_t i = 0; i < c->n_modules; i++) {
        Module *m = c->modules[i];
        if (m->package != PKG_ROOT || !m->scope)
            continue;
        uint32_t n;
        Symbol **symbols = scope_symbols(m->scope, &n);
        for (uint32_t j = 0; j < n; j++)
            if (is_root_kernel(symbols[j], m))
                lower_func(&l, symbols[j]);
    }
    return l.errors ? NULL : l.m;
}

bool lower_is_persistent(const IrFunc *f)
{
    return f->n_params > 0 && f->params[f->n_params - 1].name &&
           strcmp(f->params[f->n_params - 1].name, LOWER_LOGICAL_CTAS) == 0;
}
