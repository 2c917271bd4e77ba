/*
 * report_titles.c: the kernel titles of the people's formats (text and
 * markdown), shortened to REPORT_TITLE_WIDTH columns and distinct: two
 * instances of one template (CUB's two DeviceReduceSingleTileKernel
 * instances, a GEMM kernel at 3 and at 4 stages) shorten to the same
 * "Kernel<…>(…)", which would read as one kernel listed twice.  So the
 * titles of a report are made together: each kernel's title is shortened
 * alone, and a title that another kernel's equals gets, in brackets, the
 * template (or parameter) argument where its name first differs from
 * that kernel's, in the list that holds it ("[Pipeline<…, 3, …>]"); if
 * even that leaves two alike (names that differ only past a cut, or
 * brackets that do not pair up), a "#N" in symbol order.  JSON keeps the
 * names whole and needs none of this.
 */
#include "report_writers.h"

#include "demangle.h"
#include "escape.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(REPORT_CODE_SIZE >= DEMANGLE_MAX_LENGTH + 2048,
               "a snippet holds the longest demangled name and its code");

/* The parameter list at the end of a demangled title ("(float*, int)"),
 * or "" when it has none. */
static const char *parameter_list(const char *title)
{
    size_t n = strlen(title);
    if (n == 0 || title[n - 1] != ')')
        return "";
    int depth = 0;
    for (size_t i = n; i-- > 0;) {
        depth += title[i] == ')' ? 1 : title[i] == '(' ? -1 : 0;
        if (depth == 0)
            return title + i;
    }
    return "";
}

/* The launch name and the parameters, without the return type.  What
 * tells two instances of a template apart is the template arguments, so
 * when a template's whole is too wide the parameters go first, then the
 * arguments are shortened; other names are cut at the end. */
static void shorten_title(const MeasuredKernel *k, char *buf, size_t size)
{
    const char *params = parameter_list(k->title);
    if (k->title == k->name || !*params) {
        demangle_shorten(k->title, REPORT_TITLE_WIDTH, buf, size);
        return;
    }
    if (strlen(k->cxx_name) + strlen(params) <= REPORT_TITLE_WIDTH || !strchr(k->cxx_name, '<')) {
        char whole[4096];
        snprintf(whole, sizeof whole, "%s%s", k->cxx_name, params);
        demangle_shorten(whole, REPORT_TITLE_WIDTH, buf, size);
        return;
    }
    size_t room = size > 8 ? size - 8 : 0;
    demangle_shorten(k->cxx_name, REPORT_TITLE_WIDTH - 5, buf, room);
    snprintf(buf + strlen(buf), size - strlen(buf), "(%s)", strcmp(params, "()") ? "\u2026" : "");
}

/* ---- telling instances apart ------------------------------------------------ */

static bool is_ident(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == ':' || c == '~';
}

/* The bytes of an operator's symbol after "operator" (operator<, ->, <<=),
 * which are no brackets of a list. */
static size_t operator_symbol(const char *s, size_t i)
{
    static const char OP[] = "operator";
    size_t n = sizeof OP - 1, j = i;
    if (i < n || strncmp(s + i - n, OP, n) != 0 || (i > n && is_ident(s[i - n - 1])))
        return 0;
    while (s[j] && strchr("<>=-!+*/%^&|~[]", s[j]))
        j++;
    return j - i;
}

/* A bracket pair of a name: '<' and '>' of a template argument list, or
 * '(' and ')' of a parameter list. */
typedef struct Pair {
    size_t open, close;
} Pair;

/* The innermost list of `s` that holds byte `p` between its brackets;
 * false when none does (the names differ outside every list) or the
 * brackets do not pair up. */
static bool innermost_list(const char *s, size_t p, Pair *out)
{
    size_t len = strlen(s), *stack = malloc((len + 1) * sizeof *stack), depth = 0;
    bool found = false;
    for (size_t i = 0; stack && i < len && !found; i++) {
        size_t op = operator_symbol(s, i);
        if (op) {
            i += op - 1;
        } else if (s[i] == '<' || s[i] == '(') {
            stack[depth++] = i;
        } else if (s[i] == '>' || s[i] == ')') {
            if (depth == 0 || s[stack[depth - 1]] != (s[i] == '>' ? '<' : '('))
                break;
            size_t open = stack[--depth];
            if (open < p && p <= i) {
                *out = (Pair){open, i};
                found = true;
            }
        }
    }
    free(stack);
    return found;
}

