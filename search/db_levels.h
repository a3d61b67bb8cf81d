/* DumbBot's proximity levels of every power at once, and the valuation's other kernels
   (search/_valuation.pyx includes this header; see its docstring).

   C with GCC's vector extensions (GCC, Clang), one vector of DB_LANES powers per node, so
   that each term is one vector load and add, and the floor division by 5 is done
   lane-wise.  On x86-64 with glibc the kernels are built twice, for AVX2 and for the
   baseline, and the loader picks the one the processor runs.  Within the bound
   CWeights.narrow checks, 32-bit lanes (DB_LANES powers in one AVX2 register); else 64-bit
   lanes.  Header only: every function is static (the one module that includes it compiles
   them), so that the compiler inlines the small ones into their Cython callers. */
#ifndef SEARCH_DB_LEVELS_H
#define SEARCH_DB_LEVELS_H

#include <stddef.h>

#include "db_lanes.h"

#if !defined(__GNUC__)
#error "search/db_levels.h needs GCC's vector extensions (GCC or Clang)"
#endif

#if defined(__x86_64__) && defined(__GLIBC__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define DB_CLONES __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef DB_CLONES
#define DB_CLONES
#endif

typedef int db_narrow __attribute__((vector_size(DB_LANES * 4), aligned(4)));
typedef unsigned db_unarrow __attribute__((vector_size(DB_LANES * 4), aligned(4)));

/* A multiple of 5 that makes a 32-bit lane's sum (at most NARROW_LIMIT in magnitude)
   at least 0 and below 2**32: floor(t / 5) is (t + it) / 5 - it / 5 in unsigned
   lanes, a cheaper division than the signed one and its flooring. */
#define DB_FLOOR_OFFSET 2147483645u
typedef long long db_wide __attribute__((vector_size(DB_LANES * 8), aligned(8)));

/* The next level of a run of `count` nodes with K terms each: a record per node, its
   row's offset into a level then its K terms' (see DB_LEVELS); `rec` ends past the run.
   K is a constant where the caller can make it one, so the sum is unrolled in full. */
#define DB_RUN(V, FLOOR5, K, count, rec, cur, nxt)                                     \
    for (int r = 0; r < (count); r++, (rec) += (K) + 1) {                              \
        V t = *(const V *)((cur) + (rec)[1]);                                          \
        _Pragma("GCC unroll 16")                                                       \
        for (int k = 2; k <= (K); k++)                                                 \
            t += *(const V *)((cur) + (rec)[k]);                                       \
        *(V *)((nxt) + (rec)[0]) = FLOOR5(t);                                          \
    }

/* Every run's next level (see DB_RUN), the floored fifth made by F. */
#define DB_RUNS(V, F, num_runs, runs, recs, cur, nxt)                                  \
    do {                                                                               \
        const int *rec = (recs);                                                       \
        for (int r = 0; r < (num_runs); r++) {                                         \
            int terms = (runs)[2 * r], count = (runs)[2 * r + 1];                      \
            switch (terms) {                                                           \
            case 1: DB_RUN(V, F, 1, count, rec, cur, nxt); break;                      \
            case 2: DB_RUN(V, F, 2, count, rec, cur, nxt); break;                      \
            case 3: DB_RUN(V, F, 3, count, rec, cur, nxt); break;                      \
            case 4: DB_RUN(V, F, 4, count, rec, cur, nxt); break;                      \
            case 5: DB_RUN(V, F, 5, count, rec, cur, nxt); break;                      \
            case 6: DB_RUN(V, F, 6, count, rec, cur, nxt); break;                      \
            case 7: DB_RUN(V, F, 7, count, rec, cur, nxt); break;                      \
            case 8: DB_RUN(V, F, 8, count, rec, cur, nxt); break;                      \
            default: DB_RUN(V, F, terms, count, rec, cur, nxt); break;                 \
            }                                                                          \
        }                                                                              \
    } while (0)

