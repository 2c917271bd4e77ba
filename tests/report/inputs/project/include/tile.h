// tile.h: the project's tile size, set per unit by -DTILE=... (the
// compile database gives each unit its own); a unit without it is a
// build error, so a dropped -D shows.
#ifndef TILE
#error "TILE is not defined: the unit's -DTILE=... did not reach nvcc"
#endif
#define TILE_BYTES (TILE * 4)
