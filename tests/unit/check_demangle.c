/*
 * check_demangle.c: unit tests of common/demangle.c.  The mangled names
 * were made by g++ from small C++ declarations and the expected strings
 * are what c++filt (and c++filt -p, for the base names) printed for them,
 * so that a libiberty that changed its output would be caught here.  The
 * shortened names follow the rule in demangle.h.
 */
#include <config.h>

#include "demangle.h"

#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A thrust-like kernel whose base name is 908 characters. */
static const char LONG_SYMBOL[] =
    "_ZN6thrust8cuda_cub4core13_kernel_agentINS1_13AgentLauncherINS3_INS1_"
    "50DeviceSegmentedReducePolicyForSm90WithVeryLongNameENS1_"
    "56TransformInputIteratorOverCountingIteratorOfUnsignedLongENS1_4PlusImEELi256EEENS3_"
    "IS8_NS6_IfEENS6_IdEELi128EEES5_Li64EEES7_S5_lEEvT1_T2_";

static const char CUB_SYMBOL[] =
    "_ZN3cub29DeviceRadixSortOnesweepKernelINS_21DeviceRadixSortPolicyIjNS_8NullTypeEiE9"
    "Policy900ELb0EjS2_jiNS_6detail8identityEEEvPT3_S8_";
static const char CUB_BASE[] =
    "cub::DeviceRadixSortOnesweepKernel<cub::DeviceRadixSortPolicy<unsigned int, "
    "cub::NullType, int>::Policy900, false, unsigned int, cub::NullType, unsigned int, int, "
    "cub::detail::identity>";

/* demangle_symbol and demangle_base_name of symbol are full and base. */
static void assert_demangles(const char *symbol, const char *full, const char *base)
{
    char *got_full = demangle_symbol(symbol);
    char *got_base = demangle_base_name(symbol);
    ck_assert_ptr_nonnull(got_full);
    ck_assert_ptr_nonnull(got_base);
    ck_assert_str_eq(got_full, full);
    ck_assert_str_eq(got_base, base);
    free(got_full);
    free(got_base);
}

static void assert_not_mangled(const char *symbol)
{
    ck_assert_ptr_null(demangle_symbol(symbol));
    ck_assert_ptr_null(demangle_base_name(symbol));
}

/* name shortened to width in a roomy buffer is expected. */
static void assert_shortens(const char *name, size_t width, const char *expected)
{
    char buf[2048];
    demangle_shorten(name, width, buf, sizeof buf);
    ck_assert_str_eq(buf, expected);
}

