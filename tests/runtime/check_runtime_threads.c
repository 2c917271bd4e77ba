/*
 * check_runtime_threads.c: 16 task workers making 1,000 dispatches each,
 * some failing on purpose and some succeeding, never see another's
 * status or error text: on the CPU backend (geometry errors, kernel
 * faults through launch blocks and through launch() then synchronize(),
 * runs whose buffers are checked) and on the test doubles of the CUDA
 * driver and of HIP, one loop test over both (refused launches and
 * faulting kernels by grid size).  Every result and every last_error is
 * compared with what that task's own dispatch must give.  CI runs this
 * under ThreadSanitizer (.ci/run).
 */
#define _GNU_SOURCE
#include "runtime_fixture.h"

#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TASKS = 16, DISPATCHES = 1000 };

typedef struct Task {
    int index;
    int wrong;              /* results that were not this task's own */
    char first[512];        /* the first of them */
} Task;

static Task tasks[TASKS];

static void wrong(Task *t, int i, const char *what, SilkDispatchResult r, const char *want)
{
    if (t->wrong++ == 0) {
        SilkStr e = silkrt_last_error();
        snprintf(t->first, sizeof t->first, "task %d, dispatch %d (%s): %d %d '%.*s', want '%s'", t->index,
                 i, what, (int)r.launch_status, (int)r.synchronize_status, (int)e.len, e.bytes, want);
    }
}

static bool error_is(const char *want)
{
    SilkStr e = silkrt_last_error();
    return e.len == strlen(want) && memcmp(e.bytes, want, e.len) == 0;
}

static void check(Task *t, int i, const char *what, SilkDispatchResult r, int32_t l, int32_t s,
                  const char *want)
{
    if (r.launch_status != l || r.synchronize_status != s || (want && !error_is(want)))
        wrong(t, i, what, r, want ? want : "");
}

/* On the CPU backend.  Task t's workspace is 8 (t + 1): its geometry error
 * names its own grid, its fault its own buffer's size. */
static void cpu_task(void *closure)
{
    Task *t = closure;
    uint64_t ws = 8 * (uint64_t)(t->index + 1);
    SilkBuffer b = silkrt_buffer_alloc(ws * 8); /* one CTA's elements */
    char geometry[256], fault[256];
    snprintf(geometry, sizeof geometry, "SILKRT_BAD_GEOMETRY: kernel fill: a grid of %" PRIu64
             " work items is not divisible by the workspace of %" PRIu64, ws + 1, ws);
    snprintf(fault, sizeof fault, "which has %" PRIu64 " bytes", ws * 8);
    for (int i = 0; i < DISPATCHES; i++) {
        uint64_t value = (uint64_t)t->index << 32 | (uint64_t)i;
        uint64_t args[2] = {b.address, value};
        SilkDispatchResult r;
        switch (i % 4) {
        case 0: /* refused */
            r = silkrt_launch_and_synchronize("fill", ws + 1, ws, 2, args);
            check(t, i, "geometry", r, SILKRT_BAD_GEOMETRY, 0, geometry);
            break;
        case 1: /* CTA 1 stores past the buffer */
            r = silkrt_launch_and_synchronize("fill", 2 * ws, ws, 2, args);
            check(t, i, "fault", r, 0, SILKRT_KERNEL_FAULT, NULL);
            if (!strstr(silkrt_last_error().bytes, fault))
                wrong(t, i, "fault's text", r, fault);
            break;
        case 2: { /* runs: the buffer holds this dispatch's value */
            r = silkrt_launch_and_synchronize("fill", ws, ws, 2, args);
            check(t, i, "run", r, 0, 0, NULL);
            uint64_t got = 0;
            silkrt_buffer_download(b, (uint64_t)i % ws, &got, 8, "u64", NULL);
            if (got != value)
                wrong(t, i, "buffer", r, "its value");
            break;
        }
        default: /* the manual API: other tasks' launches come between */
            r.launch_status = silkrt_launch("fill", 2 * ws, ws, 2, args);
            r.synchronize_status = silkrt_synchronize();
            check(t, i, "manual fault", r, 0, SILKRT_KERNEL_FAULT, NULL);
            r.launch_status = silkrt_launch("fill", ws, ws, 2, args);
            r.synchronize_status = silkrt_synchronize();
            check(t, i, "manual run", r, 0, 0, NULL);
        }
    }
    silkrt_buffer_release(b, NULL);
}

/* What the GPU's double says of a refused launch and of a fault, set by
 * the child before its tasks start. */