/* Each group's level-(n-1) maximum over its items, stored after the nodes' rows. */
#define DB_GROUP_MAXIMA(V, groups, item_off, item_at, cur, nn, row)                    \
    for (int g = 0; g < (groups); g++) {                                               \
        V m = *(const V *)((cur) + (item_at)[(item_off)[g]]);                          \
        for (int j = (item_off)[g] + 1; j < (item_off)[g + 1]; j++) {                  \
            V x = *(const V *)((cur) + (item_at)[j]);                                  \
            V more = x > m;                                                            \
            m = (x & more) | (m & ~more);                                              \
        }                                                                              \
        *(V *)((cur) + ((nn) + g) * (row)) = m;                                        \
    }

/* Levels 1 .. DB_DEPTH - 1 of every lane: lv[(i * DB_DEPTH + n) * stride + lane] for the
   nn nodes i (a row's levels side by side, for the reads of one node's), level 0 copied
   from base[node_prov[i] * stride + lane].  Rows nn .. rows - 1 hold the groups'
   maxima: row nn + g the best of the rows item_at[item_off[g] .. item_off[g + 1]]
   (offsets into the levels, as the records').  A node's next level
   is the sum of its terms (itself, then one node or group per bordering province),
   divided by 5 and floored.  The nodes come in runs of equal term counts: run r has
   runs[2 r + 1] nodes of runs[2 r] terms, each a record in recs (see DB_RUN), so that
   no node sums padding or tests for more terms.  One body for both lane widths (base's
   and the levels' S): FLOOR5 makes the floored fifth of a sum. */
#define DB_LEVELS(NAME, S, V, FLOOR5, EXACT5)                                          \
DB_CLONES static void NAME(                                                            \
    int nn, int rows, int stride, const int *node_prov, const S *base,                 \
    int num_runs, const int *runs, const int *recs, const int *item_off,               \
    const int *item_at, S *lv, int exact)                                              \
{                                                                                      \
    size_t level = (size_t)stride, row = (size_t)DB_DEPTH * stride;                    \
    for (int b = 0; b < stride; b += DB_LANES) {                                       \
        for (int i = 0; i < nn; i++)                                                   \
            *(V *)(lv + i * row + b) =                                                 \
                *(const V *)(base + (size_t)node_prov[i] * stride + b);                \
        for (int n = 1; n < DB_DEPTH; n++) {                                           \
            S *cur = lv + (n - 1) * level + b;                                         \
            S *nxt = cur + level;                                                      \
            DB_GROUP_MAXIMA(V, rows - nn, item_off, item_at, cur, nn, row);            \
            if (n <= exact)                                                            \
                DB_RUNS(V, EXACT5, num_runs, runs, recs, cur, nxt);                    \
            else                                                                       \
                DB_RUNS(V, FLOOR5, num_runs, runs, recs, cur, nxt);                    \
        }                                                                              \
    }                                                                                  \
}

/* 32-bit lanes holding a multiple of 5 (see CWeights.exact): the product by the inverse
   of 5 modulo 2**32 is the quotient, negative or not. */
#define DB_EXACT5(t) ((db_narrow)((db_unarrow)(t) * 0xCCCCCCCDu))

/* 32-bit lanes: the sum offset into unsigned lanes (see DB_FLOOR_OFFSET). */
#define DB_NARROW_FLOOR5(t) \
    ((db_narrow)(((db_unarrow)(t) + DB_FLOOR_OFFSET) / 5u) - (int)(DB_FLOOR_OFFSET / 5u))
DB_LEVELS(db_levels_narrow, int, db_narrow, DB_NARROW_FLOOR5, DB_EXACT5)

/* 32-bit lanes that never hold a negative sum (see CWeights.plain): a plain unsigned
   division. */
#define DB_PLAIN_FLOOR5(t) ((db_narrow)((db_unarrow)(t) / 5u))
DB_LEVELS(db_levels_plain, int, db_narrow, DB_PLAIN_FLOOR5, DB_EXACT5)

