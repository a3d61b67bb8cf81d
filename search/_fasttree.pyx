# cython: language_level=3, boundscheck=True, wraparound=False
"""The MCTS tree's per-iteration bookkeeping compiled, for the compiled ``dm`` path.

search.mcts.uct.Mcts.iterate with search.mcts.domain.DiplomacyDomain as its domain,
when the domain's step and rollout run compiled (search.mcts.compiled_tree says when):
selection (UCT over the edges' statistics), expansion (progressive widening), the
child lookup by position key, the end-of-game test, the rollout with its reward and
the backpropagation run here, calling the compiled step and rollout of search._fastbot
directly (cimported through its ``.pxd``, not through Python objects); so do ``dm``'s candidate order sets (the DumbBots' samples and the
region-weighted combinations; other variants' come from the domain's action
sources).  Each node keeps its position in C (a search._fastbot.Board), which the
steps, the rollouts and the samples start from and the child keys are made from; its
Position is built only when read.  Every draw from the generator is the one the
Python loop makes, in the same order, and every float is computed with the same
operations in the same order, so the tree, its statistics and the generator's state
afterwards are those of the Python loop (its test oracle,
tests/search/mcts/test_compiled_tree.py).
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.long cimport PyLong_AsLongAndOverflow
from cpython.mem cimport PyMem_Free, PyMem_Malloc, PyMem_Realloc
from libc.limits cimport INT_MAX, INT_MIN
from libc.math cimport INFINITY, log, pow, sqrt
from libc.string cimport memcpy

from adjudicator._phaserules cimport solo_winner
from search cimport _fastbot as fastbot
from search._fastbot cimport Board
from search._maptables cimport MAX_POWERS, CMap, CWeights
from search._policy cimport CPolicy
from search._rollout cimport NodeValues

cdef extern from *:
    const char *SOURCE_SHA256  # defined by setup.py

from adjudicator.orders import CONVOY_MOVE, HOLD_ORDER, MOVE, SUPPORT_MOVE
from adjudicator.position import Position as _Position

SOURCE_HASH = SOURCE_SHA256.decode("ascii")
"""The SHA-256 of the source this module was built from (see adjudicator.compiled_rules.load)."""

cdef object _weights_module = None


cdef object _weights():
    """search.mcts.weights, imported on first use (search.mcts imports this module)."""
    global _weights_module
    if _weights_module is None:
        import search.mcts.weights
        _weights_module = search.mcts.weights
    return _weights_module

cdef enum:
    SPRING = 0  # adjudicator.position.SPRING
    SUMMER = 1  # adjudicator.position.SUMMER
    WINTER = 4  # adjudicator.position.WINTER
    KEEP_VALUES_FROM = 4  # search.mcts.domain.KEEP_VALUES_FROM
    KEY_FIELDS = 4  # a province's fields in a key: its unit's power, type, location; its owner
    KEY_HEAD = 2  # the C ints before them: the season, the year
    KEY_LIMIT = 127  # the largest field value a key holds (a signed char)


cdef inline long _field(object value) noexcept:
    """``value`` as a key field: an int from -1 to KEY_LIMIT, else -2."""
    cdef int overflow
    cdef long v
    if type(value) is not int:
        return -2
    v = PyLong_AsLongAndOverflow(value, &overflow)
    return v if overflow == 0 and -1 <= v <= KEY_LIMIT else -2


cdef inline bint _added(set seen, object item) except -1:
    """Whether ``item`` was new to ``seen``, adding it (hashing it once: tuples keep no hash)."""
    cdef Py_ssize_t before = len(seen)
    seen.add(item)
    return len(seen) != before


cdef class Edge:
    """search.mcts.uct.Edge: an action tried at a node, its statistics and its children.

    Most edges keep one child: it is held with its key, and a dict only for the others.
    """

    cdef public object action
    cdef public long visits
    cdef public double total
    cdef object first_key
    cdef object first  # the first child (a Node), or None
    cdef dict more  # the other children by key, or None

    def __init__(self, object action):
        self.action = action
        self.visits = 0
        self.total = 0.0
        self.first = None
        self.more = None

    @property
    def children(self):
        """The children by key, in the order they were made (a new dict)."""
        if self.first is None:
            return {}
        out = {self.first_key: self.first}
        if self.more is not None:
            out.update(self.more)
        return out

    @property
    def mean(self):
        """The average reward through this edge (0 before any visit)."""
        return self.total / self.visits if self.visits else 0.0

    cdef object _child(self, object key):
        """The child of key ``key``, or None."""
        if self.first is None:
            return None
        if self.first_key == key:
            return self.first
        if self.more is None:
            return None
        return self.more.get(key)

    cdef int _add(self, object key, object child) except -1:
        """Keep ``child`` (a Node) under ``key``, which no child has yet."""
        if self.first is None:
            self.first_key = key
            self.first = child
        elif self.more is None:
            self.more = {key: child}
        else:
            self.more[key] = child
        return 0


cdef class Node:
    """search.mcts.uct.Node, knowing whether its state ends the game (``terminal``).

    ``board`` is its state kept in C (a search._fastbot.Board), or None; with one, the
    state (a Position) is built from it when first read.
    """

    cdef object _state
    cdef public long visits
    cdef public list edges
    cdef public object source
    cdef public bint exhausted
    cdef public object data
    cdef readonly bint terminal
    cdef readonly Board board

    def __init__(self, object state, bint terminal, Board board=None):
        if state is None and board is None:
            raise ValueError("a node needs its state or its board")
        self._state = state
        self.visits = 0
        self.edges = []
        self.source = None
        self.exhausted = False
        self.data = None
        self.terminal = terminal
        self.board = board

    @property
    def state(self):
        """The node's position (built from its board when first read)."""
        if self._state is None:
            self._state = self.board.position()
        return self._state


