# cython: language_level=3, boundscheck=True, wraparound=False
"""The MCTS tree's per-iteration bookkeeping compiled, for the compiled ``dm`` path.

search.mcts.uct.Mcts.iterate with search.mcts.domain.DiplomacyDomain as its domain,
when the domain's step and rollout run compiled (search.mcts.compiled_tree says when):
selection (UCT over the edges' statistics), expansion (progressive widening), the
child lookup by position key, the end-of-game test, the rollout with its reward and
the backpropagation run here, calling the compiled step and rollout of search._fastbot
directly.  The candidate order sets still come from the domain's Python action
sources.  Every draw from the generator is the one the Python loop makes, in the same
order, and every float is computed with the same operations in the same order, so the
tree, its statistics and the generator's state afterwards are those of the Python
loop (its test oracle, tests/search/mcts/test_compiled_tree.py).
"""

from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.long cimport PyLong_AsLongAndOverflow
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.math cimport INFINITY, log, pow, sqrt

cdef extern from *:
    const char *SOURCE_SHA256  # defined by setup.py

from adjudicator.orders import HOLD_ORDER

SOURCE_HASH = SOURCE_SHA256.decode("ascii")
"""The SHA-256 of the source this module was built from (see adjudicator.compiled_rules.load)."""

cdef enum:
    SPRING = 0  # adjudicator.position.SPRING
    WINTER = 4  # adjudicator.position.WINTER
    KEEP_VALUES_FROM = 4  # search.mcts.domain.KEEP_VALUES_FROM
    KEY_FIELDS = 4  # a province's fields in a key: its unit's power, type, location; its owner
    KEY_LIMIT = 32767  # the largest field value a key holds (a C short)


cdef inline long _field(object value) noexcept:
    """``value`` as a key field: an int from -1 to KEY_LIMIT, else -2."""
    cdef int overflow
    cdef long v
    if type(value) is not int:
        return -2
    v = PyLong_AsLongAndOverflow(value, &overflow)
    return v if overflow == 0 and -1 <= v <= KEY_LIMIT else -2


cdef class Edge:
    """search.mcts.uct.Edge: an action tried at a node, its statistics and its children."""

    cdef public object action
    cdef public long visits
    cdef public double total
    cdef public dict children

    def __init__(self, object action):
        self.action = action
        self.visits = 0
        self.total = 0.0
        self.children = {}

    @property
    def mean(self):
        """The average reward through this edge (0 before any visit)."""
        return self.total / self.visits if self.visits else 0.0


cdef class Node:
    """search.mcts.uct.Node, knowing whether its state ends the game (``terminal``)."""

    cdef public object state
    cdef public long visits
    cdef public list edges
    cdef public object source
    cdef public bint exhausted
    cdef public object data
    cdef readonly bint terminal

    def __init__(self, object state, bint terminal):
        self.state = state
        self.visits = 0
        self.edges = []
        self.source = None
        self.exhausted = False
        self.data = None
        self.terminal = terminal