/* The argument of the list `l` of `s` that holds byte p: its first and
 * one-past-last bytes, blanks trimmed. */
static Pair argument_at(const char *s, Pair l, size_t p)
{
    Pair a = {l.open + 1, l.close};
    int depth = 0;
    for (size_t i = l.open + 1; i < l.close; i++) {
        size_t op = operator_symbol(s, i);
        if (op) {
            i += op - 1;
            continue;
        }
        depth += (s[i] == '<' || s[i] == '(') - (s[i] == '>' || s[i] == ')');
        if (depth == 0 && s[i] == ',') {
            if (i < p)
                a.open = i + 1;
            else if (a.close == l.close)
                a.close = i;
        }
    }
    while (a.open < a.close && s[a.open] == ' ')
        a.open++;
    return a;
}

/* Writes into buf the list of `title` around byte p, with only the
 * argument that holds p: "Pipeline<…, 3, …>"; false when p is in no list. */
static bool difference_words(const char *title, size_t p, char *buf, size_t size)
{
    Pair l;
    if (!innermost_list(title, p, &l))
        return false;
    Pair a = argument_at(title, l, p);
    size_t name = l.open;
    while (name > 0 && is_ident(title[name - 1]) && title[name - 1] != ':')
        name--;
    char words[512];
    snprintf(words, sizeof words, "%.*s%c%s%.*s%s%c", (int)(l.open - name), title + name,
             title[l.open], a.open > l.open + 1 ? "\u2026, " : "", (int)(a.close - a.open),
             title + a.open, a.close < l.close ? ", \u2026" : "", title[l.close]);
    demangle_shorten(words, 48, buf, size);
    return true;
}

static size_t first_difference(const char *a, const char *b)
{
    size_t i = 0;
    while (a[i] && a[i] == b[i])
        i++;
    return i;
}

/* One title being made: the entry's kernel and its shortened title. */
typedef struct Title {
    const MeasuredKernel *k;
    char text[REPORT_TITLE_SIZE];
} Title;

/* Whether titles i and j read alike but name different kernels. */
static bool clash(const Title *t, int i, int j)
{
    return i != j && strcmp(t[i].k->name, t[j].k->name) != 0 && strcmp(t[i].text, t[j].text) == 0;
}

/* At most this many places are shown for one title: it stays within
 * REPORT_TITLE_SIZE (3 x 48 columns of at most 3 bytes each, beside at
 * most 100 of its own), and past two the "#N" tells the rest apart. */
enum { MAX_PLACES = 3 };

/* Writes into `out` (REPORT_TITLE_SIZE bytes) " [words]": where t[i]'s
 * name first differs from each kernel whose title it shares, once per
 * place; "" when no place is in a list. */
static void differences(const Title *t, int n, int i, char *out)
{
    char shown[REPORT_TITLE_SIZE] = "", words[160];
    size_t done[MAX_PLACES];
    int n_done = 0;
    for (int j = 0; j < n && n_done < MAX_PLACES; j++) {
        if (!clash(t, i, j))
            continue;
        size_t p = first_difference(t[i].k->title, t[j].k->title);
        int q = 0;
        while (q < n_done && done[q] != p)
            q++;
        if (q < n_done || !difference_words(t[i].k->title, p, words, sizeof words))
            continue;
        done[n_done++] = p;
        size_t used = strlen(shown);
        snprintf(shown + used, sizeof shown - used, "%s%s", used ? "; " : "", words);
    }
    snprintf(out, REPORT_TITLE_SIZE, *shown ? " [%s]" : "%s", shown);
}

/* Every clashing title with its differences, all worked out on the
 * titles as they were before any changed. */
static void add_differences(Title *t, int n, const bool *clashed)
{
    char *suffix = malloc((size_t)n * REPORT_TITLE_SIZE);
    if (!suffix)
        return;
    for (int i = 0; i < n; i++)
        if (clashed[i])
            differences(t, n, i, suffix + (size_t)i * REPORT_TITLE_SIZE);
    for (int i = 0; i < n; i++) {
        size_t used = strlen(t[i].text);
        if (clashed[i])
            snprintf(t[i].text + used, sizeof t[i].text - used, "%s",
                     suffix + (size_t)i * REPORT_TITLE_SIZE);
    }
    free(suffix);
}

