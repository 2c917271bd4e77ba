/*
 * silkrt_tasks.c: async and task calls (silkrt_spawn) and wait_tasks.
 *
 * A task call runs on a worker of the task pool, tasks in parallel; the
 * pool grows a thread at a time, when a call is queued and no worker is
 * idle, up to SILK_TASK_WORKERS (1 to 4096; default: 16, or the number
 * of cores when that is more; any other value stops the program at the
 * first task call, exit status 70).  An async call runs on the one async thread, in
 * call order, one at a time.  Both go on in parallel with their caller.
 * The threads start at the first call of their kind and wait for work
 * until the process ends.
 *
 * Each call has a record until it and every call it started have
 * finished: `pending` is 1 while its body runs, plus its unfinished
 * calls, so wait_tasks inside a call waits for the calls it started,
 * and outside any call (in main) for every call started so far.  A call
 * that waits runs queued calls of its kind meanwhile, so waiting inside
 * tasks cannot use up the pool, nor an async call block the ones queued
 * behind it.  When no thread can be started, or no record allocated, the
 * call runs at once on the caller's thread: late, but never lost.
 *
 * The queues and counts are part of the runtime's state, under its lock;
 * the bodies run without it.
 */
#include "silkrt_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum { DEFAULT_WORKERS = 16, MAX_WORKERS = 4096 };

typedef struct SilkrtCall {
    void (*body)(void *closure);
    void *closure;
    int kind;                  /* SILKRT_ASYNC or SILKRT_TASK */
    struct SilkrtCall *parent; /* the call that started it; NULL: main or another thread */
    uint64_t pending;          /* 1 while its body runs, + its calls not yet settled */
    struct SilkrtCall *next;   /* in its queue */
} SilkrtCall;

static void push(SilkrtCall *c)
{
    SilkrtCall **q = silkrt_state.tasks.queue[c->kind];
    c->next = NULL;
    if (q[1])
        q[1]->next = c;
    else
        q[0] = c;
    q[1] = c;
    silkrt_state.tasks.queued[c->kind]++;
}

static SilkrtCall *pop(int kind)
{
    SilkrtCall **q = silkrt_state.tasks.queue[kind];
    SilkrtCall *c = q[0];
    if (c) {
        q[0] = c->next;
        if (!q[0])
            q[1] = NULL;
        silkrt_state.tasks.queued[kind]--;
    }
    return c;
}

/* One unit of `c` done (its body, or one of its calls): when nothing is
 * left, its record goes and its parent has one unit less. */
static void settle(SilkrtCall *c)
{
    while (c && --c->pending == 0) {
        SilkrtCall *parent = c->parent;
        free(c);
        c = parent;
    }
}

/* Runs `c` on this thread: called and returning with the lock held.  The
 * call starts with no last_error and no pending CPU fault, and whatever it
 * leaves is dropped, so that no call sees another's on a shared worker;
 * the thread's state before (a waiting call's) is put back after. */
static void run_call(SilkrtCall *c)
{
    SilkrtTasks *t = &silkrt_state.tasks;
    SilkrtThread *self = &silkrt_thread;
    SilkrtThread outer = *self;
    self->call = c;
    self->error[0] = '\0';
    self->error_len = 0;
    self->fault = 0;
    pthread_mutex_unlock(&silkrt_state.lock);
    c->body(c->closure);
    pthread_mutex_lock(&silkrt_state.lock);
    bool current = self->gpu_current; /* the device stays this thread's */
    *self = outer;
    self->gpu_current = current;
    t->outstanding--;
    settle(c);
    pthread_cond_broadcast(&t->done);
}

static void *worker(void *arg)
{
    SilkrtTasks *t = &silkrt_state.tasks;
    int kind = (int)(intptr_t)arg;
    pthread_mutex_lock(&silkrt_state.lock);
    for (;;) {
        SilkrtCall *c = pop(kind);
        if (c) {
            run_call(c);
            continue;
        }
        t->idle += kind == SILKRT_TASK;
        pthread_cond_wait(&t->work[kind], &silkrt_state.lock);
        t->idle -= kind == SILKRT_TASK;
    }
    return NULL;
}

