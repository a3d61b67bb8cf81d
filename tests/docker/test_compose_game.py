"""Games in containers, for real: the images built offline, a short game played to its end.

``python -m bot.local.compose`` (what ``make compose`` runs) builds the images,
plays a seven-bot game to the winter of 1901 in containers (Parlance, seven
``daide-mcts play`` bots, mosquitto), and tears everything down; the run
folder is read back with the browser view's loader.  A bot container killed
mid-game leaves its power in civil disorder and the game goes on to its end.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from bot.local.compose import free_port
from bot.local.images import BOT_IMAGE, ROOT, SERVER_IMAGE
from bot.local.lineup import SEATS
from bot.view.sources import load_run
from tests.docker.conftest import bases_made, leftovers

pytestmark = pytest.mark.slow

FINAL_YEAR = 1901
MOVE_DEADLINE = 5
GAME_TIMEOUT = 420
BUILD_TIMEOUT = 1500
"""Seconds for a cold build: two Debian suites debootstrapped, both images built."""

TABLE_ROW = re.compile(r"^(bot[1-7])\s+(\S+)\s+([A-Z]{3})\s+(\d+)\s+(yes|-)\s+(\d+)\s+([\d.]+)$")


def _compose(runs: Path, *args: str, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "bot.local.compose", "--runs", str(runs), *args],
        cwd=ROOT,
        env={**os.environ, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _game_env() -> dict[str, str]:
    return {
        "FINAL_YEAR": str(FINAL_YEAR),
        "MTL": str(MOVE_DEADLINE),
        "COMPOSE_PROJECT_NAME": f"daide-mcts-test-{uuid.uuid4().hex[:8]}",
        "MQTT_PORT": str(free_port()),
    }


@pytest.fixture(scope="module")
def images(docker_engine: list[str], tmp_path_factory: pytest.TempPathFactory) -> str:
    """The server and bot images, built (offline) by the compose runner; its output."""
    bases_made()
    runs = tmp_path_factory.mktemp("runs")
    proc = _compose(runs, "--build-only", env={})
    try:
        out, _ = proc.communicate(timeout=BUILD_TIMEOUT)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail(f"the images were not built within {BUILD_TIMEOUT}s")
    assert proc.returncode == 0, out
    return out


def _in_image(image: str, *argv: str) -> str:
    return subprocess.run(
        ["docker", "run", "--rm", "--network", "none", "--entrypoint", argv[0], image, *argv[1:]],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout


def test_the_bot_image_runs_its_compiled_package_and_holds_no_compiler(images: str) -> None:
    assert f"{BOT_IMAGE} " in images and f"{SERVER_IMAGE} " in images
    probe = (
        "import os, adjudicator._fastmove as m, adjudicator._fastlegal as g, search._fastbot as b;"
        "import bot.cli; print(m.__file__); print(g.__file__); print(b.__file__);"
        "print(bot.cli.__file__);"
        "print(os.getcwd(), os.path.exists('/src'), os.path.exists('/app'))"
    )
    fastmove, fastlegal, fastbot, cli, where = _in_image(
        BOT_IMAGE, "python", "-c", probe
    ).splitlines()
    site = "/opt/venv/lib/python3.11/site-packages/"
    assert fastmove.startswith(site + "adjudicator/_fastmove") and fastmove.endswith(".so")
    assert fastlegal.startswith(site + "adjudicator/_fastlegal") and fastlegal.endswith(".so")
    assert fastbot.startswith(site + "search/_fastbot") and fastbot.endswith(".so")
    assert cli == site + "bot/cli.py"
    assert where == "/home/bot False False"
    assert _in_image(BOT_IMAGE, "sh", "-c", "command -v gcc cc || echo none").strip() == "none"
    assert "usage" in _in_image(BOT_IMAGE, "daide-mcts", "play", "--help")
    server = _in_image(SERVER_IMAGE, "python", "-c", "import parlance, sys; print(sys.version)")
    assert server.startswith("2.7")
    # Parterre's variants beside it, as make setup installs them: the server serves sailho
    probe = "from parlance.config import variants; print(' '.join(sorted(variants)))"
    served = _in_image(SERVER_IMAGE, "python", "-c", probe).split()
    assert {"standard", "sailho", "world3"} <= set(served), served


def _check_run(out: str, runs: Path, project: str) -> tuple[Path, dict[str, object]]:
    """The run folder and its summary, after checking the table, the folder and the clean-up."""
    folders = sorted(runs.glob("compose-*"))
    assert len(folders) == 1, out
    folder = folders[0]
    rows = [m.groups() for line in out.splitlines() if (m := TABLE_ROW.match(line.strip()))]
    assert sorted(row[0] for row in rows) == [f"bot{k}" for k in range(1, SEATS + 1)], out
    assert len({row[2] for row in rows}) == SEATS  # every power played by one seat
    assert sum(int(row[3]) for row in rows) >= 22  # 1901's winter: the 22 home centres at least
    assert (folder / "result.txt").read_text().strip() in out
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["result"] and summary["end"].endswith(str(FINAL_YEAR))
    players = summary["players"]
    assert len(players) == SEATS
    assert all(p["power"] and p["rank"] >= 1 and p["points"] >= 0 for p in players)
    timeline = load_run(folder)  # what `daide-mcts view FOLDER` shows
    assert timeline.over and timeline.phases
    assert leftovers(project) == {"containers": [], "networks": [], "volumes": []}
    return folder, summary


def test_a_short_game_in_containers_is_played_scored_and_torn_down(
    images: str, tmp_path: Path
) -> None:
    env = _game_env()
    proc = _compose(tmp_path, env=env)
    assert proc.stdout is not None
    lines = []
    for line in proc.stdout:  # until the server and the broker are up
        lines.append(line)
        if "watch it: " in line:
            break
    # The live view on the host follows the bots' telemetry through the published broker.
    url = f"mqtt://127.0.0.1:{env['MQTT_PORT']}/daide-mcts"
    watch_argv = ["watch", url, "--exit-after", str(SEATS), "--timeout", str(GAME_TIMEOUT)]
    watch = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", *watch_argv],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    out = "".join(lines) + proc.communicate(timeout=GAME_TIMEOUT)[0]
    watched, _ = watch.communicate(timeout=60)
    assert proc.returncode == 0, out
    assert watch.returncode == 0, watched
    assert watched.count(" game over cleanly: DRW") == SEATS, watched
    folder, summary = _check_run(out, tmp_path, env["COMPOSE_PROJECT_NAME"])
    assert summary["ended_cleanly"] and summary["problems"] == []
    # Every bot's own record and summary came back from the containers' volume.
    for k in range(1, SEATS + 1):
        assert (folder / "bots" / f"bot{k}.json").is_file()
        assert list((folder / "bots" / f"bot{k}").glob("*.jsonl"))
        assert (folder / "bots" / f"bot{k}.out").is_file()
    assert "bot1" in summary["bots"]  # type: ignore[operator]
    assert (folder / "server.log").is_file()  # Parlance's output (quiet at --LVL=0)


def _wait_for_autumn(runs: Path, proc: subprocess.Popen[str], timeout: float) -> None:
    """Until the run folder's record shows the autumn of 1901 (the game is under way)."""
    until = time.monotonic() + timeout
    while time.monotonic() < until and proc.poll() is None:
        for path in runs.glob("compose-*/messages.daide"):
            if "NOW ( FAL 1901 )" in path.read_text():
                return
        time.sleep(0.2)
    pytest.fail("the game in containers did not reach the autumn of 1901")


