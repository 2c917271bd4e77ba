/*
 * golden_files.h: the golden reports of tests/report/golden, for the test
 * programs that check them all (check_schema: every .json against the
 * schema; check_csv: every .csv against its .json).
 */
#ifndef SILK_TESTS_GOLDEN_FILES_H
#define SILK_TESTS_GOLDEN_FILES_H

#include <dirent.h>
#include <stdio.h>
#include <string.h>

/* Calls check(path, context) for each golden file whose name ends in
 * `suffix` (".json"); returns the failures it counted, plus one when it
 * found no file at all (a test that checks nothing must not pass). */
static inline int golden_each(const char *srcdir, const char *suffix,
                              int (*check)(const char *path, void *context), void *context)
{
    char dir[4096], path[8192];
    snprintf(dir, sizeof dir, "%s/tests/report/golden", srcdir);
    DIR *d = opendir(dir);
    if (!d) {
        printf("FAIL: %s: cannot open\n", dir);
        return 1;
    }
    size_t want = strlen(suffix);
    int failures = 0, n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len <= want || strcmp(e->d_name + len - want, suffix) != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        failures += check(path, context);
        n++;
    }
    closedir(d);
    printf("%d golden %s reports checked\n", n, suffix + 1);
    return failures + (n == 0);
}

#endif
