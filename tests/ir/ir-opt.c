/*
 * ir-opt.c: a test-only driver for the IR passes, so each pass is tested
 * from hand-written IR (tests/ir/run.sh).
 *
 *   ir-opt FILE.ir PASS...    PASS: a pass of compiler/pass.c, or O (the
 *                             whole pipeline, ir_optimize)
 *
 * Reads and verifies FILE.ir, runs the passes in the order given, the
 * verifier after each, and prints the resulting IR to stdout.  Exit
 * status: 0 done, 1 the input did not parse or verify or a pass broke the
 * IR (diagnostics on stderr), 2 usage.
 */
#include "ir.h"
#include "pass.h"

#include <stdio.h>
#include <string.h>

static int run(const char *path, char **names, int n_names, Arena *arena)
{
    SourceMap sources;
    Diag diag;
    source_map_init(&sources, arena);
    diag_init(&diag, &sources, arena, stderr);
    diag.colour = false;
    long file = source_add_file(&sources, path);
    if (file < 0) {
        fprintf(stderr, "ir-opt: %s: cannot read\n", path);
        return 2;
    }
    IrModule *m = ir_parse(&sources, (uint32_t)file, &diag, arena);
    if (!m || ir_verify(m, &diag) > 0)
        return 1;
    for (int i = 0; i < n_names; i++) {
        bool ok;
        if (strcmp(names[i], "O") == 0)
            ok = ir_optimize(m, &diag, true);
        else
            ok = pass_run(m, names[i], pass_find(names[i]), &diag, true, NULL);
        if (!ok)
            return 1;
    }
    ir_print(m, stdout);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs("usage: ir-opt FILE.ir [fold|dce|cse|licm|O]...\n", stderr);
        return 2;
    }
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], "O") != 0 && !pass_find(argv[i])) {
            fprintf(stderr, "ir-opt: unknown pass '%s' (fold, ifconv, dce, cse, hoist, licm, address, divide, narrow, O)\n", argv[i]);
            return 2;
        }
    Arena *arena = arena_new();
    int rc = run(argv[1], argv + 2, argc - 2, arena);
    arena_free(arena);
    return rc;
}
