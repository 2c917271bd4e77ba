/*
 * silkc_build.c: `silkc build` and `silkc run`: a Silk program made into
 * an executable that carries its kernels for every GPU target asked for
 * and for the CPU backend, linked with the runtime (libsilkrt).
 *
 *   silkc build FILE... [-o PROG] [--arch LIST] [-O0] [--race] [--emit=c]
 *   silkc run FILE... [--arch LIST] [-O0] [--race] [-- ARGS...]
 *
 * The steps, each on what the one before made:
 *   the plan     the targets (--arch, default sm_75, whose PTX every
 *                newer GPU's driver compiles; "cpu" always), the output
 *                (-o, default the first file's name without .silk, or
 *                with .c for --emit=c), the runtime and the C compiler
 *   the build    build.h's pipeline to each target's code, measured too
 *                when --arch names targets and an occupancy warning is on
 *                (the warnings are then given, as silkc compile gives them)
 *   the C        compiler/c/c.h: the host code, the kernels, the table;
 *                a @persistent kernel's resident CTAs from its figures on
 *                the CPU backend's emulated sm_90; each AMD target's code
 *                object (the build then measures, since its assembler
 *                makes the code object) read from its binary_path
 *   the program  the C compiled and linked in the build's private
 *                temporary directory, then copied to the output (whole or
 *                not at all: output.h) or, for run, run from there
 * --emit=c stops after the C, written to the output.
 */
#include "program.h"

#include "c/c.h"
#include "occ_warn.h"
#include "output.h"
#include "read_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The oldest target silkc writes: its PTX runs on every GPU silkc knows. */
static const char DEFAULT_ARCH[] = "sm_75";

typedef struct Plan {
    const char *archs[SILKC_MAX_TARGETS + 2]; /* the GPU targets, then "cpu" */
    int n_gpu;
    const char *output;      /* build: where the program (or its C) goes */
    const char *name;        /* the program's name: its argv[0] under run */
    Runtime rt;
    char **cc;               /* the C compiler's words */
} Plan;

/* The first file's base name without .silk ("examples/saxpy.silk" ->
 * "saxpy"), and `ext` after it. */
static const char *stem(Compilation *c, const char *path, const char *ext)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t len = strlen(base);
    if (len > 5 && strcmp(base + len - 5, ".silk") == 0)
        len -= 5;
    size_t size = len + strlen(ext) + 1;
    char *name = arena_alloc(c->arena, size, 1);
    snprintf(name, size, "%.*s%s", (int)len, base, ext);
    return name;
}

static int plan(Compilation *c, const SilkcRequest *r, Plan *p)
{
    int rc = silkc_split_targets(c, r->archs ? r->archs : DEFAULT_ARCH,
                                 "every program carries its kernels for the CPU backend; --arch "
                                 "names the GPU targets",
                                 p->archs, &p->n_gpu);
    if (rc != EXIT_OK)
        return rc;
    p->archs[p->n_gpu] = "cpu";
    bool stdin_only = strcmp(r->inputs[0], "-") == 0;
    p->name = stdin_only ? "program" : stem(c, r->inputs[0], "");
    if (!r->run) { /* run takes no -o: the parser refuses it */
        if (!r->output && stdin_only) {
            silkc_error(&c->diag, "-o: give the %s's name (the source is standard "
                                  "input)",
                        r->emit == EMIT_C ? "C file" : "program");
            return EXIT_USAGE;
        }
        p->output = r->output ? r->output : stem(c, r->inputs[0], r->emit == EMIT_C ? ".c" : "");
    }
    if (r->emit == EMIT_C)
        return EXIT_OK;
    if ((rc = program_find_runtime(c, &p->rt)) != EXIT_OK)
        return rc;
    return (p->cc = program_find_cc(c)) ? EXIT_OK : EXIT_ENVIRONMENT;
}

/* ---- the build -------------------------------------------------------------------------- */

/* Whether target `arch` is carried as a code object (Backend.hip_code_object). */
static bool is_code_object_target(const char *arch)
{
    const Backend *be = backend_find(arch);
    return be && be->hip_code_object;
}

/* Whether a GPU target of the plan is: its code object is then made by
 * measuring (the backend's assembler writes it). */
static bool wants_code_objects(const Plan *p)
{
    for (int i = 0; i < p->n_gpu; i++)
        if (is_code_object_target(p->archs[i]))
            return true;
    return false;
}

