"""Build step of the package: MAD's search compiled into a native twin with mypyc, and
its C core.

``pyproject.toml`` holds the package's metadata; this file only adds the optional
extension. ``bot/games/mad/search.py`` compiles, unchanged, into an extension module
beside it that plays the same moves about 5 times faster (issue 16: MAD's searching
levels were a third of the CPU under load). The build writes the source's SHA-256 beside
the twin (``search.built``) so that ``bot/games/mad/native.py`` runs the twin only when
it was built from the very source present. Without a C compiler the build skips the
twin and the package runs the source as before.

``bot/games/mad/searchcore.c`` is the search below the root ported to C (issue 16: MAD's
hard level was still the largest single share of the CPU under load with the twin); the
module is compiled with the SHA-256 of its source, which ``native.load_core`` checks
against the ``searchcore.c`` present. It is optional too: without it the search runs
below the root in Python.

``bot/gm/lockedio.c`` reads and writes the worker processes' sockets without releasing
the interpreter lock (issue 16: the event loop waited for the lock back after each job's
write); optional as well, and checked the same way: without it ``os.read`` and
``os.write`` serve.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SEARCH = "bot/games/mad/search.py"
STAMP = "bot/games/mad/search.built"
CORE = "bot/games/mad/searchcore.c"
LOCKED_IO = "bot/gm/lockedio.c"


def source_digest(path: str = SEARCH) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def c_extension(name: str, source: str) -> Extension:
    """A module written in C, carrying the digest of the source it is compiled from;
    optional: without a compiler, a warning, and its Python fallback serves."""
    return Extension(
        name,
        sources=[source],
        define_macros=[("SOURCE_SHA256", f'"{source_digest(source)}"')],
        optional=True,
    )


BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "install", "develop"}
"""Commands that build extensions; metadata (``egg_info``, ``sdist``) keeps the placeholder."""
MYPY_FLAGS = ["--ignore-missing-imports", "--follow-imports=silent"]
"""The build environment holds no dependency (pydantic, Pillow): the search uses none,
and what it imports from the package is only read for its types."""


class BuildNative(build_ext):
    """Compiles with mypyc only when extensions are really built, not for metadata."""

    def finalize_options(self) -> None:
        if BUILDS & set(self.distribution.commands or ()):
            from mypyc.build import mypycify

            extensions = mypycify([*MYPY_FLAGS, SEARCH], opt_level="3")
            for ext in extensions:
                ext.optional = True  # no compiler: a warning, and the source runs
            self.distribution.ext_modules = [
                *extensions,
                c_extension("bot.games.mad.searchcore", CORE),
                c_extension("bot.gm.lockedio", LOCKED_IO),
            ]
        super().finalize_options()

    def run(self) -> None:
        super().run()
        twin = Path(self.get_ext_filename("bot.games.mad.search"))
        places = [Path(self.build_lib)] + ([Path(".")] if self.inplace else [])
        for root in places:
            if (root / twin).exists():
                (root / STAMP).write_text(source_digest() + "\n")


setup(
    # A placeholder so that setuptools runs build_ext; BuildNative puts mypyc's in its place.
    ext_modules=[Extension("bot.games.mad.search", sources=[SEARCH], optional=True)],
    # (the C modules are added with the twin, by BuildNative, when extensions are built)
    cmdclass={"build_ext": BuildNative},
)
