/*
 * silkgen_cta.c: what the threads of a CTA do together — shared-memory
 * exchanges, shared atomics, warp shuffles and votes, tiles and their
 * reductions.  Each is written only where every thread of the CTA is
 * together (Gen.uniform_cf), with every warp whole (the CTA is a
 * multiple of 32 threads, all of them present: the guard gid < n comes
 * only around the final writes).
 *
 * Shared memory is free of races by its protocol: each thread writes its
 * own slots, a barrier, threads read any slot, and a barrier again before
 * anything may write the array once more (the segment may sit in a loop).
 * Shared atomics are integer add, min or max, one of them per array:
 * each commutes with itself, but not with the others.
 *
 * Tiles follow docs/language.md (5.5): tile statements carry their own
 * barriers; a reduction gives every thread the same value; a tile written
 * to a global tensor is a view of the rows of this CTA alone.
 */
#include "silkgen.h"

#include <stdio.h>

static void indent(Gen *g)
{
    gen_put(g, "%*s", 2 * g->indent, "");
}

/* Any number type shuffles (silkc moves 64-bit values as two 32-bit
 * halves, narrower ones widened); the 32-bit ones, which map to one
 * shfl.sync, half the time. */
static Ty shuffle_type(Gen *g)
{
    static const Ty ok[] = {TY_I32, TY_U32, TY_F32};
    if (rng_percent(&g->rng, 50))
        return ty_random(g);
    return ok[rng_below(&g->rng, 3)];
}

static Var *declare_let(Gen *g, const char *name, Ty t, Ex ex)
{
    return var_declare(g, name, t, false, ex);
}

/* A CTA has at most 48 KiB of static shared memory (ptxas refuses more),
 * and the compiler adds its own arrays for tiles: the arrays written here
 * take at most half of it, counted as each segment declares them (tile
 * segments at four times their tile, for the scratch arrays). */
enum { SHARED_BUDGET = 24 * 1024 };

static bool shared_fits(Gen *g, int bytes)
{
    if (g->shared_bytes + bytes > SHARED_BUDGET)
        return false;
    g->shared_bytes += bytes;
    return true;
}

static int ty_bytes(Ty t)
{
    return ty_bits(t) / 8;
}

/* ---- shared-memory exchange ------------------------------------------------------------ */

/* A slot of 0..threads-1, of another thread's choosing. */
static void other_slot(Gen *g)
{
    switch (rng_below(&g->rng, 5)) {
    case 0: gen_put(g, "(ctx.tid + %d) %% ctx.threads", rng_range(&g->rng, 1, g->threads - 1)); break;
    case 1: gen_put(g, "(ctx.tid ^ %d) %% ctx.threads", rng_range(&g->rng, 1, 1023)); break;
    case 2: gen_put(g, "ctx.threads - 1 - ctx.tid"); break;
    case 3: gen_put(g, "ctx.warp * 32 + ((ctx.lane + %d) & 31)", rng_range(&g->rng, 1, 31)); break;
    default:
        gen_put(g, "(");
        expr(g, TY_U32, 2, (Want){true, false});
        gen_put(g, ") %% ctx.threads");
        break;
    }
}

/* shared s: T[threads] (or [rows, threads]); s[.., tid] = e; sync();
 * let x = s[.., another slot]; sync() */
void cta_shared_exchange(Gen *g)
{
    char sh[24], x[24];
    gen_fresh(g, sh, sizeof sh, "sh");
    Ty t = ty_random(g);
    int rows = rng_percent(&g->rng, 30) ? rng_range(&g->rng, 2, 3) : 0;
    if (!shared_fits(g, (rows ? rows : 1) * g->threads * ty_bytes(t)))
        return;
    indent(g);
    if (rows) {
        char r[24];
        gen_fresh(g, r, sizeof r, "r");
        gen_put(g, "shared %s: %s[%d, %d]\n", sh, ty_name(t), rows, g->threads);
        indent(g);
        gen_put(g, "for %s in 0..%d {\n", r, rows);
        scope_open(g);
        var_declare(g, r, TY_I32, false, (Ex){false, true})->is_loop_var = true;
        indent(g);
        gen_put(g, "  %s[%s, ctx.tid] = ", sh, r);
        expr_any(g, t);
        gen_put(g, "\n");
        scope_close(g);
        indent(g);
        gen_put(g, "}\n");
    } else {
        gen_put(g, "shared %s: %s[%d]\n", sh, ty_name(t), g->threads);
        indent(g);
        gen_put(g, "%s[ctx.tid] = ", sh);
        expr_any(g, t);
        gen_put(g, "\n");
    }
    indent(g);
    gen_put(g, "sync()\n");
    int reads = rng_range(&g->rng, 1, 3);
    for (int i = 0; i < reads; i++) {
        gen_fresh(g, x, sizeof x, "x");
        indent(g);
        gen_put(g, "let %s: %s = %s[", x, ty_name(t), sh);
        if (rows)
            gen_put(g, "%d, ", rng_range(&g->rng, 0, rows - 1));
        other_slot(g);
        gen_put(g, "]\n");
        declare_let(g, x, t, (Ex){false, false});
    }
    indent(g);
    gen_put(g, "sync()\n");
}

