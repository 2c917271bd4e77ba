/*
 * edit_distance.h: how far apart two short names are, for "did you mean"
 * — shared by the occupancy library (unknown architectures and GPUs) and
 * the compiler (unknown warning options), which otherwise share nothing.
 */
#ifndef SILK_EDIT_DISTANCE_H
#define SILK_EDIT_DISTANCE_H

#include <stdbool.h>

enum { EDIT_DISTANCE_MAX_NAME = 64 };

/* Levenshtein distance between a and b (case-insensitive when fold_case);
 * EDIT_DISTANCE_MAX_NAME when either is that long or longer. */
int edit_distance(const char *a, const char *b, bool fold_case);

#endif
