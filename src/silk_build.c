/*
 * silk_build.c: the compiler pipeline (front end, lowering, passes, PTX) as one
 * call, for silk-occ.  See silk_build.h.
 */
#include "silk_build.h"

#include "compile.h"
#include "ir.h"
#include "lower.h"
#include "pass.h"
#include "ptx.h"
#include "read_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static bool collect_kernels(const IrModule *m, SilkBuild *out)
{
    out->kernels = calloc(m->n_funcs + 1, sizeof *out->kernels);
    if (!out->kernels)
        return false;
    for (uint32_t i = 0; i < m->n_funcs; i++)
        if (m->funcs[i]->kernel && !(out->kernels[out->n_kernels++] = strdup(m->funcs[i]->name)))
            return false;
    return true;
}

static bool emit(Compilation *c, const IrModule *m, const char *arch, SilkBuild *out)
{
    FILE *f = open_memstream(&out->ptx, &out->ptx_len);
    if (!f)
        return false;
    bool ok = ptx_emit_module(m, arch, f, &c->diag);
    if (fclose(f) != 0)
        ok = false;
    return ok && collect_kernels(m, out);
}

bool silk_build_ptx(const char *path, const char *text, size_t len, const char *arch,
                    FILE *diagnostics, SilkBuild *out)
{
    memset(out, 0, sizeof *out);
    Compilation c;
    compile_init(&c, diagnostics);
    bool ok = text ? compile_add_text(&c, path, text, len, PKG_ROOT) != NULL
                   : compile_load(&c, path, path, PKG_ROOT) != NULL;
    char reason[128];
    if (!ok)
        fprintf(diagnostics, "silk-occ: error: %s: %s\n", path,
                read_file_error(errno, READ_FILE_CODE_LIMIT_MIB, reason, sizeof reason));
    IrModule *m = ok && compile_check(&c) == 0 ? lower_module(&c, c.arena) : NULL;
    ok = m && ir_verify(m, &c.diag) == 0 && ir_optimize(m, &c.diag, PASS_VERIFY_EACH) &&
         emit(&c, m, arch, out);
    diag_finish(&c.diag);
    compile_free(&c);
    if (!ok)
        silk_build_free(out);
    return ok;
}

void silk_build_free(SilkBuild *b)
{
    for (int i = 0; i < b->n_kernels; i++)
        free(b->kernels[i]);
    free(b->kernels);
    free(b->ptx);
    memset(b, 0, sizeof *b);
}