/* ---- shared atomics ------------------------------------------------------------------- */

static Ty atomic_type(Gen *g)
{
    static const Ty ok[] = {TY_U32, TY_I32, TY_U64, TY_I64};
    return ok[rng_below(&g->rng, 4)];
}

/* shared a: T[S]; each of the first S threads sets its slot; sync();
 * one kind of atomic, some only in some threads; sync(); reads; sync() */
void cta_shared_atomics(Gen *g)
{
    static const char *const ops[] = {"atomic_add", "atomic_min", "atomic_max"};
    const char *op = ops[rng_below(&g->rng, 3)];
    char sa[24], y[24];
    gen_fresh(g, sa, sizeof sa, "sa");
    Ty t = atomic_type(g);
    static const int sizes[] = {1, 4, 32};
    int slots = rng_percent(&g->rng, 25) ? g->threads : sizes[rng_below(&g->rng, 3)];
    if (!shared_fits(g, slots * ty_bytes(t)))
        return;
    indent(g);
    gen_put(g, "shared %s: %s[%d]\n", sa, ty_name(t), slots);
    bool collective_ok = g->collective_ok;
    indent(g);
    if (slots < g->threads) {
        gen_put(g, "if ctx.tid < %d {\n", slots);
        indent(g);
        gen_put(g, "  ");
        g->collective_ok = false; /* only some threads are here */
    }
    gen_put(g, "%s[ctx.tid] = ", sa);
    expr_any(g, t);
    gen_put(g, "\n");
    g->collective_ok = collective_ok;
    if (slots < g->threads) {
        indent(g);
        gen_put(g, "}\n");
    }
    indent(g);
    gen_put(g, "sync()\n");
    int n = rng_range(&g->rng, 1, 3);
    for (int i = 0; i < n; i++) {
        bool some = rng_percent(&g->rng, 40);
        indent(g);
        if (some) {
            gen_put(g, "if ");
            expr(g, TY_BOOL, 2, (Want){false, false});
            gen_put(g, " {\n");
            g->indent++;
            g->collective_ok = false; /* only some threads are here */
            indent(g);
        }
        gen_put(g, "%s(%s[(", op, sa);
        expr(g, TY_U32, 2, (Want){true, false});
        gen_put(g, ") %% %d], ", slots);
        expr_any(g, t);
        gen_put(g, ")\n");
        if (some) {
            g->indent--;
            g->collective_ok = collective_ok;
            indent(g);
            gen_put(g, "}\n");
        }
    }
    indent(g);
    gen_put(g, "sync()\n");
    gen_fresh(g, y, sizeof y, "y");
    indent(g);
    gen_put(g, "let %s: %s = %s[(ctx.tid * %d) %% %d]\n", y, ty_name(t), sa, rng_range(&g->rng, 1, 7), slots);
    declare_let(g, y, t, (Ex){false, false});
    indent(g);
    gen_put(g, "sync()\n");
}

/* ---- warp collectives ------------------------------------------------------------------ */

/* A lane argument (u32): a literal below 32, or a value masked to 31. */
static void lane_arg(Gen *g)
{
    if (rng_percent(&g->rng, 50)) {
        gen_put(g, "%d", rng_range(&g->rng, 0, 31));
        return;
    }
    gen_put(g, "(");
    expr(g, TY_U32, 1, (Want){true, false});
    gen_put(g, " & 31)");
}

