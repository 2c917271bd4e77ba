/*
 * silkrt_error.c: how the runtime says what went wrong: the names of its
 * statuses (silkrt_status.def), this thread's last_error, the stop for a
 * misuse (exit status 70), and the SILK_VERBOSE lines.
 *
 * last_error is per thread (silkrt_thread), so that a task's failure
 * never shows in another's text; a status is returned by the call that
 * failed and kept nowhere else.
 */
#include "silkrt_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SILKRT_STATUS(name, number, words)                                                   \
    _Static_assert(SILKRT_##name == (number), "silkrt.h and silkrt_status.def disagree on " #name);
#include "silkrt_status.def"
#undef SILKRT_STATUS

_Thread_local SilkrtThread silkrt_thread;

const char *silkrt_status_name(int32_t status)
{
    switch (status) {
#define SILKRT_STATUS(name, number, words)                                                   \
    case number:                                                                             \
        return "SILKRT_" #name;
#include "silkrt_status.def"
#undef SILKRT_STATUS
    default:
        return NULL;
    }
}

static void set_error(const char *prefix, const char *fmt, va_list ap)
{
    SilkrtThread *t = &silkrt_thread;
    size_t size = sizeof t->error;
    int n = snprintf(t->error, size, "%s", prefix);
    if (n < 0)
        n = 0;
    if ((size_t)n < size)
        vsnprintf(t->error + n, size - (size_t)n, fmt, ap);
    t->error_len = strlen(t->error);
}

int32_t silkrt_fail(int32_t status, const char *fmt, ...)
{
    char prefix[64];
    const char *name = silkrt_status_name(status);
    snprintf(prefix, sizeof prefix, "%s: ", name ? name : "SILKRT_STATUS");
    va_list ap;
    va_start(ap, fmt);
    set_error(prefix, fmt, ap);
    va_end(ap);
    return status;
}

int32_t silkrt_fail_text(int32_t status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_error("", fmt, ap);
    va_end(ap);
    return status;
}

SilkStr silkrt_last_error(void)
{
    /* Only this thread writes its own text: no lock needed. */
    return (SilkStr){silkrt_thread.error, silkrt_thread.error_len};
}

_Noreturn void silkrt_misuse(const SilkSite *site, const char *fmt, ...)
{
    char line[2048];
    int n = site && site->file
                ? snprintf(line, sizeof line, "%s:%u:%u: ", site->file, site->line, site->col)
                : snprintf(line, sizeof line, "silkrt: ");
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < sizeof line)
        vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    va_end(ap);
    /* What the program printed before comes first; then the one line,
     * and an end that runs no atexit handler while other threads may
     * still be running the program's code. */
    fflush(stdout);
    fprintf(stderr, "%s\n", line);
    fflush(stderr);
    _exit(SILKRT_EXIT_MISUSE);
}

void silkrt_say(const char *fmt, ...)
{
    if (!silkrt_state.verbose)
        return;
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "silkrt: %s\n", line);
}