cdef class Core:
    """One tree's settings and the compiled calls its iterations make.

    ``domain`` is the search's search.mcts.domain.DiplomacyDomain (its action
    sources, and its Python step when the compiled one declines an action);
    ``fastbot`` the compiled search._fastbot module; ``cmap`` its map tables;
    ``enemy_weights``, ``our_weights`` and ``rollout_weights`` the compiled weights of
    the enemies' DumbBot, of our retreat and adjustment player and of the rollout's
    DumbBot; ``rollout_years`` the rollout's length in years, counting the current one
    (-1 for no limit: to the final year); ``players`` how many rollout players each enemy draws from.

    Our order sets come from the domain's action sources, unless ``sampled_from``
    is given: the compiled movement orders (``movement_orders(pos, power, rng)``) of
    the DumbBots of search.mcts.order_sets.SampledFromPlayers (with its ``sample_cap``
    and ``patience``) whose actions are taken in turn with those of the ``weighted``
    generator (search.mcts.order_sets.WeightedActions): ``dm``'s MixedActions, its
    sampled part compiled (:class:`Sampled`, :class:`InTurn`).

    ``enemy_policy``, if given, is the compiled learned policy (search._fastbot.CPolicy)
    whose draws are the enemies' movement orders in the tree; ``enemy_weights`` then
    play only their retreats and adjustments.  ``rollout_policy``, likewise, plays the
    enemies' movement orders in the rollouts (``rollout_weights``: its DumbBot's).
    """

    cdef object domain
    cdef object fastbot_step
    cdef object fastbot_play_out
    cdef object node_values
    cdef object cmap
    cdef object enemy_weights
    cdef object our_weights
    cdef object rollout_weights
    cdef object game_map
    cdef list centres
    cdef Py_ssize_t num_provinces
    cdef short *key_fields  # one key's fields, written before they are copied into bytes
    cdef int us
    cdef int final_year
    cdef int win_centres
    cdef int rollout_years
    cdef int player_draws
    cdef Py_ssize_t players
    cdef double scale
    cdef bint resample
    cdef bint double_expansion
    cdef bint widening
    cdef double widen_k
    cdef double widen_alpha
    cdef list sampled_from  # DumbBots' compiled movement orders, or None: the domain's sources
    cdef Py_ssize_t sample_cap
    cdef int patience
    cdef object weighted
    cdef object enemy_policy  # a search._fastbot.CPolicy, or None: DumbBot's orders
    cdef object rollout_policy  # likewise, for the enemies in the rollouts

    def __init__(
        self,
        object domain,
        object fastbot,
        object cmap,
        object enemy_weights,
        object our_weights,
        object rollout_weights,
        object game_map,
        int us,
        int final_year,
        int rollout_years,
        Py_ssize_t players,
        double cp,
        bint resample,
        bint double_expansion,
        object widening,
        list sampled_from=None,
        Py_ssize_t sample_cap=0,
        int patience=0,
        object weighted=None,
        object enemy_policy=None,
        object rollout_policy=None,
    ):
        if not 0 <= us < game_map.num_powers:
            raise ValueError(f"no power {us} on this map")
        if players < 1 or rollout_years < -1:
            raise ValueError("a rollout needs a player to draw and a length of -1 years or more")
        self.domain = domain
        self.fastbot_step = fastbot.step
        self.fastbot_play_out = fastbot.play_out_reward
        self.node_values = fastbot.NodeValues
        self.cmap = cmap
        self.enemy_weights = enemy_weights
        self.our_weights = our_weights
        self.rollout_weights = rollout_weights
        self.game_map = game_map
        self.centres = list(game_map.supply_centres)
        self.num_provinces = game_map.num_provinces
        self.key_fields = <short *> PyMem_Malloc(
            KEY_FIELDS * self.num_provinces * sizeof(short)
        )
        if self.key_fields == NULL:
            raise MemoryError()
        self.us = us
        self.final_year = final_year
        self.win_centres = game_map.win_centres
        self.rollout_years = rollout_years
        self.player_draws = game_map.num_powers - 1
        self.players = players
        self.scale = 2 * cp
        self.resample = resample
        self.double_expansion = double_expansion
        self.widening = widening is not None
        if widening is not None:
            self.widen_k, self.widen_alpha = widening
        self.sampled_from = sampled_from
        self.sample_cap = sample_cap
        self.patience = patience
        self.weighted = weighted
        self.enemy_policy = enemy_policy
        self.rollout_policy = rollout_policy

    def __dealloc__(self):
        PyMem_Free(self.key_fields)

    def node(self, object state):
        """A tree node for ``state``."""
        return Node(state, self.terminal(state))

    cpdef bint terminal(self, object state) except -1:
        """search.mcts.domain.DiplomacyDomain.terminal (on this tree's map)."""
        if state.map is not self.game_map:
            return self.domain.terminal(state)
        cdef long year = state.year
        cdef long season = state.season
        cdef list owners = state.owners
        cdef dict units = state.units
        cdef tuple unit
        if year > self.final_year or (year == self.final_year and season == WINTER):
            return True
        if season == SPRING and self._solo_winner(owners) >= 0:
            return True
        for unit in units.values():
            if unit[0] == self.us:
                return False
        for owner in owners:
            if owner == self.us:
                return False
        return True

    cpdef object key(self, object state):
        """An exact identity of ``state``, as adjudicator.position.Position.key is.

        Equal for equal positions, different for different ones (on this tree's map;
        elsewhere, or with a field that is no int between -1 and KEY_LIMIT, it is
        Position.key itself): the season, the year, the units and centre owners as one
        bytes string indexed by province, and the dislodged units as Position.key has them.
        """
        if state.map is not self.game_map:
            return state.key()
        cdef dict units = state.units
        cdef list owners = state.owners
        cdef dict dislodged = state.dislodged
        cdef short *fields = self.key_fields
        cdef Py_ssize_t np = self.num_provinces
        cdef Py_ssize_t i, p
        cdef long power, kind, where, owner
        if len(owners) != np:
            return state.key()
        for i in range(KEY_FIELDS * np):
            fields[i] = -1
        for prov, unit in units.items():
            if type(unit) is not tuple or len(unit) != 3:
                return state.key()
            p = _field(prov)
            power = _field(unit[0])
            kind = _field(unit[1])
            where = _field(unit[2])
            if p < 0 or p >= np or power < 0 or kind < 0 or where < 0:
                return state.key()
            fields[KEY_FIELDS * p] = <short> power
            fields[KEY_FIELDS * p + 1] = <short> kind
            fields[KEY_FIELDS * p + 2] = <short> where
        for p in range(np):
            owner = _field(owners[p])
            if owner == -2:
                return state.key()
            fields[KEY_FIELDS * p + 3] = <short> owner
        board = PyBytes_FromStringAndSize(<char *> fields, KEY_FIELDS * np * sizeof(short))
        if dislodged:
            return (state.season, state.year, board, tuple(sorted(dislodged.items())))
        return (state.season, state.year, board)

    cdef int _solo_winner(self, list owners) except -2:
        """adjudicator.phases.solo_winner without the previous counts."""
        cdef int num_powers = self.player_draws + 1
        cdef list counts = [0] * num_powers
        cdef long owner, best = 0, count, ties = 0, winner = -1
        cdef Py_ssize_t q
        for sc in self.centres:
            owner = owners[sc]
            if owner >= 0:
                counts[owner] += 1
        for q in range(num_powers):
            count = counts[q]
            if q == 0 or count > best:
                best, ties, winner = count, 1, q
            elif count == best:
                ties += 1
        if best < self.win_centres or ties != 1:
            return -1
        return winner

    def iterate(self, object tree, Node root):
        """One iteration of search.mcts.uct.Mcts.iterate on ``root``, counted on ``tree``."""
        cdef Node node = root
        cdef Node child
        cdef Edge edge
        cdef list path = []
        cdef int expansions = 2 if self.double_expansion else 1
        cdef bint leaf_is_terminal
        cdef double reward
        rng = tree.rng
        while not (leaf_is_terminal := node.terminal):
            if self._can_expand(node):
                edge = self._expand(node, rng)
                if edge is not None:
                    child = self._child(tree, node, edge, rng)
                    path.append(node)
                    path.append(edge)
                    node = child
                    expansions -= 1
                    if expansions == 0:
                        leaf_is_terminal = node.terminal
                        break
                    continue
            if not node.edges:
                break  # no action at all: roll out from here
            edge = self._select(node)
            path.append(node)
            path.append(edge)
            node = self._child(tree, node, edge, rng)
        if not leaf_is_terminal:
            tree.rollouts += 1
        reward = self._rollout(node.state, rng)
        node.visits += 1
        cdef Py_ssize_t i
        for i in range(0, len(path), 2):
            node = path[i]
            edge = path[i + 1]
            node.visits += 1
            edge.visits += 1
            edge.total += reward
        tree.iterations += 1

    cdef bint _can_expand(self, Node node) except -1:
        if node.exhausted:
            return False
        if not self.widening or not node.edges:
            return True
        return len(node.edges) < self.widen_k * pow(max(1, node.visits), self.widen_alpha)

    cdef Edge _expand(self, Node node, object rng):
        if node.source is None:
            node.source = self._actions(node.state, rng)
        source = node.source
        if type(source) is InTurn:
            action = (<InTurn> source).next(rng)
        else:
            action = source.next(rng)
        if action is None:
            node.exhausted = True
            return None
        cdef Edge edge = Edge(action)
        node.edges.append(edge)
        return edge

    cdef object _actions(self, object state, object rng):
        """search.mcts.domain.DiplomacyDomain.actions, its sampled part compiled if it can be."""
        if self.sampled_from is None:
            return self.domain.actions(state, rng)
        cdef int us = self.us
        cdef list ours = sorted([p for p, unit in state.units.items() if unit[0] == us])
        sampled = InTurn(
            [Sampled(orders, state, us, ours, self.sample_cap, self.patience)
             for orders in self.sampled_from]
            if ours
            else []
        )
        return InTurn([sampled, self.weighted.source(state, us, rng)])

    cdef Edge _select(self, Node node):
        cdef long n = max(1, node.visits)
        cdef double log_n = log(n)
        cdef double score, best_score = -INFINITY
        cdef Edge edge
        cdef Edge best = node.edges[0]
        cdef long v
        for edge in node.edges:
            v = edge.visits
            if v == 0:
                return edge
            score = edge.total / v + self.scale * sqrt(2 * log_n / v)
            if score > best_score:
                best, best_score = edge, score
        return best

    cdef Node _child(self, object tree, Node node, Edge edge, object rng):
        cdef Node child
        if edge.children and not self.resample:
            return next(iter(edge.children.values()))
        state = self._step(node, edge.action, rng)
        key = self.key(state)
        found = edge.children.get(key)
        if found is None:
            child = Node(state, self.terminal(state))
            edge.children[key] = child
            tree.nodes += 1
            return child
        return found

    cdef object _step(self, Node node, object action, object rng):
        """search.mcts.domain.DiplomacyDomain.step, compiled unless the action declines it."""
        pos = node.state
        known = node.data
        if known is None and node.visits >= KEEP_VALUES_FROM:
            known = node.data = self.node_values(self.cmap)
        nxt = self.fastbot_step(
            self.cmap,
            self.enemy_weights,
            self.our_weights,
            pos,
            action,
            rng,
            self.us,
            self.final_year,
            self.win_centres,
            known,
            self.enemy_policy,
        )
        if nxt is None:
            return self.domain.step(node, action, rng)
        return nxt

    cdef double _rollout(self, object state, object rng) except? -1.0:
        """search.mcts.domain.DiplomacyDomain.rollout, compiled."""
        cdef int horizon = self.final_year
        cdef long year = state.year
        if self.rollout_years >= 0 and year + self.rollout_years - 1 < horizon:
            horizon = year + self.rollout_years - 1
        return self.fastbot_play_out(
            self.cmap,
            self.rollout_weights,
            state,
            rng,
            self.us,
            horizon,
            self.final_year,
            self.win_centres,
            self.player_draws,
            self.players,
            self.rollout_policy,
        )


