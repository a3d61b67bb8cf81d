"""``daide-mcts bench search``'s arguments: variants with overrides are accepted, others refused."""

from __future__ import annotations

import pytest

from bot.lab.bench.bench_search import _known, main


@pytest.mark.parametrize("variant", ["dm", "v8", "dm/model=policy:enemies", "dm/cp=0.1"])
def test_variants_with_overrides_are_known(variant: str) -> None:
    assert _known(variant)


@pytest.mark.parametrize("variant", ["dx", "dm/nope=1", "dm/model=absent", "dm/model=policy:x"])
def test_unknown_variants_and_bad_overrides_are_refused(
    variant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert not _known(variant)
    with pytest.raises(SystemExit):
        main(["--variants", variant, "--seconds", "0.1", "--repeats", "1"])
    assert "choose variants among" in capsys.readouterr().err
