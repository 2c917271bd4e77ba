/*
 * silkgen_stmt.c: statements — declarations, assignments, branches,
 * loops, atomics — and the scopes that hold their variables.
 *
 * Three rules keep a program valid and its result a function of its
 * inputs alone:
 *
 * - Every loop ends: a for loop's bound is a small literal or a value
 *   masked to 15 or less, and a while loop counts a masked value down at
 *   the top of its body, where no continue can skip it.
 * - Barriers and warp collectives run only where every thread of the CTA
 *   is together (Gen.uniform_cf): in the body's top level, and in a branch
 *   or loop whose condition is the same in every thread (a `let` of
 *   uniform values, a parameter, ctx.cta...).  A break or continue in such
 *   a loop takes a uniform condition too, else the loop would diverge.
 * - Every variable is read: when a block ends, each variable it declared
 *   that nothing read (and some that were read) is folded into the
 *   thread's checksum, cs (integers and bools) or fs (floats), which the
 *   kernel writes out.  So silkc never warns of an unused variable, and
 *   every value the program computes reaches memory, where the
 *   differential test compares it.
 */
#include "silkgen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- variables and scopes ----------------------------------------------------------- */

Var *var_declare(Gen *g, const char *name, Ty t, bool is_mutable, Ex init)
{
    if (g->n_vars >= MAX_VARS) { /* the sizes keep far below it */
        fputs("silkgen: too many variables in scope\n", stderr);
        exit(1);
    }
    Var *v = &g->vars[g->n_vars++];
    *v = (Var){.ty = t, .is_mutable = is_mutable, .depth = g->depth};
    snprintf(v->name, sizeof v->name, "%s", name);
    /* A var may be changed where threads differ, so only a let is uniform. */
    v->is_const = !is_mutable && init.is_const;
    v->is_uniform = !is_mutable && init.is_uniform;
    return v;
}

static Var *pick(Gen *g, bool (*fits)(const Var *))
{
    int found[MAX_VARS], n = 0;
    for (int i = g->scope_base; i < g->n_vars; i++)
        if (fits(&g->vars[i]))
            found[n++] = i;
    return n ? &g->vars[found[rng_below(&g->rng, (uint32_t)n)]] : NULL;
}

static bool assignable(const Var *v) { return v->is_mutable && !v->is_counter; }
static bool assignable_number(const Var *v) { return assignable(v) && v->ty != TY_BOOL; }

void scope_open(Gen *g)
{
    g->depth++;
}

void stmt_checksum(Gen *g, const Var *v)
{
    gen_put(g, "%*s", 2 * g->indent, "");
    if (ty_is_float(v->ty)) {
        gen_put(g, "fs = (fs * 0.5) + ");
        expr_convert_var(g, v, TY_F64);
    } else {
        gen_put(g, "cs = (cs ^ ");
        expr_convert_var(g, v, TY_U64);
        gen_put(g, ") * 1099511628211");
    }
    gen_put(g, "\n");
}

/* Folds the block's variables into the checksums: each one nothing read,
 * and a third of the others. */
static void scope_checksum(Gen *g)
{
    for (int i = g->scope_base; i < g->n_vars; i++) {
        Var *v = &g->vars[i];
        if (v->depth != g->depth || v->is_counter || v->is_loop_var)
            continue;
        if (v->reads == 0 || rng_percent(&g->rng, 30)) {
            v->reads++;
            stmt_checksum(g, v);
        }
    }
}

static void scope_pop(Gen *g)
{
    while (g->n_vars > g->scope_base && g->vars[g->n_vars - 1].depth >= g->depth)
        g->n_vars--;
    g->depth--;
}

void scope_close(Gen *g)
{
    if (!g->in_helper)
        scope_checksum(g);
    scope_pop(g);
}

/* ---- writing ------------------------------------------------------------------------ */

static void indent(Gen *g)
{
    gen_put(g, "%*s", 2 * g->indent, "");
}

/* An expression written into `buf` instead of the output, so that what
 * precedes it may depend on it. */
static Ex expr_into(Gen *g, Text *buf, Ty t, int depth, Want w)
{
    Text *saved = g->out;
    g->out = buf;
    Ex ex = expr(g, t, depth, w);
    g->out = saved;
    return ex;
}

