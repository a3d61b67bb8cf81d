"""The maps a Parlance install serves: its own standard map and Parterre's variants.

Each map is a ``.cfg`` file (Parlance's ``parlance/data``, Parterre's
``parterre/data``): its ``[variant]`` section names it and its first turn, its
``[powers]`` section its powers.  The tools read them to set a local game up on
any map (how many seats, which years); the bots themselves learn the map from
the server (``MAP``, ``MDF``), never from these files.
"""

from __future__ import annotations

import configparser
from dataclasses import dataclass
from pathlib import Path

from bot.servers.parlance_install import ParlanceInstall

MAP_FOLDERS = ("parlance/data", "parterre/data")
"""Where an install keeps its map files, relative to its package folder."""

POWER_SECTIONS = ("powers", "positions", "ownership", "homes")
"""The sections of a map file whose keys are powers (a variant may give only some)."""

MAX_MAP_FILE = 1 << 20
"""The largest map file read (the largest of Parterre's is under 40 KB)."""


class MapNotServedError(ValueError):
    """A map the install does not serve, or whose file cannot be read; the message says which."""


@dataclass(frozen=True, slots=True)
class ServedMap:
    """One map a Parlance install serves: its name, first year and powers (token order)."""

    name: str
    first_year: int
    powers: tuple[str, ...]
    description: str = ""

    def year_after(self, years: int) -> int:
        """The last year of a game that plays ``years`` years from the start."""
        return self.first_year + years - 1


def read_map_file(path: Path) -> ServedMap:
    """The map a ``.cfg`` file defines; MapNotServedError if it is not a readable map file."""
    try:
        if path.stat().st_size > MAX_MAP_FILE:
            raise MapNotServedError(f"{path}: larger than {MAX_MAP_FILE} bytes")
        parser = configparser.ConfigParser(interpolation=None, strict=False)
        parser.optionxform = str  # type: ignore[assignment,method-assign]
        parser.read_string(path.read_text(encoding="latin-1"), source=str(path))
        variant = parser["variant"]
        _season, year = variant["start"].split()
        names = {
            key.upper()
            for section in POWER_SECTIONS
            if parser.has_section(section)
            for key in parser[section]
        } - {"UNO"}
        base = variant.get("base")
        if not names and base:
            return ServedMap(
                variant["name"], int(year), read_map_file(path.with_name(f"{base}.cfg")).powers
            )
        if not names:
            raise MapNotServedError(f"{path}: no powers")
        return ServedMap(
            variant["name"], int(year), tuple(sorted(names)), variant.get("description", "")
        )
    except (OSError, configparser.Error, KeyError, ValueError) as exc:
        if isinstance(exc, MapNotServedError):
            raise
        raise MapNotServedError(f"{path}: not a map file Parlance reads ({exc})") from None


def served_maps(install: ParlanceInstall) -> dict[str, ServedMap]:
    """Every map ``install`` serves, by name (``standard`` first, then alphabetically)."""
    found: dict[str, ServedMap] = {}
    for folder in MAP_FOLDERS:
        for path in sorted((install.site / folder).glob("*.cfg")):
            served = read_map_file(path)
            found[served.name] = served
    return dict(sorted(found.items(), key=lambda item: (item[0] != "standard", item[0])))


def served_map(install: ParlanceInstall, name: str) -> ServedMap:
    """The map called ``name``; MapNotServedError naming the maps there are if there is none."""
    maps = served_maps(install)
    if name not in maps:
        raise MapNotServedError(f"no map called {name!r}; Parlance serves {', '.join(maps)}")
    return maps[name]
