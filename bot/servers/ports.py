"""Choosing and waiting for loopback TCP ports."""

from __future__ import annotations

import socket
import time


def free_port(host: str = "127.0.0.1") -> int:
    """A port the kernel has never handed out recently: fresh, so never in TIME_WAIT."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def wait_listening(host: str, port: int, timeout: float, alive: object = None) -> bool:
    """Poll until something accepts connections on ``host:port``.

    ``alive`` may be a callable returning False once the process that should
    listen has died, which ends the wait early.  Returns True when listening.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if callable(alive) and not alive():
            return False
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.1)
    return False
