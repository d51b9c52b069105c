"""Keep the MAD tests independent of other game packages (the registry imports them all)."""

from __future__ import annotations

import pytest

import bot.games.mad  # noqa: F401  (registers "mad")
from bot.engine import registry


@pytest.fixture(autouse=True)
def _only_mad_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """``get_game("mad")`` without importing the other games, which may be mid-change."""
    monkeypatch.setattr(registry, "_load_all", lambda: None)
