"""Players by name: ``make_policy("dumbbot")``, ``make_policy("mcts:v8", budget=5)``.

Specs (case-insensitive):

* ``dumbbot`` — :class:`search.dumbbot.DumbBot`;
* ``random`` — :class:`search.randombot.RandomBot`;
* ``mcts`` or ``mcts:<variant>`` — ``search.mcts.make_policy(variant, budget,
  seed, workers)``, imported only when asked for (``mcts`` alone asks for
  ``search.mcts.DEFAULT_VARIANT``, or ``"default"`` if the module names none).

Errors, all :class:`ValueError` so a command line can report them in one line::

    PolicySpecError
    ├── UnknownPolicyError       the spec names no player
    └── PolicyUnavailableError   the player exists in name only (no search.mcts yet)
"""

from __future__ import annotations

import importlib

from search.dumbbot import DumbBot
from search.policy import Policy
from search.randombot import RandomBot

SPECS = {
    "dumbbot": "David Norman's DumbBot (Parang's constants)",
    "random": "random legal orders, sometimes supporting a friendly unit",
    "mcts[:VARIANT]": "Monte Carlo Tree Search (search.mcts), e.g. mcts:v8",
}
"""The spec forms and what each plays, for help texts and error messages."""

MCTS_MODULE = "search.mcts"


class PolicySpecError(ValueError):
    """A player spec that cannot be turned into a policy."""


class UnknownPolicyError(PolicySpecError):
    """The spec names no known player."""


class PolicyUnavailableError(PolicySpecError):
    """The spec is well formed but its player cannot be built here (e.g. no ``search.mcts``)."""


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


def make_policy(spec: str, *, budget: float = 5.0, seed: int = 0, workers: int = 1) -> Policy:
    """Build the player ``spec`` names; ``budget`` (s per move), ``seed`` and ``workers`` feed MCTS.

    The heuristic players ignore the MCTS settings (they draw from the rng
    each call is given).
    """
    kind, variant = parse_spec(spec)
    if kind == "dumbbot":
        return DumbBot()
    if kind == "random":
        return RandomBot()
    return _make_mcts(variant, budget=budget, seed=seed, workers=workers)


def _make_mcts(variant: str | None, *, budget: float, seed: int, workers: int) -> Policy:
    try:
        module = importlib.import_module(MCTS_MODULE)
    except ModuleNotFoundError as exc:
        if exc.name not in (MCTS_MODULE, "search"):
            raise
        raise PolicyUnavailableError(
            f"MCTS players are not available: {MCTS_MODULE} is not written yet "
            f"(use dumbbot or random for now)"
        ) from None
    factory = getattr(module, "make_policy", None)
    if factory is None:
        raise PolicyUnavailableError(f"{MCTS_MODULE} has no make_policy() yet")
    if variant is None:
        variant = str(getattr(module, "DEFAULT_VARIANT", "default"))
    try:
        policy: Policy = factory(variant, budget, seed, workers)
    except (KeyError, ValueError) as exc:
        raise UnknownPolicyError(f"MCTS variant {variant!r}: {exc}") from exc
    return policy
