"""Build the compiled fast paths (Cython); everything else is in pyproject.toml.

Each extension is optional: without a C compiler the install goes on and the
pure-Python code runs instead (slower; see adjudicator/compiled_rules.py).  Each is
built from its .pyx, or from a .py in Cython's pure Python mode (adjudicator/per_map.py,
which runs as it is where it is not built), with the SHA-256 of that source and the .pxd
files and C headers it is built with (adjudicator/compiled_sources.py), so that a stale
build can be told from a current one (``make setup`` rebuilds after a change).  Cython
translates and the compiler compiles on every core (``BuildOnEveryCore``).
"""

import importlib.util
import os
from pathlib import Path
from types import ModuleType

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

CORES = os.cpu_count() or 1

ROOT = Path(__file__).resolve().parent


def _compiled_sources() -> ModuleType:
    """adjudicator/compiled_sources.py, loaded by its path (the package is not importable yet)."""
    spec = importlib.util.spec_from_file_location(
        "compiled_sources", ROOT / "adjudicator" / "compiled_sources.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SOURCES = _compiled_sources()


def extension(name: str) -> Extension:
    """One optional extension, told the hash of its files (``SOURCE_SHA256``).

    ``-ffp-contract=off``: no fused multiply-add, so floating point gives what
    Python gives for the same operations.  NumPy's headers are on the include path: the
    search's generator is read through its bit generator interface (``numpy/random/bitgen.h``).
    """
    source = SOURCES.source(name)
    built_with = SOURCES.built_with(name)
    digest = SOURCES.digest(ROOT / path for path in [source, *built_with])
    return Extension(
        name,
        [source],
        depends=built_with,
        include_dirs=[numpy.get_include()],
        define_macros=[("SOURCE_SHA256", f'"{digest}"')],
        extra_compile_args=["-O2", "-ffp-contract=off"],
        optional=True,
    )


class BuildOnEveryCore(build_ext):
    """build_ext compiling the extensions side by side, one per core, unless ``-j`` says."""

    def finalize_options(self) -> None:
        """Default ``parallel`` (``-j``) to the number of cores."""
        super().finalize_options()
        if self.parallel is None:
            self.parallel = CORES


setup(
    ext_modules=cythonize(
        [extension(name) for name in SOURCES.DECLARATIONS],
        language_level=3,
        nthreads=CORES,
    ),
    cmdclass={"build_ext": BuildOnEveryCore},
)
