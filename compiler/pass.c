/*
 * pass.c: the optimisation pipeline, readable as the list of calls in
 * run_round (as QBE's main.c is), and the driver that runs one pass over
 * a module: a fresh scratch arena per function, then renumbering, then,
 * when asked, the verifier, so a broken invariant is blamed on the pass
 * that broke it.
 *
 * Rounds repeat while some pass changes the IR, up to MAX_ROUNDS: folding
 * exposes dead code, CSE exposes folds (x - x), LICM's hoisted code meets
 * its twins outside the loop; a few rounds reach the fixed point on every
 * kernel we have, and the cap bounds the time on any other.
 */
#include "pass_internal.h"

#include <string.h>

enum { MAX_ROUNDS = 4 };

static const struct {
    const char *name;
    IrPass *pass;
} passes[] = {
    {"fold", pass_fold},
    {"dce", pass_dce},
    {"cse", pass_cse},
    {"licm", pass_licm},
    {"ifconv", pass_ifconv},
    {"hoist", pass_hoist},
    {"address", pass_address},
    {"divide", pass_divide},
    {"narrow", pass_narrow},
};

IrPass *pass_find(const char *name)
{
    for (size_t i = 0; i < sizeof passes / sizeof *passes; i++)
        if (strcmp(passes[i].name, name) == 0)
            return passes[i].pass;
    return NULL;
}

bool pass_run(IrModule *m, const char *name, IrPass *pass, Diag *diag, bool verify, bool *changed)
{
    bool any = false;
    for (uint32_t i = 0; i < m->n_funcs; i++) {
        IrFunc *f = m->funcs[i];
        if (f->n_blocks == 0)
            continue;
        Arena *scratch = arena_new_like(diag ? diag->arena : NULL);
        any |= pass(m, f, scratch);
        arena_free(scratch);
        /* A pass that dropped or moved blocks left their numbers behind
         * their places; the verifier finds a block by its number, and by a
         * scan of the function when that fails (a kernel of many blocks:
         * quadratic), so they are numbered by place before it runs. */
        for (uint32_t b = 0; b < f->n_blocks; b++)
            f->blocks[b]->id = b;
    }
    if (verify && ir_verify(m, diag) > 0) {
        Span nowhere = {UINT32_MAX, 0, 0};
        diag_error(diag, nowhere, "the IR failed verification after pass %s: a compiler bug", name);
        return false;
    }
    for (uint32_t i = 0; i < m->n_funcs; i++) {
        Arena *scratch = arena_new_like(diag ? diag->arena : NULL);
        pass_renumber(m->funcs[i], scratch);
        arena_free(scratch);
    }
    if (changed)
        *changed |= any;
    return true;
}

/* One round of the pipeline; false when verification failed. */
static bool run_round(IrModule *m, Diag *diag, bool verify, bool *changed)
{
    return pass_run(m, "fold", pass_fold, diag, verify, changed) &&
           pass_run(m, "ifconv", pass_ifconv, diag, verify, changed) &&
           pass_run(m, "dce", pass_dce, diag, verify, changed) &&
           pass_run(m, "cse", pass_cse, diag, verify, changed) &&
           pass_run(m, "hoist", pass_hoist, diag, verify, changed) &&
           pass_run(m, "licm", pass_licm, diag, verify, changed);
}

bool ir_optimize(IrModule *m, Diag *diag, bool verify_each)
{
    bool changed = true;
    for (int round = 0; round < MAX_ROUNDS && changed; round++) {
        changed = false;
        if (!run_round(m, diag, verify_each, &changed))
            return false;
    }
    /* Once the arithmetic has settled, addresses are rewritten from their
     * neighbours; a last cse, fold and dce clean up after it and after the final
     * round's cse and licm. */
    return pass_run(m, "address", pass_address, diag, verify_each, NULL) &&
           pass_run(m, "divide", pass_divide, diag, verify_each, NULL) &&
           pass_run(m, "narrow", pass_narrow, diag, verify_each, NULL) &&
           pass_run(m, "cse", pass_cse, diag, verify_each, NULL) &&
           pass_run(m, "fold", pass_fold, diag, verify_each, NULL) &&
           pass_run(m, "dce", pass_dce, diag, verify_each, NULL);
}