/* 64-bit lanes: C's division truncates; a true comparison is -1 in every lane. */
#define DB_WIDE_FLOOR5(t) ((t) / 5 + (((t) - (t) / 5 * 5) < 0))
DB_LEVELS(db_levels_wide, long long, db_wide, DB_WIDE_FLOOR5, DB_WIDE_FLOOR5)

/* DB_RUN for the nodes of a run that `mask` names (bits by record position; the run
   holds positions p0 .. p0 + count - 1, its records from rec0). */
#define DB_SOME_RUN(V, FLOOR5, K, p0, count, rec0, mask, cur, nxt)                     \
    for (int w_ = (p0) >> 6, e_ = (p0) + (count); (w_ << 6) < e_; w_++) {              \
        unsigned long long bits_ = (mask)[w_];                                         \
        int lo_ = (p0) - (w_ << 6), hi_ = e_ - (w_ << 6);                              \
        if (lo_ > 0)                                                                   \
            bits_ &= ~0ULL << lo_;                                                     \
        if (hi_ < 64)                                                                  \
            bits_ &= (1ULL << hi_) - 1;                                                \
        while (bits_) {                                                                \
            const int *r_ = (rec0) + ((w_ << 6) + __builtin_ctzll(bits_) - (p0))       \
                * ((K) + 1);                                                           \
            bits_ &= bits_ - 1;                                                        \
            V t = *(const V *)((cur) + r_[1]);                                         \
            _Pragma("GCC unroll 16")                                                   \
            for (int k = 2; k <= (K); k++)                                             \
                t += *(const V *)((cur) + r_[k]);                                      \
            *(V *)((nxt) + r_[0]) = FLOOR5(t);                                         \
        }                                                                              \
    }

/* DB_RUNS for the nodes `mask` names (see DB_SOME_RUN). */
#define DB_SOME_RUNS(V, F, num_runs, runs, recs, mask, cur, nxt)                       \
    do {                                                                               \
        const int *rec = (recs);                                                       \
        int p0 = 0;                                                                    \
        for (int r = 0; r < (num_runs); r++) {                                         \
            int terms = (runs)[2 * r], count = (runs)[2 * r + 1];                      \
            switch (terms) {                                                           \
            case 1: DB_SOME_RUN(V, F, 1, p0, count, rec, mask, cur, nxt); break;       \
            case 2: DB_SOME_RUN(V, F, 2, p0, count, rec, mask, cur, nxt); break;       \
            case 3: DB_SOME_RUN(V, F, 3, p0, count, rec, mask, cur, nxt); break;       \
            case 4: DB_SOME_RUN(V, F, 4, p0, count, rec, mask, cur, nxt); break;       \
            case 5: DB_SOME_RUN(V, F, 5, p0, count, rec, mask, cur, nxt); break;       \
            case 6: DB_SOME_RUN(V, F, 6, p0, count, rec, mask, cur, nxt); break;       \
            case 7: DB_SOME_RUN(V, F, 7, p0, count, rec, mask, cur, nxt); break;       \
            case 8: DB_SOME_RUN(V, F, 8, p0, count, rec, mask, cur, nxt); break;       \
            default: DB_SOME_RUN(V, F, terms, p0, count, rec, mask, cur, nxt); break;  \
            }                                                                          \
            rec += (size_t)count * (terms + 1);                                        \
            p0 += count;                                                               \
        }                                                                              \
    } while (0)

/* DB_LEVELS for the nodes some base rows reach, the others' levels kept: level n of
   the nodes whose record positions dirty[n * words ..] names (every node whose level n
   can differ: see db_plan), level 0 copied from base as DB_LEVELS does.  The groups'
   rows (few) are all made again. */