bool cta_collective_expr(Gen *g, Ty t)
{
    if (!g->collective_ok || !g->use_warp || g->in_helper)
        return false;
    if (t == TY_BOOL && rng_percent(&g->rng, 70)) {
        gen_put(g, "(ballot(");
        expr(g, TY_BOOL, 1, (Want){false, false});
        gen_put(g, rng_percent(&g->rng, 50) ? ") != 0)" : ") == 0xffff_ffff)");
        return true;
    }
    if (t == TY_U32 && rng_percent(&g->rng, 30)) {
        gen_put(g, "ballot(");
        expr(g, TY_BOOL, 1, (Want){false, false});
        gen_put(g, ")");
        return true;
    }
    static const char *const shfl[] = {"shfl", "shfl_xor", "shfl_down", "shfl_up"};
    /* a literal alone would be i32 here: shfl's value takes no type from
     * its context */
    gen_put(g, "%s(", shfl[rng_below(&g->rng, 4)]);
    expr(g, t, 1, (Want){true, false});
    gen_put(g, ", ");
    lane_arg(g);
    gen_put(g, ")");
    return true;
}

/* var r = e; for k in 0..5 { r = r OP shfl_xor(r, 16 >> k) }: every lane
 * ends with the warp's OP of all. */
static void warp_butterfly(Gen *g, Ty t)
{
    char r[24], k[24];
    gen_fresh(g, r, sizeof r, "wr");
    gen_fresh(g, k, sizeof k, "k");
    indent(g);
    gen_put(g, "var %s: %s = ", r, ty_name(t));
    expr_any(g, t);
    gen_put(g, "\n");
    indent(g);
    gen_put(g, "for %s in 0u32..5 {\n", k);
    indent(g);
    unsigned op = rng_below(&g->rng, ty_is_float(t) ? 3 : 6);
    static const char *const fmt[] = {"  %s = %s + shfl_xor(%s, 16u32 >> %s)\n",
                                      "  %s = min(%s, shfl_xor(%s, 16u32 >> %s))\n",
                                      "  %s = max(%s, shfl_xor(%s, 16u32 >> %s))\n",
                                      "  %s = %s ^ shfl_xor(%s, 16u32 >> %s)\n",
                                      "  %s = %s | shfl_xor(%s, 16u32 >> %s)\n",
                                      "  %s = %s & shfl_xor(%s, 16u32 >> %s)\n"};
    gen_put(g, fmt[op], r, r, r, k);
    indent(g);
    gen_put(g, "}\n");
    var_declare(g, r, t, true, (Ex){false, false})->reads++;
}

/* An inclusive scan by shfl_up, the add only in the lanes it reaches. */
static void warp_scan(Gen *g, Ty t)
{
    char s[24], k[24], u[24];
    gen_fresh(g, s, sizeof s, "sc");
    gen_fresh(g, k, sizeof k, "k");
    gen_fresh(g, u, sizeof u, "up");
    indent(g);
    gen_put(g, "var %s: %s = ", s, ty_name(t));
    expr_any(g, t);
    gen_put(g, "\n");
    indent(g);
    gen_put(g, "for %s in 0u32..5 {\n", k);
    indent(g);
    gen_put(g, "  let %s = shfl_up(%s, 1u32 << %s)\n", u, s, k);
    indent(g);
    gen_put(g, "  if ctx.lane >= (1u32 << %s) {\n", k);
    indent(g);
    gen_put(g, "    %s = %s + %s\n", s, s, u);
    indent(g);
    gen_put(g, "  }\n");
    indent(g);
    gen_put(g, "}\n");
    var_declare(g, s, t, true, (Ex){false, false})->reads++;
}

/* let b = ballot(p), and its population count by clearing bits. */
static void warp_vote(Gen *g)
{
    char b[24], bits[24], c[24];
    gen_fresh(g, b, sizeof b, "b");
    gen_fresh(g, bits, sizeof bits, "bits");
    gen_fresh(g, c, sizeof c, "pc");
    indent(g);
    gen_put(g, "let %s: u32 = ballot(", b);
    expr(g, TY_BOOL, g->size->expr_depth, (Want){false, false});
    gen_put(g, ")\n");
    indent(g);
    gen_put(g, "var %s = %s\n", bits, b);
    indent(g);
    gen_put(g, "var %s: u32 = 0\n", c);
    indent(g);
    gen_put(g, "while %s != 0 {\n", bits);
    indent(g);
    gen_put(g, "  %s &= %s - 1\n", bits, bits);
    indent(g);
    gen_put(g, "  %s += 1\n", c);
    indent(g);
    gen_put(g, "}\n");
    var_declare(g, b, TY_U32, false, (Ex){false, false})->reads++;
    Var *vb = var_declare(g, bits, TY_U32, true, (Ex){false, false});
    vb->reads++;
    vb->is_counter = true;
    var_declare(g, c, TY_U32, true, (Ex){false, false});
}

