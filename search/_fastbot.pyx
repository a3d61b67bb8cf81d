# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
# cython: cdivision=True
"""DumbBot's valuation and movement orders, and the thesis's region weights, compiled (Cython).

The same arithmetic as :mod:`search.dumbbot_values` and :class:`search.dumbbot.DumbBot`
on C arrays, drawing from the same random generator in the same order, so a
seed gives the same orders on either path (the pure-Python modules are the
oracle the tests hold this one to).  :mod:`search.compiled_search` decides which path
runs.

* :class:`CMap` — a map's node tables as C arrays (built once per map);
* :class:`CWeights` — one :class:`~search.tables.DumbBotWeights` as C
  integers, with the check that its values cannot overflow 64 bits on a map;
* :func:`values` — a :class:`CValues` (the interface of
  :class:`~search.dumbbot_values.ProvinceValues`) for one power in one phase;
* :func:`movement_orders` — :meth:`DumbBot.movement_orders
  <search.dumbbot.DumbBot.movement_orders>`;
* :func:`region_weights` — :func:`search.mcts.weights._weights` (V5-V8's and
  ``dm``'s weighted candidates);
* :class:`CPolicy` and :func:`learned_orders` (:func:`learned_orders_board` from a
  :class:`Board`) — a learned order model's
  :meth:`LearnedPolicy.movement_orders <search.orderpolicy.LearnedPolicy.movement_orders>`
  (also the enemies' player of :func:`step` and :func:`step_board`, given one);
* :func:`play_out` and :func:`step` — a whole ``dm`` rollout and a step of its
  tree (:class:`search.mcts.domain.DiplomacyDomain`), every phase in C arrays
  (:class:`NodeValues` keeps a tree node's enemy values between steps);
* :class:`Board` — a tree node's position kept in C (:func:`board`), stepped
  (:func:`step_board`), rolled out (:func:`play_out_reward_board`) and ordered from
  (:func:`movement_orders_board`) without a Position between.

What the powers valued on one board share (its reading, the power sizes, the
base values, the unit counts, the proximity levels) is
kept for the next call on the same board (:class:`_Shared`): a movement phase
values seven powers on one position.  The proximity levels are computed for
every power at once, one power per lane of a vector (``db_levels_narrow``, C
with GCC's vector extensions: the module needs GCC or Clang).  A plain
``random.Random`` is drawn from in C, on its own MT19937 state (:class:`Draws`,
checked at import against the standard library's ``random``, ``getrandbits``,
``shuffle`` and ``choice``: same numbers, same permutations, same state after).
Integer division follows Python's floor rule (:func:`_fdiv`; lane-wise in the
kernels), as the pure-Python code does with ``//``.
"""

import random as _random
from dataclasses import fields

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.ref cimport PyObject
from libc.limits cimport INT_MAX, LLONG_MIN
from libc.math cimport exp
from libc.string cimport memcmp, memcpy, memset

from adjudicator.orders import HOLD_ORDER as _HOLD_ORDER
from adjudicator.orders import MOVE as _PY_MOVE
from adjudicator.orders import SUPPORT_HOLD as _PY_SUPPORT_HOLD
from adjudicator.orders import SUPPORT_MOVE as _PY_SUPPORT_MOVE

cdef extern from *:
    const char *SOURCE_SHA256  # defined by setup.py

SOURCE_HASH = SOURCE_SHA256.decode("ascii")
"""The SHA-256 of the source this module was built from (see adjudicator.compiled_rules.load)."""

# The proximity levels of every power at once (see _compute_levels): C with GCC's vector
# extensions (GCC, Clang), one vector of LANES powers per node, so that each term is one
# vector load and add, and the floor division by 5 is done lane-wise.  On x86-64 with
# glibc the kernels are built twice, for AVX2 and for the baseline, and the loader picks
# the one the processor runs.  Within the bound CWeights.narrow checks, 32-bit lanes
# (LANES powers in one AVX2 register); else 64-bit lanes.
cdef extern from *:
    """
    #include <stddef.h>

    #if !defined(__GNUC__)
    #error "search/_fastbot.pyx needs GCC's vector extensions (GCC or Clang)"
    #endif

    #define DB_LANES 8
    #define DB_DEPTH 10  /* proximity levels (search.tables.PROXIMITY_DEPTH) */
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
    """
    int LANES "DB_LANES"
    enum: DEPTH "DB_DEPTH"
    void db_levels_narrow(
        int nn, int rows, int stride, const int *node_prov, const int *base,
        int num_runs, const int *runs, const int *recs, const int *item_off,
        const int *item_at, int *lv, int exact,
    ) noexcept nogil
    void db_levels_plain(
        int nn, int rows, int stride, const int *node_prov, const int *base,
        int num_runs, const int *runs, const int *recs, const int *item_off,
        const int *item_at, int *lv, int exact,
    ) noexcept nogil
    void db_levels_wide(
        int nn, int rows, int stride, const int *node_prov, const long long *base,
        int num_runs, const int *runs, const int *recs, const int *item_off,
        const int *item_at, long long *lv, int exact,
    ) noexcept nogil
    void db_some_levels_narrow(
        int nn, int rows, int stride, const int *node_prov, const int *base,
        int num_runs, const int *runs, const int *recs, const int *item_off,
        const int *item_at, int *lv, int exact, const unsigned long long *dirty, int words,
        const int *pos_node,
    ) noexcept nogil
    void db_some_levels_plain(
        int nn, int rows, int stride, const int *node_prov, const int *base,
        int num_runs, const int *runs, const int *recs, const int *item_off,
        const int *item_at, int *lv, int exact, const unsigned long long *dirty, int words,
        const int *pos_node,
    ) noexcept nogil
    void db_some_levels_wide(
        int nn, int rows, int stride, const int *node_prov, const long long *base,
        int num_runs, const int *runs, const int *recs, const int *item_off,
        const int *item_at, long long *lv, int exact, const unsigned long long *dirty,
        int words, const int *pos_node,
    ) noexcept nogil
    int db_plan(
        const unsigned long long *balls, int words, const int *changed, int m, bint all,
        int nn, const unsigned long long *need, unsigned long long *stale,
        unsigned long long *dirty,
    ) noexcept nogil
    void db_clear(int *p, size_t n) noexcept nogil
    void db_leaders(
        const int *counts, int np, int stride, int *top, int *leader, int *runner
    ) noexcept nogil
    bint db_centres_narrow(
        int *base, int stride, int n, const int *rows, const int *owner,
        const long long *attack, const long long *defend,
    ) noexcept nogil
    bint db_centres_wide(
        long long *base, int stride, int n, const int *rows, const int *owner,
        const long long *attack, const long long *defend,
    ) noexcept nogil
    long long db_weigh_lanes(const long long *prox, const int *lv) noexcept nogil
    long long db_weigh_other(
        const long long *prox, const void *lv, Py_ssize_t level, bint narrow
    ) noexcept nogil

cdef enum:
    STALLED = 10  # search.dumbbot.STALLED_ROUNDS
    HOLD = 0
    MOVE = 1
    SUPPORT_HOLD = 2
    SUPPORT_MOVE = 3
    WAITING = -1
    SPRING = 0
    SUMMER = 1
    FALL = 2
    AUTUMN = 3
    WINTER = 4
    MAX_OPTIONS = 64
    MAX_POWERS = 64
    KEY_FIELDS = 4  # a province's fields in a Board's key (search._fasttree.Core.key's)
    KEY_HEAD = 2  # the C ints before them: the season, the year
    KEY_LIMIT = 127  # the largest field value a key holds (a signed char)

assert (_PY_MOVE, _PY_SUPPORT_HOLD, _PY_SUPPORT_MOVE) == (MOVE, SUPPORT_HOLD, SUPPORT_MOVE)

# the levels are made again node by node (_compute_some_levels) when the changed base rows
# are at most SOME_ROWS and the nodes they reach at most this share of the map's (more, and
# the full kernel is cheaper)
cdef enum:
    SOME_SHARE_NUM = 3
    SOME_SHARE_DEN = 5
    SOME_ROWS = 8
cdef int UNIT_COUNT_LIMIT = 1 << 27  # unit counts db_leaders takes (below it)

cdef double SAFE = 2.0 ** 62
"""Largest magnitude an intermediate value may reach for the 64-bit arithmetic to be exact."""

NARROW_LIMIT = 2 ** 31 - 5
"""Largest magnitude a proximity level (or a sum of its terms) may reach in 32-bit lanes
(a little below 2**31: room for ``DB_FLOOR_OFFSET``)."""


cdef inline long long _fdiv(long long a, long long b) noexcept nogil:
    """``a // b`` with Python's floor rule, for ``b > 0``."""
    cdef long long q = a / b
    if a % b != 0 and a < 0:
        q -= 1
    return q


cdef int[::1] _ints(object values):
    cdef Py_ssize_t n = len(values)
    cdef int[::1] out = _new_ints(n if n else 1)
    cdef Py_ssize_t i
    for i in range(n):
        out[i] = values[i]
    return out


cdef int _check(object values, Py_ssize_t bound, str what, int lowest=0) except -1:
    """ValueError unless each of ``values`` lies in ``lowest .. bound - 1``."""
    for value in values:
        if not lowest <= value < bound:
            raise ValueError(f"{what}: {value} is not in {lowest}..{bound - 1}")
    return 0


cdef int[::1] _indices(object values, Py_ssize_t bound, str what, int lowest=0):
    """``values`` as C ints, each checked to lie in ``lowest .. bound - 1`` (ValueError if not).

    Every table the compiled code indexes with is built through here (or
    :func:`_check`): an index it has not checked never reaches a C array.
    """
    _check(values, bound, what, lowest)
    return _ints(values)


cdef void _check_length(object values, Py_ssize_t size, str what) except *:
    if len(values) != size:
        raise ValueError(f"{what}: {len(values)} entries, not {size}")


cdef int[::1] _new_ints(Py_ssize_t n):
    import array

    return array.array("i", bytes(4 * n))


cdef unsigned char[::1] _new_bytes(Py_ssize_t n):
    return bytearray(n)


cdef class _Shared
cdef class _Board
cdef class CValues
cdef class _Orders


cdef dict _VALUE_KEYS = {}
_NOT_IN_VALUES = frozenset({"play_alternative", "alternative_difference_modifier"})


cdef class CMap:
    """A map's DumbBot tables as C arrays (see :class:`search.tables.MapTables`).

    Built from the map and its :class:`~search.tables.MapTables`; node ids are
    the tables' own.  Every index is checked as the arrays are built (``ValueError``
    if one is out of range, or a move leads to a place with no node of its unit
    type), so the unchecked C reads below stay inside the arrays.
    """

    cdef readonly object tables
    cdef readonly int num_provinces, num_nodes, num_powers, num_locations, num_centres
    cdef readonly double growth
    cdef int[::1] node_prov, node_type, node_loc, node_of_army, node_of_fleet, loc_prov
    cdef int[::1] sum_off, sum_idx, grp_off, item_off, item_idx
    cdef int[::1] centres, nb_off, nb_idx, touch_off, touch_prov, adj_off, adj_loc
    cdef int[::1] adj_node, adj_prov  # per adj_loc entry: the mover's node there, its province
    cdef int[::1] nadj_off, nadj_idx  # each node's neighbouring nodes, in adjacency order
    # each node's threats: the centres (indices into centres) next to its province that
    # its unit can reach, threat_idx[threat_off[node]:threat_off[node + 1]]
    cdef int[::1] threat_off, threat_idx
    cdef int[::1] home_off, home_idx  # each power's home centres, in province order
    cdef unsigned char[::1] reach, home, is_centre
    cdef _Shared shared
    # Scratch space of movement_orders, kept between calls (not while one is running).
    cdef _Board spare_board
    cdef CValues spare_values
    cdef _Orders spare_orders
    cdef bint busy

    def __init__(self, object game_map, object tables):
        cdef int n = tables.num_nodes
        cdef int np = game_map.num_provinces
        cdef int nl = game_map.num_locations
        cdef int i, j
        self.tables = tables
        self.num_provinces = np
        self.num_nodes = n
        self.num_powers = game_map.num_powers
        self.num_locations = nl
        self.num_centres = len(game_map.supply_centres)
        if self.num_powers > MAX_POWERS:
            raise ValueError(f"a map of more than {MAX_POWERS} powers")
        for what, values, size in (
            ("node provinces", tables.node_prov, n),
            ("node types", tables.node_type, n),
            ("node locations", tables.node_loc, n),
            ("node adjacencies", tables.adjacency, n),
            ("node reach", tables.reach, n),
            ("army nodes", tables.node_of[0], nl),
            ("fleet nodes", tables.node_of[1], nl),
            ("location provinces", game_map.loc_province, nl),
            ("neighbours", game_map.neighbours, np),
            ("homes", game_map.homes, self.num_powers),
        ):
            _check_length(values, size, what)
        self.node_prov = _indices(tables.node_prov, np, "node provinces")
        self.node_type = _indices(tables.node_type, 2, "node types")
        self.node_loc = _indices(tables.node_loc, nl, "node locations")
        self.node_of_army = _indices(tables.node_of[0], n, "army nodes", -1)
        self.node_of_fleet = _indices(tables.node_of[1], n, "fleet nodes", -1)
        self.loc_prov = _indices(game_map.loc_province, np, "location provinces")
        for i in range(n):
            if self.node_of(self.node_type[i], self.node_loc[i]) != i:
                raise ValueError(f"node {i} is not the node of its own location")
        # proximity: each node sums itself and one node per bordering province (the best
        # of that province's nodes when it borders several), as search.dumbbot_values does
        sums, sum_off, groups, grp_off, items, item_off = [], [0], [], [0], [], [0]
        adj_locs, adj_off, touch, touch_off = [], [0], [], [0]
        growth = 0
        widest = 0
        for i in range(n):
            by_prov = {}
            for j in tables.adjacency[i]:
                by_prov.setdefault(tables.node_prov[j], []).append(j)
            sums.append(i)
            terms = 1
            for js in by_prov.values():
                terms += 1
                if len(js) == 1:
                    sums.append(js[0])
                else:
                    items.extend(js)
                    item_off.append(len(items))
                    groups.append(len(item_off) - 2)
            growth = max(growth, terms)
            sum_off.append(len(sums))
            grp_off.append(len(groups))
            dests = game_map.adjacent(tables.node_type[i], tables.node_loc[i])
            _check(dests, nl, "destinations")
            for j in dests:
                if self.node_of(self.node_type[i], j) < 0:
                    raise ValueError(f"node {i} moves to location {j}, where it cannot stand")
            adj_locs.extend(dests)
            adj_off.append(len(adj_locs))
            widest = max(widest, len(dests))
            # a unit counts once per location it borders (duplicates kept, as Parang)
            touch.append(tables.node_prov[i])
            touch.extend(game_map.loc_province[d] for d in dests)
            touch_off.append(len(touch))
        if widest + 1 > MAX_OPTIONS:
            raise ValueError(f"a node with {widest} neighbours (at most {MAX_OPTIONS - 1})")
        self.growth = growth / 5.0
        self.sum_idx = _indices(sums, n, "proximity terms")
        self.sum_off = _ints(sum_off)
        self.grp_off = _ints(grp_off)
        self.item_idx = _indices(items, n, "proximity groups")
        self.item_off = _ints(item_off)
        self.adj_loc = _indices(adj_locs, nl, "destinations")
        self.adj_off = _ints(adj_off)
        self.adj_node = _ints(
            [self.node_of(self.node_type[i], adj_locs[j]) for i in range(n)
             for j in range(adj_off[i], adj_off[i + 1])]
        )
        self.adj_prov = _ints([game_map.loc_province[d] for d in adj_locs])
        self.touch_prov = _indices(touch, np, "bordering provinces")
        if 2 * len(touch) >= UNIT_COUNT_LIMIT:  # a province's units, standing and dislodged
            raise ValueError(f"{len(touch)} bordering provinces (db_leaders' counts)")
        self.touch_off = _ints(touch_off)
        self.centres = _indices(game_map.supply_centres, np, "supply centres")
        self.is_centre = _new_bytes(np)
        for i in range(self.num_centres):
            self.is_centre[self.centres[i]] = 1
        nadj, nadj_off = [], [0]
        for i in range(n):
            nadj.extend(tables.adjacency[i])
            nadj_off.append(len(nadj))
        self.nadj_idx = _indices(nadj, n, "neighbouring nodes")
        self.nadj_off = _ints(nadj_off)
        nbs, nb_off = [], [0]
        for i in range(np):
            nbs.extend(game_map.neighbours[i])
            nb_off.append(len(nbs))
        self.nb_idx = _indices(nbs, np, "neighbours")
        self.nb_off = _ints(nb_off)
        self.reach = _new_bytes(n * np)
        for i in range(n):
            _check(tables.reach[i], np, "reach")
            for j in tables.reach[i]:
                self.reach[i * np + j] = 1
        threats, threat_off = [], [0]
        for i in range(n):
            for k in range(self.num_centres):
                j = self.centres[k]
                if tables.node_prov[i] in game_map.neighbours[j] and self.reach[i * np + j]:
                    threats.append(k)
            threat_off.append(len(threats))
        self.threat_idx = _ints(threats)
        self.threat_off = _ints(threat_off)
        self.home = _new_bytes(self.num_powers * np)
        homes, home_off = [], [0]
        for i in range(self.num_powers):
            _check(game_map.homes[i], np, "home centres")
            for j in game_map.homes[i]:
                self.home[i * np + j] = 1
            homes.extend(sorted(set(game_map.homes[i])))
            home_off.append(len(homes))
        self.home_idx = _ints(homes)
        self.home_off = _ints(home_off)
        self.shared = _Shared(self)
        self.spare_board = _Board(self)
        self.spare_values = CValues(self, 0)
        self.spare_orders = _Orders(np)
        self.busy = False

    def forget(self):
        """Drop the board valued last (benchmarks: every call then values from scratch)."""
        self.shared.valid = False
        self.shared.levels_ready = False
        self.shared.lv_valid = False
        self.shared.partial = False
        memset(self.shared.stale, 0, DEPTH * self.shared.words * sizeof(unsigned long long))

    cdef inline int node_of(self, int utype, int loc) noexcept:
        return self.node_of_army[loc] if utype == 0 else self.node_of_fleet[loc]


cdef int _fives(long long x, int most):
    """How many times 5 divides ``x``, at most ``most`` (``most`` for 0)."""
    cdef int k = 0
    while k < most and x % 5 == 0:
        x //= 5
        k += 1
    return k