#define DB_LEVELS_SOME(NAME, S, V, FLOOR5, EXACT5)                                     \
DB_CLONES static void NAME(                                                            \
    int nn, int rows, int stride, const int *node_prov, const S *base,                 \
    int num_runs, const int *runs, const int *recs, const int *item_off,               \
    const int *item_at, S *lv, int exact, const unsigned long long *dirty, int words,  \
    const int *pos_node)                                                               \
{                                                                                      \
    size_t level = (size_t)stride, row = (size_t)DB_DEPTH * stride;                    \
    for (int b = 0; b < stride; b += DB_LANES) {                                       \
        for (int w = 0; w < words; w++)                                                \
            for (unsigned long long bits = dirty[w]; bits; bits &= bits - 1) {         \
                int i = pos_node[(w << 6) + __builtin_ctzll(bits)];                    \
                *(V *)(lv + i * row + b) =                                             \
                    *(const V *)(base + (size_t)node_prov[i] * stride + b);            \
            }                                                                          \
        for (int n = 1; n < DB_DEPTH; n++) {                                           \
            S *cur = lv + (n - 1) * level + b;                                         \
            S *nxt = cur + level;                                                      \
            const unsigned long long *mask = dirty + (size_t)n * words;                \
            DB_GROUP_MAXIMA(V, rows - nn, item_off, item_at, cur, nn, row);            \
            if (n <= exact)                                                            \
                DB_SOME_RUNS(V, EXACT5, num_runs, runs, recs, mask, cur, nxt);         \
            else                                                                       \
                DB_SOME_RUNS(V, FLOOR5, num_runs, runs, recs, mask, cur, nxt);         \
        }                                                                              \
    }                                                                                  \
}
DB_LEVELS_SOME(db_some_levels_narrow, int, db_narrow, DB_NARROW_FLOOR5, DB_EXACT5)
DB_LEVELS_SOME(db_some_levels_plain, int, db_narrow, DB_PLAIN_FLOOR5, DB_EXACT5)
DB_LEVELS_SOME(db_some_levels_wide, long long, db_wide, DB_WIDE_FLOOR5, DB_WIDE_FLOOR5)

/* The nodes (bits by record position, `words` a level) whose level n to make again,
   into dirty[n * words ..]: those that can differ since the levels were last made (the
   union of the balls of the m provinces `changed` whose base rows did, balls[(p *
   DB_DEPTH + n) * words ..] the nodes within n proximity terms of a node of p; or all
   nn nodes), and those left stale then (stale[n * words ..]).  With `need`, only the
   nodes it names, the rest of them stale after; else none stale after.  The number of
   nodes named at levels 1 and up. */
static int db_plan(
    const unsigned long long *balls, int words, const int *changed, int m, int all,
    int nn, const unsigned long long *need, unsigned long long *stale,
    unsigned long long *dirty)
{
    int total = 0, size = DB_DEPTH * words;
    for (int i = 0; i < size; i++) {
        int w = i % words;
        dirty[i] = !all ? stale[i]
            : (w + 1) * 64 <= nn ? ~0ULL : (1ULL << (nn - w * 64)) - 1;
    }
    for (int k = 0; k < m && !all; k++) {
        const unsigned long long *ball = balls + (size_t)changed[k] * size;
        for (int i = 0; i < size; i++)
            dirty[i] |= ball[i];
    }
    for (int i = 0; i < size; i++) {
        unsigned long long d = dirty[i], keep = need ? need[i] : ~0ULL;
        dirty[i] = d & keep;
        stale[i] = d & ~keep;
    }
    for (int i = words; i < size; i++)
        total += __builtin_popcountll(dirty[i]);
    return total;
}

/* The rows of the n centres in base (rows[k] * stride): every lane attack[k] but that of
   the owner, owner[k] (-1: none), which is defend[k]; whether a value differs from the
   one it replaces.  Vector compares and selects, not a branch per lane. */
