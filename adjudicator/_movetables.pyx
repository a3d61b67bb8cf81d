# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""The compiled movement resolver's tables: one map's facts as C arrays, read once per map.

Its constants (adjudicator/_movetables.pxd) are checked here against the Python ones
(adjudicator.orders, adjudicator.maps) they stand for.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.string cimport memset

from adjudicator.orders import HOLD as _PY_HOLD
from adjudicator.orders import MOVE as _PY_MOVE
from adjudicator.orders import SUPPORT_HOLD as _PY_SUPPORT_HOLD
from adjudicator.orders import SUPPORT_MOVE as _PY_SUPPORT_MOVE
from adjudicator.orders import CONVOY as _PY_CONVOY
from adjudicator.orders import CONVOY_MOVE as _PY_CONVOY_MOVE
from adjudicator.orders import BNC as _PY_BNC
from adjudicator.orders import CUT as _PY_CUT
from adjudicator.orders import DSR as _PY_DSR
from adjudicator.orders import NSO as _PY_NSO
from adjudicator.orders import SUC as _PY_SUC
from adjudicator.maps import ARMY as _PY_ARMY
from adjudicator.maps import INLAND as _PY_INLAND
from adjudicator.maps import SEA as _PY_SEA

cdef extern from *:
    const char *SOURCE_SHA256  # defined by setup.py

SOURCE_HASH = SOURCE_SHA256.decode("ascii")
"""The SHA-256 of the source this module was built from (see adjudicator.compiled_rules.load)."""

assert (
    _PY_HOLD, _PY_MOVE, _PY_SUPPORT_HOLD, _PY_SUPPORT_MOVE, _PY_CONVOY, _PY_CONVOY_MOVE
) == (HOLD, MOVE, SUPPORT_HOLD, SUPPORT_MOVE, CONVOY, CONVOY_MOVE)
assert (_PY_SUC, _PY_BNC, _PY_CUT, _PY_DSR, _PY_NSO) == (R_SUC, R_BNC, R_CUT, R_DSR, R_NSO)
assert (_PY_ARMY, _PY_INLAND, _PY_SEA) == (ARMY, INLAND, SEA)


cdef class _MapFacts:
    """What resolving and applying a phase need of one map, as C arrays (built once per map)."""

    def __cinit__(self, game_map):
        cdef int n = game_map.num_provinces
        cdef int num_locations = len(game_map.loc_province)
        cdef int i, j
        if len(game_map.neighbours) != n:
            raise ValueError(f"{len(game_map.neighbours)} neighbour lists for {n} provinces")
        self.game_map = game_map
        self.n = n
        self.num_locations = num_locations
        self.num_powers = game_map.num_powers
        self.loc_province = <int *> PyMem_Malloc(num_locations * sizeof(int))
        self.kind = <int *> PyMem_Malloc(n * sizeof(int))
        self.is_supply = <char *> PyMem_Malloc(n)
        self.is_neighbour = <char *> PyMem_Malloc(n * n)
        self.centres = <int *> PyMem_Malloc((n + 1) * sizeof(int))
        if (
            self.loc_province == NULL or self.kind == NULL or self.is_supply == NULL
            or self.is_neighbour == NULL or self.centres == NULL
        ):
            raise MemoryError()
        for i in range(num_locations):
            self.loc_province[i] = game_map.loc_province[i]
            if not 0 <= self.loc_province[i] < n:
                raise ValueError(f"location {i} is in province {self.loc_province[i]}")
        for i in range(n):
            self.kind[i] = game_map.kind[i]
            self.is_supply[i] = 1 if game_map.is_supply[i] else 0
        memset(self.is_neighbour, 0, n * n)
        self.nb_off = _lists(game_map.neighbours, n, &self.nb_idx)
        for i in range(n):
            for j in range(self.nb_off[i], self.nb_off[i + 1]):
                self.is_neighbour[i * n + self.nb_idx[j]] = 1
        self.num_army_adj = len(game_map.army_adjacent)
        self.num_fleet_adj = len(game_map.fleet_adjacent)
        self.army_off = _lists(game_map.army_adjacent, num_locations, &self.army_idx)
        self.fleet_off = _lists(game_map.fleet_adjacent, num_locations, &self.fleet_idx)
        self.num_centres = 0
        for i in game_map.supply_centres:
            if not 0 <= i < n:
                raise ValueError(f"a supply centre {i} the map lacks")
            self.centres[self.num_centres] = i
            self.num_centres += 1

    def __dealloc__(self):
        PyMem_Free(self.loc_province)
        PyMem_Free(self.kind)
        PyMem_Free(self.is_supply)
        PyMem_Free(self.is_neighbour)
        PyMem_Free(self.nb_off)
        PyMem_Free(self.army_off)
        PyMem_Free(self.fleet_off)
        PyMem_Free(self.centres)


cdef int *_lists(object lists, int limit, int **items) except NULL:
    """A tuple of tuples of ids below ``limit`` as C arrays: the offsets, returned, and the
    items (``*items``), in one block that belongs to the offsets."""
    cdef int count = len(lists)
    cdef int total = 0
    cdef int i, item
    for row in lists:
        total += len(row)
    cdef int *off = <int *> PyMem_Malloc((count + 1 + total) * sizeof(int))
    if off == NULL:
        raise MemoryError()
    cdef int *idx = off + count + 1
    total = 0
    for i in range(count):
        off[i] = total
        for value in lists[i]:
            item = value
            if not 0 <= item < limit:
                PyMem_Free(off)
                raise ValueError(f"an adjacency to {item}, which the map lacks")
            idx[total] = item
            total += 1
    off[count] = total
    items[0] = idx
    return off
