"""docker-compose.yml and the Dockerfiles, checked statically (tests/docker/ runs them).

* the compose file (as written, and after Compose's variable interpolation)
  validates against the Compose specification's JSON schema;
* its server and bot commands are the very commands the local game runner
  starts, for the default settings and for settings from the environment;
* the Dockerfiles build what the services need.
"""

from __future__ import annotations

import copy
import json
import re
import shlex
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from bot.local.images import SDISTS, WHEELHOUSE
from bot.local.launch import Deadlines, parlance_options, seat_argv
from bot.local.lineup import Seat, parse_seat
from bot.servers.parlance_install import (
    PARLANCE_VERSION,
    PARTERRE_VERSION,
    ParlanceInstall,
    ParlanceServer,
)
from tests.compose_spec import SchemaUnavailableError, schema_path

ROOT = Path(__file__).resolve().parent.parent
SEATS = 7
PORT = 16713
TELEMETRY = "mqtt://broker:1883/daide-mcts"


@pytest.fixture(scope="module")
def validator() -> jsonschema.protocols.Validator:
    try:
        schema = json.loads(schema_path().read_text())
    except SchemaUnavailableError as exc:
        pytest.fail(f"the Compose specification's schema is needed and could not be fetched: {exc}")
    # The schema names draft 2019-09 (in a spelling jsonschema does not look up by itself).
    assert "2019-09" in schema["$schema"]
    jsonschema.Draft201909Validator.check_schema(schema)
    return jsonschema.Draft201909Validator(schema)


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


# --- Compose's variable interpolation -------------------------------------------------------

_VARIABLE = re.compile(r"\$(?:\$|\{(\w+)(?:(:?-)([^}]*))?\}|(\w+))")


def interpolate(value: Any, env: dict[str, str]) -> Any:
    """Substitute ``$VAR``, ``${VAR}``, ``${VAR:-default}``, ``${VAR-default}``; ``$$`` is ``$``."""
    if isinstance(value, dict):
        return {k: interpolate(v, env) for k, v in value.items()}
    if isinstance(value, list):
        return [interpolate(v, env) for v in value]
    if not isinstance(value, str):
        return value

    def one(m: re.Match[str]) -> str:
        if m.group(0) == "$$":
            return "$"
        name = m.group(1) or m.group(4)
        found = env.get(name)
        if m.group(2) == ":-" and not found:
            return m.group(3)
        if m.group(2) == "-" and found is None:
            return m.group(3)
        return found or ""

    return _VARIABLE.sub(one, value)


def shell_words(script: str) -> list[str]:
    """The words of a one-command ``sh -c`` script, with ``$(( a - b ))`` worked out."""
    script = re.sub(
        r"\$\(\(\s*(\d+)\s*-\s*(\d+)\s*\)\)", lambda m: str(int(m[1]) - int(m[2])), script
    )
    words = shlex.split(script)
    assert words[0] == "exec"
    return words[1:]


def test_interpolation_follows_compose_rules() -> None:
    env = {"A": "1", "E": ""}
    assert interpolate("${A:-2} ${B:-3} ${E:-4} ${E-5} $A $$A", env) == "1 3 4  1 $A"


# --- the schema -------------------------------------------------------------------------------


def test_the_compose_file_validates_against_the_compose_specification(
    validator: jsonschema.protocols.Validator, compose: dict[str, Any]
) -> None:
    errors = [e.message for e in validator.iter_errors(compose)]
    assert errors == []
    resolved = interpolate(compose, {"FINAL_YEAR": "1903", "MTL": "7", "BOT2": "random"})
    assert [e.message for e in validator.iter_errors(resolved)] == []


def test_the_schema_check_catches_mistakes(
    validator: jsonschema.protocols.Validator, compose: dict[str, Any]
) -> None:
    broken = copy.deepcopy(compose)
    broken["services"]["bot1"]["comand"] = ["play"]
    assert list(validator.iter_errors(broken))
    broken = copy.deepcopy(compose)
    broken["services"]["server"]["depends_on"] = {"broker": {"condition": "when_ready"}}
    assert list(validator.iter_errors(broken))


# --- the commands -------------------------------------------------------------------------------


def _seat(k: int, env: dict[str, str]) -> Seat:
    label, kind, spec = parse_seat(env.get(f"BOT{k}") or ("mcts" if k == 1 else "dumbbot"))
    assert kind == "ours"
    return Seat(label=label or spec, kind=kind, spec=spec, name=f"bot{k}")


