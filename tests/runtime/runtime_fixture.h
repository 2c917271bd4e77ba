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

#endif
