/*
 * c_prelude.h: what the host code of a Silk program calls besides the
 * runtime (silkrt.h): std/gpu's methods that are plain C (DispatchResult's
 * three queries), Buffer's typed elements, str literals, print's values,
 * a launch by a kernel name that is not a literal, and the copies an async
 * or task call makes of its str arguments.
 *
 * compiler/c/ embeds this file in every program it writes (c_builtin.c),
 * after the CPU backend's module, whose cpu_prelude.h holds the integer
 * and f16 helpers (silk_sdiv32, silk_shl64, silk_double_to_half, ...) that
 * host code shares with the kernels, so that a value computes the same on
 * both sides.  Everything here is static inline: a program uses what it
 * needs, and the rest costs nothing and draws no warning.
 */
#ifndef SILK_C_PRELUDE_H
#define SILK_C_PRELUDE_H

#ifndef SILKRT_H /* the program includes it first; included, for the tests */
#include "silkrt.h"
#endif

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A str literal: its bytes and their count (an embedded \x00 included). */
#define SILK_STR(literal) ((SilkStr){(literal), sizeof(literal) - 1})

/* ---- DispatchResult ------------------------------------------------------ */

static inline bool silk_dispatch_is_ok(SilkDispatchResult r)
{
    return r.launch_status == 0 && r.synchronize_status == 0;
}

static inline bool silk_dispatch_launch_failed(SilkDispatchResult r) { return r.launch_status != 0; }

static inline bool silk_dispatch_synchronize_failed(SilkDispatchResult r)
{
    return r.synchronize_status != 0;
}

/* ---- Buffer's elements: the runtime checks the index and the buffer ------- */

#define SILK_BUFFER_ELEMENTS(type, ctype)                                                         \
    static inline void silk_upload_##type(SilkBuffer b, uint64_t index, ctype value,              \
                                          const SilkSite *at)                                     \
    {                                                                                             \
        silkrt_buffer_upload(b, index, &value, sizeof value, #type, at);                          \
    }                                                                                             \
    static inline ctype silk_download_##type(SilkBuffer b, uint64_t index, const SilkSite *at)    \
    {                                                                                             \
        ctype value = 0;                                                                          \
        silkrt_buffer_download(b, index, &value, sizeof value, #type, at);                        \
        return value;                                                                             \
    }
SILK_BUFFER_ELEMENTS(u64, uint64_t)
SILK_BUFFER_ELEMENTS(f32, float)
SILK_BUFFER_ELEMENTS(i32, int32_t)
#undef SILK_BUFFER_ELEMENTS

/* ---- print's values -------------------------------------------------------- */

static inline SilkrtValue silk_value_bool(bool v) { return (SilkrtValue){.kind = SILKRT_V_BOOL, .u = v}; }
static inline SilkrtValue silk_value_int(int64_t v) { return (SilkrtValue){.kind = SILKRT_V_INT, .i = v}; }
static inline SilkrtValue silk_value_uint(uint64_t v) { return (SilkrtValue){.kind = SILKRT_V_UINT, .u = v}; }
static inline SilkrtValue silk_value_f16(uint16_t v) { return (SilkrtValue){.kind = SILKRT_V_F16, .h = v}; }
static inline SilkrtValue silk_value_f32(float v) { return (SilkrtValue){.kind = SILKRT_V_F32, .f = v}; }
static inline SilkrtValue silk_value_f64(double v) { return (SilkrtValue){.kind = SILKRT_V_F64, .d = v}; }
static inline SilkrtValue silk_value_str(SilkStr v) { return (SilkrtValue){.kind = SILKRT_V_STR, .s = v}; }
static inline SilkrtValue silk_value_dispatch(SilkDispatchResult v)
{
    return (SilkrtValue){.kind = SILKRT_V_DISPATCH, .r = v};
}
static inline SilkrtValue silk_value_buffer(SilkBuffer v)
{
    return (SilkrtValue){.kind = SILKRT_V_BUFFER, .b = v};
}

/* ---- memory the program itself takes ------------------------------------------ */

/* A program that cannot start an async or task call (or copy a str for
 * one) has no way to go on: it stops as it does for a misuse. */
static inline void *silk_allocate(size_t bytes, const char *what)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "out of memory: cannot start %s\n", what);
        exit(SILKRT_EXIT_MISUSE);
    }
    return p;
}

/* A str's own copy, NUL-terminated, for a call that outlives its caller's
 * values (a runtime text such as last_error() changes when the next
 * operation fails). */
static inline SilkStr silk_str_copy(SilkStr s, const char *what)
{
    char *bytes = silk_allocate(s.len + 1, what);
    if (s.len)
        memcpy(bytes, s.bytes, s.len);
    bytes[s.len] = '\0';
    return (SilkStr){bytes, s.len};
}

static inline void silk_str_free(SilkStr s) { free((void *)s.bytes); }

/* ---- launch and launch_and_synchronize by a str that is not a literal --------- */

/* The runtime takes a kernel's name as a C string.  A NUL inside the str
 * becomes '?', so that the name stays one no kernel has. */
static inline char *silk_kernel_name(SilkStr name)
{
    char *text = silk_allocate(name.len + 1, "a launch");
    for (uint64_t i = 0; i < name.len; i++)
        text[i] = name.bytes[i] ? name.bytes[i] : '?';
    text[name.len] = '\0';
    return text;
}

static inline int32_t silk_launch_named(SilkStr name, uint64_t grid, uint64_t workspace,
                                        uint32_t n_args, const uint64_t *args)
{
    char *kernel = silk_kernel_name(name);
    int32_t status = silkrt_launch(kernel, grid, workspace, n_args, args);
    free(kernel);
    return status;
}

static inline SilkDispatchResult silk_launch_and_synchronize_named(SilkStr name, uint64_t grid,
                                                                   uint64_t workspace,
                                                                   uint32_t n_args,
                                                                   const uint64_t *args)
{
    char *kernel = silk_kernel_name(name);
    SilkDispatchResult r = silkrt_launch_and_synchronize(kernel, grid, workspace, n_args, args);
    free(kernel);
    return r;
}

#endif
