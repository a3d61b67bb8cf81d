"""A minimal blocking DAIDE client for tests: a plain socket around our encoder and decoder.

Used by the live Parlance test and by ``capture_sample_game`` (which records
the protocol's data files).  It keeps a transcript of every message, in text
form, prefixed ``<<`` (received) or ``>>`` (sent).
"""

from __future__ import annotations

import contextlib
import socket
import time

from protocol.decoder import Decoder
from protocol.messages import Message
from protocol.tokens import STANDARD, TokenTable
from protocol.wire import (
    DiplomacyMessage,
    ErrorMessage,
    FinalMessage,
    RepresentationMessage,
    encode_final,
    encode_initial,
    encode_message,
)


class ServerClosed(Exception):
    """The server sent FM or EM, or closed the socket."""


class LiveClient:
    """Connects, sends IM, and then sends and receives typed messages with a deadline."""

    def __init__(self, host: str, port: int, timeout: float = 10.0) -> None:
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.decoder = Decoder()
        self.queue: list[Message] = []
        self.transcript: list[str] = []
        self.representation: RepresentationMessage | None = None
        self.sock.sendall(encode_initial())

    @property
    def table(self) -> TokenTable:
        """The token table from the server's RM."""
        return self.decoder.table or STANDARD

    def send(self, message: Message) -> None:
        """Encode and send one typed message."""
        self.transcript.append(">> " + message.to_text(self.table))
        self.sock.sendall(encode_message(message, self.table))

    def receive(self, deadline: float) -> Message:
        """The next typed message; raises TimeoutError at ``deadline`` (time.monotonic())."""
        while not self.queue:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("no message from the server in time")
            self.sock.settimeout(remaining)
            try:
                data = self.sock.recv(65536)
            except TimeoutError:
                raise TimeoutError("no message from the server in time") from None
            if not data:
                self.decoder.feed_eof()
                raise ServerClosed("the server closed the connection")
            for wire in self.decoder.feed(data):
                if isinstance(wire, RepresentationMessage):
                    self.representation = wire
                elif isinstance(wire, DiplomacyMessage):
                    self.transcript.append("<< " + wire.text)
                    self.queue.append(wire.parse())
                elif isinstance(wire, (FinalMessage, ErrorMessage)):
                    raise ServerClosed(f"the server sent {wire}")
        return self.queue.pop(0)

    def wait_for(self, kind: type[Message], deadline: float) -> Message:
        """Receive until a message of class ``kind`` arrives (others stay in the transcript)."""
        while True:
            message = self.receive(deadline)
            if isinstance(message, kind):
                return message

    def close(self) -> None:
        """Send FM and close the socket."""
        with contextlib.suppress(OSError):
            self.sock.sendall(encode_final())
        self.sock.close()