cdef object _union(list sets):
    """The union of bit sets."""
    cdef object out = 0
    for x in sets:
        out |= x
    return out


cdef class CWeights:
    """One :class:`~search.tables.DumbBotWeights` as C integers.

    ``ValueError`` if a proximity table is not :data:`DEPTH` long.
    :meth:`fits` says whether every value on a map stays exact in 64 bits.
    """

    cdef long long spring_attack, spring_defence, fall_attack, fall_defence
    cdef long long prox[4][DEPTH]  # spring, fall, build, remove
    cdef bint narrow_weights
    cdef long long spring_strength, spring_competition, fall_strength, fall_competition
    cdef long long base_unit, home_vacation, home_attack, home_defence
    cdef long long build_defence, remove_defence, play_alternative, modifier
    cdef long long size_a, size_b, size_c
    cdef dict _fits, _narrow, _plain
    cdef readonly tuple values_key
    # the proximity levels 1 .. exact are exact fifths of their sums: every base value is a
    # multiple of 5 ** exact (each is a product with an attack or a defence weight)
    cdef readonly int exact

    def __init__(self, object w):
        cdef int k, n
        tables = (w.spring_proximity, w.fall_proximity, w.build_proximity, w.remove_proximity)
        self.narrow_weights = all(-NARROW_LIMIT <= x <= NARROW_LIMIT for t in tables for x in t)
        for k in range(4):
            if len(tables[k]) != DEPTH:
                raise ValueError(f"a proximity table has {len(tables[k])} weights, not {DEPTH}")
            for n in range(DEPTH):
                self.prox[k][n] = tables[k][n]
        self.spring_attack = w.spring_attack
        self.spring_defence = w.spring_defence
        self.fall_attack = w.fall_attack
        self.fall_defence = w.fall_defence
        self.spring_strength = w.spring_strength
        self.spring_competition = w.spring_competition
        self.fall_strength = w.fall_strength
        self.fall_competition = w.fall_competition
        self.base_unit = w.base_unit_weight
        self.home_vacation = w.home_vacation_weight
        self.home_attack = w.home_attack_weight
        self.home_defence = w.home_defence_weight
        self.build_defence = w.build_defence
        self.remove_defence = w.remove_defence
        self.play_alternative = w.play_alternative
        self.modifier = w.alternative_difference_modifier
        self.size_a = w.size_square
        self.size_b = w.size_linear
        self.size_c = w.size_constant
        self._fits = {}
        self._narrow = {}
        self._plain = {}
        self.exact = min(
            _fives(x, DEPTH - 1)
            for x in (w.spring_attack, w.spring_defence, w.fall_attack, w.fall_defence)
        )
        # the constants the values depend on (not the coin's): one interned tuple per set
        key = tuple(getattr(w, f.name) for f in fields(w) if f.name not in _NOT_IN_VALUES)
        self.values_key = _VALUE_KEYS.setdefault(key, key)

    def fits(self, CMap cm):
        """Whether every intermediate value on ``cm``'s map stays below 2**62 in magnitude.

        A bound from the weights and the map alone: the largest power size,
        the base value it can give, the growth of proximity per level, the
        unit counts, and DumbBot's coin arithmetic on the resulting values.
        """
        found = self._fits.get(id(cm))
        if found is None:
            found = self._fits[id(cm)] = self._bound(cm) < SAFE
        return found

    def narrow(self, CMap cm):
        """Whether every proximity level on ``cm``'s map, every sum it is divided from, and
        every proximity weight stay within 32 bits (the levels are computed in 32-bit lanes
        then, else 64-bit).

        A bound from the weights and the map alone: the largest base value any
        province can have, carried through the map's own proximity sums level by
        level (each node's bound is that of its terms' sum, divided by 5 and
        rounded up), in Python's exact integers.
        """
        found = self._narrow.get(id(cm))
        if found is None:
            found = self._narrow[id(cm)] = (
                self.narrow_weights and self._level_bound(cm) <= NARROW_LIMIT
            )
        return found

    def plain(self, CMap cm):
        """Whether the levels on ``cm``'s map are in 32-bit lanes (:meth:`narrow`) and never
        negative: every base value a power size (each one on the map), an attack or a defence
        weight, the home and unit weights can make is at least 0 (the levels' floor division
        is then a plain unsigned one)."""
        found = self._plain.get(id(cm))
        if found is None:
            found = self._plain[id(cm)] = self.narrow(cm) and (
                all(
                    self.size_a * c * c + self.size_b * c + self.size_c >= 0
                    for c in range(cm.num_centres + 1)
                )
                and min(self.spring_attack, self.fall_attack, self.home_attack) >= 0
                and min(self.spring_defence, self.fall_defence, self.home_defence) >= 0
                and self.home_vacation <= 0
                and self.base_unit >= 0
            )
        return found

    cdef object _level_bound(self, CMap cm):
        """The largest magnitude a proximity level or a sum of its terms can reach on ``cm``."""
        size = max(
            abs(self.size_a * c * c + self.size_b * c + self.size_c)
            for c in range(cm.num_centres + 1)
        )
        attack = max(abs(self.spring_attack), abs(self.fall_attack))
        defence = max(abs(self.spring_defence), abs(self.fall_defence))
        threat = max(size * max(1, abs(self.home_defence)), abs(self.home_vacation))
        centre = max(size * max(1, abs(self.home_attack)) * attack, threat * defence)
        unit = (size * abs(self.base_unit) // 100 + 1) * attack if self.base_unit else 0
        bounds = [centre + unit] * cm.num_nodes
        worst = bounds[0]
        cdef int n, i, j, g
        for n in range(1, DEPTH):
            nxt = []
            for i in range(cm.num_nodes):
                total = 0
                for j in range(cm.sum_off[i], cm.sum_off[i + 1]):
                    total += bounds[cm.sum_idx[j]]
                for g in range(cm.grp_off[i], cm.grp_off[i + 1]):
                    total += max(
                        [bounds[cm.item_idx[j]] for j in range(cm.item_off[g], cm.item_off[g + 1])]
                    )
                worst = max(worst, total)
                nxt.append(-(-total // 5))
            bounds = nxt
        return worst

    cdef double _bound(self, CMap cm):
        cdef double size = 0, s, base, level, value = 0, units
        cdef int k
        cdef int c, n
        for c in range(cm.num_centres + 1):
            s = abs(<double>self.size_a * c * c + <double>self.size_b * c + self.size_c)
            size = max(size, s)
        home = max(1.0, abs(<double>self.home_attack), abs(<double>self.home_defence))
        weight = max(abs(<double>self.spring_attack), abs(<double>self.spring_defence),
                     abs(<double>self.fall_attack), abs(<double>self.fall_defence))
        base = (size * home + abs(<double>self.home_vacation)) * weight
        base += size * abs(<double>self.base_unit) * weight * cm.num_provinces
        units = 2.0 * cm.num_provinces * (cm.num_locations + 1)  # units touching a province
        for k in range(4):
            level = base
            s = 0
            for n in range(DEPTH):
                s += abs(<double>self.prox[k][n]) * level
                level *= max(1.0, cm.growth)
            value = max(value, s)
        value += units * max(abs(<double>self.spring_strength),
                             abs(<double>self.spring_competition),
                             abs(<double>self.fall_strength), abs(<double>self.fall_competition))
        value += size * home * max(abs(<double>self.build_defence),
                                   abs(<double>self.remove_defence))
        # the coin: (best - second) * modifier, then times play_alternative; wasted-hold scores
        return max(
            value * units,
            2 * value * max(1.0, abs(<double>self.modifier)) * max(
                1.0, abs(<double>self.play_alternative)
            ),
            size * abs(<double>self.base_unit),
        )


cdef class _Board:
    """One position read into C arrays: who stands where, and who owns what.

    ``ValueError`` if the position does not fit the map (a province, power or
    place the map lacks): nothing unchecked is written into the arrays.
    """

    cdef int *upow
    cdef int *unode
    cdef int *dpow
    cdef int *dnode
    cdef int *owner
    cdef bint any_dislodged
    cdef int np

    def __cinit__(self, CMap cm, object pos=None):
        cdef int np = cm.num_provinces
        self.np = np
        self.upow = <int *> PyMem_Malloc(5 * np * sizeof(int))
        if self.upow == NULL:
            raise MemoryError()
        self.unode = self.upow + np
        self.dpow = self.unode + np
        self.dnode = self.dpow + np
        self.owner = self.dnode + np
        if pos is not None:
            self.load(cm, pos)

    cdef int load(self, CMap cm, object pos) except -1:
        """Read ``pos`` into the arrays (a board is read again for each position)."""
        cdef int np = self.np
        cdef int i, p, power, utype, loc
        cdef tuple u
        for i in range(4 * np):
            self.upow[i] = -1
        owners = pos.owners
        _check_length(owners, np, "owners")
        for i in range(np):
            p = owners[i]
            if not -1 <= p < cm.num_powers:
                raise ValueError(f"province {i} owned by power {p}, which the map lacks")
            self.owner[i] = p
        for key, value in (<dict?> pos.units).items():
            u = _unit_tuple(value, UNIT_FIELDS)
            p, power, utype, loc = key, u[0], u[1], u[2]
            _check_unit(cm, p, power, utype, loc)
            self.upow[p] = power
            self.unode[p] = cm.node_of(utype, loc)
        dislodged = <dict?> pos.dislodged
        self.any_dislodged = len(dislodged) > 0
        for key, value in dislodged.items():
            u = _unit_tuple(value, DISLODGED_FIELDS)
            p, power, utype, loc = key, u[0], u[1], u[2]
            _check_unit(cm, p, power, utype, loc)
            self.dpow[p] = power
            self.dnode[p] = cm.node_of(utype, loc)
        return 0

    def __dealloc__(self):
        PyMem_Free(self.upow)


cdef enum:
    UNIT_FIELDS = 3  # (power, type, location)
    DISLODGED_FIELDS = 4  # (power, type, location, retreats)


cdef inline tuple _unit_tuple(object value, Py_ssize_t size):
    """``value``, a unit's tuple of ``size`` fields; else ``ValueError`` (C reads its items
    unchecked)."""
    if not isinstance(value, tuple) or len(<tuple> value) != size:
        raise ValueError(f"a unit {value!r} that is not a tuple of {size} fields")
    return <tuple> value


cdef inline int _check_unit(CMap cm, int province, int power, int utype, int loc) except -1:
    """``ValueError`` unless a unit of ``power`` and ``utype`` may stand at ``loc`` in
    ``province`` on the map."""
    if not 0 <= province < cm.num_provinces:
        raise ValueError(f"a unit in province {province}, which the map lacks")
    if not 0 <= power < cm.num_powers:
        raise ValueError(f"a unit of power {power}, which the map lacks")
    if not (0 <= utype <= 1 and 0 <= loc < cm.num_locations):
        raise ValueError(f"a unit of type {utype} at location {loc}, which the map lacks")
    if cm.node_of(utype, loc) < 0 or cm.loc_prov[loc] != province:
        raise ValueError(f"a unit of type {utype} at location {loc}, where it cannot stand")
    return 0


cdef class CValues:
    """DumbBot's values of every node for one power in one phase (as ``ProvinceValues``).

    The C paths read a value or a competition count through :func:`_value` and
    :func:`_competition`, which work it out from the board valued last (the shared
    valuation :func:`_compute` points them at: its weighted levels, unit counts and
    defence values) for only the nodes and provinces read, a value once per valuation
    (``vals[node]``, current while ``stamp[node]`` is ``epoch``); ``kept`` says the arrays
    ``vals`` and ``comp`` hold every one instead (filled by :func:`_keep`, or copied in
    from a :class:`NodeValues`).
    """

    cdef readonly object tables
    cdef readonly int power
    cdef int np, nn, nw
    cdef long long *vals
    cdef int *counts  # filled by values() (the C paths read vals and comp only)
    cdef int *comp
    cdef CMap cm
    cdef bint kept  # vals and comp hold the values (else they are worked out as read)
    cdef int *stamp  # per node: the epoch whose value vals holds
    cdef int epoch  # of the valuation _compute pointed this at last
    # the valuation _compute pointed this at: the shared board's, for ``power``
    cdef bint winter
    cdef long long strength_w, competition_w, winter_defence_w
    cdef bint narrow  # the levels are ints (else long longs)
    cdef const long long *prox  # the season's proximity weights
    cdef const void *levels  # levels[(node * DEPTH + n) * lanes]: ``power``'s proximity levels
    cdef Py_ssize_t lanes, level
    cdef const long long *defence
    cdef const int *node_prov
    cdef const int *owner
    cdef const int *unit_counts  # unit_counts[prov * lanes + power]
    cdef const int *top
    cdef const int *leader
    cdef const int *runner

    def __cinit__(self, CMap cm, int power):
        self.cm = cm
        self.tables = cm.tables
        self.power = power
        self.np = cm.num_provinces
        self.nn = cm.num_nodes
        self.nw = cm.num_powers
        self.vals = <long long *> PyMem_Malloc(
            self.nn * sizeof(long long) + (self.np * self.nw + self.np + self.nn) * sizeof(int)
        )
        if self.vals == NULL:
            raise MemoryError()
        self.counts = <int *> (self.vals + self.nn)
        self.comp = self.counts + self.np * self.nw
        self.stamp = self.comp + self.np
        memset(self.stamp, 0, self.nn * sizeof(int))
        self.epoch = 0

    def __dealloc__(self):
        PyMem_Free(self.vals)

    def node_value(self, int node):
        """The value DumbBot gives ``node`` in this phase."""
        if not 0 <= node < self.nn:
            raise IndexError(f"no node {node} on this map")
        return self.vals[node]

    def value(self, int unit_type, int loc):
        """The value of location ``loc`` for a unit of ``unit_type``."""
        if unit_type not in (0, 1) or not 0 <= loc < self.cm.num_locations:
            raise IndexError(f"no location {loc} for unit type {unit_type} on this map")
        return self.node_value(self.cm.node_of(unit_type, loc))

    def strength(self, int prov):
        """Our units in or next to ``prov`` (a fleet next to two coasts counts twice)."""
        if not 0 <= prov < self.np:
            raise IndexError(f"no province {prov} on this map")
        return self.counts[prov * self.nw + self.power]

    def competition(self, int prov):
        """The most units any one other power has in or next to ``prov``."""
        if not 0 <= prov < self.np:
            raise IndexError(f"no province {prov} on this map")
        return self.comp[prov]


cdef class _Shared:
    """DumbBot's valuation of the last board valued, shared by the calls that read it.

    Seven powers are valued on one position in a row (a movement phase of a
    rollout, the enemies at a tree node, the builds of a winter): the board is
    read, the power sizes, the base and defence values, the unit counts near
    each province (with the most units one power has there and the most any
    other has) are computed once, and the first call that needs proximity
    levels computes them for every power at once: lane ``power`` of
    ``levels[(n * rows + node) * lanes + power]``, in 32-bit lanes when
    :meth:`CWeights.narrow` says they fit, else in 64-bit ones (see
    ``db_levels_narrow``).  The key is the board itself (units, dislodged
    units, owners), the season and the weights' valuation constants, compared
    in full, so a position changed in place is never taken for the one valued.
    A new board keeps the levels of the last when every base value is the
    same (the same weights; most often a winter and the spring after it), and
    makes them again only where its changed centres' rows reach when few
    changed (see :func:`_compute_levels`).
    """

    cdef int *board
    cdef int *counts  # counts[prov * lanes + power]: units in or next to prov
    cdef int *top  # per province: the most units one power has in or next to it,
    cdef int *leader  # the first power that has that many,
    cdef int *runner  # and the most any other power has
    cdef void *base  # base[prov * lanes + power]: proximity level 0, in the levels' lanes
    cdef long long *defence  # defence[prov]: the defence value of prov for its owner
    # scratch for _compute_board: per centre (in CMap.centres order) its owner, the attack
    # value of every other power, and the owner's defence value (see db_centres_narrow)
    cdef int *owners
    cdef long long *attack
    cdef long long *defend
    # the map's proximity terms as offsets into a level: each node's own, one per bordering
    # province, a group row where that province has several nodes; a record per node (its
    # row's offset, then its terms'), in runs of nodes with as many terms: run r has
    # runs[2 r + 1] nodes of runs[2 r] terms (see db_levels_narrow)
    cdef int *recs
    cdef int *runs
    cdef int num_runs
    cdef int *item_at  # the items of the groups (CMap.item_idx), likewise
    cdef int *touch_at  # CMap.touch_prov as offsets into counts (prov * lanes)
    cdef void *levels  # levels[(row * DEPTH + n) * lanes + power]: int or long long lanes
    # what the last board set, cleared for the next one: the rows of base given a unit's term
    cdef int *unit_rows
    cdef int num_unit_rows
    cdef int *units  # scratch for _compute_board: the provinces with a unit
    # Levels made again only where base rows changed (see _compute_levels): the centres'
    # base rows the levels were computed from (valid with lv_valid), per province and
    # level the nodes within that many terms of its nodes (bits by record position, words
    # a level), scratch for the changed provinces and the nodes to compute, and each
    # record position's node.
    cdef int *lv_owner  # per centre: the owner, attack and defence value of its base row
    cdef long long *lv_attack
    cdef long long *lv_defend
    cdef unsigned long long *balls
    cdef unsigned long long *dirty
    # per node and level n, the nodes whose level n its level DEPTH - 1 reads (through
    # DEPTH - 1 - n terms: its value needs them); the nodes a retreat phase's choices read,
    # so, per level (with use_need, the only ones made); the nodes left stale (partial)
    cdef unsigned long long *cones
    cdef unsigned long long *need
    cdef unsigned long long *stale
    cdef bint use_need, partial
    cdef int *changed
    cdef int *pos_node
    cdef int words
    cdef bint lv_valid
    cdef long long weights[2]  # the board's attack and defence weights,
    cdef long long lv_weights[2]  # and those the levels were computed with
    cdef bint incremental  # the weights give no unit terms (only the centres' rows change)
    cdef int np, rows, lanes, size
    cdef int season
    cdef object key
    cdef bint valid, narrow, levels_ready
    cdef bint plain  # narrow, and no level below 0 (CWeights.plain)
    cdef int exact  # CWeights.exact with narrow lanes (else 0)

    def __cinit__(self, CMap cm):
        cdef int nw = cm.num_powers
        cdef int np = cm.num_provinces
        cdef int nn = cm.num_nodes
        cdef int nc = cm.num_centres
        cdef int groups = cm.grp_off[nn]
        cdef int terms = cm.sum_off[nn] + groups, items = cm.item_off[groups]
        cdef int touches = cm.touch_off[nn]
        cdef int i, j, t, r
        self.np = np
        self.size = 5 * np
        self.rows = nn + groups  # the nodes, then the groups
        self.lanes = (nw + LANES - 1) // LANES * LANES
        cdef int row = DEPTH * self.lanes  # a row's levels, side by side (see DB_LEVELS)
        self.board = <int *> PyMem_Malloc(
            (
                self.size + np * self.lanes + 3 * np + nn + terms + 2 * nn + items + touches
                + 2 * np + nc
            ) * sizeof(int)
        )
        self.base = PyMem_Malloc(np * self.lanes * sizeof(long long))
        self.defence = <long long *> PyMem_Malloc((np + 2 * nc) * sizeof(long long))
        self.levels = PyMem_Malloc(DEPTH * self.rows * self.lanes * sizeof(long long))
        self.words = (nn + 63) // 64
        self.lv_attack = <long long *> PyMem_Malloc(2 * nc * sizeof(long long))
        self.balls = <unsigned long long *> PyMem_Malloc(
            (np + nn + 3) * DEPTH * self.words * sizeof(unsigned long long)
        )
        self.changed = <int *> PyMem_Malloc((2 * nc + nn + 1) * sizeof(int))
        if (
            self.board == NULL or self.base == NULL or self.defence == NULL
            or self.levels == NULL or self.lv_attack == NULL or self.balls == NULL
            or self.changed == NULL
        ):
            raise MemoryError()
        self.dirty = self.balls + np * DEPTH * self.words
        self.need = self.dirty + DEPTH * self.words
        self.stale = self.need + DEPTH * self.words
        self.cones = self.stale + DEPTH * self.words
        memset(self.stale, 0, DEPTH * self.words * sizeof(unsigned long long))
        self.use_need = False
        self.partial = False
        self.pos_node = self.changed + nc
        self.lv_owner = self.pos_node + nn
        self.lv_defend = self.lv_attack + nc
        self.lv_valid = False
        self.incremental = False
        self.counts = self.board + self.size
        self.top = self.counts + np * self.lanes
        self.leader = self.top + np
        self.runner = self.leader + np
        self.recs = self.runner + np
        self.runs = self.recs + nn + terms
        self.item_at = self.runs + 2 * nn
        self.touch_at = self.item_at + items
        self.unit_rows = self.touch_at + touches
        self.units = self.unit_rows + np
        self.owners = self.units + np
        self.attack = self.defence + np
        self.defend = self.attack + nc
        memset(self.counts, 0, (np * self.lanes + 3 * np) * sizeof(int))
        memset(self.base, 0, np * self.lanes * sizeof(long long))
        memset(self.defence, 0, np * sizeof(long long))
        self.num_unit_rows = 0
        records = []
        for i in range(nn):
            at = [cm.sum_idx[j] * row for j in range(cm.sum_off[i], cm.sum_off[i + 1])]
            at += [(nn + j) * row for j in range(cm.grp_off[i], cm.grp_off[i + 1])]
            records.append([i * row, *at])
        records.sort(key=len)  # stable: by node within a run
        self._balls(cm, [record[0] // row for record in records])
        t = 0
        r = -1
        for record in records:
            if r < 0 or self.runs[2 * r] != len(record) - 1:
                r += 1
                self.runs[2 * r] = len(record) - 1
                self.runs[2 * r + 1] = 0
            self.runs[2 * r + 1] += 1
            for j in record:
                self.recs[t] = j
                t += 1
        self.num_runs = r + 1
        for j in range(items):
            self.item_at[j] = cm.item_idx[j] * row
        for j in range(touches):
            self.touch_at[j] = cm.touch_prov[j] * self.lanes
        self.valid = False

    cdef int _balls(self, CMap cm, list nodes) except -1:
        """Each record position's node (``nodes``), each province's balls (the nodes whose
        level n reads, through n proximity terms, a node of that province) and each node's
        cones (the nodes whose level n its last level reads), as bit sets by position."""
        cdef int nn = cm.num_nodes, np = cm.num_provinces
        cdef int i, j, g, n, p
        bit = [0] * nn
        for i in range(nn):
            self.pos_node[i] = nodes[i]
            bit[nodes[i]] = (<object> 1) << i  # a Python int: any number of bits
        readers = [[] for _ in range(nn)]  # the nodes that have node j among their terms
        terms = [[] for _ in range(nn)]  # the nodes node i reads
        for i in range(nn):
            for j in range(cm.sum_off[i], cm.sum_off[i + 1]):
                readers[cm.sum_idx[j]].append(i)
                terms[i].append(cm.sum_idx[j])
            for g in range(cm.grp_off[i], cm.grp_off[i + 1]):
                for j in range(cm.item_off[g], cm.item_off[g + 1]):
                    readers[cm.item_idx[j]].append(i)
                    terms[i].append(cm.item_idx[j])
        memset(self.balls, 0, np * DEPTH * self.words * sizeof(unsigned long long))
        memset(self.cones, 0, nn * DEPTH * self.words * sizeof(unsigned long long))
        near = list(bit)  # within n reader steps of each node
        far = list(bit)  # within n term steps of each node
        for n in range(DEPTH):
            if n:
                near = [
                    near[i] | _union([near[k] for k in readers[i]]) for i in range(nn)
                ]
                far = [far[i] | _union([far[k] for k in terms[i]]) for i in range(nn)]
            for i in range(nn):
                self._mark(
                    self.balls + (cm.node_prov[i] * DEPTH + n) * self.words, near[i]
                )
                self._mark(self.cones + (i * DEPTH + DEPTH - 1 - n) * self.words, far[i])
        return 0

    cdef void _mark(self, unsigned long long *mask, object bits):
        """The bit set ``bits`` or'ed into ``mask``'s words."""
        cdef int k
        for k in range(self.words):
            mask[k] |= <unsigned long long> ((bits >> (64 * k)) & 0xFFFFFFFFFFFFFFFF)

    def __dealloc__(self):
        PyMem_Free(self.board)
        PyMem_Free(self.base)
        PyMem_Free(self.defence)
        PyMem_Free(self.levels)
        PyMem_Free(self.lv_attack)
        PyMem_Free(self.balls)
        PyMem_Free(self.changed)


cdef _Shared _shared(CMap cm, CWeights w, _Board b, int season):
    """The valuation of ``b``, every power's levels ready (see :class:`_Shared`)."""
    cdef _Shared sh = cm.shared
    if not (
        sh.valid
        and sh.season == season
        and sh.key is w.values_key
        and memcmp(sh.board, b.upow, sh.size * sizeof(int)) == 0
    ):
        sh.valid = False
        if sh.key is not w.values_key:
            sh.narrow = w.narrow(cm)
            sh.plain = w.plain(cm)
            sh.exact = w.exact if sh.narrow else 0
            sh.key = w.values_key
            sh.levels_ready = False
            memset(sh.base, 0, sh.np * sh.lanes * sizeof(long long))  # lanes' width may differ
            sh.lv_valid = False
            sh.incremental = not w.base_unit
            sh.partial = False
            memset(sh.stale, 0, DEPTH * sh.words * sizeof(unsigned long long))
            sh.num_unit_rows = 0
        memcpy(sh.board, b.upow, sh.size * sizeof(int))
        sh.season = season
        if _compute_board(cm, w, b, season, sh):
            sh.levels_ready = False
        sh.valid = True
    if not sh.levels_ready or sh.partial:  # partial levels serve only the call they were for
        _compute_levels(cm, sh)
        sh.levels_ready = True
    return sh


cdef inline void _count_centres(CMap cm, const int *owner, int *counts) noexcept:
    """Each power's supply centres by the centres' ``owner`` into ``counts[0:num_powers]``."""
    cdef int q, k
    for q in range(cm.num_powers):
        counts[q] = 0
    for k in range(cm.num_centres):
        q = owner[cm.centres[k]]
        if q >= 0:
            counts[q] += 1


cdef bint _compute_board(CMap cm, CWeights w, _Board b, int season, _Shared sh) noexcept:
    """Every power's base values, the owners' defence values, and the unit counts (see
    search.dumbbot_values.base_values and unit_counts_near); whether a base value may have
    changed (with a unit weight, always: the unit terms are not compared)."""
    cdef int np = cm.num_provinces, nw = cm.num_powers, lanes = sh.lanes
    cdef long long attack_w, defence_w
    if season == FALL or season == AUTUMN:
        attack_w, defence_w = w.fall_attack, w.fall_defence
    else:
        attack_w, defence_w = w.spring_attack, w.spring_defence
    sh.weights[0] = attack_w
    sh.weights[1] = defence_w
    cdef long long sizes[MAX_POWERS]
    cdef size_t width = sizeof(int) if sh.narrow else sizeof(long long)  # a lane's
    cdef long long *row
    cdef int *narrow_row
    cdef long long d, a, unit_term, size
    cdef long long *threat = sh.defend  # first each centre's threat, the largest size of
    # a unit of another power than its owner that can reach it (0 if none)
    cdef bint changed
    cdef int i, j, k, n, q, s, sc, owner, node
    cdef bint take
    cdef int counts[MAX_POWERS]
    cdef int *units = sh.units
    cdef int *counts_of  # one power's lane of the unit counts
    _count_centres(cm, b.owner, counts)
    for q in range(nw):
        sizes[q] = w.size_a * counts[q] * counts[q] + w.size_b * counts[q] + w.size_c
    # an attack value for everyone but the owner, who defends (the other rows stay 0)
    for k in range(sh.num_unit_rows):
        memset(<char *> sh.base + sh.unit_rows[k] * lanes * width, 0, lanes * width)
    sh.num_unit_rows = 0
    for k in range(cm.num_centres):
        sc = cm.centres[k]
        owner = b.owner[sc]
        if owner < 0:
            a = w.size_c * attack_w
        else:
            a = sizes[owner]
            if cm.home[owner * np + sc]:
                a *= w.home_attack
            a *= attack_w
        sh.owners[k] = owner
        sh.attack[k] = a
        threat[k] = 0
    # the provinces with a unit, listed without a branch per province
    n = 0
    for i in range(np):
        units[n] = i
        n += b.upow[i] >= 0
    # each unit's threats (by unit, not by centre and neighbour: fewer reads), as selects
    # (the branches would be mispredicted often)
    for s in range(n):
        i = units[s]
        q = b.upow[i]
        node = b.unode[i]
        size = sizes[q]
        for j in range(cm.threat_off[node], cm.threat_off[node + 1]):
            k = cm.threat_idx[j]
            take = (q != sh.owners[k]) & (size > threat[k])
            threat[k] = size if take else threat[k]
    if b.any_dislodged:
        for i in range(np):
            q = b.dpow[i]
            if q >= 0:
                size = sizes[q]
                for j in range(cm.threat_off[b.dnode[i]], cm.threat_off[b.dnode[i] + 1]):
                    k = cm.threat_idx[j]
                    if q != sh.owners[k] and size > threat[k]:
                        threat[k] = size
    for k in range(cm.num_centres):
        sc = cm.centres[k]
        owner = sh.owners[k]
        d = 0
        if owner >= 0:
            d = threat[k]
            if cm.home[owner * np + sc]:
                d = d * w.home_defence if d else -w.home_vacation
        sh.defence[sc] = d
        sh.defend[k] = d * defence_w
    if sh.narrow:
        changed = db_centres_narrow(
            <int *> sh.base, lanes, cm.num_centres, &cm.centres[0], sh.owners, sh.attack,
            sh.defend,
        )
    else:
        changed = db_centres_wide(
            <long long *> sh.base, lanes, cm.num_centres, &cm.centres[0], sh.owners,
            sh.attack, sh.defend,
        )
    if w.base_unit:
        changed = True
        for k in range(n):
            i = units[k]
            unit_term = _fdiv(sizes[b.upow[i]] * w.base_unit, 100) * attack_w
            if sh.narrow:
                narrow_row = <int *> sh.base + i * lanes
                for q in range(lanes):
                    narrow_row[q] += <int> unit_term
            else:
                row = <long long *> sh.base + i * lanes
                for q in range(lanes):
                    row[q] += unit_term
            sh.unit_rows[k] = i
        sh.num_unit_rows = n
    # unit counts near each province (strength and competition; not used in winter), then
    # the most units one power has there, the first such power, and the most of the others
    if season == WINTER:
        db_clear(sh.counts, np * lanes + 3 * np)  # counts, top, leader, runner
        return changed
    db_clear(sh.counts, np * lanes)
    for k in range(n):
        i = units[k]
        counts_of = sh.counts + b.upow[i]
        for j in range(cm.touch_off[b.unode[i]], cm.touch_off[b.unode[i] + 1]):
            counts_of[sh.touch_at[j]] += 1
    if b.any_dislodged:
        for i in range(np):
            if b.dpow[i] >= 0:
                counts_of = sh.counts + b.dpow[i]
                k = b.dnode[i]
                for j in range(cm.touch_off[k], cm.touch_off[k + 1]):
                    counts_of[sh.touch_at[j]] += 1
    db_leaders(sh.counts, np, lanes, sh.top, sh.leader, sh.runner)
    return changed


cdef void _compute_levels(CMap cm, _Shared sh) noexcept:
    """Every power's proximity levels (see search.dumbbot_values.proximity_levels), in
    32-bit or 64-bit lanes (see :class:`_Shared`): made again only where the centres' base
    rows that changed since the levels were last computed reach (the same integers), unless
    that is most of the map."""
    cdef int m = 0, k
    cdef bint differs, every
    if sh.incremental:
        # every node (other weights: most often every centre's row changed), or those the
        # centres whose base rows (set by owner, attack, defence) changed reach
        every = not (
            sh.lv_valid
            and sh.weights[0] == sh.lv_weights[0] and sh.weights[1] == sh.lv_weights[1]
        )
        if every:
            memcpy(sh.lv_owner, sh.owners, cm.num_centres * sizeof(int))
            memcpy(sh.lv_attack, sh.attack, cm.num_centres * sizeof(long long))
            memcpy(sh.lv_defend, sh.defend, cm.num_centres * sizeof(long long))
            sh.lv_weights[0] = sh.weights[0]
            sh.lv_weights[1] = sh.weights[1]
            sh.lv_valid = True
        else:
            for k in range(cm.num_centres):
                differs = (
                    (sh.owners[k] != sh.lv_owner[k]) | (sh.attack[k] != sh.lv_attack[k])
                    | (sh.defend[k] != sh.lv_defend[k])
                )
                sh.lv_owner[k] = sh.owners[k]
                sh.lv_attack[k] = sh.attack[k]
                sh.lv_defend[k] = sh.defend[k]
                sh.changed[m] = cm.centres[k]
                m += differs
        if (
            (sh.use_need or not every and m <= SOME_ROWS)
            and db_plan(
                sh.balls, sh.words, sh.changed, m, every, cm.num_nodes,
                sh.need if sh.use_need else NULL, sh.stale, sh.dirty,
            ) * SOME_SHARE_DEN <= SOME_SHARE_NUM * (DEPTH - 1) * cm.num_nodes
        ):
            _compute_some_levels(cm, sh)
            sh.partial = sh.use_need
            return
        memset(sh.stale, 0, DEPTH * sh.words * sizeof(unsigned long long))
        sh.partial = False
    if sh.plain:
        db_levels_plain(
            cm.num_nodes, sh.rows, sh.lanes, &cm.node_prov[0], <int *> sh.base, sh.num_runs,
            sh.runs, sh.recs, &cm.item_off[0], sh.item_at, <int *> sh.levels, sh.exact,
        )
    elif sh.narrow:
        db_levels_narrow(
            cm.num_nodes, sh.rows, sh.lanes, &cm.node_prov[0], <int *> sh.base, sh.num_runs,
            sh.runs, sh.recs, &cm.item_off[0], sh.item_at, <int *> sh.levels, sh.exact,
        )
    else:
        db_levels_wide(
            cm.num_nodes, sh.rows, sh.lanes, &cm.node_prov[0], <long long *> sh.base,
            sh.num_runs, sh.runs, sh.recs, &cm.item_off[0], sh.item_at,
            <long long *> sh.levels, 0,
        )


cdef void _compute_some_levels(CMap cm, _Shared sh) noexcept:
    """The levels of the nodes ``sh.dirty`` names, the others' kept (see _compute_levels)."""
    if sh.plain:
        db_some_levels_plain(
            cm.num_nodes, sh.rows, sh.lanes, &cm.node_prov[0], <int *> sh.base, sh.num_runs,
            sh.runs, sh.recs, &cm.item_off[0], sh.item_at, <int *> sh.levels, sh.exact,
            sh.dirty, sh.words, sh.pos_node,
        )
    elif sh.narrow:
        db_some_levels_narrow(
            cm.num_nodes, sh.rows, sh.lanes, &cm.node_prov[0], <int *> sh.base, sh.num_runs,
            sh.runs, sh.recs, &cm.item_off[0], sh.item_at, <int *> sh.levels, sh.exact,
            sh.dirty, sh.words, sh.pos_node,
        )
    else:
        db_some_levels_wide(
            cm.num_nodes, sh.rows, sh.lanes, &cm.node_prov[0], <long long *> sh.base,
            sh.num_runs, sh.runs, sh.recs, &cm.item_off[0], sh.item_at,
            <long long *> sh.levels, 0, sh.dirty, sh.words, sh.pos_node,
        )


cdef inline void _repoint(CMap cm, CValues v) noexcept:
    """Point ``v`` at ``v.power``'s levels of the shared valuation :func:`_compute` made
    last, with a fresh epoch (no value worked out yet): a movement phase's powers in turn
    need no board compared and nothing else set again."""
    cdef _Shared sh = cm.shared
    if v.epoch == INT_MAX:
        memset(v.stamp, 0, v.nn * sizeof(int))
        v.epoch = 0
    v.epoch += 1
    v.kept = False
    v.levels = (<char *> sh.levels) + v.power * (sizeof(int) if sh.narrow else sizeof(long long))


cdef void _compute(CMap cm, CWeights w, _Board b, int season, bint removing, CValues out):
    """Point ``out`` at the valuation of ``b`` for its power (see
    search.dumbbot_values.dumbbot_values; :func:`_value` and :func:`_competition` read it,
    :func:`values` keeps it whole and copies the unit counts too)."""
    cdef int np = cm.num_provinces
    cdef long long strength_w = 0, competition_w = 0, winter_defence_w = 0
    cdef int table  # of proximity weights: spring, fall, build, remove
    cdef bint winter = season == WINTER
    if season == SPRING or season == SUMMER:
        table = 0
        strength_w, competition_w = w.spring_strength, w.spring_competition
    elif season == FALL or season == AUTUMN:
        table = 1
        strength_w, competition_w = w.fall_strength, w.fall_competition
    else:
        table = 3 if removing else 2
        winter_defence_w = w.remove_defence if removing else w.build_defence
    cdef _Shared sh = _shared(cm, w, b, season)
    _repoint(cm, out)  # a fresh epoch, and the power's levels of this valuation
    out.winter = winter
    out.strength_w = strength_w
    out.competition_w = competition_w
    out.winter_defence_w = winter_defence_w
    out.prox = &w.prox[table][0]
    out.narrow = sh.narrow
    out.lanes = sh.lanes
    out.level = sh.lanes
    out.defence = sh.defence
    out.node_prov = &cm.node_prov[0]
    out.owner = sh.board + 4 * np
    out.unit_counts = sh.counts
    out.top = sh.top
    out.leader = sh.leader
    out.runner = sh.runner


cdef inline int _competition(CValues v, int prov) noexcept:
    """The most units any power but ``v``'s has in or next to ``prov``."""
    if v.kept:
        return v.comp[prov]
    return v.runner[prov] if v.leader[prov] == v.power else v.top[prov]


cdef inline long long _value(CValues v, int node) noexcept:
    """``v``'s value of ``node``: its weighted proximity levels plus what its province adds
    (strength and competition, or the winter defence; see search.dumbbot_values)."""
    if v.kept or v.stamp[node] == v.epoch:
        return v.vals[node]
    cdef int prov = v.node_prov[node]
    cdef long long extra
    if not v.winter:
        extra = (
            v.strength_w * v.unit_counts[prov * v.lanes + v.power]
            - v.competition_w * _competition(v, prov)
        )
    elif v.owner[prov] == v.power and v.defence[prov] > 0:
        extra = v.winter_defence_w * v.defence[prov]
    else:
        extra = 0
    v.stamp[node] = v.epoch
    v.vals[node] = _weighed(v, node) + extra
    return v.vals[node]


cdef inline long long _weighed(CValues v, int node) noexcept:
    """The proximity levels of ``v``'s power at ``node``, weighted by its season's table."""
    cdef Py_ssize_t at = <Py_ssize_t> node * DEPTH * v.lanes
    if v.narrow and v.lanes == LANES:
        return db_weigh_lanes(v.prox, (<const int *> v.levels) + at)
    if v.narrow:
        return db_weigh_other(v.prox, (<const int *> v.levels) + at, v.level, True)
    return db_weigh_other(v.prox, (<const long long *> v.levels) + at, v.level, False)


cdef void _keep(CValues v, long long *vals, int *comp) noexcept:
    """Every value and competition count of ``v`` into ``vals`` and ``comp``."""
    cdef int i
    for i in range(v.np):
        comp[i] = _competition(v, i)
    for i in range(v.nn):
        vals[i] = _value(v, i)


def values(CMap cm, CWeights w, object pos, int power, bint removing=False):
    """DumbBot's values for ``power`` in the phase ``pos`` is in (a :class:`CValues`)."""
    if not 0 <= power < cm.num_powers:
        raise ValueError(f"no power {power} on this map")
    out = CValues(cm, power)
    _compute(cm, w, _Board(cm, pos), pos.season, removing, out)
    _keep(out, out.vals, out.comp)
    out.kept = True
    cdef int prov, q
    for prov in range(cm.num_provinces):
        for q in range(cm.num_powers):
            out.counts[prov * cm.num_powers + q] = cm.shared.counts[prov * out.lanes + q]
    return out


# --- the thesis's region weights -------------------------------------------------------


def region_weights(
    CMap cm, object pos, int power, tuple level_weights, int foreign_constant
):
    """The thesis's region weight of every node for ``power`` (search.mcts.weights._weights).

    ``level_weights`` are the season's proximity weights.  Floating point as
    Python computes it: the same operations in the same order (a neighbour
    sum added left to right from zero, as search.compiled_search.plain_sum adds),
    and no fused multiply-add (``-ffp-contract=off``).
    """
    if not 0 <= power < cm.num_powers:
        raise ValueError(f"no power {power} on this map")
    cdef _Board b = _Board(cm, pos)
    cdef int i
    cdef double *block = <double *> PyMem_Malloc(_WEIGHTS_BLOCK(cm) * sizeof(double))
    if block == NULL:
        raise MemoryError()
    cdef const double *total
    try:
        total = _region_weights(
            cm, b.upow, b.unode, b.owner, power, level_weights, foreign_constant, block
        )
        return [total[i] for i in range(cm.num_nodes)]
    finally:
        PyMem_Free(block)


cdef inline Py_ssize_t _WEIGHTS_BLOCK(CMap cm) noexcept:
    """The doubles of scratch :func:`_region_weights` takes."""
    return 3 * cm.num_nodes + cm.num_provinces


cdef const double *_region_weights(
    CMap cm,
    const int *upow,
    const int *unode,
    const int *owner,
    int power,
    tuple level_weights,
    int foreign_constant,
    double *block,
) except NULL:
    """:func:`region_weights` of the board of ``upow``, ``unode`` and ``owner`` (as
    _Board's), in ``block`` (``_WEIGHTS_BLOCK(cm)`` doubles); where they start in it."""
    cdef int np = cm.num_provinces, nn = cm.num_nodes
    cdef int levels = len(level_weights)
    cdef int centres[MAX_POWERS]
    cdef int i, j, k, sc, own, threats, n
    cdef double s, w
    cdef double *cur = block
    cdef double *nxt = cur + nn
    cdef double *total = nxt + nn
    cdef double *base = total + nn
    cdef double *swap
    _count_centres(cm, owner, centres)
    for i in range(np):
        base[i] = 0
    for k in range(cm.num_centres):
        sc = cm.centres[k]
        own = owner[sc]
        if own == power:
            threats = 0
            for j in range(cm.nb_off[sc], cm.nb_off[sc + 1]):
                i = cm.nb_idx[j]
                if upow[i] >= 0 and upow[i] != power and cm.reach[unode[i] * np + sc]:
                    threats += 1
            base[sc] = threats
        else:
            base[sc] = foreign_constant - (centres[own] if own >= 0 else 0)
    w = level_weights[0]
    for i in range(nn):
        cur[i] = base[cm.node_prov[i]] * w
        total[i] = cur[i]
    for n in range(1, levels):
        w = level_weights[n]
        for i in range(nn):
            s = 0.0
            for j in range(cm.nadj_off[i], cm.nadj_off[i + 1]):
                s += cur[cm.nadj_idx[j]]
            nxt[i] = (s / 5.0 + cur[i]) * w
        for i in range(nn):
            total[i] = total[i] + nxt[i]
        swap = cur
        cur = nxt
        nxt = swap
    return total


# --- the random generator's draws --------------------------------------------------------

# random.Random's generator as CPython's Modules/_randommodule.c keeps it (the object's
# MT19937 state) and draws from it (``random()``, ``getrandbits(k)`` for k <= 32), read and
# advanced in place from C; C_DRAWS checks at import that the layout and the draws are the
# running Python's, else every draw goes through the generator's methods.
cdef extern from *:
    """
    #include <stdint.h>

    #define DB_MT_N 624
    #define DB_MT_M 397

    typedef struct {
        PyObject_HEAD
        int index;
        uint32_t state[DB_MT_N];
    } db_mt;

    /* the state's next 624 words (once every 624 draws: kept out of the inlined draw);
       the matrix's row picked by a mask, not a table, and the loops in vector lanes */
    #define DB_MT_MAG(y) ((0U - ((y) & 0x1U)) & 0x9908b0dfU)
    static __attribute__((noinline, optimize("tree-vectorize", "vect-cost-model=dynamic")))
    void db_mt_regenerate(db_mt *self)
    {
        uint32_t *mt = self->state;
        uint32_t y;
        int kk;
        for (kk = 0; kk < DB_MT_N - DB_MT_M; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + DB_MT_M] ^ (y >> 1) ^ DB_MT_MAG(y);
        }
        for (; kk < DB_MT_N - 1; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (DB_MT_M - DB_MT_N)] ^ (y >> 1) ^ DB_MT_MAG(y);
        }
        y = (mt[DB_MT_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[DB_MT_N - 1] = mt[DB_MT_M - 1] ^ (y >> 1) ^ DB_MT_MAG(y);
        self->index = 0;
    }

    static inline uint32_t db_mt_next(db_mt *self)
    {
        uint32_t y;
        if (__builtin_expect(self->index >= DB_MT_N, 0)) {
            db_mt_regenerate(self);
        }
        y = self->state[self->index++];
        y ^= (y >> 11);
        y ^= (y << 7) & 0x9d2c5680U;
        y ^= (y << 15) & 0xefc60000U;
        y ^= (y >> 18);
        return y;
    }

    static inline double db_mt_random(db_mt *self)
    {
        uint32_t a = db_mt_next(self) >> 5, b = db_mt_next(self) >> 6;
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
    }
    """
    enum: DB_MT_N
    ctypedef struct db_mt:
        int index
        unsigned int state[DB_MT_N]
    unsigned int db_mt_next(db_mt *mt) noexcept nogil
    int __builtin_clzll(unsigned long long x) noexcept nogil
    double db_mt_random(db_mt *mt) noexcept nogil


cdef struct Draws:  # where a call draws from: ``rng``, in C through ``mt`` unless NULL
    PyObject *rng  # the generator (the caller holds it)
    db_mt *mt  # its state, drawn from in C when it is a plain random.Random


cdef tuple _DRAWING_METHODS = ("random", "getrandbits", "shuffle", "choice", "_randbelow")
"""What the Python loops call to draw (an instance attribute of that name draws instead)."""


cdef inline bint _plain(object rng) except -1:
    """Whether ``rng`` is a plain ``random.Random`` drawing with the class's own methods."""
    if not _c_draws or type(rng) is not _PLAIN_RANDOM:
        return False
    attributes = rng.__dict__
    for name in _DRAWING_METHODS:
        if name in attributes:
            return False
    return True


cdef inline Draws _draws(object rng):
    """The draws from ``rng``: in C on its state when it is a plain ``random.Random``.

    Made once per call from Python (the instance's attributes looked up once), and passed
    down to every phase and power that draws in it."""
    cdef Draws d
    d.rng = <PyObject *> rng
    d.mt = <db_mt *> d.rng if _plain(rng) else NULL
    return d


cdef inline double _uniform(Draws *d) except? -1.0:
    """``rng.random()``."""
    if d.mt != NULL:
        return db_mt_random(d.mt)
    return (<object> d.rng).random()


cdef inline Py_ssize_t _mt_below(db_mt *mt, Py_ssize_t n) noexcept:
    """``Random._randbelow(n)`` for 1 <= ``n`` < 2**32: ``getrandbits(n.bit_length())``
    until a number below ``n``."""
    cdef int k = 64 - __builtin_clzll(<unsigned long long> n)  # n.bit_length()
    cdef Py_ssize_t r
    r = db_mt_next(mt) >> (32 - k)
    while r >= n:
        r = db_mt_next(mt) >> (32 - k)
    return r


cdef int _shuffle(int *items, int n, Draws *d) except -1:
    """``rng.shuffle`` of the ``n`` ``items`` (as of a list of them)."""
    cdef int i, r, x
    if d.mt == NULL:
        shuffled = [items[i] for i in range(n)]
        (<object> d.rng).shuffle(shuffled)
        for i in range(n):
            items[i] = shuffled[i]
        return 0
    for i in range(n - 1, 0, -1):
        r = <int> _mt_below(d.mt, i + 1)
        x = items[i]
        items[i] = items[r]
        items[r] = x
    return 0


cdef object _choice(list items, Draws *d):
    """``rng.choice(items)`` (``items`` not empty)."""
    if d.mt == NULL:
        return (<object> d.rng).choice(items)
    return items[_mt_below(d.mt, len(items))]


def _same_draws_as_the_standard_generator():
    """Whether the draws of :class:`Draws` in C read the state of a plain ``random.Random``
    and give and leave exactly what its methods do, on many seeds and mixes of draws."""
    cdef Draws d
    cdef db_mt *mt
    cdef int i
    cdef int shuffled[MAX_OPTIONS]
    for seed in range(4):
        mine, theirs = _random.Random(seed), _random.Random(seed)
        mt = <db_mt *> <PyObject *> mine
        version, state, gauss = mine.getstate()
        if mt.index != state[DB_MT_N] or any(mt.state[i] != state[i] for i in range(DB_MT_N)):
            return False
        d.rng = <PyObject *> mine
        d.mt = mt
        mix = _random.Random(seed + 100)
        for _ in range(700):  # past the state's 624 words: a regeneration on the way
            kind = mix.randrange(4)
            n = mix.randrange(1, 40)
            if kind == 0:
                if db_mt_random(mt) != theirs.random():
                    return False
            elif kind == 1:
                if db_mt_next(mt) >> (32 - n % 32 - 1) != theirs.getrandbits(n % 32 + 1):
                    return False
            elif kind == 2:
                for i in range(n):
                    shuffled[i] = i
                _shuffle(shuffled, n, &d)
                b = list(range(n))
                theirs.shuffle(b)
                if [shuffled[i] for i in range(n)] != b:
                    return False
            elif _choice(list(range(n)), &d) != theirs.choice(list(range(n))):
                return False
        if mine.getstate() != theirs.getstate():
            return False
    return True


cdef object _PLAIN_RANDOM = _random.Random
cdef bint _c_draws = _same_draws_as_the_standard_generator()
C_DRAWS = _c_draws
"""Whether a plain ``random.Random`` is drawn from in C (else through its methods)."""


# --- DumbBot's weighted random choice ---------------------------------------------------


cdef inline int _ranked_below(long long *scores, int n, int k) noexcept:
    """The option ranked next below option ``k`` by (score, index), or -1 if none."""
    cdef int i, found = -1
    cdef long long bound = scores[k], at = LLONG_MIN, s
    cdef bint take
    # selects, not branches (the scores come in no order): the later index of equals
    for i in range(n):
        s = scores[i]
        take = ((s < bound) | ((s == bound) & (i < k))) & (s >= at)
        found = i if take else found
        at = s if take else at
    return found


cdef inline int _select(long long *scores, int n, Draws *d, CWeights w) except -1:
    """search.dumbbot_values.select_index on a C array, drawing from ``d`` (one option: no
    draw, and no call)."""
    if n == 1:
        return 0
    return _select_among(scores, n, d, w)


cdef inline int _select_among(long long *scores, int n, Draws *d, CWeights w) except -1:
    """:func:`_select` of two options or more.

    The options are ranked by (score, index) from the top: the best and the runner-up
    found in one pass, each further one only when the draws go on to it (most choices
    stop at the best or the next).
    """
    cdef int i, current = 0, below = -1
    cdef long long best = scores[0], second = LLONG_MIN, s, chance, best_chance
    cdef bint top, runner
    # selects, not branches (the scores come in no order): the later index of equals
    for i in range(1, n):
        s = scores[i]
        top = s >= best
        runner = s >= second
        below = current if top else (i if runner else below)
        second = best if top else (s if runner else second)
        current = i if top else current
        best = s if top else best
    for i in range(n - 1):
        if i:
            below = _ranked_below(scores, n, current)
            second = scores[below]
        if best:
            best_chance = _fdiv((best - second) * w.modifier, best if best > 0 else -best)
        else:
            best_chance = 0
        chance = w.play_alternative - _fdiv(best_chance * w.play_alternative, 100)
        if _uniform(d) * 100 < <double> chance:
            current = below
        else:
            break
    return current


# --- movement orders ----------------------------------------------------------------------


cdef class _Orders:
    """The orders given so far, per province, and the order they were given in."""

    cdef int *kind
    cdef int *a
    cdef int *b
    cdef int *seq
    cdef int *moving_into
    cdef unsigned char *waiting  # waiting[p * np + q]: the unit in q waits for the one in p
    cdef unsigned char *waited_for  # waited_for[p]: some unit waits for the one in p
    cdef int *waited  # the entries of ``waiting`` set, to clear them for the next call
    cdef int *ours  # scratch: the units still to order (or to retreat), in the order drawn
    cdef int *holding  # scratch of _replace_wasted_holds: 4 * np ints, np scores
    cdef long long *scores
    cdef int num_waited
    cdef int count, np

    def __cinit__(self, int np):
        cdef int i
        self.np = np
        self.kind = <int *> PyMem_Malloc((10 * np + np * np) * sizeof(int))
        self.waiting = <unsigned char *> PyMem_Malloc(np * np + np)
        self.scores = <long long *> PyMem_Malloc(np * sizeof(long long))
        if self.kind == NULL or self.waiting == NULL or self.scores == NULL:
            raise MemoryError()
        self.a = self.kind + np
        self.b = self.a + np
        self.seq = self.b + np
        self.moving_into = self.seq + np
        self.waited = self.moving_into + np
        self.ours = self.waited + np * np
        self.holding = self.ours + np
        self.waited_for = self.waiting + np * np
        memset(self.waiting, 0, np * np + np)
        self.num_waited = 0
        self.count = 0
        for i in range(np):
            self.kind[i] = -1
            self.moving_into[i] = -1

    cdef void reset(self, const int *loc_prov) noexcept:
        """No order given yet (as built): only the entries of the orders given are cleared
        (``loc_prov``: the map's provinces of its locations, where the moves went)."""
        cdef int i, p
        for i in range(self.count):
            p = self.seq[i]
            if self.kind[p] == MOVE:
                self.moving_into[loc_prov[self.a[p]]] = -1
            self.kind[p] = -1
        for i in range(self.num_waited):
            self.waiting[self.waited[i]] = 0
            self.waited_for[self.waited[i] // self.np] = 0
        self.num_waited = 0
        self.count = 0

    cdef inline void wait(self, int p, int q) noexcept:
        """The unit in ``q`` waits for the one in ``p``."""
        cdef int at = p * self.np + q
        if not self.waiting[at]:
            self.waiting[at] = 1
            self.waited_for[p] = 1
            self.waited[self.num_waited] = at
            self.num_waited += 1

    def __dealloc__(self):
        PyMem_Free(self.kind)
        PyMem_Free(self.waiting)
        PyMem_Free(self.scores)


cdef int _order_unit(
    CMap cm, CWeights w, _Board b, CValues v, _Orders o, int prov, Draws *d, bint force
) except -2:
    """One unit's order into ``o`` (its kind), or WAITING (see DumbBot._order_unit)."""
    cdef int opts[MAX_OPTIONS]
    cdef long long scores[MAX_OPTIONS]
    cdef int np = cm.num_provinces
    cdef int power = b.upow[prov]
    cdef int node = b.unode[prov]
    cdef int n = 1, j, k, dest, dprov, mover
    cdef int first = cm.adj_off[node], last = cm.adj_off[node + 1]
    cdef const int *adj_loc = &cm.adj_loc[0]
    cdef const int *adj_node = &cm.adj_node[0]
    cdef const int *adj_prov = &cm.adj_prov[0]
    cdef const unsigned char *waiting = o.waiting + prov * np
    cdef bint ok
    opts[0] = cm.node_loc[node]
    scores[0] = _value(v, node)
    if o.waited_for[prov]:  # not to the units waiting for this one
        for j in range(first, last):
            if not waiting[adj_prov[j]]:
                opts[n] = adj_loc[j]
                scores[n] = _value(v, adj_node[j])
                n += 1
    else:
        for j in range(first, last):
            opts[n] = adj_loc[j]
            scores[n] = _value(v, adj_node[j])
            n += 1
    while True:
        k = _select(scores, n, d, w)
        dest = opts[k]
        dprov = cm.loc_prov[dest]
        if dprov == prov:
            o.kind[prov] = HOLD
            return HOLD
        ok = True
        if b.upow[dprov] == power:
            if o.kind[dprov] >= 0:
                if o.kind[dprov] != MOVE:
                    if _competition(v, dprov) > 1:
                        o.kind[prov] = SUPPORT_HOLD
                        o.a[prov] = dprov
                        return SUPPORT_HOLD
                    ok = False
            elif not force:
                o.wait(dprov, prov)
                return WAITING
        mover = o.moving_into[dprov]
        if mover >= 0:
            if _competition(v, dprov) > 0:
                o.kind[prov] = SUPPORT_MOVE
                o.a[prov] = mover
                o.b[prov] = dprov
                return SUPPORT_MOVE
            ok = False
        if ok:
            o.kind[prov] = MOVE
            o.a[prov] = dest
            return MOVE
        for j in range(k, n - 1):
            opts[j] = opts[j + 1]
            scores[j] = scores[j + 1]
        n -= 1


cdef void _replace_wasted_holds(CMap cm, _Board b, CValues v, _Orders o) noexcept:
    """Each hold becomes a support of the best neighbouring order (DumbBot's rule)."""
    cdef int np = cm.num_provinces
    cdef int *holding = o.holding
    cdef int *t_unit = holding + np
    cdef int *t_kind = t_unit + np
    cdef int *t_dest = t_kind + np
    cdef long long *t_score = o.scores
    cdef int nh = 0, s, prov, k, dprov, node, j, q, src
    cdef long long best
    for j in range(np):
        t_unit[j] = -1
    for s in range(o.count):
        prov = o.seq[s]
        k = o.kind[prov]
        node = b.unode[prov]
        if k == MOVE:
            dprov = cm.loc_prov[o.a[prov]]
            t_unit[dprov] = prov
            t_kind[dprov] = MOVE
            t_dest[dprov] = dprov
            t_score[dprov] = (
                _value(v, cm.node_of(cm.node_type[node], o.a[prov])) * _competition(v, dprov)
            )
        else:
            t_unit[prov] = prov
            t_kind[prov] = k
            t_score[prov] = _value(v, node) * (_competition(v, prov) - 1)
            if k == HOLD:
                holding[nh] = prov
                nh += 1
    for s in range(nh):
        prov = holding[s]
        node = b.unode[prov]
        src = -1
        best = 0
        for j in range(cm.adj_off[node], cm.adj_off[node + 1]):
            q = cm.loc_prov[cm.adj_loc[j]]
            if t_unit[q] >= 0 and (t_score[q] > best or src < 0):
                src = q
                best = t_score[q]
        if src >= 0:
            if t_kind[src] == MOVE:
                o.kind[prov] = SUPPORT_MOVE
                o.a[prov] = t_unit[src]
                o.b[prov] = t_dest[src]
            else:
                o.kind[prov] = SUPPORT_HOLD
                o.a[prov] = t_unit[src]


def movement_orders(CMap cm, CWeights w, object pos, int power, object rng):
    """DumbBot's orders for every unit of ``power`` (see DumbBot.movement_orders)."""
    if not 0 <= power < cm.num_powers:
        raise ValueError(f"no power {power} on this map")
    return _orders_in(cm, w, pos, None, power, rng)


def movement_orders_board(CMap cm, CWeights w, Board start, int power, object rng):
    """:func:`movement_orders` in the position ``start`` holds."""
    if not 0 <= power < cm.num_powers:
        raise ValueError(f"no power {power} on this map")
    if start.cm is not cm:
        raise ValueError("a board kept for another map")
    return _orders_in(cm, w, None, start, power, rng)


cdef dict _loaded_movement_orders(
    CMap cm, CWeights w, _Board b, int season, int power, Draws *d, CValues v, _Orders o
):
    """movement_orders on the board loaded into ``b`` (``v`` and ``o`` are reset here)."""
    if not _choose_moves(cm, w, b, season, power, d, v, o):
        return {}
    return _orders_dict(o.count, o.seq, o.kind, o.a, o.b)


cdef dict _orders_dict(int count, const int *seq, const int *kind, const int *a, const int *b):
    """The engine orders of the provinces ``seq[:count]``, in that order, from their order
    kinds and targets by province (``kind``, ``a``, ``b``)."""
    cdef int i, prov, r
    orders = {}
    for i in range(count):
        prov = seq[i]
        r = kind[prov]
        if r == HOLD:
            orders[prov] = _HOLD_ORDER
        elif r == MOVE:
            orders[prov] = (MOVE, a[prov])
        elif r == SUPPORT_HOLD:
            orders[prov] = (SUPPORT_HOLD, a[prov])
        else:
            orders[prov] = (SUPPORT_MOVE, a[prov], b[prov])
    return orders


cdef inline int _provinces_of(const int *powers, int np, int power, int *out) noexcept:
    """The provinces ``p`` where ``powers[p]`` is ``power`` into ``out``, in order; how many."""
    cdef int p, n = 0
    for p in range(np):
        if powers[p] == power:
            out[n] = p
            n += 1
    return n


cdef int _choose_moves(
    CMap cm,
    CWeights w,
    _Board b,
    int season,
    int power,
    Draws *d,
    CValues v,
    _Orders o,
    bint valued=False,
    const int *units=NULL,
    int num_units=0,
    bint repoint=False,
) except -1:
    """DumbBot's orders for ``power``'s units on ``b`` into ``o`` (reset here); how many.

    ``valued``: ``v`` already holds ``power``'s values on ``b``.  ``units`` (if not NULL):
    the ``num_units`` provinces with a unit of ``power`` on ``b``, in province order (a
    movement phase sorts every power's out once, not from every province per power).
    ``repoint``: :func:`_compute` last pointed ``v`` at ``b`` in ``season`` with ``w`` for
    another power, and nothing was valued since (a movement phase's powers in turn): ``v``
    is pointed at ``power``'s levels of that valuation (see :func:`_repoint`).
    """
    v.power = power
    o.reset(&cm.loc_prov[0])
    cdef int np = cm.num_provinces
    cdef int k, prov, r, count, waiting
    cdef int stalled = 0
    cdef bint force
    cdef int *ours = o.ours
    if units == NULL:
        count = _provinces_of(b.upow, np, power, ours)
    else:
        count = num_units
        memcpy(ours, units, count * sizeof(int))
    if not count:
        return 0
    if not valued:
        if repoint:
            _repoint(cm, v)
        else:
            _compute(cm, w, b, season, False, v)
    while count:
        _shuffle(ours, count, d)
        force = stalled >= STALLED
        waiting = 0  # the units that wait go to the front of ``ours``, in turn
        for k in range(count):
            prov = ours[k]
            r = _order_unit(cm, w, b, v, o, prov, d, force)
            force = False
            if r == WAITING:
                ours[waiting] = prov
                waiting += 1
            else:
                o.seq[o.count] = prov
                o.count += 1
                if r == MOVE:
                    o.moving_into[cm.loc_prov[o.a[prov]]] = prov
        stalled = stalled + 1 if waiting == count else 0
        count = waiting
    _replace_wasted_holds(cm, b, v, o)
    return o.count


# --- a learned order policy's movement orders (search.orderpolicy.LearnedPolicy) ----------

cdef enum:
    NUM_FEATURES = 16  # len(search.orderpolicy.FEATURES)
    F_DUMBBOT_CHOICE = 1  # the features of DumbBot's choice: added per draw, not in the base
    F_DUMBBOT_CHOICE_STAY = 2

cdef double REACH_SCALE = 3.0  # search.orderpolicy.REACH_SCALE
cdef double DISTANCE_SCALE = 5.0  # search.orderpolicy.DISTANCE_SCALE


cdef class CPolicy:
    """A learned order model's movement orders on one map (search.orderpolicy.LearnedPolicy).

    ``weights`` are the model's, one per feature of search.orderpolicy.FEATURES;
    ``dumbbot`` the compiled weights of the DumbBot whose draw gives the feature of
    DumbBot's choice.  The features read the map's supply centres, home centres,
    distances and each unit's reach; the scratch space is this object's (calls are
    not reentrant).
    """

    cdef readonly object tables
    cdef readonly CWeights dumbbot
    cdef double weight[NUM_FEATURES]
    cdef double bonus, bonus_stay
    cdef int np
    cdef unsigned char *reach  # reach[node * np + p]: game_map.reach(type, loc) holds p
    cdef int[::1] reach_off, reach_idx  # the same as lists: reach_idx[reach_off[node]:...]
    cdef unsigned char *centre  # per province
    cdef int *distance  # distance[p * np + q]
    cdef int *by_distance  # by_distance[p * centres + i]: the centres, nearest to p first
    cdef int *block
    cdef int *enemies  # per province: enemy units reaching it, then our own
    cdef int *friends
    cdef int *nearest  # per province: distance to the nearest centre to take (-1: not yet)
    cdef int *provs  # our units' provinces, sorted
    cdef int *picks  # per province: the location the unit there chose
    cdef int *order_of  # the order the units claim their provinces in
    cdef int *later
    cdef int *mover_into  # per province: the unit of ours moving in, or -1
    cdef int *kind  # per province: the order of our unit there (-1: none yet), its a and b
    cdef int *a
    cdef int *b
    cdef int *seq  # the orders' provinces, in the order they were given
    cdef int count

    def __cinit__(self, CMap cm, object game_map, object weights, CWeights dumbbot):
        cdef int np = cm.num_provinces
        cdef int nn = cm.num_nodes
        cdef int i, j
        weights = tuple(weights)
        if len(weights) != NUM_FEATURES:
            raise ValueError(f"a learned order model needs {NUM_FEATURES} weights")
        self.tables = cm.tables
        self.dumbbot = dumbbot
        self.np = np
        for i in range(NUM_FEATURES):
            self.weight[i] = weights[i]
        self.bonus = self.weight[F_DUMBBOT_CHOICE]
        self.bonus_stay = self.bonus + self.weight[F_DUMBBOT_CHOICE_STAY]
        self.reach = <unsigned char *> PyMem_Malloc(nn * np + np)
        self.distance = <int *> PyMem_Malloc(np * np * sizeof(int))
        self.by_distance = <int *> PyMem_Malloc((np * cm.num_centres + 1) * sizeof(int))
        self.block = <int *> PyMem_Malloc(13 * np * sizeof(int))
        if (
            self.reach == NULL
            or self.distance == NULL
            or self.by_distance == NULL
            or self.block == NULL
        ):
            raise MemoryError()
        self.centre = self.reach + nn * np
        memset(self.reach, 0, nn * np + np)
        reach_idx, reach_off = [], [0]
        for i in range(nn):
            provinces = sorted(game_map.reach(cm.node_type[i], cm.node_loc[i]))
            _check(provinces, np, "reach")
            for j in provinces:
                self.reach[i * np + j] = 1
            reach_idx.extend(provinces)
            reach_off.append(len(reach_idx))
        self.reach_idx = _ints(reach_idx)
        self.reach_off = _ints(reach_off)
        for i in range(cm.num_centres):
            self.centre[cm.centres[i]] = 1
        _check_length(game_map.distance, np, "distances")
        for i in range(np):
            row = game_map.distance[i]
            _check_length(row, np, "distances")
            for j in range(np):
                self.distance[i * np + j] = row[j]
            nearest_first = sorted(
                [cm.centres[j] for j in range(cm.num_centres)], key=lambda sc: row[sc]
            )
            for j in range(cm.num_centres):
                self.by_distance[i * cm.num_centres + j] = nearest_first[j]
        self.enemies = self.block
        self.friends = self.enemies + np
        self.nearest = self.friends + np
        self.provs = self.nearest + np
        self.picks = self.provs + np
        self.order_of = self.picks + np
        self.later = self.order_of + np
        self.mover_into = self.later + np
        self.kind = self.mover_into + np
        self.a = self.kind + np
        self.b = self.a + np
        self.seq = self.b + np
        self.count = 0

    def __dealloc__(self):
        PyMem_Free(self.reach)
        PyMem_Free(self.distance)
        PyMem_Free(self.by_distance)
        PyMem_Free(self.block)

    cdef inline void give(self, int prov, int kind, int a, int b) noexcept:
        """Our unit in ``prov`` is given its order."""
        self.kind[prov] = kind
        self.a[prov] = a
        self.b[prov] = b
        self.seq[self.count] = prov
        self.count += 1


cdef int _nearest_target(CMap cm, CPolicy pol, _Board b, int power, int prov) noexcept:
    """The distance from ``prov`` to the nearest centre ``power`` does not own (0: none)."""
    cdef int i, sc
    cdef int *nearest_first = pol.by_distance + prov * cm.num_centres
    for i in range(cm.num_centres):
        sc = nearest_first[i]
        if b.owner[sc] != power:
            return pol.distance[prov * pol.np + sc]
    return 0


cdef int _dumbbot_choice(CMap cm, _Orders o, int prov, int *opts, int n) noexcept:
    """search.orderpolicy.dumbbot_choice: the index of the choice DumbBot's order came from."""
    cdef int kind = o.kind[prov]
    cdef int k, target
    if kind == MOVE:
        for k in range(n):
            if opts[k] == o.a[prov]:
                return k
        return 0
    if kind == SUPPORT_HOLD:
        target = o.a[prov]
    elif kind == SUPPORT_MOVE:
        target = o.b[prov]
    else:
        return 0
    for k in range(1, n):
        if cm.loc_prov[opts[k]] == target:
            return k
    return 0


cdef int _learned_moves(
    CMap cm,
    CPolicy pol,
    _Board b,
    int season,
    int power,
    Draws *dr,
    CValues v,
    _Orders o,
    bint valued=False,
) except -1:
    """LearnedPolicy.movement_orders for ``power``'s units on ``b`` into ``pol``'s orders; how many.

    One DumbBot draw (``pol.dumbbot``, into ``o`` and ``v``; ``valued``: ``v`` already holds
    its values), each unit's choice drawn by the softmax of its scores, the claim order
    shuffled, then search.orderpolicy.orders_from_choices.
    """
    cdef int np = cm.num_provinces
    cdef int opts[MAX_OPTIONS]
    cdef double scores[MAX_OPTIONS]
    cdef double f[NUM_FEATURES]
    cdef double *w = pol.weight
    cdef int i, j, k, n, p, q, prov, node, loc, d, there, owner, count, waiting, num_later
    cdef int agree
    cdef double top, total, r, acc, stay, enemies, fall_take
    cdef bint is_centre, take
    pol.count = 0
    if not _choose_moves(cm, pol.dumbbot, b, season, power, dr, v, o, valued):
        return 0
    count = _provinces_of(b.upow, np, power, pol.provs)
    for p in range(np):
        pol.enemies[p] = 0
        pol.friends[p] = 0
        pol.nearest[p] = -1
        pol.mover_into[p] = -1
        pol.kind[p] = -1
    for p in range(np):
        if b.upow[p] >= 0:
            node = b.unode[p]
            for j in range(pol.reach_off[node], pol.reach_off[node + 1]):
                q = pol.reach_idx[j]
                if b.upow[p] == power:
                    pol.friends[q] += 1
                else:
                    pol.enemies[q] += 1
    for i in range(count):
        prov = pol.provs[i]
        node = b.unode[prov]
        opts[0] = cm.node_loc[node]
        n = 1
        for j in range(cm.adj_off[node], cm.adj_off[node + 1]):
            opts[n] = cm.adj_loc[j]
            n += 1
        for k in range(n):
            loc = opts[k]
            d = cm.loc_prov[loc]
            there = b.upow[d]
            owner = b.owner[d]
            is_centre = pol.centre[d]
            take = is_centre and owner != power
            stay = 1.0 if k == 0 else 0.0
            enemies = pol.enemies[d] / REACH_SCALE
            fall_take = 1.0 if take and season == FALL else 0.0
            if pol.nearest[d] < 0:
                pol.nearest[d] = _nearest_target(cm, pol, b, power, d)
            f[0] = stay
            f[3] = 1.0 if is_centre else 0.0
            f[4] = 1.0 if is_centre and owner == power else 0.0
            f[5] = 1.0 if is_centre and owner != power and owner != -1 else 0.0
            f[6] = 1.0 if is_centre and owner == -1 else 0.0
            f[7] = 1.0 if cm.home[power * np + d] else 0.0
            f[8] = 1.0 if there == power and d != prov else 0.0
            f[9] = 1.0 if there != -1 and there != power else 0.0
            f[10] = enemies
            f[11] = max(
                0.0,
                pol.friends[d] - (1.0 if k > 0 or pol.reach[node * np + prov] else 0.0),
            ) / REACH_SCALE
            f[12] = fall_take
            f[13] = stay * fall_take
            f[14] = pol.nearest[d] / DISTANCE_SCALE
            f[15] = stay * enemies
            acc = 0.0
            for j in range(NUM_FEATURES):
                if j != F_DUMBBOT_CHOICE and j != F_DUMBBOT_CHOICE_STAY:
                    acc = acc + f[j] * w[j]
            scores[k] = acc
        k = _dumbbot_choice(cm, o, prov, opts, n)
        scores[k] = scores[k] + (pol.bonus_stay if k == 0 else pol.bonus)
        top = scores[0]
        for k in range(1, n):
            if scores[k] > top:
                top = scores[k]
        total = 0.0
        for k in range(n):
            scores[k] = exp(scores[k] - top)
            total = total + scores[k]
        r = _uniform(dr) * total
        k = 0
        acc = scores[0]
        while acc < r and k + 1 < n:
            k += 1
            acc = acc + scores[k]
        pol.picks[prov] = opts[k]
    for i in range(count):
        pol.order_of[i] = pol.provs[i]
    _shuffle(pol.order_of, count, dr)
    # DumbBot's own movers claim their provinces first (a stable sort on agreement)
    n = 0
    for i in range(count):
        prov = pol.order_of[i]
        if o.kind[prov] == MOVE and o.a[prov] == pol.picks[prov]:
            pol.later[n] = prov
            n += 1
    for i in range(count):
        prov = pol.order_of[i]
        if not (o.kind[prov] == MOVE and o.a[prov] == pol.picks[prov]):
            pol.later[n] = prov
            n += 1
    for i in range(count):
        pol.order_of[i] = pol.later[i]
    # search.orderpolicy.orders_from_choices
    waiting = count
    while waiting:
        num_later = 0
        for i in range(waiting):
            prov = pol.order_of[i]
            loc = pol.picks[prov]
            d = cm.loc_prov[loc]
            if d == prov:
                pol.give(prov, HOLD, 0, 0)
                continue
            if b.upow[d] == power:
                if pol.kind[d] < 0:
                    pol.later[num_later] = prov
                    num_later += 1
                    continue
                if pol.kind[d] != MOVE:
                    pol.give(prov, SUPPORT_HOLD, d, 0)
                    continue
            if pol.mover_into[d] >= 0:
                pol.give(prov, SUPPORT_MOVE, pol.mover_into[d], d)
            else:
                pol.give(prov, MOVE, loc, 0)
                pol.mover_into[d] = prov
        j = 0
        if num_later and num_later == waiting:  # waiting on each other in a cycle: the first stays
            prov = pol.later[0]
            pol.give(prov, SUPPORT_HOLD, cm.loc_prov[pol.picks[prov]], 0)
            j = 1
        for i in range(j, num_later):
            pol.order_of[i - j] = pol.later[i]
        waiting = num_later - j
    return pol.count


cdef int _check_policy(CMap cm, CPolicy policy) except -1:
    """ValueError if ``policy`` (or None) was made for another map than ``cm``'s."""
    if policy is not None and policy.tables is not cm.tables:
        raise ValueError("a learned policy made for another map")
    return 0


def learned_orders(CMap cm, CPolicy pol, object pos, int power, object rng):
    """LearnedPolicy.movement_orders: the model's orders for every unit of ``power``."""
    if not 0 <= power < cm.num_powers:
        raise ValueError(f"no power {power} on this map")
    _check_policy(cm, pol)
    return _orders_in(cm, pol, pos, None, power, rng)


def learned_orders_board(CMap cm, CPolicy pol, Board start, int power, object rng):
    """:func:`learned_orders` in the position ``start`` holds."""
    if not 0 <= power < cm.num_powers:
        raise ValueError(f"no power {power} on this map")
    _check_policy(cm, pol)
    if start.cm is not cm:
        raise ValueError("a board kept for another map")
    return _orders_in(cm, pol, None, start, power, rng)


cdef dict _orders_in(CMap cm, object player, object pos, Board start, int power, object rng):
    """The movement orders of ``player`` for every unit of ``power``: DumbBot's for a
    CWeights, the learned policy's for a CPolicy; in ``pos``, or in the position the board
    ``start`` holds when ``pos`` is None.  On the map's scratch space, unless a call
    already running (another thread) holds it: then on scratch space of its own."""
    cdef bint spare = not cm.busy
    cdef _Board b = cm.spare_board if spare else _Board(cm)
    cdef CValues v = cm.spare_values if spare else CValues(cm, power)
    cdef _Orders o = cm.spare_orders if spare else _Orders(cm.num_provinces)
    cdef int season
    cdef Draws d = _draws(rng)
    if spare:
        cm.busy = True
    try:
        if start is None:
            b.load(cm, pos)
            season = pos.season
        else:
            memcpy(b.upow, start.cells, 5 * cm.num_provinces * sizeof(int))
            b.any_dislodged = start.any_dislodged
            season = start.season
        if type(player) is CPolicy:
            return _loaded_learned_orders(cm, <CPolicy>player, b, season, power, &d, v, o)
        return _loaded_movement_orders(cm, <CWeights>player, b, season, power, &d, v, o)
    finally:
        if spare:
            cm.busy = False


cdef dict _loaded_learned_orders(
    CMap cm, CPolicy pol, _Board b, int season, int power, Draws *d, CValues v, _Orders o
):
    """learned_orders on the board loaded into ``b`` (``v`` and ``o`` are reset here)."""
    cdef int count = _learned_moves(cm, pol, b, season, power, d, v, o)
    return _orders_dict(count, pol.seq, pol.kind, pol.a, pol.b)


# --- a whole rollout, every power played by one DumbBot ------------------------------------

from adjudicator._fastmove cimport _MapFacts, _Resolver, resolve_arrays

cdef class NodeValues

from adjudicator.position import Position as _Position

_new_position = _Position.__new__


cdef class _Game:
    """A game as a rollout plays it on in C (the board, the phase, the retreats), and the
    scratch space of its phases (see :func:`play_out`)."""

    cdef _Board b
    cdef CValues v
    cdef _Orders o
    cdef _Resolver r
    cdef int season, year
    cdef int *ropt_n  # the retreats of the unit dislodged from p: ropt[p * MAX_OPTIONS + i]
    cdef int *ropt
    cdef int *units  # the provinces with a unit, in province order (num_units of them)
    cdef int num_units
    cdef int *by_power  # the same provinces by power, each power's in province order
    cdef int *kind  # each unit's order this phase, with the order tuple's arguments a and b
    cdef int *a
    cdef int *b_arg
    cdef int *contested  # after a movement: no retreat there (_Resolver.mark_contested)
    cdef int *arrival  # per unit: the node it moves to; per dislodged unit: where it retreats
    cdef int *pn_off  # each province's nodes: pn_idx[pn_off[p]:pn_off[p + 1]]
    cdef int *pn_idx
    cdef unsigned char *taken
    cdef list unit_tuples  # [power * nodes + node]: the unit's tuple, made at its first use
    cdef bint busy

    def __cinit__(self, CMap cm, object game_map):
        cdef int np = cm.num_provinces
        cdef int i, k
        self.b = _Board(cm)
        self.v = CValues(cm, 0)
        self.o = _Orders(np)
        self.r = _Resolver(_MapFacts(game_map))
        if self.r.n != np or self.r.facts.num_locations != cm.num_locations:
            raise ValueError("the resolver's map is not the tables' map")
        self.ropt_n = <int *> PyMem_Malloc(
            ((9 + MAX_OPTIONS) * np + 1 + cm.num_nodes) * sizeof(int)
        )
        self.taken = <unsigned char *> PyMem_Malloc(np)
        if self.ropt_n == NULL or self.taken == NULL:
            raise MemoryError()
        self.ropt = self.ropt_n + np
        self.units = self.ropt + MAX_OPTIONS * np
        self.kind = self.units + np
        self.a = self.kind + np
        self.b_arg = self.a + np
        self.contested = self.b_arg + np
        self.arrival = self.contested + np
        self.pn_off = self.arrival + np
        self.pn_idx = self.pn_off + np + 1
        self.by_power = self.pn_idx + cm.num_nodes
        prov_nodes = cm.tables.prov_nodes
        _check_length(prov_nodes, np, "province nodes")
        _check_length([n for nodes in prov_nodes for n in nodes], cm.num_nodes, "province nodes")
        k = 0
        for i in range(np):
            _check(prov_nodes[i], cm.num_nodes, "province nodes")
            self.pn_off[i] = k
            for node in prov_nodes[i]:
                self.pn_idx[k] = node
                k += 1
        self.pn_off[np] = k
        self.unit_tuples = [None] * (cm.num_powers * cm.num_nodes)
        self.busy = False

    def __dealloc__(self):
        PyMem_Free(self.ropt_n)
        PyMem_Free(self.taken)

    cdef int load(self, CMap cm, object pos) except -1:
        """Read ``pos`` (any phase) into the arrays."""
        cdef _Board b = self.b
        cdef int p, n, node, loc
        b.load(cm, pos)
        self.season = pos.season
        self.year = pos.year
        for key, value in (<dict> pos.dislodged).items():
            p = key
            options = (<tuple> value)[3]  # checked by b.load
            n = len(options)
            if n >= MAX_OPTIONS:
                raise ValueError(f"{n} retreats of one unit (at most {MAX_OPTIONS - 1})")
            node = b.dnode[p]
            for i in range(n):
                loc = options[i]
                if not 0 <= loc < cm.num_locations or cm.node_of(cm.node_type[node], loc) < 0:
                    raise ValueError(f"a retreat to location {loc}, where the unit cannot stand")
                self.ropt[p * MAX_OPTIONS + i] = loc
            self.ropt_n[p] = n
        return 0

    cdef object position(self, CMap cm, object game_map):
        """The game as a :class:`~adjudicator.position.Position` (units in province order;
        one tuple object per power and node for every position made here)."""
        cdef _Board b = self.b
        cdef int p, node, i, at
        units = {}
        dislodged = {}
        for p in range(cm.num_provinces):
            if b.upow[p] >= 0:
                node = b.unode[p]
                at = b.upow[p] * cm.num_nodes + node
                unit = self.unit_tuples[at]
                if unit is None:
                    unit = self.unit_tuples[at] = (b.upow[p], cm.node_type[node], cm.node_loc[node])
                units[p] = unit
            if b.dpow[p] >= 0:
                node = b.dnode[p]
                dislodged[p] = (
                    b.dpow[p],
                    cm.node_type[node],
                    cm.node_loc[node],
                    tuple([self.ropt[p * MAX_OPTIONS + i] for i in range(self.ropt_n[p])]),
                )
        pos = _new_position(_Position)
        pos.map = game_map
        pos.season = self.season
        pos.year = self.year
        pos.units = units
        pos.owners = [b.owner[p] for p in range(cm.num_provinces)]
        pos.dislodged = dislodged
        return pos


cdef dict _GAMES = {}  # id(CMap): (the CMap, its _Game)
cdef int _MAPS_KEPT = 64  # the most maps whose _Game is kept (as search.compiled_search's)


cdef CMap _last_cm = None  # the CMap of the game _game kept or gave last, and that game
cdef _Game _last_game = None


cdef _Game _game(CMap cm, object game_map):
    """The kept game arrays of ``cm``'s map, ``game_map`` (fresh ones while those are in use)."""
    global _last_cm, _last_game
    if cm is _last_cm and _last_game.r.facts.game_map is game_map and not _last_game.busy:
        return _last_game  # the rollouts of a search: one map, without the dict's look-up
    found = _GAMES.get(id(cm))
    cdef _Game g
    if (
        found is None
        or found[0] is not cm
        or (<_Game> found[1]).r.facts.game_map is not game_map
        or (<_Game> found[1]).busy
    ):
        g = _Game(cm, game_map)
        if found is None or not (<_Game> found[1]).busy:
            if len(_GAMES) >= _MAPS_KEPT:
                _GAMES.clear()
            _GAMES[id(cm)] = (cm, g)
            _last_cm, _last_game = cm, g
        return g
    _last_cm, _last_game = cm, <_Game> found[1]
    return _last_game


cdef inline bint _ended_by(_Game g, int final_year) noexcept:
    """Position.ended_by: winter of ``final_year`` reached or passed."""
    return g.year > final_year or (g.year == final_year and g.season == WINTER)


cdef int _solo_winner(CMap cm, _Board b, int win_centres) noexcept:
    """adjudicator.phases.solo_winner (without the previous counts)."""
    cdef int counts[MAX_POWERS]
    cdef int q, k, best = 0, ties = 0, winner = -1
    _count_centres(cm, b.owner, counts)
    for q in range(cm.num_powers):
        if counts[q] > best:
            best, ties, winner = counts[q], 1, q
        elif counts[q] == best:
            ties += 1
    if best < win_centres or ties != 1:
        return -1
    return winner


cdef bint _terminal(CMap cm, _Game g, int us, int final_year, int win_centres) noexcept:
    """search.mcts.domain.DiplomacyDomain.terminal."""
    cdef _Board b = g.b
    cdef int p
    if _ended_by(g, final_year):
        return True
    if g.season == SPRING and _solo_winner(cm, b, win_centres) >= 0:
        return True
    for p in range(cm.num_provinces):
        if b.upow[p] == us:
            return False
    for p in range(cm.num_provinces):
        if b.owner[p] == us:
            return False
    return True


cdef bint _adjustments_due(CMap cm, _Board b) noexcept:
    """Whether some power's centres and units (dislodged ones too) differ."""
    cdef int diff[MAX_POWERS]
    cdef int q, k, p
    _count_centres(cm, b.owner, diff)
    for p in range(cm.num_provinces):
        if b.upow[p] >= 0:
            diff[b.upow[p]] -= 1
        if b.dpow[p] >= 0:
            diff[b.dpow[p]] -= 1
    for q in range(cm.num_powers):
        if diff[q]:
            return True
    return False


cdef void _enter_winter(CMap cm, _Game g) noexcept:
    """adjudicator.phases.enter_winter: centre ownership, then winter or the next spring."""
    cdef _Board b = g.b
    cdef int k, sc
    for k in range(cm.num_centres):
        sc = cm.centres[k]
        if b.upow[sc] >= 0:
            b.owner[sc] = b.upow[sc]
    g.season = WINTER
    if not _adjustments_due(cm, b):
        g.season = SPRING
        g.year += 1


cdef int _play_movement(
    CMap cm,
    CWeights w,
    _Game g,
    Draws *d,
    int given,
    object action,
    NodeValues known,
    CPolicy policy=None,
) except -1:
    """search.simulate.play_phase in a movement phase, then next_position (no convoys).

    Every power present but ``given`` plays DumbBot's orders, in power order (or,
    with a ``policy``, that learned policy's orders);
    then ``action`` (``(province, order)`` pairs checked by :func:`_simple_orders`,
    or None) is laid over them, as ``dict.update`` would.  ``known`` (or None)
    keeps the powers' values on this board from one call to the next (of the
    policy's DumbBot, with a policy).
    """
    cdef _Board b = g.b
    cdef _Orders o = g.o
    cdef int np = cm.num_provinces
    cdef int present[MAX_POWERS]  # each power's units
    cdef int start[MAX_POWERS]  # where its units begin in g.by_power
    cdef int p, q, s, at
    cdef bint any_dislodged
    for q in range(cm.num_powers):
        present[q] = 0
    g.num_units = 0
    for p in range(np):
        if b.upow[p] >= 0:
            g.units[g.num_units] = p
            g.num_units += 1
            present[b.upow[p]] += 1
            g.kind[p] = HOLD
    at = 0
    for q in range(cm.num_powers):
        start[q] = at
        at += present[q]
    for s in range(g.num_units):
        p = g.units[s]
        g.by_power[start[b.upow[p]]] = p
        start[b.upow[p]] += 1
    cdef bint valued
    cdef bint learned = policy is not None
    cdef bint pointed = False  # _compute pointed g.v at this board (for another power)
    for q in range(cm.num_powers):  # in power order, as the set of powers present iterates
        if present[q] and q != given:
            valued = known is not None and known.ready[q]
            if valued:
                memcpy(g.v.vals, known.vals + q * cm.num_nodes, cm.num_nodes * sizeof(long long))
                memcpy(g.v.comp, known.comp + q * np, np * sizeof(int))
                g.v.kept = True
            if learned:
                _learned_moves(cm, policy, b, g.season, q, d, g.v, o, valued)
            else:
                _choose_moves(  # start[q]: where the next power's units begin
                    cm, w, b, g.season, q, d, g.v, o, valued,
                    g.by_power + start[q] - present[q], present[q], pointed
                )
                pointed = pointed or not valued
            if known is not None and not valued:
                _keep(g.v, known.vals + q * cm.num_nodes, known.comp + q * np)
                known.ready[q] = 1
            if learned:
                for s in range(policy.count):
                    p = policy.seq[s]
                    g.kind[p] = policy.kind[p]
                    g.a[p] = policy.a[p]
                    g.b_arg[p] = policy.b[p]
            else:
                for s in range(o.count):
                    p = o.seq[s]
                    g.kind[p] = o.kind[p]
                    g.a[p] = o.a[p]
                    g.b_arg[p] = o.b[p]
    if action is not None:
        for key, value in action:
            p = key
            if b.upow[p] >= 0:
                order = <tuple> value
                g.kind[p] = order[0]
                if g.kind[p] != HOLD:
                    g.a[p] = order[1]
                if g.kind[p] == SUPPORT_MOVE:
                    g.b_arg[p] = order[2]
    any_dislodged = resolve_arrays(g.r, g.num_units, g.units, b.upow, g.kind, g.a, g.b_arg)
    _apply_movement(cm, g, any_dislodged)
    return 0


cdef void _retreats_need(CMap cm, _Game g) noexcept:
    """The nodes whose levels a retreat phase's choices read, per level, into the shared
    valuation's ``need``: the cones of the options of every dislodged unit that has more
    than one (the levels elsewhere are left stale, see _compute_levels)."""
    cdef _Shared sh = cm.shared
    cdef _Board b = g.b
    cdef int size = DEPTH * sh.words
    cdef int p, i, k, utype
    cdef unsigned long long *cone
    for k in range(size):
        sh.need[k] = 0
    for p in range(cm.num_provinces):
        if b.dpow[p] >= 0 and g.ropt_n[p] > 1:
            utype = cm.node_type[b.dnode[p]]
            for i in range(g.ropt_n[p]):
                cone = sh.cones + cm.node_of(utype, g.ropt[p * MAX_OPTIONS + i]) * size
                for k in range(size):
                    sh.need[k] |= cone[k]


cdef int _play_retreats(CMap cm, CWeights w, _Game g, Draws *d, int heuristic) except -1:
    """search.simulate.play_phase in a retreat phase: DumbBot.retreat_orders for each power
    in turn (search.heuristics.random_retreats for ``heuristic``, if a power), then
    adjudicator.retreats.adjudicate_retreats (a retreat to a province another unit
    retreats to bounces: both disband)."""
    cdef _Board b = g.b
    cdef CValues v = g.v
    cdef int np = cm.num_provinces
    cdef int choices[MAX_OPTIONS]
    cdef long long scores[MAX_OPTIONS]
    cdef int p, q, n, k, i, j, utype, target, count, s
    cdef bint valued
    cdef int *arrivals = g.kind  # per province: how many units retreat there
    cdef int counts[MAX_POWERS]  # each power's dislodged units
    cdef int start[MAX_POWERS]  # where they begin in g.by_power (in province order)
    cdef int *ours
    cdef int *dislodged = g.units  # scratch here: the provinces of the dislodged units
    cdef int num_dislodged = 0
    cdef bint pointed = False  # _compute pointed v at this board (for another power)
    for q in range(cm.num_powers):
        counts[q] = 0
    for p in range(np):
        if b.dpow[p] >= 0:
            dislodged[num_dislodged] = p
            num_dislodged += 1
            counts[b.dpow[p]] += 1
    count = 0
    for q in range(cm.num_powers):
        start[q] = count
        count += counts[q]
    for s in range(num_dislodged):
        p = dislodged[s]
        g.arrival[p] = -1
        for i in range(g.ropt_n[p]):  # where it may go: no arrival counted there yet
            arrivals[cm.loc_prov[g.ropt[p * MAX_OPTIONS + i]]] = 0
        g.by_power[start[b.dpow[p]]] = p
        start[b.dpow[p]] += 1
    for q in range(cm.num_powers):
        count = counts[q]
        if not count:
            continue
        ours = g.by_power + start[q] - count  # start[q]: where the next power's begin
        _shuffle(ours, count, d)
        memset(g.taken, 0, np)
        if q == heuristic:
            for s in range(count):
                p = ours[s]
                free = [
                    g.ropt[p * MAX_OPTIONS + i]
                    for i in range(g.ropt_n[p])
                    if not g.taken[cm.loc_prov[g.ropt[p * MAX_OPTIONS + i]]]
                ]
                if free:
                    g.arrival[p] = _choice(free, d)
                    target = cm.loc_prov[g.arrival[p]]
                    g.taken[target] = 1
                    arrivals[target] += 1
            continue
        valued = False  # a unit with one retreat or none draws nothing and reads no value
        for s in range(count):
            p = ours[s]
            utype = cm.node_type[b.dnode[p]]
            n = g.ropt_n[p]
            if n > 1 and not valued:
                v.power = q
                if pointed:  # the board is the same until every power has chosen
                    _repoint(cm, v)
                else:
                    _retreats_need(cm, g)
                    cm.shared.use_need = True
                    _compute(cm, w, b, g.season, False, v)
                    cm.shared.use_need = False
                    pointed = True
                valued = True
            for i in range(n):
                choices[i] = g.ropt[p * MAX_OPTIONS + i]
                scores[i] = _value(v, cm.node_of(utype, choices[i])) if n > 1 else 0
            while n:
                k = _select(scores, n, d, w)
                target = cm.loc_prov[choices[k]]
                if g.taken[target]:
                    for j in range(k, n - 1):
                        choices[j] = choices[j + 1]
                        scores[j] = scores[j + 1]
                    n -= 1
                    continue
                g.taken[target] = 1
                g.arrival[p] = choices[k]
                arrivals[target] += 1
                break
    for s in range(num_dislodged):
        p = dislodged[s]
        if g.arrival[p] >= 0:
            target = cm.loc_prov[g.arrival[p]]
            if arrivals[target] == 1:
                b.upow[target] = b.dpow[p]
                b.unode[target] = cm.node_of(cm.node_type[b.dnode[p]], g.arrival[p])
        b.dpow[p] = -1
        b.dnode[p] = -1
    b.any_dislodged = False
    if g.season == SUMMER:
        g.season = FALL
    else:
        _enter_winter(cm, g)
    return 0


cdef inline void _insert_ranked(long long* keys, int* ranked, int n, long long key, int x) noexcept:
    """Insert ``x`` with ``key`` into the first ``n`` entries, kept ascending by (key, x)."""
    cdef int i = n
    while i > 0 and (keys[i - 1] > key or keys[i - 1] == key and ranked[i - 1] > x):
        keys[i] = keys[i - 1]
        ranked[i] = ranked[i - 1]
        i -= 1
    keys[i] = key
    ranked[i] = x


cdef int _best_adjustments(CMap cm, CWeights w, _Game g, int power, int due) except -1:
    """search.heuristics.best_builds (``due`` > 0) or worst_removals (``due`` < 0) for
    ``power`` into ``g.arrival`` (as :func:`_play_adjustments` marks changes)."""
    cdef _Board b = g.b
    cdef CValues v = g.v
    cdef int np = cm.num_provinces
    cdef int ranked[MAX_OPTIONS]
    cdef long long keys[MAX_OPTIONS]
    cdef int p, i, j, n = 0, made = 0, x
    v.power = power
    _compute(cm, w, b, WINTER, due < 0, v)
    for p in range(np):  # insertion sort of the build nodes by (-value, node), or the
        # units by (value, province): both lists come in ascending node or province order
        if due > 0:
            if not (cm.home[power * np + p] and b.owner[p] == power and b.upow[p] < 0):
                continue
            for j in range(g.pn_off[p], g.pn_off[p + 1]):
                if n == MAX_OPTIONS:
                    raise ValueError(f"more than {MAX_OPTIONS} places to build")
                x = g.pn_idx[j]
                _insert_ranked(keys, ranked, n, -_value(v, x), x)
                n += 1
        elif b.upow[p] == power:
            if n == MAX_OPTIONS:
                raise ValueError(f"more than {MAX_OPTIONS} units to remove from")
            _insert_ranked(keys, ranked, n, _value(v, b.unode[p]), p)
            n += 1
    if due > 0:
        for p in range(np):
            g.taken[p] = 0
        for i in range(n):
            if made == due:
                break
            p = cm.node_prov[ranked[i]]
            if not g.taken[p]:
                g.taken[p] = 1
                g.arrival[p] = ranked[i]
                made += 1
    else:
        for i in range(min(n, -due)):
            g.arrival[ranked[i]] = -2
    return 0


cdef int _play_adjustments(
    CMap cm, CWeights w, _Game g, Draws *d, int heuristic, CWeights wh
) except -1:
    """search.simulate.play_phase in winter: DumbBot's builds (search.dumbbot.dumbbot_builds)
    and removals (dumbbot_removals) for each power in turn (search.heuristics.best_builds
    and worst_removals with the weights ``wh`` for ``heuristic``, if a power), all chosen on
    the winter's board, then adjudicator.adjustments.adjudicate_adjustments.

    Both build at most one unit per province, only in their owned, empty home centres, no
    more than are due, and remove exactly as many of their own units as are due: every
    order succeeds, and civil disorder never has a unit to remove.
    """
    cdef _Board b = g.b
    cdef CValues v = g.v
    cdef int np = cm.num_provinces
    cdef int due[MAX_POWERS]
    cdef int options[MAX_OPTIONS]
    cdef long long scores[MAX_OPTIONS]
    cdef int p, q, k, n, i, j, node, made, count
    cdef int *change = g.arrival  # per province: the node built there, or -2 for a removal
    cdef int pointed = -1  # ``removing`` of the last _compute of v on this board (-1: none)
    _count_centres(cm, b.owner, due)
    for p in range(np):
        change[p] = -1
        if b.upow[p] >= 0:
            due[b.upow[p]] -= 1
    for q in range(cm.num_powers):
        if due[q] == 0:
            continue
        if q == heuristic:
            _best_adjustments(cm, wh, g, q, due[q])
            pointed = -1
            continue
        v.power = q
        n = 0
        made = 0
        if due[q] > 0:
            count = due[q]
            for i in range(cm.home_off[q], cm.home_off[q + 1]):  # build_nodes: the nodes of
                p = cm.home_idx[i]  # the owned, empty home centres
                if b.owner[p] == q and b.upow[p] < 0:
                    for j in range(g.pn_off[p], g.pn_off[p + 1]):
                        if n == MAX_OPTIONS:
                            raise ValueError(f"more than {MAX_OPTIONS} places to build")
                        options[n] = g.pn_idx[j]
                        n += 1
            if n > 1:  # one place or none draws nothing and reads no value
                if pointed == 0:  # the board is the same until every power has chosen
                    _repoint(cm, v)
                else:
                    _compute(cm, w, b, WINTER, False, v)
                    pointed = 0
                for j in range(n):
                    scores[j] = _value(v, options[j])
            memset(g.taken, 0, np)
            while n and made < count:
                k = _select(scores, n, d, w)
                node = options[k]
                for j in range(k, n - 1):
                    options[j] = options[j + 1]
                    scores[j] = scores[j + 1]
                n -= 1
                p = cm.node_prov[node]
                if not g.taken[p]:
                    g.taken[p] = 1
                    change[p] = node
                    made += 1
        else:
            count = -due[q]
            for p in range(np):  # units_of: in province order
                if b.upow[p] == q:
                    if n == MAX_OPTIONS:
                        raise ValueError(f"more than {MAX_OPTIONS} units to remove from")
                    options[n] = p
                    n += 1
            if n > 1:
                if pointed == 1:
                    _repoint(cm, v)
                else:
                    _compute(cm, w, b, WINTER, True, v)
                    pointed = 1
                for j in range(n):
                    scores[j] = -_value(v, b.unode[options[j]])
            while n and made < count:
                k = _select(scores, n, d, w)
                change[options[k]] = -2
                for j in range(k, n - 1):
                    options[j] = options[j + 1]
                    scores[j] = scores[j + 1]
                n -= 1
                made += 1
    for p in range(np):
        if change[p] == -2:
            b.upow[p] = -1
            b.unode[p] = -1
        elif change[p] >= 0:
            b.upow[p] = b.owner[p]  # the builder
            b.unode[p] = change[p]
    g.season = SPRING
    g.year += 1
    return 0


def play_out(
    CMap cm,
    CWeights w,
    object pos,
    object rng,
    int us,
    int horizon,
    int final_year,
    int win_centres,
):
    """search.mcts.domain.DiplomacyDomain.play_out when every power's rollout player is the
    DumbBot of ``w``: the position where the rollout ends.

    Phase by phase from ``pos`` until winter of ``horizon`` or the end of the game (winter
    of ``final_year``, a solo in spring, ``us`` without units and centres), as
    search.simulate.play_phase plays each phase, on C arrays, drawing from ``rng`` the same
    numbers in the same order.  The position returned has its units in province order.
    """
    if not 0 <= us < cm.num_powers:
        raise ValueError(f"no power {us} on this map")
    cdef _Game g = _game(cm, pos.map)
    cdef Draws d = _draws(rng)
    g.busy = True
    try:
        g.load(cm, pos)
        _roll_out(cm, w, g, &d, us, horizon, final_year, win_centres)
        return g.position(cm, pos.map)
    finally:
        g.busy = False


cdef int _roll_out(
    CMap cm, CWeights w, _Game g, Draws *d, int us, int horizon, int final_year, int win_centres
) except -1:
    """:func:`play_out`'s phases, on the board loaded into ``g``."""
    while not (_ended_by(g, horizon) or _terminal(cm, g, us, final_year, win_centres)):
        if g.season == SPRING or g.season == FALL:
            _play_movement(cm, w, g, d, -1, None, None)
        elif g.season == SUMMER or g.season == AUTUMN:
            _play_retreats(cm, w, g, d, -1)
        else:
            _play_adjustments(cm, w, g, d, -1, None)
    return 0


def play_out_reward(
    CMap cm,
    CWeights w,
    object pos,
    object rng,
    int us,
    int horizon,
    int final_year,
    int win_centres,
    int player_draws,
    Py_ssize_t players,
):
    """search.mcts.domain.DiplomacyDomain.rollout when every power's rollout player is the
    DumbBot of ``w``: the reward of the position :func:`play_out` ends in.

    First ``player_draws`` times ``rng.randrange(players)`` (the enemies' rollout
    players drawn, though each is this DumbBot), then the rollout, without building
    its last position: our centres over ``win_centres``, capped at 1; 1 for our solo
    and 0 for another's.
    """
    _check_reward_args(cm, us, win_centres, player_draws, players)
    cdef Draws d = _draws(rng)
    _draw_players(&d, player_draws, players)
    cdef _Game g = _game(cm, pos.map)
    g.busy = True
    try:
        g.load(cm, pos)
        return _reward(cm, w, g, &d, us, horizon, final_year, win_centres)
    finally:
        g.busy = False


cdef int _check_reward_args(
    CMap cm, int us, int win_centres, int player_draws, Py_ssize_t players
) except -1:
    """``ValueError`` for settings :func:`play_out_reward` cannot play by."""
    if not 0 <= us < cm.num_powers:
        raise ValueError(f"no power {us} on this map")
    if players < 1 or players >= (<Py_ssize_t> 1 << 31) or player_draws < 0:
        raise ValueError("players to draw from must be between 1 and 2**31, draws at least 0")
    if win_centres < 1:
        raise ValueError("the winning count must be at least 1")
    return 0


cdef int _draw_players(Draws *d, int player_draws, Py_ssize_t players) except -1:
    """The enemies' rollout players drawn (``player_draws`` times ``rng.randrange(players)``)."""
    cdef int i
    for i in range(player_draws):
        if d.mt != NULL:
            _mt_below(d.mt, players)
        else:
            (<object> d.rng).randrange(players)
    return 0


cdef double _reward(
    CMap cm,
    CWeights w,
    _Game g,
    Draws *d,
    int us,
    int horizon,
    int final_year,
    int win_centres,
) except? -1.0:
    """The rollout from the board loaded into ``g`` and its reward (see :func:`play_out_reward`)."""
    cdef int winner
    cdef int counts[MAX_POWERS]
    _roll_out(cm, w, g, d, us, horizon, final_year, win_centres)
    winner = _solo_winner(cm, g.b, win_centres)
    if winner >= 0:
        return 1.0 if winner == us else 0.0
    _count_centres(cm, g.b.owner, counts)
    return min(1.0, <double> counts[us] / <double> win_centres)


cdef class NodeValues:
    """The enemies' DumbBot values on one board, kept between the steps from it.

    A tree node's enemies are asked for orders at every descent, on the same
    board: their values (and competition counts, all DumbBot's orders read)
    are the same each time, so :func:`step` computes each power's once.
    """

    cdef readonly object tables  # the map's tables they are sized for
    cdef long long *vals  # vals[power * nodes + node]
    cdef int *comp  # comp[power * provinces + province]
    cdef unsigned char *ready

    def __cinit__(self, CMap cm):
        cdef int nw = cm.num_powers
        self.tables = cm.tables
        self.vals = <long long *> PyMem_Malloc(nw * cm.num_nodes * sizeof(long long))
        self.comp = <int *> PyMem_Malloc(nw * cm.num_provinces * sizeof(int))
        self.ready = <unsigned char *> PyMem_Malloc(nw)
        if self.vals == NULL or self.comp == NULL or self.ready == NULL:
            raise MemoryError()
        memset(self.ready, 0, nw)

    def __dealloc__(self):
        PyMem_Free(self.vals)
        PyMem_Free(self.comp)
        PyMem_Free(self.ready)


cdef bint _simple_orders(CMap cm, _Board b, object orders) except -1:
    """Whether every order of ``orders`` (``(province, order)`` pairs) for a unit is one the
    compiled phases play: a hold,
    a move to a place the unit can stand, a support of a hold or of a move (no coast named)
    between provinces of the map; no convoy."""
    cdef int p, k, node, loc
    for key, value in orders:
        p = key
        if not 0 <= p < cm.num_provinces:
            return False
        if b.upow[p] < 0:
            continue
        if type(value) is not tuple:
            return False
        order = <tuple> value
        if not order:
            return False
        k = order[0]
        if k == HOLD:
            ok = len(order) == 1
        elif k == MOVE:
            loc = order[1]
            node = b.unode[p]
            ok = len(order) == 2 and 0 <= loc < cm.num_locations and cm.node_of(
                cm.node_type[node], loc
            ) >= 0
        elif k == SUPPORT_HOLD:
            ok = len(order) == 2 and 0 <= order[1] < cm.num_provinces
        elif k == SUPPORT_MOVE:
            ok = len(order) == 3 and 0 <= order[1] < cm.num_provinces and 0 <= order[
                2
            ] < cm.num_provinces
        else:
            ok = False
        if not ok:
            return False
    return True


def step(
    CMap cm,
    CWeights w,
    CWeights wus,
    object pos,
    object action,
    object rng,
    int us,
    int final_year,
    int win_centres,
    NodeValues known=None,
    CPolicy policy=None,
):
    """search.mcts.domain.DiplomacyDomain.step when the enemies' model and their retreat
    and adjustment player are the DumbBot of ``w``, and ours a plain
    search.heuristics.PhaseHeuristics with the weights ``wus``: the next position, or None.

    In the movement phase ``pos``, ``us`` plays ``action`` (``(province, order)``
    pairs, as search.mcts.order_sets.Action) and every other power present
    DumbBot's orders (asked in power order, as the enemy model asks); then the
    retreat and adjustment phases are played until a movement phase or the end
    of the game for ``us`` in ``final_year``.  None, before any draw, when
    ``action`` has an order the compiled phases do not play (a convoy, a support
    naming a coast).  ``known``, if given, is ``pos``'s :class:`NodeValues` for
    the DumbBot of ``w`` (filled as the powers are valued).  With a ``policy``, the
    enemies' movement orders are that learned policy's (search.orderpolicy.LearnedPolicy;
    ``known`` then keeps its DumbBot's values) and ``w`` plays their retreats and adjustments.
    """
    _check_step_args(cm, us, known, policy)
    cdef _Game g = _game(cm, pos.map)
    g.busy = True
    try:
        g.load(cm, pos)
        if not _step_loaded(
            cm, w, wus, g, action, rng, us, final_year, win_centres, known, policy
        ):
            return None
        return g.position(cm, pos.map)
    finally:
        g.busy = False


cdef int _check_step_args(CMap cm, int us, NodeValues known, CPolicy policy) except -1:
    """``ValueError`` for settings :func:`step` cannot play by."""
    if not 0 <= us < cm.num_powers:
        raise ValueError(f"no power {us} on this map")
    _check_policy(cm, policy)
    if known is not None and known.tables is not cm.tables:
        raise ValueError("values kept for another map")
    return 0


cdef bint _step_loaded(
    CMap cm,
    CWeights w,
    CWeights wus,
    _Game g,
    object action,
    object rng,
    int us,
    int final_year,
    int win_centres,
    NodeValues known,
    CPolicy policy,
) except -1:
    """:func:`step` on the board loaded into ``g``: False (before any draw) when it declines."""
    if not (g.season == SPRING or g.season == FALL):
        raise ValueError("step starts from a movement phase")
    action = tuple(action)  # read twice: checked, then played
    if not _simple_orders(cm, g.b, action):
        return False
    cdef Draws d = _draws(rng)
    _play_movement(cm, w, g, &d, us, action, known, policy)
    while not (
        g.season == SPRING
        or g.season == FALL
        or _terminal(cm, g, us, final_year, win_centres)
    ):
        if g.season == SUMMER or g.season == AUTUMN:
            _play_retreats(cm, w, g, &d, us)
        else:
            _play_adjustments(cm, w, g, &d, us, wus)
    return True


cdef class Board:
    """A position kept in C arrays (a search tree node's), with its end-of-game test.

    What :class:`_Game` reads from a :class:`~adjudicator.position.Position`, copied
    out of the game arrays and back in without a Position between (:func:`board`,
    :func:`step_board`, :func:`play_out_reward_board`); :meth:`position` builds the
    Position, :meth:`key` its identity.  ``terminal``: whether the position ends the
    game for the power and final year it was made for (DiplomacyDomain.terminal).
    """

    cdef readonly CMap cm
    cdef readonly object game_map
    cdef readonly int season, year
    cdef readonly bint terminal
    cdef readonly bint any_dislodged
    cdef int *cells  # upow, unode, dpow, dnode, owner (as _Board's), then ropt_n and ropt
    cdef int np

    def __cinit__(self):
        self.cells = NULL

    def __dealloc__(self):
        PyMem_Free(self.cells)

    def position(self):
        """The position as a :class:`~adjudicator.position.Position` (units in province order)."""
        cdef CMap cm = self.cm
        cdef int np = self.np
        cdef int *upow = self.cells
        cdef int *unode = upow + np
        cdef int *dpow = unode + np
        cdef int *dnode = dpow + np
        cdef int *owner = dnode + np
        cdef int *ropt_n = owner + np
        cdef int *ropt = ropt_n + np
        cdef int p, node, i
        units = {}
        dislodged = {}
        for p in range(np):
            if upow[p] >= 0:
                node = unode[p]
                units[p] = (upow[p], cm.node_type[node], cm.node_loc[node])
            if self.any_dislodged and dpow[p] >= 0:
                node = dnode[p]
                dislodged[p] = (
                    dpow[p],
                    cm.node_type[node],
                    cm.node_loc[node],
                    tuple([ropt[p * MAX_OPTIONS + i] for i in range(ropt_n[p])]),
                )
        pos = _new_position(_Position)
        pos.map = self.game_map
        pos.season = self.season
        pos.year = self.year
        pos.units = units
        pos.owners = [owner[p] for p in range(np)]
        pos.dislodged = dislodged
        return pos

    cpdef list units_of(self, int power):
        """The provinces of ``power``'s units, in province order (Position.units_of)."""
        cdef int *upow = self.cells
        return [p for p in range(self.np) if upow[p] == power]

    def key(self):
        """search._fasttree.Core.key of :meth:`position` when no unit is dislodged, else None.

        One bytes string: the season and the year as C ints, then one signed char per
        field, four per province (its unit's power, type and location, -1 each without
        one; its owner).  None too on a map whose locations or powers a field cannot hold.
        """
        cdef CMap cm = self.cm
        if self.any_dislodged or cm.num_locations > KEY_LIMIT + 1 or cm.num_powers > KEY_LIMIT + 1:
            return None
        cdef int np = self.np
        cdef int *upow = self.cells
        cdef int *unode = upow + np
        cdef int *owner = upow + 4 * np
        cdef int head[KEY_HEAD]
        key = PyBytes_FromStringAndSize(NULL, KEY_HEAD * sizeof(int) + KEY_FIELDS * np)
        cdef char *out = PyBytes_AS_STRING(key)
        cdef signed char *fields = <signed char *> (out + KEY_HEAD * sizeof(int))
        cdef int p, node
        head[0] = self.season
        head[1] = self.year
        memcpy(out, head, KEY_HEAD * sizeof(int))
        for p in range(np):
            if upow[p] >= 0:
                node = unode[p]
                fields[KEY_FIELDS * p] = <signed char> upow[p]
                fields[KEY_FIELDS * p + 1] = <signed char> cm.node_type[node]
                fields[KEY_FIELDS * p + 2] = <signed char> cm.node_loc[node]
            else:
                fields[KEY_FIELDS * p] = -1
                fields[KEY_FIELDS * p + 1] = -1
                fields[KEY_FIELDS * p + 2] = -1
            fields[KEY_FIELDS * p + 3] = <signed char> owner[p]
        return key


def weighted_options(Board board, int power, tuple level_weights, int foreign_constant):
    """The thesis's options for ``power``'s units on ``board``, each valued by its region.

    ``(mean, [(province, orders, values), ...])``: per unit, in province order, the orders
    of search.mcts.thesis_rules.possible_orders (without ``two_step``) and the weight of
    the region each ends in (search.mcts.weights.RegionWeights.order_value); ``mean`` the
    regions' mean weight.  ``level_weights`` are the season's proximity weights.  The
    weights are :func:`region_weights`' and the mean adds them left to right, as
    search.compiled_search.plain_sum does.
    """
    cdef CMap cm = board.cm
    if not 0 <= power < cm.num_powers:
        raise ValueError(f"no power {power} on this map")
    cdef int np = cm.num_provinces, nn = cm.num_nodes
    cdef const int *upow = board.cells
    cdef const int *unode = upow + np
    cdef const int *owner = upow + 4 * np
    cdef int prov, node, utype, dest, j, k, i, n_planned = 0
    cdef bint seen
    cdef double total_weight = 0.0
    cdef const double *weight
    # per province whether it is a target (a centre ``power`` neither owns nor occupies),
    # then the moves into targets planned so far: each mover's province, then its target's
    cdef int *scratch = <int *> PyMem_Malloc((np + 2 * np * MAX_OPTIONS) * sizeof(int))
    cdef double *block = <double *> PyMem_Malloc(_WEIGHTS_BLOCK(cm) * sizeof(double))
    if scratch == NULL or block == NULL:
        PyMem_Free(scratch)
        PyMem_Free(block)
        raise MemoryError()
    cdef int *target = scratch
    cdef int *mover = target + np
    cdef int *into = mover + np * MAX_OPTIONS
    cdef list units = []
    cdef list orders, values
    try:
        weight = _region_weights(
            cm, upow, unode, owner, power, level_weights, foreign_constant, block
        )
        for i in range(nn):
            total_weight += weight[i]
        for prov in range(np):
            target[prov] = cm.is_centre[prov] and owner[prov] != power and upow[prov] != power
        for prov in range(np):
            if upow[prov] != power:
                continue
            node = unode[prov]
            utype = cm.node_type[node]
            orders = []
            values = []
            if cm.is_centre[prov] and owner[prov] != power:
                orders.append(_HOLD_ORDER)
                values.append(weight[node])
            else:
                for k in range(n_planned):  # each planned move it can support, once
                    if mover[k] == prov or not cm.reach[node * np + into[k]]:
                        continue
                    seen = False
                    for j in range(k):
                        if mover[j] == mover[k] and into[j] == into[k]:
                            seen = True
                            break
                    if not seen:
                        orders.append((SUPPORT_MOVE, mover[k], into[k]))
                        values.append(weight[node])
                if not orders:  # its moves into targets, planned for the later units
                    for j in range(cm.adj_off[node], cm.adj_off[node + 1]):
                        dest = cm.adj_loc[j]
                        if target[cm.loc_prov[dest]]:
                            orders.append((MOVE, dest))
                            values.append(weight[cm.node_of(utype, dest)])
                            mover[n_planned] = prov
                            into[n_planned] = cm.loc_prov[dest]
                            n_planned += 1
                if not orders:  # no move into a target among them: none planned
                    orders.append(_HOLD_ORDER)
                    values.append(weight[node])
                    for j in range(cm.adj_off[node], cm.adj_off[node + 1]):
                        dest = cm.adj_loc[j]
                        orders.append((MOVE, dest))
                        values.append(weight[cm.node_of(utype, dest)])
            units.append((prov, orders, values))
        return total_weight / nn, units
    finally:
        PyMem_Free(scratch)
        PyMem_Free(block)


cdef Board _save(CMap cm, _Game g, object game_map, bint terminal):
    """The board, phase and retreats loaded into ``g``, as a :class:`Board`."""
    cdef int np = cm.num_provinces
    cdef _Board b = g.b
    cdef int p
    cdef bint any_dislodged = False
    for p in range(np):
        if b.dpow[p] >= 0:
            any_dislodged = True
            break
    cdef Board out = Board.__new__(Board)
    cdef Py_ssize_t size = (7 + MAX_OPTIONS) * np if any_dislodged else 5 * np
    out.cells = <int *> PyMem_Malloc(size * sizeof(int))
    if out.cells == NULL:
        raise MemoryError()
    out.cm = cm
    out.game_map = game_map
    out.np = np
    out.season = g.season
    out.year = g.year
    out.terminal = terminal
    out.any_dislodged = any_dislodged
    memcpy(out.cells, b.upow, 5 * np * sizeof(int))
    for p in range(np):  # as _Board.load leaves them: no node where no unit stands
        if b.upow[p] < 0:
            out.cells[np + p] = -1
        if b.dpow[p] < 0:
            out.cells[3 * np + p] = -1
    if any_dislodged:
        memcpy(out.cells + 5 * np, g.ropt_n, np * sizeof(int))
        memcpy(out.cells + 6 * np, g.ropt, MAX_OPTIONS * np * sizeof(int))
    return out


cdef int _restore(CMap cm, _Game g, Board s) except -1:
    """``s`` loaded into ``g`` (as :meth:`_Game.load` loads its position)."""
    if s.cm is not cm:
        raise ValueError("a board kept for another map")
    cdef int np = cm.num_provinces
    memcpy(g.b.upow, s.cells, 5 * np * sizeof(int))
    g.b.any_dislodged = s.any_dislodged
    if s.any_dislodged:
        memcpy(g.ropt_n, s.cells + 5 * np, np * sizeof(int))
        memcpy(g.ropt, s.cells + 6 * np, MAX_OPTIONS * np * sizeof(int))
    g.season = s.season
    g.year = s.year
    return 0


def board(CMap cm, object pos, int us, int final_year, int win_centres):
    """``pos`` as a :class:`Board` (its ``terminal`` for ``us`` in ``final_year``)."""
    if not 0 <= us < cm.num_powers:
        raise ValueError(f"no power {us} on this map")
    cdef _Game g = _game(cm, pos.map)
    g.busy = True
    try:
        g.load(cm, pos)
        return _save(cm, g, pos.map, _terminal(cm, g, us, final_year, win_centres))
    finally:
        g.busy = False


def step_board(
    CMap cm,
    CWeights w,
    CWeights wus,
    Board start,
    object action,
    object rng,
    int us,
    int final_year,
    int win_centres,
    NodeValues known=None,
    CPolicy policy=None,
):
    """:func:`step` from ``start``: the next position as a :class:`Board`, or None.

    ``known`` and ``policy``: as :func:`step`'s.
    """
    _check_step_args(cm, us, known, policy)
    cdef _Game g = _game(cm, start.game_map)
    g.busy = True
    try:
        _restore(cm, g, start)
        if not _step_loaded(
            cm, w, wus, g, action, rng, us, final_year, win_centres, known, policy
        ):
            return None
        return _save(cm, g, start.game_map, _terminal(cm, g, us, final_year, win_centres))
    finally:
        g.busy = False


def play_out_reward_board(
    CMap cm,
    CWeights w,
    Board start,
    object rng,
    int us,
    int horizon,
    int final_year,
    int win_centres,
    int player_draws,
    Py_ssize_t players,
):
    """:func:`play_out_reward` from ``start``."""
    _check_reward_args(cm, us, win_centres, player_draws, players)
    cdef Draws d = _draws(rng)
    _draw_players(&d, player_draws, players)
    cdef _Game g = _game(cm, start.game_map)
    g.busy = True
    try:
        _restore(cm, g, start)
        return _reward(cm, w, g, &d, us, horizon, final_year, win_centres)
    finally:
        g.busy = False


cdef int _apply_movement(CMap cm, _Game g, bint any_dislodged) except -1:
    """adjudicator.movement.next_position's position, in place on ``g``'s board, from what
    :func:`resolve_arrays` (on ``g.units``, ``g.kind``, ``g.a``, ``g.b_arg``) found."""
    cdef _Board b = g.b
    cdef _Resolver r = g.r
    cdef int np = cm.num_provinces
    cdef int i, p, q, s, node, dest, n_moving = 0
    cdef int *moving
    # the units that moved or were dislodged leave; then the movers arrive
    moving = g.units  # reused: the movers overwrite the units' list from its start
    for i in range(g.num_units):
        p = g.units[i]
        node = b.unode[p]
        if r.moved[p]:
            g.arrival[p] = cm.node_of(cm.node_type[node], g.a[p])
            moving[n_moving] = p
            n_moving += 1
        elif r.dislodger[p] >= 0:
            b.dpow[p] = b.upow[p]
            b.dnode[p] = node
            b.upow[p] = -1
            b.unode[p] = -1
    for i in range(n_moving):
        p = moving[i]
        g.kind[p] = b.upow[p]  # the mover's power, kept while its province is emptied
        b.upow[p] = -1
        b.unode[p] = -1
    for i in range(n_moving):
        p = moving[i]
        dest = cm.loc_prov[g.a[p]]
        b.upow[dest] = g.kind[p]
        b.unode[dest] = g.arrival[p]
    b.any_dislodged = any_dislodged
    if any_dislodged:
        r.mark_contested(g.contested)
        for p in range(np):
            if b.dpow[p] < 0:
                continue
            node = b.dnode[p]
            s = 0
            for i in range(cm.adj_off[node], cm.adj_off[node + 1]):
                dest = cm.adj_loc[i]
                q = cm.loc_prov[dest]
                if b.upow[q] < 0 and not g.contested[q] and q != r.dislodger[p]:
                    g.ropt[p * MAX_OPTIONS + s] = dest
                    s += 1
            g.ropt_n[p] = s
        g.season += 1
    elif g.season == SPRING:
        g.season = FALL
    else:
        _enter_winter(cm, g)
    return 0


cdef enum:
    BOARD_ROWS = 6  # MovementPhases: the rows of a phase's board


cdef class MovementPhases:
    """Movement phases (no convoys) read into C once, to resolve and apply as the compiled
    rollouts and steps do (bot.measure.bench_adjudicator times :meth:`run`).

    Each phase is a ``(position, orders)`` pair: a movement phase without dislodged
    units, and engine orders that :func:`step` would take as an action (holds, moves,
    supports; no convoys, no coasts named); a unit without an order holds.
    """

    cdef CMap cm
    cdef _Game g
    cdef object game_map
    cdef int count
    cdef int *boards  # per phase, np each: the units' powers, their nodes, the owners,
    # then the orders' kinds and their arguments a and b (as _Game's)
    cdef int *dates  # per phase: season, year

    def __cinit__(self, CMap cm, object game_map, list phases):
        cdef int np = cm.num_provinces
        cdef int i, p
        cdef int *row
        self.cm = cm
        self.game_map = game_map
        self.g = _Game(cm, game_map)
        self.count = len(phases)
        self.boards = <int *> PyMem_Malloc((BOARD_ROWS * np * self.count + 1) * sizeof(int))
        self.dates = <int *> PyMem_Malloc((2 * self.count + 1) * sizeof(int))
        if self.boards == NULL or self.dates == NULL:
            raise MemoryError()
        for i, (pos, orders) in enumerate(phases):
            if pos.map is not game_map:
                raise ValueError("a phase on another map")
            if not (pos.season == SPRING or pos.season == FALL) or pos.dislodged:
                raise ValueError("a phase that is not a movement phase")
            self.g.load(cm, pos)
            if not _simple_orders(cm, self.g.b, (<dict> orders).items()):
                raise ValueError("an order the compiled phases do not play (a convoy, a coast)")
            row = self.boards + BOARD_ROWS * np * i
            memcpy(row, self.g.b.upow, np * sizeof(int))
            memcpy(row + np, self.g.b.unode, np * sizeof(int))
            memcpy(row + 2 * np, self.g.b.owner, np * sizeof(int))
            for p in range(np):
                row[3 * np + p] = HOLD
                row[4 * np + p] = 0
                row[5 * np + p] = 0
            for key, value in (<dict> orders).items():
                p = key
                if self.g.b.upow[p] < 0:
                    continue
                order = <tuple> value
                row[3 * np + p] = order[0]
                if order[0] != HOLD:
                    row[4 * np + p] = order[1]
                if order[0] == SUPPORT_MOVE:
                    row[5 * np + p] = order[2]
            self.dates[2 * i] = pos.season
            self.dates[2 * i + 1] = pos.year

    def __dealloc__(self):
        PyMem_Free(self.boards)
        PyMem_Free(self.dates)

    def __len__(self):
        return self.count

    cdef int _play(self, int i) except -1:
        """Phase ``i``'s board and orders into the game, then resolved and applied."""
        cdef CMap cm = self.cm
        cdef _Game g = self.g
        cdef _Board b = g.b
        cdef int np = cm.num_provinces
        cdef int *row = self.boards + BOARD_ROWS * np * i
        cdef int p
        memcpy(b.upow, row, np * sizeof(int))
        memcpy(b.unode, row + np, np * sizeof(int))
        memcpy(b.owner, row + 2 * np, np * sizeof(int))
        memset(b.dpow, -1, np * sizeof(int))
        memset(b.dnode, -1, np * sizeof(int))
        memcpy(g.kind, row + 3 * np, 3 * np * sizeof(int))  # g.kind, g.a, g.b_arg
        g.season = self.dates[2 * i]
        g.year = self.dates[2 * i + 1]
        g.num_units = 0
        for p in range(np):
            if b.upow[p] >= 0:
                g.units[g.num_units] = p
                g.num_units += 1
        _apply_movement(
            cm, g, resolve_arrays(g.r, g.num_units, g.units, b.upow, g.kind, g.a, g.b_arg)
        )
        return 0

    def run(self):
        """Resolve and apply every phase once, each from its board as read."""
        cdef int i
        for i in range(self.count):
            self._play(i)

    def next_position(self, int i):
        """Phase ``i`` resolved and applied, as a position (units in province order)."""
        if not 0 <= i < self.count:
            raise IndexError(f"no phase {i} of {self.count}")
        self._play(i)
        return self.g.position(self.cm, self.game_map)
