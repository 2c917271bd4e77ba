/*
 * silkgen.c: writes a random Silk program, a pure function of its seed,
 * for the differential test of silkc's optimiser (issue 13): each program
 * is run on the CPU backend at -O0 and with the passes, and the buffers
 * must agree bit for bit.
 *
 *   silkgen SEED [--size small|medium]
 *
 * In the manner of Csmith and YARPGen, the program is valid and free of
 * undefined behaviour by construction, so that any difference is the
 * compiler's:
 *
 * - one kernel, @launch(W) with W a multiple of 32, over a grid of G work
 *   items (a whole number of CTAs; the data's extent n usually leaves the
 *   last CTA partly idle); its first line, `// exec: ...`, tells the
 *   executor how to run it, binding every parameter in order;
 * - every memory access is in bounds: an input is read at this thread's
 *   row (gid clamped to n - 1), or at an index reduced modulo its extent
 *   or clamped to it; a tile is of constant extents;
 * - every output element has exactly one writer: row gid of an output by
 *   thread gid (under gid < n), element j of a map by the one thread that
 *   reaches j in a grid-stride loop, a CTA's rows of a tile output by that
 *   CTA; an accumulator takes one integer atomic only (add, min or max,
 *   never two of them), whose order of arrival changes nothing;
 * - what Silk leaves open is never written (silkgen_expr.c: division by
 *   zero, INT_MIN / -1, shifts by the width or more, floats converted to
 *   integers they do not fit), every loop ends (silkgen_stmt.c), and
 *   barriers and warp collectives run only where the whole CTA is
 *   together, and static shared memory stays well under the 48 KiB a CTA
 *   may have (silkgen_cta.c);
 * - every value computed reaches memory: each block folds its variables
 *   into a checksum per thread that the kernel writes out.
 *
 * Which features a program has (shared memory, warp collectives, tiles,
 * atomics, helper functions, grid-stride maps, f16, @persistent, a host
 * launch block) is drawn from the seed, as are the depth of expressions
 * and the number of statements (--size).
 */
#include "silkgen.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const Size sizes[] = {
    {.name = "small", .top_stmts = 8, .block_stmts = 3, .nest = 2, .expr_depth = 3, .max_inputs = 4,
     .max_helpers = 3, .max_threads = 256, .max_ctas = 4},
    {.name = "medium", .top_stmts = 16, .block_stmts = 5, .nest = 3, .expr_depth = 4, .max_inputs = 8,
     .max_helpers = 6, .max_threads = 1024, .max_ctas = 6},
};

/* Room kept for the outputs the kernel's end makes (chk, fchk, up to
 * three more) and the maps: a launch target has at most 32 parameters. */
enum { RESERVED_PARAMS = 7 };

/* ---- writing ------------------------------------------------------------------------ */

void gen_put(Gen *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    text_vprintf(g->out, fmt, ap);
    va_end(ap);
}

/* One line at the current indentation. */
void gen_line(Gen *g, const char *fmt, ...)
{
    gen_put(g, "%*s", 2 * g->indent, "");
    va_list ap;
    va_start(ap, fmt);
    text_vprintf(g->out, fmt, ap);
    va_end(ap);
    gen_put(g, "\n");
}

void gen_fresh(Gen *g, char *buf, size_t cap, const char *prefix)
{
    snprintf(buf, cap, "%s%u", prefix, g->counter++);
}

/* ---- parameters ------------------------------------------------------------------------ */

static bool room(const Gen *g, int k)
{
    return g->n_params + k + RESERVED_PARAMS <= MAX_PARAMS;
}

static int add_param(Gen *g, const char *prefix, ParamRole role, Ty elem)
{
    Param *p = &g->params[g->n_params];
    *p = (Param){.role = role, .elem = elem, .extent_param = {-1, -1}, .init = "random"};
    char name[24];
    gen_fresh(g, name, sizeof name, prefix);
    snprintf(p->name, sizeof p->name, "%s", name);
    return g->n_params++;
}

static int add_extent(Gen *g, const char *prefix, uint64_t value)
{
    int p = add_param(g, prefix, P_EXTENT, TY_U64);
    g->params[p].value = value;
    return p;
}

