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
 *
 * This file is the command: the plan, the calls into the library, which
 * does the work of each step (compiler/run/run.h: finding the runtime
 * and the C compiler, the program's C, the compiler's run, the program's
 * run), and the output written.
 */
#include "silkc.h"

#include "occ_warn.h"
#include "output.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Where configure put the runtime (Makefile.am defines them for silkc). */
#ifndef SILK_SANITIZER_FLAGS
#define SILK_SANITIZER_FLAGS ""
#endif
static const RunInstall INSTALL = {.source_runtime_dir = SILK_SOURCE_DIR "/std/runtime",
                                   .libdir = SILK_RUNTIME_LIBDIR,
                                   .includedir = SILK_RUNTIME_INCLUDEDIR,
                                   .sanitizer_flags = SILK_SANITIZER_FLAGS};

/* The oldest target silkc writes: its PTX runs on every GPU silkc knows. */
static const char DEFAULT_ARCH[] = "sm_75";

typedef struct Plan {
    const char *archs[SILKC_MAX_TARGETS + 2]; /* the GPU targets, then "cpu" */
    int n_gpu;
    const char *output;      /* build: where the program (or its C) goes */
    const char *name;        /* the program's name: its argv[0] under run */
    RunToolchain toolchain;  /* the runtime and the C compiler */
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
    return r->emit == EMIT_C ? EXIT_OK : run_find_toolchain(c, &INSTALL, &p->toolchain);
}

/* ---- the build -------------------------------------------------------------------------- */

/* Whether a GPU target of the plan is: its code object is then made by
 * measuring (the backend's assembler writes it). */
static bool wants_code_objects(const Plan *p)
{
    for (int i = 0; i < p->n_gpu; i++)
        if (run_carries_code_object(p->archs[i]))
            return true;
    return false;
}

static int build_step(Compilation *c, const SilkcRequest *r, Plan *p, BuildOptions *o, Build *b)
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

static int open_output(Compilation *c, const SilkcRequest *r, const char *target, Output *out)
{
    int n;
    const char **inputs = silkc_input_files(c, r, &n);
    return output_open(out, target, inputs, n) ? EXIT_OK : silkc_output_failed(r->diag, out);
}

static int commit(Diag *d, Output *out, int rc)
{
    if (rc != EXIT_OK) {
        output_abort(out);
        return rc;
    }
    return output_commit(out) ? EXIT_OK : silkc_output_failed(d, out);
}

/* --emit=c: the C to the output. */
static int emit_c(Build *b, const SilkcRequest *r, const Plan *p, CProgram *cp)
{
    Output out;
    int rc = open_output(b->c, r, p->output, &out);
    if (rc != EXIT_OK)
        return rc;
    rc = run_program_write(b, cp, out.file);
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

int silkc_build(Compilation *c, const SilkcRequest *r)
{
    Plan p = {0};
    int rc = plan(c, r, &p);
    if (rc != EXIT_OK)
        return rc;
    BuildOptions options;
    Build b;
    rc = build_step(c, r, &p, &options, &b);
    CProgram cp;
    if (rc == EXIT_OK)
        rc = run_program_prepare(&b, r->inputs, r->n_inputs, &cp);
    const char *program = NULL;
    if (rc == EXIT_OK && r->emit == EMIT_C)
        rc = emit_c(&b, r, &p, &cp);
    else if (rc == EXIT_OK)
        rc = run_program_make(&b, &cp, &p.toolchain, p.name, &program);
    if (rc == EXIT_OK && !r->run && r->emit != EMIT_C)
        rc = copy_program(r, c, program, p.output);
    else if (rc == EXIT_OK && r->run)
        rc = run_exec(r->diag, program, p.name, r->program_args, r->n_program_args);
    build_finish(&b);
    return rc;
}
