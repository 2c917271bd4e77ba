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
 * stops as it passes the bound, so a hostile symbol costs microseconds. */
enum { DEMANGLE_MAX_LENGTH = 4096 };

/* The demangled symbol as c++filt prints it, with its parameter list
 * ("matmul_forward_kernel4(float*, float const*, ...)"), in memory the
 * caller frees; NULL when symbol is not a mangled C++ name (an extern "C"
 * kernel, or a malformed symbol) and when it would be longer than
 * DEMANGLE_MAX_LENGTH: the caller shows the symbol itself. */
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
