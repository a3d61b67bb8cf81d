# cython: language_level=3
"""A phase's rules on plain C arrays, each written once: the adjudicator's compiled movement
(adjudicator/_fastmove.pyx), the compiled search's rollouts (search/_rollout.pyx) and its
tree (search/_fasttree.pyx) call them.

Inline functions, compiled into each caller (no module of their own).  Provinces and
locations are the map's indices; ``unit_power[p]`` is the power of the unit in province
``p``, or -1 where there is none; ``owner[p]`` is the power owning the supply centre ``p``,
or -1.  ``centres`` lists the supply centres' provinces.  Each rule names its Python twin,
the oracle the tests hold the compiled paths to.
"""

from adjudicator._movetables cimport LAND_MOVE


cdef inline int retreat_barred(const int *dislodger, const int *route_first, int p) noexcept:
    """The province the unit dislodged from ``p`` may not retreat to: its dislodger's, when
    the dislodger came by land (an army convoyed in leaves it open), else -1
    (adjudicator.movement._Resolver.run's ``by_convoy``).

    ``dislodger[p]`` and ``route_first`` are the resolver's (adjudicator/_resolver.pxd).
    """
    cdef int q = dislodger[p]
    return q if route_first[q] == LAND_MOVE else -1


cdef inline int retreat_options(
    const int *adjacent,
    int count,
    const int *loc_province,
    const int *unit_power,
    const int *contested,
    int barred,
    int *options,
) noexcept:
    """The locations a dislodged unit may retreat to, in adjacency order, into ``options``;
    their number (adjudicator.movement._Resolver.run's ``options``).

    ``adjacent[0:count]``: the locations next to the unit's.  A retreat goes where no unit
    stands after the movement, no move could have come (``contested``, from
    :meth:`adjudicator._resolver._Resolver.mark_contested`) and not to ``barred``
    (:func:`retreat_barred`).
    """
    cdef int i, prov, n = 0
    for i in range(count):
        prov = loc_province[adjacent[i]]
        if unit_power[prov] < 0 and not contested[prov] and prov != barred:
            options[n] = adjacent[i]
            n += 1
    return n


cdef inline bint take_centres(
    const int *centres, int num_centres, const int *unit_power, int *owner
) noexcept:
    """Centre ownership at the end of a fall (adjudicator.phases.enter_winter): each occupied
    centre becomes its unit's power's.  Whether one changed hands."""
    cdef int k, p
    cdef bint changed = False
    for k in range(num_centres):
        p = centres[k]
        if unit_power[p] >= 0 and owner[p] != unit_power[p]:
            owner[p] = unit_power[p]
            changed = True
    return changed


cdef inline bint adjustments_due(
    const int *centres,
    int num_centres,
    const int *owner,
    const int *unit_power,
    int num_provinces,
    int num_powers,
    int *due,
) noexcept:
    """Whether some power's centres and units differ, as a winter is entered (no unit
    dislodged): ``any(Position.adjustments())`` of adjudicator.phases.enter_winter.

    ``due[0:num_powers]`` receives each power's centres less its units (Position.adjustments);
    an owner outside ``0 .. num_powers - 1`` owns nothing here.
    """
    cdef int k, p, q
    for q in range(num_powers):
        due[q] = 0
    for k in range(num_centres):
        q = owner[centres[k]]
        if 0 <= q < num_powers:
            due[q] += 1
    for p in range(num_provinces):
        if unit_power[p] >= 0:
            due[unit_power[p]] -= 1
    for q in range(num_powers):
        if due[q]:
            return True
    return False


cdef inline void bounce_retreats(
    const int *dislodged, int count, const int *loc_province, int *retreat, int *arrivals
) noexcept:
    """The retreats that stand (adjudicator.retreats.adjudicate_retreats): a unit retreats
    only to a province no other unit retreats to; where two or more do, all bounce and are
    disbanded.  The caller moves the units that stand and clears every dislodged unit.

    ``dislodged[0:count]``: the provinces of the dislodged units; ``retreat[p]``: the
    location (among its options) the unit dislodged from ``p`` retreats to, or -1 (a
    disband), set to -1 where it bounces.  ``arrivals``: scratch, a count per province.
    """
    cdef int s, p
    for s in range(count):
        p = dislodged[s]
        if retreat[p] >= 0:
            arrivals[loc_province[retreat[p]]] = 0
    for s in range(count):
        p = dislodged[s]
        if retreat[p] >= 0:
            arrivals[loc_province[retreat[p]]] += 1
    for s in range(count):
        p = dislodged[s]
        if retreat[p] >= 0 and arrivals[loc_province[retreat[p]]] != 1:
            retreat[p] = -1


cdef inline int solo_winner(const int *counts, int num_powers, int win_centres) noexcept:
    """The power that has won outright, or -1 (adjudicator.phases.solo_winner, without the
    previous counts): the one power with the most centres, if it has ``win_centres`` or more.

    ``counts[0:num_powers]``: each power's supply centres.
    """
    cdef int q, winner = 0, ties = 1
    if num_powers < 1:
        return -1
    for q in range(1, num_powers):
        if counts[q] > counts[winner]:
            winner = q
            ties = 1
        elif counts[q] == counts[winner]:
            ties += 1
    return winner if ties == 1 and counts[winner] >= win_centres else -1
