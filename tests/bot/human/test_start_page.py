"""The start page, run as a person runs it (``daide-mcts start``): malformed forms are
refused with one line and start nothing; a bad port is one line.  A person's whole game
from the start page, in a real browser, is tests/bot/human/test_coach_page.py's.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from tests.bot.human.conftest import ROOT, StartProcess


def test_a_malformed_form_is_refused_and_starts_nothing(
    run_start: Callable[..., StartProcess], tmp_path: Path
) -> None:
    page = run_start()
    status, text = page.call("GET", "/api/options")
    assert status == 200, text
    options = json.loads(text)
    assert options["maps"][0]["name"] == "standard"
    assert len(options["maps"]) > 1  # Parterre's variants
    assert {"mcts", "dumbbot", "random", "parang"} <= set(options["kinds"])
    six = [{"kind": "dumbbot"}] * 6
    refused = [
        (json.dumps({"opponents": six, "power": "XYZ"}), "power: standard has no power XYZ"),
        (json.dumps({"opponents": six[:2]}), "so 6 opponents (got 2)"),
        (json.dumps({"opponents": six, "move": 0}), "move: Input should be greater than"),
        (json.dumps({"opponents": six, "map": "atlantis"}), "map: no map called 'atlantis'"),
        (json.dumps({"opponents": six, "final_year": 1899}), "final_year: between 1901"),
        ("{", "the request: Invalid JSON"),
    ]
    for body, expected in refused:
        status, text = page.call("POST", "/api/start", body.encode())
        assert status == 400 and expected in text, (body, status, text)
        assert len(text.strip().splitlines()) == 1
    status, text = page.call("POST", "/api/start", b"x" * 20_000)
    assert status == 413, text
    assert (
        page.call("POST", "/api/start", json.dumps({"opponents": six}).encode(), key=None)[0] == 403
    )
    assert page.call("GET", "/api/game", key="wrong")[0] == 403
    assert page.call("GET", "/api/options", host="evil.example:80")[0] == 421
    status, text = page.call("GET", "/api/game")
    assert status == 200 and json.loads(text)["state"] == "none"
    assert not (tmp_path / "runs").exists()
    assert page.proc.poll() is None


def test_a_bad_port_is_one_line_and_exit_code_2() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "bot.cli", "start", "--http-port", "70000"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        "daide-mcts start: error: --http-port must be between 0 and 65535 (got 70000)"
    )
