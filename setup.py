"""Build the compiled fast paths (Cython); everything else is in pyproject.toml.

Each extension is optional: without a C compiler the install goes on and the
pure-Python code runs instead (slower; see adjudicator/compiled_rules.py).  Each is
built with the SHA-256 of its source, so that a stale build can be told from
a current one (``make setup`` rebuilds after a change).
"""

import hashlib
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

SOURCES = {
    "adjudicator._fastmove": "adjudicator/_fastmove.pyx",
    "adjudicator._fastlegal": "adjudicator/_fastlegal.pyx",
    "search._fastbot": "search/_fastbot.pyx",
}


def extension(name: str, source: str) -> Extension:
    """One optional extension, told its source's hash (``SOURCE_SHA256``).

    ``-ffp-contract=off``: no fused multiply-add, so floating point gives what
    Python gives for the same operations.
    """
    digest = hashlib.sha256(Path(source).read_bytes()).hexdigest()
    return Extension(
        name,
        [source],
        define_macros=[("SOURCE_SHA256", f'"{digest}"')],
        extra_compile_args=["-O2", "-ffp-contract=off"],
        optional=True,
    )


setup(
    ext_modules=cythonize(
        [extension(name, source) for name, source in SOURCES.items()],
        language_level=3,
    )
)
