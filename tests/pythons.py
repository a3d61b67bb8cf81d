"""``make pythons``: the package installed and its pure layers tested on each Python it supports.

For each version of :data:`VERSIONS` found (pyenv's, else on ``PATH``):

* a venv in ``.local/pythons/3.X`` with the package installed from this checkout,
  not editable, with the ``test`` extra (``pip install '.[test]'``: the wheel is
  built, its compiled extensions with it);
* a check that the compiled paths are what runs: each extension of
  :data:`adjudicator.compiled_rules.EXTENSIONS` loads from the venv, is current and
  was built from this checkout's sources (its ``SOURCE_HASH``), and the compiled
  DumbBot draws from the search's generator in C (``search._fastbot.draws_in_c``);
* the tests of ``protocol``, ``adjudicator`` and ``search`` that need no server
  (:data:`SERVER_MARKERS` left out), run from a copy of ``tests/`` outside the
  source tree (``.local/pythons/3.X/run``), so that the installed package is the
  one imported.

One line per version at the end: its interpreter, the tests' counts and the
verdict.  The exit status is 1 if any version found failed, or none was found.
Standard library only: it runs on the Python that runs ``make``.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
"""The checkout."""

VERSIONS = ("3.11", "3.12", "3.13")
"""The Python versions the package supports (pyproject.toml's classifiers)."""

TEST_FOLDERS = ("tests/protocol", "tests/adjudicator", "tests/search")
"""The pure layers' tests."""

SERVER_MARKERS = ("parlance", "mila", "mqtt", "browser", "ray")
"""pytest markers (pyproject.toml) of tests that start a server, a browser or a cluster."""

SOURCES_ENV = "DAIDE_MCTS_SOURCES"
"""Where the installed package's sources are, for tests/adjudicator/test_speedups.py."""

DATA_FOLDERS = ("docs",)
"""Folders of the checkout the tests read (the guides' examples), linked beside the copy."""

CHECK_COMPILED = """
import sys
from pathlib import Path

from adjudicator import compiled_rules, compiled_sources

checkout, venv = Path(sys.argv[1]), Path(sys.prefix).resolve()
for name in compiled_rules.EXTENSIONS:
    module = compiled_rules.load(name)
    assert module is not None, f"{name}: not built, or not current"
    where = Path(module.__file__).resolve()
    assert where.is_relative_to(venv), f"{name} imported from {where}, not from {venv}"
    files = [checkout / compiled_sources.source(name)]
    files += [checkout / path for path in compiled_sources.built_with(name)]
    assert module.SOURCE_HASH == compiled_sources.digest(files), f"{name}: other sources"
    print(f"  {name}: {where.name}")
from search import _fastbot
from search.generator import SearchRandom

assert _fastbot.draws_in_c(SearchRandom(1)), "search._fastbot draws through the methods"
print("  search._fastbot.draws_in_c(SearchRandom(1)): True")
"""
"""Run by the venv's Python from outside the checkout, with the checkout as argument."""

SUMMARY = re.compile(r"^=*\s*(\d+ (?:passed|failed).*) in [\d.]+s")
"""pytest's last line: the counts."""


@dataclass
class Outcome:
    """What happened to one version."""

    version: str
    python: str = ""
    counts: str = ""
    verdict: str = "not found"
    seconds: float = 0.0

    def line(self) -> str:
        """One line of the summary."""
        where = f" ({self.python})" if self.python else ""
        counts = f": {self.counts}" if self.counts else ""
        return f"Python {self.version}{where}: {self.verdict}{counts} [{self.seconds:.0f} s]"


def find_python(version: str) -> Path | None:
    """An interpreter of ``version`` (``3.X``): pyenv's newest, else one on PATH that runs."""
    pyenv_root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))
    found = sorted(
        pyenv_root.glob(f"versions/{version}.*/bin/python{version}"),
        key=lambda p: [int(x) for x in re.findall(r"\d+", p.parents[1].name)],
    )
    on_path = shutil.which(f"python{version}")
    for candidate in [*reversed(found), *([Path(on_path)] if on_path else [])]:
        done = subprocess.run(
            [str(candidate), "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
            capture_output=True,
            text=True,
        )
        if done.returncode == 0 and done.stdout.strip() == version:
            return candidate
    return None


def run(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> int:
    """Run ``command`` in ``cwd``, its output shown; its exit status."""
    print("+", shlex.join(command), flush=True)
    return subprocess.run(command, cwd=cwd, env=env).returncode


def try_version(version: str, local: Path) -> Outcome:
    """Install and test on ``version``, timed."""
    started = time.monotonic()
    outcome = Outcome(version)
    python = find_python(version)
    if python is not None:
        outcome.python = str(python)
        outcome.verdict = install_and_test(python, local / version)
    outcome.seconds = time.monotonic() - started
    if outcome.verdict == "passed" or "pytest" in outcome.verdict:
        outcome.counts = counts(local / version / "pytest.log")
    return outcome


def counts(log: Path) -> str:
    """The counts of pytest's last line in ``log``."""
    lines = log.read_text().splitlines() if log.exists() else []
    return next((m.group(1) for m in map(SUMMARY.match, reversed(lines)) if m), "")


def install_and_test(python: Path, venv: Path) -> str:
    """Install in ``venv`` (made with ``python`` if need be), check, test; the verdict."""
    bin_dir = venv / "bin"
    if not (bin_dir / "python").exists() and run([str(python), "-m", "venv", str(venv)], ROOT):
        return "FAILED: no venv"
    if run([str(bin_dir / "pip"), "install", "--quiet", ".[test]"], ROOT):
        return "FAILED: the install"
    copy = venv / "run"
    shutil.rmtree(copy, ignore_errors=True)
    copy.mkdir()
    shutil.copytree(ROOT / "tests", copy / "tests", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(ROOT / "pyproject.toml", copy / "pyproject.toml")  # pytest's settings
    for name in DATA_FOLDERS:
        (copy / name).symlink_to(ROOT / name)
    env = {**os.environ, SOURCES_ENV: str(ROOT)}
    env.pop("PYTHONPATH", None)  # the installed package, nothing else
    if run([str(bin_dir / "python"), "-c", CHECK_COMPILED, str(ROOT)], copy, env):
        return "FAILED: the compiled paths are not in use"
    markers = " and ".join(f"not {m}" for m in SERVER_MARKERS)
    log = venv / "pytest.log"
    command = [str(bin_dir / "pytest"), "-q", "-p", "no:cacheprovider", "-m", markers]
    print("+", shlex.join(command + list(TEST_FOLDERS)), f"> {log}", flush=True)
    with log.open("w") as out:
        status = subprocess.run(
            command + list(TEST_FOLDERS), cwd=copy, env=env, stdout=out, stderr=subprocess.STDOUT
        ).returncode
    failures = [
        line for line in log.read_text().splitlines() if line.startswith(("FAILED", "ERROR"))
    ]
    print("\n".join(failures))
    return "passed" if status == 0 else f"FAILED (pytest: see {log})"


def main(argv: list[str] | None = None) -> int:
    """Each version in turn (one at a time: the tests use a core each); the summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("versions", nargs="*", default=list(VERSIONS), help="3.X versions")
    parser.add_argument("--local", type=Path, default=ROOT / ".local" / "pythons")
    args = parser.parse_args(argv)
    args.local.mkdir(parents=True, exist_ok=True)
    outcomes = [try_version(version, args.local) for version in args.versions]
    print(f"\nmake pythons, {time.strftime('%Y-%m-%d %H:%M %Z')}:")
    for outcome in outcomes:
        print("  " + outcome.line())
    tried = [o for o in outcomes if o.python]
    return 0 if tried and all(o.verdict == "passed" for o in tried) else 1


if __name__ == "__main__":
    sys.exit(main())
