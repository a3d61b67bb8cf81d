/* random.Random's generator as CPython's Modules/_randommodule.c keeps it (the object's
   MT19937 state), and its draws (random(), getrandbits(k) for k <= 32), read and advanced
   in place from C (search/_draws.pyx includes this header; it checks at import that the
   layout and the draws are the running Python's).  Header only: the draws are static
   inline, so that every Cython module that draws inlines them. */
#ifndef SEARCH_DB_MT_H
#define SEARCH_DB_MT_H

#include <Python.h>
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

#endif /* SEARCH_DB_MT_H */
