"""The code identity of a node: its sources (Python and Cython) and its dependencies' versions."""

from __future__ import annotations

import importlib.metadata
import shutil
from pathlib import Path

import pytest

from bot.cluster.identity import (
    NOT_INSTALLED,
    PACKAGES,
    Build,
    code_hash,
    dependency_versions,
    fingerprint,
    project_dependencies,
    source_files,
)

ROOT = Path(__file__).resolve().parents[3]
COMPILED_SOURCES = (
    "adjudicator/_fastmove.pyx",
    "adjudicator/_resolver.pyx",
    "adjudicator/_resolver.pxd",
    "adjudicator/_fastlegal.pyx",
    "search/_fastbot.pyx",
    "search/_valuation.pxd",
    "search/db_levels.h",
)


def _copy_of_the_sources(tmp_path: Path) -> Path:
    """The four packages copied, as another node's checkout would hold them."""
    copy = tmp_path / "checkout"
    for package in PACKAGES:
        shutil.copytree(
            ROOT / package,
            copy / package,
            ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.c", "build"),
        )
    return copy


def _fake_distribution(folder: Path, name: str, version: str) -> None:
    """An installed-looking distribution ``name`` of ``version`` in ``folder`` (metadata only)."""
    info = folder / f"{name}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")


def test_the_cython_sources_are_part_of_the_code() -> None:
    files = {path.relative_to(ROOT).as_posix() for path in source_files(ROOT)}
    assert set(COMPILED_SOURCES) <= files
    assert "bot/cluster/identity.py" in files


@pytest.mark.parametrize("source", COMPILED_SOURCES)
def test_changing_a_cython_source_changes_the_identity(tmp_path: Path, source: str) -> None:
    deps = dependency_versions(project_dependencies())
    copy = _copy_of_the_sources(tmp_path)
    assert fingerprint(copy, deps) == fingerprint(ROOT, deps) == code_hash()
    pyx = copy / source
    pyx.write_text(pyx.read_text() + "\n# another build\n")
    assert fingerprint(copy, deps) != code_hash()


def test_the_dependencies_are_the_projects_with_their_installed_versions() -> None:
    names = project_dependencies()
    assert {"psutil", "pydantic", "construct", "structlog"} <= set(names)
    assert "ray" not in names  # an optional extra, not what the bots run with
    versions = dependency_versions(names)
    assert versions["psutil"] == importlib.metadata.version("psutil")
    assert NOT_INSTALLED not in versions.values()


def test_another_installed_version_of_a_dependency_changes_the_identity(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    here = code_hash()
    _fake_distribution(tmp_path / "site", "psutil", "0.0.1")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))  # found before the real one
    versions = dependency_versions(project_dependencies())
    assert versions["psutil"] == "0.0.1"
    assert fingerprint(ROOT, versions) != here
    assert code_hash.__wrapped__() != here


def test_a_missing_dependency_is_recorded_as_such() -> None:
    assert dependency_versions(["no-such-distribution-here"]) == {
        "no-such-distribution-here": NOT_INSTALLED
    }


def test_a_node_with_other_code_is_told_what_may_differ() -> None:
    here = Build("0.2.0", "aaaaaaaaaaaa", "3.11.9")
    there = Build("0.2.0", "bbbbbbbbbbbb", "3.11.4")
    assert here.difference(there) == (
        "daide-mcts code bbbbbbbbbbbb there, aaaaaaaaaaaa here (both 0.2.0; "
        "the sources or the dependencies' versions differ)"
    )
    assert here.difference(Build("0.2.0", "aaaaaaaaaaaa", "3.11.4")) is None
