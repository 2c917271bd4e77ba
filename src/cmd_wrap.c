/*
 * cmd_wrap.c: `silk-occ wrap [OPTIONS] [--] COMPILER ARGS...`, a compiler
 * launcher (CMAKE_CUDA_COMPILER_LAUNCHER, NVCC := silk-occ wrap -- nvcc,
 * a Bazel wrapper script) that lets a distributed build carry the
 * analysis: it runs the compile exactly as given (the same argv, no
 * shell, the three standard streams inherited, its exit status
 * returned), and when the compile succeeded and made one object, a cubin
 * or a fatbin, writes that unit's report JSON beside it as
 * OBJ.silk-occ.json (`silk-occ merge` joins them).  The analysis is the
 * report's own path (cmd_report_to) on the object, read as it is: never
 * a second compile.  A failed analysis is a warning, never a failed
 * build, unless an --expect-* option asks for the build to fail.
 */
#include "cli.h"
#include "escape.h"
#include "wrap_args.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static const char *const COMMAND = "wrap";

/* The report options wrap hands on (the analysis's argv), and its own. */
enum { MAX_PASSED = 32 };

typedef struct WrapOptions {
    char *passed[MAX_PASSED]; /* "--arch", "sm_90", ... for the report */
    int n_passed;
    bool expect;              /* an --expect-* was given: a miss fails the build */
    const char *output_dir;   /* --output-dir: the JSON there, not beside OBJ */
} WrapOptions;

void cmd_wrap_usage(FILE *out)
{
    fputs("usage: silk-occ wrap [OPTIONS] [--] COMPILER ARGS...\n"
          "\n"
          "Runs the compile unchanged (same arguments, output and exit status) and, when it\n"
          "succeeded and made one object (-c, -dc), cubin (-cubin) or fatbin (-fatbin),\n"
          "writes the unit's report JSON beside it as OBJ.silk-occ.json, read from the\n"
          "object itself (no second compile).  A failed analysis is a warning.\n"
          "\n"
          "  --arch LIST            architectures of the analysis (default: the object's)\n"
          "  --gpu LIST             GPU products of the analysis\n"
          "  --block-sizes LIST     more candidate block sizes\n"
          "  --work N               work items of a 1-D launch\n"
          "  --arch-table FILE      add or override table rows\n"
          "  --expect-blocks-per-sm N   exit 1, after a successful compile, when the\n"
          "                         selected size keeps fewer CTAs\n"
          "  --expect-occupancy P       exit 1 when it reaches less than P percent\n"
          "  --output-dir DIR       write OBJ.silk-occ.json in DIR instead\n"
          "\n"
          "The first word that is not an option (or the word after --) is the compiler.\n"
          "SILK_OCC_WRAP=0 in the environment runs the compile only.\n"
          "See silk-occ(1), \"Distributed builds\" in the README.\n",
          out);
}

static const struct option long_options[] = {
    {"arch", required_argument, NULL, 'a'},        {"gpu", required_argument, NULL, 'g'},
    {"block-sizes", required_argument, NULL, 'b'}, {"work", required_argument, NULL, 'w'},
    {"arch-table", required_argument, NULL, 'T'},
    {"expect-blocks-per-sm", required_argument, NULL, 'e'},
    {"expect-occupancy", required_argument, NULL, 'o'},
    {"output-dir", required_argument, NULL, 'O'}, {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* The option as the report spells it, for the analysis's argv. */
static char *report_option(int c)
{
    switch (c) {
    case 'a': return "--arch";
    case 'g': return "--gpu";
    case 'b': return "--block-sizes";
    case 'w': return "--work";
    case 'T': return "--arch-table";
    case 'e': return "--expect-blocks-per-sm";
    }
    return "--expect-occupancy";
}

/* Values are checked here, before the compile, where a slip is a usage
 * error of the build's command line; the names (--arch sm_91) are the
 * report's to check, and a wrong one is its warning. */
static bool take_option(int c, char *arg, void *context)
{
    WrapOptions *w = context;
    long long n;
    char *end;
    if (c == 'O') {
        w->output_dir = arg;
        return true;
    }
    if (c == 'e' && !cli_parse_integer(COMMAND, "--expect-blocks-per-sm", arg, 1, 64, &n))
        return false;
    double percent = c == 'o' ? strtod(arg, &end) : 0;
    if (c == 'o' && (!(percent > 0 && percent <= 100) || *end || end == arg)) { /* NaN too */
        cli_error(COMMAND, "--expect-occupancy: '%s' is not a percentage above 0, at most 100",
                  QUOTED(arg));
        return false;
    }
    w->expect |= c == 'e' || c == 'o';
    if (w->n_passed + 2 > MAX_PASSED) {
        cli_error(COMMAND, "too many options");
        return false;
    }
    w->passed[w->n_passed++] = report_option(c);
    w->passed[w->n_passed++] = arg;
    return true;
}

/* Where the compiler's words begin: after "--", else at the first word
 * that is neither an option of wrap's nor the value of one. */
static int compiler_start(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0)
            return i + 1;
        if (a[0] != '-' || a[1] == '\0')
            return i;
        bool valued = strchr(a, '=') == NULL && strcmp(a, "--help") != 0 && strcmp(a, "-h") != 0;
        if (valued)
            i++; /* every option of wrap's but --help takes a value */
    }
    return argc;
}

