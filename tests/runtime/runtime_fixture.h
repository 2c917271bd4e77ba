/*
 * runtime_fixture.h: what the runtime's tests share: a program written by
 * hand (its kernels' CPU-backend steps in C, as cpu_emit.c would write
 * them, and PTX that the test double of the driver reads), and a child
 * process to run a scenario in, with its environment, its exit status
 * and what it wrote.
 *
 * The runtime chooses its backend once per process and a misuse ends the
 * process, so each scenario runs in a child of its own.
 */
#ifndef RUNTIME_FIXTURE_H
#define RUNTIME_FIXTURE_H

#include "silkrt.h"

#include <stddef.h>

/* The program: kernels
 *   fill(out, value)    out[gid] = value (u64), any CTA size, its store checked;
 *                       the check's site is fill.silk:3:5
 *   fixed()             CTAs of 128 threads; does nothing
 *   persist(out)        @persistent, @launch(64), 2 resident CTAs per SM: thread 0
 *                       of each CTA writes nctaid into out[cta] for each logical cta
 *   empty()             does nothing, any CTA size
 *   ghost()             in the table and the PTX, not in the CPU module
 * with PTX for sm_75 and sm_90, code objects for gfx90a and gfx942 (the
 * test double of HIP's form), and 4 SMs on the CPU backend. */
extern const SilkrtProgram fixture_program;

/* A child's run. */
typedef struct Child {
    int status;         /* its exit status; 128 + N for signal N */
    char out[65536];    /* its standard output */
    char err[65536];    /* its standard error */
    char log[16384];    /* the fake driver's log (FAKE_CUDA_LOG), "" if none */
    char hip_log[16384]; /* the fake HIP's (FAKE_HIP_LOG), "" if none */
} Child;

/* Runs body(arg) in a child with `env` ("NAME=VALUE" strings, NULL-ended;
 * "NAME=" unsets NAME), SILK_*, FAKE_CUDA_* and FAKE_HIP_* cleared first; the child
 * registers fixture_program unless `unregistered`, and exits 0 after the
 * body (exit(), so the fake driver writes its log). */
void child_run(Child *c, const char *const *env, void (*body)(void *), void *arg);

/* The test double of the driver: $FAKE_CUDA, else the build tree's. */
const char *fixture_fake_cuda(void);

/* The test double of HIP: $FAKE_HIP, else the build tree's. */
const char *fixture_fake_hip(void);

/* fixture_program's registration skipped by the next child_run. */
extern int fixture_unregistered;

/* A GPU backend as its test double shows it: each driver's names for the
 * same things, so that one test runs over both (check_runtime_gpu.c,
 * check_runtime_threads.c). */
typedef struct FixtureGpu {
    const char *backend;        /* SILK_BACKEND's name: "cuda", "hip" */
    const char *library;        /* the variable naming its library: "SILK_CUDA_LIBRARY" */
    const char *(*fake)(void);  /* the test double's path */
    const char *knob;           /* the double's settings' prefix: "FAKE_CUDA_" */
    const char *units;          /* its setting of the multiprocessors: "SMS" */
    size_t log;                 /* offsetof(Child, the double's log) */
    /* The entry points. */
    const char *init, *use, *load, *occupancy, *alloc, *upload, *download, *launch, *synchronize;
    const char *opened;         /* the log's line for device 0 opened */
    /* The driver's names for codes 719, 700, 701, 999, 2 and 100, and for one it has no name for. */
    const char *launch_failed, *illegal_address, *out_of_resources, *unknown, *out_of_memory,
        *no_device, *unnamed;
    const char *use_failed;     /* last_error when `use` fails with 101 as device 0 opens */
    /* Its statuses' words (gpu_status.def). */
    const char *no_driver_words, *no_device_words;
    /* Without a library, or a device. */
    const char *missing;        /* a library path that is not there */
    const char *defaults[4];    /* the names it loads without `library`, NULL-ended */
    const char *defaults_missing; /* what it says when none of those opens */
    const char *zero_devices;   /* what it says with no device */
    /* The images: what it loads by default, on an older device, on none. */
    const char *device_line;    /* the SILK_VERBOSE line's device ("Fake CUDA device (sm_90, 132 SMs)") */
    const char *target;         /* the image it loads: "sm_90" */
    const char *older, *older_target; /* a setting for an older device, and the image it loads */
    const char *other;          /* a setting for a device the program has no image for */
    const char *none;           /* then every launch's last_error */
    const char *without;        /* a program with no image for it: every launch's last_error */
    /* Every image refused: the settings, the loads tried, every launch's last_error. */
    const char *refuse[3];
    int refused_loads;
    const char *refused;
} FixtureGpu;

/* CUDA's and HIP's, in the order SILK_BACKEND=auto tries them. */
enum { FIXTURE_GPUS = 2 };
extern const FixtureGpu fixture_gpus[FIXTURE_GPUS];

/* The double's log of `c`. */
const char *fixture_log(const FixtureGpu *g, const Child *c);

/* "FAKE_CUDA_" and printf(fmt, ...): one of a few buffers that are used
 * in turn, for a child's environment. */
const char *fixture_knob(const FixtureGpu *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A child's environment for GPU g: its double loaded, each GPU auto
 * tries before it absent, then `extra` (NULL-ended).  Static: good until
 * the next call. */
const char *const *fixture_gpu_env(const FixtureGpu *g, const char *const *extra);

#endif
