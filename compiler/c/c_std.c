/*
 * c_std.c: std/gpu in C: its functions as the runtime's (silkrt.h), its
 * methods as the runtime's or c_prelude.h's, print and println, and the
 * launch block.
 *
 *   launch("k", g, w, a, b)   silkrt_launch("k", g, w, 2, (const uint64_t[]){a, b})
 *   b.download_f32(i)         silk_download_f32(b, i, &silk_at_saxpy_30_9)
 *   d.is_ok()                 silk_dispatch_is_ok(d)
 *   println("n:", n)          silkrt_print((const SilkrtValue[]){silk_value_str(SILK_STR("n:")),
 *                                 silk_value_uint(n)}, 2, true)
 *   gpu (grid=n, workspace=256) { saxpy(n, x.address); }
 *       silkrt_dispatch(&silk_at_saxpy_27_11, NULL, "saxpy", n, 256, 2,
 *                       (const uint64_t[]){n, x.address})
 *
 * What may stop the program (a Buffer index past its end, a buffer
 * released twice) passes the source place of the call, which the runtime
 * prints.  A launch block passes its place and the attr(...) metadata of
 * its statement, which SILK_VERBOSE prints and the C shows as a comment.
 */
#include "c_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- the operands of a call ------------------------------------------------------------- */

/* A runtime call: FUNCTION(receiver, arguments from `first`, extra),
 * where `varargs` makes the arguments from it on one u64 array. */
typedef struct StdCall {
    const char *function;
    const Node *receiver;   /* a method's self, or NULL */
    const Node *call;       /* its arguments */
    uint32_t first;         /* the first argument written */
    int varargs;            /* -1, or the index of the first variadic argument */
    const char *name;       /* a literal kernel name written instead of argument 0 */
    const char *site;       /* a place passed last (&site), or NULL */
} StdCall;

static void u64_array(CEmit *e, const Node *const *args, uint32_t n)
{
    if (n == 0) {
        fputs("0, NULL", e->out);
        return;
    }
    fprintf(e->out, "%u, (const uint64_t[]){", n);
    for (uint32_t i = 0; i < n; i++) {
        fputs(i ? ", " : "", e->out);
        c_expr(e, args[i], C_ANY);
    }
    fputs("}", e->out);
}

static void write_std_call(CEmit *e, const void *what, int context)
{
    const StdCall *s = what;
    const NodeList *args = &s->call->list;
    (void)context; /* a call is a primary expression */
    fprintf(e->out, "%s(", s->function);
    bool comma = false;
    if (s->receiver) {
        c_expr(e, s->receiver, C_ANY);
        comma = true;
    }
    uint32_t end = s->varargs >= 0 ? (uint32_t)s->varargs : args->count;
    for (uint32_t i = s->first; i < end; i++) {
        fputs(comma ? ", " : "", e->out);
        comma = true;
        if (i == 0 && s->name)
            fputs(s->name, e->out);
        else
            c_expr(e, args->items[i], C_ANY);
    }
    if (s->varargs >= 0) {
        fputs(comma ? ", " : "", e->out);
        u64_array(e, (const Node *const *)args->items + end, args->count - end);
        comma = true;
    }
    if (s->site)
        fprintf(e->out, "%s&%s", comma ? ", " : "", s->site);
    fputs(")", e->out);
}

/* Writes `s` with its receiver and arguments evaluated in order. */
static void std_call(CEmit *e, const StdCall *s)
{
    const NodeList *args = &s->call->list;
    const Node **operands = ARENA_ARRAY(e->arena, const Node *, args->count + 2);
    uint32_t n = 0;
    if (s->receiver)
        operands[n++] = s->receiver;
    for (uint32_t i = 0; i < args->count; i++)
        operands[n++] = args->items[i];
    c_sequenced(e, operands, n, write_std_call, s, C_PRIMARY);
}

/* ---- functions -------------------------------------------------------------------------- */

/* The name of a launch as a C string literal, when the source gives it as
 * a str literal the runtime can take as it is (no NUL in it). */
