"""BANDANA's Java bots (D-Brane 1.1, DumbBot 1.4) as seats of a local game, from the user's jars.

The jars ship in BANDANA's release (its ``agents/`` folder); the project never
carries them.  The user names the folder that holds them with ``--bandana-dir
DIR`` or the environment variable :data:`BANDANA_DIR_ENV`; ``DIR`` may be
BANDANA's ``agents/`` folder itself or the release folder above it.

Each jar is an Eclipse "jar in jar": its libraries are jars inside it, which
its own loader fails to load on Java 9 and later.  :meth:`BandanaInstall.locate`
therefore unpacks the inner jars its manifest lists (``Rsrc-Class-Path``) into
a cache folder (``.local/bandana/``), and the seat runs the manifest's real
main class (``Rsrc-Main-Class``) on the jar and its libraries, with BANDANA's
agent flags::

    java -cp D-Brane-1.1.jar:negoServer-2.1-full.jar:NB3-1.4.jar:DaveDiplomacyUtilities-1.1.jar \
        ddejonge.dBrane_1_1.DBrane_1_1 -log DIR -name NAME -fy YEAR -ip HOST -port PORT
    java -cp DumbBot-1.4.jar:DumbBot-1.3.jar ddejonge.bandana.dumbBot.Dumbbot_1_4 \
        -log DIR -name NAME -fy YEAR -gamePort PORT

BANDANA's DumbBot has no host flag: it always connects to ``localhost``.
D-Brane leaves the game when the server reports a civil disorder (``CCD``),
so one missed deadline at the table changes the game for every D-Brane.
"""

from __future__ import annotations

import os
import shutil
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from bot.toolkit.paths import local_dir

BANDANA_DIR_ENV = "DAIDE_MCTS_BANDANA_DIR"
"""The environment variable naming the folder of BANDANA's jars (``--bandana-dir`` wins)."""

LOCAL_HOSTS = ("127.0.0.1", "localhost")
"""The hosts BANDANA's DumbBot can reach (it has no host flag)."""


@dataclass(frozen=True)
class BandanaBot:
    """One of BANDANA's bots: its jar, and how its command line names the server."""

    jar: str
    description: str
    host_flag: str | None
    port_flag: str


BANDANA_BOTS: Mapping[str, BandanaBot] = {
    "dbrane": BandanaBot("D-Brane-1.1.jar", "D-Brane 1.1 (tactical search)", "-ip", "-port"),
    "dumbbot": BandanaBot("DumbBot-1.4.jar", "DumbBot 1.4 (Java port)", None, "-gamePort"),
}
"""BANDANA's bots by seat name (``bandana:dbrane``, ``bandana:dumbbot``)."""


class BandanaUnavailableError(RuntimeError):
    """BANDANA's bots cannot run here (no folder given, a jar or Java missing); says why."""


def bandana_dir_from(flag: str | Path | None, env: Mapping[str, str] | None = None) -> Path | None:
    """The jar folder: the flag's, else the environment variable's, else None."""
    if flag is not None and str(flag):
        return Path(flag)
    value = (os.environ if env is None else env).get(BANDANA_DIR_ENV, "")
    return Path(value) if value else None


@dataclass(frozen=True)
class Launcher:
    """How to start a jar: its class path (the jar, then its unpacked libraries), its main class."""

    classpath: tuple[Path, ...]
    main: str


def read_manifest(jar: Path) -> dict[str, str]:
    """The main attributes of ``jar``'s manifest (continuation lines joined)."""
    with zipfile.ZipFile(jar) as zf:
        try:
            text = zf.read("META-INF/MANIFEST.MF").decode("utf-8", "replace")
        except KeyError:
            return {}
    fields: dict[str, str] = {}
    key = ""
    for line in text.splitlines():
        if line.startswith(" ") and key:
            fields[key] += line[1:]
        elif ":" in line:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    return fields


