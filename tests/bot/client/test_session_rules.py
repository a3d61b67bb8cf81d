"""The session's memory of what it sent: an answer counts only for something sent and unanswered."""

from __future__ import annotations

import pytest

from bot.client.core.session import AWAITED_MAX, NotConnected, Session, SessionNotReady
from protocol.messages import Drw, Gof, Hlo, Huh, Iam, Message, Nme, Not, Now, Sco, Yes


@pytest.fixture
def session() -> Session:
    session = Session(rejoin=False)
    session.greeted()
    session.join()
    return session


@pytest.mark.parametrize(
    ("sent", "answer", "taken"),
    [
        ([Iam("FRA", 4242)], Iam("FRA", 4242), True),
        ([Iam("FRA", 4242)], Iam("FRA", 1234), True),  # the server's own spelling: same kind
        ([Nme("daide-mcts", "1")], Nme("x", "1"), True),
        ([], Iam("FRA", 1234), False),  # never sent
        ([Nme("daide-mcts", "1")], Iam("FRA", 4242), False),  # sent something else
        ([Hlo(), Sco(), Now()], Hlo(), True),
        ([Not(Gof())], Gof(), False),
        ([Gof(), Drw()], Drw(), True),
        ([Yes(Sco())], Sco(), False),  # our answers are not waiting for one
        ([Huh(())], Huh(()), False),
    ],
)
def test_an_answer_counts_only_for_something_sent(
    session: Session, sent: list[Message], answer: Message, taken: bool
) -> None:
    for message in sent:
        session.send(message)
    assert session.take(answer) is taken


def test_each_message_is_answered_once_and_the_oldest_are_forgotten(session: Session):
    session.send(Iam("FRA", 4242))
    assert session.take(Iam("FRA", 4242))
    assert not session.take(Iam("FRA", 4242))  # answered already
    session.send(Nme("daide-mcts", "1"))
    for _ in range(AWAITED_MAX):
        session.send(Gof())
    assert not session.take(Nme("daide-mcts", "1"))  # pushed out by newer ones
    assert session.take(Gof())


@pytest.mark.parametrize(
    ("stage", "message", "refused"),
    [
        ("opened", Nme("daide-mcts", "1"), SessionNotReady),  # nothing before the RM
        ("greeting", Nme("daide-mcts", "1"), None),
        ("greeting", Gof(), SessionNotReady),  # no game action before joining
        ("greeting", Not(Gof()), SessionNotReady),
        ("joined", Gof(), None),
        ("closed", Nme("daide-mcts", "1"), NotConnected),
    ],
)
def test_what_each_stage_lets_out(
    stage: str, message: Message, refused: type[Exception] | None
) -> None:
    session = Session(rejoin=False)
    if stage in ("greeting", "joined"):
        session.greeted()
    if stage == "joined":
        session.join()
    if stage == "closed":
        session.close()
    if refused is None:
        session.send(message)
    else:
        with pytest.raises(refused):
            session.send(message)
