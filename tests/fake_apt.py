"""A stand-in for ``apt-get`` and ``apt-cache`` on PATH, for states a test cannot make real.

A package index that fails to download (a mirror in the middle of a sync, a
foreign architecture's index that is gone) cannot be arranged on a real
machine without changing its apt configuration, and the set-up steps install
packages as root.  :class:`FakeApt` writes an ``apt-get`` (and ``apt-cache``)
into a folder to put first on PATH: ``update`` answers as apt does in the
chosen state (exit 100 with apt's "Failed to fetch" lines for an i386
index), ``install`` puts small programs for the packages it knows into the
same folder, ``download`` writes ``.deb`` names, ``apt-cache depends`` lists
dependencies; the packages are known only once the lists were refreshed,
unless the lists are there from the start.  Every call is logged.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

UpdateState = Literal["ok", "partial", "down"]

# What apt 2.6 prints when one index (here a foreign architecture's) cannot be fetched.
PARTIAL_UPDATE_OUT = """\
Hit:1 http://deb.debian.org/debian bookworm InRelease
Get:2 http://deb.debian.org/debian bookworm-updates InRelease [55.4 kB]
Get:3 http://deb.debian.org/debian bookworm/main amd64 Packages [8,789 kB]
Err:4 http://deb.debian.org/debian bookworm/main i386 Packages
  404  Not Found [IP: 151.101.194.132 80]
Fetched 8,845 kB in 2s (4,123 kB/s)
Reading package lists...
"""
PARTIAL_UPDATE_ERR = """\
W: Failed to fetch http://deb.debian.org/debian/dists/bookworm/main/binary-i386/Packages  404  Not Found [IP: 151.101.194.132 80]
W: Some index files failed to download. They have been ignored, or old ones used instead.
E: Some index files failed to download. They have been ignored, or old ones used instead.
"""  # noqa: E501 (apt's lines as apt prints them)
DOWN_UPDATE_ERR = """\
W: Failed to fetch http://deb.debian.org/debian/dists/bookworm/InRelease  Temporary failure resolving 'deb.debian.org'
W: Failed to fetch http://deb.debian.org/debian/dists/bookworm-updates/InRelease  Temporary failure resolving 'deb.debian.org'
W: Some index files failed to download. They have been ignored, or old ones used instead.
"""  # noqa: E501

_SCRIPT = """#!{python}
import json, os, sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
config = json.loads((HERE / "fake-apt.json").read_text())
tool, args = Path(sys.argv[0]).name, sys.argv[1:]
with open(HERE / "calls.jsonl", "a") as log:
    log.write(json.dumps([tool, *args]) + "\\n")
refreshed = HERE / "lists-refreshed"
known = config["packages"] if (refreshed.exists() or config["lists"]) else {{}}
options = dict(v.split("=", 1) for o, v in zip(args, args[1:]) if o == "-o" and "=" in v)
words = [a for i, a in enumerate(args) if not a.startswith("-") and args[i - 1 : i] != ["-o"]]
command, names = (words[0], words[1:]) if words else ("", [])


def unknown(name):
    sys.stderr.write(f"E: Unable to locate package {{name}}\\n")
    sys.exit(100)


if tool == "apt-get" and command == "update":
    refreshed.touch()
    state = config["update"]
    if state == "ok":
        print("Hit:1 http://deb.debian.org/debian bookworm InRelease")
        sys.exit(0)
    sys.stdout.write(config["update_out"])
    sys.stderr.write(config["update_err_" + state])
    sys.exit(100)
if tool == "apt-get" and command == "install":
    parts = options.get("Dir::Etc::SourceParts")
    if parts:
        seen = {{p.name: p.read_text() for p in sorted(Path(parts).iterdir())}}
        (HERE / "sources-seen.json").write_text(json.dumps(seen))
    if config["held"] and not parts:
        sys.stderr.write("E: Unable to correct problems, you have held broken packages.\\n")
        sys.exit(100)
    for name in names:
        if name not in known:
            unknown(name)
    for name in names:
        for program, text in known[name]["programs"].items():
            path = HERE / program
            path.write_text(text)
            path.chmod(0o755)
    print(f"Setting up {{' '.join(names)}} ...")
    sys.exit(0)
if tool == "apt-get" and command == "download":
    for name in names:
        if name not in known:
            unknown(name)
    for name in names:
        Path(f"{{name}}_1.0_amd64.deb").write_bytes(b"")
        print(f"Get:1 http://deb.debian.org/debian bookworm/main amd64 {{name}} amd64 1.0")
    sys.exit(0)
if tool == "apt-cache" and command == "depends":
    if names[0] not in known:
        sys.stderr.write(f"E: No packages found\\n")
        sys.exit(100)
    print(names[0])
    for dep in known[names[0]]["depends"]:
        print(f"  Depends: {{dep}}")
    sys.exit(0)
sys.stderr.write(f"E: the fake apt does not know `{{tool}} {{' '.join(args)}}`\\n")
sys.exit(100)
"""


@dataclass(frozen=True)
class FakePackage:
    """A package the fake apt knows: the programs its install writes, its dependencies."""

    programs: dict[str, str] = field(default_factory=dict)
    """Program name -> its text (a script, written executable beside the fake apt)."""
    depends: tuple[str, ...] = ()


@dataclass(frozen=True)
class FakeApt:
    """``apt-get`` and ``apt-cache`` in ``folder`` (put it first on PATH)."""

    folder: Path
    packages: dict[str, FakePackage]
    update: UpdateState = "partial"
    lists: bool = False
    """Whether the package lists are there before any ``apt-get update``."""
    held: bool = False
    """Whether ``install`` fails with "held broken packages" unless given its own sources
    (``-o Dir::Etc::SourceParts=...``, whose files it keeps in ``sources-seen.json``)."""

    def __post_init__(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        config = {
            "update": self.update,
            "lists": self.lists,
            "held": self.held,
            "update_out": PARTIAL_UPDATE_OUT,
            "update_err_partial": PARTIAL_UPDATE_ERR,
            "update_err_down": DOWN_UPDATE_ERR,
            "packages": {
                name: {"programs": p.programs, "depends": list(p.depends)}
                for name, p in self.packages.items()
            },
        }
        (self.folder / "fake-apt.json").write_text(json.dumps(config))
        for tool in ("apt-get", "apt-cache"):
            path = self.folder / tool
            path.write_text(_SCRIPT.format(python=sys.executable))
            path.chmod(0o755)

    def calls(self) -> list[list[str]]:
        """Every call so far, as ``[tool, *arguments]``."""
        log = self.folder / "calls.jsonl"
        if not log.exists():
            return []
        return [json.loads(line) for line in log.read_text().splitlines()]

    def commands(self) -> list[str]:
        """The calls' tool and first word (``apt-get update``, ``apt-get install``...)."""
        found = []
        for tool, *args in self.calls():
            words = [
                a for i, a in enumerate(args) if not a.startswith("-") and args[i - 1 : i] != ["-o"]
            ]
            found.append(f"{tool} {words[0] if words else ''}")
        return found
