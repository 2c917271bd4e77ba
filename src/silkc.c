/*
 * silkc.c: the Silk compiler driver.  `silkc check FILE...` runs the front
 * end (compile.h: load, resolve imports, declare, check) on the files,
 * which together are the root package, and reports every problem;
 * `--dump-ast` prints each file's tree for golden tests.  `silkc compile`
 * goes on to the back end (silkc_compile.c).
 *
 * Exit status (exit_status.h, shared with silk-occ): 0 clean, 1 errors
 * in the source or a tool that rejected the compiler's code, 2 a usage
 * error (an output that cannot be created or is an input included), 3 a
 * tool the command needs is missing or broken (build_failure_status's
 * rule, in the library), or an output could not be written (a full disk,
 * standard output on /dev/full).  The options are read by the loop
 * silk-occ reads its own with (options.h), a table per command.
 */
#include "silkc.h"
#include "common/emulated_device.h"
#include "escape.h"
#include "options.h"

#include "output.h"
#include "read_file.h"

#include <config.h>
#include <getopt.h>
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
          "  --help, -h                    this text (silkc --version: the version)\n"
          "  --                            the end of the options (run: then the program's ARGS)\n"
          "Options and files come in any order; --opt=VALUE or --opt VALUE, -o FILE or -oFILE,\n"
          "  as silk-occ reads its own.\n"
          "\n"
          "exit status: 0 clean, 1 errors (or a kernel that faulted, or a tool that rejected\n"
          "  the compiler's code), 2 usage, 3 a tool missing or broken (no ptxas for\n"
          "  --emit=cubin, no C compiler; one killed or failing without a word), no CUDA driver\n"
          "  or GPU for exec, no runtime for build, or a write error; run: the program's own\n"
          "  status (a signal N: 128 + N).\n"
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

/* ---- the options, by the loop silk-occ reads its own with (options.h) ------------------ */

/* getopt_long's codes: a letter each, one set for every command (only
 * those in a command's short list are short options). */
enum {
    OPT_ARCH = 'a', OPT_EMIT = 'e', OPT_RESOURCE_USAGE = 'r', OPT_FORMAT = 'F',
    OPT_KERNEL = 'k', OPT_GRID = 'g', OPT_WORKSPACE = 'w', OPT_SEED = 's',
    OPT_WORKERS = 'j', OPT_SMS = 'S', OPT_BACKEND = 'b', OPT_ARG = 'A', OPT_BUF = 'B',
    OPT_OUT = 'u', OPT_DUMP = 'D', OPT_LIST = 'l', OPT_RACE = 'R',
    OPT_DUMP_AST = 'T', OPT_NOSTD = 'n', OPT_STD_DIR = 'd',
};

/* Every command's: the front end's options; -I, -W... and -f... are short
 * options (FRONT_END_SHORTS), whose value is the rest of the word or the
 * next one. */
#define FRONT_END_SHORTS "I:W:f:"
#define FRONT_END_OPTIONS                                                                  \
    {"dump-ast", no_argument, NULL, OPT_DUMP_AST}, {"nostd", no_argument, NULL, OPT_NOSTD}, \
    {"std-dir", required_argument, NULL, OPT_STD_DIR}, {"help", no_argument, NULL, 'h'},    \
    {NULL, 0, NULL, 0}
#define ARCH_OPTION {"arch", required_argument, NULL, OPT_ARCH}
#define RACE_OPTION {"race", no_argument, NULL, OPT_RACE}

static const struct option check_options[] = {ARCH_OPTION, FRONT_END_OPTIONS};
static const struct option compile_options[] = {
    ARCH_OPTION, {"emit", required_argument, NULL, OPT_EMIT},
    {"resource-usage", no_argument, NULL, OPT_RESOURCE_USAGE},
    {"format", required_argument, NULL, OPT_FORMAT}, FRONT_END_OPTIONS};
static const struct option exec_options[] = {
    {"kernel", required_argument, NULL, OPT_KERNEL}, {"grid", required_argument, NULL, OPT_GRID},
    {"workspace", required_argument, NULL, OPT_WORKSPACE},
    {"seed", required_argument, NULL, OPT_SEED}, {"workers", required_argument, NULL, OPT_WORKERS},
    {"sms", required_argument, NULL, OPT_SMS}, {"backend", required_argument, NULL, OPT_BACKEND},
    {"arg", required_argument, NULL, OPT_ARG}, {"buf", required_argument, NULL, OPT_BUF},
    {"out", required_argument, NULL, OPT_OUT}, {"dump", no_argument, NULL, OPT_DUMP},
    {"list", no_argument, NULL, OPT_LIST}, RACE_OPTION, FRONT_END_OPTIONS};
