/*
 * silkrt.h: the runtime of Silk programs (libsilkrt), the contract between
 * the C that `silkc build` writes for a program's host code and the
 * library it links: std/gpu's functions and types (launch, synchronize,
 * launch blocks, DispatchResult, last_error, Buffer, backend), async and
 * task calls, and print.
 *
 * A program is a table (SilkrtProgram): its kernels, their PTX for every
 * NVIDIA target and their code object for every AMD target it was built
 * for, and the same kernels compiled for the CPU backend.  The generated
 * main() hands it to silkrt_main.  The backend is chosen once, at the
 * first call that needs it: CUDA through the Driver API, else HIP through
 * libamdhip64, both loaded with dlopen (nothing is linked against either),
 * else the CPU backend (SILK_BACKEND=auto|cpu|cuda|hip).  Every public
 * function takes the runtime's one lock, so any thread may call any of
 * them.
 *
 * Statuses are int32_t, 0 for success.  The driver's own codes (CUresult
 * or hipError_t, all below 1000) pass through unchanged; the runtime's
 * own are the * SILKRT_ ones, 1001 and up.  silkrt_last_error() is this thread's text
 * of its last failed operation.  A program bug the runtime cannot report
 * as a status (a Buffer index past its end, a buffer released twice or
 * used after release) stops the program: one line on stderr naming the
 * Silk source place, exit status SILKRT_EXIT_MISUSE.
 *
 * silkrt(3) documents every function, status and environment variable;
 * docs/runtime.md the design.  Link with -lsilkrt -lpthread -ldl -lm.
 */
#ifndef SILKRT_H
#define SILKRT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* SilkrtProgram.abi_version: a program built for another version of this
 * header is refused at silkrt_register. */
#define SILKRT_ABI_VERSION 2u /* 2: code objects for AMD targets */

/* The runtime's statuses (silkrt(3) has the table); the driver's codes,
 * below 1000, pass through as they are. */
enum {
    SILKRT_OK = 0,
    SILKRT_NO_DRIVER = 1001,   /* SILK_BACKEND=cuda (hip) and the driver (libamdhip64) cannot
                                * be loaded */
    SILKRT_NO_DEVICE = 1002,   /* SILK_BACKEND=cuda (hip) and it has no device */
    SILKRT_BAD_GEOMETRY = 1003, /* zero or oversized grid or workspace, grid not divisible by
                                 * workspace, more than 2147483647 work-groups */
    SILKRT_WORKSPACE_MISMATCH = 1004, /* differs from the kernel's fixed CTA size */
    SILKRT_UNKNOWN_KERNEL = 1005,
    SILKRT_BAD_ARGUMENTS = 1006,   /* not the kernel's parameter count */
    SILKRT_RELEASED_BUFFER = 1007, /* an argument is a released buffer's address (and no
                                    * live one's) */
    SILKRT_OUT_OF_MEMORY = 1008,
    SILKRT_KERNEL_FAULT = 1009,    /* a CPU-backend check fired (a synchronize status) */
    SILKRT_MODULE_LOAD = 1010,     /* no embedded PTX, code object (or CPU module) could be
                                    * loaded */
    SILKRT_NO_BACKEND = 1011,      /* SILK_BACKEND names no backend */
};

/* The exit status of a program stopped for a misuse of the runtime. */
enum { SILKRT_EXIT_MISUSE = 70 };

/* Silk's str: bytes, not NUL-terminated in general. */
typedef struct SilkStr {
    const char *bytes;
    uint64_t len;
} SilkStr;

typedef struct SilkDispatchResult {
    int32_t launch_status, synchronize_status;
} SilkDispatchResult;

typedef struct SilkBuffer {
    uint64_t address, bytes;
} SilkBuffer;

/* A place in the Silk source, for messages (1-based line and column). */
typedef struct SilkSite {
    const char *file;
    uint32_t line, col;
} SilkSite;

/* One launchable kernel of the program. */
typedef struct SilkrtKernel {
    const char *name;
    uint32_t n_params;        /* the user's parameters, u64 each (the launchable ABI) */
    uint32_t fixed_threads;   /* @launch / kernel: the CTA size; 0: each launch's workspace */
    uint64_t dynamic_shared;  /* @smem bytes */
    bool persistent;          /* takes __silk_logical_ctas (u64) after its parameters */
    uint32_t cpu_ctas_per_sm; /* persistent: the engine's resident CTAs per SM on the
                               * emulated device, at fixed_threads (0: not persistent) */
} SilkrtKernel;

/* The PTX of every kernel for one target. */
typedef struct SilkrtPtx {
    const char *arch;         /* "sm_75", "sm_90", "sm_90a" */
    const char *text;         /* NUL-terminated */
} SilkrtPtx;

/* The code object (an AMDHSA ELF, .hsaco) of every kernel for one AMD target. */
typedef struct SilkrtCodeObject {
    const char *arch;         /* "gfx90a", "gfx942", "gfx1100", "gfx1201" */
    const unsigned char *bytes;
    uint64_t size;
} SilkrtCodeObject;

struct SilkCpuModule; /* std/runtime/cpu_abi.h, which the generated C holds a copy of */

