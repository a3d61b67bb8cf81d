"""The ``tournament --ray`` flags: addresses, CPUs per game, and what is refused before any Ray."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.cluster.driver import reason
from bot.cluster.options import check_address, default_cpus
from bot.local.lineup import parse_lineup


@pytest.mark.parametrize(
    ("address", "ok"),
    [
        ("auto", True),
        ("ray://head.example:10001", True),
        ("10.0.0.5:6379", True),
        ("127.0.0.2:40415", True),
        ("ray://head", False),
        ("head", False),
        ("http://head:8265", False),
        ("", False),
    ],
)
def test_ray_addresses(address: str, ok: bool) -> None:
    assert (check_address(address) is None) == ok


@pytest.mark.parametrize(
    ("lineup", "cpus"),
    [("dumbbot", 1.0), ("mcts", 2.0), ("mcts,mcts:v8,random,parang", 3.0), ("cmd:x {port}", 1.0)],
)
def test_a_game_reserves_one_cpu_per_searching_bot_plus_one(lineup: str, cpus: float) -> None:
    assert default_cpus(parse_lineup(lineup)) == cpus


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--ray", "nowhere"], "is not a Ray address"),
        (["--ray", "--parallel", "2"], "--parallel does not apply with --ray"),
        (["--ray", "auto", "--cpus-per-game", "0"], "--cpus-per-game must be positive"),
        (["--ray", "auto", "--watchdog", "-1"], "--watchdog must be positive"),
        (["--ray", "--lineup", "mcts,bandana:dbrane"], "BANDANA's seats cannot play on a Ray"),
    ],
)
def test_bad_cluster_flags_exit_2(
    flags: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["tournament", "--games", "1", "--out", str(tmp_path / "t"), *flags]
    assert main(argv) == 2
    assert message in capsys.readouterr().err


@pytest.mark.ray
def test_an_unreachable_cluster_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.servers.ports import free_port

    argv = ["tournament", "--games", "1", "--out", str(tmp_path / "t")]
    assert main([*argv, "--ray", f"ray://127.0.0.1:{free_port()}"]) == 2
    err = capsys.readouterr().err
    assert "cannot join the Ray cluster at ray://127.0.0.1:" in err and len(err.splitlines()) == 1
    assert "nothing answers at 127.0.0.1:" in err  # said at once, not after Ray's retries


@pytest.mark.parametrize(
    ("error", "said"),
    [
        (
            ConnectionAbortedError(
                "Initialization failure from server:\nTraceback (most recent call last):\n"
                '  File "proxier.py", line 780, in Datapath\n'
                "RuntimeError: Proxy failed to Connect to backend!\n"
            ),
            "Initialization failure from server: RuntimeError: Proxy failed to Connect to backend!",
        ),
        (ConnectionError("Failed to connect\nretrying"), "Failed to connect"),
        (TimeoutError(), "TimeoutError"),
    ],
)
def test_a_cluster_error_says_why_in_one_line(error: Exception, said: str) -> None:
    assert reason(error) == said
