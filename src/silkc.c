/*
 * silkc.c: the Silk compiler driver.  `silkc check FILE...` runs the front
 * end (compile.h: load, resolve imports, declare, check) on the files,
 * which together are the root package, and reports every problem;
 * `--dump-ast` prints each file's tree for golden tests.  `silkc compile`
 * goes on to the back end (silkc_compile.c).
 *
 * Exit status (exit_status.h, shared with silk-occ): 0 clean, 1 errors
 * in the source, 2 a usage error (an output that cannot be created or is
 * an input included), 3 a tool the command needs (ptxas) is missing or
 * broken, or an output could not be written (a full disk, standard output
 * on /dev/full).
 */
#include "silkc.h"
#include "common/emulated_device.h"
#include "escape.h"

#include "output.h"
#include "read_file.h"

#include <config.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *out)
{
    fputs("usage: silkc check [options] FILE... [--arch sm_90,...]   (FILE '-': standard input)\n"
          "       silkc compile [options] FILE... --arch sm_90[,sm_80...] [-o OUT]\n"
          "             [--emit=ptx|ir|cubin|header|llvm] [--resource-usage [--format text|json]]\n"
          "       silkc exec [options] FILE... --kernel NAME --grid N [--workspace W]\n"
          "             [--arg VALUE | --buf TYPE:COUNT:INIT]... [--seed S] [--sms S]\n"
          "             [--backend cpu|cuda] [--workers N] [--race] [--dump] [--out FILE]\n"
          "       silkc exec [options] FILE... --list\n"
          "       silkc build [options] FILE... [-o PROG] [--arch sm_75,...] [-O0] [--race]\n"
          "             [--emit=c]\n"
          "       silkc run [options] FILE... [--arch sm_75,...] [-O0] [--race] [-- ARGS...]\n"
          "\n"
          "check: checks Silk source files (together, the root package) and reports every problem.\n"
          "compile: also lowers the GPU functions and writes PTX for each target (or the IR,\n"
          "  a cubin per target by ptxas, or a C header embedding the PTX; -o -: standard output);\n"
          "  -O0 skips the IR optimisation passes (see silkc(1)), which run by default;\n"
          "  --resource-usage runs ptxas -v on each and prints what every kernel uses\n"
          "  (without ptxas: an estimate from the IR, marked as such).\n"
          "  AMD targets (gfx90a, gfx942, gfx1100, gfx1201) get a code object (.hsaco) each,\n"
          "  by llc-19 and ld.lld-19 ($SILK_LLC, $SILK_LLD), or their LLVM IR (--emit=llvm).\n"
          "exec: runs one kernel on this machine's cores (the CPU backend, no GPU needed):\n"
          "  --arg and --buf bind its parameters in order; a buffer's INIT is a number or\n"
          "  'random' (--seed S, default 1); --dump prints the buffers after the run,\n"
          "  --out FILE writes their bytes; --sms S is ctx.sms (default " SILK_EMULATED_SMS_TEXT "); --workers N\n"
          "  threads run the CTAs (default: one per core; 1 gives float atomics one order);\n"
          "  --race also checks shared-memory races and reads of unwritten shared memory\n"
          "  or of a var before it is assigned.\n"
          "  --backend cuda runs it on GPU 0 instead, through the CUDA driver (loaded at run time).\n"
          "  --list prints each kernel with its CTA size and the --arg and --buf it takes.\n"
          "build: makes an executable of the program (its fn main, host code and kernels): the host\n"
          "  code as C with the kernels' PTX for each --arch (default sm_75) and for the CPU backend,\n"
          "  compiled by $CC and linked with libsilkrt ($SILK_RUNTIME_DIR, the build tree, or the\n"
          "  installed one); -o PROG (default: the first file's name); --emit=c writes the C.\n"
          "run: builds it in a temporary directory and runs it with ARGS, exiting with its status.\n"
          "  The program runs on a GPU when it finds one, else on this machine's cores\n"
          "  (SILK_BACKEND=auto|cpu|cuda; SILK_VERBOSE=1 shows each dispatch).\n"
          "  --race gives the CPU backend's kernels exec --race's checks; a check that fires\n"
          "  writes its line to stderr (a GPU run has none of them).\n"
          "Both give the occupancy warnings (-Wocc-low, -Wocc-limit, -Wspill, -Wtail,\n"
          "  -Wblock-size) for each --arch; check only when --arch is given.\n"
          "\n"
          "  -I DIR                        search DIR for dependency packages (import ... from \"pkg/mod\")\n"
          "  --nostd                       no standard library (a launch block is then an error)\n"
          "  --std-dir DIR                 read the standard library from DIR/gpu.silk\n"
          "  --dump-ast                    print the syntax tree of each file\n"
          "  -W<name>, -Wno-<name>         enable or disable a warning; -Wall: all\n"
          "  -Werror, -Werror=<name>       make warnings (or one) errors\n"
          "  -ferror-limit=N               stop after N errors (default 20; 0: no limit)\n"
          "  -fdiagnostics-format=json     diagnostics as JSON on stderr\n"
          "  --help                        this text (silkc --version: the version)\n"
          "\n"
          "exit status: 0 clean, 1 errors (or a kernel that faulted), 2 usage, 3 no ptxas for\n"
          "  --emit=cubin, no C compiler, CUDA driver or GPU for exec, no runtime for build,\n"
          "  or a write error; run: the program's own status (a signal N: 128 + N).\n"
          "See silkc(1).\n",
          out);
}