static int run_build(Compilation *c, const SilkcRequest *r, Plan *p, BuildOptions *o, Build *b)
{
    bool figures = r->archs && occ_warn_enabled(&c->diag);
    *o = (BuildOptions){.archs = p->archs, .n_archs = p->n_gpu + 1,
                        .last = figures || wants_code_objects(p) ? BUILD_MEASURE : BUILD_CODE,
                        .optimize = !r->no_optimize,
                        .measure_caps = true, .program = "silkc"};
    BuildStatus status = build_run(c, o, b);
    if (status != BUILD_OK) /* a failing tool said, by the rule silkc compile's follows too */
        return build_exit_status(b, status, NULL);
    if (figures)
        silkc_judge_usage(c, r, b);
    return c->diag.errors > 0 ? EXIT_FINDINGS : EXIT_OK; /* a warning made an error */
}

/* ---- the C ------------------------------------------------------------------------------- */

/* The program: the PTX of every GPU target but those carried as code
 * objects (carry_code_objects reads those). */
static void describe(const Plan *p, const SilkcRequest *r, const Build *b, CProgram *cp, int *ptx)
{
    int n_ptx = 0;
    for (int i = 0; i < p->n_gpu; i++)
        if (!is_code_object_target(p->archs[i]))
            ptx[n_ptx++] = i;
    *cp = (CProgram){.c = b->c, .build = b, .ptx = ptx, .n_ptx = n_ptx, .cpu = p->n_gpu,
                     .inputs = r->inputs, .n_inputs = r->n_inputs};
}

/* One target's code object, read from what its assembler made. */
static int read_code_object(Build *b, const BuildTarget *t, CCodeObject *o)
{
    if (!t->binary_path) {
        silkc_error(&b->c->diag, "--arch %s: the build made no code object (its assembler "
                                 "did not run)", t->arch);
        return EXIT_ENVIRONMENT;
    }
    size_t len;
    char *bytes = read_file(t->binary_path, READ_FILE_CODE_LIMIT_MIB, &len);
    if (!bytes) {
        char why[256];
        silkc_error(&b->c->diag, "%s: %s", t->binary_path,
                    read_file_error(errno, READ_FILE_CODE_LIMIT_MIB, why, sizeof why));
        return EXIT_ENVIRONMENT;
    }
    unsigned char *copy = arena_alloc(b->c->arena, len ? len : 1, 1);
    memcpy(copy, bytes, len);
    free(bytes);
    *o = (CCodeObject){.arch = t->arch, .bytes = copy, .size = len};
    return EXIT_OK;
}

/* The code object of every target whose backend makes one, into `objects`. */
static int carry_code_objects(Build *b, const Plan *p, CProgram *cp, CCodeObject *objects)
{
    int n = 0;
    for (int i = 0; i < p->n_gpu; i++) {
        if (!is_code_object_target(p->archs[i]))
            continue;
        int rc = read_code_object(b, &b->targets[i], &objects[n]);
        if (rc != EXIT_OK)
            return rc;
        n++;
    }
    cp->code_objects = objects;
    cp->n_code_objects = n;
    return EXIT_OK;
}

/* Writes the program's C to `out`; an exit status. */
static int write_c(Build *b, CProgram *cp, FILE *out)
{
    int rc = c_has_persistent(b) ? c_measure_emulated(b, &cp->emulated) : EXIT_OK;
    if (rc != EXIT_OK)
        return rc;
    switch (c_emit_program(cp, out)) {
    case C_OK: return EXIT_OK;
    case C_NO_MAIN:
        silkc_error(&b->c->diag, "%s", "the program has no fn main: a program starts there (fn main() "
              "or fn main() -> i32)");
        return EXIT_FINDINGS;
    case C_ERRORS: break;
    }
    return EXIT_FINDINGS;
}

/* Every file the compilation read, as given: no output may be one of them. */
static const char **input_files(Compilation *c, const SilkcRequest *r, int *n)
{
    const char **inputs = ARENA_ARRAY(c->arena, const char *, (size_t)r->n_inputs + c->n_modules + 1);
    *n = 0;
    for (int i = 0; i < r->n_inputs; i++)
        inputs[(*n)++] = r->inputs[i];
    for (uint32_t i = 0; i < c->n_modules; i++)
        if (c->modules[i]->path)
            inputs[(*n)++] = c->modules[i]->path;
    return inputs;
}

