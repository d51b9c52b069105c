"""Which MAD search runs: its compiled twin when built from this very source, else the source;
and whether the search's C core (``searchcore.c``) is there and current.

``pip install`` compiles ``search.py`` with mypyc (``setup.py``) into an extension module
beside it, which Python imports in its place: the same code, the same moves, about 5
times faster (issue 16: MAD's searching levels were a third of the CPU under load). The
build writes the source's SHA-256 beside the twin (``search.built``). An edited
``search.py`` whose twin was not rebuilt runs as written, with a warning, rather than the
stale twin; a twin that fails to load and a machine that could not build one run the
source too. ``select`` runs from the package's ``__init__``, before anything imports the
search.

The core (:func:`load_core`) is a C port of the search below the root, built by the same
``pip install`` beside it; the module carries the SHA-256 of the ``searchcore.c`` it was
compiled from, and a core built from another ``searchcore.c`` is not used (the Python
search runs, with a warning).
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import logging
import sys
from pathlib import Path
from types import ModuleType

from bot.native import built_from, digest, load

MODULE = "bot.games.mad.search"
HERE = Path(__file__).resolve().parent
STAMP_NAME = "search.built"
CORE_MODULE = "bot.games.mad.searchcore"
CORE_SOURCE = HERE / "searchcore.c"

log = logging.getLogger(__name__)


def twins(folder: Path) -> list[Path]:
    """The compiled ``search`` modules in ``folder`` (one per extension suffix found)."""
    return [
        folder / f"search{suffix}"
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
        if (folder / f"search{suffix}").exists()
    ]


def twin_is_current(folder: Path) -> bool:
    """Whether ``folder`` holds a twin built from the ``search.py`` now beside it."""
    stamp = folder / STAMP_NAME
    if not twins(folder) or not stamp.exists():
        return False
    return stamp.read_text().strip() == digest(folder / "search.py")


def load_source(name: str, source: Path = HERE / "search.py") -> ModuleType:
    """``source`` interpreted, as module ``name`` (registered, as an import would)."""
    spec = importlib.util.spec_from_file_location(name, source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def select() -> ModuleType:
    """Imports ``bot.games.mad.search``: the twin if it is current and loads, else the source."""
    if MODULE in sys.modules:
        return sys.modules[MODULE]
    if twins(HERE):
        if twin_is_current(HERE):
            try:
                return importlib.import_module(MODULE)
            except ImportError as exc:
                log.warning("MAD's compiled search does not load (%s): running the source", exc)
                sys.modules.pop(MODULE, None)
        else:
            log.warning(
                "MAD's compiled search was built from another search.py: running the "
                "source (`pip install -e .` rebuilds it)"
            )
        return load_source(MODULE)
    return importlib.import_module(MODULE)


def compiled(module: ModuleType | None = None) -> bool:
    """Whether ``module`` (by default the search in use) is the compiled twin."""
    module = module or sys.modules.get(MODULE)
    return module is not None and not str(module.__file__).endswith(".py")


def core_is_current(module: ModuleType, source: Path = CORE_SOURCE) -> bool:
    """Whether the core ``module`` was compiled from the ``searchcore.c`` now beside it."""
    return built_from(module, source)


def load_core() -> ModuleType | None:
    """The search's C core if it was built from the source present and loads, else None
    (the search then runs below the root in Python, the same moves more slowly)."""
    return load(CORE_MODULE, CORE_SOURCE, "searching in Python")