static const struct option build_options[] = {
    ARCH_OPTION, RACE_OPTION, {"emit", required_argument, NULL, OPT_EMIT}, FRONT_END_OPTIONS};
static const struct option run_options[] = {ARCH_OPTION, RACE_OPTION, FRONT_END_OPTIONS};

/* The options that add each time they are given; any other with a value
 * given twice is an error, as in silk-occ. */
static const char REPEATABLE[] = "IWfOAB";

/* What the loop's callbacks read and fill. */
typedef struct Parse {
    Compilation *c;
    SilkcRequest *r;
} Parse;

/* A path option's value: empty is as good as missing. */
static bool has_value(Diag *d, const char *name, const char *value)
{
    if (*value)
        return true;
    usage_error(d, "%s: needs a value", name);
    return false;
}

/* --emit=KIND: compile's kinds, or build's one (c). */
static bool set_emit(const char *kind, SilkcRequest *r)
{
    static const char *const kinds[] = {"ptx", "ir", "cubin", "header", "llvm"};
    static const EmitKind emits[] = {EMIT_PTX, EMIT_IR, EMIT_CUBIN, EMIT_HEADER, EMIT_LLVM};
    if (r->build && strcmp(kind, "c") == 0) {
        r->emit = EMIT_C;
        return true;
    }
    for (int k = 0; !r->build && k < 5; k++)
        if (strcmp(kind, kinds[k]) == 0) {
            r->emit = emits[k];
            return true;
        }
    usage_error(r->diag, r->build ? "--emit: '%s' is not c (silkc build writes a program, or its C)"
                                  : "--emit: '%s' is not ptx, ir, cubin, header or llvm",
                QUOTED(kind));
    return false;
}

/* A whole number option of exec, from 1 to `max`. */
static bool exec_number(Diag *d, const char *name, const char *value, uint64_t max, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = *value >= '0' && *value <= '9' ? strtoull(value, &end, 0) : 0;
    if (*value < '0' || *value > '9' || errno || *end || v == 0 || v > max) {
        silkc_error(d, "%s: '%s' is not a whole number from 1 to %" PRIu64,
                    name, QUOTED(value), max);
        return false;
    }
    *out = v;
    return true;
}

/* -W... and -f...: the diagnostics' options (diag_option). */
static bool diagnostics_option(Diag *d, int c, const char *value)
{
    char *word = malloc(strlen(value) + 3);
    if (!word) {
        usage_error(d, "%s", "out of memory");
        return false;
    }
    sprintf(word, "-%c%s", c, value);
    const char *problem = NULL;
    bool ok = diag_option(d, word, &problem);
    if (!ok && problem)
        usage_error(d, "%s", problem);
    else if (!ok)
        usage_error(d, "unknown option '%s'", QUOTED(word));
    free(word);
    return ok;
}

/* The options of exec only; false, said, for a bad value. */
static bool take_exec_option(int c, const char *arg, SilkcRequest *r)
{
    uint64_t n;
    switch (c) {
    case OPT_KERNEL: r->kernel = arg; return true;
    case OPT_GRID: return exec_number(r->diag, "--grid", arg, UINT64_MAX, &r->grid);
    case OPT_WORKSPACE: return exec_number(r->diag, "--workspace", arg, 1024, &r->workspace);
    case OPT_SEED: return exec_number(r->diag, "--seed", arg, UINT64_MAX, &r->seed);
    case OPT_WORKERS:
        if (!exec_number(r->diag, "--workers", arg, 256, &n))
            return false;
        r->workers = (int)n;
        return true;
    case OPT_SMS:
        if (!exec_number(r->diag, "--sms", arg, 1024, &n))
            return false;
        r->sms = (uint32_t)n;
        r->sms_given = true;
        return true;
    case OPT_BACKEND:
        if (strcmp(arg, "cpu") != 0 && strcmp(arg, "cuda") != 0) {
            usage_error(r->diag, "--backend: '%s' is not cpu or cuda", QUOTED(arg));
            return false;
        }
        r->backend_given = arg;
        r->backend = strcmp(arg, "cuda") == 0 ? RUN_BACKEND_CUDA : RUN_BACKEND_CPU;
        return true;
    case OPT_ARG: case OPT_BUF:
        r->bindings[r->n_bindings++] = (RunBinding){.buffer = c == OPT_BUF, .text = arg};
        return true;
    case OPT_OUT: r->output = arg; return true;
    case OPT_DUMP: r->dump = true; return true;
    case OPT_LIST: r->list = true; return true;
    default: return false;
    }
}