void silkc_error(Diag *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vplain(d, DIAG_ERROR, fmt, ap);
    va_end(ap);
}

void silkc_note(Diag *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vplain(d, DIAG_NOTE, fmt, ap);
    va_end(ap);
}

/* "silkc: error: <fmt with arg>; 'silkc --help' shows usage". */
static int usage_error(Diag *d, const char *fmt, const char *arg)
{
    int n = snprintf(NULL, 0, fmt, arg);
    char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (text)
        snprintf(text, (size_t)n + 1, fmt, arg);
    silkc_error(d, "%s; 'silkc --help' shows usage", text ? text : "out of memory");
    free(text);
    return EXIT_USAGE;
}

/* An option that takes a value: "-I DIR", "-IDIR" or "--std-dir DIR". */
static const char *option_value(int argc, char **argv, int *i, const char *name)
{
    size_t len = strlen(name);
    if (strncmp(argv[*i], name, len) != 0)
        return NULL;
    if (argv[*i][len] == '=' || (argv[*i][len] != '\0' && len == 2))
        return argv[*i] + len + (argv[*i][len] == '=');
    if (argv[*i][len] != '\0')
        return NULL;
    return *i + 1 < argc ? argv[++*i] : "";
}

/* A single-valued option: given twice, which value was meant is unknown,
 * so it is an error rather than the last one silently winning. */
static bool set_once(Diag *d, const char **slot, const char *value, const char *name, int *rc)
{
    if (*slot) {
        *rc = usage_error(d, "%s given twice", name);
        return false;
    }
    *slot = value;
    return true;
}

/* --emit=KIND; false with *rc set for an unknown kind or a second --emit. */
static bool set_emit(const char *arg, SilkcRequest *r, const char **given, int *rc)
{
    static const char *const kinds[] = {"ptx", "ir", "cubin", "header", "llvm"};
    static const EmitKind emits[] = {EMIT_PTX, EMIT_IR, EMIT_CUBIN, EMIT_HEADER, EMIT_LLVM};
    for (int k = 0; k < 5; k++)
        if (strcmp(arg + 7, kinds[k]) == 0) {
            r->emit = emits[k];
            return set_once(r->diag, given, arg, "--emit", rc);
        }
    *rc = usage_error(r->diag, "--emit: '%s' is not ptx, ir, cubin, header or llvm", QUOTED(arg + 7));
    return false;
}

