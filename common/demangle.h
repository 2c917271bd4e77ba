/*
 * demangle.h: C++ kernel names as a person reads them, for silk-occ report.
 * PTX and cubins name a CUDA C++ kernel by its Itanium-mangled symbol
 * (_Z22matmul_forward_kernel4PfPKfS1_S1_ii); the report shows what c++filt
 * prints, a launch line names the kernel as C++ code would, and text output
 * shortens the long template argument lists of library kernels (CUB,
 * CUTLASS) to fit a column.  The demangling itself is libiberty's, the GNU
 * toolchain's own demangler, not ours.
 */
#ifndef SILK_DEMANGLE_H
#define SILK_DEMANGLE_H

#include <stddef.h>

/* The most bytes of demangled text kept: past it the name is not
 * demangled (NULL below), so the caller shows the symbol itself, exact if
 * not readable, where a cut would show a name that is no name.  A few
 * hundred bytes of back-references can demangle to gigabytes; demangling
 * stops as it passes the bound, so a hostile symbol costs microseconds.
 * A GEMM library's kernel of 1 KiB of symbol prints some 4 KiB, one of
 * 8 KiB (the most below) some 30 KiB: room for both. */
enum { DEMANGLE_MAX_LENGTH = 32768 };

/* The longest symbol demangled; a longer one is shown as it is.
 * libiberty refuses, by default, any symbol of over 1,024 bytes (its
 * recursion limit, 2,048 components, two per byte), which every deeply
 * nested template library kernel passes (CUTLASS's, c++filt shows them
 * only with --no-recursion-limit); the limit is lifted, and this bound
 * takes its place: libiberty's parse recursion and its arrays (on the
 * stack) grow with the symbol, and the deepest symbol of this length
 * (8,182 nested pointers) needs under 1.5 MiB of stack, measured with
 * ulimit -s on glibc's x86-64 build, where the main thread has 8 MiB.
 * libiberty's printing stops at 1,024 levels of nesting whatever the
 * options. */
enum { DEMANGLE_MAX_SYMBOL = 8192 };

/* The demangled symbol as c++filt prints it, with its parameter list
 * ("matmul_forward_kernel4(float*, float const*, ...)"), in memory the
 * caller frees; NULL when symbol is not a mangled C++ name (an extern "C"
 * kernel, or a malformed symbol), when it would be longer than
 * DEMANGLE_MAX_LENGTH and when the symbol is longer than
 * DEMANGLE_MAX_SYMBOL: the caller shows the symbol itself. */
char *demangle_symbol(const char *symbol);

/* The name a C++ launch would use: namespaces and template arguments kept,
 * parameter list and a template's return type dropped, as c++filt -p prints
 * it ("MatrixMulCUDA<32>", "cub::DeviceRadixSortOnesweepKernel<...>",
 * "V::operator()").  Freed by the caller; NULL as for demangle_symbol. */
char *demangle_base_name(const char *symbol);

/* Writes name into buf (size bytes, NUL-terminated, cut at a UTF-8
 * character when too small), shortened with "…" to fit max_width display
 * columns when it is wider.  The rule, applied one step at a time until
 * the name fits:
 *   1. a template argument list inside another one becomes <…>, the most
 *      deeply nested first, then the longest, then the leftmost;
 *   2. a remaining outermost list keeps the leading arguments that fit,
 *      the rest becoming "…" (<…> when none fits), the longest list first;
 *   3. whatever is still too wide (long plain names, parameter lists, or a
 *      name whose brackets do not pair up) is cut, ending in "…".
 * A name that fits is copied unchanged.  Each column is one UTF-8
 * character. */
void demangle_shorten(const char *name, size_t max_width, char *buf, size_t size);

#endif