static int depth_now(Gen *g)
{
    return rng_range(&g->rng, 1, g->size->expr_depth);
}

/* ---- declarations and assignments ----------------------------------------------------- */

/* let vN: T = e, var vN: T = e, or var vN: T then vN = e.  The type is
 * left out now and then where e has it anyway (not a constant, whose
 * literals would be i32). */
static void stmt_decl(Gen *g)
{
    char name[24];
    gen_fresh(g, name, sizeof name, "v");
    Ty t = ty_random_any(g);
    bool is_mutable = rng_percent(&g->rng, 45);
    Text e = {0};
    Ex ex = expr_into(g, &e, t, depth_now(g), (Want){false, false});
    indent(g);
    if (is_mutable && rng_percent(&g->rng, 15)) {
        gen_put(g, "var %s: %s\n", name, ty_name(t));
        indent(g);
        gen_put(g, "%s = %s\n", name, e.s);
    } else if (!ex.is_const && rng_percent(&g->rng, 25)) {
        gen_put(g, "%s %s = %s\n", is_mutable ? "var" : "let", name, e.s);
    } else {
        gen_put(g, "%s %s: %s = %s\n", is_mutable ? "var" : "let", name, ty_name(t), e.s);
    }
    text_free(&e);
    var_declare(g, name, t, is_mutable, ex);
}

static void stmt_assign(Gen *g)
{
    Var *v = pick(g, assignable);
    if (!v) {
        stmt_decl(g);
        return;
    }
    indent(g);
    gen_put(g, "%s = ", v->name);
    expr(g, v->ty, depth_now(g), (Want){false, false});
    gen_put(g, "\n");
}

/* x op= e; a divisor and a shift count are made safe as in expressions. */
static void stmt_compound(Gen *g)
{
    Var *v = pick(g, assignable_number);
    if (!v) {
        stmt_decl(g);
        return;
    }
    Ty t = v->ty;
    Want nonconst = {true, false};
    indent(g);
    if (ty_is_float(t)) {
        static const char *const ops[] = {"+=", "-=", "*=", "/="};
        gen_put(g, "%s %s ", v->name, ops[rng_below(&g->rng, 4)]);
        expr(g, t, depth_now(g), (Want){false, false});
    } else {
        switch (rng_below(&g->rng, 5)) {
        case 0: case 1: {
            static const char *const ops[] = {"+=", "-=", "*=", "&=", "|=", "^="};
            gen_put(g, "%s %s ", v->name, ops[rng_below(&g->rng, 6)]);
            expr(g, t, depth_now(g), (Want){false, false});
            break;
        }
        case 2:
            gen_put(g, "%s %s= (", v->name, rng_percent(&g->rng, 50) ? "/" : "%");
            if (ty_is_signed(t)) {
                gen_put(g, "(");
                expr(g, t, depth_now(g), nonconst);
                gen_put(g, " & -2) | 2)");
            } else {
                expr(g, t, depth_now(g), nonconst);
                gen_put(g, " | 1)");
            }
            break;
        default:
            /* The count: a bare literal (an i32, whatever x's type), one
             * of x's type, or x's type masked below its width. */
            gen_put(g, "%s %s ", v->name, rng_percent(&g->rng, 50) ? "<<=" : ">>=");
            if (t == TY_I32 || rng_percent(&g->rng, 50)) {
                gen_put(g, "%u", rng_below(&g->rng, (uint32_t)ty_bits(t)));
            } else if (rng_percent(&g->rng, 50)) {
                gen_put(g, "%s(%u)", ty_name(t), rng_below(&g->rng, (uint32_t)ty_bits(t)));
            } else {
                gen_put(g, "(");
                expr(g, t, depth_now(g), nonconst);
                gen_put(g, " & %d)", ty_bits(t) - 1);
            }
            break;
        }
    }
    gen_put(g, "\n");
}

/* ---- blocks --------------------------------------------------------------------------- */

/* { statements }, with the threads together inside only when `uniform`
 * (and already so outside). */
static void block(Gen *g, int n, bool uniform)
{
    bool uniform_cf = g->uniform_cf, collective_ok = g->collective_ok;
    g->uniform_cf = uniform_cf && uniform;
    g->collective_ok = g->uniform_cf;
    g->indent++;
    scope_open(g);
    for (int i = 0; i < n; i++)
        stmt_one(g);
    scope_close(g);
    g->indent--;
    g->uniform_cf = uniform_cf;
    g->collective_ok = collective_ok;
}