/* An option only `silkc compile` takes; false if `arg` is none of them. */
static bool compile_option(int argc, char **argv, int *i, SilkcRequest *r, int *rc)
{
    const char *arg = argv[*i], *value;
    if ((value = option_value(argc, argv, i, "--arch")))
        set_once(r->diag, &r->archs, value, "--arch", rc);
    else if (strcmp(arg, "-o") == 0) {
        value = *i + 1 < argc ? argv[++*i] : "";
        if (!*value)
            *rc = usage_error(r->diag, "%s", "-o needs a value");
        else
            set_once(r->diag, &r->output, value, "-o", rc);
    } else if (strncmp(arg, "--emit=", 7) == 0)
        set_emit(arg, r, &r->emit_given, rc);
    else if (strcmp(arg, "-O0") == 0)
        r->no_optimize = true;
    else if (strcmp(arg, "--resource-usage") == 0)
        r->resource_usage = true;
    else if ((value = option_value(argc, argv, i, "--format"))) {
        if (strcmp(value, "json") != 0 && strcmp(value, "text") != 0)
            *rc = usage_error(r->diag, "--format: '%s' is not text or json", QUOTED(value));
        else if (set_once(r->diag, &r->format, value, "--format", rc))
            r->json = strcmp(value, "json") == 0;
    } else
        return false;
    return true;
}

/* A whole number option of exec, from 1 (0 with `zero`) to `max`. */
static bool exec_number(Diag *d, const char *name, const char *value, uint64_t max, uint64_t *out,
                        int *rc)
{
    char *end;
    errno = 0;
    unsigned long long v = *value >= '0' && *value <= '9' ? strtoull(value, &end, 0) : 0;
    if (*value < '0' || *value > '9' || errno || *end || v == 0 || v > max) {
        silkc_error(d, "%s: '%s' is not a whole number from 1 to %" PRIu64,
                    name, QUOTED(value), max);
        *rc = EXIT_USAGE;
        return false;
    }
    *out = v;
    return true;
}

/* --backend cpu|cuda, once. */
static void set_backend(const char *value, SilkcRequest *r, int *rc)
{
    if (strcmp(value, "cpu") != 0 && strcmp(value, "cuda") != 0)
        *rc = usage_error(r->diag, "--backend: '%s' is not cpu or cuda", QUOTED(value));
    else if (set_once(r->diag, &r->backend_given, value, "--backend", rc))
        r->backend = strcmp(value, "cuda") == 0 ? EXEC_BACKEND_CUDA : EXEC_BACKEND_CPU;
}

/* An option only `silkc exec` takes; false if `arg` is none of them. */
static bool exec_option(int argc, char **argv, int *i, SilkcRequest *r, int *rc)
{
    const char *arg = argv[*i], *value;
    uint64_t sms;
    if ((value = option_value(argc, argv, i, "--kernel")))
        set_once(r->diag, &r->kernel, value, "--kernel", rc);
    else if ((value = option_value(argc, argv, i, "--grid")))
        exec_number(r->diag, "--grid", value, UINT64_MAX, &r->grid, rc);
    else if ((value = option_value(argc, argv, i, "--workspace")))
        exec_number(r->diag, "--workspace", value, 1024, &r->workspace, rc);
    else if ((value = option_value(argc, argv, i, "--seed")))
        exec_number(r->diag, "--seed", value, UINT64_MAX, &r->seed, rc);
    else if ((value = option_value(argc, argv, i, "--workers"))) {
        if (exec_number(r->diag, "--workers", value, 256, &sms, rc))
            r->workers = (int)sms;
    } else if ((value = option_value(argc, argv, i, "--sms"))) {
        if (exec_number(r->diag, "--sms", value, 1024, &sms, rc))
            r->sms = (uint32_t)sms;
        r->sms_given = true;
    } else if ((value = option_value(argc, argv, i, "--backend")))
        set_backend(value, r, rc);
    else if ((value = option_value(argc, argv, i, "--arg")) ||
               (value = option_value(argc, argv, i, "--buf")))
        r->bindings[r->n_bindings++] = (ExecBinding){.buffer = arg[2] == 'b', .text = value};
    else if ((value = option_value(argc, argv, i, "--out")))
        set_once(r->diag, &r->output, value, "--out", rc);
    else if (strcmp(arg, "--dump") == 0)
        r->dump = true;
    else if (strcmp(arg, "--list") == 0)
        r->list = true;
    else if (strcmp(arg, "--race") == 0)
        r->race = true;
    else if (strcmp(arg, "-O0") == 0)
        r->no_optimize = true;
    else
        return false;
    return true;
}

