/*
 * demangle.c: libiberty's demangler with the options c++filt uses, and the
 * shortening of long demangled names for text output.  Shortening works on
 * the printed name: it pairs the '<' and '>' of template argument lists,
 * telling them from the operators that contain them (operator<,
 * operator->, a comparison inside parentheses), and gives up on a name it
 * cannot pair, which is then simply cut.
 */
#include "demangle.h"

#include <libiberty/demangle.h>

#include <setjmp.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* c++filt's defaults, with --no-recursion-limit (DEMANGLE_MAX_SYMBOL
 * bounds the cost instead, demangle.h).  The style is given rather than
 * left to libiberty's global current_demangling_style, so Rust, D and
 * Java symbols stay undemangled; DMGL_TYPES is left out, or a kernel
 * named "i" would come back as "int". */
enum { DEMANGLE_OPTIONS = DMGL_ANSI | DMGL_VERBOSE | DMGL_GNU_V3 | DMGL_NO_RECURSE_LIMIT };

/* Where the demangled text goes: a fixed buffer, and the way out when it
 * is full. */
typedef struct Sink {
    char text[DEMANGLE_MAX_LENGTH + 1];
    size_t len;
    jmp_buf full;
} Sink;

/* A few hundred bytes of substitutions (S_, T_) can print gigabytes, and
 * libiberty's callback cannot say stop: it is left by longjmp once the
 * bound is passed.  That is safe because the callback interface is
 * allocation-less (demangle.h: its arrays are on the stack), so nothing
 * is leaked or left half-done. */
static void sink_append(const char *s, size_t n, void *opaque)
{
    Sink *sink = opaque;
    if (n > DEMANGLE_MAX_LENGTH - sink->len)
        longjmp(sink->full, 1);
    memcpy(sink->text + sink->len, s, n);
    sink->len += n;
}

/* What cplus_demangle(symbol, options) gives (its GNU v3 path is this same
 * callback demangler), or NULL past DEMANGLE_MAX_LENGTH bytes of text or
 * DEMANGLE_MAX_SYMBOL of symbol. */
static char *demangle_bounded(const char *symbol, int options)
{
    if (!symbol || strnlen(symbol, DEMANGLE_MAX_SYMBOL + 1) > DEMANGLE_MAX_SYMBOL)
        return NULL;
    Sink *sink = malloc(sizeof *sink);
    if (!sink)
        return NULL;
    sink->len = 0;
    if (setjmp(sink->full) != 0) {
        free(sink);
        return NULL;
    }
    char *out = NULL;
    if (cplus_demangle_v3_callback(symbol, options, sink_append, sink) && sink->len > 0)
        out = strndup(sink->text, sink->len);
    free(sink);
    return out;
}

char *demangle_symbol(const char *symbol)
{
    return demangle_bounded(symbol, DEMANGLE_OPTIONS | DMGL_PARAMS);
}

/* Without DMGL_PARAMS libiberty drops the parameters, the cv-qualifiers of
 * a member function and a template function's return type, and keeps the
 * rest: exactly c++filt -p. */
char *demangle_base_name(const char *symbol)
{
    return demangle_bounded(symbol, DEMANGLE_OPTIONS);
}

/* ---- shortening ---------------------------------------------------------- */

static const char ELLIPSIS[] = "\xe2\x80\xa6"; /* U+2026, one column */
enum { ELLIPSIS_LEN = sizeof ELLIPSIS - 1 };

/* Display columns of n bytes of UTF-8: one per character. */
static size_t width_of(const char *s, size_t n)
{
    size_t w = 0;
    for (size_t i = 0; i < n; i++)
        w += ((unsigned char)s[i] & 0xC0) != 0x80;
    return w;
}