void stmt_block(Gen *g, int n)
{
    for (int i = 0; i < n; i++)
        stmt_one(g);
}

static int block_size(Gen *g)
{
    return rng_range(&g->rng, 1, g->size->block_stmts);
}

/* A condition: uniform when the branch should keep the threads together. */
static Ex condition(Gen *g, bool uniform)
{
    return expr(g, TY_BOOL, depth_now(g), (Want){false, uniform});
}

/* if c { } [else if c { }] [else { }]: an else-if's condition is evaluated
 * only by the threads that did not take the first branch. */
static void stmt_if(Gen *g)
{
    bool want_uniform = g->uniform_cf && rng_percent(&g->rng, 40);
    indent(g);
    gen_put(g, "if ");
    bool uniform = condition(g, want_uniform).is_uniform;
    gen_put(g, " {\n");
    block(g, block_size(g), uniform);
    int arms = rng_below(&g->rng, 3);
    for (int i = 0; i < arms; i++) {
        indent(g);
        if (i == 0 && arms == 2) {
            bool collective_ok = g->collective_ok;
            g->collective_ok = collective_ok && uniform;
            gen_put(g, "} else if ");
            uniform &= condition(g, uniform && want_uniform).is_uniform;
            g->collective_ok = collective_ok;
            gen_put(g, " {\n");
        } else {
            gen_put(g, "} else {\n");
        }
        block(g, block_size(g), uniform);
    }
    indent(g);
    gen_put(g, "}\n");
}

/* ---- loops ---------------------------------------------------------------------------- */

static void loop_body(Gen *g, bool uniform, const char *counter_step)
{
    bool loop_uniform = g->uniform_cf && uniform;
    g->loop_uniform[g->loops++] = loop_uniform;
    bool uniform_cf = g->uniform_cf, collective_ok = g->collective_ok;
    g->uniform_cf = loop_uniform;
    g->collective_ok = loop_uniform;
    g->indent++;
    if (counter_step) {
        indent(g);
        gen_put(g, "%s\n", counter_step);
    }
    stmt_block(g, block_size(g));
    scope_close(g); /* the caller opened it, for the loop's variable */
    g->indent--;
    g->uniform_cf = uniform_cf;
    g->collective_ok = collective_ok;
    g->loops--;
}

static Ty int_type(Gen *g)
{
    Ty t = ty_random(g);
    while (!ty_is_int(t))
        t = ty_random(g);
    return t;
}

/* for jN in lo..hi [step s] { }: at most 15 + 3 steps, so no counter of
 * any width wraps. */
static void stmt_for(Gen *g)
{
    char name[24];
    gen_fresh(g, name, sizeof name, "j");
    bool want_uniform = g->uniform_cf && rng_percent(&g->rng, 60);
    Ty t;
    Ex hi = {true, true};
    indent(g);
    gen_put(g, "for %s in ", name);
    if (rng_percent(&g->rng, 40)) {
        /* two bare literals are i32; a suffix on the first types both */
        static const Ty suffixed[] = {TY_I32, TY_U32, TY_I64, TY_U64};
        bool suffix = rng_percent(&g->rng, 50);
        t = suffix ? suffixed[rng_below(&g->rng, 4)] : TY_I32;
        gen_put(g, "%d%s..%d", rng_range(&g->rng, 0, 3), suffix ? ty_name(t) : "", rng_range(&g->rng, 0, 8));
    } else {
        t = int_type(g);
        gen_put(g, "%d..(", rng_range(&g->rng, 0, 3));
        hi = expr(g, t, depth_now(g), (Want){true, want_uniform});
        gen_put(g, " & %d)", rng_percent(&g->rng, 50) ? 7 : 15);
    }
    if (rng_percent(&g->rng, 30))
        gen_put(g, " step %d", rng_range(&g->rng, 1, 3));
    gen_put(g, " {\n");
    scope_open(g);
    var_declare(g, name, t, false, (Ex){false, hi.is_uniform})->is_loop_var = true;
    loop_body(g, hi.is_uniform, NULL);
    indent(g);
    gen_put(g, "}\n");
}

