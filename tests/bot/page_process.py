"""A `daide-mcts` command that serves a page, run as a subprocess until it prints its address."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import pytest

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class PageProcess:
    """The command running as a subprocess; ``url`` is the page it printed."""

    proc: subprocess.Popen[str]
    url: str
    lines: list[str]

    def output(self) -> str:
        return "".join(self.lines)[-4000:]


P = TypeVar("P", bound=PageProcess)


def start_page_process(
    kind: type[P], args: list[str], address: re.Pattern[str], wait: float, env: dict[str, str]
) -> P:
    """Run ``daide-mcts ARGS``; once it printed an ``address``, the process (else fail)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **env},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: list[str] = []
    found = threading.Event()
    url: list[str] = []

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            match = address.search(line)
            if match and not url:
                url.append(match.group(1))
                found.set()

    threading.Thread(target=read, daemon=True).start()
    if not found.wait(wait):
        proc.kill()
        pytest.fail(f"daide-mcts {args[0]} printed no address:\n{''.join(lines)}")
    return kind(proc, url[0], lines)


def page_processes(
    kind: type[P], command: str, address: re.Pattern[str], wait: float, env: dict[str, str]
) -> Iterator[Callable[..., P]]:
    """A fixture's body: a factory of ``daide-mcts COMMAND ...`` processes, stopped at the end."""
    started: list[P] = []

    def start(*args: str) -> P:
        process = start_page_process(kind, [command, *args], address, wait, env)
        started.append(process)
        return process

    yield start
    for process in started:
        if process.proc.poll() is None:
            process.proc.terminate()
            try:
                process.proc.wait(10)
            except subprocess.TimeoutExpired:
                process.proc.kill()
                process.proc.wait()
