"""The listening side the stress suite's scripted servers share."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Self


class ScriptedListener:
    """Start, stop and ``async with`` for a scripted server on ``host:port`` (0: any port).

    A subclass sets ``host`` and ``port`` and ``_server = None`` in its constructor, and
    defines :meth:`_accept` (one client's connection) and :meth:`_drop_client`.
    """

    host: str
    port: int
    _server: asyncio.Server | None

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        raise NotImplementedError

    def _drop_client(self) -> None:
        """Close the connection of the client being served, if any."""
        raise NotImplementedError

    async def start(self) -> Self:
        """Listen; ``port`` then holds the port to point the client at."""
        self._server = await asyncio.start_server(self._accept, self.host, self.port)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def stop(self) -> None:
        """Close the client's connection and stop listening."""
        self._drop_client()
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
            self._server = None

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()
