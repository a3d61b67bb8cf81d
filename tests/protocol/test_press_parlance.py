"""Our press levels against Parlance's own syntax checker, which reads the syntax document.

Parlance's ``Validator`` builds its grammar from ``parlance/data/syntax.html``
(the document this module's levels follow) and answers a message with
``False`` (valid) or the ``HUH`` it would send.  Every press form of
``test_press_reader`` (but the three Parlance's document does not have: ``CCL``,
``NAR``, and ``FCT`` below level 60), sent as ``SND (FRA) (press)`` at each
level, must get the same verdict from Parlance as from :func:`parse_press`,
with ``ERR`` at the same token when both refuse it.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from bot.servers.parlance_install import ParlanceInstall
from protocol.daide_errors import LanguageError
from protocol.expression import tokenize
from protocol.press_reader import parse_press
from protocol.tokens import ERR, STANDARD
from tests.protocol.test_press_reader import FORMS, HIGHER, LEVELS, MALFORMED, NESTED

pytestmark = [pytest.mark.parlance, pytest.mark.timeout(120)]

T = STANDARD
DAIDE_ONLY = ("CCL", "NAR", "FCT")
"""Tokens of the later DAIDE document that Parlance's syntax lacks (or has at level 60)."""
SND_HEAD = tokenize("SND ( FRA ) (", T)
"""What stands before the press in the SND that Parlance checks."""

CHECKER = """
import sys
from parlance.language import protocol
from parlance.validation import Validator
rep = protocol.default_rep
for line in sys.stdin:
    level, text = line.rstrip("\\n").split("\\t")
    verdict = Validator(int(level)).validate_client_message(rep.translate(text))
    print("OK" if verdict is False else str(verdict))
"""


def _examples() -> list[str]:
    texts = [example.replace("!", "") for _, example, _ in FORMS]
    texts += [NESTED] + [example for example, _, _ in MALFORMED if example]
    return [text for text in texts if not any(name in text.split() for name in DAIDE_ONLY)]


def _parlance(install: ParlanceInstall, home: Path, lines: list[str]) -> list[str]:
    script = home / "check.py"
    script.write_text(CHECKER)
    result = subprocess.run(
        [str(install.python2), str(script)],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        env=install.env(home),
        timeout=100,
        check=True,
    )
    return result.stdout.splitlines()


def _ours(text: str, level: int) -> int | None:
    """None if we read the press at ``level``, else where ERR goes in it."""
    try:
        parse_press(tokenize(text, T), level, T)
    except LanguageError as error:
        return 0 if error.index is None else error.index
    return None


def test_parlance_s_checker_agrees_on_forms_above_30_below_their_level(
    parlance_install: ParlanceInstall, tmp_path: Path
) -> None:
    """Below its level, a form we do not speak is refused by both at the same token."""
    cases = [
        (example.replace("!", ""), level)
        for example, needs in HIGHER
        if "'" not in example
        for level in LEVELS
        if 0 < level < needs
    ]
    lines = [f"{level}\tSND ( FRA ) ( {text} )" for text, level in cases]
    verdicts = _parlance(parlance_install, tmp_path, lines)
    for (text, level), verdict in zip(cases, verdicts, strict=True):
        assert verdict != "OK", (text, level)
        assert tokenize(verdict, T).index(ERR) - 2 - len(SND_HEAD) == _ours(text, level)


def test_parlance_s_checker_agrees_on_every_form_and_level(
    parlance_install: ParlanceInstall, tmp_path: Path
) -> None:
    cases = [(text, level) for text in _examples() for level in LEVELS]
    lines = [f"{level}\tSND ( FRA ) ( {text} )" for text, level in cases]
    verdicts = _parlance(parlance_install, tmp_path, lines)
    assert len(verdicts) == len(cases)
    disagreements = []
    for (text, level), verdict in zip(cases, verdicts, strict=True):
        ours = _ours(text, level)
        if verdict == "OK":
            theirs = None
        else:
            huh = tokenize(verdict, T)
            # HUH ( SND ( FRA ) ( ... ERR ... ) ): at level 0, ERR SND (no press at all)
            theirs = max(0, huh.index(ERR) - 2 - len(SND_HEAD))
        if ours != theirs:
            disagreements.append(f"level {level}: {text}: ours {ours}, Parlance {verdict}")
    assert disagreements == [], "\n".join(disagreements)
