"""The public API of ``protocol``: every exported name resolves, and importing stays light."""

from __future__ import annotations

import subprocess
import sys
from importlib import import_module

import pytest

import protocol


def test_every_exported_name_resolves_to_its_submodule_s_object() -> None:
    for name in protocol.__all__:
        value = getattr(protocol, name)
        defined_in = getattr(value, "__module__", "")
        if defined_in.startswith("protocol."):  # a class or function of ours, not a constant
            assert getattr(import_module(defined_in), name) is value, name


def test_one_list_without_duplicates() -> None:
    assert len(set(protocol.__all__)) == len(protocol.__all__)
    assert set(dir(protocol)) >= set(protocol.__all__)


@pytest.mark.parametrize("name", ["to_text", "huh_for", "check_nesting", "TokenReader"])
def test_helpers_are_not_the_package_api(name: str) -> None:
    """Building blocks stay in their modules (``protocol.messages.huh_for``...)."""
    assert name not in protocol.__all__
    with pytest.raises(AttributeError):
        getattr(protocol, name)


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
