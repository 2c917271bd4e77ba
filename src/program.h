/*
 * program.h: what the files of `silkc build` and `silkc run` share,
 * one job each:
 *
 *   silkc_build.c   the command: the targets and the output planned, the
 *                   build, the host C written (compiler/c/c.h), the
 *                   program compiled, then written to -o or run
 *   program_cc.c    the runtime found (SILK_RUNTIME_DIR, the build tree
 *                   silkc is in, the installed one) and the C compiler run
 *                   on the program's C with it
 *   program_exec.c  `silkc run`'s run of the program, its exit status
 *                   passed through
 */
#ifndef SILK_PROGRAM_H
#define SILK_PROGRAM_H

#include "build.h"
#include "silkc.h"

/* Where the runtime is: its library and the directory of silkrt.h. */
typedef struct Runtime {
    const char *library;     /* .../libsilkrt.a */
    const char *include_dir; /* holds silkrt.h */
} Runtime;

/* The runtime, found as silkc(1) says: $SILK_RUNTIME_DIR (both files in
 * it), else the build tree silkc runs from (../std/runtime beside its
 * directory), else the installed library and header.  An exit status:
 * EXIT_ENVIRONMENT, with the message printed, when there is none. */
int program_find_runtime(Compilation *c, Runtime *rt);

/* The most words of $CC. */
enum { PROGRAM_CC_WORDS = 16 };

/* The C compiler's words ($CC split as make splits it, else cc), NULL
 * after them, in `arena`; NULL, with the message printed, when $CC cannot
 * run or there is no cc. */
char **program_find_cc(Compilation *c);

/* Compiles `source` (the program's C) with `cc` and links it with the
 * runtime into `program`.  An exit status: EXIT_ENVIRONMENT, with the
 * compiler's output shown, when it fails (the C is ours: a compiler bug,
 * unless the runtime is broken, or a signal or a file-size limit, said as
 * such, stopped it). */
int program_compile(Build *b, char *const *cc, const Runtime *rt, const char *source,
                  const char *program);

/* Runs `program` with argv[0] `name` and the request's program
 * arguments, its standard streams silkc's; its exit status, or 128 + N
 * when signal N ended it (EXIT_ENVIRONMENT, printed, when it cannot
 * start). */
int program_exec(const char *program, const char *name, const SilkcRequest *r);

#endif