static int count_role(const Gen *g, ParamRole role)
{
    int n = 0;
    for (int i = 0; i < g->n_params; i++)
        n += g->params[i].role == role;
    return n;
}

/* One of the inputs of this element type, or a new one: [n] read at this
 * thread's row, [n, c], or a gather table [m] of its own extent. */
int gen_param_input(Gen *g, Ty elem)
{
    int found[MAX_PARAMS], n = 0;
    for (int i = 0; i < g->n_params; i++)
        if (g->params[i].role == P_INPUT && g->params[i].elem == elem)
            found[n++] = i;
    bool full = count_role(g, P_INPUT) >= g->size->max_inputs || !room(g, 2);
    if (n && (full || rng_percent(&g->rng, 70)))
        return found[rng_below(&g->rng, (uint32_t)n)];
    if (full)
        return -1;
    unsigned shape = rng_below(&g->rng, 100);
    if (shape < 35) {
        int m = add_extent(g, "m", (uint64_t)rng_range(&g->rng, 1, 300));
        int p = add_param(g, "gather", P_INPUT, elem);
        g->params[p].rank = 1;
        g->params[p].extent_param[0] = m;
        return p;
    }
    int p = add_param(g, "in", P_INPUT, elem);
    g->params[p].rank = 1;
    g->params[p].extent_param[0] = g->p_n;
    if (shape < 50) {
        g->params[p].rank = 2;
        g->params[p].extent[1] = (uint64_t)rng_range(&g->rng, 2, 4);
    }
    return p;
}

/* An accumulator for integer atomics: tensor<T>[K], and the one atomic
 * it takes.  Adds commute, and so do mins, but an add and a min do not:
 * min(a + x, y) is not min(a, y) + x, so mixing them would make the
 * result depend on the order of arrival. */
int gen_param_acc(Gen *g)
{
    int found[MAX_PARAMS], n = 0;
    for (int i = 0; i < g->n_params; i++)
        if (g->params[i].role == P_ACC)
            found[n++] = i;
    if (n && (n >= 2 || !room(g, 1) || rng_percent(&g->rng, 70)))
        return found[rng_below(&g->rng, (uint32_t)n)];
    if (!room(g, 1))
        return -1;
    static const Ty types[] = {TY_U32, TY_I32, TY_U64, TY_I64};
    static const int extents[] = {1, 2, 4, 7};
    int p = add_param(g, "acc", P_ACC, types[rng_below(&g->rng, 4)]);
    g->params[p].rank = 1;
    g->params[p].extent[0] = (uint64_t)extents[rng_below(&g->rng, 4)];
    g->params[p].init = rng_percent(&g->rng, 40) ? "0" : "random";
    static const char *const atomics[] = {"atomic_add", "atomic_min", "atomic_max"};
    g->params[p].atomic = atomics[rng_below(&g->rng, 3)];
    return p;
}

int gen_param_tile_in(Gen *g, Ty elem, uint64_t rows, uint64_t cols)
{
    for (int i = 0; i < g->n_params; i++) {
        const Param *p = &g->params[i];
        if (p->role == P_TILE_IN && p->elem == elem && p->extent[0] == rows && p->extent[1] == cols)
            return i;
    }
    if (!room(g, 1))
        return -1;
    int p = add_param(g, "tin", P_TILE_IN, elem);
    g->params[p].rank = 2;
    g->params[p].extent[0] = rows;
    g->params[p].extent[1] = cols;
    return p;
}

/* tensor<T>[rows, cols] with rows = CTAs * tile rows: CTA c owns rows
 * c * tile rows onwards. */
int gen_param_tile_out(Gen *g, Ty elem, uint64_t rows, uint64_t cols)
{
    if (!room(g, 2))
        return -1;
    int r = add_extent(g, "trows", (uint64_t)g->ctas * rows);
    int p = add_param(g, "tout", P_TILE_OUT, elem);
    g->params[p].rank = 2;
    g->params[p].extent_param[0] = r;
    g->params[p].extent[1] = cols;
    g->params[p].init = "0";
    return p;
}

