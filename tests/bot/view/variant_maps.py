"""Variant maps for the tests: what Parlance sends when a game starts on three of parterre's maps.

Parterre (Parlance's variants, on PyPI, under a non-commercial licence) is
not committed here.  Its map files are taken from the Parlance install if
the setup put parterre there, else downloaded once (``pip download``, by
Parlance's Python 2.7) into the project-local folder; then Parlance itself
(``parlance.gameboard.Variant``) turns each into the token table (RM), the
``MDF``, the ``SCO`` and the ``NOW`` it sends when a game starts, so the
tests see exactly the messages a server on that variant would send.
"""

from __future__ import annotations

import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bot.servers.parlance_install import ParlanceInstall
from bot.toolkit.paths import local_dir
from protocol.messages import Mdf, Now, Sco, parse_text
from protocol.tokens import TokenTable, is_power, is_province
from protocol.values import MapDefinition

PARTERRE = "parterre==1.4.1"
VARIANTS = ("sailho", "hundred3", "world3")
"""Three maps of different shapes: 4 powers and 60 provinces, 3 powers (shared homes), 17 powers."""

PIP_TIMEOUT = 300.0
PARLANCE_TIMEOUT = 60.0

# Run by Parlance's Python 2.7: the variant's token table, then its MDF, SCO and NOW.
_DUMP = """
import sys
from parlance.gameboard import Variant
variant = Variant(sys.argv[1], filename=sys.argv[2])
variant.rep = variant.tokens()
for token in sorted(variant.rep.numbers.values(), key=lambda t: t.number):
    print "RM %04X %s" % (token.number, token.text)
print str(variant.mdf())
print str(variant.sco())
print str(variant.now())
"""


@dataclass(frozen=True)
class VariantStart:
    """A variant's token table and the MDF, SCO and NOW a server sends at the start."""

    name: str
    table: TokenTable
    mdf: str
    sco: str
    now: str

    @property
    def definition(self) -> MapDefinition:
        """The map, as the bot reads the MDF."""
        message = parse_text(self.mdf, self.table)
        assert isinstance(message, Mdf) and message.definition is not None
        return message.definition

    def now_message(self) -> Now:
        """The first phase's units."""
        message = parse_text(self.now, self.table)
        assert isinstance(message, Now)
        return message

    def sco_message(self) -> Sco:
        """The first owners of the centres."""
        message = parse_text(self.sco, self.table)
        assert isinstance(message, Sco)
        return message


def parterre_data(install: ParlanceInstall) -> Path:
    """The folder of parterre's map files (``NAME.cfg``): installed, or downloaded once."""
    installed = install.site / "parterre" / "data"
    if installed.is_dir():
        return installed
    folder = local_dir() / "parterre" / "data"
    if any(folder.glob("*.cfg")):
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="parterre-") as tmp:
        argv = [str(install.python2), "-m", "pip", "download", "--quiet", "--no-deps"]
        argv += ["--disable-pip-version-check", "--dest", tmp, PARTERRE]
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=PIP_TIMEOUT)
        assert proc.returncode == 0, f"pip could not download {PARTERRE}: {proc.stderr[-2000:]}"
        (archive,) = Path(tmp).glob("*.tar.gz")
        with tarfile.open(archive) as tar:
            for member in tar.getmembers():
                path = Path(member.name)
                if member.isfile() and path.parent.name == "data" and path.suffix == ".cfg":
                    source = tar.extractfile(member)
                    assert source is not None
                    (folder / path.name).write_bytes(source.read())
    return folder


def variant_start(install: ParlanceInstall, name: str) -> VariantStart:
    """What Parlance sends at the start of a game on the variant ``name``."""
    cfg = parterre_data(install) / f"{name}.cfg"
    with tempfile.TemporaryDirectory(prefix="parlance-home-") as home:
        proc = subprocess.run(
            [str(install.python2), "-c", _DUMP, name, str(cfg)],
            capture_output=True,
            text=True,
            env=install.env(Path(home)),
            timeout=PARLANCE_TIMEOUT,
        )
    assert proc.returncode == 0, f"Parlance could not read {cfg}: {proc.stderr[-2000:]}"
    lines = proc.stdout.splitlines()
    entries = {}
    for line in lines:
        if line.startswith("RM "):
            _, number, text = line.split()
            if is_power(int(number, 16)) or is_province(int(number, 16)):
                entries[int(number, 16)] = text
    messages = {line.split(" ", 1)[0]: line for line in lines if not line.startswith("RM ")}
    table = TokenTable(entries)
    return VariantStart(name, table, messages["MDF"], messages["SCO"], messages["NOW"])


def write_variant_run(folder: Path, start: VariantStart) -> None:
    """A run folder whose game is the start of ``start``'s variant (MDF, SCO and NOW)."""
    folder.mkdir(parents=True, exist_ok=True)
    clock = 1_800_000_000.0
    lines = []
    for text in ("HLO ( UNO ) ( 0 ) ( ( LVL 0 ) ( MTL 5 ) )", start.mdf, start.sco, start.now):
        clock += 0.01
        lines.append(f"{clock:.3f} observer in {text}")
    (folder / "messages.daide").write_text("\n".join(lines) + "\n")
