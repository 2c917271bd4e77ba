/*
 * check_report_pins.c: report_pin_find (report/report_pins.c) on names
 * written by hand, one table row each: which namespaces fix a kernel's
 * launch (the libraries', the user's, by the demangled name or, when the
 * demangler gave up, by the mangled symbol), what --fixed-block-size
 * pins, and which bounds are a template argument of the kernel's own
 * template-id (not of a type inside it); and the --fixed-namespace check.
 */
#include <config.h>

#include "report_model.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct PinCase {
    const char *symbol, *cxx_name;
    int reqntid, maxntid;
    bool fixed_option;
    const char *user_ns;   /* one --fixed-namespace; NULL none */
    ReportPinBy by;
    int threads;
    const char *library;
    int template_bound;
} PinCase;

static const PinCase cases[] = {
    /* A template argument that is the bound, written as the demangler does. */
    {"_Z5scaleILi512EEvPfi", "scale<512>", 0, 512, false, NULL, REPORT_PIN_NONE, 0, "", 512},
    {"_Z1kILj256EEvv", "k<256u>", 0, 256, false, NULL, REPORT_PIN_NONE, 0, "", 256},
    {"_Z1kILs128EEvv", "k<(short)128>", 0, 128, false, NULL, REPORT_PIN_NONE, 0, "", 128},
    {"_Z1kIfLi4ELi256EEvv", "k<float, 4, 256>", 0, 256, false, NULL, REPORT_PIN_NONE, 0, "", 256},
    /* Not the kernel's own argument, not equal, no bound, a fixed size. */
    {"_Z1kI1PILi256EEEvv", "k<P<256> >", 0, 256, false, NULL, REPORT_PIN_NONE, 0, "", 0},
    {"_Z1kILi16EEvv", "k<16>", 0, 256, false, NULL, REPORT_PIN_NONE, 0, "", 0},
    {"_Z1kILi2560EEvv", "k<2560>", 0, 256, false, NULL, REPORT_PIN_NONE, 0, "", 0},
    {"_Z1kILi256EEvv", "k<256>", 0, 0, false, NULL, REPORT_PIN_NONE, 0, "", 0},
    {"_Z1kILi256EEvv", "k<256>", 256, 0, false, NULL, REPORT_PIN_NONE, 0, "", 0},
    /* --fixed-block-size pins the bound; it needs one. */
    {"_Z5scaleILi512EEvPfi", "scale<512>", 0, 512, true, NULL, REPORT_PIN_OPTION, 512, "", 0},
    {"saxpy", "saxpy", 0, 0, true, NULL, REPORT_PIN_NONE, 0, "", 0},
    /* The libraries, CUB's versioned inline namespace inside cub. */
    {"_ZN3cub17CUB_300001_SM_9006detail11EmptyKernelIvEEvv",
     "cub::CUB_300001_SM_900::detail::EmptyKernel<void>", 0, 0, false, NULL,
     REPORT_PIN_LIBRARY_UNBOUND, 0, "cub", 0},
    {"_ZN3cub1kEv", "cub::k", 0, 384, false, NULL, REPORT_PIN_LIBRARY, 384, "cub", 0},
    {"_ZN6thrust1kEv", "thrust::k", 128, 0, false, NULL, REPORT_PIN_NONE, 0, "thrust", 0},
    {"_ZN7cutlass6KernelINS_4GemmEEEvv", "_ZN7cutlass6KernelINS_4GemmEEEvv", 0, 128, false, NULL,
     REPORT_PIN_LIBRARY, 128, "cutlass", 0},
    {"_ZN4cute1kEv", "cute::k", 0, 256, true, NULL, REPORT_PIN_LIBRARY, 256, "cute", 0},
    /* Names that only start like a library's. */
    {"_ZN5cubic1kEv", "cubic::k", 0, 512, false, NULL, REPORT_PIN_NONE, 0, "", 0},
    {"_Z3cubv", "cub", 0, 512, false, NULL, REPORT_PIN_NONE, 0, "", 0},
    {"_ZN2my3cub1kEv", "my::cub::k", 0, 512, false, NULL, REPORT_PIN_NONE, 0, "", 0},
    /* The user's namespaces, nested ones and a trailing "::". */
    {"_ZN5tiles4blurEv", "tiles::blur", 0, 512, false, "tiles", REPORT_PIN_LIBRARY, 512, "tiles", 0},
    {"_ZN5tiles6detail1kEv", "tiles::detail::k", 0, 0, false, "tiles::detail::",
     REPORT_PIN_LIBRARY_UNBOUND, 0, "tiles::detail", 0},
    {"_ZN5tiles6detail1kEv", "_ZN5tiles6detail1kEv", 0, 64, false, "tiles::detail",
     REPORT_PIN_LIBRARY, 64, "tiles::detail", 0},
    {"_ZN5tiles4blurEv", "tiles::blur", 0, 512, false, "til", REPORT_PIN_NONE, 0, "", 0},
};

START_TEST(test_pin_of_a_name)
{
    const PinCase *c = &cases[_i];
    ReportSettings s = {.fixed_block_size = c->fixed_option};
    if (c->user_ns)
        s.fixed_namespaces[s.n_fixed_namespaces++] = c->user_ns;
    ReportEntry e = {.kernel = {.name = c->symbol, .title = c->cxx_name, .cxx_name = c->cxx_name,
                                .reqntid = c->reqntid, .maxntid = c->maxntid}};
    report_pin_find(&e, &s);
    ck_assert_msg(e.pin.by == c->by, "%s: by %d, want %d", c->cxx_name, e.pin.by, c->by);
    ck_assert_int_eq(e.pin.threads, c->threads);
    ck_assert_str_eq(e.pin.library, c->library);
    ck_assert_msg(e.pin.template_bound == c->template_bound, "%s: template bound %d, want %d",
                  c->cxx_name, e.pin.template_bound, c->template_bound);
}
END_TEST

START_TEST(test_namespace_check)
{
    static const char *const good[] = {"cub", "my_lib", "a::b", "a::b::", "_x9::Y"};
    static const char *const bad[] = {"", "::", "::a", "a:b", "a::::b", "1a", "a b", "a::b:::",
                                      "a\nb", "a-b"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        ck_assert_msg(report_namespace_valid(good[i]), "'%s' refused", good[i]);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(!report_namespace_valid(bad[i]), "'%s' taken", bad[i]);
    char longest[REPORT_NAMESPACE_MAX + 1];
    memset(longest, 'a', sizeof longest - 1);
    longest[REPORT_NAMESPACE_MAX - 1] = '\0';
    ck_assert(report_namespace_valid(longest));
    longest[REPORT_NAMESPACE_MAX - 1] = 'a';
    longest[REPORT_NAMESPACE_MAX] = '\0';
    ck_assert(!report_namespace_valid(longest));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("report_pins");
    TCase *tc = tcase_create("pins");
    tcase_add_loop_test(tc, test_pin_of_a_name, 0, (int)(sizeof cases / sizeof cases[0]));
    tcase_add_test(tc, test_namespace_check);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