/* An option only `silkc build` (and run) takes; false if `arg` is none of
 * them.  `--` ends run's options: what follows is the program's. */
static bool build_option(int argc, char **argv, int *i, SilkcRequest *r, int *rc)
{
    const char *arg = argv[*i], *value;
    if ((value = option_value(argc, argv, i, "--arch")))
        set_once(r->diag, &r->archs, value, "--arch", rc);
    else if (strcmp(arg, "-O0") == 0)
        r->no_optimize = true;
    else if (strcmp(arg, "--race") == 0) /* the CPU backend's kernels, as exec --race */
        r->race = true;
    else if (r->run && strcmp(arg, "--") == 0) {
        r->program_args = (const char *const *)argv + *i + 1;
        r->n_program_args = argc - *i - 1;
        *i = argc;
    } else if (!r->run && strcmp(arg, "-o") == 0) {
        value = *i + 1 < argc ? argv[++*i] : "";
        if (!*value)
            *rc = usage_error(r->diag, "%s", "-o needs a value");
        else
            set_once(r->diag, &r->output, value, "-o", rc);
    } else if (!r->run && strncmp(arg, "--emit=", 7) == 0) {
        if (strcmp(arg + 7, "c") != 0)
            *rc = usage_error(r->diag, "--emit: '%s' is not c (silkc build writes a program, or its C)",
                              QUOTED(arg + 7));
        else if (set_once(r->diag, &r->emit_given, arg, "--emit", rc))
            r->emit = EMIT_C;
    } else
        return false;
    return true;
}

/* Reads the options after the command; the files are gathered in `files`. */
static int parse_arguments(int argc, char **argv, Compilation *c, const char **files, int *n_files,
                           SilkcRequest *r)
{
    CompileOptions *o = &c->options;
    o->include_dirs = files + argc; /* the second half of the same array */
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i], *value, *problem = NULL;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            return EXIT_HELP;
        }
        int rc = EXIT_OK;
        if ((r->compile && compile_option(argc, argv, &i, r, &rc)) ||
            (r->exec && exec_option(argc, argv, &i, r, &rc)) ||
            (r->build && build_option(argc, argv, &i, r, &rc))) {
            if (rc != EXIT_OK)
                return rc;
        } else if (!r->compile && !r->exec && !r->build &&
                   (value = option_value(argc, argv, &i, "--arch"))) {
            if (!set_once(&c->diag, &r->archs, value, "--arch", &rc)) /* check: the warnings' targets */
                return rc;
        }
        else if (strcmp(arg, "--dump-ast") == 0)
            o->dump_ast = true;
        else if (strcmp(arg, "--nostd") == 0)
            o->nostd = true;
        else if ((value = option_value(argc, argv, &i, "--std-dir"))) {
            if (!*value)
                return usage_error(&c->diag, "%s", "--std-dir needs a directory");
            if (!set_once(&c->diag, &o->std_dir, value, "--std-dir", &rc))
                return rc;
        }
        else if ((value = option_value(argc, argv, &i, "-I"))) {
            if (!*value)
                return usage_error(&c->diag, "%s", "-I needs a directory");
            o->include_dirs[o->n_include_dirs++] = value;
        } else if (arg[0] != '-' || strcmp(arg, "-") == 0) /* "-": standard input */
            files[(*n_files)++] = arg;
        else if (!diag_option(&c->diag, arg, &problem))
            return problem ? usage_error(&c->diag, "%s", problem)
                           : usage_error(&c->diag, "unknown option '%s'", QUOTED(arg));
    }
    if (*n_files == 0)
        return usage_error(&c->diag, "%s", "no input files");
    return EXIT_OK;
}