@pytest.mark.parametrize(
    "env",
    [
        {},
        {"FINAL_YEAR": "1903", "MTL": "7", "RTL": "3", "BTL": "4"}
        | {"BOT1": "mcts:v8", "BOT5": "random"},
    ],
    ids=["defaults", "from-the-environment"],
)
def test_the_services_run_the_local_runner_s_commands(
    compose: dict[str, Any], env: dict[str, str]
) -> None:
    services = interpolate(compose, env)["services"]
    final_year = int(env.get("FINAL_YEAR", "1905"))
    deadlines = Deadlines(int(env.get("MTL", 10)), int(env.get("RTL", 2)), int(env.get("BTL", 2)))

    # The server: what ParlanceServer runs for the local runner, listening on all interfaces.
    local = ParlanceServer(
        ParlanceInstall(Path("/py2"), Path("/site")),
        host="0.0.0.0",
        port=PORT,
        options=parlance_options(deadlines, final_year),
    ).argv()
    command = services["server"]["command"]
    assert command[:2] == ["sh", "-c"]
    assert shell_words(command[2]) == ["parlance-server", *local[2:]]

    # The bots: `daide-mcts play ...` exactly as the runner starts seats of ours.
    bots = sorted(name for name in services if name.startswith("bot"))
    assert bots == [f"bot{k}" for k in range(1, SEATS + 1)]
    for k in range(1, SEATS + 1):
        argv = seat_argv(
            _seat(k, env),
            "server",
            PORT,
            final_year=final_year,
            parlance=None,
            telemetry=TELEMETRY,
            log_dir=Path(f"/runs/bots/bot{k}"),
            summary=Path(f"/runs/bots/bot{k}.json"),
        )
        assert argv[1:3] == ["-m", "bot.cli"]
        assert services[f"bot{k}"]["command"] == argv[3:], k


def test_the_bots_wait_for_the_server_and_stop_with_the_game(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert services["broker"]["image"].startswith("eclipse-mosquitto")
    assert services["server"]["build"] == "docker/parlance"
    assert "healthcheck" in services["server"]
    for k in range(1, SEATS + 1):
        bot = services[f"bot{k}"]
        assert bot["build"] == "."
        assert bot["depends_on"]["server"]["condition"] == "service_healthy"
        assert bot["restart"] == "no"
    mounted = services["broker"]["volumes"][0].split(":")[0]
    assert (ROOT / mounted).is_file()
    assert "listener 1883" in (ROOT / mounted).read_text()


def test_ports_are_published_on_the_hosts_loopback_only(compose: dict[str, Any]) -> None:
    published = [
        (name, str(port))
        for name, service in compose["services"].items()
        for port in service.get("ports", [])
    ]
    assert sorted(name for name, _ in published) == ["broker", "server"]
    assert all(port.startswith("127.0.0.1:") for _, port in published), published


# --- the Dockerfiles -----------------------------------------------------------------------------


def _instructions(path: Path) -> list[tuple[str, str]]:
    text = re.sub(r"\\\n", " ", path.read_text())
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def test_the_bot_image_installs_the_project_and_runs_the_cli() -> None:
    steps = _instructions(ROOT / "Dockerfile")
    stages = [rest for word, rest in steps if word == "FROM"]
    # Compiled in the first stage, copied into the slim one: no compiler, no source tree.
    assert stages == ["python:3.11 AS build", "python:3.11-slim"]
    copied = [
        source
        for word, rest in steps
        if word == "COPY" and not rest.startswith("--from")
        for source in rest.split()[:-1]
    ]
    wheelhouse = WHEELHOUSE.relative_to(ROOT).as_posix()
    assert wheelhouse in copied  # made on the host by make compose (git-ignored)
    for source in copied:
        assert source == wheelhouse or (ROOT / source).exists(), source
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    packages = [p.rstrip("*") for p in project["tool"]["setuptools"]["packages"]["find"]["include"]]
    assert set(packages) <= set(copied)
    assert project["project"]["readme"] in copied
    assert "setup.py" in copied  # it builds the compiled extensions
    # setuptools refuses a license-files pattern that matches nothing.
    assert set(project["project"]["license-files"]) | {"MANIFEST.in"} <= set(copied)
    installs = [rest for word, rest in steps if word == "RUN" and "pip install" in rest]
    assert installs and all("--no-index" in rest for rest in installs)
    assert ("COPY", "--from=build /opt/venv /opt/venv") in steps
    assert ("ENTRYPOINT", '["daide-mcts"]') in steps
    assert project["project"]["scripts"]["daide-mcts"] == "bot.cli:main"
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".venv", ".local", "runs", "docker/*", f"!{wheelhouse}"} <= set(ignored)


def test_the_server_image_installs_parlance_from_the_host_s_download() -> None:
    steps = _instructions(ROOT / "docker" / "parlance" / "Dockerfile")
    assert steps[0][0] == "FROM" and steps[0][1].startswith("python:2.7")
    sdists = SDISTS.relative_to(ROOT / "docker" / "parlance").as_posix()
    assert ("COPY", f"{sdists} /tmp/sdists") in steps
    wanted = (
        f"pip install --no-index --find-links /tmp/sdists parlance=={PARLANCE_VERSION}"
        f" parterre=={PARTERRE_VERSION}"  # the variant maps, as make setup installs them
    )
    assert any(word == "RUN" and wanted in rest for word, rest in steps)