static char refused[256], faulted[256];
/* On a fake: grid 7 is refused (719), grid 5 faults (700). */
static void gpu_task(void *closure)
{
    Task *t = closure;
    SilkBuffer b = silkrt_buffer_alloc(64 * 8);
    char geometry[256];
    uint64_t odd = 64 + 2 * (uint64_t)t->index + 1;
    snprintf(geometry, sizeof geometry, "SILKRT_BAD_GEOMETRY: kernel fill: a grid of %" PRIu64
             " work items is not divisible by the workspace of 2", odd);
    for (int i = 0; i < DISPATCHES; i++) {
        uint64_t args[2] = {b.address, (uint64_t)i};
        SilkDispatchResult r;
        switch (i % 4) {
        case 0:
            r = silkrt_launch_and_synchronize("fill", 7, 1, 2, args);
            check(t, i, "refused", r, 719, 0, refused);
            break;
        case 1:
            r = silkrt_launch_and_synchronize("fill", 5, 1, 2, args);
            check(t, i, "fault", r, 0, 700, faulted);
            break;
        case 2:
            r = silkrt_launch_and_synchronize("fill", odd, 2, 2, args);
            check(t, i, "geometry", r, SILKRT_BAD_GEOMETRY, 0, geometry);
            break;
        default:
            r = silkrt_launch_and_synchronize("fill", 64, 64, 2, args);
            check(t, i, "run", r, 0, 0, NULL);
        }
    }
    silkrt_buffer_release(b, NULL);
}

static void sixteen_tasks(void *arg)
{
    void (*body)(void *) = (void (*)(void *))(uintptr_t)arg;
    for (int i = 0; i < TASKS; i++) {
        tasks[i] = (Task){.index = i};
        silkrt_spawn(SILKRT_TASK, body, &tasks[i]);
    }
    silkrt_wait_tasks();
    int total = 0;
    for (int i = 0; i < TASKS; i++) {
        total += tasks[i].wrong;
        if (tasks[i].wrong)
            printf("%s\n", tasks[i].first);
    }
    printf("%d x %d dispatches: %d wrong\n", TASKS, DISPATCHES, total);
}

static void gpu_tasks(void *arg)
{
    const FixtureGpu *g = arg;
    snprintf(refused, sizeof refused, "%s: kernel fill: %s: unspecified launch failure", g->launch_failed,
             g->launch);
    snprintf(faulted, sizeof faulted, "%s: %s: an illegal memory access was encountered",
             g->illegal_address, g->synchronize);
    sixteen_tasks((void *)(uintptr_t)gpu_task);
}

/* Every fault's line is on stderr as it fires (8000 of them: what fits
 * in Child.err is checked), each whole: the runtime's lock keeps one
 * task's line from cutting into another's. */
static void assert_fault_lines(const char *err)
{
    static const char start[] = "fill.silk:3:5: kernel fill, CTA 1, thread 0: a store of 8 bytes at byte ";
    int lines = 0;
    for (const char *p = err; *p; lines++) {
        const char *end = strchr(p, '\n');
        if (!end)
            break; /* cut where Child.err ends */
        ck_assert_msg(strncmp(p, start, strlen(start)) == 0 && strncmp(end - 6, " bytes", 6) == 0,
                      "line %d: %.*s", lines, (int)(end - p), p);
        p = end + 1;
    }
    ck_assert_int_gt(lines, 100);
}

START_TEST(cpu_backend)
{
    static Child c;
    const char *const env[] = {"SILK_BACKEND=cpu", "SILK_TASK_WORKERS=16", NULL};
    child_run(&c, env, sixteen_tasks, (void *)(uintptr_t)cpu_task);
    ck_assert_int_eq(c.status, 0);
    ck_assert_str_eq(c.out, "16 x 1000 dispatches: 0 wrong\n");
    assert_fault_lines(c.err);
}
END_TEST

/* On each GPU's double (fixture_gpus). */
START_TEST(fake_gpu)
{
    static Child c;
    const FixtureGpu *g = &fixture_gpus[_i];
    char backend[64];
    snprintf(backend, sizeof backend, "SILK_BACKEND=%s", g->backend);
    const char *const extra[] = {backend, "SILK_TASK_WORKERS=16", fixture_knob(g, "FAIL_GRID=7:719"),
                                 fixture_knob(g, "FAULT_GRID=5:700"), NULL};
    child_run(&c, fixture_gpu_env(g, extra), gpu_tasks, (void *)(uintptr_t)g);
    ck_assert_int_eq(c.status, 0);
    ck_assert_str_eq(c.out, "16 x 1000 dispatches: 0 wrong\n");
    /* Every dispatch synchronized once; every launch the runtime let through reached the driver. */
    char line[256];
    const char *log = fixture_log(g, &c);
    snprintf(line, sizeof line, "call %s 16000\n", g->synchronize);
    ck_assert_msg(strstr(log, line), "%s", log);
    snprintf(line, sizeof line, "call %s 12000\n", g->launch);
    ck_assert_msg(strstr(log, line), "%s", log);
    ck_assert_msg(strstr(log, "launches 8000\n"), "%s", log); /* the 4000 refused not counted */
}
END_TEST

int main(void)
{
    Suite *s = suite_create("runtime_threads");
    TCase *t = tcase_create("sixteen_tasks");
    tcase_set_timeout(t, 300);
    tcase_add_test(t, cpu_backend);
    bool fakes = true;
    for (int i = 0; i < FIXTURE_GPUS; i++) {
        FILE *f = fopen(fixture_gpus[i].fake(), "rb");
        fakes = fakes && f;
        if (f)
            fclose(f);
    }
    if (fakes)
        tcase_add_loop_test(t, fake_gpu, 0, FIXTURE_GPUS);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
