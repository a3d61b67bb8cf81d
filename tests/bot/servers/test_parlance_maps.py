"""The maps a Parlance install serves, read from its map files (bot.servers.parlance_maps)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.servers.parlance_install import ParlanceInstall
from bot.servers.parlance_maps import (
    MAX_MAP_FILE,
    MapNotServedError,
    read_map_file,
    served_map,
    served_maps,
)
from tests.bot.test_parlance_variants import VARIANTS


def test_the_install_serves_the_standard_map_and_parterres_variants(
    parlance_install: ParlanceInstall,
) -> None:
    maps = served_maps(parlance_install)
    assert next(iter(maps)) == "standard"
    assert {name: (m.first_year, len(m.powers)) for name, m in maps.items()} == VARIANTS
    assert maps["standard"].powers == ("AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR")
    assert maps["fleet_rome"].powers == maps["standard"].powers  # from its base map
    assert maps["hundred3"].year_after(2) == 1426


def test_an_unknown_map_names_the_maps_there_are(parlance_install: ParlanceInstall) -> None:
    with pytest.raises(MapNotServedError, match=r"no map called 'atlantis'; .*world3"):
        served_map(parlance_install, "atlantis")


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("not a map file at all", "not a map file"),
        ("[variant]\nname=x\n", "not a map file"),
        ("[variant]\nname=x\nstart=SPR nineteen\n[powers]\nAAA=A\n", "not a map file"),
        ("[variant]\nname=x\nstart=SPR 1901\n[powers]\nUNO=nobody\n", "no powers"),
        ("\x00\x01[variant", "not a map file"),
    ],
)
def test_a_bad_map_file_is_a_typed_error(tmp_path: Path, text: str, error: str) -> None:
    path = tmp_path / "bad.cfg"
    path.write_text(text, encoding="latin-1")
    with pytest.raises(MapNotServedError, match=error):
        read_map_file(path)


def test_a_huge_map_file_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "huge.cfg"
    path.write_bytes(b"#" * (MAX_MAP_FILE + 1))
    with pytest.raises(MapNotServedError, match="larger than"):
        read_map_file(path)
