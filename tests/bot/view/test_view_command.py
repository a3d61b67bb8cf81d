"""``daide-mcts view`` refuses what it cannot show in one line with exit code 2, and serves the
game as JSON and server-sent events."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest

from bot.cli import main
from bot.servers.ports import free_port
from tests.bot.view.scripted_game import write_run_folder


@pytest.mark.parametrize(
    ("setup", "args", "message"),
    [
        (None, ["nowhere"], "is not a folder"),
        ("empty", ["{tmp}"], "holds no messages.daide"),
        ("tournament", ["{tmp}"], "is a tournament: give one of its games"),
        ("no-now", ["{tmp}"], "records no phase"),
        (None, ["--host", "127.0.0.1", "--port", "{port}"], "cannot reach a DAIDE server"),
        (None, ["--host", "127.0.0.1"], "--host and --port go together"),
        ("empty", ["{tmp}", "--host", "127.0.0.1", "--port", "1"], "not both"),
        (None, [], "give a run folder"),
    ],
)
def test_what_cannot_be_shown_is_one_line_and_exit_2(
    tmp_path: Path, capsys, setup: str | None, args: list[str], message: str
) -> None:
    if setup == "tournament":
        (tmp_path / "tournament.json").write_text("{}")
    elif setup == "no-now":
        (tmp_path / "messages.daide").write_text("1.0 observer in HLO ( UNO ) ( 0 ) ( )\n")
    port = str(free_port())  # nothing listens there
    argv = [a.replace("{tmp}", str(tmp_path)).replace("{port}", port) for a in args]
    if argv and argv[0] == "nowhere":
        argv[0] = str(tmp_path / "nowhere")
    assert main(["view", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and err.startswith("daide-mcts view: error:")


_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback: no proxy


def test_the_server_gives_the_game_and_its_events(tmp_path: Path, run_view) -> None:
    phases = write_run_folder(tmp_path / "run")
    served = run_view(str(tmp_path / "run"))
    with _DIRECT.open(served.url + "api/game", timeout=10) as response:
        game = json.load(response)
    assert game["count"] == len(phases) and game["meta"]["over"] is True
    assert game["phases"]["1"]["turn"] == "FAL 1901"
    with _DIRECT.open(served.url + "api/events?since=0", timeout=10) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        lines = [stream.readline().decode() for _ in range(2)]
    assert lines[0].strip() == "event: update"
    assert json.loads(lines[1].removeprefix("data: "))["count"] == len(phases)
    with _DIRECT.open(served.url, timeout=10) as page:
        assert b'<script type="module" src="/static/app.js">' in page.read()