void cta_warp(Gen *g)
{
    Ty t = shuffle_type(g);
    switch (rng_below(&g->rng, 4)) {
    case 0: warp_butterfly(g, t); break;
    case 1: warp_scan(g, t); break;
    case 2: warp_vote(g); break;
    default: {
        char x[24];
        gen_fresh(g, x, sizeof x, "x");
        indent(g);
        gen_put(g, "let %s: %s = shfl(", x, ty_name(t));
        expr_nonconst(g, t, g->size->expr_depth);
        gen_put(g, ", ");
        lane_arg(g);
        gen_put(g, ")\n");
        declare_let(g, x, t, (Ex){false, false});
        break;
    }
    }
}

/* ---- tiles ------------------------------------------------------------------------------- */

typedef struct Tiles {
    Ty elem;
    int rows, cols;
    char names[4][24]; /* tile operands of [rows, cols] besides the input */
    int n_names;
    int input;         /* the tensor<elem>[rows, cols] parameter */
} Tiles;

static const int tile_dims[] = {2, 4, 8, 16};

/* A tile's element type: its input is a tensor, so not f16. */
static Ty tile_type(Gen *g)
{
    static const Ty ok[] = {TY_F32, TY_F32, TY_I32, TY_U32, TY_F64};
    return ok[rng_below(&g->rng, 5)];
}

/* A view's start in 0..slack: a literal, or a uniform value modulo. */
static void view_start(Gen *g, int slack)
{
    if (slack == 0 || rng_percent(&g->rng, 40)) {
        gen_put(g, "%d", rng_range(&g->rng, 0, slack));
        return;
    }
    gen_put(g, "(");
    expr(g, TY_U64, 1, (Want){true, true});
    gen_put(g, " %% %d)", slack + 1);
}

/* in[a +: rows, b +: cols] of a larger input, in bounds by its extents. */
static bool tile_view(Gen *g, const Tiles *ts)
{
    int slack_r = rng_range(&g->rng, 0, 4), slack_c = rng_range(&g->rng, 0, 4);
    int p = gen_param_tile_in(g, ts->elem, (uint64_t)(ts->rows + slack_r), (uint64_t)(ts->cols + slack_c));
    if (p < 0)
        return false;
    gen_put(g, "%s[", g->params[p].name);
    view_start(g, slack_r);
    gen_put(g, " +: %d, ", ts->rows);
    view_start(g, slack_c);
    gen_put(g, " +: %d]", ts->cols);
    return true;
}

static void tile_operand(Gen *g, const Tiles *ts)
{
    if (ts->n_names && rng_percent(&g->rng, 50))
        gen_put(g, "%s", ts->names[rng_below(&g->rng, (uint32_t)ts->n_names)]);
    else if (!rng_percent(&g->rng, 30) || !tile_view(g, ts))
        gen_put(g, "%s", g->params[ts->input].name);
}

/* a [rows, k] @ [k, cols] product of two inputs */
static void tile_product(Gen *g, const Tiles *ts)
{
    int k = tile_dims[rng_below(&g->rng, 4)];
    int a = gen_param_tile_in(g, ts->elem, (uint64_t)ts->rows, (uint64_t)k);
    int b = gen_param_tile_in(g, ts->elem, (uint64_t)k, (uint64_t)ts->cols);
    if (a < 0 || b < 0) {
        tile_operand(g, ts);
        return;
    }
    gen_put(g, "(%s @ %s)", g->params[a].name, g->params[b].name);
}

/* A tile expression of [rows, cols]: operands combined element by
 * element, with uniform scalars, and products. */