static bool is_ident(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* A template argument list: the offsets of its '<' and '>', how many lists
 * enclose it plus one, the parenthesis depth at its '<', the list that
 * encloses it (-1 for none), and its width as the rules go: the columns
 * between its brackets once every list inside it is shortened. */
typedef struct Span {
    size_t open, close;
    int depth, parens;
    long parent;
    size_t width, lost; /* lost: columns its inner lists give up */
    long keep;          /* bytes of arguments kept; -1: left as it is */
    size_t comma0, n_own_commas; /* its commas in Lists.commas, once grouped */
} Span;

/* A comma between two arguments of the list spans[owner]. */
typedef struct Comma {
    size_t at;
    long owner;
} Comma;

/* Every list and top-level comma of a name, lists in opening order (so an
 * enclosing list comes before the lists inside it); arrays sized for the
 * worst.  columns[i] is the width of the name's first i bytes. */
typedef struct Lists {
    Span *spans;
    long *stack;
    Comma *commas, *scratch;
    size_t *columns;
    struct Key *order;
    size_t n_spans, n_stack, n_commas;
} Lists;

/* A list's place in the rules' order: deeper first, then wider, then
 * further left. */
typedef struct Key {
    int depth;
    size_t width, open;
    long index;
} Key;

/* The length of the operator symbol after "operator" at s, 0 if none of
 * those containing '<', '>', '(' or '['. */
static size_t operator_symbol(const char *s)
{
    static const char *const symbols[] = {"<<=", ">>=", "<=>", "->*", "<<", ">>", "<=",
                                          ">=",  "->",  "()",  "[]",  "<",  ">"};
    for (size_t i = 0; i < sizeof symbols / sizeof *symbols; i++) {
        size_t n = strlen(symbols[i]);
        if (strncmp(s, symbols[i], n) == 0)
            return n;
    }
    return 0;
}

/* When "operator" starts at s[i], skips it and its symbol, returning the
 * offset after them (and after the one space libiberty puts before a '<'
 * that would otherwise touch the symbol's own); i itself otherwise. */
static size_t skip_operator(const char *s, size_t i, bool *template_follows)
{
    if ((i > 0 && is_ident(s[i - 1])) || strncmp(s + i, "operator", 8) != 0 || is_ident(s[i + 8]))
        return i;
    size_t j = i + 8 + operator_symbol(s + i + 8);
    if (s[j] == ' ' && s[j + 1] == '<')
        j++;
    *template_follows = s[j] == '<';
    return j;
}

static void open_list(Lists *l, size_t at, int parens)
{
    long parent = l->n_stack ? l->stack[l->n_stack - 1] : -1;
    l->spans[l->n_spans] = (Span){.open = at, .depth = (int)l->n_stack + 1, .parens = parens,
                                  .parent = parent, .keep = -1};
    l->stack[l->n_stack++] = (long)l->n_spans++;
}

/* A '>' closes the innermost list when it is at that list's parenthesis
 * depth; deeper, it is a comparison, which libiberty parenthesizes. */
static bool close_list(Lists *l, size_t at, int parens)
{
    if (l->n_stack == 0)
        return parens > 0;
    Span *top = &l->spans[l->stack[l->n_stack - 1]];
    if (parens > top->parens)
        return true;
    top->close = at;
    l->n_stack--;
    return true;
}

static void note_comma(Lists *l, size_t at, int parens)
{
    if (l->n_stack > 0 && l->spans[l->stack[l->n_stack - 1]].parens == parens)
        l->commas[l->n_commas++] = (Comma){.at = at, .owner = l->stack[l->n_stack - 1]};
}

/* A ')' must close a parenthesis opened inside the innermost list. */
static bool close_paren(const Lists *l, int *parens)
{
    if (*parens == 0 || (l->n_stack > 0 && l->spans[l->stack[l->n_stack - 1]].parens == *parens))
        return false;
    --*parens;
    return true;
}

/* Pairs the brackets of s in one pass, and counts its columns; false when
 * the brackets do not pair up. */
static bool scan_lists(const char *s, Lists *l)
{
    l->n_spans = l->n_stack = l->n_commas = 0;
    int parens = 0;
    bool template_follows = false;
    l->columns[0] = 0;
    for (size_t i = 0; s[i];) {
        size_t next = skip_operator(s, i, &template_follows);
        if (next == i) {
            char c = s[i];
            if (c == '<' && (template_follows || (i > 0 && is_ident(s[i - 1]))))
                open_list(l, i, parens);
            else if (c == '>' && !close_list(l, i, parens))
                return false;
            else if (c == '(')
                parens++;
            else if (c == ')' && !close_paren(l, &parens))
                return false;
            else if (c == ',')
                note_comma(l, i, parens);
            template_follows = false;
            next = i + (c == '-' && s[i + 1] == '>' ? 2 : 1);
        }
        for (; i < next; i++)
            l->columns[i + 1] = l->columns[i] + (((unsigned char)s[i] & 0xC0) != 0x80);
    }
    return l->n_stack == 0 && parens == 0;
}

static size_t content_width(const Lists *l, const Span *sp)
{
    return l->columns[sp->close] - l->columns[sp->open + 1];
}

/* Each list's width once every list inside it is shortened to <…> (or
 * left, at one column or none): inner lists come after their parent, so
 * one backward pass settles each before its parent needs it. */
static void settle_widths(Lists *l)
{
    for (size_t i = 0; i < l->n_spans; i++)
        l->spans[i].lost = 0;
    for (size_t i = l->n_spans; i-- > 0;) {
        Span *sp = &l->spans[i];
        sp->width = content_width(l, sp) - sp->lost;
        size_t shortened = sp->width > 1 ? 1 : sp->width;
        if (sp->parent >= 0)
            l->spans[sp->parent].lost += content_width(l, sp) - shortened;
    }
}

static int by_rule(const void *a, const void *b)
{
    const Key *x = a, *y = b;
    if (x->depth != y->depth)
        return x->depth > y->depth ? -1 : 1;
    if (x->width != y->width)
        return x->width > y->width ? -1 : 1;
    return x->open < y->open ? -1 : x->open > y->open;
}

/* The lists that `want` says may be shortened, in the rules' order. */
static size_t order_spans(Lists *l, bool (*want)(const char *, const Lists *, const Span *),
                          const char *s)
{
    size_t n = 0;
    for (size_t i = 0; i < l->n_spans; i++) {
        const Span *sp = &l->spans[i];
        if (sp->width > 1 && want(s, l, sp))
            l->order[n++] = (Key){.depth = sp->depth, .width = sp->width, .open = sp->open,
                                  .index = (long)i};
    }
    qsort(l->order, n, sizeof *l->order, by_rule);
    return n;
}

static bool is_inner(const char *s, const Lists *l, const Span *sp)
{
    (void)s, (void)l;
    return sp->depth >= 2;
}

static bool ends_with_ellipsis(const char *s, const Lists *l, const Span *sp)
{
    (void)l;
    size_t n = sp->close - sp->open - 1;
    return n >= ELLIPSIS_LEN && memcmp(s + sp->close - ELLIPSIS_LEN, ELLIPSIS, ELLIPSIS_LEN) == 0;
}

static bool is_outer_whole(const char *s, const Lists *l, const Span *sp)
{
    return sp->depth == 1 && !ends_with_ellipsis(s, l, sp);
}

/* s with each list that has keep >= 0 rewritten to its first keep bytes,
 * ", " when there are any, and "…"; lists inside a rewritten one go with
 * it.  NULL when out of memory. */
static char *rewrite(const char *s, const Lists *l)
{
    char *out = malloc(strlen(s) + 1 + l->n_spans * (ELLIPSIS_LEN + 2));
    if (!out)
        return NULL;
    size_t from = 0, n = 0;
    for (size_t i = 0; i < l->n_spans; i++) {
        const Span *sp = &l->spans[i];
        if (sp->keep < 0 || sp->open < from)
            continue;
        size_t upto = sp->open + 1 + (size_t)sp->keep;
        memcpy(out + n, s + from, upto - from);
        n += upto - from;
        if (sp->keep > 0)
            out[n++] = ',', out[n++] = ' ';
        memcpy(out + n, ELLIPSIS, ELLIPSIS_LEN);
        n += ELLIPSIS_LEN;
        from = sp->close;
    }
    strcpy(out + n, s + from);
    return out;
}

/* Rule 1 on *s: inner lists become <…> until it fits or none is left.
 * The widths settled beforehand are the ones each list has when its turn
 * comes, since every deeper list has gone by then.  Returns the width
 * reached; false when out of memory. */
static bool shorten_inner(char **s, Lists *l, size_t max_width, size_t *width)
{
    settle_widths(l);
    size_t n = order_spans(l, is_inner, *s);
    for (size_t i = 0; i < n && *width > max_width; i++) {
        Span *sp = &l->spans[l->order[i].index];
        *width -= sp->width - 1;
        sp->keep = 0;
    }
    char *out = rewrite(*s, l);
    if (!out)
        return false;
    free(*s);
    *s = out;
    return true;
}

/* How many bytes of sp's arguments to keep so that the name, `others`
 * columns outside sp, fits max_width with ", …" after them: up to its
 * last top-level comma that fits, or 0. */
static size_t arguments_that_fit(const Lists *l, const Span *sp, size_t others, size_t max_width)
{
    size_t keep = 0;
    for (size_t i = sp->comma0; i < sp->comma0 + sp->n_own_commas; i++) {
        size_t at = l->commas[i].at;
        if (others + l->columns[at] - l->columns[sp->open + 1] + 3 <= max_width)
            keep = at - sp->open - 1;
    }
    return keep;
}

/* The commas of each list made contiguous in l->commas, in order (a
 * counting sort by list), so that each list reads only its own. */
static void group_commas(Lists *l)
{
    for (size_t i = 0; i < l->n_spans; i++)
        l->spans[i].n_own_commas = 0;
    for (size_t i = 0; i < l->n_commas; i++)
        l->spans[l->commas[i].owner].n_own_commas++;
    size_t at = 0;
    for (size_t i = 0; i < l->n_spans; i++) {
        l->spans[i].comma0 = at;
        at += l->spans[i].n_own_commas;
        l->spans[i].n_own_commas = 0;
    }
    for (size_t i = 0; i < l->n_commas; i++) {
        Span *owner = &l->spans[l->commas[i].owner];
        l->scratch[owner->comma0 + owner->n_own_commas++] = l->commas[i];
    }
    memcpy(l->commas, l->scratch, l->n_commas * sizeof *l->commas);
}

/* Rule 2 on *s (rule 1 done): the widest outermost list first, then the
 * leftmost, keeps the leading arguments that fit, until the name fits.
 * False when out of memory. */
static bool shorten_outer(char **s, Lists *l, size_t max_width, size_t width)
{
    for (size_t i = 0; i < l->n_spans; i++)
        l->spans[i].width = content_width(l, &l->spans[i]);
    group_commas(l);
    size_t n = order_spans(l, is_outer_whole, *s);
    for (size_t i = 0; i < n && width > max_width; i++) {
        Span *sp = &l->spans[l->order[i].index];
        size_t others = width - sp->width;
        size_t keep = arguments_that_fit(l, sp, others, max_width);
        sp->keep = (long)keep;
        width = others + (keep ? l->columns[sp->open + 1 + keep] - l->columns[sp->open + 1] + 3 : 1);
    }
    char *out = rewrite(*s, l);
    if (!out)
        return false;
    free(*s);
    *s = out;
    return true;
}

static bool lists_alloc(Lists *l, size_t len)
{
    l->spans = malloc((len + 1) * sizeof *l->spans);
    l->stack = malloc((len + 1) * sizeof *l->stack);
    l->commas = malloc((len + 1) * sizeof *l->commas);
    l->scratch = malloc((len + 1) * sizeof *l->scratch);
    l->columns = malloc((len + 1) * sizeof *l->columns);
    l->order = malloc((len + 1) * sizeof *l->order);
    return l->spans && l->stack && l->commas && l->scratch && l->columns && l->order;
}

static void lists_free(Lists *l)
{
    free(l->spans);
    free(l->stack);
    free(l->commas);
    free(l->scratch);
    free(l->columns);
    free(l->order);
}

/* Rules 1 and 2 on *s, each one pass over the name and a sort of its lists:
 * n log n for a name of n bytes, where one list at a time, rescanning the
 * name after each, was quadratic. */
static void shorten_lists(char **s, size_t max_width)
{
    size_t len = strlen(*s), width = 0;
    Lists l = {0};
    bool inner = lists_alloc(&l, len) && scan_lists(*s, &l) &&
                 (width = l.columns[len], shorten_inner(s, &l, max_width, &width));
    lists_free(&l);
    /* Rule 1 may have made the name longer in bytes ("…" is three). */
    len = strlen(*s);
    l = (Lists){0};
    if (inner && width > max_width && lists_alloc(&l, len) && scan_lists(*s, &l))
        shorten_outer(s, &l, max_width, l.columns[len]);
    lists_free(&l);
}

/* Bytes in the UTF-8 character starting at s. */
static size_t char_length(const char *s)
{
    size_t n = 1;
    while (((unsigned char)s[n] & 0xC0) == 0x80)
        n++;
    return n;
}

/* Copies s into buf whole, or (when it is wider than max_width) its first
 * max_width - 1 characters and an ellipsis; never splits a character, and
 * stops early when buf is too small. */
static void copy_cut(const char *s, size_t max_width, char *buf, size_t size)
{
    bool cut = width_of(s, strlen(s)) > max_width && max_width > 0;
    size_t room = size - 1;
    bool ellipsis = cut && room >= ELLIPSIS_LEN;
    if (ellipsis)
        room -= ELLIPSIS_LEN;
    size_t n = 0, w = 0;
    while (s[n] && w < (cut ? max_width - 1 : max_width) && n + char_length(s + n) <= room) {
        n += char_length(s + n);
        w++;
    }
    memcpy(buf, s, n);
    if (ellipsis) {
        memcpy(buf + n, ELLIPSIS, ELLIPSIS_LEN);
        n += ELLIPSIS_LEN;
    }
    buf[n] = '\0';
}

void demangle_shorten(const char *name, size_t max_width, char *buf, size_t size)
{
    if (size == 0)
        return;
    char *s = width_of(name, strlen(name)) > max_width ? strdup(name) : NULL;
    if (s)
        shorten_lists(&s, max_width);
    copy_cut(s ? s : name, max_width, buf, size);
    free(s);
}