int gen_param_scalar(Gen *g)
{
    int p = add_param(g, "s", P_SCALAR, TY_U64);
    g->params[p].value = rng_percent(&g->rng, 50) ? rng_below(&g->rng, 1000) : rng_next(&g->rng);
    return p;
}

int gen_param_output(Gen *g, Ty elem, int cols, ParamRole role)
{
    int p = add_param(g, role == P_MAP ? "map" : "out", role, elem);
    g->params[p].rank = cols ? 2 : 1;
    g->params[p].extent_param[0] = g->p_n;
    g->params[p].extent[1] = (uint64_t)cols;
    g->params[p].init = rng_percent(&g->rng, 50) ? "0" : "random";
    return p;
}

static uint64_t param_count(const Gen *g, const Param *p)
{
    uint64_t count = 1;
    for (int d = 0; d < p->rank; d++)
        count *= p->extent_param[d] >= 0 ? g->params[p->extent_param[d]].value : p->extent[d];
    return count;
}

static void put_extent(Text *t, const Gen *g, const Param *p, int d)
{
    if (p->extent_param[d] >= 0)
        text_printf(t, "%s", g->params[p->extent_param[d]].name);
    else
        text_printf(t, "%" PRIu64, p->extent[d]);
}

/* ---- the plan ------------------------------------------------------------------------------ */

static int pick_threads(Gen *g)
{
    static const int common[] = {32, 64, 128, 256, 512, 1024};
    int t;
    do {
        t = rng_percent(&g->rng, 75) ? common[rng_below(&g->rng, 6)] : 32 * rng_range(&g->rng, 1, 32);
    } while (t > g->size->max_threads);
    return t;
}

/* The data's extent n leaves the last CTA partly idle unless n happens to
 * be a multiple of W; the grid is usually the CTAs n needs, sometimes one
 * more (an idle CTA) or one fewer (rows no thread owns; the maps' grid
 * stride still covers them). */
static void plan(Gen *g)
{
    g->threads = pick_threads(g);
    int needed = rng_range(&g->rng, 1, g->size->max_ctas);
    g->n = (uint64_t)(needed - 1) * (uint64_t)g->threads + (uint64_t)rng_range(&g->rng, 1, g->threads);
    unsigned k = rng_below(&g->rng, 100);
    g->ctas = k < 70 ? needed : k < 85 ? needed + 1 : needed > 1 ? needed - 1 : 1;
    g->persistent = rng_percent(&g->rng, 10);
    /* @launch's hints, and @smem: what ptxas and the occupancy engine
     * see, not what the kernel computes */
    g->min_blocks = g->threads <= 256 && rng_percent(&g->rng, 15) ? rng_range(&g->rng, 1, 4) : 0;
    if (g->min_blocks && rng_percent(&g->rng, 50))
        g->max_regs = 65536 / g->threads < 64 ? 32 : 64 << rng_below(&g->rng, 2);
    g->smem = rng_percent(&g->rng, 8) ? 16 * rng_range(&g->rng, 1, 256) : 0;
    g->use_shared = rng_percent(&g->rng, 60);
    g->use_warp = rng_percent(&g->rng, 60);
    g->use_tiles = rng_percent(&g->rng, 40);
    g->use_atomics = rng_percent(&g->rng, 50);
    g->use_helpers = rng_percent(&g->rng, 60);
    g->use_map = rng_percent(&g->rng, 40);
    g->use_f16 = rng_percent(&g->rng, 40);
    snprintf(g->kernel, sizeof g->kernel, "k%u", (unsigned)rng_below(&g->rng, 1000));
}

/* ---- the kernel ----------------------------------------------------------------------------- */

static Var *declare(Gen *g, const char *name, Ty t, bool is_mutable, bool uniform)
{
    return var_declare(g, name, t, is_mutable, (Ex){false, uniform});
}

/* var jN = gid; while jN < n { let eN = jN; jN += ctx.size; ...; map[eN] = e }:
 * element j is written by the one thread with gid = j mod size. */