/* Display columns: one per UTF-8 character. */
static size_t columns(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

START_TEST(test_extern_c_is_not_mangled)
{
    assert_not_mangled("matmul_forward_kernel4");
    assert_not_mangled("main");
    /* A type encoding alone is no symbol: a kernel called "i" stays "i". */
    assert_not_mangled("i");
}
END_TEST

START_TEST(test_plain_function)
{
    assert_demangles("_Z22matmul_forward_kernel4PfPKfS1_S1_ii",
                     "matmul_forward_kernel4(float*, float const*, float const*, float const*, "
                     "int, int)",
                     "matmul_forward_kernel4");
    assert_demangles("_ZNK1VclEi", "V::operator()(int) const", "V::operator()");
    assert_demangles("_ZNK1VltERKS_", "V::operator<(V const&) const", "V::operator<");
    /* A GCC clone is the same function to launch. */
    assert_demangles("_Z1fi.constprop.0", "f(int) [clone .constprop.0]", "f");
}
END_TEST

START_TEST(test_template_with_int_argument)
{
    /* The return type of a template function is printed, but not in the
     * base name a launch uses. */
    assert_demangles("_Z13MatrixMulCUDAILi32EEvPfS0_S0_ii",
                     "void MatrixMulCUDA<32>(float*, float*, float*, int, int)",
                     "MatrixMulCUDA<32>");
}
END_TEST

START_TEST(test_nested_namespace_templates)
{
    assert_demangles("_ZN1a1b1kINS0_3ArrINS2_IfLi4EEELi8EEEEEvT_",
                     "void a::b::k<a::b::Arr<a::b::Arr<float, 4>, 8> >"
                     "(a::b::Arr<a::b::Arr<float, 4>, 8>)",
                     "a::b::k<a::b::Arr<a::b::Arr<float, 4>, 8> >");
    char *base = demangle_base_name(CUB_SYMBOL);
    ck_assert_str_eq(base, CUB_BASE);
    free(base);
    assert_demangles("_ZN12_GLOBAL__N_14anonIiEEvT_", "void (anonymous namespace)::anon<int>(int)",
                     "(anonymous namespace)::anon<int>");
}
END_TEST

START_TEST(test_operators_and_function_pointers)
{
    assert_demangles("_ZNK2OpIS_IiEEclIS_IlEEEbT_",
                     "bool Op<Op<int> >::operator()<Op<long> >(Op<long>) const",
                     "Op<Op<int> >::operator()<Op<long> >");
    assert_demangles("_ZNK2OpIS_IiEElsIS_IlEEEbT_",
                     "bool Op<Op<int> >::operator<< <Op<long> >(Op<long>) const",
                     "Op<Op<int> >::operator<< <Op<long> >");
    assert_demangles("_Z6fptypeIPFv2OpIiES0_IcEEEvT_",
                     "void fptype<void (*)(Op<int>, Op<char>)>(void (*)(Op<int>, Op<char>))",
                     "fptype<void (*)(Op<int>, Op<char>)>");
    assert_demangles("_ZZ3usevENKUliE_clEi", "use()::{lambda(int)#1}::operator()(int) const",
                     "use()::{lambda(int)#1}::operator()");
    assert_demangles("_Z3cmpILi5EEv1IIXgtT_Li2EEE", "void cmp<5>(I<((5)>(2))>)", "cmp<5>");
}
END_TEST

START_TEST(test_invalid_mangled_names)
{
    static const char *const bad[] = {"", "_Z", "_ZN", "_Zzz", "_Z3fooILi", "_Z999x",
                                      "_ZN3fooILi1EE", "_ZSt"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_not_mangled(bad[i]);
    assert_not_mangled(NULL);
}
END_TEST

START_TEST(test_fitting_name_is_unchanged)
{
    assert_shortens("MatrixMulCUDA<32>", 17, "MatrixMulCUDA<32>");
    assert_shortens(CUB_BASE, strlen(CUB_BASE), CUB_BASE);
    assert_shortens("", 0, "");
}
END_TEST

START_TEST(test_inner_lists_then_trailing_arguments)
{
    assert_shortens(CUB_BASE, 150,
                    "cub::DeviceRadixSortOnesweepKernel<cub::DeviceRadixSortPolicy<…>::Policy900, "
                    "false, unsigned int, cub::NullType, unsigned int, int, …>");
    assert_shortens(CUB_BASE, 90,
                    "cub::DeviceRadixSortOnesweepKernel<cub::DeviceRadixSortPolicy<…>::Policy900, "
                    "false, …>");
    assert_shortens(CUB_BASE, 80,
                    "cub::DeviceRadixSortOnesweepKernel<cub::DeviceRadixSortPolicy<…>::Policy900, "
                    "…>");
    assert_shortens(CUB_BASE, 40, "cub::DeviceRadixSortOnesweepKernel<…>");
    assert_shortens(CUB_BASE, 36, "cub::DeviceRadixSortOnesweepKernel<…");
    assert_shortens(CUB_BASE, 20, "cub::DeviceRadixSor…");
    assert_shortens(CUB_BASE, 1, "…");
    assert_shortens(CUB_BASE, 0, "");
}
END_TEST

START_TEST(test_deepest_list_first)
{
    const char *name = "a::b::k<a::b::Arr<a::b::Arr<float, 4>, 8> >";
    assert_shortens(name, 40, "a::b::k<a::b::Arr<a::b::Arr<…>, 8> >");
    assert_shortens(name, 30, "a::b::k<a::b::Arr<…> >");
    assert_shortens(name, 20, "a::b::k<…>");
    assert_shortens("x<1, 2, 3, 4, 5, 6>", 18, "x<1, 2, 3, 4, …>");
    assert_shortens("x<1, 2, 3, 4, 5, 6>", 12, "x<1, 2, …>");
}
END_TEST

START_TEST(test_operators_are_not_brackets)
{
    assert_shortens("Op<Op<int> >::operator<< <Op<long> >", 30, "Op<…>::operator<< <Op<…> >");
    assert_shortens("Op<Op<int> >::operator-><Op<char> >", 30, "Op<Op<…> >::operator-><Op<…> >");
    assert_shortens("Op<Op<int> >::operator()<Op<long> >", 20, "Op<…>::operator()<…>");
    /* Commas inside a function type's parentheses separate no arguments. */
    assert_shortens("fptype<void (*)(Op<int>, Op<char>)>", 30, "fptype<void (*)(Op<…>, Op<…>)>");
    assert_shortens("fptype<void (*)(Op<int>, Op<char>)>", 25, "fptype<…>");
    /* A '>' inside parentheses compares. */
    assert_shortens("void cmp2<5>(I<((5)>(2))>*, I<5>)", 30, "void cmp2<5>(I<…>*, I<5>)");
    /* Brackets that do not pair up: only cut. */
    assert_shortens("a<b>c>::d<e>", 8, "a<b>c>:…");
}
END_TEST

START_TEST(test_long_name_fits_80_columns)
{
    char *base = demangle_base_name(LONG_SYMBOL);
    ck_assert_ptr_nonnull(base);
    ck_assert_uint_ge(strlen(base), 500);
    assert_shortens(base, 80, "thrust::cuda_cub::core::_kernel_agent<…>");
    assert_shortens(base, 120,
                    "thrust::cuda_cub::core::_kernel_agent<thrust::cuda_cub::core::AgentLauncher<…>, "
                    "thrust::cuda_cub::core::Plus<…>, …>");
    char buf[2048];
    for (size_t width = 0; width <= 200; width++) {
        demangle_shorten(base, width, buf, sizeof buf);
        ck_assert_uint_le(columns(buf), width);
    }
    free(base);
}
END_TEST

/* ---- hostile names -------------------------------------------------------- */

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* k<T_n>() with T_0 = P<int, int> and T_i = P<T_i-1, T_i-1>, mangled as g++
 * mangles it: "_Z1kI1P" "IS0_" x n "IiiE" "S1_E" ... "Sn_E" (base 36) "Evv".
 * Each level doubles the demangled text for ten bytes of symbol: n = 10
 * demangles to 17,406 bytes (base name, as c++filt -p prints it),
 * n = 11 to twice that, past DEMANGLE_MAX_LENGTH, n = 60 to about 2^62.
 * In malloc'd memory. */
static char *doubling_symbol(int n)
{
    char *s = malloc((size_t)n * 10 + 32);
    ck_assert_ptr_nonnull(s);
    size_t len = (size_t)sprintf(s, "_Z1kI1P");
    for (int i = 0; i < n; i++)
        len += (size_t)sprintf(s + len, "IS0_");
    len += (size_t)sprintf(s + len, "IiiE");
    for (int i = 1; i <= n; i++) {
        static const char digits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
        char b36[8];
        int k = (int)sizeof b36 - 1;
        b36[k] = '\0';
        for (int v = i; k == (int)sizeof b36 - 1 || v > 0; v /= 36)
            b36[--k] = digits[v % 36];
        len += (size_t)sprintf(s + len, "S%s_E", b36 + k);
    }
    sprintf(s + len, "Evv");
    return s;
}

START_TEST(test_demangled_text_is_bounded)
{
    char *sym = doubling_symbol(10);
    char *base = demangle_base_name(sym), *full = demangle_symbol(sym);
    ck_assert_ptr_nonnull(base);
    ck_assert_ptr_nonnull(full);
    ck_assert_uint_eq(strlen(base), 17406);
    ck_assert_uint_eq(strlen(full), 17406 + 7); /* "void " and "()" */
    ck_assert_str_eq(full + strlen(full) - 2, "()");
    free(base);
    free(full);
    free(sym);
    /* Past DEMANGLE_MAX_LENGTH: not demangled, the symbol is shown. */
    sym = doubling_symbol(11);
    ck_assert_ptr_null(demangle_base_name(sym));
    ck_assert_ptr_null(demangle_symbol(sym));
    free(sym);
}
END_TEST

/* Demangling stops as it passes the bound: 2^62 bytes of text would take
 * years; all of these take microseconds each.  The 2 s is a limit no
 * loaded machine reaches, not a measurement. */
START_TEST(test_hostile_symbols_are_fast)
{
    double start = seconds();
    for (int n = 11; n <= 60; n++) {
        char *sym = doubling_symbol(n);
        ck_assert_ptr_null(demangle_symbol(sym));
        ck_assert_ptr_null(demangle_base_name(sym));
        free(sym);
    }
    ck_assert_double_lt(seconds() - start, 2.0);
}
END_TEST

/* f<A<A<...A<int>...> > >() with `depth` A's: "_Z1fI" "1AI" x depth "i"
 * "E" x depth "Evv", 3 x depth + 9 bytes; malloc'd. */
static char *nested_symbol(int depth)
{
    char *s = malloc((size_t)depth * 4 + 16);
    ck_assert_ptr_nonnull(s);
    size_t len = (size_t)sprintf(s, "_Z1fI");
    for (int i = 0; i < depth; i++)
        len += (size_t)sprintf(s + len, "1AI");
    len += (size_t)sprintf(s + len, "i");
    for (int i = 0; i < depth; i++)
        s[len++] = 'E';
    strcpy(s + len, "Evv");
    return s;
}

/* What c++filt --no-recursion-limit prints for nested_symbol(depth). */
static char *nested_name(int depth)
{
    char *s = malloc((size_t)depth * 4 + 32);
    ck_assert_ptr_nonnull(s);
    size_t len = (size_t)sprintf(s, "void f<");
    for (int i = 0; i < depth; i++)
        len += (size_t)sprintf(s + len, "A<");
    len += (size_t)sprintf(s + len, "int>");
    for (int i = 1; i < depth; i++)
        len += (size_t)sprintf(s + len, " >");
    strcpy(s + len, " >()");
    return s;
}

/* A symbol of 1,609 bytes, past libiberty's default limit (1,024 bytes:
 * c++filt leaves it mangled without --no-recursion-limit), as a GEMM
 * library's kernels are: demangled.  One of over DEMANGLE_MAX_SYMBOL
 * bytes is not, and the deepest nesting of that length (pointers, one
 * byte a level) demangles without exhausting the stack. */
START_TEST(test_deep_symbols_are_demangled)
{
    char *sym = nested_symbol(400), *want = nested_name(400);
    ck_assert_uint_eq(strlen(sym), 1209 + 400);
    char *full = demangle_symbol(sym), *base = demangle_base_name(sym);
    ck_assert_ptr_nonnull(full);
    ck_assert_str_eq(full, want);
    want[strlen(want) - 2] = '\0';
    ck_assert_str_eq(base, want + 5);
    free(full);
    free(base);
    free(sym);
    free(want);
    sym = nested_symbol((DEMANGLE_MAX_SYMBOL - 9) / 3 + 1);
    ck_assert_uint_gt(strlen(sym), DEMANGLE_MAX_SYMBOL);
    ck_assert_ptr_null(demangle_symbol(sym));
    free(sym);
    char *pointers = malloc(DEMANGLE_MAX_SYMBOL + 1);
    ck_assert_ptr_nonnull(pointers);
    memcpy(pointers, "_Z1fI", 5);
    memset(pointers + 5, 'P', DEMANGLE_MAX_SYMBOL - 9);
    strcpy(pointers + DEMANGLE_MAX_SYMBOL - 4, "iEvv");
    ck_assert_uint_eq(strlen(pointers), DEMANGLE_MAX_SYMBOL);
    free(demangle_symbol(pointers)); /* past libiberty's print depth: NULL; no crash */
    free(pointers);
}
END_TEST

/* A name of a quarter megabyte with 32,767 template lists (a cubin's
 * symbol can be any text): shortening is one pass and a sort, where one
 * list at a time was quadratic (minutes). */
START_TEST(test_shortening_a_huge_name_is_fast)
{
    size_t size = 1u << 19;
    char *name = malloc(size), *next = malloc(size);
    ck_assert_ptr_nonnull(name);
    ck_assert_ptr_nonnull(next);
    strcpy(name, "k");
    for (int i = 0; i < 15; i++) {
        snprintf(next, size, "P<%s, %s >", name, name);
        strcpy(name, next);
    }
    ck_assert_uint_eq(strlen(name), 229370);
    double start = seconds();
    char buf[512];
    assert_shortens(name, 60, "P<P<P<…>, P<…> >, P<P<P<…>, P<…> >, P<P<…>, P<…> > > >");
    demangle_shorten(name, 100, buf, sizeof buf);
    ck_assert_uint_le(columns(buf), 100);
    ck_assert_double_lt(seconds() - start, 2.0);
    free(name);
    free(next);
}
END_TEST

START_TEST(test_small_buffer_keeps_whole_characters)
{
    char buf[8];
    demangle_shorten("abcdefghij", 80, buf, sizeof buf);
    ck_assert_str_eq(buf, "abcdefg");
    /* "…" is three bytes: with four left it fits, with three it does not. */
    char four[5];
    demangle_shorten("k<int, float>", 2, four, sizeof four);
    ck_assert_str_eq(four, "k…");
    demangle_shorten("k<…>", 80, four, sizeof four);
    ck_assert_str_eq(four, "k<");
    char one[1] = {'x'};
    demangle_shorten("abc", 80, one, sizeof one);
    ck_assert_str_eq(one, "");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("demangle");
    TCase *tc = tcase_create("demangle");
    tcase_add_test(tc, test_extern_c_is_not_mangled);
    tcase_add_test(tc, test_plain_function);
    tcase_add_test(tc, test_template_with_int_argument);
    tcase_add_test(tc, test_nested_namespace_templates);
    tcase_add_test(tc, test_operators_and_function_pointers);
    tcase_add_test(tc, test_invalid_mangled_names);
    tcase_add_test(tc, test_fitting_name_is_unchanged);
    tcase_add_test(tc, test_inner_lists_then_trailing_arguments);
    tcase_add_test(tc, test_deepest_list_first);
    tcase_add_test(tc, test_operators_are_not_brackets);
    tcase_add_test(tc, test_long_name_fits_80_columns);
    tcase_add_test(tc, test_small_buffer_keeps_whole_characters);
    tcase_add_test(tc, test_demangled_text_is_bounded);
    tcase_add_test(tc, test_hostile_symbols_are_fast);
    tcase_add_test(tc, test_deep_symbols_are_demangled);
    tcase_add_test(tc, test_shortening_a_huge_name_is_fast);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