cdef class Core:
    """One tree's settings and the compiled calls its iterations make.

    ``domain`` is the search's search.mcts.domain.DiplomacyDomain (its action
    sources, and its Python step when the compiled one declines an action);
    ``cmap`` the compiled search._fastbot's map tables;
    ``enemy_weights``, ``our_weights`` and ``rollout_weights`` the compiled weights of
    the enemies' DumbBot, of our retreat and adjustment player and of the rollout's
    DumbBot; ``rollout_years`` the rollout's length in years, counting the current one
    (-1 for no limit: to the final year); ``players`` how many rollout players each enemy draws from.

    Our order sets come from the domain's action sources, unless ``sampled_from``
    is given: the compiled players of search.mcts.order_sets.SampledFromPlayers (each
    a DumbBot's search._fastbot.CWeights or a learned policy's CPolicy; with its ``sample_cap``
    and ``patience``) whose actions are taken in turn with those of a
    search.mcts.order_sets.WeightedActions with the cap ``weighted_cap``: ``dm``'s
    MixedActions, compiled (:class:`Sampled`, :class:`Weighted`, :class:`InTurn`).

    ``enemy_policy``, if given, is the compiled learned policy (search._fastbot.CPolicy)
    whose draws are the enemies' movement orders in the tree; ``enemy_weights`` then
    play only their retreats and adjustments.  It is passed to the steps from a node's
    board and from its position.
    """

    cdef object domain
    cdef CMap cmap
    cdef CWeights enemy_weights
    cdef CWeights our_weights
    cdef CWeights rollout_weights
    cdef object game_map
    cdef list centres
    cdef Py_ssize_t num_provinces
    cdef signed char *key_fields  # one key's fields, written before they are copied into bytes
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
    cdef list sampled_from  # the players' CWeights or CPolicy, or None: the domain's sources
    cdef Py_ssize_t sample_cap
    cdef int patience
    cdef Py_ssize_t weighted_cap
    cdef CPolicy enemy_policy  # or None: DumbBot's orders
    cdef long new_iterations  # counts not yet added to the tree's (see _flush)
    cdef long new_rollouts
    cdef long new_nodes

    def __init__(
        self,
        object domain,
        CMap cmap,
        CWeights enemy_weights,
        CWeights our_weights,
        CWeights rollout_weights,
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
        Py_ssize_t weighted_cap=0,
        CPolicy enemy_policy=None,
    ):
        if not 0 <= us < game_map.num_powers:
            raise ValueError(f"no power {us} on this map")
        if game_map.num_powers > MAX_POWERS:
            raise ValueError(f"a map of more than {MAX_POWERS} powers")
        if players < 1 or rollout_years < -1:
            raise ValueError("a rollout needs a player to draw and a length of -1 years or more")
        self.domain = domain
        self.cmap = cmap
        self.enemy_weights = enemy_weights
        self.our_weights = our_weights
        self.rollout_weights = rollout_weights
        self.game_map = game_map
        self.centres = list(game_map.supply_centres)
        self.num_provinces = game_map.num_provinces
        self.key_fields = <signed char *> PyMem_Malloc(KEY_FIELDS * self.num_provinces)
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
        self.weighted_cap = weighted_cap
        self.enemy_policy = enemy_policy

    def __dealloc__(self):
        PyMem_Free(self.key_fields)

    def node(self, object state):
        """A tree node for ``state`` (with its board in C when it fits this tree's map)."""
        board = None
        if state.map is self.game_map:
            try:
                board = fastbot.board(self.cmap, state, self.us, self.final_year, self.win_centres)
            except ValueError:
                board = None
        return Node(state, self.terminal(state), board)

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
        Position.key itself): one bytes string of the season and the year (C ints) and
        the units and centre owners indexed by province (a signed char per field), with
        the dislodged units as Position.key has them, if any, in a tuple after it.
        """
        if state.map is not self.game_map:
            return state.key()
        cdef dict units = state.units
        cdef list owners = state.owners
        cdef dict dislodged = state.dislodged
        cdef signed char *fields = self.key_fields
        cdef Py_ssize_t np = self.num_provinces
        cdef Py_ssize_t i, p
        cdef long power, kind, where, owner, season, year
        cdef int overflow
        cdef int head[KEY_HEAD]
        if len(owners) != np or not isinstance(state.season, int) or not isinstance(state.year, int):
            return state.key()
        season = PyLong_AsLongAndOverflow(state.season, &overflow)
        if overflow or not INT_MIN <= season <= INT_MAX:
            return state.key()
        year = PyLong_AsLongAndOverflow(state.year, &overflow)
        if overflow or not INT_MIN <= year <= INT_MAX:
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
            fields[KEY_FIELDS * p] = <signed char> power
            fields[KEY_FIELDS * p + 1] = <signed char> kind
            fields[KEY_FIELDS * p + 2] = <signed char> where
        for p in range(np):
            owner = _field(owners[p])
            if owner == -2:
                return state.key()
            fields[KEY_FIELDS * p + 3] = <signed char> owner
        key = PyBytes_FromStringAndSize(NULL, KEY_HEAD * sizeof(int) + KEY_FIELDS * np)
        cdef char *out = PyBytes_AS_STRING(key)
        head[0] = <int> season
        head[1] = <int> year
        memcpy(out, head, KEY_HEAD * sizeof(int))
        memcpy(out + KEY_HEAD * sizeof(int), fields, KEY_FIELDS * np)
        if dislodged:
            return (key, tuple(sorted(dislodged.items())))
        return key

    cdef int _solo_winner(self, list owners) except -2:
        """adjudicator.phases.solo_winner without the previous counts: the centres counted
        (an owner past the powers is an IndexError, as in Position.centre_counts), the rule
        adjudicator/_phaserules.pxd's."""
        cdef int num_powers = self.player_draws + 1
        cdef int counts[MAX_POWERS]
        cdef long owner
        cdef int q
        for q in range(num_powers):
            counts[q] = 0
        for sc in self.centres:
            owner = owners[sc]
            if owner >= num_powers:
                raise IndexError(f"the owner {owner} is no power of {num_powers}")
            if owner >= 0:
                counts[owner] += 1
        return solo_winner(counts, num_powers, self.win_centres)

    def iterate(self, object tree, Node root):
        """One iteration of search.mcts.uct.Mcts.iterate on ``root``, counted on ``tree``."""
        self._iterate(root, tree.rng)
        self._flush(tree)

    def run(
        self,
        object tree,
        Node root,
        object target,
        object deadline,
        object next_check,
        double progress_every,
        object clock,
        object should_stop,
        object on_progress,
    ):
        """search.mcts.uct.Mcts.run's loop on ``root``, counted on ``tree`` (whose attributes
        are brought up to date before ``should_stop`` and ``on_progress`` are called)."""
        cdef bint capped = target is not None
        cdef long cap = target - tree.iterations if capped else 0  # iterations still to do
        rng = tree.rng
        try:
            while True:
                if capped and self.new_iterations >= cap:
                    break
                now = clock()
                if deadline is not None and now >= deadline:
                    break
                if now >= next_check:
                    next_check = now + progress_every
                    self._flush(tree)
                    if should_stop is not None and should_stop():
                        break
                    if on_progress is not None:
                        on_progress(tree)
                    rng = tree.rng
                    if capped:
                        cap = target - tree.iterations
                self._iterate(root, rng)
        finally:
            self._flush(tree)

    cdef int _flush(self, object tree) except -1:
        """Add the iterations, rollouts and nodes counted since the last flush to ``tree``'s."""
        if self.new_iterations:
            tree.iterations += self.new_iterations
        if self.new_rollouts:
            tree.rollouts += self.new_rollouts
        if self.new_nodes:
            tree.nodes += self.new_nodes
        self.new_iterations = self.new_rollouts = self.new_nodes = 0
        return 0

    cdef int _iterate(self, Node root, object rng) except -1:
        """One iteration on ``root``, counted in the counts :meth:`_flush` adds."""
        cdef Node node = root
        cdef Node child
        cdef Edge edge
        cdef list path = []
        cdef int expansions = 2 if self.double_expansion else 1
        cdef bint leaf_is_terminal
        cdef double reward
        while not (leaf_is_terminal := node.terminal):
            if self._can_expand(node):
                edge = self._expand(node, rng)
                if edge is not None:
                    child = self._child(node, edge, rng)
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
            node = self._child(node, edge, rng)
        if not leaf_is_terminal:
            self.new_rollouts += 1
        reward = self._rollout(node, rng)
        node.visits += 1
        cdef Py_ssize_t i
        for i in range(0, len(path), 2):
            node = path[i]
            edge = path[i + 1]
            node.visits += 1
            edge.visits += 1
            edge.total += reward
        self.new_iterations += 1
        return 0

    cdef bint _can_expand(self, Node node) except -1:
        if node.exhausted:
            return False
        if not self.widening or not node.edges:
            return True
        return len(node.edges) < self.widen_k * pow(max(1, node.visits), self.widen_alpha)

    cdef Edge _expand(self, Node node, object rng):
        if node.source is None:
            node.source = self._actions(node, rng)
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

    cdef object _actions(self, Node node, object rng):
        """search.mcts.domain.DiplomacyDomain.actions, its sampled part compiled if it can be."""
        if self.sampled_from is None:
            return self.domain.actions(node.state, rng)
        cdef int us = self.us
        cdef list ours
        if node.board is not None:
            ours = node.board.units_of(us)
        else:
            ours = sorted([p for p, unit in node.state.units.items() if unit[0] == us])
        sampled = InTurn(
            [Sampled(self, weights, node, us, ours) for weights in self.sampled_from]
            if ours
            else []
        )
        if node.board is not None:
            weighted = Weighted(node.board, us, self.weighted_cap, True)
        else:
            weighted = Weighted(
                node._state if node._state is not None else node.board, us, self.weighted_cap
            )
        return InTurn([sampled, weighted])

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

    cdef Node _child(self, Node node, Edge edge, object rng):
        cdef Node child
        cdef bint terminal
        if edge.first is not None and not self.resample:
            return edge.first
        state = None
        board = self._compiled_step(node, edge.action, rng) if node.board is not None else None
        if board is not None:
            key = board.key()
            if key is None:  # dislodged units: the key of its position
                state = board.position()
                key = self.key(state)
            terminal = board.terminal
        else:
            state = self._step(node, edge.action, rng)
            key = self.key(state)
            terminal = False  # found below, for a new child only
        found = edge._child(key)
        if found is None:
            if board is None:
                terminal = self.terminal(state)
            child = Node(state, terminal, board)
            edge._add(key, child)
            self.new_nodes += 1
            return child
        return found

    cdef object _known(self, Node node):
        """The node's kept enemy values (search._fastbot.NodeValues) once it is visited enough."""
        known = node.data
        if known is None and node.visits >= KEEP_VALUES_FROM:
            known = node.data = NodeValues(self.cmap)
        return known

    cdef object _compiled_step(self, Node node, object action, object rng):
        """search.mcts.domain.DiplomacyDomain.step, compiled: from the node's board the next
        board, else from its position the next position; None (before any draw) when the
        action declines the compiled step."""
        if node.board is not None:
            return fastbot.step_board(
                self.cmap,
                self.enemy_weights,
                self.our_weights,
                node.board,
                action,
                rng,
                self.us,
                self.final_year,
                self.win_centres,
                self._known(node),
                self.enemy_policy,
            )
        return fastbot.step(
            self.cmap,
            self.enemy_weights,
            self.our_weights,
            node.state,
            action,
            rng,
            self.us,
            self.final_year,
            self.win_centres,
            self._known(node),
            self.enemy_policy,
        )

    cdef object _step(self, Node node, object action, object rng):
        """search.mcts.domain.DiplomacyDomain.step from the node's position: compiled (when
        it has no board) unless the action declines it, else the domain's."""
        if node.board is None:
            nxt = self._compiled_step(node, action, rng)
            if nxt is not None:
                return nxt
        return self.domain.step(node, action, rng)

    cdef double _rollout(self, Node node, object rng) except? -1.0:
        """search.mcts.domain.DiplomacyDomain.rollout, compiled (from the node's board if it
        has one)."""
        cdef int horizon = self.final_year
        cdef long year = node.board.year if node.board is not None else node.state.year
        if self.rollout_years >= 0 and year + self.rollout_years - 1 < horizon:
            horizon = year + self.rollout_years - 1
        if node.board is not None:
            return fastbot.play_out_reward_board(
                self.cmap,
                self.rollout_weights,
                node.board,
                rng,
                self.us,
                horizon,
                self.final_year,
                self.win_centres,
                self.player_draws,
                self.players,
            )
        return fastbot.play_out_reward(
            self.cmap,
            self.rollout_weights,
            node.state,
            rng,
            self.us,
            horizon,
            self.final_year,
            self.win_centres,
            self.player_draws,
            self.players,
        )


