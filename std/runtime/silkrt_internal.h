/*
 * silkrt_internal.h: what the runtime's files share (silkrt.h is the
 * public side): the one state, guarded by the one lock; the backend
 * interface the CPU and GPU adapters implement; this thread's state
 * (last_error, a CPU launch's fault waiting for its synchronize, the
 * call it runs); and the helpers every file uses to fail, to stop the
 * program for a misuse, and to write SILK_VERBOSE lines.
 *
 * The files, one job each: silkrt_state.c (the lock, registration, the
 * backend chosen), silkrt_error.c (statuses, last_error, the misuse
 * stop, verbose lines), silkrt_dispatch.c (launches, their geometry and
 * argument checks, @persistent sizing, synchronize), silkrt_buffer.c
 * (Buffer and the tables of live and released buffers), silkrt_cpu.c
 * (the CPU backend), silkrt_gpu.c (the GPU backend, over the driver
 * table of gpu_driver.h that cuda_driver.c and hip_driver.c fill),
 * silkrt_module.c (the program's image the GPU backend loads),
 * silkrt_tasks.c (async and task calls), silkrt_print.c (print),
 * silkrt_main.c (the program's main).
 */
#ifndef SILKRT_INTERNAL_H
#define SILKRT_INTERNAL_H

#include "silkrt.h"

#include "gpu_driver.h"

#include <pthread.h>
#include <stddef.h>

/* A backend: what the runtime asks of the device.  Each call is made
 * with the lock held and returns a status; one that is not 0 comes with
 * this thread's last_error set. */
typedef struct SilkrtBackend {
    const char *name;         /* "cpu", "gpu" (which GPU: its driver's backend name) */
    int32_t (*alloc)(uint64_t bytes, uint64_t *address);
    int32_t (*release)(uint64_t address);
    int32_t (*upload)(uint64_t to, const void *from, uint64_t bytes);
    int32_t (*download)(void *to, uint64_t from, uint64_t bytes);
    /* Kernel k of the program ready to launch: its module loaded, it found there. */
    int32_t (*prepare)(uint32_t k);
    /* The CTAs of `threads` threads of kernel k that the device holds at once. */
    int32_t (*resident)(uint32_t k, uint32_t threads, uint64_t *ctas);
    /* `ctas` CTAs of `threads`; `params` holds the kernel's n parameters. */
    int32_t (*launch)(uint32_t k, uint64_t ctas, uint32_t threads, const uint64_t *params, uint32_t n);
    int32_t (*synchronize)(void);
} SilkrtBackend;

extern const SilkrtBackend silkrt_backend_cpu, silkrt_backend_gpu;

/* The GPU backend's state: its driver, the device and the module. */
typedef struct SilkrtGpu {
    const GpudrvDriver *driver; /* CUDA's or HIP's, the last opened */
    GpudrvDevice device;
    GpudrvModule module;
    int module_state;         /* 0: not tried; 1: loaded; -1: none could be */
    int32_t module_status;    /* -1: the status of every launch */
    char module_error[1024];  /* and its last_error */
    const char *arch;         /* the target of the image loaded */
} SilkrtGpu;

/* What the runtime keeps of each kernel of the program. */
typedef struct SilkrtKernelState {
    const struct SilkCpuKernel *cpu; /* the CPU module's, once found */
    GpudrvKernel gpu;         /* the GPU module's, once found */
    bool ready;               /* prepared by the backend in use */
    uint32_t resident_threads; /* the last @persistent question asked */
    uint64_t resident_ctas;   /* and its answer */
} SilkrtKernelState;

/* The live buffers and the released ones, each sorted by address, so that
 * a lookup is a binary search and the CPU backend gets `live` as it is
 * (CpuLaunch.buffers: address and bytes). */
typedef struct SilkrtBuffers {
    uint64_t (*live)[2];
    uint32_t n_live, cap_live;
    uint64_t *released;       /* addresses released and not allocated again since */
    uint32_t n_released, cap_released;
    char alloc_failed[1024];  /* the last failed alloc's last_error: why {0, 0} holds nothing */
} SilkrtBuffers;

struct SilkrtCall;

