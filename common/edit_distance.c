/*
 * edit_distance.c: Levenshtein distance in one row of memory.
 */
#include "edit_distance.h"

#include <ctype.h>
#include <string.h>

int edit_distance(const char *a, const char *b, bool fold_case)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la >= EDIT_DISTANCE_MAX_NAME || lb >= EDIT_DISTANCE_MAX_NAME)
        return EDIT_DISTANCE_MAX_NAME;
    int row[EDIT_DISTANCE_MAX_NAME + 1];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diagonal = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int above = row[j];
            unsigned char x = (unsigned char)a[i - 1], y = (unsigned char)b[j - 1];
            bool differ = fold_case ? tolower(x) != tolower(y) : x != y;
            int best = diagonal + differ;
            if (above + 1 < best)
                best = above + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diagonal = above;
        }
    }
    return row[lb];
}