static void map_loop(Gen *g)
{
    char j[24], e[24];
    gen_fresh(g, j, sizeof j, "j");
    gen_fresh(g, e, sizeof e, "e");
    int p = gen_param_output(g, ty_random_buffer(g), 0, P_MAP);
    gen_line(g, "var %s: u64 = ctx.gid", j);
    gen_line(g, "while %s < n {", j);
    bool uniform_cf = g->uniform_cf, collective_ok = g->collective_ok;
    const char *gid_index = g->gid_index;
    g->uniform_cf = g->collective_ok = false;
    g->loop_uniform[g->loops++] = false;
    g->indent++;
    scope_open(g);
    Var *jv = declare(g, j, TY_U64, true, false);
    jv->is_counter = true;
    gen_line(g, "let %s = %s", e, j);
    gen_line(g, "%s += ctx.size", j);
    declare(g, e, TY_U64, false, false)->reads++;
    g->gid_index = e;
    stmt_block(g, rng_range(&g->rng, 1, g->size->block_stmts));
    gen_put(g, "%*s%s[%s] = ", 2 * g->indent, "", g->params[p].name, e);
    expr_any(g, g->params[p].elem);
    gen_put(g, "\n");
    scope_close(g);
    g->indent--;
    gen_line(g, "}");
    g->loops--;
    g->gid_index = gid_index;
    g->uniform_cf = uniform_cf;
    g->collective_ok = collective_ok;
}

/* Row gid of each output, by thread gid alone: written, or combined with
 * what the buffer held. */
static void write_output(Gen *g, int p, const char *row)
{
    Param *out = &g->params[p];
    int cols = out->rank == 2 ? (int)out->extent[1] : 1;
    for (int c = 0; c < cols; c++) {
        gen_put(g, "%*s%s[%s", 2 * g->indent, "", out->name, row);
        if (out->rank == 2)
            gen_put(g, ", %d", c);
        const char *op = "=";
        if (rng_percent(&g->rng, 25))
            op = ty_is_float(out->elem) ? "+=" : rng_percent(&g->rng, 50) ? "^=" : "+=";
        gen_put(g, "] %s ", op);
        expr_any(g, out->elem);
        gen_put(g, "\n");
    }
}

/* The end: the outputs and the checksums, in the threads with a row. */
static void final_writes(Gen *g)
{
    g->uniform_cf = g->collective_ok = false;
    bool early_return = rng_percent(&g->rng, 30);
    if (early_return) {
        gen_line(g, "if !live {");
        gen_line(g, "  return");
        gen_line(g, "}");
    } else {
        gen_line(g, "if live {");
        g->indent++;
    }
    int outputs = rng_range(&g->rng, 1, 3);
    int chk = gen_param_output(g, TY_U64, 0, P_OUTPUT);
    int fchk = gen_param_output(g, TY_F64, 0, P_OUTPUT);
    snprintf(g->params[chk].name, sizeof g->params[chk].name, "chk");
    snprintf(g->params[fchk].name, sizeof g->params[fchk].name, "fchk");
    for (int i = 0; i < outputs; i++) {
        int cols = rng_percent(&g->rng, 20) ? rng_range(&g->rng, 2, 3) : 0;
        write_output(g, gen_param_output(g, ty_random_buffer(g), cols, P_OUTPUT), "gid");
    }
    gen_line(g, "%s[gid] = cs ^ i", g->params[chk].name);
    gen_line(g, "%s[gid] = fs", g->params[fchk].name);
    if (!early_return) {
        g->indent--;
        gen_line(g, "}");
    }
}

/* The body's top level: n random statements, among which, at random
 * places, one of each CTA-wide feature the seed turned on, so that a
 * feature drawn is a feature written. */
static void top_level(Gen *g, int n)
{
    void (*features[4])(Gen *);
    int n_features = 0;
    if (g->use_shared)
        features[n_features++] = cta_shared_exchange;
    if (g->use_shared && g->use_atomics)
        features[n_features++] = cta_shared_atomics;
    if (g->use_warp)
        features[n_features++] = cta_warp;
    if (g->use_tiles)
        features[n_features++] = cta_tiles;
    int left = n + n_features;
    for (int k = 0; k < left; k++) {
        if ((int)rng_below(&g->rng, (uint32_t)(left - k)) < n_features) {
            features[0](g);
            features[0] = features[--n_features];
        } else {
            stmt_one(g);
        }
    }
}