cdef class Sampled:
    """search.mcts.order_sets.SampledActions drawing one player's order sets (compiled).

    The player is the DumbBot of the compiled weights ``weights``, or the learned policy
    ``weights`` is when it is a search._fastbot.CPolicy; ``ours`` the provinces of
    ``power``'s units in ``node``'s state, sorted.  Each draw is the player's movement
    orders for them (from the node's board when it has one), holding where it gave none,
    as an Action: what search.mcts.order_sets.SampledFromPlayers draws; ``core``'s
    ``sample_cap`` and ``patience`` apply.
    """

    cdef CMap cmap
    cdef object weights  # CWeights, or CPolicy when learned
    cdef bint learned
    cdef object at  # the node's board, else its position
    cdef int power
    cdef list ours
    cdef Py_ssize_t cap
    cdef int patience
    cdef set seen

    def __init__(self, Core core, object weights, Node node, int power, list ours):
        self.cmap = core.cmap
        self.weights = weights
        self.learned = type(weights) is CPolicy
        if not self.learned and type(weights) is not CWeights:
            raise TypeError("a sampled player is a CWeights or a CPolicy")
        self.at = node.board if node.board is not None else node.state
        self.power = power
        self.ours = ours
        self.cap = core.sample_cap
        self.patience = core.patience
        self.seen = set()

    cpdef object next(self, object rng):
        """A new action, or None once ``cap`` are out or the draws keep repeating."""
        cdef int i
        if len(self.seen) >= self.cap:
            return None
        for i in range(self.patience):
            action = self._draw(rng)
            if _added(self.seen, action):
                return action
        return None

    cdef tuple _draw(self, object rng):
        cdef dict orders
        if type(self.at) is Board:
            if self.learned:
                orders = fastbot.learned_orders_board(
                    self.cmap, <CPolicy> self.weights, <Board> self.at, self.power, rng
                )
            else:
                orders = fastbot.movement_orders_board(
                    self.cmap, <CWeights> self.weights, <Board> self.at, self.power, rng
                )
        elif self.learned:
            orders = fastbot.learned_orders(self.cmap, <CPolicy> self.weights, self.at, self.power, rng)
        else:
            orders = fastbot.movement_orders(
                self.cmap, <CWeights> self.weights, self.at, self.power, rng
            )
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
            if _added(self.seen, action):
                return action
        return None


