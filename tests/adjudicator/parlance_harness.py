"""Running phases through Parlance's own judge (``parlance_judge.py``), and comparing answers.

Shared by the DATC-table check and the randomized engine-versus-Parlance test.
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
from pathlib import Path

import pytest

from bot.servers.parlance_install import ParlanceInstall

HARNESS = Path(__file__).with_name("parlance_judge.py")


def run_cases(parlance_install: ParlanceInstall, cases: list[dict]) -> dict[str, dict]:
    """Each case (the harness's JSON form) adjudicated by Parlance, by case id.

    Fails the calling test, saying why, if the judge cannot be run.
    """
    stdin = "".join(json.dumps(case) + "\n" for case in cases)
    with tempfile.TemporaryDirectory(prefix="parlance-judge-") as home:
        try:
            proc = subprocess.run(
                [str(parlance_install.python2), str(HARNESS)],
                input=stdin,
                capture_output=True,
                text=True,
                env=parlance_install.env(Path(home)),
                cwd=home,
                timeout=900,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            pytest.fail(f"Parlance's judge could not be run: {exc}")
    if proc.returncode != 0:
        pytest.fail(f"parlance_judge.py failed ({proc.returncode}):\n{proc.stderr[-4000:]}")
    results = {}
    for line in proc.stdout.splitlines():
        if line.strip():
            row = json.loads(line)
            results[row["id"]] = row
    missing = [case["id"] for case in cases if case["id"] not in results]
    if missing:
        pytest.fail(f"parlance_judge.py gave no answer for {missing}:\n{proc.stderr[-4000:]}")
    return results


def daide(text: str) -> str:
    """Canonical DAIDE spelling: ``( ( ENG FLT NTH ) MTO PIC )`` -> ``((ENG FLT NTH) MTO PIC)``."""
    tokens = re.findall(r"[()]|[^\s()]+", text)
    out = " ".join(tokens)
    return out.replace("( ", "(").replace(" )", ")")


def unit_key(text: str) -> str:
    """A NOW unit with its MRT list sorted, so retreat options compare in any order."""
    text = daide(text)
    match = re.fullmatch(r"(.*) MRT \((.*)\)", text)
    if not match:
        return text
    options = re.findall(r"\([^()]*\)|[^\s()]+", match.group(2))
    return f"{match.group(1)} MRT ({' '.join(sorted(options))})"


def centres(text: str) -> dict[str, frozenset[str]]:
    """SCO body -> power -> centres (powers without centres left out)."""
    body = daide(text)
    if body.startswith("SCO "):
        body = body[4:]
    table: dict[str, frozenset[str]] = {}
    for group in re.findall(r"\(([^()]*)\)", body):
        power, *provinces = group.split()
        if provinces:
            table[power] = frozenset(provinces)
    return table
