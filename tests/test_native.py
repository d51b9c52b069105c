"""The bot's C modules (``bot/native.py``): one is used only when it was built from the
source present, so an edited source whose module was not rebuilt never runs stale code:
the Python fallback serves, with a warning that says how to rebuild."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import pytest

from bot import native


def test_a_module_built_from_another_source_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "fast.c"
    source.write_bytes(b"/* a C module's source */\n")
    built = ModuleType("fast")
    built.SOURCE_SHA256 = native.digest(source)  # type: ignore[attr-defined]
    assert native.built_from(built, source)
    monkeypatch.setitem(sys.modules, "bot.fast", built)
    assert native.load("bot.fast", source, "the fallback serves") is built

    source.write_bytes(source.read_bytes() + b"/* edited */\n")
    assert not native.built_from(built, source)
    warned: list[str] = []
    monkeypatch.setattr(native.log, "warning", lambda msg, *args: warned.append(msg % args))
    assert native.load("bot.fast", source, "the fallback serves") is None
    assert warned == [
        "bot.fast was built from another fast.c: the fallback serves "
        "(`pip install -e .` rebuilds it)"
    ]


def test_without_its_source_a_module_is_trusted_and_without_a_build_none() -> None:
    """A package installed without its C sources has nothing to compare with; a module
    that was never built (no compiler) gives None, and the fallback serves silently."""
    built = ModuleType("fast")
    assert native.built_from(built, Path("/nonexistent/fast.c"))
    assert native.load("bot.no_such_module", Path(native.__file__), "unused") is None