#define DB_CENTRES(NAME, S, V)                                                         \
DB_CLONES static int NAME(                                                             \
    S *base, int stride, int n, const int *rows, const int *owner,                     \
    const long long *attack, const long long *defend)                                  \
{                                                                                      \
    const V lane = {0, 1, 2, 3, 4, 5, 6, 7};                                           \
    V diff = {0};                                                                      \
    for (int k = 0; k < n; k++) {                                                      \
        S *row = base + (size_t)rows[k] * stride;                                      \
        V a = (V){0} + (S)attack[k], d = (V){0} + (S)defend[k];                        \
        for (int b = 0; b < stride; b += DB_LANES) {                                   \
            V own = lane + b == (S)owner[k];                                           \
            V x = (d & own) | (a & ~own);                                              \
            diff |= *(const V *)(row + b) ^ x;                                         \
            *(V *)(row + b) = x;                                                       \
        }                                                                              \
    }                                                                                  \
    for (int i = 0; i < DB_LANES; i++)                                                 \
        if (diff[i])                                                                   \
            return 1;                                                                  \
    return 0;                                                                          \
}
_Static_assert(DB_LANES == 8, "DB_CENTRES's and db_leaders' lane numbers");

#define DB_MAX(a, b) ({ db_narrow a_ = (a), b_ = (b), k_ = a_ > b_; (a_ & k_) | (b_ & ~k_); })
/* The largest lane of v, in every lane. */
#define DB_ALL_MAX(v) ({                                                               \
    db_narrow m_ = (v);                                                                \
    m_ = DB_MAX(m_, __builtin_shuffle(m_, (db_narrow){4, 5, 6, 7, 0, 1, 2, 3}));       \
    m_ = DB_MAX(m_, __builtin_shuffle(m_, (db_narrow){2, 3, 0, 1, 6, 7, 4, 5}));       \
    DB_MAX(m_, __builtin_shuffle(m_, (db_narrow){1, 0, 3, 2, 5, 4, 7, 6})); })

/* Per province p of np, from the counts (counts[p * stride + power], at least 0 and
   below 2**27): top[p] the largest, leader[p] the first power with that many, runner[p]
   the largest of the others.  One vector a province when stride is DB_LANES: each
   count with its lane in the low bits, so that the largest key is the top and its
   leader at once. */
DB_CLONES static void db_leaders(
    const int *counts, int np, int stride, int *top, int *leader, int *runner)
{
    if (stride == DB_LANES) {
        const db_narrow low = {7, 6, 5, 4, 3, 2, 1, 0};
        for (int p = 0; p < np; p++) {
            db_narrow c = *(const db_narrow *)(counts + (size_t)p * DB_LANES);
            db_narrow key = (c << 3) | low;
            db_narrow best = DB_ALL_MAX(key);
            top[p] = best[0] >> 3;
            leader[p] = 7 - (best[0] & 7);
            runner[p] = DB_ALL_MAX(c & (key != best))[0];
        }
        return;
    }
    for (int p = 0; p < np; p++) {
        const int *c = counts + (size_t)p * stride;
        int t = 0, first = 0, second = 0;
        for (int q = 0; q < stride; q++)
            if (c[q] > t) {
                t = c[q];
                first = q;
            }
        for (int q = 0; q < stride; q++)
            if (q != first && c[q] > second)
                second = c[q];
        top[p] = t;
        leader[p] = first;
        runner[p] = second;
    }
}
DB_CENTRES(db_centres_narrow, int, db_narrow)
DB_CENTRES(db_centres_wide, long long, db_wide)

/* Zero n ints with plain vector stores.  Not memset: glibc clears a few kilobytes with
   rep stosb, which callgrind (how this module's costs are measured) counts as one
   instruction per byte; GCC would turn the loop into a memset call without the
   attribute. */
#if defined(__clang__)
#define DB_PLAIN_STORES
#else
#define DB_PLAIN_STORES __attribute__((optimize("no-tree-loop-distribute-patterns")))
#endif
DB_CLONES DB_PLAIN_STORES static void db_clear(int *p, size_t n)
{
    size_t i = 0;
    for (; i + DB_LANES <= n; i += DB_LANES)
        *(db_narrow *)(p + i) = (db_narrow){0};
    for (; i < n; i++)
        p[i] = 0;
}

#endif /* SEARCH_DB_LEVELS_H */