/* -fdiagnostics-format=json anywhere among the options (up to run's "--")
 * takes effect before the first of them is read, so that an option's error
 * before it is in the JSON array too; parse_arguments reads it again. */
static void diagnostics_format(int argc, char **argv, Diag *d)
{
    for (int i = 2; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strncmp(argv[i], "-fdiagnostics-format=", 21) == 0)
            diag_option(d, argv[i], NULL);
}

/* A file of the root package; "-" is standard input. */
static bool load_root_file(Compilation *c, const char *path)
{
    if (strcmp(path, "-") != 0)
        return compile_load(c, path, path, PKG_ROOT) != NULL;
    size_t len = 0;
    char *text = read_file_fd(STDIN_FILENO, READ_FILE_CODE_LIMIT_MIB, &len);
    bool ok = text && compile_add_text(c, "<stdin>", text, len, PKG_ROOT);
    free(text);
    return ok;
}

/* check and compile: load the root files, then the front end, and for
 * compile the back end. */
static int run(int argc, char **argv, const char *command)
{
    Compilation c;
    compile_init(&c, stderr);
    const char **files = calloc(2 * (size_t)argc, sizeof *files);
    ExecBinding *bindings = calloc((size_t)argc, sizeof *bindings);
    int n_files = 0;
    bool compile = strcmp(command, "compile") == 0;
    bool run_it = strcmp(command, "run") == 0;
    SilkcRequest request = {.compile = compile, .exec = strcmp(command, "exec") == 0,
                            .build = run_it || strcmp(command, "build") == 0, .run = run_it,
                            .inputs = files, .bindings = bindings, .seed = 1, .sms = SILK_EMULATED_SMS,
                            .diag = &c.diag};
    diagnostics_format(argc, argv, &c.diag);
    int rc = files && bindings ? parse_arguments(argc, argv, &c, files, &n_files, &request)
                   : usage_error(&c.diag, "%s", "out of memory");
    request.n_inputs = n_files;
    /* exec checks every index against its extent on the CPU; a GPU runs
     * the PTX that `silkc compile` writes. */
    c.options.bounds_checks = request.exec && request.backend != EXEC_BACKEND_CUDA;
    c.options.race_checks = request.race;
    for (int i = 0; rc == EXIT_OK && i < n_files; i++)
        if (!load_root_file(&c, files[i])) {
            char reason[96];
            silkc_error(&c.diag, "%s: %s", ESCAPED(files[i]),
                        read_file_error(errno, READ_FILE_CODE_LIMIT_MIB, reason, sizeof reason));
            rc = EXIT_USAGE;
        }
    if (rc == EXIT_OK && compile)
        rc = silkc_compile(&c, &request);
    else if (rc == EXIT_OK && request.exec)
        rc = silkc_exec(&c, &request);
    else if (rc == EXIT_OK && request.build)
        rc = silkc_build(&c, &request);
    else if (rc == EXIT_OK)
        rc = silkc_check(&c, &request);
    if (rc != EXIT_USAGE && rc != EXIT_HELP && c.options.dump_ast)
        compile_dump(&c, stdout);
    diag_finish(&c.diag);
    if (rc == EXIT_OK && c.diag.errors > 0)
        rc = EXIT_FINDINGS;
    free(files);
    free(bindings);
    compile_free(&c);
    return rc == EXIT_HELP ? EXIT_OK : rc;
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("silkc %s\n", PACKAGE_VERSION);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "check") == 0 || strcmp(argv[1], "compile") == 0 ||
        strcmp(argv[1], "exec") == 0 || strcmp(argv[1], "build") == 0 ||
        strcmp(argv[1], "run") == 0)
        return run(argc, argv, argv[1]);
    return usage_error(NULL, "unknown command '%s' (silkc check|compile|exec|build|run FILE...)",
                       QUOTED(argv[1]));
}

int main(int argc, char **argv)
{
    output_init();
    return output_finish_stdout("silkc", dispatch(argc, argv), EXIT_ENVIRONMENT);
}
