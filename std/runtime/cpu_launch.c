/*
 * cpu_launch.c: the CPU backend's executor (cpu_launch.h): one launch
 * run to its end.
 *
 * A launch's CTAs are handed out to worker threads through one atomic
 * counter; each worker runs its CTA's threads one at a time, each to its
 * next stop (cpu_abi.h), round after round:
 *   - a warp whose lanes all wait at the same collective gets its result
 *     (shfl.sync and vote.ballot with every lane, as PTX defines them) and
 *     runs on;
 *   - when every thread waits at the same barrier, all go on together;
 *   - anything else is a fault of the kernel: threads waiting at different
 *     barriers, a barrier some thread exited without reaching, or a
 *     collective some lanes of the warp never reach.
 * A fault stops the launch with one line naming the source location, the
 * kernel, the CTA and the threads.  Shared memory is zeroed for each CTA,
 * so a run is deterministic.
 *
 * A module built for race checks (silkc exec --race) tracks each shared
 * access in a shadow of the CTA's shared memory (cpu_abi.h's
 * SilkCpuShadow, cpu_prelude.h's silk_shared_track): the worker allocates
 * it once, clears it for each CTA and advances its epoch at each barrier
 * it releases, so that two accesses in one epoch are two with no barrier
 * between them.
 */
#include "cpu_launch.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- one launch ---------------------------------------------------------------------- */

/* Why a thread is not running. */
enum { RUNNABLE = -1 }; /* else a SILK_CPU_ status */

typedef struct Launch {
    const SilkCpuKernel *kernel;
    const CpuLaunch *launch;
    uint64_t next_cta;     /* atomic: the next CTA to hand out */
    int failed;            /* atomic: a fault stops the launch */
    pthread_mutex_t lock;  /* for the first fault's message */
    char *error;
    size_t size;
} Launch;

typedef struct Worker {
    Launch *run;
    SilkCpuThread *threads;
    int *state;
    uint64_t *regs;
    unsigned char *shared;
    uint64_t shared_size;
    SilkCpuRace race;      /* the race checks' shadow (kernel->race_checks) */
} Worker;

