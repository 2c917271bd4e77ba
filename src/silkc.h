/*
 * silkc.h: what the silkc driver's files share: exit codes and the
 * options of `silkc compile`.
 */
#ifndef SILK_SILKC_H
#define SILK_SILKC_H

#include "compile.h"

#include <errno.h>
#include <stdbool.h>

/* Exit codes, as documented in silkc(1). */
enum { EXIT_CLEAN = 0, EXIT_ERRORS = 1, EXIT_USAGE = 2, EXIT_ENVIRONMENT = 3, EXIT_HELP = -1 };

typedef enum EmitKind { EMIT_PTX, EMIT_IR } EmitKind;

/* The options only `silkc compile` takes. */
typedef struct SilkcRequest {
    bool compile;        /* the command is compile (else check) */
    const char *archs;   /* --arch: "sm_90,sm_80" */
    const char *output;  /* -o */
    EmitKind emit;       /* --emit= */
    bool resource_usage; /* --resource-usage */
    bool json;           /* --format json */
} SilkcRequest;

/* The back end on checked, loaded files: lower, verify, write; returns an
 * exit code. */
int silkc_compile(Compilation *c, const SilkcRequest *r, const char *first_file);

#endif
