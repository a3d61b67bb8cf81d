/* The layout of the proximity levels (search/db_levels.h makes them), and one power's
   levels at one node weighed: what every module that reads a DumbBot value includes
   (search/_valuation.pxd's inline readers).  Header only, static inline. */
#ifndef SEARCH_DB_LANES_H
#define SEARCH_DB_LANES_H

#include <stddef.h>

#define DB_LANES 8  /* powers in one vector of 32-bit lanes */
#define DB_DEPTH 10  /* proximity levels (search.tables.PROXIMITY_DEPTH) */

/* One power's levels at one node weighed: the sum of prox[n] * lv[n * level] over the
   DB_DEPTH levels, unrolled in full (a value is read once per valuation, but a search
   reads a thousand an iteration). */
#define DB_WEIGH(NAME, S)                                                              \
static inline long long NAME(const long long *prox, const S *lv, ptrdiff_t level)     \
{                                                                                      \
    long long total = 0;                                                               \
    _Pragma("GCC unroll 16")                                                           \
    for (int n = 0; n < DB_DEPTH; n++)                                                 \
        total += prox[n] * lv[n * level];                                              \
    return total;                                                                      \
}
DB_WEIGH(db_weigh_narrow, int)
DB_WEIGH(db_weigh_wide, long long)

/* The common case, one vector of lanes: each level at a fixed offset. */
static inline long long db_weigh_lanes(const long long *prox, const int *lv)
{
    return db_weigh_narrow(prox, lv, DB_LANES);
}

/* The others, out of line: the common case's caller keeps fewer registers. */
__attribute__((noinline)) static long long db_weigh_other(
    const long long *prox, const void *lv, ptrdiff_t level, int narrow)
{
    if (narrow)
        return db_weigh_narrow(prox, (const int *)lv, level);
    return db_weigh_wide(prox, (const long long *)lv, level);
}

#endif /* SEARCH_DB_LANES_H */