/* Title order for find_clashes: by text, then by symbol. */
static int by_text_then_name(const void *a, const void *b)
{
    const Title *x = *(const Title *const *)a, *y = *(const Title *const *)b;
    int c = strcmp(x->text, y->text);
    return c ? c : strcmp(x->k->name, y->k->name);
}

/* Marks in clashed[] every title that another kernel's reads like: the
 * titles sorted, so that alike ones sit together, and a run of one text
 * that holds more than one symbol clashes (a report of thousands of
 * kernels is not compared pair by pair).  False when none clash, or when
 * out of memory (the titles then stay as they are). */
static bool find_clashes(const Title *t, int n, bool *clashed)
{
    const Title **order = malloc((size_t)(n ? n : 1) * sizeof *order);
    if (!order)
        return false;
    for (int i = 0; i < n; i++) {
        order[i] = &t[i];
        clashed[i] = false;
    }
    qsort(order, (size_t)n, sizeof *order, by_text_then_name);
    bool any = false;
    for (int start = 0, end; start < n; start = end) {
        bool several = false;
        for (end = start + 1; end < n && !strcmp(order[end]->text, order[start]->text); end++)
            several |= strcmp(order[end]->k->name, order[start]->k->name) != 0;
        for (int i = start; several && i < end; i++)
            clashed[order[i] - t] = true;
        any |= several;
    }
    free(order);
    return any;
}

/* Whether t[j] is the first title of its kernel (a kernel has one entry
 * per target). */
static bool first_of_kernel(const Title *t, int j)
{
    for (int i = 0; i < j; i++)
        if (strcmp(t[i].k->name, t[j].k->name) == 0)
            return false;
    return true;
}

/* The last resort: "#N", N counting the kernels whose titles still read
 * alike in the order of their symbols. */
static void number_instances(Title *t, int n, const bool *clashed)
{
    int *rank = calloc((size_t)n, sizeof *rank);
    if (!rank)
        return;
    for (int i = 0; i < n; i++)
        for (int j = 0; clashed[i] && j < n; j++)
            rank[i] += !strcmp(t[j].text, t[i].text) && strcmp(t[j].k->name, t[i].k->name) < 0 &&
                       first_of_kernel(t, j);
    for (int i = 0; i < n; i++) {
        size_t used = strlen(t[i].text);
        if (clashed[i])
            snprintf(t[i].text + used, sizeof t[i].text - used, " #%d", rank[i] + 1);
    }
    free(rank);
}

/* The titles, what a terminal would act on escaped: a cubin's symbol may
 * hold any byte (escape.h).  In one malloc'd block, NULL when out of
 * memory. */
static char **escaped_titles(const Title *t, int n)
{
    size_t room = 4 * REPORT_TITLE_SIZE;
    char **out = malloc((size_t)n * (sizeof *out + room) + sizeof *out);
    if (!out)
        return NULL;
    char *text = (char *)(out + n + 1);
    for (int i = 0; i < n; i++, text += room) {
        out[i] = text;
        escape_text(t[i].text, out[i], room);
    }
    out[n] = NULL;
    return out;
}

char **report_titles_make(const ReportModel *m)
{
    int n = m->n_entries;
    Title *t = malloc((size_t)(n ? n : 1) * sizeof *t);
    bool *clashed = malloc((size_t)(n ? n : 1) * sizeof *clashed);
    char **out = NULL;
    if (t && clashed) {
        for (int i = 0; i < n; i++) {
            t[i].k = &m->entries[i].kernel;
            shorten_title(t[i].k, t[i].text, sizeof t[i].text);
        }
        if (find_clashes(t, n, clashed)) {
            add_differences(t, n, clashed);
            if (find_clashes(t, n, clashed))
                number_instances(t, n, clashed);
        }
        out = escaped_titles(t, n);
    }
    free(t);
    free(clashed);
    return out;
}

void report_titles_free(char **titles)
{
    free(titles);
}
