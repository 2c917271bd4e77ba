/*
 * measure_version.c: which ptxas, nvcc and llc made a run's figures
 * (measure.h).  A report's numbers are only as good as the tool that
 * measured them, and a figure that changed between CUDA 12.4 and 13.0 is
 * explained by the versions, so the outputs name them.  Each tool the run
 * ran is asked once, `TOOL --version`, as a job (jobs.h: no shell, the
 * path handed to execv as it was found), all at once; its answer is read,
 * never trusted: only a version-shaped word is kept, so a hostile or
 * broken tool can put nothing else into a JSON document.
 */
#include "measure.h"

#include "jobs.h"

#include <ctype.h>
#include <string.h>

/* The longest version kept: "13.0.88", "19.1.7-1ubuntu1" and then some. */
enum { VERSION_MAX = 32 };

/* The word of digits, dots and a few suffix characters at p (at most n
 * bytes), into buf; false when it does not start with a digit. */
static bool take_word(const char *p, size_t n, char *buf, size_t size)
{
    size_t len = 0;
    if (n == 0 || !isdigit((unsigned char)p[0]))
        return false;
    while (len < n && len + 1 < size && len < VERSION_MAX &&
           (isalnum((unsigned char)p[len]) || p[len] == '.' || p[len] == '-' || p[len] == '_'))
        len++;
    memcpy(buf, p, len);
    buf[len] = '\0';
    return true;
}

/* The first occurrence of `key` in text[0..len), or NULL. */
static const char *find(const char *text, size_t len, const char *key)
{
    size_t k = strlen(key);
    for (size_t i = 0; i + k <= len; i++)
        if (memcmp(text + i, key, k) == 0)
            return text + i;
    return NULL;
}

bool measure_parse_version(const char *text, size_t len, char *buf, size_t size)
{
    /* NVIDIA's tools: "Cuda compilation tools, release 13.0, V13.0.88";
     * the V word is the whole build, the release its first two parts. */
    const char *p = find(text, len, ", V");
    if (p && take_word(p + 3, len - (size_t)(p + 3 - text), buf, size))
        return true;
    p = find(text, len, "release ");
    if (p && take_word(p + 8, len - (size_t)(p + 8 - text), buf, size))
        return true;
    /* LLVM's: "LLVM version 19.1.7" (Debian's "Ubuntu LLVM version ..."). */
    p = find(text, len, "LLVM version ");
    return p && take_word(p + 13, len - (size_t)(p + 13 - text), buf, size);
}

void measure_tool_versions(Measure *m, MeasureTools *versions)
{
    const char *tools[] = {m->ran.ptxas, m->ran.nvcc, m->ran.llc};
    const char **out[] = {&versions->ptxas, &versions->nvcc, &versions->llc};
    enum { N = sizeof tools / sizeof *tools };
    JobRun runs[N];
    int which[N], n = 0;
    *versions = (MeasureTools){0};
    for (int i = 0; i < N; i++) {
        if (!tools[i])
            continue;
        char **argv = ARENA_ARRAY(m->arena, char *, 3);
        argv[0] = (char *)tools[i];
        argv[1] = "--version";
        runs[n] = (JobRun){.path = jobs_resolve_command(tools[i], m->arena), .argv = argv};
        which[n++] = i;
    }
    jobs_run(runs, n, m->arena);
    for (int j = 0; j < n; j++) {
        char word[VERSION_MAX + 1];
        if (runs[j].status == 0 &&
            measure_parse_version(runs[j].output, runs[j].len, word, sizeof word))
            *out[which[j]] = arena_strndup(m->arena, word, strlen(word));
    }
}
