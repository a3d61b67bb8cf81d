"""Diplomacy as an MCTS domain: tree nodes at movement phases, one game round per step.

A state is a :class:`~adjudicator.position.Position` at a movement phase (or
at the end of the game).  Taking an action (our order set) joins it to the
enemies' orders from the variant's enemy model, adjudicates the movement,
then lets the variant's phase players retreat and adjust until the next
movement phase: "simulate one round of the game" (thesis §3).

The game ends in winter of the final year (BANDANA's ``-fy``: centre
ownership is updated then), at a solo, or when we have nothing left.  A
rollout plays on with the variant's rollout players until that end or, with
``rollout_years``, until winter of the last year it may look at.  The reward
is our centre count at the end divided by the map's winning count (18),
capped at 1: 1 for our solo, 0 if another power soloed or we were eliminated
(a rollout that stops before the end of the game is valued the same way).
When one DumbBot plays every power (``dm``'s rollouts) and the compiled code
runs, the whole rollout is played in C (:func:`search.compiled_search.play_out`, and
its reward too, :func:`search.compiled_search.rollout_kernel`);
when one DumbBot plays every enemy in the tree (or a learned order policy draws
their movement orders, ``model=NAME:enemies``, and one DumbBot plays their retreats
and adjustments) and the live bot's phase player ours (``dm``), so is the step
(:func:`search.compiled_search.step`).
This module's loops are their oracle and play every other variant.
"""

from __future__ import annotations

from collections.abc import Hashable
from random import Random

from adjudicator.movement import next_position
from adjudicator.phases import solo_winner
from adjudicator.position import FALL, SPRING, Position
from search.compiled_search import node_values, rollout_kernel
from search.compiled_search import play_out as compiled_play_out
from search.compiled_search import step as compiled_step
from search.dumbbot import DumbBot
from search.heuristics import PhaseHeuristics
from search.mcts.config import SearchSettings
from search.mcts.order_sets import Action, Sources
from search.mcts.players import BotPhases
from search.mcts.uct import Node
from search.orderpolicy import LearnedPolicy
from search.policy import Policy
from search.simulate import play_phase
from search.tables import DumbBotWeights

KEEP_VALUES_FROM = 4
"""Visits of a node from which its compiled steps keep the enemies' values (in ``node.data``:
the model is asked anew at each descent, on the same board); fewer visits are not worth
the memory."""


def game_over(pos: Position, final_year: int) -> bool:
    """Whether ``pos`` is past the last phase to play (winter of ``final_year`` or later)."""
    return pos.ended_by(final_year)


