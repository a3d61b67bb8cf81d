"""The messages between the client and its search worker process: small typed values.

The worker starts before the game does: it says when it is ready
(:class:`Ready`) and learns the game's map when the client does
(:class:`UseMap`).  Every other message names the job it is about.  The client starts a job per
movement phase (:class:`Think`) with one :class:`~search.policy.SearchLimit`, may give it a
new limit when the deadline moves (:class:`Retime`) or end it early
(:class:`Cancel`); the worker answers with improvements as it
finds them (:class:`Progress`) and exactly one final message
(:class:`Answer`, or :class:`Failed` when the search raised).  A message for a
job the other side has already finished is stale: it is dropped and counted,
never applied to another phase.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adjudicator.orders import Orders
from adjudicator.position import PositionData
from protocol.values import MapDefinition
from search.policy import SearchLimit


@dataclass(frozen=True, slots=True)
class UseMap:
    """The game is played on this map (an MDF's content and the map's name): later jobs use it."""

    definition: MapDefinition
    name: str


@dataclass(frozen=True, slots=True)
class Think:
    """Choose ``power``'s orders in ``position`` within ``limit``."""

    job_id: int
    position: PositionData
    power: int
    limit: SearchLimit


@dataclass(frozen=True, slots=True)
class Retime:
    """The deadline moved: job ``job_id`` now searches within ``limit`` (earlier or later)."""

    job_id: int
    limit: SearchLimit


@dataclass(frozen=True, slots=True)
class Cancel:
    """Stop job ``job_id`` now; its final answer still comes."""

    job_id: int


@dataclass(frozen=True, slots=True)
class Shutdown:
    """Finish and exit the worker."""


@dataclass(frozen=True, slots=True)
class Progress:
    """An improved order set for job ``job_id`` (more may follow)."""

    job_id: int
    orders: Orders
    stats: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Answer:
    """The final order set of job ``job_id``."""

    job_id: int
    orders: Orders
    stats: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Failed:
    """Job ``job_id`` ended with an error (no orders)."""

    job_id: int
    error: str


@dataclass(frozen=True, slots=True)
class Ready:
    """The worker has imported the search and built its strategy, ``seconds`` after its start."""

    seconds: float


ToWorker = UseMap | Think | Retime | Cancel | Shutdown
JobMessage = Progress | Answer | Failed
"""What the worker says about a job."""