static void kernel_body(Gen *g, Text *body)
{
    g->out = body;
    g->indent = 1;
    g->uniform_cf = g->collective_ok = true;
    declare(g, "n", TY_U64, false, true);
    int scalars = rng_range(&g->rng, 1, 3);
    for (int i = 0; i < scalars; i++)
        declare(g, g->params[gen_param_scalar(g)].name, TY_U64, false, true);
    gen_line(g, "let gid = ctx.gid");
    gen_line(g, "let live = gid < n");
    gen_line(g, "let i = min(gid, n - 1)");
    gen_line(g, "var cs: u64 = %u", (unsigned)rng_below(&g->rng, 100));
    gen_line(g, "var fs: f64 = 0.0");
    declare(g, "gid", TY_U64, false, false)->reads++;
    declare(g, "live", TY_BOOL, false, false)->reads++;
    declare(g, "i", TY_U64, false, false)->reads++;
    declare(g, "cs", TY_U64, true, false)->is_counter = true;
    declare(g, "fs", TY_F64, true, false)->is_counter = true;
    g->gid_index = "i";
    scope_open(g);
    top_level(g, rng_range(&g->rng, g->size->top_stmts / 2, g->size->top_stmts));
    if (g->use_map)
        map_loop(g);
    scope_close(g);
    final_writes(g);
}

/* ---- the program ------------------------------------------------------------------------------ */

static void exec_line(const Gen *g, Text *t)
{
    text_printf(t, "// exec: --kernel %s --grid %" PRIu64 " --workspace %d", g->kernel,
                (uint64_t)g->ctas * (uint64_t)g->threads, g->threads);
    for (int i = 0; i < g->n_params; i++) {
        const Param *p = &g->params[i];
        if (p->rank == 0)
            text_printf(t, " --arg %" PRIu64, p->value);
        else
            text_printf(t, " --buf %s:%" PRIu64 ":%s", ty_name(p->elem), param_count(g, p), p->init);
    }
    text_printf(t, "\n");
}

static void signature(const Gen *g, Text *t)
{
    text_printf(t, "@launch(%d", g->threads);
    if (g->min_blocks)
        text_printf(t, ", %d", g->min_blocks); /* CTAs per SM to aim for: a hint */
    if (g->max_regs)
        text_printf(t, ", %d", g->max_regs);
    text_printf(t, ")\n");
    if (g->smem)
        text_printf(t, "@smem(%d)\n", g->smem);
    text_printf(t, "%skernel %s(", g->persistent ? "@persistent\n" : "", g->kernel);
    for (int i = 0; i < g->n_params; i++) {
        const Param *p = &g->params[i];
        text_printf(t, "%s%s: ", i ? ", " : "", p->name);
        if (p->rank == 0) {
            text_printf(t, "u64");
            continue;
        }
        text_printf(t, "tensor<%s>[", ty_name(p->elem));
        for (int d = 0; d < p->rank; d++) {
            text_printf(t, d ? ", " : "");
            put_extent(t, g, p, d);
        }
        text_printf(t, "]");
    }
    text_printf(t, ") {\n");
}

/* fn main: the exec line's launch as Silk host code, so that silkc checks
 * its geometry against the kernel (grid a multiple of the workspace, the
 * workspace the @launch threads, one u64 per parameter). */
