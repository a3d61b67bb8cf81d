"""The package as a user gets it: sdist -> wheel -> a fresh environment -> a game.

``python -m build`` makes the sdist from the checkout; a wheel is built from
that sdist alone (not from the checkout) in a fresh virtual environment,
installed there, and the installed ``daide-mcts`` plays a short game on
Parlance from outside the checkout, so nothing of the source tree is imported.
Everything is installed from the wheelhouse of the bot image
(:func:`bot.local.images.prepare_wheelhouse`: the build requirements and the
core dependencies, made once from the package index), with ``--no-index``:
after the first run the test works offline.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import tomllib
import venv
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

from bot.local.images import ImageError, prepare_wheelhouse
from bot.servers.parlance_install import ParlanceInstall
from bot.toolkit.paths import local_dir

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
NAME, VERSION = PROJECT["name"].replace("-", "_"), PROJECT["version"]
TYPED_PACKAGES = ("protocol", "adjudicator", "search")
EXTENSIONS = (
    "adjudicator.per_map",
    "adjudicator._movetables",
    "adjudicator._resolver",
    "adjudicator._moveorders",
    "adjudicator._fastmove",
    "search._maptables",
    "search._draws",
    "search._valuation",
    "search._dumbbot",
    "search._policy",
    "search._rollout",
    "search._fastbot",
    "search._fasttree",
)
C_HEADERS = ("search/db_lanes.h", "search/db_levels.h")
BUILD_TIMEOUT = 600
GAME_TIMEOUT = 300

pytestmark = [pytest.mark.slow, pytest.mark.parlance]


def _clean_env(**extra: str) -> dict[str, str]:
    """This environment without what would make Python import the checkout."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(extra)
    return env


def _run(
    argv: list[str | Path], *, timeout: float, env: dict[str, str], cwd: Path | None = None
) -> str:
    proc = subprocess.run(
        [str(a) for a in argv],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        env=env,
        cwd=cwd,
    )
    if proc.returncode != 0:
        pytest.fail(
            f"`{' '.join(str(a) for a in argv)}` exited with {proc.returncode}:\n"
            f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
        )
    return proc.stdout


@pytest.fixture(scope="module")
def wheelhouse() -> Path:
    try:
        return prepare_wheelhouse(lambda line: print(line, file=sys.stderr))
    except ImageError as exc:
        pytest.fail(f"the wheels to build and install with could not be made: {exc}")


@pytest.fixture(scope="module")
def sdist(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> Path:
    """``python -m build --sdist`` of the checkout, its build environment from the wheelhouse."""
    out = tmp_path_factory.mktemp("dist")
    env = _clean_env(PIP_NO_INDEX="1", PIP_FIND_LINKS=str(wheelhouse))
    _run(
        [sys.executable, "-m", "build", "--sdist", "--outdir", out, ROOT],
        timeout=BUILD_TIMEOUT,
        env=env,
        cwd=out,
    )
    (found,) = out.glob("*.tar.gz")
    return found


@pytest.fixture(scope="module")
def environment(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment (with pip), outside the checkout."""
    where = tmp_path_factory.mktemp("venv")
    venv.EnvBuilder(with_pip=True, clear=True).create(where)
    return where


@pytest.fixture(scope="module")
def wheel(sdist: Path, environment: Path, wheelhouse: Path) -> Path:
    """The wheel ``pip wheel`` builds from the sdist alone, in the fresh environment."""
    out = sdist.parent / "wheels"
    _run(
        [
            *(environment / "bin" / "pip", "wheel", "--quiet", "--no-deps", "--no-index"),
            *("--find-links", wheelhouse, "--wheel-dir", out, sdist),
        ],
        timeout=BUILD_TIMEOUT,
        env=_clean_env(),
        cwd=out.parent,
    )
    (found,) = out.glob(f"{NAME}-{VERSION}-*.whl")
    return found


def test_the_sdist_holds_what_the_wheel_is_built_from(sdist: Path) -> None:
    with tarfile.open(sdist) as archive:
        names = {n.partition("/")[2] for n in archive.getnames()}
        metadata = archive.extractfile(f"{NAME}-{VERSION}/PKG-INFO")
        assert metadata is not None
        info = Parser().parsestr(metadata.read().decode())
    assert {"setup.py", "pyproject.toml", "README.md", "LICENSE"} <= names
    assert {
        "adjudicator/_fastmove.pyx",
        "adjudicator/_phaserules.pxd",
        "adjudicator/_resolver.pxd",
        "search/_fastbot.pyx",
        "search/_valuation.pxd",
    } <= names
    assert set(C_HEADERS) <= names, "the C headers the extensions include"
    assert {f"{p}/py.typed" for p in TYPED_PACKAGES} <= names
    assert not [n for n in names if n.endswith((".c", ".so"))], "generated files went in"
    assert info["License-Expression"] == "MIT"
    assert info.get_all("License-File") == ["LICENSE"]
    urls = dict(u.split(", ", 1) for u in info.get_all("Project-URL"))
    assert {"Homepage", "Documentation", "Source"} <= urls.keys()
    assert "Typing :: Typed" in info.get_all("Classifier")


def test_the_wheel_is_compiled_typed_and_licensed(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    for module in EXTENSIONS:
        path = module.replace(".", "/")
        assert [n for n in names if n.startswith(path) and n.endswith(".so")], module
    assert {f"{p}/py.typed" for p in TYPED_PACKAGES} <= names
    assert f"{NAME}-{VERSION}.dist-info/licenses/LICENSE" in names
    assert not [n for n in names if n.endswith((".pyx", ".pxd", ".c", ".h"))], "sources went in"


def test_the_installed_command_plays_a_game(
    wheel: Path,
    environment: Path,
    wheelhouse: Path,
    parlance_install: ParlanceInstall,
    tmp_path: Path,
) -> None:
    """Installed with its dependencies from the wheelhouse; one game to 1901 on Parlance."""
    bin_dir = environment / "bin"
    _run(
        [bin_dir / "pip", "install", "--quiet", "--no-index", "--find-links", wheelhouse, wheel],
        timeout=BUILD_TIMEOUT,
        env=_clean_env(),
    )
    env = _clean_env(DAIDE_MCTS_LOCAL=str(local_dir()))
    where = _run(
        [
            bin_dir / "python",
            "-c",
            "import bot, adjudicator.compiled_rules as s; print(bot.__file__); "
            f"print(all(s.load(n) is not None for n in {EXTENSIONS!r}))",
        ],
        timeout=60,
        env=env,
        cwd=tmp_path,
    ).split()
    assert Path(where[0]).is_relative_to(environment), f"bot imported from {where[0]}"
    assert where[1] == "True", "the compiled extensions do not load"
    run = tmp_path / "run"
    out = _run(
        [
            *(bin_dir / "daide-mcts", "game", "--server", "parlance", "--final-year", "1901"),
            *("--mtl", "3", "--lineup", "mcts,dumbbot", "--out", run),
        ],
        timeout=GAME_TIMEOUT,
        env=env,
        cwd=tmp_path,
    )
    summary = json.loads((run / "summary.json").read_text())
    assert summary["server"].startswith("Parlance"), out
    assert summary["end"] == "WIN 1901" and summary["ended_cleanly"], summary["problems"]
    assert len(summary["bots"]) == 7 and all(b["ended_cleanly"] for b in summary["bots"].values())
    # Every seat ran `daide-mcts play` with the fresh environment's interpreter.
    argv = json.loads((run / "bots" / "mcts.argv").read_text())
    assert Path(argv[0]).parent == bin_dir and argv[1:4] == ["-m", "bot.cli", "play"], argv
