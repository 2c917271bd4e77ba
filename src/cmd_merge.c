/*
 * cmd_merge.c: `silk-occ merge [OPTIONS] FILES.json...`, one report of
 * many units' report JSON (what `silk-occ wrap` leaves beside each
 * object of a build): each file is an input of the report like any other
 * (the door reads a report's JSON back into measured kernels,
 * compiler/measure_report.c), so the model and every writer run as for
 * `silk-occ report` of the units themselves.  Only report JSON is taken
 * here; the targets are the files' own unless --arch or --gpu is given.
 */
#include "cli.h"
#include "escape.h"

#include <string.h>

static const char *const COMMAND = "merge";

void cmd_merge_usage(FILE *out)
{
    fputs("usage: silk-occ merge FILE.json... [options]\n"
          "\n"
          "One report of the units' report JSON (silk-occ report --format json, or the\n"
          "OBJ.silk-occ.json files of silk-occ wrap), in any format: each kernel x target\n"
          "of every file, computed again from its measured figures.  The targets are the\n"
          "files' architectures unless --arch or --gpu is given.  Every option of\n"
          "silk-occ report applies (--format, --gpu, --block-sizes, --work, --expect-*...).\n"
          "See silk-occ(1).\n",
          out);
}

static bool is_json(const char *path)
{
    size_t n = strlen(path);
    return n >= 5 && strcmp(path + n - 5, ".json") == 0;
}

/* The operands, as the report's option loop will see them: every word
 * that is neither an option nor an option's value.  A file of another
 * kind is refused here, so that merge never compiles anything. */
static bool only_reports(int argc, char **argv)
{
    bool any = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            for (i++; i < argc; i++) {
                if (!is_json(argv[i]))
                    goto refuse;
                any = true;
            }
            break;
        }
        if (a[0] == '-' && a[1]) {
            bool flag = strchr(a, '=') || !strcmp(a, "--all") || !strcmp(a, "--check-caps") ||
                        !strcmp(a, "--fixed-block-size") || !strcmp(a, "--help") || !strcmp(a, "-h");
            if (!strcmp(a, "--help") || !strcmp(a, "-h"))
                return true;
            i += !flag;
            continue;
        }
        if (!is_json(a))
            goto refuse;
        any = true;
        continue;
    refuse:
        cli_error(COMMAND, "%s: not a report's JSON (merge reads the .json files of silk-occ report "
                           "--format json and silk-occ wrap)", ESCAPED(argv[i]));
        return false;
    }
    if (!any)
        cli_error(COMMAND, "give one or more report JSON files: silk-occ merge $(find build -name "
                           "'*.silk-occ.json')");
    return any;
}

int cmd_merge(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            cmd_merge_usage(stdout);
            return EXIT_OK;
        }
    if (!only_reports(argc, argv))
        return EXIT_USAGE;
    return cmd_report_to(COMMAND, argc, argv, stdout);
}
