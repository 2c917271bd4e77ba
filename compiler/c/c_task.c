/*
 * c_task.c: async and task calls.  Calling `task fn worker(n: u64)`
 * starts it and goes on: the call is silk_start_worker(n), which copies
 * the arguments into a closure (a str's bytes too: the caller's value may
 * not outlive the call) and hands it to the runtime (silkrt_spawn), whose
 * worker runs silk_run_worker: the function itself, then the closure
 * freed.  An async fn runs on the runtime's one async thread, in call
 * order (SILKRT_ASYNC); a task fn and the combined async task fn on a
 * worker of its task pool (SILKRT_TASK).
 */
#include "c_internal.h"

#include <string.h>

const char *c_task_start_name(CEmit *e, const Node *decl)
{
    const char *fn = c_func_name(e, decl);
    for (uint32_t i = 0; i < e->n_funcs; i++)
        if (e->funcs[i]->decl == decl)
            e->started[i] = true;
    return c_format(e, "silk_start_%s", fn + strlen("silk_fn_"));
}

static const char *kind_name(const Node *decl)
{
    return (decl->flags & NF_TASK) ? "SILKRT_TASK" : "SILKRT_ASYNC";
}

/* "task fn worker", for the closure's comment and out-of-memory message. */
static const char *what(CEmit *e, const Node *decl)
{
    const char *kind = sema_host_kind(decl);
    return c_format(e, "%s %s", kind + (kind[1] == 'n' ? 3 : 2), decl->name);
}

void c_task_helpers(CEmit *e, const FuncInfo *f, FILE *out)
{
    const Node *d = f->decl;
    const char *suffix = c_func_name(e, d) + strlen("silk_fn_"), *task = what(e, d);
    uint32_t n = d->list.count;
    fprintf(out, "/* %s: a call copies its arguments and starts it (%s) */\n", task, kind_name(d));
    if (n > 0) {
        fprintf(out, "struct silk_call_%s {\n", suffix);
        for (uint32_t i = 0; i < n; i++)
            fprintf(out, "    %s %s;\n", c_type(e, f->params[i], d->list.items[i]->span),
                    c_safe_name(e, d->list.items[i]->name));
        fputs("};\n\n", out);
    }
    fprintf(out, "static inline void silk_run_%s(void *closure)\n{\n", suffix);
    if (n == 0) {
        fprintf(out, "    (void)closure;\n    %s();\n}\n\n", c_func_name(e, d));
    } else {
        fprintf(out, "    struct silk_call_%s *silk_call = closure;\n    %s(", suffix, c_func_name(e, d));
        for (uint32_t i = 0; i < n; i++)
            fprintf(out, "%ssilk_call->%s", i ? ", " : "", c_safe_name(e, d->list.items[i]->name));
        fputs(");\n", out);
        for (uint32_t i = 0; i < n; i++)
            if (f->params[i]->kind == TY_STR)
                fprintf(out, "    silk_str_free(silk_call->%s);\n", c_safe_name(e, d->list.items[i]->name));
        fputs("    free(silk_call);\n}\n\n", out);
    }
    fputs("static inline ", out);
    const char *start = c_task_start_name(e, d);
    fprintf(out, "void %s(", start);
    if (n == 0)
        fputs("void", out);
    for (uint32_t i = 0; i < n; i++)
        fprintf(out, "%s%s %s", i ? ", " : "", c_type(e, f->params[i], d->list.items[i]->span),
                c_safe_name(e, d->list.items[i]->name));
    fputs(")\n{\n", out);
    if (n == 0) {
        fprintf(out, "    silkrt_spawn(%s, silk_run_%s, NULL);\n}\n\n", kind_name(d), suffix);
        return;
    }
    fprintf(out, "    struct silk_call_%s *silk_call = silk_allocate(sizeof *silk_call, \"%s\");\n",
            suffix, task);
    for (uint32_t i = 0; i < n; i++) {
        const char *p = c_safe_name(e, d->list.items[i]->name);
        if (f->params[i]->kind == TY_STR)
            fprintf(out, "    silk_call->%s = silk_str_copy(%s, \"%s\");\n", p, p, task);
        else
            fprintf(out, "    silk_call->%s = %s;\n", p, p);
    }
    fprintf(out, "    silkrt_spawn(%s, silk_run_%s, silk_call);\n}\n\n", kind_name(d), suffix);
}