static void fault(Worker *w, const SilkCpuCta *cta, const SilkCpuThread *t, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The first fault of the launch, as "FILE:LINE:COL: kernel K, CTA C,
 * thread T: WHAT". */
static void fault(Worker *w, const SilkCpuCta *cta, const SilkCpuThread *t, const char *fmt, ...)
{
    Launch *run = w->run;
    pthread_mutex_lock(&run->lock);
    if (!run->failed) {
        const SilkCpuSite *site = &run->kernel->sites[t->site];
        int used = snprintf(run->error, run->size, "%s:%" PRIu32 ":%" PRIu32 ": kernel %s, CTA %" PRIu32
                                                   ", thread %" PRIu32 ": ",
                            site->file, site->line, site->col, run->kernel->name, cta->ctaid, t->tid);
        va_list ap;
        va_start(ap, fmt);
        if (used >= 0 && (size_t)used < run->size)
            vsnprintf(run->error + used, run->size - (size_t)used, fmt, ap);
        va_end(ap);
        __atomic_store_n(&run->failed, 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&run->lock);
}

/* The source lane of `lane` for a shuffle (PTX ISA, shfl.sync, with no
 * segment mask and the clamp the PTX backend gives: 0 for up, else 31). */
static uint32_t source_lane(uint32_t mode, uint32_t lane, uint32_t b)
{
    int j;
    bool in_range;
    b &= 31;
    switch (mode) {
    case 0: j = (int)(lane + b); in_range = j <= 31; break;  /* down */
    case 1: j = (int)lane - (int)b; in_range = j >= 0; break; /* up */
    case 2: j = (int)(lane ^ b); in_range = j <= 31; break;  /* bfly */
    default: j = (int)b; in_range = true; break;             /* idx */
    }
    return in_range ? (uint32_t)j : lane;
}

/* The collective the n lanes from `first` wait at, computed. */
static void collect(Worker *w, uint32_t first, uint32_t n)
{
    SilkCpuThread *lanes = &w->threads[first];
    if (w->state[first] == SILK_CPU_AT_BALLOT) {
        uint32_t mask = 0;
        for (uint32_t i = 0; i < n; i++)
            mask |= (lanes[i].operand[0] & 1) ? UINT32_C(1) << i : 0;
        for (uint32_t i = 0; i < n; i++)
            lanes[i].result = mask;
    } else {
        for (uint32_t i = 0; i < n; i++) {
            uint32_t j = source_lane(lanes[i].shuffle_mode, i, (uint32_t)lanes[i].operand[1]);
            lanes[i].result = lanes[j < n ? j : i].operand[0];
        }
    }
    for (uint32_t i = 0; i < n; i++)
        w->state[first + i] = RUNNABLE;
}

/* A warp's lanes at a collective: computed when all wait at the same one;
 * a fault when some wait elsewhere or have exited.  Returns whether the
 * warp runs on. */
static bool warp_collective(Worker *w, const SilkCpuCta *cta, uint32_t first, uint32_t n)
{
    const SilkCpuThread *waiting = NULL;
    for (uint32_t i = first; i < first + n && !waiting; i++)
        if (w->state[i] == SILK_CPU_AT_SHUFFLE || w->state[i] == SILK_CPU_AT_BALLOT)
            waiting = &w->threads[i];
    if (!waiting)
        return false;
    for (uint32_t i = first; i < first + n; i++) {
        const SilkCpuThread *t = &w->threads[i];
        if (w->state[i] == SILK_CPU_EXITED) {
            fault(w, cta, waiting, "a warp collective that lane %" PRIu32 " (thread %" PRIu32
                                   ") never reaches: it has exited", i - first, t->tid);
            return false;
        }
        if (w->state[i] == SILK_CPU_AT_BARRIER || t->site != waiting->site) {
            const SilkCpuSite *s = &w->run->kernel->sites[t->site];
            fault(w, cta, waiting, "a warp collective that lane %" PRIu32 " (thread %" PRIu32
                                   ") never reaches: it waits at %s:%" PRIu32 ":%" PRIu32,
                  i - first, t->tid, s->file, s->line, s->col);
            return false;
        }
    }
    collect(w, first, n);
    return true;
}

static bool unwritten_read(Worker *w, const SilkCpuCta *cta);

/* Every thread that has not exited waits at a barrier: the same one
 * releases them all.  Two different ones are a fault, and so is one
 * that a thread exited without reaching: CUDA's rule is that a barrier
 * in conditional code needs a condition uniform across the CTA, and a
 * GPU that counts exited threads as arrived hides the bug. */
static bool barrier(Worker *w, const SilkCpuCta *cta)
{
    const SilkCpuThread *first = NULL, *exited = NULL;
    for (uint32_t i = 0; i < cta->ntid; i++) {
        const SilkCpuThread *t = &w->threads[i];
        if (w->state[i] == SILK_CPU_EXITED) {
            exited = exited ? exited : t;
        } else if (!first) {
            first = t;
        } else if (t->site != first->site) {
            const SilkCpuSite *s = &w->run->kernel->sites[t->site];
            fault(w, cta, first, "a barrier not reached by every thread: thread %" PRIu32
                                 " waits at %s:%" PRIu32 ":%" PRIu32 " instead",
                  t->tid, s->file, s->line, s->col);
            return false;
        }
    }
    if (first && exited) {
        fault(w, cta, first, "a barrier not reached by every thread: thread %" PRIu32 " has exited",
              exited->tid);
        return false;
    }
    if (unwritten_read(w, cta))
        return false;
    for (uint32_t i = 0; i < cta->ntid; i++)
        if (w->state[i] == SILK_CPU_AT_BARRIER)
            w->state[i] = RUNNABLE;
    w->race.epoch++; /* what comes after the barrier is ordered after what came before */
    return first != NULL;
}

/* The buffer holding the most bytes below `a`: its index, or -1. */
static int nearest_buffer(const SilkCpuCta *cta, uint64_t a)
{
    int best = -1;
    for (uint32_t i = 0; i < cta->n_buffers; i++)
        if (cta->buffers[i][0] <= a && (best < 0 || cta->buffers[i][0] > cta->buffers[best][0]))
            best = (int)i;
    return best;
}

/* A thread's access outside the memory it may touch: the address, and
 * where it lies against the buffers or the shared memory. */
static void bad_access(Worker *w, const SilkCpuCta *cta, const SilkCpuThread *t, int why)
{
    uint64_t a = t->operand[0], bytes = t->operand[1] & 0xffffffffu;
    const char *what = t->operand[1] >> 32 ? "store" : "load";
    if (why == SILK_CPU_BAD_INDEX) {
        const SilkCpuSite *s = &w->run->kernel->sites[t->site];
        fault(w, cta, t, "index %" PRId64 " of %s is out of its extent %" PRIu64 " (dimension %" PRIu32
                         ")", (int64_t)a, s->array, t->operand[1], s->dim + 1);
        return;
    }
    if (why == SILK_CPU_BAD_SHARED) {
        fault(w, cta, t, "a shared-memory %s of %" PRIu64 " bytes at offset %" PRIu64
                         ", past the CTA's %" PRIu64 " bytes of shared memory",
              what, bytes, a, cta->shared_size);
        return;
    }
    int b = nearest_buffer(cta, a);
    if (b < 0)
        fault(w, cta, t, "a %s of %" PRIu64 " bytes at 0x%" PRIx64 ", outside every buffer", what,
              bytes, a);
    else
        fault(w, cta, t, "a %s of %" PRIu64 " bytes at byte %" PRIu64 " of buffer %d, which has %"
                         PRIu64 " bytes",
              what, bytes, a - cta->buffers[b][0], b + 1, cta->buffers[b][1]);
}

/* Where shared offset `a` lies: "byte B of shared array NAME" (the
 * kernel's prefix of the IR's name left out) or of the dynamic part. */
static void shared_place(const SilkCpuKernel *k, uint64_t a, char *buf, size_t size)
{
    const SilkCpuArray *in = NULL;
    for (uint32_t i = 0; i < k->n_arrays; i++)
        if (a >= k->arrays[i].offset && a - k->arrays[i].offset < k->arrays[i].bytes)
            in = &k->arrays[i];
    if (!in) {
        snprintf(buf, size, "byte %" PRIu64 " of dynamic shared memory", a - k->static_shared);
        return;
    }
    size_t len = strlen(k->name);
    const char *name = strncmp(in->name, k->name, len) == 0 && in->name[len] == '_'
                           ? in->name + len + 1 : in->name;
    snprintf(buf, size, "byte %" PRIu64 " of shared array %s", a - in->offset, name);
}

static const char *access_name(uint64_t kind)
{
    return kind == SILK_CPU_LOAD ? "load" : kind == SILK_CPU_STORE ? "store" : "atomic";
}

/* A finding of the race checks (cpu_prelude.h's silk_shared_track), or a
 * var read before it is assigned. */
static void race_fault(Worker *w, const SilkCpuCta *cta, const SilkCpuThread *t, int why)
{
    const SilkCpuKernel *k = w->run->kernel;
    if (why == SILK_CPU_UNASSIGNED) {
        fault(w, cta, t, "%s is read before it is assigned", k->sites[t->site].array);
        return;
    }
    char place[256];
    uint64_t a = t->operand[0], bytes = t->operand[1] & 0xffffffffu, kind = t->operand[1] >> 32;
    shared_place(k, a, place, sizeof place);
    if (why == SILK_CPU_UNWRITTEN) {
        fault(w, cta, t, "a shared-memory %s of %" PRIu64 " bytes at %s, which no thread of "
                         "this CTA has written", access_name(kind), bytes, place);
        return;
    }
    const SilkCpuRace *r = &w->race;
    const SilkCpuSite *other = &k->sites[r->other_site];
    fault(w, cta, t, "a shared-memory %s of %" PRIu64 " bytes at %s races with the %s by thread %"
                     PRIu32 " at %s:%" PRIu32 ":%" PRIu32 " (no barrier between them)",
          access_name(kind), bytes, place, access_name(r->other_kind), r->other_thread,
          other->file, other->line, other->col);
}

/* The epoch ends (a barrier, the CTA's end) with no race found: its
 * first read of bytes never written, if any, is reported now.  Returns
 * whether it was. */
static bool unwritten_read(Worker *w, const SilkCpuCta *cta)
{
    SilkCpuRace *r = &w->race;
    if (!r->shadow || r->unwritten_thread == SILK_CPU_NO_THREAD)
        return false;
    SilkCpuThread t = {.tid = r->unwritten_thread, .site = r->unwritten_site,
                       .operand = {r->unwritten_offset,
                                   r->unwritten_bytes | (uint64_t)r->unwritten_kind << 32}};
    race_fault(w, cta, &t, SILK_CPU_UNWRITTEN);
    return true;
}

/* One round: every runnable thread to its next stop.  Returns how many
 * have not exited, or 0 after a fault. */
static uint32_t round_of_steps(Worker *w, const SilkCpuCta *cta)
{
    uint32_t live = 0;
    for (uint32_t i = 0; i < cta->ntid; i++) {
        if (w->state[i] == RUNNABLE)
            w->state[i] = w->run->kernel->step(cta, &w->threads[i]);
        if (w->state[i] == SILK_CPU_BAD_GLOBAL || w->state[i] == SILK_CPU_BAD_SHARED ||
            w->state[i] == SILK_CPU_BAD_INDEX) {
            bad_access(w, cta, &w->threads[i], w->state[i]);
            return 0;
        }
        if (w->state[i] == SILK_CPU_RACE || w->state[i] == SILK_CPU_UNWRITTEN ||
            w->state[i] == SILK_CPU_UNASSIGNED) {
            race_fault(w, cta, &w->threads[i], w->state[i]);
            return 0;
        }
        live += w->state[i] != SILK_CPU_EXITED;
    }
    return live;
}

/* Whether any warp ran on from a collective. */
static bool collectives(Worker *w, const SilkCpuCta *cta, bool *faulted)
{
    bool any = false;
    for (uint32_t first = 0; first < cta->ntid && !*faulted; first += 32) {
        uint32_t n = cta->ntid - first < 32 ? cta->ntid - first : 32;
        any |= warp_collective(w, cta, first, n);
        *faulted = __atomic_load_n(&w->run->failed, __ATOMIC_ACQUIRE);
    }
    return any;
}

static void run_cta(Worker *w, uint32_t ctaid)
{
    const CpuLaunch *l = w->run->launch;
    const SilkCpuCta cta = {.ctaid = ctaid, .nctaid = (uint32_t)l->ctas, .ntid = l->threads,
                            .nsmid = l->sms, .shared = w->shared, .shared_size = w->shared_size,
                            .params = l->params, .buffers = l->buffers, .n_buffers = l->n_buffers,
                            .race = &w->race};
    memset(w->shared, 0, w->shared_size);
    if (w->race.shadow) { /* nothing written or read yet */
        memset(w->race.shadow, 0, w->shared_size * sizeof *w->race.shadow);
        w->race.epoch = 1;
        w->race.unwritten_thread = SILK_CPU_NO_THREAD;
    }
    for (uint32_t i = 0; i < l->threads; i++) {
        w->threads[i] = (SilkCpuThread){.tid = i, .regs = w->regs + (size_t)i * w->run->kernel->n_regs};
        w->state[i] = RUNNABLE;
    }
    bool faulted = false;
    uint32_t live = 0;
    while (!faulted && (live = round_of_steps(w, &cta)) > 0) {
        if (!collectives(w, &cta, &faulted) && !faulted && !barrier(w, &cta))
            break;
        faulted = __atomic_load_n(&w->run->failed, __ATOMIC_ACQUIRE);
    }
    if (!faulted && live == 0 && !__atomic_load_n(&w->run->failed, __ATOMIC_ACQUIRE))
        unwritten_read(w, &cta); /* the last epoch ends with the CTA */
}

static void *work(void *arg)
{
    Worker *w = arg;
    Launch *run = w->run;
    for (;;) {
        uint64_t cta = __atomic_fetch_add(&run->next_cta, 1, __ATOMIC_RELAXED);
        if (cta >= run->launch->ctas || __atomic_load_n(&run->failed, __ATOMIC_ACQUIRE))
            return NULL;
        run_cta(w, (uint32_t)cta);
    }
}

/* A worker's memory, allocated once for all its CTAs: nothing is
 * allocated per thread step. */
static bool worker_init(Worker *w, Launch *run)
{
    const CpuLaunch *l = run->launch;
    size_t n = l->threads;
    *w = (Worker){.run = run, .shared_size = run->kernel->static_shared + l->dynamic_shared};
    w->threads = calloc(n, sizeof *w->threads);
    w->state = calloc(n, sizeof *w->state);
    w->regs = calloc(n * (run->kernel->n_regs + 1), sizeof *w->regs);
    w->shared = calloc(w->shared_size + 16, 1);
    if (run->kernel->race_checks)
        w->race.shadow = calloc(w->shared_size + 1, sizeof *w->race.shadow);
    return w->threads && w->state && w->regs && w->shared &&
           (w->race.shadow || !run->kernel->race_checks);
}

static void worker_free(Worker *w)
{
    free(w->threads);
    free(w->state);
    free(w->regs);
    free(w->shared);
    free(w->race.shadow);
}

static int worker_count(const CpuLaunch *l)
{
    long cores = l->workers > 0 ? l->workers : sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1)
        cores = 1;
    return (int)((uint64_t)cores < l->ctas ? (uint64_t)cores : l->ctas);
}

CpuLaunchStatus cpu_launch_run(const SilkCpuKernel *kernel, const CpuLaunch *launch, char *error,
                               size_t size)
{
    if (launch->ctas == 0 || launch->ctas > UINT32_MAX || launch->threads == 0 ||
        launch->threads > 1024) {
        snprintf(error, size, "kernel %s: a grid of %" PRIu64 " CTAs of %" PRIu32 " threads cannot run",
                 kernel->name, launch->ctas, launch->threads);
        return CPU_LAUNCH_GEOMETRY;
    }
    Launch run = {.kernel = kernel, .launch = launch, .error = error, .size = size};
    pthread_mutex_init(&run.lock, NULL);
    int n = worker_count(launch), allocated = n;
    Worker *workers = calloc((size_t)n, sizeof *workers);
    pthread_t *threads = calloc((size_t)n, sizeof *threads);
    bool ok = workers && threads;
    for (int i = 0; ok && i < n; i++)
        ok = worker_init(&workers[i], &run);
    /* Worker 0 runs on this thread; the others on their own. */
    for (int i = 1; ok && i < n; i++)
        if (pthread_create(&threads[i], NULL, work, &workers[i]) != 0)
            n = i; /* run with fewer */
    if (ok)
        work(&workers[0]);
    for (int i = 1; ok && i < n; i++)
        pthread_join(threads[i], NULL);
    for (int i = 0; workers && i < allocated; i++)
        worker_free(&workers[i]);
    free(workers);
    free(threads);
    pthread_mutex_destroy(&run.lock);
    if (!ok) {
        snprintf(error, size, "kernel %s: out of memory for %d workers", kernel->name, n);
        return CPU_LAUNCH_NO_MEMORY;
    }
    return run.failed ? CPU_LAUNCH_FAULT : CPU_LAUNCH_OK;
}

bool cpu_launch(const SilkCpuKernel *kernel, const CpuLaunch *launch, char *error, size_t size)
{
    return cpu_launch_run(kernel, launch, error, size) == CPU_LAUNCH_OK;
}