cdef class Sampled:
    """search.mcts.order_sets.SampledActions drawing one DumbBot's order sets (compiled).

    ``movement_orders(pos, power, rng)`` is the DumbBot's compiled movement orders;
    ``ours`` the provinces of ``power``'s units in ``pos``, sorted.  Each draw is the
    DumbBot's orders for them, holding where it gave none, as an Action: what
    search.mcts.order_sets.SampledFromPlayers draws.
    """

    cdef object movement_orders
    cdef object pos
    cdef int power
    cdef list ours
    cdef Py_ssize_t cap
    cdef int patience
    cdef set seen

    def __init__(
        self,
        object movement_orders,
        object pos,
        int power,
        list ours,
        Py_ssize_t cap,
        int patience,
    ):
        self.movement_orders = movement_orders
        self.pos = pos
        self.power = power
        self.ours = ours
        self.cap = cap
        self.patience = patience
        self.seen = set()

    cpdef object next(self, object rng):
        """A new action, or None once ``cap`` are out or the draws keep repeating."""
        cdef int i
        if len(self.seen) >= self.cap:
            return None
        for i in range(self.patience):
            action = self._draw(rng)
            if action not in self.seen:
                self.seen.add(action)
                return action
        return None

    cdef tuple _draw(self, object rng):
        cdef dict orders = self.movement_orders(self.pos, self.power, rng)
        return tuple([(p, orders.get(p, HOLD_ORDER)) for p in self.ours])


cdef class InTurn:
    """search.mcts.order_sets.InTurn: sources taken in turn, repeats dropped (compiled)."""

    cdef list sources
    cdef Py_ssize_t turn
    cdef set seen

    def __init__(self, list sources):
        self.sources = list(sources)
        self.turn = 0
        self.seen = set()

    cpdef object next(self, object rng):
        """The next new action of the next source that still has one."""
        while self.sources:
            source = self.sources[self.turn % len(self.sources)]
            if type(source) is Sampled:
                action = (<Sampled> source).next(rng)
            elif type(source) is InTurn:
                action = (<InTurn> source).next(rng)
            else:
                action = source.next(rng)
            if action is None:
                self.sources.remove(source)
                continue
            self.turn += 1
            if action not in self.seen:
                self.seen.add(action)
                return action
        return None
