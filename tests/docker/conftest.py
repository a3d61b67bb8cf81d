"""A Docker engine for the compose tests, and a look at what a compose project leaves behind.

The engine is the one ``make setup`` starts (``docker/engine.sh``); when none
answers the script is run once more here.  If Docker still cannot be used the
tests fail and say why; they are never skipped.
"""

from __future__ import annotations

import subprocess

import pytest

from bot.local.compose import ComposeError, check_engine, compose_command
from bot.local.images import ROOT

ENGINE_SCRIPT = ROOT / "docker" / "engine.sh"


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
