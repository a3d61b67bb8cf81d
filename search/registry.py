"""Players by name: ``make_policy("dumbbot")``, ``make_policy("mcts:v8", budget=5)``.

Specs (case-insensitive):

* ``dumbbot`` — :class:`search.dumbbot.DumbBot`;
* ``random`` — :class:`search.randombot.RandomBot`;
* ``mcts`` or ``mcts:<variant>`` — :func:`search.mcts.make_policy` (``mcts``
  alone plays :data:`search.mcts.DEFAULT_VARIANT`).

Errors, all :class:`ValueError` so a command line can report them in one line::

    PolicySpecError
    └── UnknownPolicyError       the spec names no player (or no MCTS variant)
"""

from __future__ import annotations

from search import mcts
from search.dumbbot import DumbBot
from search.mcts.variants import VariantError
from search.policy import Policy
from search.randombot import RandomBot

SPECS = {
    "dumbbot": "David Norman's DumbBot (Parang's constants)",
    "random": "random legal orders, sometimes supporting a friendly unit",
    "mcts[:VARIANT[/KEY=VALUE...]]": "Monte Carlo Tree Search (search.mcts): VARIANT dm "
    "(the default) or v1-v8, KEY a setting (search.mcts.variants.OVERRIDES), e.g. mcts:dm/cp=0.5",
}
"""The spec forms and what each plays, for help texts and error messages."""


class PolicySpecError(ValueError):
    """A player spec that cannot be turned into a policy."""


class UnknownPolicyError(PolicySpecError):
    """The spec names no known player."""


def valid_specs() -> str:
    """The spec forms, one line, for messages."""
    return ", ".join(SPECS)


def parse_spec(spec: str) -> tuple[str, str | None]:
    """``(kind, variant)`` for a spec: ``("mcts", "v8")``, ``("dumbbot", None)``; or raise.

    A bare ``mcts`` gives variant ``None`` (the module's default).  Raises
    :class:`UnknownPolicyError` for anything else.
    """
    text = spec.strip().lower()
    kind, sep, variant = text.partition(":")
    if kind in ("dumbbot", "random") and not sep:
        return kind, None
    if kind == "mcts":
        if sep and not variant:
            raise UnknownPolicyError(f"player spec {spec!r} has an empty variant after 'mcts:'")
        return kind, variant or None
    raise UnknownPolicyError(f"unknown player {spec!r}; valid specs: {valid_specs()}")


def make_policy(
    spec: str,
    *,
    budget: float = 5.0,
    seed: int = 0,
    workers: int = 1,
    final_year: int | None = None,
    cpu_clock: bool = False,
) -> Policy:
    """Build the player ``spec`` names.

    ``budget`` (seconds per move, of CPU time with ``cpu_clock``), ``seed``,
    ``workers`` and ``final_year`` (the game's last year, which the search
    looks ahead to) feed MCTS.  The heuristic players ignore them (they draw
    from the rng each call is given).
    """
    kind, variant = parse_spec(spec)
    if kind == "dumbbot":
        return DumbBot()
    if kind == "random":
        return RandomBot()
    try:
        return mcts.make_policy(
            variant or mcts.DEFAULT_VARIANT, budget, seed, workers, final_year, cpu_clock
        )
    except VariantError as exc:
        raise UnknownPolicyError(str(exc)) from None
