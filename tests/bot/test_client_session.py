"""The session's memory of what it sent: an answer counts only for something sent and unanswered."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.connection import Connection
from bot.session import AWAITED_MAX, Session
from protocol.messages import Drw, Gof, Hlo, Huh, Iam, Message, Nme, Not, Now, Sco, Yes


@pytest.fixture
async def session() -> AsyncIterator[Session]:
    async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while await reader.read(65536):
            pass

    server = await asyncio.start_server(accept, "127.0.0.1", 0)
    conn = await Connection.open("127.0.0.1", server.sockets[0].getsockname()[1], 5.0)
    session = Session(conn, rejoin=False)
    session.greeted()
    session.join()
    yield session
    await conn.close()
    server.close()


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
async def test_an_answer_counts_only_for_something_sent(
    session: Session, sent: list[Message], answer: Message, taken: bool
) -> None:
    for message in sent:
        session.send(message)
    assert session.take(answer) is taken


async def test_each_message_is_answered_once_and_the_oldest_are_forgotten(session: Session):
    session.send(Iam("FRA", 4242))
    assert session.take(Iam("FRA", 4242))
    assert not session.take(Iam("FRA", 4242))  # answered already
    session.send(Nme("daide-mcts", "1"))
    for _ in range(AWAITED_MAX):
        session.send(Gof())
    assert not session.take(Nme("daide-mcts", "1"))  # pushed out by newer ones
    assert session.take(Gof())
