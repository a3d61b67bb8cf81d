# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
# cython: cdivision=True
"""The ``dm`` rollout compiled: a game played on in C arrays phase by phase (:class:`_Game`,
one per map), every power played by DumbBot (or the learned policy), and its reward.
See ``search/_rollout.pyx``.
"""

from adjudicator._resolver cimport _Resolver
from search._draws cimport Draws
from search._dumbbot cimport _Orders
from search._maptables cimport WINTER, CMap, CWeights
from search._policy cimport CPolicy
from search._valuation cimport CValues, _Board


cdef class _Game:
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

    cdef int load(self, CMap cm, object pos) except -1
    cdef object position(self, CMap cm, object game_map)


cdef class NodeValues:
    cdef readonly object tables  # the map's tables they are sized for
    cdef long long *vals  # vals[power * nodes + node]
    cdef int *comp  # comp[power * provinces + province]
    cdef unsigned char *ready


cdef _Game _game(CMap cm, object game_map)
cdef bint _terminal(CMap cm, _Game g, int us, int final_year, int win_centres) noexcept
cdef void _enter_winter(CMap cm, _Game g) noexcept
cdef int _play_movement(
    CMap cm,
    CWeights w,
    _Game g,
    Draws *d,
    int given,
    object action,
    NodeValues known,
    CPolicy policy=*,
) except -1
cdef int _play_retreats(CMap cm, CWeights w, _Game g, Draws *d, int heuristic) except -1
cdef int _best_adjustments(CMap cm, CWeights w, _Game g, int power, int due) except -1
cdef int _play_adjustments(
    CMap cm, CWeights w, _Game g, Draws *d, int heuristic, CWeights wh
) except -1
cdef int _roll_out(
    CMap cm, CWeights w, _Game g, Draws *d, int us, int horizon, int final_year, int win_centres
) except -1
cdef int _check_reward_args(
    CMap cm, int us, int win_centres, int player_draws, Py_ssize_t players
) except -1
cdef int _draw_players(Draws *d, int player_draws, Py_ssize_t players) except -1
cdef double _reward(
    CMap cm,
    CWeights w,
    _Game g,
    Draws *d,
    int us,
    int horizon,
    int final_year,
    int win_centres,
) except? -1.0
cdef int _apply_movement(CMap cm, _Game g, bint any_dislodged) except -1


cdef inline bint _ended_by(_Game g, int final_year) noexcept:
    """Position.ended_by: winter of ``final_year`` reached or passed."""
    return g.year > final_year or (g.year == final_year and g.season == WINTER)
