/*
 * cli.h: what the silk-occ subcommands share: messages, option-value
 * parsing and the choice of target GPU.  The exit codes are both
 * programs' (exit_status.h), as documented in silk-occ(1).
 */
#ifndef SILK_CLI_H
#define SILK_CLI_H

#include "exit_status.h"
#include "format_bytes.h"
#include "occupancy.h"
#include "size_expr.h"
#include "tables.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef enum OutputFormat { FORMAT_TEXT, FORMAT_JSON, FORMAT_CSV, FORMAT_MARKDOWN } OutputFormat;

/* A set of formats, for cli_parse_format_among: FORMAT_BIT(FORMAT_CSV) | ... */
#define FORMAT_BIT(format) (1u << (format))

/* "silk-occ calc: error: ..." on stderr.  `command` names the subcommand. */
void cli_error(const char *command, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void cli_warning(const char *command, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Option values.  Each prints a one-line error naming the option and the
 * value and returns false when the text is not acceptable. */
bool cli_parse_integer(const char *command, const char *option, const char *text, long long min,
                   long long max, long long *out);
bool cli_parse_size(const char *command, const char *option, const char *text, uint64_t *out);
bool cli_parse_format(const char *command, const char *text, bool allow_csv, OutputFormat *out);
/* Any set of formats; the error lists them in enum order. */
bool cli_parse_format_among(const char *command, const char *text, unsigned accepted, OutputFormat *out);
bool cli_parse_carveout(const char *command, const char *text, int *out);
/* --cluster X[,Y[,Z]] into dims (1 for an extent left out). */
bool cli_parse_cluster(const char *command, const char *text, int dims[3]);

/* --param NAME=VALUE (params.c): the names size expressions may use
 * besides threads and warps, in the order given. */
enum { CLI_MAX_PARAMS = 64 };
typedef struct CliParams {
    char names[CLI_MAX_PARAMS][SIZE_EXPR_MAX_NAME + 1];
    const char *list[CLI_MAX_PARAMS]; /* names[i], as SizeNames takes them */
    uint64_t values[CLI_MAX_PARAMS];
    size_t n;
} CliParams;
/* Adds one NAME=VALUE (an identifier, not threads or warps, not given
 * before; a whole number) to p; false after one line naming --param. */
bool cli_parse_param(const char *command, const char *text, CliParams *p);
/* option's text as an expression over threads, warps and p's names, the
 * names bound to their values; NULL after one line naming option and the
 * column. */
SizeExpr *cli_parse_size_expr(const char *command, const char *option, const char *text,
                              const CliParams *p);
/* option's value for a block of threads (warps): a plain size as
 * cli_parse_size reads it, else an expression as above, evaluated;
 * *constant (when not NULL) says whether it depends on neither. */
bool cli_eval_size(const char *command, const char *option, const char *text, const CliParams *p,
                   long long threads, long long warps, uint64_t *out, bool *constant);

/* The options of a subcommand, by the loop both programs share
 * (options.h): each goes to take(c, arg,
 * context), which reports a bad value and returns false; --help and -h
 * print `usage` on stdout.  An option with a value given twice is an
 * error ("--threads given twice") unless its code is in `repeatable`
 * ("T" for --arch-table, which adds a file each time).  Returns EXIT_OK
 * with *first_operand set, EXIT_USAGE after one line, or EXIT_HELP. */
struct option;
typedef bool CliOptionFn(int c, char *arg, void *context);
int cli_getopt(const char *command, int argc, char **argv, const char *repeatable,
               const struct option *options, void (*usage)(FILE *), CliOptionFn *take,
               void *context, int *first_operand);

/* A comma-separated list (--arch sm_80,sm_90; --block-sizes 64,96): each
 * element, NUL-terminated for the call, to take(item, context), which says
 * what is wrong and returns false.  An empty list or an empty element
 * ("64,,128", "sm_90,", ",sm_90") is an error naming `option`. */
typedef bool CliItemFn(char *item, void *context);
bool cli_split_list(const char *command, const char *option, char *list, CliItemFn *take,
                    void *context);

/* Writes `root` as indented JSON to `out` and deletes it; EXIT_OK, or
 * EXIT_ENVIRONMENT after one line when there is no memory for the text. */
struct cJSON;
int cli_print_json(const char *command, struct cJSON *root, FILE *out);
/* Adds `key`: value when it is known, else null. */
void cli_json_number_or_null(struct cJSON *o, const char *key, bool known, double value);
/* Adds `key`: value written digit for digit rather than through a double,
 * so that a count past 2^53 (a --work of 2^60 items) stays exact. */
void cli_json_add_count(struct cJSON *o, const char *key, uint64_t value);



/* The tables: built in, then each --arch-table file in order. */
enum { MAX_TABLE_FILES = 16 };
bool target_add_table_file(const char *command, char **files, int *n_files, char *path);
/* Both vendors' tables: a file adds to the one its header names. */
bool target_load_tables(const char *command, ArchTable *table, AmdTable *amd, char **files,
                        int n_files);

/* The GPU a command analyses (occupancy.h's Target), from --arch or --gpu. */
bool target_resolve_arch(const char *command, const ArchTable *table, const char *name, Target *out);
bool target_resolve_gpu(const char *command, const ArchTable *table, const char *name, Target *out);
/* An AMD target (gpu: a product, whose target it selects) as `name`
 * names it in the AMD tables; false, saying nothing, when they lack it
 * (the NVIDIA tables are asked next). */
bool target_resolve_amd(const AmdTable *amd, const char *name, bool gpu, Target *out);

/* Colour for people at a terminal: colour.h's rule, silkc's too (NO_COLOR,
 * TERM=dumb, not a terminal: none). */

/* The subcommands. */
int cmd_calc(int argc, char **argv);
int cmd_arch(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_diff(int argc, char **argv);
/* `silk-occ report` with its report written to `out` instead of stdout
 * (wrap writes a unit's JSON to a file, merge reads units back): the
 * one path of the report, so the three cannot drift.  `command` ("merge";
 * NULL: "report") names the command in what the inputs' reading says. */
int cmd_report_to(const char *command, int argc, char **argv, FILE *out);
int cmd_wrap(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_prune(int argc, char **argv);
void cmd_prune_usage(FILE *out);
void cmd_wrap_usage(FILE *out);
void cmd_merge_usage(FILE *out);
void cmd_calc_usage(FILE *out);
void cmd_arch_usage(FILE *out);
void cmd_verify_usage(FILE *out);
void cmd_report_usage(FILE *out);
void cmd_diff_usage(FILE *out);

#endif
