"""The product stays readable in pieces: no module over 1,200 lines, and no function over 60
lines unless a comment says why it stays whole (issue 49). The lab (``bot/lab/``) is left out."""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("protocol", "adjudicator", "search", "bot")
LAB = ROOT / "bot" / "lab"
MAX_MODULE_LINES = 1200
MAX_FUNCTION_LINES = 60
REASON = "# Stays whole:"


def _product_files(suffix: str) -> list[Path]:
    return sorted(
        path
        for package in PRODUCT
        for path in (ROOT / package).rglob(f"*{suffix}")
        if not path.is_relative_to(LAB)
    )


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def _comments(source: str) -> dict[int, str]:
    """Each comment of ``source`` by its line."""
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return {tok.start[0]: tok.string for tok in tokens if tok.type == tokenize.COMMENT}


def _header_end(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """The last line of the signature: the ``def`` line, or its last argument or annotation."""
    ends = [node.lineno, node.returns.end_lineno if node.returns else None]
    ends += [getattr(part, "end_lineno", None) for part in ast.walk(node.args)]
    return max(end for end in ends if end is not None)


def _says_why(
    node: ast.FunctionDef | ast.AsyncFunctionDef, lines: list[str], comments: dict[int, str]
) -> bool:
    """A comment starting with :data:`REASON` directly above the function (above its
    decorators), or as the first comment of its body."""
    above = min([node.lineno] + [d.lineno for d in node.decorator_list]) - 1
    block_start = above
    while block_start >= 1 and lines[block_start - 1].strip().startswith("#"):
        block_start -= 1
    if block_start < above and lines[block_start].strip().startswith(REASON):
        return True
    end = node.end_lineno or node.lineno
    body = [line for line in sorted(comments) if _header_end(node) < line <= end]
    return bool(body) and comments[body[0]].startswith(REASON)


def long_functions_without_reason(source: str, name: str) -> list[str]:
    """``name:line function (N lines)`` for each function of ``source`` over the limit
    that does not say why it stays whole."""
    lines = source.splitlines()
    comments = _comments(source)
    found = []
    for node in ast.walk(ast.parse(source, filename=name)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > MAX_FUNCTION_LINES and not _says_why(node, lines, comments):
                found.append(f"{name}:{node.lineno} {node.name} ({length} lines)")
    return sorted(found)


def _report(offenders: list[str]) -> str:
    print("\n".join(offenders))
    return "\n".join(offenders)


def test_the_product_is_found() -> None:
    names = {_name(path) for path in _product_files(".py")}
    assert {"adjudicator/movement.py", "search/mcts/player.py", "bot/cli.py"} <= names
    assert not any(name.startswith("bot/lab/") for name in names)
    assert "search/_fasttree.pyx" in {_name(path) for path in _product_files(".pyx")}


def test_no_python_module_over_the_limit() -> None:
    offenders = [
        f"{_name(path)}: {count} lines"
        for path in _product_files(".py")
        if (count := len(path.read_text().splitlines())) > MAX_MODULE_LINES
    ]
    assert not offenders, _report(offenders)


def test_no_compiled_module_over_the_limit() -> None:
    offenders = [
        f"{_name(path)}: {count} lines"
        for path in _product_files(".pyx")
        if (count := len(path.read_text().splitlines())) > MAX_MODULE_LINES
    ]
    assert not offenders, _report(offenders)


def test_every_long_function_says_why_it_stays_whole() -> None:
    offenders = [
        offender
        for path in _product_files(".py")
        for offender in long_functions_without_reason(path.read_text(), _name(path))
    ]
    assert not offenders, _report(offenders)


# --- the finder itself -------------------------------------------------------------------------

FILLER = "    x = 1\n" * MAX_FUNCTION_LINES


def test_a_long_function_without_a_reason_is_found() -> None:
    source = f"@decorated\ndef long(a: int) -> None:\n    # a comment, not a reason\n{FILLER}"
    found = long_functions_without_reason(source, "m.py")
    assert found == [f"m.py:2 long ({MAX_FUNCTION_LINES + 2} lines)"]


def test_a_method_is_measured_and_decorators_are_not() -> None:
    def method(statements: int) -> str:
        body = "        x = 1\n" * statements
        return f"class C:\n    @staticmethod\n    @other\n    def m() -> None:\n{body}"

    assert long_functions_without_reason(method(MAX_FUNCTION_LINES - 1), "m.py") == []
    over = long_functions_without_reason(method(MAX_FUNCTION_LINES), "m.py")
    assert over == [f"m.py:4 m ({MAX_FUNCTION_LINES + 1} lines)"]


def test_a_reason_above_the_function_or_first_in_its_body_is_accepted() -> None:
    above = f"# Stays whole: why.\n# more of why\n@decorated\ndef f() -> None:\n{FILLER}"
    signature = "def f(\n    a: int,  # a comment in the signature is not the body's\n) -> None:\n"
    first = f'{signature}    """Doc."""\n    {REASON} why.\n{FILLER}'
    assert long_functions_without_reason(above, "m.py") == []
    assert long_functions_without_reason(first, "m.py") == []


def test_a_reason_far_from_the_function_is_not_accepted() -> None:
    apart = f"{REASON} why.\n\ndef f() -> None:\n{FILLER}"
    second = f"def f() -> None:\n    # first\n    {REASON} why.\n{FILLER}"
    other = f"def f() -> None:\n{FILLER}\n{REASON} about g\ndef g() -> None:\n    pass\n"
    for source in (apart, second, other):
        assert len(long_functions_without_reason(source, "m.py")) == 1, source
