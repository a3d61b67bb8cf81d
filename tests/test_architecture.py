"""The pure cores never touch sockets or the event loop; nothing imports bot; the product
imports nothing of the lab (bot/lab/)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PURE = ("protocol", "adjudicator", "search")
FORBIDDEN = {"asyncio", "socket", "selectors", "bot"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package", PURE)
def test_pure_core_has_no_io_imports(package: str) -> None:
    files = sorted((ROOT / package).rglob("*.py"))
    assert files, f"{package}/ has no modules"
    offenders = {
        str(f.relative_to(ROOT)): sorted(_imports(f) & FORBIDDEN)
        for f in files
        if _imports(f) & FORBIDDEN
    }
    assert offenders == {}


def test_protocol_does_not_depend_on_rules_or_search() -> None:
    for f in (ROOT / "protocol").rglob("*.py"):
        assert not _imports(f) & {"adjudicator", "search"}, f


def test_adjudicator_does_not_depend_on_search() -> None:
    for f in (ROOT / "adjudicator").rglob("*.py"):
        assert "search" not in _imports(f), f


# --- import graph: no cycles, counting every import (in functions and TYPE_CHECKING too) ---

PACKAGES = ("protocol", "adjudicator", "search", "bot")


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _package_of(name: str) -> str:
    return name if MODULES[name].name == "__init__.py" else name.rpartition(".")[0]


def _targets(name: str, path: Path) -> set[str]:
    """The project modules ``name`` imports anywhere in its text."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = _package_of(name)
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                out.add(sub if sub in MODULES else module)
    return {target for target in out if target in MODULES and target != name}