/* One option of the command's table (only those reach here); false, said,
 * for a bad value. */
static bool take_option(int c, char *arg, void *context)
{
    Parse *p = context;
    SilkcRequest *r = p->r;
    CompileOptions *o = &p->c->options;
    switch (c) {
    case OPT_ARCH: r->archs = arg; return true;
    case 'o':
        r->output = arg;
        return has_value(r->diag, "-o", arg);
    case 'O': /* -O0, the only level: the passes run by default */
        r->no_optimize = strcmp(arg, "0") == 0;
        if (!r->no_optimize)
            usage_error(r->diag, "unknown option '-O%s'", QUOTED(arg));
        return r->no_optimize;
    case OPT_EMIT: return set_emit(arg, r);
    case OPT_RESOURCE_USAGE: r->resource_usage = true; return true;
    case OPT_FORMAT:
        if (strcmp(arg, "json") != 0 && strcmp(arg, "text") != 0) {
            usage_error(r->diag, "--format: '%s' is not text or json", QUOTED(arg));
            return false;
        }
        r->json = strcmp(arg, "json") == 0;
        return true;
    case OPT_RACE: r->race = true; return true;
    case OPT_DUMP_AST: o->dump_ast = true; return true;
    case OPT_NOSTD: o->nostd = true; return true;
    case OPT_STD_DIR:
        o->std_dir = arg;
        return has_value(r->diag, "--std-dir", arg);
    case 'I':
        if (!has_value(r->diag, "-I", arg))
            return false;
        o->include_dirs[o->n_include_dirs++] = arg;
        return true;
    case 'W': case 'f': return diagnostics_option(r->diag, c, arg);
    default: return take_exec_option(c, arg, r);
    }
}

static void refuse(void *context, OptionsProblem problem, const char *message)
{
    (void)problem; /* every refusal is a usage error, pointing at --help */
    const Parse *p = context;
    usage_error(p->r->diag, "%s", message);
}

/* Each command's options: its short ones and its table. */
static const struct {
    const char *name, *shorts;
    const struct option *longs;
} commands[] = {
    {"check", FRONT_END_SHORTS, check_options},
    {"compile", FRONT_END_SHORTS "o:O:", compile_options},
    {"exec", FRONT_END_SHORTS "O:", exec_options},
    {"build", FRONT_END_SHORTS "o:O:", build_options},
    {"run", FRONT_END_SHORTS "O:", run_options},
};

/* run: the first "--" ends silkc's words; what follows is the program's.
 * Returns the index of the end of silkc's words. */
static int split_program_args(int argc, char **argv, SilkcRequest *r)
{
    for (int i = 2; r->run && i < argc; i++)
        if (strcmp(argv[i], "--") == 0) {
            r->program_args = (const char *const *)argv + i + 1;
            r->n_program_args = argc - i - 1;
            return i;
        }
    return argc;
}

/* Reads the options after the command; the files are gathered in `files`. */
static int parse_arguments(int argc, char **argv, Compilation *c, const char **files, int *n_files,
                           SilkcRequest *r)
{
    int k = 0;
    while (strcmp(commands[k].name, argv[1]) != 0)
        k++;
    c->options.include_dirs = files + argc; /* the second half of the same array */
    int end = split_program_args(argc, argv, r), first;
    Parse parse = {.c = c, .r = r};
    OptionsParser p = {.shorts = commands[k].shorts, .longs = commands[k].longs,
                       .repeatable = REPEATABLE, .usage = usage, .take = take_option,
                       .refuse = refuse, .context = &parse};
    int rc = options_parse(&p, end - 1, argv + 1, &first);
    if (rc != EXIT_OK)
        return rc;
    for (int i = first + 1; i < end; i++)
        files[(*n_files)++] = argv[i];
    if (*n_files == 0)
        return usage_error(&c->diag, "%s", "no input files");
    return EXIT_OK;
}

/* -fdiagnostics-format=json anywhere among the options (up to "--") takes
 * effect before the first of them is read, so that an option's error
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
    RunBinding *bindings = calloc((size_t)argc, sizeof *bindings);
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
    c.options.bounds_checks = request.exec && request.backend != RUN_BACKEND_CUDA;
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