static const char *literal_name(CEmit *e, const Node *arg)
{
    if (arg->kind != ND_STRING || memchr(arg->str, '\0', arg->str_len))
        return NULL;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    escape_fputs_c_string(arg->str, arg->str_len, f);
    fclose(f);
    const char *copy = arena_strndup(e->arena, text, len);
    free(text);
    return copy;
}

void c_std_call(CEmit *e, const Node *call, const Node *decl)
{
    const char *fn = decl->name;
    StdCall s = {.call = call, .varargs = -1};
    if (strcmp(fn, "launch") == 0 || strcmp(fn, "launch_and_synchronize") == 0) {
        bool sync = fn[6] == '_';
        s.name = call->list.count > 0 ? literal_name(e, call->list.items[0]) : NULL;
        s.function = s.name ? (sync ? "silkrt_launch_and_synchronize" : "silkrt_launch")
                            : (sync ? "silk_launch_and_synchronize_named" : "silk_launch_named");
        s.varargs = 3;
    } else if (strcmp(fn, "synchronize") == 0) {
        s.function = "silkrt_synchronize";
    } else if (strcmp(fn, "last_error") == 0) {
        s.function = "silkrt_last_error";
    } else if (strcmp(fn, "backend") == 0) {
        s.function = "silkrt_backend";
    } else if (strcmp(fn, "wait_tasks") == 0) {
        s.function = "silkrt_wait_tasks";
    } else {
        c_error(e, call->a->span, "the runtime has no implementation of std/gpu's '%s'", fn);
        return;
    }
    std_call(e, &s);
}

/* ---- methods ------------------------------------------------------------------------------ */

static const char *const METHODS[][2] = {
    {"DispatchResult.is_ok", "silk_dispatch_is_ok"},
    {"DispatchResult.launch_failed", "silk_dispatch_launch_failed"},
    {"DispatchResult.synchronize_failed", "silk_dispatch_synchronize_failed"},
    {"Buffer.alloc", "silkrt_buffer_alloc"},
    {"Buffer.release", "silkrt_buffer_release"},
    {"Buffer.upload_u64", "silk_upload_u64"},
    {"Buffer.download_u64", "silk_download_u64"},
    {"Buffer.upload_f32", "silk_upload_f32"},
    {"Buffer.download_f32", "silk_download_f32"},
    {"Buffer.upload_i32", "silk_upload_i32"},
    {"Buffer.download_i32", "silk_download_i32"},
};

void c_std_method(CEmit *e, const Node *call, const Symbol *method)
{
    const Node *field = call->a;
    StdCall s = {.call = call, .varargs = -1};
    for (size_t i = 0; i < sizeof METHODS / sizeof *METHODS; i++)
        if (strcmp(method->name, METHODS[i][0]) == 0)
            s.function = METHODS[i][1];
    if (!s.function) {
        c_error(e, field->name_span, "the runtime has no implementation of std/gpu's %s",
                method->name);
        return;
    }
    bool self = method->func && method->func->n_params > 0 &&
                strcmp(method->func->decl->list.items[0]->name, "self") == 0;
    s.receiver = self ? field->a : NULL;
    /* What can stop the program says where: Buffer's methods but alloc. */
    if (strncmp(method->name, "Buffer.", 7) == 0 && self)
        s.site = c_site(e, field->name_span);
    std_call(e, &s);
}

/* ---- print and println ---------------------------------------------------------------------- */

static const char *value_kind(CEmit *e, const Node *arg)
{
    const Type *t = arg->type;
    if (t->kind == TY_BOOL)
        return "bool";
    if (type_is_integer(t))
        return type_is_signed(t) ? "int" : "uint";
    switch (t->kind) {
    case TY_F16: return "f16";
    case TY_F32: return "f32";
    case TY_F64: return "f64";
    case TY_STR: return "str";
    case TY_STRUCT:
        if (strcmp(t->name, "DispatchResult") == 0)
            return "dispatch";
        if (strcmp(t->name, "Buffer") == 0)
            return "buffer";
        break;
    default: break;
    }
    c_error(e, arg->span, "the runtime cannot print this value");
    return "int";
}

