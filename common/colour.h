/*
 * colour.h: the one rule both programs follow for colour (silkc's
 * diagnostics, silk-occ's bold text).  Colour is for a person at a
 * terminal, so it is off when
 *   - NO_COLOR is set to anything non-empty (no-color.org),
 *   - TERM is "dumb" (as in GCC: a terminal that cannot show it),
 *   - the stream is not a terminal (a file, a pipe, a test).
 * An explicit option (silkc's -fcolor-diagnostics) is applied after the
 * rule by its caller, and wins.
 */
#ifndef SILK_COLOUR_H
#define SILK_COLOUR_H

#include <stdbool.h>
#include <stdio.h>

/* The rule on given facts: $NO_COLOR and $TERM (NULL when unset) and
 * whether the stream is a terminal.  Pure, for the tests. */
bool colour_rule(const char *no_color, const char *term, bool is_terminal);

/* The rule for `stream` in this process's environment; NULL: false. */
bool colour_wanted(FILE *stream);

#endif