class DiplomacyDomain:
    """The game of one power (``us``) under one variant's settings, to ``final_year``."""

    def __init__(self, variant: SearchSettings, us: int, final_year: int, num_powers: int) -> None:
        self.variant = variant
        self.us = us
        self.final_year = final_year
        self.phase_policies = variant.phases.for_powers(num_powers, us)
        self.enemy_policy = self._enemy_policy()
        self.enemy_bot = self._enemy_bot()
        self.our_phases = self._our_phases()

    # --- the tree ---------------------------------------------------------------------------

    def actions(self, state: Position, rng: Random) -> Sources:
        """Our order sets in ``state``, in the variant's expansion order."""
        return self.variant.actions.source(state, self.us, rng)

    def step(self, node: Node[Position, Action], action: Action, rng: Random) -> Position:
        """Play ``action`` with the enemies' orders, then retreats and adjustments."""
        pos = node.state
        bot = self.enemy_bot
        ours = self.our_phases
        if bot is not None and ours is not None:
            known = node.data
            if known is None and node.visits >= KEEP_VALUES_FROM:
                known = node.data = node_values(pos)
            nxt = compiled_step(
                bot.weights,
                ours,
                pos,
                action,
                rng,
                self.us,
                self.final_year,
                known,
                self.enemy_policy,
            )
            if nxt is not None:
                return nxt
        orders = self.enemy_orders(node, rng).copy()
        orders.update(action)
        return self.to_next_movement(next_position(pos, orders), rng)

    def enemy_orders(self, node: Node[Position, Action], rng: Random) -> dict[int, tuple[int, ...]]:
        """The enemies' orders at ``node`` from the variant's model (once per node if fixed)."""
        model = self.variant.enemies
        if model.fixed and node.data is not None:
            return node.data  # type: ignore[return-value]
        orders = model.orders(node.state, self.us, rng)
        if model.fixed:
            node.data = orders
        return orders

    def _enemy_policy(self) -> LearnedPolicy | None:
        """The learned policy that is the enemies' model, asked anew at each descent, if one is."""
        model = self.variant.enemies
        if model.fixed or type(model.player) is not LearnedPolicy:
            return None
        return model.player

    def _enemy_bot(self) -> DumbBot | None:
        """The DumbBot that plays every enemy at each descent, if one does.

        It is then their model (asked anew), or :attr:`enemy_policy` is, and their
        retreat and adjustment player, and the step runs compiled.
        """
        model = self.variant.enemies
        if self.enemy_policy is not None:
            enemies = [p for power, p in enumerate(self.phase_policies) if power != self.us]
            bot = enemies[0] if enemies else None
        else:
            bot = model.player
        if model.fixed or type(bot) is not DumbBot:
            return None
        for power, policy in enumerate(self.phase_policies):
            if power != self.us and policy is not bot:
                return None
        return bot

    def _our_phases(self) -> DumbBotWeights | None:
        """The weights of our retreat and adjustment player, if it is the live bot's.

        That is :class:`BotPhases` (a plain :class:`PhaseHeuristics`); the step
        then runs compiled.
        """
        policy = self.phase_policies[self.us]
        if type(policy) is not BotPhases:
            return None
        heuristics = policy.heuristics
        if type(heuristics) is not PhaseHeuristics or heuristics.randomised:
            return None
        return heuristics.weights

    def to_next_movement(self, pos: Position, rng: Random) -> Position:
        """Play retreat and adjustment phases until a movement phase or the end of the game."""
        while pos.season != SPRING and pos.season != FALL and not self.terminal(pos):
            pos = play_phase(pos, self.phase_policies, rng)
        return pos

    def key(self, state: Position) -> Hashable:
        """The position's exact identity."""
        return state.key()

    def terminal(self, state: Position) -> bool:
        """The final year is over, someone has won, or we have no unit and no centre left."""
        if game_over(state, self.final_year):
            return True
        if state.season == SPRING and solo_winner(state) >= 0:
            return True
        us = self.us
        if any(u[0] == us for u in state.units.values()):
            return False
        return state.owners.count(us) == 0

    # --- simulation -------------------------------------------------------------------------

    def rollout(self, state: Position, rng: Random) -> float:
        """Play on with the rollout players; the reward (see the module docstring).

        When one DumbBot plays every power and the compiled code runs, the rollout and its
        reward are computed in C without building the position it ends in
        (``play_out_reward`` of :func:`search.compiled_search.rollout_kernel`), drawing the
        same numbers.
        """
        variant = self.variant
        bot = variant.rollout_us
        enemies = variant.rollout_enemies
        fast = None
        if type(bot) is DumbBot and all(e is bot for e in enemies):
            fast = rollout_kernel(bot.weights, state)
        if fast is not None:
            return float(
                fast.play_out_reward(
                    state,
                    rng,
                    self.us,
                    self.rollout_horizon(state),
                    self.final_year,
                    state.map.win_centres,
                    state.map.num_powers - 1,
                    len(enemies),
                )
            )
        return self.reward(self.play_out(state, rng))

    def rollout_horizon(self, state: Position) -> int:
        """The last year a rollout from ``state`` plays (to its winter)."""
        years = self.variant.rollout_years
        if years is None:
            return self.final_year
        return min(self.final_year, state.year + years - 1)

    def play_out(self, state: Position, rng: Random) -> Position:
        """The position where a rollout from ``state`` ends (its horizon, or the game's end)."""
        horizon = self.rollout_horizon(state)
        policies = self.rollout_policies(state.map.num_powers, rng)
        bot = policies[0]
        if type(bot) is DumbBot and all(p is bot for p in policies):
            end = compiled_play_out(bot.weights, state, rng, self.us, horizon, self.final_year)
            if end is not None:
                return end
        pos = state
        while not game_over(pos, horizon) and not self.terminal(pos):
            pos = play_phase(pos, policies, rng)
        return pos

    def rollout_policies(self, num_powers: int, rng: Random) -> list[Policy | None]:
        """Our rollout player, and one drawn for each enemy."""
        variant = self.variant
        enemies = variant.rollout_enemies
        return [
            variant.rollout_us if p == self.us else enemies[rng.randrange(len(enemies))]
            for p in range(num_powers)
        ]

    def reward(self, pos: Position) -> float:
        """Our centres over the winning count, capped at 1; 0 if someone else has won."""
        counts = pos.centre_counts()
        winner = solo_winner(pos)
        if winner >= 0:
            return 1.0 if winner == self.us else 0.0
        return min(1.0, counts[self.us] / pos.map.win_centres)
