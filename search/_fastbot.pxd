# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
# cython: cdivision=True
"""The compiled DumbBot's calls a search tree's iteration makes (see ``search/_fastbot.pyx``).

A tree node's position kept in C (:class:`Board`), and the movement orders, the tree's
step and the rollout's reward from a position or from a board: cimported by
``search._fasttree``, whose iterations call them in C rather than through Python objects.
"""

from search._maptables cimport CMap, CWeights
from search._policy cimport CPolicy
from search._rollout cimport NodeValues


cdef class Board:
    cdef readonly CMap cm
    cdef readonly object game_map
    cdef readonly int season, year
    cdef readonly bint terminal
    cdef readonly bint any_dislodged
    cdef int *cells  # upow, unode, dpow, dnode, owner (as _Board's), then ropt_n and ropt
    cdef int np

    cpdef list units_of(self, int power)


cpdef dict movement_orders(CMap cm, CWeights w, object pos, int power, object rng)
cpdef dict movement_orders_board(CMap cm, CWeights w, Board start, int power, object rng)
cpdef dict learned_orders(CMap cm, CPolicy pol, object pos, int power, object rng)
cpdef dict learned_orders_board(CMap cm, CPolicy pol, Board start, int power, object rng)
cpdef double play_out_reward(
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
) except? -1.0
cpdef double play_out_reward_board(
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
) except? -1.0
cpdef object step(
    CMap cm,
    CWeights w,
    CWeights wus,
    object pos,
    object action,
    object rng,
    int us,
    int final_year,
    int win_centres,
    NodeValues known=*,
    CPolicy policy=*,
)
cpdef object step_board(
    CMap cm,
    CWeights w,
    CWeights wus,
    Board start,
    object action,
    object rng,
    int us,
    int final_year,
    int win_centres,
    NodeValues known=*,
    CPolicy policy=*,
)
cpdef tuple weighted_options(Board board, int power, tuple level_weights, int foreign_constant)
cpdef Board board(CMap cm, object pos, int us, int final_year, int win_centres)
