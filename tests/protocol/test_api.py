"""The public API of ``protocol``: every exported name resolves, and importing stays light."""

from __future__ import annotations

import subprocess
import sys

import protocol


def test_every_exported_name_resolves() -> None:
    for name in protocol.__all__:
        assert getattr(protocol, name) is not None, name


def test_unknown_names_are_attribute_errors() -> None:
    try:
        protocol.no_such_thing  # noqa: B018
    except AttributeError:
        return
    raise AssertionError("expected AttributeError")


def test_importing_values_does_not_load_the_wire_layer() -> None:
    code = (
        "import sys, protocol.values, protocol;"
        "print(any(m.startswith('construct') or m == 'protocol.wire' for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
