"""``daide-mcts adjudicate``: one JSON answer per line, and a typed error for every bad line."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.daide import adjudicate_text
from adjudicator.rule_errors import AdjudicatorError
from bot.cli import main
from bot.commands.adjudicate import MAX_LINE_BYTES, adjudicate_line, input_lines
from bot.toolkit.jsonfiles import CorruptJSON, json_value
from protocol.daide_errors import EncodeError
from protocol.tokens import STANDARD

NOW = "NOW ( SPR 1901 ) ( ENG FLT LON ) ( FRA FLT BRE )"
SCO = "SCO ( ENG LON ) ( FRA BRE )"
ORDERS = ["( ENG FLT LON ) MTO ECH", "( FRA FLT BRE ) MTO ECH"]
GOOD = json.dumps({"now": NOW, "sco": SCO, "orders": ORDERS})
ERROR_TYPES = {
    "LineTooLong",
    "EncodingError",
    "JSONError",
    "RequestError",
    "NotationError",
    "RangeError",
    "MapError",
    "PositionError",
}


def test_a_good_line_gets_the_entry_points_answer() -> None:
    answer = adjudicate_line(GOOD)
    assert answer == adjudicate_text(NOW, SCO, ORDERS).as_dict()
    assert answer["ord"] == [
        "ORD ( SPR 1901 ) ( ( ENG FLT LON ) MTO ECH ) ( BNC )",
        "ORD ( SPR 1901 ) ( ( FRA FLT BRE ) MTO ECH ) ( BNC )",
    ]
    assert answer["now"] == "NOW ( FAL 1901 ) ( ENG FLT LON ) ( FRA FLT BRE )"


def test_orders_may_be_left_out_and_bodies_work_too() -> None:
    answer = adjudicate_line(json.dumps({"now": NOW[4:], "sco": SCO[4:]}))
    assert answer["thx"] == []
    assert answer["now"] == "NOW ( FAL 1901 ) ( ENG FLT LON ) ( FRA FLT BRE )"


# (line, error_type, a word the message must contain)
BAD_LINES: list[tuple[str | bytes, str, str]] = [
    (b'\xff\xfe{"now": "NOW"}', "EncodingError", "UTF-8"),
    ("garbage", "JSONError", "JSON"),
    ('{"now": "NOW ( SPR 1901 )"', "JSONError", "JSON"),
    ("[" * 100_000, "JSONError", "JSON"),
    ("[]", "RequestError", "object"),
    ('{"sco": "SCO"}', "RequestError", '"now"'),
    ('{"now": 3, "sco": "SCO"}', "RequestError", '"now"'),
    ('{"now": "NOW ( SPR 1901 )", "sco": "SCO", "orders": "x"}', "RequestError", "orders"),
    ('{"now": "NOW ( SPR 1901 )", "sco": "SCO", "orders": [1]}', "RequestError", "orders"),
    ('{"now": "NOW", "sco": "SCO"}', "NotationError", "turn"),
    ('{"now": "NOW ( SPR 1901 ) ( ENG FLT XYZ )", "sco": "SCO"}', "NotationError", "XYZ"),
    ('{"now": "NOW ( SPR 1901 ) ( ENG AMY NTH )", "sco": "SCO"}', "NotationError", "NTH"),
    ('{"now": "NOW ( SPR 1901 ) ( ENG AMY ( LON NCS ) )", "sco": "SCO"}', "NotationError", "LON"),
    ('{"now": "NOW ( SPR 1901 ) ( ENG AMY LON ) ( FRA FLT LON )", "sco": "SCO"}',
     "NotationError", "two units"),
    ('{"now": "NOW ( SPR 1901 ) ( ENG AMY LON MRT ( WAL ) )", "sco": "SCO"}',
     "NotationError", "retreat phase"),
    ('{"now": "NOW ( SPR 1901 ) ( ENG AMY LON )", "sco": "SCO ( ENG LON ) ( FRA LON )"}',
     "NotationError", "twice"),
    ('{"now": "NOW ( SPR 1901 ) ( ENG AMY LON )", "sco": "SCO ( ENG NTH )"}',
     "NotationError", "supply centre"),
    ('{"now": "NOW ( SPR 99999 ) ( ENG AMY LON )", "sco": "SCO"}', "NotationError", "99999"),
    ('{"now": "NOW ( SPR 1901 ) ( ENG AMY LON", "sco": "SCO"}', "NotationError", "NOW"),
    ('{"now": "NOW ( WIN 8191 ) ( ENG AMY LON )", "sco": "SCO ( ENG LON )"}', "RangeError", "8192"),
    ('{"now": "NOW ( FAL 8191 ) ( ENG AMY LON )", "sco": "SCO ( ENG LON )"}', "RangeError", "8192"),
    ('{"now": "NOW ( SPR 1901 )", "sco": "SCO", "turn": NaN}', "JSONError", "NaN"),
    ('{"now": "NOW ( SPR 1901 )", "sco": "SCO", "turn": -Infinity}', "JSONError", "Infinity"),
    ('{"now": "NOW ( SPR 1901 )", "sco": "SCO", "turn": 1e400}', "JSONError", "1e400"),
    ('{"now": "NOW", "sco": "SCO", "turn": 1' + "0" * 5000 + "}", "JSONError", "too large"),
    ("{" * 100_000, "JSONError", "JSON"),
    ('{"now": "NOW ( SPR 1901 ) ( ENG AMY LON )", "sco": "SCO", "orders": ["( ENG AMY LON ) MTO"]}',
     "NotationError", "ENG AMY LON"),
]  # fmt: skip


@pytest.mark.parametrize(("line", "kind", "word"), BAD_LINES, ids=range(len(BAD_LINES)))
def test_bad_lines_get_a_typed_error(line: str | bytes, kind: str, word: str) -> None:
    answer = adjudicate_line(line, 7)
    assert answer["error_type"] == kind, answer
    assert word in str(answer["error"]), answer
    assert answer["line"] == 7
    assert set(answer) == {"error", "error_type", "line"}


def test_the_command_answers_every_line_and_fails_if_one_did(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "phases.jsonl"
    path.write_bytes(GOOD.encode() + b"\n\n" + b"not json\n" + GOOD.encode() + b"\n")
    assert main(["adjudicate", str(path)]) == 1
    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(answers) == 3
    assert answers[0] == answers[2] == adjudicate_line(GOOD)
    assert answers[1]["error_type"] == "JSONError" and answers[1]["line"] == 3

    path.write_bytes(GOOD.encode() + b"\n")
    assert main(["adjudicate", str(path)]) == 0


def test_a_missing_file_is_a_one_line_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["adjudicate", "/nonexistent/phases.jsonl"])
    assert info.value.code == 2
    assert "can't open" in capsys.readouterr().err


def test_the_console_command_never_shows_a_traceback() -> None:
    stdin = b'\xff\xfe{"now"\n' + GOOD.encode() + b"\n" + b"\x00\x01\x02\n"
    proc = subprocess.run(
        [sys.executable, "-m", "bot.cli", "adjudicate"],
        input=stdin,
        capture_output=True,
        timeout=120,
        env={"LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8"},
    )
    assert proc.returncode == 1
    assert b"Traceback" not in proc.stderr
    answers = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert [a.get("error_type") for a in answers] == ["EncodingError", None, "JSONError"]


WORDS = [*STANDARD.names.values(), "(", ")", "(", ")", "1901", "-3", "99999", '"x"']
soup = st.lists(st.sampled_from(WORDS), max_size=25).map(" ".join)
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def expected_answer(line: str | bytes) -> dict[str, object]:
    """What the command must answer for ``line``, worked out from the documented rules.

    Undecodable bytes are an EncodingError, text the strict JSON reader refuses a
    JSONError, JSON of another shape a RequestError; a request is answered as the
    entry point (``adjudicate_text``) answers it: its adjudication, or the typed error
    it raises (an adjudicator error by its class name, a year DAIDE cannot write a
    RangeError).  Any other exception is a bug: it propagates and fails the test.
    """
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError:
            return {"error_type": "EncodingError"}
    try:
        request = json_value(line)
    except CorruptJSON:
        return {"error_type": "JSONError"}
    if not isinstance(request, dict):
        return {"error_type": "RequestError"}
    now, sco, orders = request.get("now"), request.get("sco"), request.get("orders", [])
    if not isinstance(now, str) or not isinstance(sco, str):
        return {"error_type": "RequestError"}
    if not isinstance(orders, list) or not all(isinstance(o, str) for o in orders):
        return {"error_type": "RequestError"}
    try:
        return adjudicate_text(now, sco, orders).as_dict()
    except AdjudicatorError as exc:
        return {"error_type": type(exc).__name__, "error": str(exc)}
    except EncodeError:
        return {"error_type": "RangeError"}


def assert_answer(answer: dict[str, object], expected: dict[str, object]) -> None:
    """``answer`` is ``expected``: the same adjudication, or the same typed error."""
    if "error_type" not in expected:
        assert answer == expected
        return
    assert set(answer) == {"error", "error_type"}, answer
    assert answer["error_type"] == expected["error_type"], (answer, expected)
    assert answer["error_type"] in ERROR_TYPES
    assert isinstance(answer["error"], str) and answer["error"], answer
    if "error" in expected:
        assert answer["error"] == expected["error"]


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        (b"\xc3\x28", "EncodingError"),
        (b"{", "JSONError"),
        (b"NaN", "JSONError"),
        (b"12", "RequestError"),
        (b'"now"', "RequestError"),
        (b"{}", "RequestError"),
        (GOOD.encode(), None),
        (json.dumps({"now": NOW, "sco": SCO, "orders": ["( ENG FLT LON ) MTO"]}), "NotationError"),
    ],
)
def test_the_oracle_of_the_fuzz_tests_tells_each_kind(line: str | bytes, kind: str | None) -> None:
    """The worked-out answers the fuzz tests compare with are the right kind for each line."""
    expected = expected_answer(line)
    assert expected.get("error_type") == kind
    assert_answer(adjudicate_line(line), expected)


@FUZZ
@given(st.one_of(st.binary(max_size=200), st.text(max_size=60).map(str.encode)))
def test_any_bytes_get_the_answer_their_kind_calls_for(line: bytes) -> None:
    assert_answer(adjudicate_line(line), expected_answer(line))


@FUZZ
@given(
    st.sampled_from(["SPR", "SUM", "FAL", "AUT", "WIN"]),
    st.lists(soup, max_size=6),
    soup,
)
def test_token_soup_gets_its_adjudication_or_its_typed_error(
    season: str, orders: list[str], extra: str
) -> None:
    now = f"NOW ( {season} 1901 ) ( ENG FLT LON ) ( FRA AMY PAR ) ( RUS FLT ( STP SCS ) )"
    for line in (
        json.dumps({"now": now, "sco": "SCO ( ENG LON ) ( RUS STP )", "orders": orders}),
        json.dumps({"now": f"NOW {extra}", "sco": f"SCO {extra}", "orders": orders}),
    ):
        assert_answer(adjudicate_line(line), expected_answer(line))


def test_an_in_memory_run_writes_json_lines() -> None:
    out = io.StringIO()

    class Args:
        input = io.BytesIO(GOOD.encode() + b"\n")

    from bot.commands.adjudicate import run

    assert run(Args(), out) == 0  # type: ignore[arg-type]
    assert json.loads(out.getvalue()) == adjudicate_line(GOOD)


def _console(stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", "adjudicate"],
        input=stdin,
        capture_output=True,
        timeout=120,
        env={"LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8"},
    )


def test_a_year_past_8191_is_a_one_line_error_and_the_stream_goes_on() -> None:
    last = json.dumps({"now": "NOW ( WIN 8191 ) ( ENG AMY LON )", "sco": "SCO ( ENG LON )"})
    proc = _console(last.encode() + b"\n" + GOOD.encode() + b"\n" + last.encode() + b"\n")
    assert proc.returncode == 1
    assert b"Traceback" not in proc.stderr and proc.stderr == b""
    answers = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert [a.get("error_type") for a in answers] == ["RangeError", None, "RangeError"]
    assert answers[1] == adjudicate_line(GOOD) and answers[2]["line"] == 3


@pytest.mark.timeout(120)
def test_a_huge_line_is_skipped_unread_and_the_next_one_answered() -> None:
    huge = b'{"now": "' + b"( " * (5 * MAX_LINE_BYTES) + b'"}'
    proc = _console(huge + b"\n" + GOOD.encode() + b"\n" + b"[" * (3 * MAX_LINE_BYTES))
    assert proc.returncode == 1 and b"Traceback" not in proc.stderr
    answers = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert [a.get("error_type") for a in answers] == ["LineTooLong", None, "LineTooLong"]
    assert [a.get("line") for a in answers] == [1, None, 3]


@FUZZ
@given(st.lists(st.binary(max_size=40), max_size=12), st.integers(1, 30))
def test_input_lines_never_hold_more_than_the_limit(parts: list[bytes], limit: int) -> None:
    data = b"\n".join(parts)
    got = list(input_lines(io.BytesIO(data), limit))
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    assert len(got) == len(lines)
    for line, read in zip(lines, got, strict=True):
        if len(line) > limit:
            assert read is None
        else:
            assert read is not None and read.rstrip(b"\n") == line


YEARS = ["1901", "8190", "8191", "8192", "-8193", "99999", "0", "-1"]
odd_numbers = st.sampled_from(
    ["NaN", "Infinity", "-Infinity", "1e400", "-1e999", "1" + "0" * 30, "9" * 4400, "1e-400"]
)
odd_json = st.one_of(
    odd_numbers.map(lambda n: f'{{"now": "NOW ( SPR 1901 )", "sco": "SCO", "x": {n}}}'),
    odd_numbers.map(lambda n: f'{{"now": {n}, "sco": "SCO"}}'),
    st.integers(1, 200_000).map(lambda n: "[" * n),
    st.integers(1, 200_000).map(lambda n: '{"a": ' * n),
    st.integers(1, 2000).map(lambda n: json.dumps({"now": "NOW " + "( " * n, "sco": "SCO"})),
    st.tuples(st.sampled_from(["SPR", "SUM", "FAL", "AUT", "WIN"]), st.sampled_from(YEARS)).map(
        lambda t: json.dumps(
            {
                "now": f"NOW ( {t[0]} {t[1]} ) ( ENG AMY LON ) ( FRA FLT BRE )",
                "sco": "SCO ( ENG LON )",
            }
        )
    ),
    soup.map(lambda text: json.dumps({"now": f"NOW {text}", "sco": f"SCO {text}"})),
)
odd_line = st.one_of(
    odd_json.map(str.encode),
    st.binary(max_size=300),
    st.text(max_size=100).map(lambda t: t.encode("utf-8", "surrogatepass")),
)


@FUZZ
@given(st.lists(odd_line, min_size=1, max_size=8))
def test_every_odd_line_gets_one_answer_and_the_next_is_read(lines: list[bytes]) -> None:
    stream = b"\n".join(lines) + b"\n"
    out = io.StringIO()

    class Args:
        input = io.BytesIO(stream)

    from bot.commands.adjudicate import run

    run(Args(), out)  # type: ignore[arg-type]
    expected = [line for line in stream.split(b"\n") if line.strip()]
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(answers) == len(expected)
    for answer in answers:
        assert answer.get("error_type") != "InternalError", answer
        assert "now" in answer or answer["error_type"] in ERROR_TYPES