static int output_failed(Diag *d, const Output *out)
{
    silkc_error(d, "%s", out->error);
    return out->failure == OUTPUT_CANNOT_WRITE ? EXIT_ENVIRONMENT : EXIT_USAGE;
}

static int open_output(Compilation *c, const SilkcRequest *r, const char *target, Output *out)
{
    int n;
    const char **inputs = input_files(c, r, &n);
    return output_open(out, target, inputs, n) ? EXIT_OK : output_failed(r->diag, out);
}

static int commit(Diag *d, Output *out, int rc)
{
    if (rc != EXIT_OK) {
        output_abort(out);
        return rc;
    }
    return output_commit(out) ? EXIT_OK : output_failed(d, out);
}

/* --emit=c: the C to the output. */
static int emit_c(Build *b, const SilkcRequest *r, const Plan *p, CProgram *cp)
{
    Output out;
    int rc = open_output(b->c, r, p->output, &out);
    if (rc != EXIT_OK)
        return rc;
    rc = write_c(b, cp, out.file);
    output_flush(&out);
    return commit(r->diag, &out, rc);
}

/* ---- the program -------------------------------------------------------------------------- */

/* The linked program copied to the output, executable. */
static int copy_program(const SilkcRequest *r, Compilation *c, const char *from, const char *to)
{
    Output out;
    int rc = open_output(c, r, to, &out);
    if (rc != EXIT_OK)
        return rc;
    FILE *in = fopen(from, "rb");
    char buf[65536];
    size_t got;
    while (in && (got = fread(buf, 1, sizeof buf, in)) > 0 && fwrite(buf, 1, got, out.file) == got)
        ;
    if (!in || ferror(in)) {
        silkc_error(&c->diag, "%s: cannot read the program the C compiler made: %s",
                    from, strerror(errno));
        rc = EXIT_ENVIRONMENT;
    }
    if (in)
        fclose(in);
    mode_t mask = umask(0);
    umask(mask);
    if (rc == EXIT_OK && out.temp && fchmod(fileno(out.file), 0777 & ~mask) != 0) {
        silkc_error(&c->diag, "%s: cannot make it executable: %s", to, strerror(errno));
        rc = EXIT_ENVIRONMENT;
    }
    output_flush(&out);
    return commit(r->diag, &out, rc);
}

/* The C written into the build's temporary directory, compiled there. */
static int make_program(Build *b, const Plan *p, CProgram *cp, const char **program)
{
    const char *source = build_temp_path(b, "program.c");
    *program = build_temp_path(b, p->name);
    if (!source || !*program)
        return EXIT_ENVIRONMENT;
    FILE *out = fopen(source, "w");
    if (!out) {
        silkc_error(&b->c->diag, "%s: cannot write: %s", source, strerror(errno));
        return EXIT_ENVIRONMENT;
    }
    int rc = write_c(b, cp, out);
    if (fclose(out) != 0 && rc == EXIT_OK) {
        silkc_error(&b->c->diag, "%s: cannot write: %s", source, strerror(errno));
        rc = EXIT_ENVIRONMENT;
    }
    return rc == EXIT_OK ? program_compile(b, p->cc, &p->rt, source, *program) : rc;
}

int silkc_build(Compilation *c, const SilkcRequest *r)
{
    Plan p = {0};
    int rc = plan(c, r, &p);
    if (rc != EXIT_OK)
        return rc;
    BuildOptions options;
    Build b;
    rc = run_build(c, r, &p, &options, &b);
    CProgram cp;
    int ptx[SILKC_MAX_TARGETS];
    CCodeObject code_objects[SILKC_MAX_TARGETS];
    describe(&p, r, &b, &cp, ptx);
    if (rc == EXIT_OK)
        rc = carry_code_objects(&b, &p, &cp, code_objects);
    const char *program = NULL;
    if (rc == EXIT_OK && r->emit == EMIT_C)
        rc = emit_c(&b, r, &p, &cp);
    else if (rc == EXIT_OK)
        rc = make_program(&b, &p, &cp, &program);
    if (rc == EXIT_OK && !r->run && r->emit != EMIT_C)
        rc = copy_program(r, c, program, p.output);
    else if (rc == EXIT_OK && r->run)
        rc = program_exec(program, p.name, r);
    build_finish(&b);
    return rc;
}
