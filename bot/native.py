"""Modules written in C that the bot uses when they were built from the source present.

Each is an optional extension (``setup.py``): ``pip install`` compiles it where a C
compiler exists, with the SHA-256 of its source as ``SOURCE_SHA256``, and its Python
fallback serves elsewhere. A module built from another version of its source (edited
since the last install) is not used: it could do what the source no longer says.
"""

from __future__ import annotations

import hashlib
import importlib
import logging
from pathlib import Path
from types import ModuleType

log = logging.getLogger(__name__)


def digest(source: Path) -> str:
    return hashlib.sha256(source.read_bytes()).hexdigest()


def built_from(module: ModuleType, source: Path) -> bool:
    """Whether ``module`` was compiled from the ``source`` present (a package installed
    without its C source has nothing to compare: its module is trusted)."""
    if not source.exists():
        return True
    return getattr(module, "SOURCE_SHA256", "") == digest(source)


def load(name: str, source: Path, fallback: str) -> ModuleType | None:
    """The C module ``name`` if it loads and was built from ``source``, else None, with a
    warning that says what serves instead (``fallback``) when it is stale."""
    try:
        module = importlib.import_module(name)
    except ImportError:
        return None
    if not built_from(module, source):
        log.warning(
            "%s was built from another %s: %s (`pip install -e .` rebuilds it)",
            name,
            source.name,
            fallback,
        )
        return None
    return module
