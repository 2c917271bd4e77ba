/*
 * compdb.h: a whole project's CUDA translation units from its compile
 * database (compile_commands.json, as CMake's
 * -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, Bear or Bazel's extractors write
 * it): for each entry whose file is CUDA (.cu, or -x cu among its
 * words), its source, its working directory and the flags of its
 * command that change the device compile, so that each unit is measured
 * with its own -I, -D and -std as in the build (measure.h's MeasureUnit).
 *
 * An entry's `command` string is split into words by nvcc_split_flags
 * (quotes and backslashes as a shell reads them, nothing expanded):
 * no shell ever runs it.  Output and dependency flags (-o, -c, -MD, -MF,
 * ...) and the source itself are dropped; only a fixed list of flags is
 * kept (compdb_keep_flags), as anything else (a host warning flag, a
 * launcher's) is the build's business and not the device code's.
 * Nothing here prints: errors come back as one line naming the file.
 */
#ifndef SILK_COMPDB_H
#define SILK_COMPDB_H

#include "arena.h"

#include <stdbool.h>
#include <stddef.h>

/* The most entries a database may hold, and its size: a hostile file
 * stops here, not when memory runs out. */
enum { COMPDB_MAX_ENTRIES = 100000, COMPDB_LIMIT_MIB = 256 };

typedef struct CompdbUnit {
    const char *file;      /* the source, its directory joined when relative */
    const char *name;      /* for people: `file` below the working directory made
                            * relative to it, else as it is */
    const char *directory; /* the entry's, where its relative paths start */
    const char *compiler;  /* the entry's first word when that is nvcc; NULL: find one */
    char **flags;          /* the kept flags, NULL-terminated */
    int n_flags;
    int entry;             /* its index in the database */
} CompdbUnit;

/* Reads the database at `path`: its CUDA units into *units (in `arena`),
 * in the database's order.  `keep_arch`: the entries' -arch, -gencode and
 * -code stay (no --arch was given, so they decide __CUDA_ARCH_LIST__ as
 * in the build).  False with one line in `error`: the file unreadable,
 * not JSON (FILE:LINE:COL), not an array, an entry without "file" or
 * "directory" or a command, a directory that does not exist, a command
 * that does not split, or no CUDA entry at all. */
bool compdb_read(const char *path, bool keep_arch, Arena *arena, CompdbUnit **units, int *n,
                 char *error, size_t size);

/* Whether an entry of these words and this file compiles CUDA: the file
 * ends in .cu, or the words hold -x cu (--x cu, -xcu). */
bool compdb_is_cuda(char *const words[], int n, const char *file);

/* The words of the device compile among words[1..n) (words[0] is the
 * compiler), as above: *out NULL-terminated in `arena`; returns how many.
 * `source` (the entry's file as written) is dropped wherever it stands. */
int compdb_keep_flags(char *const words[], int n, const char *source, bool keep_arch,
                      Arena *arena, char ***out);

/* The machine-code targets the units' build names: every sm_NN in the
 * values of their -arch, -gencode and -code flags (-arch=sm_90a,
 * code=[sm_80,compute_80]), each once, in order, as "sm_80,sm_90" in
 * `buf` ("" when none names one: -arch=compute_90, native, or no flag).
 * The units must have been read with keep_arch.  A report given no
 * --arch takes them as its targets, as the build compiles for them. */
void compdb_build_archs(const CompdbUnit *units, int n, char *buf, size_t size);

#endif