GRAPH = {name: _targets(name, path) for name, path in MODULES.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _layer(name: str) -> str:
    """A module's node in the layer graph: its sub-package (``bot.local``), or itself when
    it sits directly in one of the four packages (``bot.cli``, ``search.dumbbot_values``)."""
    package = _package_of(name)
    return package if "." in package else name


def test_the_graph_reads_the_code() -> None:
    assert "bot.client.shell" in GRAPH["bot.commands.play"]
    assert "adjudicator.maps" in GRAPH["adjudicator.position"]


def test_no_import_cycles_between_modules() -> None:
    assert _cycles(GRAPH) == []


def test_no_import_cycles_between_layers() -> None:
    """No sub-package imports back into what imports it (no upward arrows)."""
    layers: dict[str, set[str]] = {}
    for name, targets in GRAPH.items():
        for target in targets:
            if _layer(name) != _layer(target):
                layers.setdefault(_layer(name), set()).add(_layer(target))
    assert _cycles(layers) == []


def test_the_cycle_finder_finds_cycles() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


# --- the client: one folder, a pure core, and the tools beside it ---------------------------

CLIENT = "bot.client"
CLIENT_CORE = "bot.client.core"
IO_MODULES = {"asyncio", "socket", "selectors", "ssl", "aiomqtt", "paho", "threading", "subprocess"}
ENTRY_POINTS = {"__init__.py", "cli.py"}


def _external_imports(path: Path) -> set[str]:
    """Every top-level module ``path`` imports, anywhere in its text."""
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def _in(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_the_client_core_does_no_io() -> None:
    """No asyncio, socket, MQTT, thread or process inside the core: events in, effects out."""
    core = [n for n in MODULES if _in(n, CLIENT_CORE)]
    assert len(core) > 10, core
    offenders = {
        n: sorted(_external_imports(MODULES[n]) & IO_MODULES)
        for n in core
        if _external_imports(MODULES[n]) & IO_MODULES
    }
    assert offenders == {}


def test_the_client_core_imports_only_itself_and_the_pure_packages() -> None:
    """Not the shell (connection, worker, listeners) and no tool."""
    offenders = {
        n: sorted(t for t in GRAPH[n] if _in(t, "bot") and not _in(t, CLIENT_CORE))
        for n in MODULES
        if _in(n, CLIENT_CORE)
    }
    assert {n: t for n, t in offenders.items() if t} == {}


def test_the_client_depends_on_no_tool() -> None:
    """The tools (local games, stress, measurement, viewer, ...) use the client, never back."""
    offenders = {
        n: sorted(t for t in GRAPH[n] if _in(t, "bot") and not _in(t, CLIENT) and t != "bot")
        for n in MODULES
        if _in(n, CLIENT)
    }
    assert {n: t for n, t in offenders.items() if t} == {}


def test_only_the_entry_points_sit_at_the_root_of_bot() -> None:
    root = {p.name for p in (ROOT / "bot").glob("*.py")}
    assert root <= ENTRY_POINTS, sorted(root - ENTRY_POINTS)


def test_every_module_name_is_used_once() -> None:
    """A module's name says what it holds, once in the whole product."""
    seen: dict[str, list[str]] = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py*"):
            if path.suffix in (".py", ".pyx") and path.name != "__init__.py":
                seen.setdefault(path.stem, []).append(str(path.relative_to(ROOT)))
    assert {stem: paths for stem, paths in seen.items() if len(paths) > 1} == {}


# --- the product apart from the lab: nothing a user runs imports the lab's code --------------

LAB = "bot.lab"
LAB_EDGE = "bot.lab.commands"
"""The lab's command-line edge: the only part of the lab the entry point may name."""

ENTRY_POINT = "bot.cli"


def _modules_named(path: Path) -> set[str]:
    """The project modules ``path`` imports anywhere, or names in a string (``importlib``)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    named = {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }
    name = next(n for n, p in MODULES.items() if p == path)
    return GRAPH[name] | (named & set(MODULES))


def _imported_on_load(tree: ast.Module) -> set[str]:
    """What a module imports when it is loaded: neither inside a function nor for the type
    checker alone (``if TYPE_CHECKING:``)."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return
        if isinstance(node, ast.If) and "TYPE_CHECKING" in _names_in(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def test_the_lab_is_found() -> None:
    lab = {n for n in MODULES if _in(n, LAB)}
    assert {"bot.lab.training.fitting", "bot.lab.arena.arena_games"} <= lab
    assert {"bot.lab.bench.bench_search", "bot.lab.commands.train"} <= lab
    assert "bot.lab.commands.bench" in _modules_named(MODULES[ENTRY_POINT])


def test_the_product_imports_no_lab_code() -> None:
    """Every module outside ``bot/lab/`` (the cores too), counting imports inside functions
    and module names given to ``importlib``; the entry point names the lab's commands only."""
    offenders = {
        n: sorted(
            t
            for t in _modules_named(path)
            if _in(t, LAB) and not (n == ENTRY_POINT and _in(t, LAB_EDGE))
        )
        for n, path in MODULES.items()
        if not _in(n, LAB)
    }
    assert {n: t for n, t in offenders.items() if t} == {}


def test_the_load_finder_skips_functions_and_type_checking() -> None:
    source = (
        "import a\nfrom b import c\nif TYPE_CHECKING:\n    import d\nelse:\n    import e\n"
        "def f():\n    import g\n"
    )
    assert _imported_on_load(ast.parse(source)) == {"a", "b", "b.c", "e"}


def test_the_labs_commands_load_no_lab_code() -> None:
    """A lab command's module holds its flags; the lab's code is imported when it runs."""
    offenders = {
        n: sorted(
            t
            for t in _imported_on_load(ast.parse(MODULES[n].read_text()))
            if _in(t, LAB) and not _in(t, LAB_EDGE)
        )
        for n in MODULES
        if _in(n, LAB_EDGE)
    }
    assert {n: t for n, t in offenders.items() if t} == {}


def test_the_command_line_loads_no_lab_code_until_a_lab_command_runs() -> None:
    """Building every subcommand's parser, as each run of ``daide-mcts`` does."""
    probe = (
        "import sys\nfrom bot.cli import build_parser\nbuild_parser()\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('bot.'))))"
    )
    run = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr
    loaded = set(run.stdout.split())
    assert "bot.commands.play" in loaded and "bot.lab.commands.train" in loaded
    assert sorted(m for m in loaded if _in(m, LAB) and m != LAB and not _in(m, LAB_EDGE)) == []


# --- the chooser is one door: nobody asks which chooser it is ----------------------------------

CHECKS = {"isinstance", "issubclass"}


def _chooser_classes() -> set[str]:
    """The product's chooser classes (named ``...Chooser``) and every class they build on."""
    bases: dict[str, set[str]] = {}
    for path in MODULES.values():
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.ClassDef):
                names = {
                    b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases
                }
                bases.setdefault(node.name, set()).update(names)
    found = {name for name in bases if name.endswith("Chooser")}
    todo = list(found)
    while todo:
        for base in bases.get(todo.pop(), set()) & set(bases):
            if base not in found and base != "Protocol":
                found.add(base)
                todo.append(base)
    return found


def _names_in(node: ast.AST) -> set[str]:
    """Every name a type expression mentions (``A``, ``m.A``, ``(A, B)``, ``A | B``)."""
    out: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            out.add(sub.id)
        elif isinstance(sub, ast.Attribute):
            out.add(sub.attr)
    return out


def _class_checks(source: str, classes: set[str]) -> list[str]:
    """Where ``source`` asks whether a value is one of ``classes``: an isinstance or
    issubclass call, or a ``case`` class pattern."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in CHECKS and len(node.args) == 2:
                hit = _names_in(node.args[1]) & classes
                found += [f"line {node.lineno}: {node.func.id} {sorted(hit)}"] if hit else []
        elif isinstance(node, ast.MatchClass) and _names_in(node.cls) & classes:
            found.append(f"line {node.lineno}: case {sorted(_names_in(node.cls) & classes)}")
    return found


def test_the_chooser_classes_are_found() -> None:
    classes = _chooser_classes()
    assert {"PhaseChooser", "SearchChooser", "HeuristicChooser", "PersonChooser"} <= classes
    assert "WithoutSearch" in classes  # a base of the person's chooser and the heuristic one


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("isinstance(c, PersonChooser)", 1),
        ("if not isinstance(x, (int, core.SearchChooser)): pass", 1),
        ("issubclass(type(c), A | HeuristicChooser)", 1),
        ("match c:\n    case PersonChooser(): pass", 1),
        ("isinstance(event, PersonOrders)", 0),
        ("chooser.play(view)", 0),
    ],
)
def test_the_chooser_check_finder_finds_checks(source: str, found: int) -> None:
    classes = {"PersonChooser", "SearchChooser", "HeuristicChooser"}
    assert len(_class_checks(source, classes)) == found


def test_no_module_asks_which_chooser_it_has() -> None:
    """A seat's chooser is used only through the chooser interface, never told apart."""
    classes = _chooser_classes()
    offenders = {
        name: hits
        for name, path in MODULES.items()
        if (hits := _class_checks(path.read_text(), classes))
    }
    assert offenders == {}


# --- the person's seat asks the core's public API only --------------------------------------

SEAT = "bot.human"
CORE_API_FOR_SEAT = {
    "bot.client.core.events",
    "bot.client.core.notes",
    "bot.client.core.person",
    "bot.client.core.person_press",
}
"""What of the core a person's seat may import: its events, its notes and the person's API."""

CORE_INSIDES = {"player", "clock", "mirror", "budget", "out", "chooser"}
"""The core's parts, which the seat must not reach into (``core.phase`` neither)."""


def _reaches_in(source: str) -> list[str]:
    """Where ``source`` reads a part of the core (``x.player``, ``x.core.phase``...)."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Attribute):
            continue
        inner = node.value
        under_core = (isinstance(inner, ast.Attribute) and inner.attr == "core") or (
            isinstance(inner, ast.Name) and inner.id == "core"
        )
        if node.attr in CORE_INSIDES or (under_core and node.attr == "phase"):
            found.append(f"line {node.lineno}: .{node.attr}")
    return found


def test_the_seat_imports_only_the_cores_public_api() -> None:
    seat = [n for n in MODULES if _in(n, SEAT)]
    assert {"bot.human.seat", "bot.human.webapp"} <= set(seat)
    offenders = {
        n: sorted(t for t in GRAPH[n] if _in(t, CLIENT_CORE) and t not in CORE_API_FOR_SEAT)
        for n in seat
    }
    assert {n: t for n, t in offenders.items() if t} == {}


def test_the_seat_does_not_reach_into_the_core() -> None:
    assert _reaches_in("self.client.core.phase.clock") == ["line 1: .clock", "line 1: .phase"]
    assert _reaches_in("core = x.core\nphase = core.phase") == ["line 2: .phase"]
    assert _reaches_in("core.phase_in_play().turn") == []
    offenders = {
        n: hits for n in MODULES if _in(n, SEAT) if (hits := _reaches_in(MODULES[n].read_text()))
    }
    assert offenders == {}