/* ---- the compile ---------------------------------------------------------- */

/* Runs argv as it is, the standard streams shared, and waits: its exit
 * status, 128 + N when signal N ended it (said by the caller), 127 when
 * it could not start.  Interrupts reach the compiler (the same process
 * group); wrap waits for it rather than dying first, as system(3) does. */
static int run_compile(char **argv, int *signal_out)
{
    pid_t pid;
    *signal_out = 0;
    int err = posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ);
    if (err) {
        cli_error(COMMAND, "cannot run '%s': %s", QUOTED(argv[0]), strerror(err));
        return 127;
    }
    struct sigaction ignore = {.sa_handler = SIG_IGN}, old_int, old_quit;
    sigaction(SIGINT, &ignore, &old_int);
    sigaction(SIGQUIT, &ignore, &old_quit);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    if (WIFSIGNALED(status)) {
        *signal_out = WTERMSIG(status);
        return 128 + WTERMSIG(status);
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

/* The compiler ended by a signal: so does wrap, so that make and the
 * shell see what they would have seen without it; 128 + N if it lives. */
static int end_like(int sig, int rc)
{
    signal(sig, SIG_DFL);
    raise(sig);
    return rc;
}

/* ---- the analysis --------------------------------------------------------- */

/* Every line the report said, in wrap's words: in a build its errors are
 * warnings (a build log scanner must not fail the build on them), except
 * an --expect-* that was not met, which fails it on purpose. */
static void restate(FILE *said, bool failed_expectation)
{
    static const char *const prefixes[] = {"silk-occ report: error: ", "silk-occ report: warning: ",
                                           "silk-occ wrap: error: ", "silk-occ wrap: warning: "};
    char line[4096];
    rewind(said);
    while (fgets(line, sizeof line, said)) {
        const char *rest = line;
        for (int i = 0; i < 4; i++)
            if (strncmp(line, prefixes[i], strlen(prefixes[i])) == 0)
                rest = line + strlen(prefixes[i]);
        if (rest == line) {
            fputs(line, stderr); /* a continuation line: a tool's own words, escaped */
            continue;
        }
        fprintf(stderr, "silk-occ wrap: %s: %s", failed_expectation ? "error" : "warning", rest);
    }
}

/* The report of `object` (--format json) into `out`, its messages held
 * in `said` for restate: the report's exit status. */
static int report_into(const WrapOptions *w, const char *object, FILE *out, FILE *said)
{
    char *argv[MAX_PASSED + 8];
    int n = 0;
    argv[n++] = "report";
    for (int i = 0; i < w->n_passed; i += 2) {
        argv[n++] = w->passed[i];
        argv[n++] = w->passed[i + 1];
    }
    argv[n++] = "--format";
    argv[n++] = "json";
    argv[n++] = "--";
    argv[n++] = (char *)object;
    argv[n] = NULL;
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    if (saved < 0 || dup2(fileno(said), STDERR_FILENO) < 0)
        return EXIT_ENVIRONMENT;
    int rc = cmd_report_to(COMMAND, n, argv, out);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    return rc;
}

/* "DIR/NAME.silk-occ.json" for the object DIR/NAME, or in --output-dir. */
static char *json_path(const WrapOptions *w, const char *object)
{
    const char *base = strrchr(object, '/');
    base = base ? base + 1 : object;
    size_t size = strlen(object) + (w->output_dir ? strlen(w->output_dir) : 0) + 32;
    char *path = malloc(size);
    if (!path)
        return NULL;
    if (w->output_dir)
        snprintf(path, size, "%s/%s.silk-occ.json", w->output_dir, base);
    else
        snprintf(path, size, "%s.silk-occ.json", object);
    return path;
}

/* Written to a new temporary name in the same directory and renamed, so
 * that a parallel build (or a merge running beside it) never reads half
 * a file.  EXIT_OK, EXIT_FINDINGS (an --expect-* missed), or the status
 * of a failed analysis, said as a warning. */
static int analyse(const WrapOptions *w, const char *object)
{
    char *path = json_path(w, object);
    size_t size = path ? strlen(path) + 16 : 0;
    char *temp = path ? malloc(size) : NULL;
    if (!temp) {
        free(path);
        cli_warning(COMMAND, "no memory for the analysis of %s", ESCAPED(object));
        return EXIT_ENVIRONMENT;
    }
    snprintf(temp, size, "%s.tmpXXXXXX", path);
    int fd = mkstemp(temp);
    FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
    FILE *said = tmpfile();
    int rc = EXIT_ENVIRONMENT;
    if (!out || !said)
        cli_warning(COMMAND, "%s: cannot write: %s", ESCAPED(temp), strerror(errno));
    else
        rc = report_into(w, object, out, said);
    bool written = out && fclose(out) == 0 && (rc == EXIT_OK || rc == EXIT_FINDINGS);
    if (fd >= 0 && !out)
        close(fd);
    if (said) {
        restate(said, rc == EXIT_FINDINGS && written);
        fclose(said);
    }
    if (written && rename(temp, path) != 0) {
        cli_warning(COMMAND, "%s: cannot write: %s", ESCAPED(path), strerror(errno));
        written = false;
    }
    if (!written) {
        unlink(temp);
        unlink(path); /* an old unit's figures would pass for this one's */
        if (rc != EXIT_ENVIRONMENT || out)
            cli_warning(COMMAND, "no report for %s (the build goes on)", ESCAPED(object));
    }
    free(temp);
    free(path);
    return written ? rc : EXIT_ENVIRONMENT;
}

static bool analysis_off(void)
{
    const char *v = getenv("SILK_OCC_WRAP");
    return v && strcmp(v, "0") == 0;
}

int cmd_wrap(int argc, char **argv)
{
    int start = compiler_start(argc, argv);
    WrapOptions w = {0};
    int first;
    /* wrap's own words alone: the compiler's are never read as options. */
    int rc = cli_getopt(COMMAND, start > 1 && strcmp(argv[start - 1], "--") == 0 ? start - 1 : start,
                        argv, "T", long_options, cmd_wrap_usage, take_option, &w, &first);
    if (rc != EXIT_OK)
        return rc < 0 ? EXIT_OK : rc;
    if (start >= argc) {
        cli_error(COMMAND, "give the compile to run: silk-occ wrap -- nvcc -c x.cu -o x.o");
        return EXIT_USAGE;
    }
    char **compile = argv + start;
    int sig;
    rc = run_compile(compile, &sig);
    if (sig)
        return end_like(sig, rc);
    char object[4096];
    if (rc != EXIT_OK || analysis_off() || !wrap_find_output(argc - start, compile, object,
                                                             sizeof object))
        return rc;
    struct stat st;
    if (stat(object, &st) != 0 || !S_ISREG(st.st_mode)) {
        cli_warning(COMMAND, "%s: the compile made no such file; no report", ESCAPED(object));
        return rc;
    }
    int analysis = analyse(&w, object);
    return analysis == EXIT_FINDINGS && w.expect ? EXIT_FINDINGS : rc;
}