static void write_print(CEmit *e, const void *what, int context)
{
    const Node *call = what;
    bool newline = strcmp(call->a->name, "println") == 0;
    (void)context;
    if (call->list.count == 0) {
        fprintf(e->out, "silkrt_print(NULL, 0, %s)", newline ? "true" : "false");
        return;
    }
    fputs("silkrt_print((const SilkrtValue[]){", e->out);
    for (uint32_t i = 0; i < call->list.count; i++) {
        fprintf(e->out, "%ssilk_value_%s(", i ? ", " : "", value_kind(e, call->list.items[i]));
        c_expr(e, call->list.items[i], C_ANY);
        fputs(")", e->out);
    }
    fprintf(e->out, "}, %u, %s)", call->list.count, newline ? "true" : "false");
}

void c_print(CEmit *e, const Node *call)
{
    c_sequenced(e, (const Node *const *)call->list.items, call->list.count, write_print, call,
                C_PRIMARY);
}

/* ---- launch blocks ------------------------------------------------------------------------- */

typedef struct Launch {
    const Node *launch, *call, *grid, *workspace;
    const char *kernel;      /* the declaration's name: an alias is not a kernel */
    const char *site;
} Launch;

static void write_launch(CEmit *e, const void *what, int context)
{
    const Launch *l = what;
    (void)context;
    fprintf(e->out, "silkrt_dispatch(&%s, ", l->site);
    if (e->metadata)
        escape_fputs_c_string(e->metadata, strlen(e->metadata), e->out);
    else
        fputs("NULL", e->out);
    fprintf(e->out, ", \"%s\", ", l->kernel);
    c_expr(e, l->grid, C_ANY);
    fputs(", ", e->out);
    c_expr(e, l->workspace, C_ANY);
    fputs(", ", e->out);
    u64_array(e, (const Node *const *)l->call->list.items, l->call->list.count);
    fputs(")", e->out);
}

void c_launch(CEmit *e, const Node *launch)
{
    Launch l = {.launch = launch, .call = launch->list2.items[0]->a};
    const Node **operands = ARENA_ARRAY(e->arena, const Node *, launch->list.count + l.call->list.count + 1);
    uint32_t n = 0;
    for (uint32_t i = 0; i < launch->list.count; i++) { /* the options in the order written */
        const Node *o = launch->list.items[i];
        if (strcmp(o->name, "grid") == 0)
            l.grid = o->a;
        else
            l.workspace = o->a;
        operands[n++] = o->a;
    }
    for (uint32_t i = 0; i < l.call->list.count; i++)
        operands[n++] = l.call->list.items[i];
    l.kernel = l.call->a->symbol->func->decl->name;
    l.site = c_site(e, launch->name_span);
    c_sequenced(e, operands, n, write_launch, &l, C_PRIMARY);
}

/* ---- statement metadata ----------------------------------------------------------------------- */

static void source_text(CEmit *e, Span s, FILE *out)
{
    const SourceFile *f = &e->c->sources.files[s.file];
    fwrite(f->text + s.start, 1, s.end - s.start, out);
}

const char *c_metadata(CEmit *e, const Node *s)
{
    if (!s->attrs)
        return NULL;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    bool any = false;
    for (uint32_t i = 0; i < s->attrs->count; i++) {
        const Node *attr = s->attrs->items[i];
        if (strcmp(attr->name, "attr") != 0)
            continue;
        for (uint32_t k = 0; k < attr->list.count; k++) {
            const Node *arg = attr->list.items[k];
            fputs(any ? ", " : "", f);
            any = true;
            if (arg->kind == ND_ATTR_ARG) {
                fprintf(f, "%s=", arg->name);
                source_text(e, arg->a->span, f);
            } else {
                source_text(e, arg->span, f);
            }
        }
    }
    fclose(f);
    const char *copy = any ? arena_strndup(e->arena, text, len) : NULL;
    free(text);
    return copy;
}
