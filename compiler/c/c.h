/*
 * c.h: the host target: a Silk program's host code as one readable C
 * translation unit against the runtime's silkrt.h, with the program's
 * kernels inside it: the PTX of every NVIDIA target it was built for (as
 * string literals), the code object of every AMD target (as byte
 * arrays), the CPU backend's C for the same kernels, and the table
 * (SilkrtProgram) that tells the runtime about them.
 *
 * This is not a backend behind backend.h: a backend turns the IR of the
 * kernels into one target's code, and host code is not in the IR (the
 * IR holds GPU functions only).  The host C is the stage after the
 * kernels' targets: it reads the typed AST of the host functions and
 * what the build made of the kernels (each target's code, the figures
 * measured), and writes the program.  silkc build (src/silkc_build.c,
 * through compiler/run/run_program.c) runs the build, then this, then the
 * C compiler.
 *
 * The C keeps the source's names where it can: a host function `f` is
 * silk_fn_f, a local `n` is n (renamed only where C or the generated
 * code needs the name, or where Silk shadows it).  Every operation has
 * the device's semantics (cpu_prelude.h's helpers: wrapping arithmetic,
 * division by zero, shifts past the width, f16 rounding; canonical NaNs),
 * operands with effects are evaluated left to right, and each launch
 * block carries its source place and its statement's attr(...) metadata
 * to silkrt_dispatch (and, as a comment, into the C).
 */
#ifndef SILK_C_H
#define SILK_C_H

#include "build.h"

#include <stdbool.h>
#include <stdio.h>

/* A GPU target's code object, as the program carries it for the HIP
 * runtime: its bytes, read from the target's binary_path. */
typedef struct CCodeObject {
    const char *arch;           /* "gfx942" */
    const unsigned char *bytes;
    size_t size;
} CCodeObject;

/* What the program is made of. */
typedef struct CProgram {
    Compilation *c;             /* checked: the typed AST of every module */
    const Build *build;         /* the kernels' targets, their code emitted */
    const int *ptx;             /* indices of build->targets whose PTX the program
                                 * carries, oldest target first */
    int n_ptx;
    const CCodeObject *code_objects; /* the targets whose backend makes code objects
                                      * (Backend.hip_code_object), in --arch's order */
    int n_code_objects;
    int cpu;                    /* the index of the "cpu" target */
    const UsageReport *emulated; /* the kernels' figures on the device the CPU backend
                                  * emulates (sm_90), for the resident CTAs of each
                                  * @persistent kernel; NULL when none is persistent */
    const char *const *inputs;  /* the source files, for the header comment */
    int n_inputs;
} CProgram;

/* The device the CPU backend emulates (SILK_EMULATED_PRODUCT, _ARCH,
 * _SMS): a row of arch-tables/products.csv, which Makefile.am names, as
 * silkc exec --sms and the runtime default to. */
#include "common/emulated_device.h"

/* Whether the build's kernels include a @persistent one, whose resident
 * CTAs the program table needs (c_measure_emulated). */
bool c_has_persistent(const Build *b);

/* The figures of every kernel on SILK_EMULATED_ARCH into *out: the build's
 * own when it measured that target, else the code emitted and measured
 * for it now through the backend (the assembler when present, else the
 * estimate).  EXIT_OK, or when that fails (reported) the exit status of
 * the failure (build_exit_status's rule). */
int c_measure_emulated(Build *b, const UsageReport **out);

typedef enum CStatus {
    C_OK,
    C_NO_MAIN,     /* the root package has no fn main (for the caller to say) */
    C_ERRORS,      /* reported through the compilation's diagnostics */
} CStatus;

/* Writes the program to `out`.  C_ERRORS when the host code uses what the
 * C target cannot write (main's signature, a second main, a std
 * declaration the runtime does not implement); nothing is written then. */
CStatus c_emit_program(const CProgram *p, FILE *out);

#endif
