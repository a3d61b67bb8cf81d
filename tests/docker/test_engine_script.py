"""``docker/engine.sh`` (make setup's Docker part) on a machine whose package index half fails.

The script runs with a PATH of its own: the fake apt of tests/fake_apt.py
(``apt-get update`` exits 100 with apt's "Failed to fetch ... binary-i386"
lines), an ``id`` that says root, and ``dirname``; dockerd, docker,
docker-compose and debootstrap are missing until the fake ``apt-get install``
writes small stand-ins (a ``docker`` that answers ``docker info`` as a
running engine does, so the script stops before starting one).  The
machine's own apt and Docker are not touched.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from tests.fake_apt import FakeApt, FakePackage

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "docker" / "engine.sh"
PACKAGES = ("docker.io", "docker-compose", "debootstrap")
TOOLS = ("dirname",)
"""The programs the script needs besides the shell's builtins, up to an answering engine."""


def _docker(data_root: Path) -> str:
    return f"""#!/bin/sh
case "$1 $2" in
    "info --format") echo "{data_root}" ;;
    "info ") ;;
    "compose version") echo "Docker Compose version v2.0.0-fake" ;;
    "version --format") echo "27.0.0-fake" ;;
    *) exit 1 ;;
esac
"""


def _fake_machine(tmp_path: Path, known: tuple[str, ...]) -> tuple[FakeApt, dict[str, str]]:
    data_root = tmp_path / "docker-data"
    data_root.mkdir()
    stand_ins = {
        "docker.io": FakePackage(
            programs={"dockerd": "#!/bin/sh\nexit 0\n", "docker": _docker(data_root)}
        ),
        "docker-compose": FakePackage(programs={"docker-compose": "#!/bin/sh\nexit 0\n"}),
        "debootstrap": FakePackage(programs={"debootstrap": "#!/bin/sh\nexit 0\n"}),
    }
    fake = FakeApt(tmp_path / "bin", {k: v for k, v in stand_ins.items() if k in known})
    tools = tmp_path / "tools"
    tools.mkdir()
    for tool in TOOLS:
        found = shutil.which(tool)
        assert found is not None, f"the script needs {tool}"
        (tools / tool).symlink_to(found)
    (tools / "id").write_text("#!/bin/sh\necho 0\n")
    (tools / "id").chmod(0o755)
    env = {
        "PATH": f"{fake.folder}{os.pathsep}{tools}",
        "HOME": str(tmp_path),
        "DAIDE_MCTS_LOCAL": str(tmp_path / "local"),
    }
    return fake, env


def _run(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["/bin/sh", str(SCRIPT)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
        check=False,
    )


def test_a_partly_failed_index_refresh_does_not_stop_the_install(tmp_path: Path) -> None:
    fake, env = _fake_machine(tmp_path, PACKAGES)
    done = _run(env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"docker: installing {' '.join(PACKAGES)} with apt-get"]
    (note,) = done.stderr.splitlines()
    assert "refreshed only in part" in note and "binary-i386/Packages" in note
    assert fake.commands() == ["apt-get update", "apt-get install"]
    assert fake.calls()[1][-3:] == list(PACKAGES)
    for program in ("dockerd", "docker", "docker-compose", "debootstrap"):
        assert (fake.folder / program).is_file(), program
    # The packages are there now: a second run installs nothing and finds the engine.
    again = _run(env)
    assert again.returncode == 0 and again.stdout == "" and again.stderr == ""
    assert len(fake.calls()) == 2


def test_a_failed_install_is_told_in_one_line(tmp_path: Path) -> None:
    """docker-compose unknown to the (partly refreshed) lists: the install itself fails."""
    fake, env = _fake_machine(tmp_path, ("docker.io", "debootstrap"))
    done = _run(env)
    assert done.returncode == 0  # never fails make setup; the compose tests say why
    installing, failure = done.stdout.splitlines()
    assert installing.startswith("docker: installing ")
    assert failure.startswith(f"docker: could not install {' '.join(PACKAGES)} ")
    assert "E: Unable to locate package docker-compose" in failure
    assert "refreshed only in part" in failure and "binary-i386" in failure
    assert "Traceback" not in done.stderr
    # A second install, without the failed list's source, when this machine's apt has one.
    assert fake.commands() in (
        ["apt-get update", "apt-get install"],
        ["apt-get update", "apt-get install", "apt-get install"],
    )
    assert not (fake.folder / "dockerd").exists()