cdef class Weighted:
    """search.mcts.order_sets.WeightedActions' source for ``power`` in ``at`` (compiled).

    Built when first asked, as the Python source is: each unit's orders of
    search.mcts.thesis_rules.possible_orders valued by search.mcts.weights.RegionWeights,
    pruned below the mean weight (the best kept when that prunes all), then handed out
    best first by summed value, up to ``cap`` (search.mcts.order_sets.BestFirstCombinations:
    its heap entries ``(-sum, option indices, lowest unit)`` popped in the same order,
    since no two entries are equal).  It draws nothing from the generator.  ``at`` is
    the position, or a search._fastbot.Board of it: with ``on_board`` the options and their
    values come from the board in C (search._fastbot.weighted_options), else from its
    position (built with the source).
    """

    cdef object at  # the position, or a search._fastbot.Board of it
    cdef bint on_board  # the options valued from the board, in C
    cdef int power
    cdef Py_ssize_t cap
    cdef bint built
    cdef Py_ssize_t handed
    cdef Py_ssize_t units
    cdef list provs  # our units' provinces, in province order
    cdef list orders  # per unit: its kept orders, best first
    cdef double *values  # values[off[u] + k]: unit u's k-th kept order's value
    cdef Py_ssize_t *off  # per unit, then its end: off[u + 1] - off[u] orders
    cdef double *neg  # the heap: per entry, minus its summed value
    cdef Py_ssize_t *low  # its lowest unit that may move off its option
    cdef Py_ssize_t *idx  # idx[e * units + u]: its option of unit u
    cdef Py_ssize_t *cur  # the entry popped last (units of them)
    cdef Py_ssize_t size
    cdef Py_ssize_t room

    def __cinit__(self):
        self.values = NULL
        self.off = NULL
        self.neg = NULL
        self.low = NULL
        self.idx = NULL
        self.cur = NULL

    def __init__(self, object at, int power, Py_ssize_t cap, bint on_board=False):
        if on_board and type(at) is not Board:
            raise TypeError("options valued on a board need a search._fastbot.Board")
        self.at = at
        self.on_board = on_board
        self.power = power
        self.cap = cap
        self.built = False
        self.handed = 0
        self.units = 0
        self.size = 0
        self.room = 0

    def __dealloc__(self):
        PyMem_Free(self.values)
        PyMem_Free(self.off)
        PyMem_Free(self.neg)
        PyMem_Free(self.low)
        PyMem_Free(self.idx)
        PyMem_Free(self.cur)

    cpdef object next(self, object rng):
        """The best combination not handed out yet, or None."""
        cdef Py_ssize_t u, k, n, at
        cdef double top, step
        if not self.built:
            self._build()
        if self.size == 0 or self.handed >= self.cap:
            return None
        n = self.units
        top = self.neg[0]
        at = self.low[0]
        for u in range(n):
            self.cur[u] = self.idx[u]
        self._pop()
        for u in range(at, n):
            k = self.cur[u]
            if self.off[u] + k + 1 < self.off[u + 1]:
                step = self.values[self.off[u] + k] - self.values[self.off[u] + k + 1]
                self.cur[u] = k + 1
                self._push(top + step, u)
                self.cur[u] = k
        self.handed += 1
        return tuple([(self.provs[u], self.orders[u][self.cur[u]]) for u in range(n)])

    cdef int _build(self) except -1:
        """The units' kept orders, best first, and the heap's first entry."""
        cdef Py_ssize_t u, k, j, n, total_orders = 0
        cdef double v, best, mean, total = 0.0
        cdef list valued = []
        self.built = True
        if self.on_board:
            weights = _weights()
            mean, options_valued = fastbot.weighted_options(
                <Board> self.at,
                self.power,
                weights.SPRING_PROXIMITY_WEIGHTS
                if self.at.season == SPRING or self.at.season == SUMMER
                else weights.FALL_PROXIMITY_WEIGHTS,
                weights.FOREIGN_CENTRE_CONSTANT,
            )
        else:
            mean, options_valued = _options_valued(
                self.at if isinstance(self.at, _Position) else self.at.position(), self.power
            )
        self.provs = []
        self.orders = []
        for prov, options, values in options_valued:
            kept = [k for k in range(len(options)) if values[k] >= mean]
            if not kept:
                best_k = 0
                for k in range(1, len(options)):
                    if values[k] > values[best_k]:
                        best_k = k
                kept = [best_k]
            self.provs.append(prov)
            valued.append((options, values, kept))
            total_orders += len(kept)
        n = self.units = len(self.provs)
        if n == 0:
            return 0
        self.values = <double *> PyMem_Malloc(total_orders * sizeof(double))
        self.off = <Py_ssize_t *> PyMem_Malloc((n + 1) * sizeof(Py_ssize_t))
        self.cur = <Py_ssize_t *> PyMem_Malloc(n * sizeof(Py_ssize_t))
        if self.values == NULL or self.off == NULL or self.cur == NULL:
            raise MemoryError()
        self.off[0] = 0
        for u in range(n):
            options, values, kept = valued[u]
            ranked = []  # kept by decreasing value, ties in their order (a stable sort)
            for k in kept:
                v = values[k]
                j = len(ranked)
                while j > 0 and <double> values[ranked[j - 1]] < v:
                    j -= 1
                ranked.insert(j, k)
            self.orders.append([options[k] for k in ranked])
            for j in range(len(ranked)):
                self.values[self.off[u] + j] = values[ranked[j]]
            self.off[u + 1] = self.off[u] + len(ranked)
            total += self.values[self.off[u]]
            self.cur[u] = 0
        self._push(-total, 0)
        return 0

    cdef inline bint _less(self, Py_ssize_t a, Py_ssize_t b) noexcept:
        """Whether heap entry ``a`` comes before ``b`` (as the Python entries' tuples compare)."""
        cdef Py_ssize_t u, n = self.units
        cdef Py_ssize_t *ia = self.idx + a * n
        cdef Py_ssize_t *ib = self.idx + b * n
        if self.neg[a] != self.neg[b]:
            return self.neg[a] < self.neg[b]
        for u in range(n):
            if ia[u] != ib[u]:
                return ia[u] < ib[u]
        return self.low[a] < self.low[b]

    cdef inline void _swap(self, Py_ssize_t a, Py_ssize_t b) noexcept:
        cdef Py_ssize_t u, n = self.units, t
        cdef double d = self.neg[a]
        self.neg[a] = self.neg[b]
        self.neg[b] = d
        t = self.low[a]
        self.low[a] = self.low[b]
        self.low[b] = t
        for u in range(n):
            t = self.idx[a * n + u]
            self.idx[a * n + u] = self.idx[b * n + u]
            self.idx[b * n + u] = t

    cdef int _push(self, double neg, Py_ssize_t lowest) except -1:
        """Add the entry ``(neg, cur, lowest)``."""
        cdef Py_ssize_t n = self.units, e, parent, u, room
        if self.size == self.room:
            room = 2 * self.room if self.room else HEAP_ROOM
            self.neg = <double *> _grow(self.neg, room * sizeof(double))
            self.low = <Py_ssize_t *> _grow(self.low, room * sizeof(Py_ssize_t))
            self.idx = <Py_ssize_t *> _grow(self.idx, room * n * sizeof(Py_ssize_t))
            self.room = room
        e = self.size
        self.size += 1
        self.neg[e] = neg
        self.low[e] = lowest
        for u in range(n):
            self.idx[e * n + u] = self.cur[u]
        while e > 0:
            parent = (e - 1) // 2
            if not self._less(e, parent):
                break
            self._swap(e, parent)
            e = parent
        return 0

    cdef void _pop(self) noexcept:
        """Drop the first entry."""
        cdef Py_ssize_t e = 0, child, last
        self.size -= 1
        if self.size == 0:
            return
        self._swap(0, self.size)
        while True:
            child = 2 * e + 1
            if child >= self.size:
                return
            if child + 1 < self.size and self._less(child + 1, child):
                child += 1
            if not self._less(child, e):
                return
            self._swap(e, child)
            e = child


