/*
 * build_failure.c: the words and the exit status of a tool's failure
 * (build.h, "failures"), one wording per event whichever tool failed and
 * whichever program ran it, so that `silkc compile`, `silkc build` and
 * `silkc check --arch` say a failing ptxas alike and exit alike.  The
 * backends map their drivers' results into ToolFailure (ptx_backend.c,
 * amdgpu_backend.c); the rule that turns a failure into a status is
 * build_failure_status, and documented in both man pages.
 */
#include "build.h"

#include "exit_status.h"
#include "jobs.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ToolFailure build_tool_failure(int exit_status, int signo, const char *words)
{
    char cause[160];
    if (exit_status == 0)
        return TOOL_OK;
    if (jobs_failure_cause(exit_status, signo, cause, sizeof cause))
        return TOOL_KILLED;
    return words && *words ? TOOL_REJECTED : TOOL_SILENT;
}

int build_failure_status(ToolFailure failure, ToolInput input)
{
    if (failure == TOOL_OK)
        return EXIT_OK;
    if (failure == TOOL_REJECTED)
        return input == TOOL_INPUT_OURS ? EXIT_FINDINGS : EXIT_USAGE;
    return EXIT_ENVIRONMENT;
}

/* The message in a buffer of its own size; NULL when there is no memory
 * for it. */
static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *format(const char *fmt, ...)
{
    va_list ap, measure;
    va_start(ap, fmt);
    va_copy(measure, ap);
    int n = vsnprintf(NULL, 0, fmt, measure);
    va_end(measure);
    char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (text)
        vsnprintf(text, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return text;
}

/* A tool's own words after the line that says what failed: on lines of
 * their own, without the line end they close with (diag adds one). */
static int words_length(const char *words)
{
    size_t len = words ? strlen(words) : 0;
    while (len > 0 && words[len - 1] == '\n')
        len--;
    return (int)len;
}

char *build_tool_message(const ToolReport *r)
{
    const char *on = r->target ? " for " : "", *target = r->target ? r->target : "";
    const char *words = r->words ? r->words : "";
    int len = words_length(r->words);
    const char *colon = len > 0 ? ":\n" : "";
    char cause[160];
    switch (r->failure) {
    case TOOL_OK: return format("%s%s%s succeeded", r->tool, on, target);
    case TOOL_MISSING:
        return format("%s: %s, and none was found (%s)", target, r->missing, r->hint ? r->hint : "");
    case TOOL_NOT_STARTED: return format("cannot start %s%s%s: %s", r->tool, on, target, words);
    case TOOL_KILLED:
        if (!jobs_failure_cause(r->exit_status, r->signal, cause, sizeof cause))
            snprintf(cause, sizeof cause, "was killed");
        return format("%s%s%s %s%s%.*s", r->tool, on, target, cause, colon, len, words);
    case TOOL_SILENT:
        return format("%s%s%s exited %d without a message", r->tool, on, target, r->exit_status);
    case TOOL_NO_OUTPUT: return format("%s%s%s %s", r->tool, on, target, words);
    case TOOL_BAD_OUTPUT: /* a reason, or the whole output that did not parse */
        return format("the output of %s%s%s does not read%s%.*s", r->tool, on, target,
                      memchr(words, '\n', (size_t)len) ? ":\n" : ": ", len, words);
    case TOOL_REJECTED:
        if (r->input == TOOL_INPUT_USERS)
            return format("%s rejected %s%s%s%s%.*s", r->tool, r->code, on, target, colon, len, words);
        if (r->hint)
            return format("%s rejected %s%s%s (a compiler bug; %s)%s%.*s", r->tool, r->code, on,
                          target, r->hint, colon, len, words);
        return format("%s rejected %s%s%s (a compiler bug)%s%.*s", r->tool, r->code, on, target,
                      colon, len, words);
    }
    return NULL;
}

static void say(Diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(Diag *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vplain(d, DIAG_ERROR, fmt, ap);
    va_end(ap);
}

int build_report_tool(Diag *d, const ToolReport *r)
{
    char *text = build_tool_message(r);
    say(d, "%s", text ? text : "out of memory");
    free(text);
    return build_failure_status(r->failure, r->input);
}

/* Whether an earlier target than i failed the same way for want of the
 * same tool: a tool that is missing or cannot start is said once. */
static bool said_before(const Build *b, int i)
{
    const BuildTarget *t = &b->targets[i];
    if (t->failure != TOOL_MISSING && t->failure != TOOL_NOT_STARTED)
        return false;
    for (int j = 0; j < i; j++)
        if (b->targets[j].failure == t->failure && b->targets[j].tool && t->tool &&
            strcmp(b->targets[j].tool, t->tool) == 0)
            return true;
    return false;
}

int build_report_target(const Build *b, const BuildTarget *t, const char *kept)
{
    const Backend *be = t->backend;
    assert(be->code_name && be->emit_name && be->vendor); /* a backend with tools has its words */
    const char *tool = t->tool ? t->tool : be->name;
    char code[32], hint[96], missing[128];
    snprintf(code, sizeof code, "the %s", be->code_name);
    snprintf(hint, sizeof hint, "silkc compile --emit=%s writes that %s", be->emit_name,
             be->code_name);
    snprintf(missing, sizeof missing, "%s targets need %s (%s)", be->vendor, tool, be->tools_from);
    ToolReport r = {.failure = t->failure, .input = TOOL_INPUT_OURS, .tool = tool,
                    .target = t->arch, .words = t->usage.errors,
                    .exit_status = t->usage.exit_status, .signal = t->usage.signal,
                    .code = kept ? kept : code, .missing = missing,
                    .hint = t->failure == TOOL_MISSING ? be->tools_help : kept ? NULL : hint};
    return build_report_tool(&b->c->diag, &r);
}

int build_exit_status(const Build *b, BuildStatus status, const char *const kept[])
{
    switch (status) {
    case BUILD_OK: return EXIT_OK;
    case BUILD_SOURCE_ERRORS:
    case BUILD_COMPILER_BUG: return EXIT_FINDINGS;
    case BUILD_ENVIRONMENT: return EXIT_ENVIRONMENT;
    case BUILD_UNREADABLE: return EXIT_USAGE;
    case BUILD_TOOL_FAILED: break;
    }
    int rc = EXIT_OK;
    for (int i = 0; i < b->n_targets; i++) {
        if (b->targets[i].failure == TOOL_OK || said_before(b, i))
            continue;
        int target_rc = build_report_target(b, &b->targets[i], kept ? kept[i] : NULL);
        rc = target_rc > rc ? target_rc : rc;
    }
    /* a failure that none of the targets holds: still no success */
    return rc == EXIT_OK ? EXIT_ENVIRONMENT : rc;
}

ToolReport build_job_report(const JobRun *run, const char *tool, const char *code)
{
    ToolFailure f = run->status == JOBS_NOT_STARTED
                        ? TOOL_NOT_STARTED
                        : build_tool_failure(run->status, run->signal, run->output);
    return (ToolReport){.failure = f, .input = TOOL_INPUT_OURS, .tool = tool,
                        .words = f == TOOL_NOT_STARTED ? strerror(run->error) : run->output,
                        .exit_status = run->status, .signal = run->signal, .code = code};
}
