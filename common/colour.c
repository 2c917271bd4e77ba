/*
 * colour.c: the colour rule of colour.h.
 */
#include "colour.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool colour_rule(const char *no_color, const char *term, bool is_terminal)
{
    if (no_color && *no_color)
        return false;
    if (term && strcmp(term, "dumb") == 0)
        return false;
    return is_terminal;
}

bool colour_wanted(FILE *stream)
{
    bool is_terminal = stream && isatty(fileno(stream));
    return colour_rule(getenv("NO_COLOR"), getenv("TERM"), is_terminal);
}
