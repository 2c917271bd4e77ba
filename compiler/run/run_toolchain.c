/*
 * run_toolchain.c: the two things a program needs besides the compiler:
 * the runtime (libsilkrt.a and silkrt.h), and the C compiler that builds
 * the program's C against it; and that compiler's run, the one tool
 * driver of `silkc build` (run.h).
 *
 * The runtime is looked for, in order, in $SILK_RUNTIME_DIR (which must
 * then hold both files: it is never passed over silently), in the build
 * tree silkc runs from (./src/silkc finds ./std/runtime/libsilkrt.a, and
 * silkrt.h there or, in a build outside the source tree, in the source
 * tree configure was run for), and where `make install` put it.  Those
 * places are configure's, which the program was built with: it passes
 * them in (RunInstall), so the library needs no definitions of its own.
 *
 * The compiler is $CC, split into words as make splits it (CC="ccache
 * gcc" is two), else cc; a $CC that cannot run is said, never passed over.
 * It is run as
 *   CC -O2 -std=gnu11 -ffp-contract=off -fno-strict-aliasing -w [sanitizers]
 *      -I DIR -o PROGRAM PROGRAM.c libsilkrt.a -lpthread -ldl -lm
 * -ffp-contract=off keeps a*b+c two roundings, as the device computes it
 * and the CPU backend's module is compiled; the sanitizer flags are the
 * ones the runtime was built with (configure's --enable-asan and
 * --enable-ubsan, RunInstall again), which its objects need at link time.  Warnings are
 * off: the C is ours, and tests compile it with -Wall -Wextra -Werror.
 */
#include "run/run.h"

#include "exit_status.h"
#include "jobs.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* "silkc: error: ..." through the compilation's diagnostics. */
static void say(Compilation *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(Compilation *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vplain(&c->diag, DIAG_ERROR, fmt, ap);
    va_end(ap);
}

static bool readable(const char *path) { return access(path, R_OK) == 0; }

static const char *join(Arena *arena, const char *dir, const char *name)
{
    size_t len = strlen(dir) + strlen(name) + 2;
    char *path = arena_alloc(arena, len, 1);
    snprintf(path, len, "%s/%s", dir, name);
    return path;
}

/* The directory above the one silkc's executable is in ("BUILD" for
 * BUILD/src/silkc), or NULL. */
static const char *above_executable(Arena *arena)
{
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0)
        return NULL;
    exe[len] = '\0';
    for (int up = 0; up < 2; up++) {
        char *slash = strrchr(exe, '/');
        if (!slash || slash == exe)
            return NULL;
        *slash = '\0';
    }
    return arena_strndup(arena, exe, strlen(exe));
}

static bool in_build_tree(Arena *arena, const RunInstall *install, RunToolchain *t)
{
    const char *top = above_executable(arena);
    if (!top)
        return false;
    const char *dir = join(arena, top, "std/runtime");
    if (!readable(join(arena, dir, "libsilkrt.a")))
        return false;
    t->library = join(arena, dir, "libsilkrt.a");
    t->include_dir = readable(join(arena, dir, "silkrt.h")) ? dir : install->source_runtime_dir;
    return readable(join(arena, t->include_dir, "silkrt.h"));
}

static int find_runtime(Compilation *c, const RunInstall *install, RunToolchain *t)
{
    Arena *arena = c->arena;
    const char *dir = getenv("SILK_RUNTIME_DIR");
    if (dir && *dir) {
        const char *missing = !readable(join(arena, dir, "libsilkrt.a")) ? "libsilkrt.a"
                              : !readable(join(arena, dir, "silkrt.h"))  ? "silkrt.h"
                                                                         : NULL;
        if (missing) {
            say(c, "SILK_RUNTIME_DIR=%s: no %s there", dir, missing);
            return EXIT_ENVIRONMENT;
        }
        t->library = join(arena, dir, "libsilkrt.a");
        t->include_dir = dir;
        return EXIT_OK;
    }
    if (in_build_tree(arena, install, t))
        return EXIT_OK;
    t->library = join(arena, install->libdir, "libsilkrt.a");
    t->include_dir = install->includedir;
    if (readable(t->library) && readable(join(arena, t->include_dir, "silkrt.h")))
        return EXIT_OK;
    say(c, "cannot find the runtime (libsilkrt.a and silkrt.h): not beside silkc's build tree "
           "nor in %s; set SILK_RUNTIME_DIR to the directory that holds them", install->libdir);
    return EXIT_ENVIRONMENT;
}

static char **find_cc(Compilation *c)
{
    Arena *arena = c->arena;
    char **words = ARENA_ARRAY(arena, char *, RUN_CC_WORDS + 1), error[512];
    if (jobs_find_cc(arena, words, RUN_CC_WORDS, error, sizeof error) > 0)
        return words;
    if (error[0])
        say(c, "%s", error);
    else
        say(c, "silkc build needs a C compiler, and none was found (install gcc, or set CC)");
    return NULL;
}

int run_find_toolchain(Compilation *c, const RunInstall *install, RunToolchain *t)
{
    *t = (RunToolchain){.sanitizer_flags = install->sanitizer_flags ? install->sanitizer_flags : ""};
    int rc = find_runtime(c, install, t);
    if (rc == EXIT_OK && !(t->cc = find_cc(c)))
        rc = EXIT_ENVIRONMENT;
    return rc;
}

/* The sanitizer flags, one argument each. */
static int sanitizer_flags(Arena *arena, const char *given, char **argv)
{
    char *flags = arena_strndup(arena, given, strlen(given));
    int n = 0;
    for (char *save = NULL, *f = strtok_r(flags, " \t", &save); f && n < 8;
         f = strtok_r(NULL, " \t", &save))
        argv[n++] = f;
    return n;
}

/* The C compiler's failed run, in the words and by the rule of every
 * tool's failure (build_report_tool): a signal or a file-size limit is
 * the environment's, the C refused is a compiler bug. */
static int failed(Diag *d, const JobRun *run, const char *cc)
{
    ToolReport r = build_job_report(run, cc, "the program's C");
    r.hint = "silkc build --emit=c writes that C";
    return build_report_tool(d, &r);
}

int run_compile(Build *b, const RunToolchain *t, const char *source, const char *program)
{
    Arena *arena = b->c->arena;
    char *const *cc = t->cc;
    char *argv[RUN_CC_WORDS + 32];
    int n = 0;
    while (cc[n])
        argv[n] = cc[n], n++;
    static const char *const FLAGS[] = {"-O2", "-std=gnu11", "-ffp-contract=off",
                                        "-fno-strict-aliasing", "-w"};
    for (size_t i = 0; i < sizeof FLAGS / sizeof *FLAGS; i++)
        argv[n++] = (char *)FLAGS[i];
    n += sanitizer_flags(arena, t->sanitizer_flags, argv + n);
    argv[n++] = "-I";
    argv[n++] = (char *)jobs_operand(t->include_dir, arena);
    argv[n++] = "-o";
    argv[n++] = (char *)jobs_operand(program, arena);
    argv[n++] = (char *)jobs_operand(source, arena);
    argv[n++] = (char *)jobs_operand(t->library, arena);
    argv[n++] = "-lpthread";
    argv[n++] = "-ldl";
    argv[n++] = "-lm";
    argv[n] = NULL;
    JobRun run = {.path = jobs_resolve_command(cc[0], arena), .argv = argv};
    jobs_run(&run, 1, arena);
    return run.status != 0 ? failed(&b->c->diag, &run, cc[0]) : EXIT_OK;
}