static void host_main(const Gen *g, Text *t)
{
    static const int bytes[TY_COUNT] = {[TY_I8] = 1, [TY_U8] = 1, [TY_I16] = 2, [TY_U16] = 2, [TY_F16] = 2,
                                        [TY_I32] = 4, [TY_U32] = 4, [TY_F32] = 4,
                                        [TY_I64] = 8, [TY_U64] = 8, [TY_F64] = 8};
    text_printf(t, "\nimport { Buffer } from \"std/gpu\"\n\nfn main() -> i32 {\n");
    for (int i = 0; i < g->n_params; i++) {
        const Param *p = &g->params[i];
        if (p->rank)
            text_printf(t, "  let b%d = Buffer.alloc(%" PRIu64 ")\n", i, param_count(g, p) * (uint64_t)bytes[p->elem]);
    }
    text_printf(t, "  let r = gpu (grid=%" PRIu64 ", workspace=%d) {\n    %s(",
                (uint64_t)g->ctas * (uint64_t)g->threads, g->threads, g->kernel);
    for (int i = 0; i < g->n_params; i++) {
        const Param *p = &g->params[i];
        if (p->rank)
            text_printf(t, "%sb%d.address", i ? ", " : "", i);
        else
            text_printf(t, "%s%" PRIu64, i ? ", " : "", p->value);
    }
    text_printf(t, ");\n  }\n");
    for (int i = 0; i < g->n_params; i++)
        if (g->params[i].rank)
            text_printf(t, "  b%d.release()\n", i);
    text_printf(t, "  if !r.is_ok() {\n    return 1\n  }\n  return 0\n}\n");
}

static void program(Gen *g, uint64_t seed, Text *t)
{
    Text body = {0};
    plan(g);
    g->p_n = add_extent(g, "n", g->n);
    snprintf(g->params[g->p_n].name, sizeof g->params[0].name, "n");
    kernel_body(g, &body);
    bool with_main = rng_percent(&g->rng, 70);

    exec_line(g, t);
    text_printf(t,
                "// silkgen %" PRIu64 " --size %s: a random Silk program for the differential\n"
                "// test of silkc's optimiser (tests/difftest/silkgen.c).  Every access is in\n"
                "// bounds and every output element has one writer, so what the kernel\n"
                "// leaves in its buffers depends on its inputs alone.\n",
                seed, g->size->name);
    if (g->persistent)
        text_printf(t, "// @persistent: the launcher adds __silk_logical_ctas after the parameters.\n");
    text_printf(t, "\n");
    signature(g, t);
    text_append(t, &body);
    text_printf(t, "}\n");
    text_append(t, &g->helper_text);
    Text safe = {0};
    expr_write_helpers(g, &safe);
    text_append(t, &safe);
    if (with_main)
        host_main(g, t);
    text_free(&safe);
    text_free(&body);
}

/* ---- the command --------------------------------------------------------------------------- */

static int usage(const char *why)
{
    if (why)
        fprintf(stderr, "silkgen: %s\n", why);
    fputs("usage: silkgen SEED [--size small|medium]\n"
          "  writes one random Silk program, a function of SEED (0 to 2^64-1), on\n"
          "  standard output; its first line `// exec: ...` says how to run it.\n",
          stderr);
    return 2;
}

static bool parse_seed(const char *s, uint64_t *seed)
{
    if (!*s || *s == '-' || *s == '+')
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return false;
    *seed = v;
    return true;
}

int main(int argc, char **argv)
{
    uint64_t seed = 0;
    bool have_seed = false;
    const Size *size = &sizes[0];
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--size") == 0 && i + 1 < argc) {
            const char *name = argv[++i];
            size = strcmp(name, "small") == 0 ? &sizes[0] : strcmp(name, "medium") == 0 ? &sizes[1] : NULL;
            if (!size)
                return usage("--size takes small or medium");
        } else if (strcmp(argv[i], "--help") == 0) {
            usage(NULL);
            return 0;
        } else if (!have_seed && parse_seed(argv[i], &seed)) {
            have_seed = true;
        } else {
            char why[160];
            snprintf(why, sizeof why, "unexpected argument '%.100s'", argv[i]);
            return usage(why);
        }
    }
    if (!have_seed)
        return usage("no seed");

    Gen g = {.rng = {seed}};
    g.size = size;
    Text t = {0};
    program(&g, seed, &t);
    fwrite(t.s, 1, t.len, stdout);
    text_free(&t);
    text_free(&g.helper_text);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        perror("silkgen: standard output");
        return 1;
    }
    return 0;
}