cdef enum:
    HEAP_ROOM = 16  # a Weighted heap's first size (entries); it doubles when full


cdef void *_grow(void *block, size_t size) except NULL:
    """``block`` resized to ``size`` bytes (MemoryError when it cannot be)."""
    cdef void *grown = PyMem_Realloc(block, size)
    if grown == NULL:
        raise MemoryError()
    return grown


cdef tuple _options_valued(object pos, int power):
    """search._fastbot.weighted_options from the position (search.mcts.weights.RegionWeights
    and :func:`possible_orders`)."""
    weights = _weights().RegionWeights(pos, power)
    cdef list node_weight = weights.node_weight
    node_of = weights.tables.node_of
    units = pos.units
    cdef list out = []
    for prov, options in possible_orders(pos, power):
        _, utype, loc = units[prov]
        of_type = node_of[utype]
        values = []
        for order in options:
            kind = order[0]
            values.append(node_weight[of_type[order[1] if kind == MOVE or kind == CONVOY_MOVE else loc]])
        out.append((prov, options, values))
    return weights.mean, out


cdef list _targets(object pos, int power):
    """search.mcts.thesis_rules._targets."""
    m = pos.map
    owners = pos.owners
    units = pos.units
    cdef list out = [False] * m.num_provinces
    for sc in m.supply_centres:
        if owners[sc] != power:
            unit = units.get(sc)
            out[sc] = unit is None or unit[0] != power
    return out


cdef list possible_orders(object pos, int power):
    """search.mcts.thesis_rules.possible_orders (without ``two_step``)."""
    m = pos.map
    cdef dict units = pos.units
    loc_province = m.loc_province
    is_supply = m.is_supply
    owners = pos.owners
    cdef list target = _targets(pos, power)
    cdef list planned = []
    cdef list out = []
    cdef list options
    ours = sorted([p for p, u in units.items() if u[0] == power])
    for prov in ours:
        _, utype, loc = units[prov]
        adjacent = m.adjacent(utype, loc)
        if is_supply[prov] and owners[prov] != power:
            options = [HOLD_ORDER]
        else:
            reach = m.reach(utype, loc)
            options = list(
                dict.fromkeys(
                    [(SUPPORT_MOVE, mover, dest)
                     for mover, dest in planned
                     if dest in reach and mover != prov]
                )
            )
            if not options:
                options = [(MOVE, d) for d in adjacent if target[loc_province[d]]]
            if not options:
                options = [HOLD_ORDER] + [(MOVE, d) for d in adjacent]
        for order in options:
            if order[0] == MOVE and target[loc_province[order[1]]]:
                planned.append((prov, loc_province[order[1]]))
        out.append((prov, options))
    return out
