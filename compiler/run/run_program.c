/*
 * run_program.c: a Silk program made from its build (run.h): the parts
 * the host target needs (compiler/c/c.h), its C written, and that C
 * compiled with the runtime into an executable.  `silkc build` writes
 * the executable (or, with --emit=c, the C) to its output and `silkc
 * run` runs it; both programs' part is the command, and this the work.
 *
 * The program carries the PTX of every NVIDIA target of the build, the
 * code object of every target whose backend makes one
 * (Backend.hip_code_object: each AMD target's, read from what its
 * assembler wrote, so such a build measures), and the CPU backend's C.
 * A @persistent kernel's resident CTAs come from its figures on the
 * CPU backend's emulated sm_90 (c_measure_emulated).  The C is compiled
 * in the build's private temporary directory, which build_finish removes
 * with the executable.
 */
#include "run/run.h"

#include "exit_status.h"
#include "read_file.h"

#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* "silkc: error: ..." through the build's diagnostics; returns `rc`. */
static int fail(Build *b, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(Build *b, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vplain(&b->c->diag, DIAG_ERROR, fmt, ap);
    va_end(ap);
    return rc;
}

bool run_carries_code_object(const char *arch)
{
    const Backend *be = backend_find(arch);
    return be && be->hip_code_object;
}

/* One target's code object, read from what its assembler made. */
static int read_code_object(Build *b, const BuildTarget *t, CCodeObject *o)
{
    if (!t->binary_path)
        return fail(b, EXIT_ENVIRONMENT, "--arch %s: the build made no code object (its "
                    "assembler did not run)", t->arch);
    size_t len;
    char *bytes = read_file(t->binary_path, READ_FILE_CODE_LIMIT_MIB, &len);
    if (!bytes) {
        char why[256];
        return fail(b, EXIT_ENVIRONMENT, "%s: %s", t->binary_path,
                    read_file_error(errno, READ_FILE_CODE_LIMIT_MIB, why, sizeof why));
    }
    unsigned char *copy = arena_alloc(b->c->arena, len ? len : 1, 1);
    memcpy(copy, bytes, len);
    free(bytes);
    *o = (CCodeObject){.arch = t->arch, .bytes = copy, .size = len};
    return EXIT_OK;
}

int run_program_prepare(Build *b, const char *const *inputs, int n_inputs, CProgram *cp)
{
    int *ptx = ARENA_ARRAY(b->c->arena, int, (size_t)b->n_targets + 1);
    CCodeObject *objects = ARENA_ARRAY(b->c->arena, CCodeObject, (size_t)b->n_targets + 1);
    *cp = (CProgram){.c = b->c, .build = b, .ptx = ptx, .code_objects = objects, .cpu = -1,
                     .inputs = inputs, .n_inputs = n_inputs};
    for (int i = 0; i < b->n_targets; i++) {
        const BuildTarget *t = &b->targets[i];
        int rc = EXIT_OK;
        if (strcmp(t->arch, "cpu") == 0)
            cp->cpu = i;
        else if (!run_carries_code_object(t->arch))
            ptx[cp->n_ptx++] = i;
        else if ((rc = read_code_object(b, t, &objects[cp->n_code_objects])) == EXIT_OK)
            cp->n_code_objects++;
        if (rc != EXIT_OK)
            return rc;
    }
    assert(cp->cpu >= 0); /* every program carries its kernels for the CPU backend */
    return EXIT_OK;
}

int run_program_write(Build *b, CProgram *cp, FILE *out)
{
    int rc = c_has_persistent(b) ? c_measure_emulated(b, &cp->emulated) : EXIT_OK;
    if (rc != EXIT_OK)
        return rc;
    switch (c_emit_program(cp, out)) {
    case C_OK: return EXIT_OK;
    case C_NO_MAIN:
        return fail(b, EXIT_FINDINGS, "%s", "the program has no fn main: a program starts there "
                    "(fn main() or fn main() -> i32)");
    case C_ERRORS: break;
    }
    return EXIT_FINDINGS;
}

int run_program_make(Build *b, CProgram *cp, const RunToolchain *t, const char *name,
                     const char **program)
{
    const char *source = build_temp_path(b, "program.c");
    *program = build_temp_path(b, name);
    if (!source || !*program)
        return EXIT_ENVIRONMENT;
    FILE *out = fopen(source, "w");
    if (!out)
        return fail(b, EXIT_ENVIRONMENT, "%s: cannot write: %s", source, strerror(errno));
    int rc = run_program_write(b, cp, out);
    if (fclose(out) != 0 && rc == EXIT_OK)
        rc = fail(b, EXIT_ENVIRONMENT, "%s: cannot write: %s", source, strerror(errno));
    return rc == EXIT_OK ? run_compile(b, t, source, *program) : rc;
}