/* var wN: T = e & 7; while wN > 0 { wN -= 1 ... }: the count goes down
 * first, so a continue cannot skip it. */
static void stmt_while(Gen *g)
{
    char name[24], step[48];
    gen_fresh(g, name, sizeof name, "w");
    bool want_uniform = g->uniform_cf && rng_percent(&g->rng, 50);
    Ty t = int_type(g);
    indent(g);
    gen_put(g, "var %s: %s = (", name, ty_name(t));
    Ex n = expr(g, t, depth_now(g), (Want){true, want_uniform});
    gen_put(g, " & 7)\n");
    Var *w = var_declare(g, name, t, true, n);
    w->is_counter = true;
    w->is_uniform = n.is_uniform; /* changed by the loop alone, in step */
    w->reads++;
    indent(g);
    gen_put(g, "while %s > 0 {\n", name);
    snprintf(step, sizeof step, "%s -= 1", name);
    scope_open(g);
    loop_body(g, n.is_uniform, step);
    indent(g);
    gen_put(g, "}\n");
}

/* if c { break } (or continue), the jump alone in its block; in a loop
 * that keeps the threads together, only where they are together and on
 * a uniform condition. */
static void stmt_jump(Gen *g)
{
    bool loop_uniform = g->loop_uniform[g->loops - 1];
    if (loop_uniform && !g->uniform_cf) {
        stmt_assign(g);
        return;
    }
    indent(g);
    gen_put(g, "if ");
    condition(g, loop_uniform);
    gen_put(g, " {\n");
    indent(g);
    gen_put(g, "  %s\n", rng_percent(&g->rng, 50) ? "break" : "continue");
    indent(g);
    gen_put(g, "}\n");
}

/* The accumulator's one atomic (add, min or max): integers, whose order
 * of arrival changes nothing; the old value returned is never used. */
static void stmt_atomic(Gen *g)
{
    int p = gen_param_acc(g);
    if (p < 0) {
        stmt_compound(g);
        return;
    }
    indent(g);
    gen_put(g, "%s(%s[", g->params[p].atomic, g->params[p].name);
    expr_index(g, p, 0, false);
    gen_put(g, "], ");
    expr(g, g->params[p].elem, depth_now(g), (Want){false, false});
    gen_put(g, ")\n");
}

static void stmt_nested(Gen *g)
{
    indent(g);
    gen_put(g, "{\n");
    block(g, block_size(g), true);
    indent(g);
    gen_put(g, "}\n");
}

/* What the whole CTA does together, where it is together. */
static bool stmt_cta(Gen *g)
{
    switch (rng_below(&g->rng, 6)) {
    case 0: if (g->use_shared) { cta_shared_exchange(g); return true; } break;
    case 1: if (g->use_shared && g->use_atomics) { cta_shared_atomics(g); return true; } break;
    case 2: case 3: if (g->use_warp) { cta_warp(g); return true; } break;
    case 4: if (g->use_tiles) { cta_tiles(g); return true; } break;
    default: indent(g); gen_put(g, "sync()\n"); return true;
    }
    return false;
}

void stmt_one(Gen *g)
{
    bool can_nest = g->depth < g->size->nest;
    for (;;) {
        switch (rng_below(&g->rng, 20)) {
        case 0: case 1: case 2: case 3: stmt_decl(g); return;
        case 4: case 5: stmt_assign(g); return;
        case 6: case 7: stmt_compound(g); return;
        case 8: case 9: if (can_nest) { stmt_if(g); return; } break;
        case 10: if (can_nest) { stmt_for(g); return; } break;
        case 11: if (can_nest) { stmt_while(g); return; } break;
        case 12: if (g->loops) { stmt_jump(g); return; } break;
        case 13: if (g->use_atomics) { stmt_atomic(g); return; } break;
        case 14: if (can_nest && rng_percent(&g->rng, 30)) { stmt_nested(g); return; } break;
        default:
            if (g->uniform_cf && can_nest && stmt_cta(g))
                return;
            break;
        }
    }
}

/* ---- helpers: device functions that return a value ------------------------------------- */

/* One statement of a helper's top level: a declaration, an assignment,
 * an early return, or an if/else that assigns.  Nested blocks declare
 * nothing, so every local is at the top, where the return reads it. */