/* The async executor and the task pool (silkrt_tasks.c). */
typedef struct SilkrtTasks {
    struct SilkrtCall *queue[2][2]; /* [SILKRT_ASYNC or SILKRT_TASK]: head, tail */
    uint64_t queued[2];       /* their lengths */
    uint64_t outstanding;     /* calls started and not finished */
    uint32_t workers, idle, max_workers; /* the task pool's threads */
    bool async_started;
    pthread_cond_t work[2];   /* a call queued, per kind */
    pthread_cond_t done;      /* a call finished */
} SilkrtTasks;

/* The runtime: one per process, every field guarded by `lock` (style.md:
 * the runtime's state and its lock are the one mutable global). */
typedef struct SilkrtState {
    pthread_mutex_t lock;
    const SilkrtProgram *program;
    SilkrtKernelState *kernels; /* one per program kernel */
    bool chosen;              /* the backend has been chosen (at the first use) */
    const SilkrtBackend *backend; /* NULL: none usable, every operation fails */
    const char *backend_name; /* silkrt_backend()'s: "cpu", "cuda", "hip", "none" */
    int32_t unusable;         /* with no backend: the status each operation gives */
    char unusable_why[768];   /* and its last_error */
    bool verbose;             /* SILK_VERBOSE=1 */
    int cpu_workers;          /* the CPU backend's: the online cores, counted once
                               * (sysconf costs ~13 us, more than an empty launch) */
    SilkrtBuffers buffers;
    SilkrtGpu gpu;
    SilkrtTasks tasks;
} SilkrtState;

extern SilkrtState silkrt_state;

/* This thread's part. */
typedef struct SilkrtThread {
    char error[4096];         /* last_error */
    uint64_t error_len;
    int32_t fault;            /* a CPU launch's KERNEL_FAULT, for the next synchronize; 0: none */
    char fault_text[2048];
    struct SilkrtCall *call;  /* the async or task call running here; NULL: none */
    bool gpu_current;         /* the GPU device is this thread's (CUDA: its context current) */
} SilkrtThread;

extern _Thread_local SilkrtThread silkrt_thread;

/* silkrt_state.c: the lock taken, the backend chosen if it was not yet. */
void silkrt_enter(void);
void silkrt_leave(void);

/* The index of kernel `name` in the program, or UINT32_MAX. */
uint32_t silkrt_kernel_find(const char *name);

/* silkrt_error.c: "SILKRT_NAME" of a runtime status, NULL for others. */
const char *silkrt_status_name(int32_t status);

/* Sets this thread's last_error to "SILKRT_NAME: TEXT"; returns status. */
int32_t silkrt_fail(int32_t status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Sets it to TEXT as it is (a driver's status, named by the caller). */
int32_t silkrt_fail_text(int32_t status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A misuse: "FILE:LINE:COL: TEXT" (or "silkrt: TEXT" without a site) on
 * stderr, standard output flushed, and the process ends with
 * SILKRT_EXIT_MISUSE.  Called with the lock held, so that nothing else
 * of the runtime runs meanwhile. */
_Noreturn void silkrt_misuse(const SilkSite *site, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A SILK_VERBOSE line, "silkrt: TEXT", on stderr when verbose. */
void silkrt_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* silkrt_buffer.c: whether `address` is a live buffer's (its bytes in
 * *bytes), or a released buffer's. */
bool silkrt_buffers_live(uint64_t address, uint64_t *bytes);
bool silkrt_buffers_released(uint64_t address);

/* silkrt_gpu.c: opens device 0 of `driver` for the GPU backend: 0, or
 * the status why not (NO_DRIVER, NO_DEVICE, or the driver's code, whose
 * name is put in `name`; else "") with the reason in `why`. */
int32_t silkrt_gpu_open(const GpudrvDriver *driver, char *name, size_t name_size, char *why,
                        size_t size);

/* `e` as this thread's last_error; the status: the driver's own code, or
 * the runtime's when the driver was not reached.  `what` says what was
 * being done ("kernel fill", "Buffer.alloc"), or is NULL. */
int32_t silkrt_gpu_fail(const GpudrvError *e, const char *what);

/* silkrt_module.c: kernel k of the program found in the GPU module, which
 * is loaded at the first call. */
int32_t silkrt_module_kernel(uint32_t k, GpudrvKernel *kernel);

#endif
