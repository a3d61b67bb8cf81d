"""One protocol for the search's processes: the bot's search worker and the root-parallel helpers.

Both are told the game's map (:class:`UseMap`), are given jobs (:class:`Think`,
one :class:`~search.policy.SearchLimit` each), may get a new limit when the
deadline moves (:class:`Retime`), may be told to stop a job now
(:class:`Cancel`) or to exit (:class:`Shutdown`).  They answer with
improvements as they find them (:class:`Progress`, the bot's worker) and exactly
one final message per job: :class:`Answer` (the orders, the statistics, and for
a helper its tree's root edges) or :class:`Failed`.  The bot's worker says when
it is ready (:class:`Ready`).  Every job message names its job: a message about a
job the other side has already finished is stale, dropped and counted, never
applied to another job.

:class:`JobControl` is a searching process's view of its running job: the limit
as retimed, and whether a message ended it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adjudicator.orders import Orders
from adjudicator.position import PositionData
from protocol.values import MapDefinition
from search.mcts.inbox import PipeInbox
from search.mcts.order_sets import Action
from search.policy import SearchLimit

RootStats = tuple[tuple[Action, int, float], ...]
"""A tree's root edges: ``(action, visits, total reward)``."""


@dataclass(frozen=True, slots=True)
class UseMap:
    """The game is played on this map (an MDF's content and the map's name): later jobs use it."""

    definition: MapDefinition
    name: str


@dataclass(frozen=True, slots=True)
class Think:
    """Search ``power``'s orders in ``position`` within ``limit``.

    A root-parallel helper is also told its ``seed``, the ``variant`` and the
    search's ``horizon`` (the year its rollouts end); the bot's worker knows its
    strategy from its start and draws its seeds from its own generator.
    """

    job_id: int
    position: PositionData
    power: int
    limit: SearchLimit
    seed: int | None = None
    variant: str | None = None
    horizon: int | None = None
    ranked: int = 0
    """How many best sets the answer's statistics rank (a person's hint; 0: none)."""


@dataclass(frozen=True, slots=True)
class Retime:
    """The deadline moved: job ``job_id`` now searches within ``limit`` (earlier or later)."""

    job_id: int
    limit: SearchLimit


@dataclass(frozen=True, slots=True)
class Cancel:
    """Stop job ``job_id`` now; its final message still comes."""

    job_id: int


@dataclass(frozen=True, slots=True)
class Shutdown:
    """Finish and exit."""


@dataclass(frozen=True, slots=True)
class Progress:
    """An improved order set for job ``job_id`` (more may follow)."""

    job_id: int
    orders: Orders
    stats: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Answer:
    """The final word on job ``job_id``: its orders, its statistics, and (a helper) its root."""

    job_id: int
    orders: Orders
    stats: dict[str, Any]
    root: RootStats = ()


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
"""What a searching process is told."""

JobMessage = Progress | Answer | Failed
"""What a searching process says about a job."""


class JobControl:
    """A searching process's view of its running job: its limit, and the messages that end it."""

    def __init__(self, inbox: PipeInbox[ToWorker], job: Think) -> None:
        self.inbox = inbox
        self.job_id = job.job_id
        self.limit = job.limit
        self.stopped = False

    def current(self) -> SearchLimit:
        """The job's limit as it stands (a retime changes it)."""
        return self.limit

    def should_stop(self) -> bool:
        """True from the job's cancel, a newer job or map, or a shutdown on.

        A retime only changes :attr:`limit`, which the search reads (its stop
        time, earlier or later, is the search's to keep, helpers included).
        """
        if self.stopped:
            return True
        for message in self.inbox.arrived():
            if isinstance(message, Cancel):
                self.stopped = self.stopped or message.job_id == self.job_id
            elif isinstance(message, Retime):
                if message.job_id == self.job_id:
                    self.limit = message.limit
            else:  # a newer job, a map or a shutdown: stop this one and handle that next
                self.inbox.keep(message)
                self.stopped = True
        return self.stopped