static void tile_expr(Gen *g, const Tiles *ts, int depth)
{
    if (depth <= 0 || rng_percent(&g->rng, 25)) {
        tile_operand(g, ts);
        return;
    }
    bool is_int = ty_is_int(ts->elem);
    switch (rng_below(&g->rng, 5)) {
    case 0: case 1: {
        static const char *const ops[] = {"+", "-", "*", "&", "|", "^"};
        gen_put(g, "(");
        tile_expr(g, ts, depth - 1);
        gen_put(g, " %s ", ops[rng_below(&g->rng, is_int ? 6 : 3)]);
        tile_expr(g, ts, depth - 1);
        gen_put(g, ")");
        break;
    }
    case 2:
        gen_put(g, "(");
        tile_expr(g, ts, depth - 1);
        gen_put(g, " %s ", rng_percent(&g->rng, 50) ? "*" : "+");
        expr(g, ts->elem, 1, (Want){false, true});
        gen_put(g, ")");
        break;
    case 3:
        if (is_int) {
            /* A bare literal beside a tile takes its element type (a
             * tile's elements are i32 or u32 here, so counts below 32);
             * on the left it is shifted by elements masked below 32. */
            const char *op = rng_percent(&g->rng, 50) ? "<<" : ">>";
            bool suffix = rng_percent(&g->rng, 50);
            if (rng_percent(&g->rng, 30)) {
                gen_put(g, "(%u%s %s (", rng_below(&g->rng, 1000), suffix ? ty_name(ts->elem) : "", op);
                tile_expr(g, ts, depth - 1);
                gen_put(g, " & 31))");
            } else {
                gen_put(g, "(");
                tile_expr(g, ts, depth - 1);
                gen_put(g, " %s %u%s)", op, rng_below(&g->rng, 32), suffix ? ty_name(ts->elem) : "");
            }
        } else {
            gen_put(g, "(");
            tile_expr(g, ts, depth - 1);
            gen_put(g, " / ");
            tile_expr(g, ts, depth - 1);
            gen_put(g, ")");
        }
        break;
    default:
        tile_product(g, ts);
        break;
    }
}

/* let r: T = sum|min|max(tile expression): the same in every thread. */
static void tile_reduce(Gen *g, const Tiles *ts)
{
    static const char *const f[] = {"sum", "min", "max"};
    char r[24];
    gen_fresh(g, r, sizeof r, "red");
    indent(g);
    gen_put(g, "let %s: %s = %s(", r, ty_name(ts->elem), f[rng_below(&g->rng, 3)]);
    tile_expr(g, ts, 2);
    gen_put(g, ")\n");
    declare_let(g, r, ts->elem, (Ex){false, true});
}

/* The CTA's own rows of a [rows * ctas, cols] output, as a view. */
static void tile_store(Gen *g, const Tiles *ts)
{
    int p = gen_param_tile_out(g, ts->elem, (uint64_t)ts->rows, (uint64_t)ts->cols);
    if (p < 0)
        return;
    const Param *out = &g->params[p];
    const char *rows = g->params[out->extent_param[0]].name;
    indent(g);
    gen_put(g, "if (ctx.cta + 1) * %d <= %s {\n", ts->rows, rows);
    indent(g);
    gen_put(g, "  %s[ctx.cta * %d +: %d, 0 +: %d] = ", out->name, ts->rows, ts->rows, ts->cols);
    tile_expr(g, ts, 2);
    gen_put(g, "\n");
    indent(g);
    gen_put(g, "}\n");
}

/* Each thread reads an element of a shared tile; the barrier after keeps
 * the next writer of the array waiting for every reader. */
static void tile_element(Gen *g, const char *shared, const Tiles *ts)
{
    char e[24];
    gen_fresh(g, e, sizeof e, "te");
    indent(g);
    gen_put(g, "let %s: %s = %s[ctx.tid %% %d, (ctx.tid / %d) %% %d]\n", e, ty_name(ts->elem), shared, ts->rows,
            ts->rows, ts->cols);
    declare_let(g, e, ts->elem, (Ex){false, false});
    indent(g);
    gen_put(g, "sync()\n");
}

/* @tensorcore c = a @ b: extents of 16s whose fragments the warps share
 * evenly (warps a*b of them, for up to 8 warps). */
static void tile_tensorcore(Gen *g)
{
    int warps = g->threads / 32;
    static const int frag[9][2] = {{0, 0}, {1, 1}, {1, 2}, {0, 0}, {2, 2}, {0, 0}, {0, 0}, {0, 0}, {2, 4}};
    if (warps > 8 || !frag[warps][0])
        return;
    Ty t = TY_F32; /* of tensors: not f16 */
    int m = 16 * frag[warps][0], n = 16 * frag[warps][1];
    if (!shared_fits(g, 2 * m * n * ty_bytes(t)))
        return;
    int a = gen_param_tile_in(g, t, (uint64_t)m, 16);
    int b = gen_param_tile_in(g, t, 16, (uint64_t)n);
    if (a < 0 || b < 0)
        return;
    char c[24], r[24];
    gen_fresh(g, c, sizeof c, "tc");
    gen_fresh(g, r, sizeof r, "red");
    indent(g);
    gen_put(g, "shared %s: %s[%d, %d]\n", c, ty_name(t), m, n);
    indent(g);
    gen_put(g, "@tensorcore %s = %s @ %s\n", c, g->params[a].name, g->params[b].name);
    indent(g);
    gen_put(g, "let %s: %s = sum(%s)\n", r, ty_name(t), c);
    declare_let(g, r, t, (Ex){false, true});
}