def unpack(jar: Path, cache: Path) -> Launcher:
    """Unpack the inner jars of Eclipse's jar-in-jar ``jar`` into ``cache`` (once); its launcher.

    A plain jar (no ``Rsrc-Main-Class``) runs as it is, with its ``Main-Class``.
    Raises :class:`BandanaUnavailableError` for a jar that cannot be read.
    """
    try:
        manifest = read_manifest(jar)
        main = manifest.get("Rsrc-Main-Class") or manifest.get("Main-Class")
        if not main:
            raise BandanaUnavailableError(f"{jar} names no main class in its manifest")
        inner = [n for n in manifest.get("Rsrc-Class-Path", "").split() if n.endswith(".jar")]
        stat = jar.stat()
        folder = cache / f"{jar.stem}-{stat.st_size}-{int(stat.st_mtime)}"
        paths = [folder / name for name in inner]
        if not all(p.is_file() for p in paths):
            folder.mkdir(parents=True, exist_ok=True)
            with zipfile.ZipFile(jar) as zf:
                for name, path in zip(inner, paths, strict=True):
                    partial = path.with_suffix(".part")
                    partial.write_bytes(zf.read(name))
                    partial.replace(path)
    except (OSError, zipfile.BadZipFile, KeyError) as exc:
        raise BandanaUnavailableError(f"cannot unpack {jar}: {exc}") from exc
    return Launcher((jar, *paths), main)


@dataclass(frozen=True)
class BandanaInstall:
    """A folder with BANDANA's jars, the ``java`` that runs them, and how to start each jar."""

    folder: Path
    java: str
    launchers: Mapping[str, Launcher] = field(default_factory=dict)

    @classmethod
    def locate(
        cls,
        folder: Path | None,
        bots: tuple[str, ...],
        java: str | None = None,
        cache: Path | None = None,
    ) -> BandanaInstall:
        """The install for ``bots`` in ``folder`` (or its ``agents/``); raise if unusable.

        ``java`` defaults to the ``java`` on the PATH; the inner jars are
        unpacked into ``cache`` (default ``.local/bandana``).  Raises
        :class:`BandanaUnavailableError` naming what is missing.
        """
        needed = ", ".join(BANDANA_BOTS[b].jar for b in dict.fromkeys(bots))
        if folder is None:
            raise BandanaUnavailableError(
                f"BANDANA's bots need their jars ({needed}, from the agents/ folder of "
                f"BANDANA's release): give --bandana-dir DIR or set {BANDANA_DIR_ENV}"
            )
        if not folder.is_dir():
            raise BandanaUnavailableError(f"BANDANA folder {folder} is not a folder")
        found = folder
        for bot in bots:
            jar = BANDANA_BOTS[bot].jar
            if not (found / jar).is_file():
                if (folder / "agents" / jar).is_file():
                    found = folder / "agents"
                else:
                    raise BandanaUnavailableError(
                        f"{jar} is not in {folder} (nor in {folder / 'agents'})"
                    )
        program = java or shutil.which("java")
        if program is None:
            raise BandanaUnavailableError("BANDANA's bots need Java: no `java` on the PATH")
        found = found.resolve()
        unpacked = cache if cache is not None else local_dir() / "bandana"
        launchers = {
            bot: unpack(found / BANDANA_BOTS[bot].jar, unpacked) for bot in dict.fromkeys(bots)
        }
        return cls(found, program, launchers)

    def jar(self, bot: str) -> Path:
        """The path of ``bot``'s jar."""
        return self.folder / BANDANA_BOTS[bot].jar

    def command(
        self, bot: str, host: str, port: int, *, name: str, log_dir: Path, final_year: int
    ) -> list[str]:
        """The argv that plays ``bot`` as ``name`` on ``host:port``, logging into ``log_dir``.

        ValueError for a host the bot cannot reach (BANDANA's DumbBot: not this machine).
        """
        spec = BANDANA_BOTS[bot]
        launcher = self.launchers.get(bot)
        if launcher is None:
            raise ValueError(f"BANDANA's {bot} was not located (BandanaInstall.locate)")
        classpath = os.pathsep.join(str(p) for p in launcher.classpath)
        log = str(log_dir.resolve())
        argv = [self.java, "-cp", classpath, launcher.main, "-log", log, "-name", name]
        argv += ["-fy", str(final_year)]
        if spec.host_flag is not None:
            argv += [spec.host_flag, host]
        elif host not in LOCAL_HOSTS:
            raise ValueError(f"BANDANA's {bot} only connects to localhost, not {host}")
        return [*argv, spec.port_flag, str(port)]
