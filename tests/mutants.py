"""``make mutants``: mutation testing (mutmut) of the client core, the human seat, the adjudicator.

Each package of :data:`PACKAGES` is mutated on its own, against its own fast tests, in
its own work folder ``mutants/<package>/`` (git-ignored):

* the folder holds links to the checkout's packages, ``tests/`` and ``docs/``, and a
  ``pyproject.toml``: the checkout's, with a ``[tool.mutmut]`` table for that package
  (mutmut reads its settings from the folder it runs in); mutmut copies them into its
  own ``mutants/`` there, the compiled modules (``*.so``) with them, and mutates only
  that package;
* the tests are the package's folder of ``tests/`` without the tests that start a
  server, a browser or a cluster (:data:`SERVER_MARKERS`) or play whole games, nor
  the files that start Parlance without a marker (:attr:`Package.left_out`);
* the adjudicator's mutants run in pure Python (``DAIDE_MCTS_PURE_PYTHON=1``): its
  compiled twins would otherwise run in place of the mutated Python;
* the property tests (hypothesis) draw at most :data:`MUTATION_EXAMPLES` examples
  (tests/examples.py), their explicit cases in full;
* ``.local`` (Parlance and the other installed peers) stays the checkout's.

mutmut keeps its results in the work folder: a second run tests only the mutants of
functions that changed since (``rm -rf mutants/`` starts afresh); ``--again`` tests the
package's survivors (and the mutants no test ran) again, after new tests.  One line per
package at the end: its mutants, killed, survived, timed out, suspicious, without a
test, and the score, mutmut's (killed and timed out, of the mutants not skipped).

Usage: ``python tests/mutants.py [--jobs N] [--again] [PACKAGE ...]``; standard library
and mutmut only.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
"""The checkout."""

WORK = ROOT / "mutants"
"""The work folders, one per package (git-ignored)."""

LINKED = ("protocol", "adjudicator", "search", "bot", "tests", "docs")
"""What the work folder links to: the packages imported, the tests, the docs they read."""

SOURCES = ("protocol", "adjudicator", "search", "bot")
"""The packages mutmut copies (all importable from its copy); it mutates one of them."""

SERVER_MARKERS = ("parlance", "mila", "mqtt", "browser", "ray", "slow")
"""pytest markers (pyproject.toml) of tests left out: servers, browsers, clusters, games."""

PURE_PYTHON_ENV = "DAIDE_MCTS_PURE_PYTHON"
"""Set to 1: pure Python runs where compiled code exists (adjudicator.compiled_rules)."""

AGAIN = (": survived", ": no tests")
"""``mutmut results`` lines of the mutants ``--again`` tests again."""

MUTATION_EXAMPLES_ENV = "DAIDE_MCTS_MUTATION_EXAMPLES"
"""tests/examples.py's variable (this script imports nothing of the checkout's)."""

MUTATION_EXAMPLES = 20
"""The most examples a property test draws under mutation (tests/examples.py)."""

LOCAL_ENV = "DAIDE_MCTS_LOCAL"
"""The installed peers' folder (bot.toolkit.paths.local_dir): the checkout's ``.local``."""


@dataclass(frozen=True)
class Package:
    """A package mutated, the tests that judge its mutants, and how they run."""

    path: str
    tests: tuple[str, ...]
    pure_python: bool = False
    left_out: tuple[str, ...] = ()
    """Test files left out: they start a server without a marker saying so."""

    @property
    def folder(self) -> Path:
        """Its work folder."""
        return WORK / self.path.replace("/", ".")

    def settings(self) -> str:
        """The ``[tool.mutmut]`` table of its run."""
        selection = [*self.tests, *(f"--ignore={path}" for path in self.left_out)]
        selection += ["-m", " and ".join(f"not {m}" for m in SERVER_MARKERS)]
        table = {
            "source_paths": list(SOURCES),
            "only_mutate": [f"{self.path}/*"],
            "also_copy": ["docs"],
            "pytest_add_cli_args_test_selection": selection,
            "pytest_add_cli_args": ["-p", "no:cacheprovider"],
        }
        return "[tool.mutmut]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in table.items())


PACKAGES = {
    p.path: p
    for p in (
        Package("bot/client/core", ("tests/bot/client/core",)),
        Package("bot/human", ("tests/bot/human",)),
        Package(
            "adjudicator",
            ("tests/adjudicator",),
            pure_python=True,
            left_out=(
                "tests/adjudicator/test_datc_table_against_parlance.py",
                "tests/adjudicator/test_random_vs_parlance.py",
            ),
        ),
    )
}
"""The packages mutated, by path."""


@dataclass
class Score:
    """mutmut's counts of one package's mutants."""

    total: int = 0
    killed: int = 0
    survived: int = 0
    timeout: int = 0
    suspicious: int = 0
    no_tests: int = 0
    skipped: int = 0

    @property
    def score(self) -> float:
        """Killed or timed out, of the mutants not skipped (mutmut's badge), in percent."""
        tested = self.total - self.skipped
        return 100.0 * (self.killed + self.timeout) / tested if tested else 0.0

    def line(self, path: str) -> str:
        """One line of the summary."""
        return (
            f"{path:<16} mutants {self.total:>5}  killed {self.killed:>5}  survived "
            f"{self.survived:>4}  timeout {self.timeout:>3}  suspicious {self.suspicious:>3}  "
            f"no tests {self.no_tests:>4}  score {self.score:5.1f}%"
        )

    @classmethod
    def of(cls, counts: dict[str, int]) -> Score:
        """From mutmut's ``mutmut-cicd-stats.json``."""
        return cls(**{k: int(counts.get(k, 0)) for k in cls.__dataclass_fields__})


def prepare(package: Package) -> None:
    """Its work folder: the links and the ``pyproject.toml`` with its settings."""
    package.folder.mkdir(parents=True, exist_ok=True)
    for name in LINKED:
        link = package.folder / name
        if not link.is_symlink():
            link.symlink_to(ROOT / name, target_is_directory=True)
    settings = (ROOT / "pyproject.toml").read_text() + "\n" + package.settings()
    target = package.folder / "pyproject.toml"
    if not target.exists() or target.read_text() != settings:
        target.write_text(settings)


def mutmut(package: Package, *args: str) -> subprocess.CompletedProcess[str]:
    """``mutmut ARGS`` in the package's work folder, its output shown unless captured."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env[LOCAL_ENV] = str((ROOT / ".local").resolve())
    env[MUTATION_EXAMPLES_ENV] = str(MUTATION_EXAMPLES)
    if package.pure_python:
        env[PURE_PYTHON_ENV] = "1"
    capture = args[0] in ("results", "export-cicd-stats")
    command = [sys.executable, "-m", "mutmut", *args]
    print("+", package.path, ":", " ".join(command[1:]), flush=True)
    return subprocess.run(command, cwd=package.folder, env=env, text=True, capture_output=capture)


def survivors(package: Package) -> list[str]:
    """The names of the package's mutants that survived its last run, or that no test ran."""
    listed = mutmut(package, "results").stdout.splitlines()
    return [line.split(":")[0].strip() for line in listed if line.endswith(AGAIN)]


def score(package: Package) -> Score | None:
    """The package's counts after its run, or None if it has none."""
    mutmut(package, "export-cicd-stats")
    stats = package.folder / "mutants" / "mutmut-cicd-stats.json"
    return Score.of(json.loads(stats.read_text())) if stats.exists() else None


def main(argv: list[str] | None = None) -> int:
    """Mutate each package asked for (all by default); the summary; 1 if a run failed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("packages", nargs="*", metavar="PACKAGE", help=", ".join(PACKAGES))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="mutants at once")
    parser.add_argument("--again", action="store_true", help="test the survivors again")
    options = parser.parse_args(argv)
    unknown = [p for p in options.packages if p not in PACKAGES]
    if unknown:
        parser.error(f"not a package mutated here: {', '.join(unknown)}")
    failed = False
    lines = []
    for path in options.packages or list(PACKAGES):
        package = PACKAGES[path]
        prepare(package)
        names = survivors(package) if options.again else []
        if options.again and not names:
            print(f"{path}: no survivors to test again")
        else:
            done = mutmut(package, "run", "--max-children", str(options.jobs), *names)
            failed = failed or done.returncode != 0
        counts = score(package)
        lines.append(counts.line(path) if counts else f"{path:<16} no results")
    print()
    print("\n".join(lines))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
