"""A Docker engine for the compose tests, and a look at what a compose project leaves behind.

The engine is the one ``make setup`` starts (``docker/engine.sh``); when none
answers the script is run once more here.  If Docker still cannot be used the
tests fail and say why; they are never skipped.

The images' bases (Debian suites debootstrapped, the stand-ins archived and imported: a
download and minutes of disk work on a new machine) are made in the background from the
start of the session, at the lowest priority, while the other tests run; the build of the
images waits for them (:func:`bases_made`).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from bot.local.compose import ComposeError, check_engine, compose_command
from bot.local.images import ROOT

ENGINE_SCRIPT = ROOT / "docker" / "engine.sh"
HERE = Path(__file__).resolve().parent
BASES_TIMEOUT = 1200
"""Seconds the bases made in the background get (two suites downloaded on a slow line)."""
MAKE_BASES = [
    "nice", "-n", "19", sys.executable, "-c",
    "from bot.local.images import ensure_bases; ensure_bases(print)",
]  # fmt: skip
"""The background maker: bot.local.images.ensure_bases at the lowest priority."""

_bases: tuple[subprocess.Popen[bytes], Path] | None = None


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start making the bases when a test here will build the images and an engine answers."""
    global _bases
    if _bases is not None or not any(
        HERE in Path(item.path).parents and "images" in getattr(item, "fixturenames", ())
        for item in session.items
    ):
        return
    try:
        check_engine()
    except ComposeError:
        return  # docker_engine starts one, then the build makes the bases itself
    handle, name = tempfile.mkstemp(prefix="daide-mcts-bases-", suffix=".log")
    with open(handle, "wb") as out:
        proc = subprocess.Popen(
            MAKE_BASES, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    _bases = (proc, Path(name))


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Stop a background maker still running (the session ended before the build)."""
    if _bases is not None and _bases[0].poll() is None:
        _stop(_bases[0])


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Kill the maker and what it started (debootstrap, chroots: its own session)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def bases_made() -> None:
    """Wait for the bases started in the background, if any; fail saying why if they failed."""
    if _bases is None:
        return
    proc, log = _bases
    try:
        proc.wait(BASES_TIMEOUT)
    except subprocess.TimeoutExpired:
        _stop(proc)
        pytest.fail(f"the images' bases were not made within {BASES_TIMEOUT}s: {log}")
    if proc.returncode != 0:
        pytest.fail(f"the images' bases could not be made:\n{log.read_text(errors='replace')}")
    log.unlink()


@pytest.fixture(scope="session")
def docker_engine() -> list[str]:
    """The compose command (``docker compose`` or ``docker-compose``) with an engine answering."""
    try:
        check_engine()
    except ComposeError:
        subprocess.run(["sh", str(ENGINE_SCRIPT)], cwd=ROOT, timeout=900, check=False)
    try:
        check_engine()
        return compose_command()
    except ComposeError as exc:
        pytest.fail(f"games in containers need Docker: {exc}")


def leftovers(project: str) -> dict[str, list[str]]:
    """The containers, networks and volumes compose project ``project`` still has."""
    label = f"label=com.docker.compose.project={project}"
    found = {}
    for kind, argv in {
        "containers": ["docker", "ps", "-aq", "--filter", label],
        "networks": ["docker", "network", "ls", "-q", "--filter", label],
        "volumes": ["docker", "volume", "ls", "-q", "--filter", label],
    }.items():
        out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
        found[kind] = out.split()
    return found
