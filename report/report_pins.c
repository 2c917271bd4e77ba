/*
 * report_pins.c: what fixes a kernel's block size besides its own
 * .reqntid, found before the report chooses one.  The launch guide (seed
 * 001, "Do not use this when") says not to override a launch that an API
 * contract or the algorithm's decomposition fixes: a CUB, Thrust, CUTLASS
 * or CuTe kernel runs at the size its tuning policy states in its
 * __launch_bounds__ (a CUB kernel launched with fewer threads than its
 * policy's BLOCK_THREADS leaves tiles half done), so such a kernel's
 * bound is its block size; --fixed-namespace adds the user's own
 * libraries, and --fixed-block-size makes every bound a fixed size.  A
 * template instance whose bound is one of its own template arguments
 * (scale<512> with __launch_bounds__(TPB)) most likely indexes by that
 * argument: the report cannot see the body, so it says so rather than
 * pinning it.
 */
#include "report_model.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The libraries whose kernels' launches their APIs fix. */
static const char *const LIBRARIES[] = {"cub", "thrust", "cutlass", "cute"};

/* An identifier's length at p (0 when p starts none). */
static size_t identifier_at(const char *p)
{
    size_t n = 0;
    if (!(isalpha((unsigned char)*p) || *p == '_'))
        return 0;
    while (isalnum((unsigned char)p[n]) || p[n] == '_')
        n++;
    return n;
}

/* The length of `ns` without a trailing "::". */
static size_t namespace_length(const char *ns)
{
    size_t n = strlen(ns);
    return n >= 2 && strcmp(ns + n - 2, "::") == 0 ? n - 2 : n;
}

bool report_namespace_valid(const char *ns)
{
    size_t end = namespace_length(ns);
    if (end == 0 || strlen(ns) >= REPORT_NAMESPACE_MAX)
        return false;
    for (size_t i = 0;;) {
        size_t n = identifier_at(ns + i);
        if (n == 0)
            return false;
        i += n;
        if (i == end)
            return true;
        if (i + 2 > end || strncmp(ns + i, "::", 2) != 0)
            return false;
        i += 2;
    }
}

/* Whether the Itanium-mangled `symbol` starts in namespace `ns` (of n
 * bytes): _ZN, then each component as its length and its name.  A name
 * the demangler could not read (CUTLASS's deepest) is still placed. */
static bool mangled_in(const char *symbol, const char *ns, size_t n)
{
    if (strncmp(symbol, "_ZN", 3) != 0)
        return false;
    const char *p = symbol + 3;
    for (size_t i = 0; i < n;) {
        size_t len = identifier_at(ns + i);
        char digits[24];
        snprintf(digits, sizeof digits, "%zu", len);
        if (strncmp(p, digits, strlen(digits)) != 0 || strncmp(p + strlen(digits), ns + i, len) != 0)
            return false;
        p += strlen(digits) + len;
        i += len + 2; /* the "::" between components */
    }
    /* The name continues: another component or the kernel's. */
    return isdigit((unsigned char)*p);
}

/* Whether the kernel is declared in namespace `ns` (or one inside it:
 * cub::CUB_300001_SM_900::detail), by its demangled name or its symbol. */
static bool kernel_in(const MeasuredKernel *k, const char *ns)
{
    size_t n = namespace_length(ns);
    return (strncmp(k->cxx_name, ns, n) == 0 && strncmp(k->cxx_name + n, "::", 2) == 0) ||
           mangled_in(k->name, ns, n);
}

/* The first library (the user's first) whose namespace holds the kernel. */
static const char *kernel_library(const MeasuredKernel *k, const ReportSettings *s)
{
    for (int i = 0; i < s->n_fixed_namespaces; i++)
        if (kernel_in(k, s->fixed_namespaces[i]))
            return s->fixed_namespaces[i];
    for (size_t i = 0; i < sizeof LIBRARIES / sizeof LIBRARIES[0]; i++)
        if (kernel_in(k, LIBRARIES[i]))
            return LIBRARIES[i];
    return NULL;
}

/* The value of one template argument as the demangler writes an integer
 * (512, 512u, 512ul, (short)512); -1 for any other argument. */
static long literal_value(const char *arg, size_t n)
{
    while (n && *arg == ' ')
        arg++, n--;
    if (n && *arg == '(') { /* a cast: (short)512 */
        const char *close = memchr(arg, ')', n);
        if (!close)
            return -1;
        n -= (size_t)(close + 1 - arg);
        arg = close + 1;
    }
    size_t digits = 0;
    while (digits < n && digits < 10 && isdigit((unsigned char)arg[digits]))
        digits++;
    if (digits == 0)
        return -1;
    for (size_t i = digits; i < n; i++)
        if (!strchr("uUlL", arg[i]))
            return -1;
    return strtol(arg, NULL, 10);
}

/* Whether `bound` is one of the template arguments of the kernel's own
 * template-id, the last <...> of its demangled name (not those of a type
 * inside it: Policy<256> is the library's, not the kernel's). */
static bool bound_is_template_argument(const char *cxx_name, int bound)
{
    size_t len = strlen(cxx_name);
    if (bound <= 0 || len < 3 || cxx_name[len - 1] != '>')
        return false;
    size_t open = len - 1;
    for (int depth = 0; open > 0; open--) {
        depth += cxx_name[open] == '>' ? 1 : cxx_name[open] == '<' ? -1 : 0;
        if (depth == 0)
            break;
    }
    if (cxx_name[open] != '<')
        return false;
    size_t start = open + 1;
    int depth = 0; /* of <> and () inside an argument, whose commas are its own */
    for (size_t i = start; i < len; i++) {
        char c = cxx_name[i];
        if ((c == ',' && depth == 0) || i == len - 1) {
            if (literal_value(cxx_name + start, i - start) == bound)
                return true;
            start = i + 1;
            continue;
        }
        depth += (c == '<' || c == '(') - (c == '>' || c == ')');
    }
    return false;
}

/* The block-size bound the kernel's source states: .maxntid, but not a
 * code object's .max_flat_workgroup_size at the largest workgroup, which
 * is what LLVM and HIP give a kernel whose source states none. */
static int stated_bound(const ReportEntry *e)
{
    int bound = e->kernel.maxntid;
    return e->target.vendor == OCC_AMD && bound >= report_max_block(e) ? 0 : bound;
}

void report_pin_find(ReportEntry *e, const ReportSettings *s)
{
    const MeasuredKernel *k = &e->kernel;
    ReportPin *p = &e->pin;
    int bound = stated_bound(e);
    *p = (ReportPin){REPORT_PIN_NONE, 0, "", 0};
    /* A library's or the user's pin fixes a bound; .reqntid fixes itself. */
    const char *library = kernel_library(k, s);
    if (library)
        snprintf(p->library, sizeof p->library, "%.*s", (int)namespace_length(library), library);
    if (k->reqntid > 0)
        return;
    if (library) {
        p->by = bound > 0 ? REPORT_PIN_LIBRARY : REPORT_PIN_LIBRARY_UNBOUND;
        p->threads = bound;
    } else if (s->fixed_block_size && bound > 0) {
        p->by = REPORT_PIN_OPTION;
        p->threads = bound;
    } else if (bound_is_template_argument(k->cxx_name, bound)) {
        p->template_bound = bound;
    }
}