static bool start_thread(int kind)
{
    pthread_t thread;
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0)
        return false;
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    bool ok = pthread_create(&thread, &attr, worker, (void *)(intptr_t)kind) == 0;
    pthread_attr_destroy(&attr);
    return ok;
}

/* `text` for a message: printable ASCII kept, other bytes as \xNN (the
 * environment's text is outside text), at most 64 bytes of it. */
static void printable(const char *text, char *buf, size_t size)
{
    size_t n = 0;
    for (size_t i = 0; text[i] && i < 64 && n + 5 < size; i++) {
        unsigned char c = (unsigned char)text[i];
        n += (size_t)snprintf(buf + n, size - n, c >= 0x20 && c < 0x7f ? "%c" : "\\x%02x", c);
    }
    buf[n] = '\0';
}

/* SILK_TASK_WORKERS, else the default.  A value that is no count is a
 * misuse: the pool's size cannot be a status of some call, and a typo
 * silently ignored would run the program with another pool than asked. */
static uint32_t max_workers(void)
{
    const char *v = getenv("SILK_TASK_WORKERS");
    if (v && *v) {
        char *end;
        long n = strtol(v, &end, 10);
        if (*end == '\0' && n >= 1 && n <= MAX_WORKERS && (v[0] >= '0' && v[0] <= '9'))
            return (uint32_t)n;
        char shown[64 * 4 + 1];
        printable(v, shown, sizeof shown);
        silkrt_misuse(NULL, "SILK_TASK_WORKERS=%s is not a number of task workers (1 to %d)", shown,
                      MAX_WORKERS);
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores > DEFAULT_WORKERS ? (uint32_t)cores : DEFAULT_WORKERS;
}

/* A thread for a call of `kind` just queued, when one is needed and can
 * be had; false when there is none at all. */
static bool enough_threads(int kind, uint64_t queued)
{
    SilkrtTasks *t = &silkrt_state.tasks;
    if (kind == SILKRT_ASYNC) {
        if (!t->async_started)
            t->async_started = start_thread(SILKRT_ASYNC);
        return t->async_started;
    }
    if (!t->max_workers)
        t->max_workers = max_workers();
    if (queued > t->idle && t->workers < t->max_workers && start_thread(SILKRT_TASK))
        t->workers++;
    return t->workers > 0;
}

void silkrt_spawn(int kind, void (*body)(void *closure), void *closure)
{
    SilkrtTasks *t = &silkrt_state.tasks;
    kind = kind == SILKRT_ASYNC ? SILKRT_ASYNC : SILKRT_TASK;
    SilkrtCall *c = malloc(sizeof *c);
    pthread_mutex_lock(&silkrt_state.lock);
    if (!c || !enough_threads(kind, t->queued[kind] + 1)) {
        pthread_mutex_unlock(&silkrt_state.lock);
        free(c);
        body(closure); /* no thread to run it: at once, here */
        return;
    }
    *c = (SilkrtCall){.body = body, .closure = closure, .kind = kind,
                      .parent = silkrt_thread.call, .pending = 1};
    if (c->parent)
        c->parent->pending++;
    t->outstanding++;
    push(c);
    pthread_cond_signal(&t->work[kind]);
    pthread_cond_broadcast(&t->done); /* a waiting call may run it */
    pthread_mutex_unlock(&silkrt_state.lock);
}

void silkrt_wait_tasks(void)
{
    SilkrtTasks *t = &silkrt_state.tasks;
    pthread_mutex_lock(&silkrt_state.lock);
    SilkrtCall *self = silkrt_thread.call;
    while (self ? self->pending > 1 : t->outstanding > 0) {
        SilkrtCall *c = self ? pop(self->kind) : NULL;
        if (c)
            run_call(c);
        else
            pthread_cond_wait(&t->done, &silkrt_state.lock);
    }
    pthread_mutex_unlock(&silkrt_state.lock);
}
