"""The images of a game in containers, built with nothing fetched from inside a build.

* **Build contexts.** The bot image installs wheels made on the host
  (``pip wheel`` into ``docker/wheelhouse/``), the server image Parlance's
  source release, Parterre's (Parlance's variant maps, as ``make setup``
  installs beside Parlance) and the Python 2 pip and setuptools downloaded on the host
  into ``docker/parlance/sdists/``; both builds install with ``--no-index``,
  so they work offline and behind intercepting proxies.
* **Base images.** ``python:3.11``, ``python:3.11-slim``, ``python:2.7-slim``
  and ``eclipse-mosquitto:2`` are used as the engine has them; else pulled
  from Docker Hub; where Docker Hub cannot be reached, made from Debian's
  packages with ``debootstrap`` and ``docker import``ed under the same tags
  (stand-ins: the same interpreters and broker, from Debian).  The
  debootstrapped systems and the stand-ins' archives are kept in
  ``.local/bases/``, so a second machine set-up is quick.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from bot.servers.parlance_install import (
    PARLANCE_VERSION,
    PARTERRE_VERSION,
    ParlanceUnavailableError,
    find_python2,
)
from bot.toolkit.paths import local_dir

ROOT = Path(__file__).resolve().parent.parent.parent
"""The project's folder: the bot image's build context."""

WHEELHOUSE = ROOT / "docker" / "wheelhouse"
SDISTS = ROOT / "docker" / "parlance" / "sdists"

PYTHON2_PIP = "pip==20.3.4"
"""The last pip for Python 2.7 (Debian's Python 2.7 comes without one)."""
PYTHON2_SETUPTOOLS = "setuptools==44.1.1"
"""The last setuptools for Python 2.7 (Parlance's source release needs it to install)."""

MIRROR = "http://deb.debian.org/debian"
DEBOOTSTRAP_TIMEOUT = 1800
PULL_TIMEOUT = 300
PIP_TIMEOUT = 900

BOT_IMAGE = "daide-mcts:local"
SERVER_IMAGE = f"daide-mcts-parlance:{PARLANCE_VERSION}"

_PATH = "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
_MOSQUITTO_CONF = "listener 1883 127.0.0.1\nallow_anonymous true\npersistence false\n"


class ImageError(RuntimeError):
    """An image or its build context could not be made; the message says why."""


@dataclass(frozen=True)
class Suite:
    """A Debian release debootstrapped once (minimal) with ``packages``."""

    name: str
    packages: tuple[str, ...]
    setup: str
    """Shell run in the new system (chroot) once after debootstrap."""


BOOKWORM = Suite(
    "bookworm",
    ("python3", "python3-venv", "python3-dev", "gcc", "libc6-dev", "mosquitto"),
    "ln -sf python3 /usr/bin/python",
)
BULLSEYE = Suite("bullseye", ("python2.7",), "ln -sf python2.7 /usr/bin/python")

_CLEAN = "apt-get clean && rm -rf /var/lib/apt/lists/* /usr/share/doc/* /usr/share/man/*"


def _keep_only(packages: str) -> str:
    """Shell that removes every package but the minimal system's and ``packages`` (and deps).

    debootstrap marks every package as installed by hand; they are marked
    automatic first, then the minimal system (priority required, apt) and
    ``packages`` by hand again, so that apt's autoremove takes out the rest.
    """
    required = (
        "$(dpkg-query -W -f '${Package} ${Priority}\\n' | awk '$2 == \"required\" {print $1}')"
    )
    return (
        "apt-mark auto $(apt-mark showmanual) >/dev/null "
        f"&& apt-mark manual apt {required} {packages} >/dev/null "
        f"&& apt-get autoremove --purge -y -q >/dev/null && {_CLEAN}"
    )


@dataclass(frozen=True)
class StandIn:
    """A local stand-in for an official image: a trimmed copy of a debootstrapped suite."""

    tag: str
    suite: Suite
    trim: str
    """Shell run in a copy of the suite's system (chroot) before it is archived."""
    changes: tuple[str, ...]
    """``docker import --change`` instructions (CMD, ENV...)."""

    @property
    def archive(self) -> Path:
        """The stand-in's root file system, archived (kept for the next import)."""
        return local_dir() / "bases" / f"{self.tag.replace(':', '_')}.tar"


STAND_INS: dict[str, StandIn] = {
    s.tag: s
    for s in (
        StandIn(
            "python:3.11",
            BOOKWORM,
            _keep_only("python3 python3-venv python3-dev gcc libc6-dev"),
            (f"ENV {_PATH}", "ENV LANG=C.UTF-8", 'CMD ["python3"]'),
        ),
        StandIn(
            "python:3.11-slim",
            BOOKWORM,
            _keep_only("python3 python3-venv"),
            (f"ENV {_PATH}", "ENV LANG=C.UTF-8", 'CMD ["python3"]'),
        ),
        StandIn(
            "eclipse-mosquitto:2",
            BOOKWORM,
            _keep_only("mosquitto")
            + " && rm -f /usr/bin/python && mkdir -p /mosquitto/config /mosquitto/data"
            f" /mosquitto/log && printf '{_MOSQUITTO_CONF}' > /mosquitto/config/mosquitto.conf",
            (
                f"ENV {_PATH}",
                "EXPOSE 1883",
                'CMD ["/usr/sbin/mosquitto", "-c", "/mosquitto/config/mosquitto.conf"]',
            ),
        ),
        StandIn(
            "python:2.7-slim",
            BULLSEYE,
            _keep_only("python2.7"),
            (f"ENV {_PATH}", "ENV LANG=C.UTF-8", 'CMD ["python2"]'),
        ),
    )
}
"""Every base image the compose file's images start from, by tag."""

Note = Callable[[str], None]


def _run(argv: Sequence[str], what: str, timeout: float, cwd: Path | None = None) -> str:
    """Run ``argv``; its output, or ImageError naming ``what`` with the output's tail."""
    try:
        proc = subprocess.run(
            list(argv), capture_output=True, text=True, timeout=timeout, cwd=cwd, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ImageError(f"{what}: {exc}") from exc
    if proc.returncode != 0:
        raise ImageError(f"{what} failed:\n{(proc.stdout + proc.stderr)[-2000:]}")
    return proc.stdout


def has_image(tag: str) -> bool:
    """True when the engine has an image ``tag``."""
    proc = subprocess.run(["docker", "image", "inspect", tag], capture_output=True, check=False)
    return proc.returncode == 0


def image_size(tag: str) -> int:
    """The size of image ``tag`` in bytes."""
    return int(_run(["docker", "image", "inspect", "-f", "{{.Size}}", tag], "inspect", 60))


# --- build contexts ----------------------------------------------------------------------------


def bot_requirements() -> list[str]:
    """What the bot image installs from the wheelhouse: build requirements and dependencies."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return [*project["build-system"]["requires"], *project["project"]["dependencies"]]


def prepare_wheelhouse(note: Note) -> Path:
    """Wheels of everything the bot image installs, made on the host (once per requirement set)."""
    wanted = bot_requirements()
    stamp = WHEELHOUSE / f".complete-{hashlib.sha256(repr(wanted).encode()).hexdigest()[:16]}"
    if stamp.is_file():
        return WHEELHOUSE
    note(f"Making the bot image's wheels in {WHEELHOUSE} (once)...")
    shutil.rmtree(WHEELHOUSE, ignore_errors=True)
    WHEELHOUSE.mkdir(parents=True)
    argv = [sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check"]
    _run([*argv, "--wheel-dir", str(WHEELHOUSE), *wanted], "pip wheel", PIP_TIMEOUT)
    stamp.write_text("ok\n")
    return WHEELHOUSE


def prepare_sdists(note: Note) -> Path:
    """Parlance's and Parterre's source releases, pip and setuptools for Python 2.7, on the host."""
    wanted = [
        f"parlance=={PARLANCE_VERSION}",
        f"parterre=={PARTERRE_VERSION}",
        PYTHON2_PIP,
        PYTHON2_SETUPTOOLS,
    ]
    stamp = SDISTS / f".complete-{hashlib.sha256(repr(wanted).encode()).hexdigest()[:16]}"
    if stamp.is_file():
        return SDISTS
    try:
        python2 = find_python2()
    except ParlanceUnavailableError as exc:
        raise ImageError(
            f"Parlance's source release is downloaded with Python 2.7's pip: {exc}"
        ) from exc
    note(f"Downloading Parlance {PARLANCE_VERSION} for the server image into {SDISTS} (once)...")
    shutil.rmtree(SDISTS, ignore_errors=True)
    SDISTS.mkdir(parents=True)
    argv = [str(python2), "-m", "pip", "download", "--quiet", "--disable-pip-version-check"]
    _run([*argv, "--no-deps", "--dest", str(SDISTS), *wanted], "pip download", PIP_TIMEOUT)
    stamp.write_text("ok\n")
    return SDISTS


# --- base images ----------------------------------------------------------------------------


def _suite_root(suite: Suite, note: Note) -> Path:
    """The debootstrapped system of ``suite`` (made once into .local/bases/)."""
    bases = local_dir() / "bases"
    root = bases / suite.name
    if (root / ".complete").is_file():
        return root
    if shutil.which("debootstrap") is None:
        raise ImageError("debootstrap is missing (make setup installs it as root on Debian)")
    partial = bases / f"{suite.name}.partial"
    shutil.rmtree(partial, ignore_errors=True)
    cache = bases / f"debs-{suite.name}"
    cache.mkdir(parents=True, exist_ok=True)
    note(f"debootstrap {suite.name} into {root} (once; a few minutes)...")
    _run(
        [
            "debootstrap", "--variant=minbase", f"--cache-dir={cache}",
            f"--include={','.join(suite.packages)}", suite.name, str(partial), MIRROR,
        ],
        f"debootstrap {suite.name}",
        DEBOOTSTRAP_TIMEOUT,
    )  # fmt: skip
    _run(["chroot", str(partial), "sh", "-c", suite.setup], f"setting up {suite.name}", 120)
    shutil.rmtree(root, ignore_errors=True)
    partial.rename(root)
    (root / ".complete").write_text("ok\n")
    return root


def _stand_in_archive(stand_in: StandIn, note: Note) -> Path:
    """The stand-in's root file system as a tar archive (made once)."""
    archive = stand_in.archive
    if archive.is_file():
        return archive
    root = _suite_root(stand_in.suite, note)
    work = archive.with_suffix(".rootfs")
    shutil.rmtree(work, ignore_errors=True)
    _run(["cp", "-a", str(root), str(work)], f"copying {root}", 600)
    try:
        (work / ".complete").unlink(missing_ok=True)
        _run(["chroot", str(work), "sh", "-c", stand_in.trim], f"trimming {stand_in.tag}", 600)
        partial = archive.with_suffix(".partial")
        _run(["tar", "-C", str(work), "-cf", str(partial), "."], f"archiving {stand_in.tag}", 600)
        partial.rename(archive)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return archive


def make_stand_in(tag: str, note: Note) -> None:
    """Import the local stand-in for the official image ``tag``."""
    stand_in = STAND_INS[tag]
    archive = _stand_in_archive(stand_in, note)
    argv = ["docker", "import"]
    for change in stand_in.changes:
        argv += ["--change", change]
    message = f"stand-in for {tag} made from Debian {stand_in.suite.name} with debootstrap"
    _run([*argv, "--message", message, str(archive), tag], f"docker import {tag}", 600)


def pull(tag: str) -> str | None:
    """Pull ``tag`` from its registry; None if done, else the first line of why not."""
    try:
        proc = subprocess.run(
            ["docker", "pull", "--quiet", tag],
            capture_output=True,
            text=True,
            timeout=PULL_TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return f"no answer within {PULL_TIMEOUT}s"
    if proc.returncode == 0:
        return None
    lines = (proc.stderr or proc.stdout).strip().splitlines()
    return lines[0] if lines else f"exit status {proc.returncode}"


def ensure_bases(note: Note, tags: Sequence[str] = tuple(STAND_INS)) -> dict[str, str]:
    """Have every base image of ``tags``: present, pulled, or a local stand-in; tag → which.

    The Debian suites the stand-ins need are debootstrapped side by side first.
    """
    how: dict[str, str] = {}
    missing = []
    for tag in tags:
        if has_image(tag):
            how[tag] = "present"
            continue
        why = pull(tag)
        if why is None:
            how[tag] = "pulled"
            continue
        note(f"{tag} cannot be pulled ({why}): making a stand-in from Debian's packages")
        missing.append(tag)
    suites = {STAND_INS[tag].suite for tag in missing}
    with ThreadPoolExecutor(max_workers=max(1, len(suites))) as pool:
        for root in [pool.submit(_suite_root, suite, note) for suite in suites]:
            root.result()
    with ThreadPoolExecutor(max_workers=max(1, len(missing))) as pool:
        for done in [pool.submit(make_stand_in, tag, note) for tag in missing]:
            done.result()
    how.update((tag, "stand-in") for tag in missing)
    return how