static void helper_stmt(Gen *g, Ty result)
{
    Var *v = pick(g, assignable);
    switch (rng_below(&g->rng, 5)) {
    case 0: case 1: stmt_decl(g); return;
    case 2:
        if (v) {
            stmt_assign(g);
            return;
        }
        stmt_decl(g);
        return;
    case 3:
        indent(g);
        gen_put(g, "if ");
        condition(g, false);
        gen_put(g, " {\n");
        indent(g);
        gen_put(g, "  return ");
        expr(g, result, depth_now(g), (Want){false, false});
        gen_put(g, "\n");
        indent(g);
        gen_put(g, "}\n");
        return;
    default:
        if (!v) {
            stmt_decl(g);
            return;
        }
        indent(g);
        gen_put(g, "if ");
        condition(g, false);
        gen_put(g, " {\n");
        g->indent++;
        indent(g);
        gen_put(g, "%s = ", v->name);
        expr(g, v->ty, depth_now(g), (Want){false, false});
        g->indent--;
        gen_put(g, "\n");
        indent(g);
        gen_put(g, "} else {\n");
        g->indent++;
        indent(g);
        gen_put(g, "%s = ", v->name);
        expr(g, v->ty, depth_now(g), (Want){false, false});
        g->indent--;
        gen_put(g, "\n");
        indent(g);
        gen_put(g, "}\n");
        return;
    }
}

/* return e, with every local nothing read folded in (^ for integers, + for
 * floats), so that none goes unused. */
static void helper_return(Gen *g, Ty result)
{
    Text e = {0};
    expr_into(g, &e, result, depth_now(g), (Want){false, false});
    int unread[MAX_VARS], n = 0;
    for (int i = g->scope_base; i < g->n_vars; i++)
        if (g->vars[i].reads == 0)
            unread[n++] = i;
    indent(g);
    gen_put(g, "return ");
    for (int i = 0; i < n; i++)
        gen_put(g, "(");
    gen_put(g, "%s", e.s);
    for (int i = 0; i < n; i++) {
        gen_put(g, ty_is_float(result) ? " + " : " ^ ");
        expr_convert_var(g, &g->vars[unread[i]], result);
        gen_put(g, ")");
    }
    gen_put(g, "\n");
    text_free(&e);
}

/* Writes helper h into g->helper_text, from a clean state: only its
 * parameters in scope, no ctx, no tensors, no collectives. */
void stmt_helper(Gen *g, Helper *h)
{
    /* what a helper changes, put back at its end; the variables above
     * n_vars are its own */
    struct {
        Text *out;
        bool in_helper, uniform_cf, collective_ok;
        int scope_base, n_vars, loops, depth, indent;
        const char *gid_index;
    } saved = {g->out, g->in_helper, g->uniform_cf, g->collective_ok, g->scope_base,
               g->n_vars, g->loops, g->depth, g->indent, g->gid_index};
    Text body = {0};
    g->out = &body;
    g->in_helper = true;
    g->scope_base = g->n_vars;
    g->uniform_cf = g->collective_ok = false;
    g->loops = 0;
    g->depth = 0;
    g->indent = 1;
    g->gid_index = NULL;
    text_printf(&body, "\nattr(device=gpu) fn %s(", h->name);
    for (int i = 0; i < h->n_params; i++) {
        char name[24];
        snprintf(name, sizeof name, "p%d", i);
        text_printf(&body, "%s%s: %s", i ? ", " : "", name, ty_name(h->params[i]));
        /* parameters are never reported unused */
        var_declare(g, name, h->params[i], false, (Ex){false, false})->reads = 1;
    }
    text_printf(&body, ") -> %s {\n", ty_name(h->result));
    int n = rng_range(&g->rng, 1, 4);
    for (int i = 0; i < n; i++)
        helper_stmt(g, h->result);
    helper_return(g, h->result);
    text_printf(&body, "}\n");
    text_append(&g->helper_text, &body);
    text_free(&body);

    g->out = saved.out;
    g->in_helper = saved.in_helper;
    g->uniform_cf = saved.uniform_cf;
    g->collective_ok = saved.collective_ok;
    g->scope_base = saved.scope_base;
    g->n_vars = saved.n_vars;
    g->loops = saved.loops;
    g->depth = saved.depth;
    g->indent = saved.indent;
    g->gid_index = saved.gid_index;
}
