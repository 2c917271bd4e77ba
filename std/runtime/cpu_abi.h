/*
 * cpu_abi.h: the contract between the C the CPU backend generates
 * (cpu_emit.c) and the executor that runs it (cpu_exec.c).  The generated
 * translation unit starts with a copy of this file (embedded at build
 * time), so both sides are compiled from one text.
 *
 * A kernel becomes one C function, a thread's step: it runs one thread
 * from where it stopped to its next barrier or warp collective (shuffle,
 * ballot), saves the registers live across that stop and returns why it
 * stopped; the executor resumes every thread of the CTA in turn, as a GPU
 * would between barriers, and computes a warp's collective once all its
 * lanes wait at it.  Registers are C locals between two stops, so a
 * kernel without barriers runs as plain compiled C.
 */
#ifndef SILK_CPU_ABI_H
#define SILK_CPU_ABI_H

#include <stdint.h>

#define SILK_CPU_ABI_VERSION 5u
/* The symbol every generated module defines: a SilkCpuModule. */
#define SILK_CPU_MODULE_SYMBOL "silk_cpu_module"

/* Why a step returned. */
enum {
    SILK_CPU_EXITED,     /* the thread returned */
    SILK_CPU_AT_BARRIER, /* it waits at bar.sync */
    SILK_CPU_AT_SHUFFLE, /* it waits at shfl.sync: operand[0] the value, [1] the lane */
    SILK_CPU_AT_BALLOT,  /* it waits at vote.ballot: operand[0] the predicate */
    SILK_CPU_BAD_GLOBAL, /* a global access outside every buffer: operand[0] the
                          * address, operand[1] the bytes (| 1 << 32 for a store) */
    SILK_CPU_BAD_SHARED, /* a shared access past the CTA's shared memory: the same */
    SILK_CPU_BAD_INDEX,  /* an index past its extent: operand[0] the index,
                          * operand[1] the extent; the site names the array */
    /* With race checks (SilkCpuKernel.race_checks): */
    SILK_CPU_RACE,       /* a shared access racing with another thread's: operand[0]
                          * the offset, operand[1] the bytes | the access's kind
                          * << 32; the other access in SilkCpuRace.other_* */
    SILK_CPU_UNWRITTEN,  /* a shared load (or atomic) of bytes no thread of the CTA
                          * has written: the operands as for a race (the executor's
                          * finding, from SilkCpuRace.unwritten, at the epoch's end) */
    SILK_CPU_UNASSIGNED, /* a var read before it is assigned: the site names it */
};

/* The kinds of shared access the race checks tell apart. */
enum { SILK_CPU_LOAD, SILK_CPU_STORE, SILK_CPU_ATOMIC };

#define SILK_CPU_NO_THREAD 0xffffu

/* What the race checks keep of one byte of shared memory since the CTA
 * started.  An epoch is the interval between two releases of a barrier
 * (1 at the CTA's start; 0: never).  The last write is kept, and, when
 * atomics of several threads wrote in the same epoch, a second of their
 * threads; of the reads since the epoch began, the first reader and a
 * second, other one: so that any thread finds another among those kept
 * whenever one exists, and its place for the message. */
typedef struct SilkCpuShadow {
    uint32_t write_epoch, read_epoch;
    uint32_t write_site[2], read_site[2];
    uint16_t writer[2], reader[2]; /* [1]: SILK_CPU_NO_THREAD when none */
    uint8_t atomic;                /* the writes of write_epoch were all atomics */
} SilkCpuShadow;