/* let q: tile<f32>[16, 16] = int8_qgemm_t(a, b, scale): a CTA of 256. */
static void tile_qgemm(Gen *g)
{
    if (!shared_fits(g, 4096))
        return;
    int a = gen_param_tile_in(g, TY_I8, 16, 32);
    int b = gen_param_tile_in(g, TY_I8, 32, 16);
    if (a < 0 || b < 0)
        return;
    char q[24], r[24];
    gen_fresh(g, q, sizeof q, "q");
    gen_fresh(g, r, sizeof r, "red");
    indent(g);
    gen_put(g, "let %s: tile<f32>[16, 16] = int8_qgemm_t(%s, %s, 0.5)\n", q, g->params[a].name, g->params[b].name);
    indent(g);
    gen_put(g, "let %s: f32 = %s(%s)\n", r, rng_percent(&g->rng, 50) ? "sum" : "max", q);
    declare_let(g, r, TY_F32, (Ex){false, true});
}

/* Any small shape, or one whose elements divide among the threads (as
 * @registers asks): rows a power of two that divides threads, or twice
 * threads, and at most 64 columns. */
static void tile_shape(Gen *g, Tiles *ts)
{
    ts->rows = tile_dims[rng_below(&g->rng, 4)];
    ts->cols = tile_dims[rng_below(&g->rng, 4)];
    if (g->threads > 256 || rng_percent(&g->rng, 50))
        return;
    int elements = g->threads * (rng_percent(&g->rng, 50) ? 1 : 2);
    for (int tries = 0; tries < 4; tries++) {
        int rows = tile_dims[rng_below(&g->rng, 4)];
        if (elements % rows == 0 && elements / rows <= 64) {
            ts->rows = rows;
            ts->cols = elements / rows;
            return;
        }
    }
}

/* shared s = input expression; a tile variable (in registers when its
 * elements divide among the threads); reductions; the CTA's rows out;
 * elements read back one per thread. */
void cta_tiles(Gen *g)
{
    if (g->threads == 256 && rng_percent(&g->rng, 15)) {
        tile_qgemm(g);
        return;
    }
    if (rng_percent(&g->rng, 15)) {
        tile_tensorcore(g);
        return;
    }
    Tiles ts = {.elem = tile_type(g)};
    tile_shape(g, &ts);
    if (!shared_fits(g, 4 * ts.rows * ts.cols * ty_bytes(ts.elem)))
        return;
    ts.input = gen_param_tile_in(g, ts.elem, (uint64_t)ts.rows, (uint64_t)ts.cols);
    if (ts.input < 0)
        return;
    char s[24], v[24];
    gen_fresh(g, s, sizeof s, "ts");
    indent(g);
    gen_put(g, "shared %s: %s[%d, %d]\n", s, ty_name(ts.elem), ts.rows, ts.cols);
    indent(g);
    gen_put(g, "%s = ", s);
    tile_expr(g, &ts, 2);
    gen_put(g, "\n");
    snprintf(ts.names[ts.n_names++], sizeof ts.names[0], "%s", s);
    if (rng_percent(&g->rng, 60)) {
        gen_fresh(g, v, sizeof v, "tv");
        bool registers = (ts.rows * ts.cols) % g->threads == 0 && rng_percent(&g->rng, 60);
        indent(g);
        gen_put(g, "%slet %s: tile<%s>[%d, %d] = ", registers ? "@registers " : "", v, ty_name(ts.elem),
                ts.rows, ts.cols);
        tile_expr(g, &ts, 2);
        gen_put(g, "\n");
        snprintf(ts.names[ts.n_names++], sizeof ts.names[0], "%s", v);
        /* read at once, by its sum, so that it is never unused */
        indent(g);
        gen_put(g, "let %s_sum: %s = sum(%s)\n", v, ty_name(ts.elem), v);
        char sum[32];
        snprintf(sum, sizeof sum, "%s_sum", v);
        declare_let(g, sum, ts.elem, (Ex){false, true});
    }
    int reductions = rng_range(&g->rng, 0, 2);
    for (int i = 0; i < reductions; i++)
        tile_reduce(g, &ts);
    if (rng_percent(&g->rng, 40))
        tile_store(g, &ts);
    if (rng_percent(&g->rng, 50))
        tile_element(g, s, &ts);
}
