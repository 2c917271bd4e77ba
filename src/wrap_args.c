/*
 * wrap_args.c: the output of a compile command line (wrap_args.h).  Only
 * the words that decide what nvcc makes are read; every other word is
 * the compiler's business and passes through untouched.  A word that is
 * the value of an option (-I dir, -MF deps.d, -Xcompiler x.c) is never
 * taken for a source.
 */
#include "wrap_args.h"

#include <stdio.h>
#include <string.h>

/* What a compile is asked to make. */
typedef enum WrapMode { MODE_NONE, MODE_OBJECT, MODE_CUBIN, MODE_FATBIN, MODE_SKIP } WrapMode;

typedef struct WrapLine {
    WrapMode mode;
    const char *output;       /* -o's value; NULL: nvcc's own name */
    const char *source;       /* the one source */
    int n_sources;
} WrapLine;

static bool any_of(const char *word, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(word, *list) == 0)
            return true;
    return false;
}

/* Options whose value is the next word (nvcc's and the host compiler's
 * that nvcc passes on). */
static bool takes_value(const char *w)
{
    static const char *const valued[] = {
        "-o", "--output-file", "-I", "--include-path", "-isystem", "--system-include", "-include",
        "--pre-include", "-D", "--define-macro", "-U", "--undefine-macro", "-L", "--library-path",
        "-l", "--library", "-x", "--x", "-ccbin", "--compiler-bindir", "-Xcompiler",
        "--compiler-options", "-Xlinker", "--linker-options", "-Xptxas", "--ptxas-options",
        "-Xnvlink", "--nvlink-options", "-Xarchive", "--archive-options", "-MF",
        "--dependency-output", "-MT", "--dependency-target-name", "-MQ", "-odir",
        "--output-directory", "-arch", "--gpu-architecture", "-code", "--gpu-code", "-gencode",
        "--generate-code", "-std", "--std", "-t", "--threads", "-maxrregcount", "--maxrregcount",
        "-rdc", "--relocatable-device-code", "-ldir", "--libdevice-directory", "-time", "--time",
        "-split-compile", "--split-compile", NULL};
    return any_of(w, valued);
}

static const char *const object_modes[] = {"-c", "--compile", "-dc", "--device-c", "-dw",
                                           "--device-w", NULL};
static const char *const skip_modes[] = {
    "-E", "--preprocess", "-M", "--generate-dependencies", "-MM",
    "--generate-nonsystem-dependencies", "-ptx", "--ptx", "-dryrun", "--dryrun", "-lib", "--lib",
    "-link", "--link", "-run", "--run", "-dlink", "--device-link", "-optix-ir", "--optix-ir",
    "-ltoir", "--ltoir", "-cuda", "--cuda", "-V", "--version", "-h", "--help", "-optf",
    "--options-file", NULL};

static bool is_source(const char *w)
{
    static const char *const suffixes[] = {".cu", ".c", ".cc", ".cpp", ".cxx", ".C", ".ptx", ".gpu",
                                           NULL};
    const char *dot = strrchr(w, '.');
    return w[0] != '-' && dot && any_of(dot, suffixes);
}

/* One word, with the next for an option that takes it; the index of the
 * last word read. */
static int read_word(WrapLine *l, int argc, char **argv, int i)
{
    const char *w = argv[i];
    if (any_of(w, skip_modes))
        l->mode = MODE_SKIP;
    else if (any_of(w, object_modes) && l->mode != MODE_SKIP)
        l->mode = MODE_OBJECT;
    else if ((strcmp(w, "-cubin") == 0 || strcmp(w, "--cubin") == 0) && l->mode != MODE_SKIP)
        l->mode = MODE_CUBIN;
    else if ((strcmp(w, "-fatbin") == 0 || strcmp(w, "--fatbin") == 0) && l->mode != MODE_SKIP)
        l->mode = MODE_FATBIN;
    else if (strncmp(w, "-o=", 3) == 0 || strncmp(w, "--output-file=", 14) == 0)
        l->output = strchr(w, '=') + 1;
    else if (takes_value(w) && i + 1 < argc) {
        if (strcmp(w, "-o") == 0 || strcmp(w, "--output-file") == 0)
            l->output = argv[i + 1];
        return i + 1;
    } else if (is_source(w)) {
        l->source = w;
        l->n_sources++;
    }
    return i;
}

/* nvcc's name for the output of `source`: its base name, the suffix
 * replaced, in the working directory. */
static bool default_name(const WrapLine *l, char *buf, size_t size)
{
    static const char *const suffix[] = {[MODE_OBJECT] = ".o", [MODE_CUBIN] = ".cubin",
                                         [MODE_FATBIN] = ".fatbin"};
    const char *base = strrchr(l->source, '/');
    base = base ? base + 1 : l->source;
    int stem = (int)(strrchr(base, '.') - base);
    int n = snprintf(buf, size, "%.*s%s", stem, base, suffix[l->mode]);
    return n > 0 && (size_t)n < size;
}

bool wrap_find_output(int argc, char **argv, char *buf, size_t size)
{
    WrapLine l = {MODE_NONE, NULL, NULL, 0};
    for (int i = 1; i < argc; i++)
        i = read_word(&l, argc, argv, i);
    if (l.mode == MODE_NONE || l.mode == MODE_SKIP || l.n_sources != 1)
        return false;
    if (!l.output)
        return default_name(&l, buf, size);
    int n = snprintf(buf, size, "%s", l.output);
    return n > 0 && (size_t)n < size && strcmp(l.output, "-") != 0;
}