def test_a_bot_container_killed_mid_game_leaves_its_power_in_civil_disorder(
    images: str, tmp_path: Path
) -> None:
    env = _game_env()
    project = env["COMPOSE_PROJECT_NAME"]
    proc = _compose(tmp_path, env=env)
    try:
        _wait_for_autumn(tmp_path, proc, GAME_TIMEOUT / 2)
        victim = subprocess.run(
            [
                "docker", "ps", "-q",
                "--filter", f"label=com.docker.compose.project={project}",
                "--filter", "label=com.docker.compose.service=bot3",
            ],
            capture_output=True, text=True, check=True,
        ).stdout.split()  # fmt: skip
        assert len(victim) == 1
        subprocess.run(["docker", "kill", victim[0]], capture_output=True, check=True)
        out, _ = proc.communicate(timeout=GAME_TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.communicate(timeout=60)
    assert proc.returncode == 0, out
    assert "bot3's container stopped before the end of the game (exit status 137)" in out
    folder, summary = _check_run(out, tmp_path, project)
    power = {p["seat"]: p["power"] for p in summary["players"]}["bot3"]  # type: ignore[index]
    # The server saw bot3's power leave: civil disorder (CCD) for it, and the game went on.
    assert f"CCD ( {power} )" in (folder / "messages.daide").read_text()
    assert summary["end"].endswith(str(FINAL_YEAR))