typedef struct SilkrtProgram {
    uint32_t abi_version;     /* SILKRT_ABI_VERSION */
    uint32_t n_kernels;
    const SilkrtKernel *kernels;
    uint32_t n_ptx;           /* oldest target first */
    const SilkrtPtx *ptx;
    const struct SilkCpuModule *cpu; /* the same kernels for the CPU backend; NULL: none */
    uint32_t cpu_sms;         /* ctx.sms on the CPU backend (132: an H100 SXM) */
    uint32_t n_code_objects;  /* ABI 2: the AMD targets, in --arch's order */
    const SilkrtCodeObject *code_objects;
} SilkrtProgram;

/* The generated main(): registers `program`, runs `silk_main`, waits for
 * every async and task call, and returns the exit status: silk_main's
 * (`fn main()` without a result returns 0), for main() to return. */
int silkrt_main(const SilkrtProgram *program, int argc, char **argv, int32_t (*silk_main)(void));

/* What silkrt_main does first, for C callers that run their own main
 * (tests, benchmarks): makes `program` the one every later call uses.
 * Stops the program (SILKRT_EXIT_MISUSE) when its abi_version or its CPU
 * module does not match this runtime. */
void silkrt_register(const SilkrtProgram *program);

/* std/gpu's launch: the launch status (the kernel may still be running:
 * its faults are synchronize's).  `args` holds n_args u64 values. */
int32_t silkrt_launch(const char *kernel, uint64_t grid, uint64_t workspace, uint32_t n_args,
                      const uint64_t *args);

/* Waits for the work launched before; its status. */
int32_t silkrt_synchronize(void);

/* A launch, then exactly one synchronize, even after a failed launch; no
 * other thread's launch comes between them. */
SilkDispatchResult silkrt_launch_and_synchronize(const char *kernel, uint64_t grid,
                                                 uint64_t workspace, uint32_t n_args,
                                                 const uint64_t *args);

/* A launch block: the same, with its source place and its attr(...)
 * metadata ("label=hot", or NULL) for SILK_VERBOSE.  `site` may be NULL. */
SilkDispatchResult silkrt_dispatch(const SilkSite *site, const char *metadata, const char *kernel,
                                   uint64_t grid, uint64_t workspace, uint32_t n_args,
                                   const uint64_t *args);

/* This thread's text of its last failed operation ("" when none failed);
 * the bytes stay valid until this thread's next failing operation. */
SilkStr silkrt_last_error(void);

/* The backend in use: "cpu", "cuda" or "hip" (also when SILK_BACKEND=cuda
 * or hip found no driver or device), "none" when SILK_BACKEND names no
 * backend. */
SilkStr silkrt_backend(void);

/* `bytes` of device memory (host memory, 256-byte aligned and zeroed, on
 * the CPU backend); {0, 0}, with last_error, when it cannot. */
SilkBuffer silkrt_buffer_alloc(uint64_t bytes);

/* Frees a buffer; {0, 0} is nothing to free.  Releasing a buffer twice,
 * or one this runtime never allocated, stops the program. */
void silkrt_buffer_release(SilkBuffer b, const SilkSite *site);

/* Element `index` of `size` bytes (the method's type: "u64", "f32",
 * "i32") written from or read into `value`.  An index past the buffer's
 * end, or a buffer released or never allocated, stops the program. */
void silkrt_buffer_upload(SilkBuffer b, uint64_t index, const void *value, uint32_t size,
                          const char *type, const SilkSite *site);
void silkrt_buffer_download(SilkBuffer b, uint64_t index, void *value, uint32_t size,
                            const char *type, const SilkSite *site);

enum { SILKRT_ASYNC, SILKRT_TASK };

/* Starts body(closure) as an async call (on the one async thread, in call
 * order) or a task call (on a worker of the task pool) and returns at
 * once.  The runtime frees nothing: body owns closure. */
void silkrt_spawn(int kind, void (*body)(void *closure), void *closure);

/* Waits until every async and task call started so far, and those they
 * start, has finished; inside an async or task call, those it started. */
void silkrt_wait_tasks(void);

/* print / println: the values, one space between them (println adds
 * "\n"), written as one line at once. */
typedef enum SilkrtValueKind {
    SILKRT_V_BOOL, SILKRT_V_INT, SILKRT_V_UINT, SILKRT_V_F16, SILKRT_V_F32, SILKRT_V_F64,
    SILKRT_V_STR, SILKRT_V_DISPATCH, SILKRT_V_BUFFER
} SilkrtValueKind;

typedef struct SilkrtValue {
    SilkrtValueKind kind;
    union {
        int64_t i;            /* SILKRT_V_INT: i8 to i64 */
        uint64_t u;           /* SILKRT_V_UINT: u8 to u64; SILKRT_V_BOOL: 0 or 1 */
        uint16_t h;           /* SILKRT_V_F16: its bits */
        float f;
        double d;
        SilkStr s;
        SilkDispatchResult r;
        SilkBuffer b;
    };
} SilkrtValue;

void silkrt_print(const SilkrtValue *values, uint32_t n, bool newline);

#ifdef __cplusplus
}
#endif

#endif
