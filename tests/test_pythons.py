"""``make pythons`` (tests/pythons.py): what it leaves out, and how it reads pytest's counts."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from tests import pythons

ROOT = Path(__file__).resolve().parents[1]


def test_it_leaves_out_every_marker_of_a_server_and_nothing_else() -> None:
    """A new marker is either a server's (then left out) or not: this says which."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    markers = {m.split(":")[0] for m in config["tool"]["pytest"]["ini_options"]["markers"]}
    assert set(pythons.SERVER_MARKERS) == markers - {"slow"}


def test_its_versions_are_the_classifiers() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    prefix = "Programming Language :: Python :: "
    classifiers = config["project"]["classifiers"]
    versions = [c.removeprefix(prefix) for c in classifiers if c.startswith(prefix + "3.")]
    assert tuple(versions) == pythons.VERSIONS


@pytest.mark.parametrize(
    ("lines", "counts"),
    [
        (["....", "5 failed, 2665 passed, 1 deselected in 336.09s (0:05:36)"],
         "5 failed, 2665 passed, 1 deselected"),
        (["== 12 passed, 1 xfailed in 3.50s =="], "12 passed, 1 xfailed"),
        (["ERROR collecting tests/x.py", "!! Interrupted: 1 error during collection !!"], ""),
        ([], ""),
    ],
)  # fmt: skip
def test_the_counts_are_read_from_pytests_last_line(
    tmp_path: Path, lines: list[str], counts: str
) -> None:
    log = tmp_path / "pytest.log"
    log.write_text("\n".join(lines) + "\n")
    assert pythons.counts(log) == counts


def test_a_version_that_is_not_installed_is_not_found() -> None:
    assert pythons.find_python("3.1") is None