/* The race checks' state of the CTA a worker runs. */
typedef struct SilkCpuRace {
    uint32_t epoch;                /* the current one; the executor advances it at
                                    * each barrier it releases */
    SilkCpuShadow *shadow;         /* one per byte of the CTA's shared memory */
    uint32_t other_thread, other_site, other_kind; /* a race: the other access */
    /* The epoch's first read of bytes never written (a load, or an atomic's
     * read of the old value), not reported at once: when another thread
     * writes them later in the epoch, the finding is that race (the reader
     * ran first only because threads run in index order); else the
     * executor reports this read at the barrier that ends the epoch, or
     * at the CTA's end.  unwritten_thread SILK_CPU_NO_THREAD: none. */
    uint32_t unwritten_thread, unwritten_site, unwritten_kind, unwritten_bytes;
    uint64_t unwritten_offset;
} SilkCpuRace;

/* What every thread of one CTA shares. */
typedef struct SilkCpuCta {
    uint32_t ctaid, nctaid, ntid, nsmid;
    unsigned char *shared;   /* the static shared arrays, then dynamic shared memory */
    uint64_t shared_size;    /* their bytes */
    const uint64_t *params;  /* the kernel's parameters, each in 64 bits */
    const uint64_t (*buffers)[2]; /* the buffers a global access may touch: address
                              * and bytes of each; NULL: global accesses unchecked */
    uint32_t n_buffers;
    SilkCpuRace *race;       /* the race checks' (kernels with race_checks only) */
} SilkCpuCta;

/* One thread's state between steps. */
typedef struct SilkCpuThread {
    uint32_t tid;
    uint32_t resume;         /* 0: from the start; else the stop to resume after */
    uint32_t site;           /* the stop it waits at, or the access that faulted:
                              * an index into SilkCpuKernel.sites */
    uint32_t shuffle_mode;   /* at a shuffle: 0 down, 1 up, 2 bfly, 3 idx */
    uint64_t operand[2];     /* a collective's operands */
    uint64_t result;         /* the collective's result, set before the thread resumes */
    uint64_t *regs;          /* while it waits: the registers live across the stop,
                              * which the step saved (SilkCpuKernel.n_regs slots) */
} SilkCpuThread;

typedef int SilkCpuStep(const SilkCpuCta *cta, SilkCpuThread *thread);

/* Where a stop is in the source, for messages. */
typedef struct SilkCpuSite {
    const char *file;
    uint32_t line, col;
    const char *array;             /* an index check's tensor or array, an assigned
                                    * check's variable; else NULL */
    uint32_t dim;                  /* and its dimension, from 0 */
} SilkCpuSite;

/* A shared array of the module, for messages: where it lies in the
 * CTA's shared memory (dynamic shared memory follows the last). */
typedef struct SilkCpuArray {
    const char *name;              /* the IR's: the kernel's name, '_', the source's */
    uint64_t offset, bytes;
} SilkCpuArray;

typedef struct SilkCpuKernel {
    const char *name;
    SilkCpuStep *step;
    uint32_t n_params;
    const char *const *param_names;
    const char *const *param_types; /* each parameter's IR type: "i64" (a tensor's
                                     * address too), "f32", ... */
    const char *const *param_source_types; /* its Silk type: "tensor<f32>[n]", "u64" */
    uint32_t n_regs;               /* the slots of SilkCpuThread.regs: the most
                                    * registers any one stop saves */
    uint32_t fixed_threads;        /* the CTA size when @launch fixes it; 0: any */
    uint64_t static_shared;        /* bytes of its shared arrays */
    uint64_t dynamic_shared;       /* @smem */
    uint32_t persistent;           /* the last parameter is the logical CTA count */
    const SilkCpuSite *sites;      /* its stops, in order (site 0 unused) */
    uint32_t n_sites;
    uint32_t race_checks;          /* built for them: each shared access is tracked
                                    * (SilkCpuCta.race) */
    const SilkCpuArray *arrays;    /* the module's shared arrays */
    uint32_t n_arrays;
} SilkCpuKernel;

typedef struct SilkCpuModule {
    uint32_t abi_version;          /* SILK_CPU_ABI_VERSION */
    uint32_t n_kernels;
    const SilkCpuKernel *kernels;
} SilkCpuModule;

#endif
