/*
 * cmd_diff.c: `silk-occ diff OLD.json NEW.json`, the gate a pull request
 * passes: two reports compared per kernel x target (diff_model.c), written
 * as text, JSON or markdown, and exit 1 when a kernel lost a CTA per SM,
 * lost occupancy beyond --tolerance, or spills more.  Works on any
 * report, whatever input kind it came from.
 */
#include "cli.h"
#include "diff_model.h"
#include "escape.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>

static const char *const COMMAND = "diff";

typedef struct DiffOptions {
    OutputFormat format;
    double tolerance;
} DiffOptions;

void cmd_diff_usage(FILE *out)
{
    fputs("usage: silk-occ diff [options] OLD.json NEW.json\n"
          "\n"
          "Two 'silk-occ report --format json' reports compared per kernel x target:\n"
          "registers, shared memory, spills, the selected block size, CTAs per SM and\n"
          "occupancy; kernels added and removed.\n"
          "\n"
          "  --tolerance P      occupancy may drop by up to P percentage points (default 0)\n"
          "  --format F         text | json | markdown (a pull-request comment)\n"
          "\n"
          "exit status: 0 no regression, 1 a regression (a lost CTA per SM, an occupancy\n"
          "drop beyond the tolerance, new spills), 2 usage or an unreadable report.\n",
          out);
}

static bool parse_tolerance(const char *text, double *out)
{
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end || !isfinite(v) || v < 0 || v > 100) {
        cli_error(COMMAND, "--tolerance: '%s' is not a number of percentage points from 0 to 100",
                  QUOTED(text));
        return false;
    }
    *out = v;
    return true;
}

static bool take_option(int c, char *arg, void *context)
{
    DiffOptions *o = context;
    if (c == 't')
        return parse_tolerance(arg, &o->tolerance);
    return cli_parse_format_among(COMMAND, arg,
                                  FORMAT_BIT(FORMAT_TEXT) | FORMAT_BIT(FORMAT_JSON) |
                                      FORMAT_BIT(FORMAT_MARKDOWN),
                                  &o->format); /* 'f' */
}

int cmd_diff(int argc, char **argv)
{
    static const struct option options[] = {
        {"tolerance", required_argument, NULL, 't'},
        {"format", required_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    DiffOptions o = {.format = FORMAT_TEXT};
    int first;
    int rc = cli_getopt(COMMAND, argc, argv, "", options, cmd_diff_usage, take_option, &o, &first);
    if (rc != EXIT_OK)
        return rc == EXIT_HELP ? EXIT_OK : rc;
    if (argc - first != 2) {
        cli_error(COMMAND, "give two reports, OLD.json NEW.json; 'silk-occ help diff' shows usage");
        return EXIT_USAGE;
    }
    DiffModel m;
    char error[1024];
    if (!diff_build(argv[first], argv[first + 1], o.tolerance, &m, error, sizeof error)) {
        cli_error(COMMAND, "%s", ESCAPED(error));
        return EXIT_USAGE;
    }
    rc = o.format == FORMAT_JSON       ? diff_write_json(&m, stdout)
         : o.format == FORMAT_MARKDOWN ? diff_write_markdown(&m, stdout)
                                       : diff_write_text(&m, stdout);
    if (rc == EXIT_OK && diff_has_regression(&m))
        rc = EXIT_FINDINGS;
    diff_free(&m);
    return rc;
}
