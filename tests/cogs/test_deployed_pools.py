"""The deployed bot (``long_lived``) starts its worker pools at setup and stops them at close."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import ArenaBot
from bot.gm import drawing, thinking
from tests.cogs.driver import Driver


async def test_the_deployed_bot_starts_its_pools_and_its_close_stops_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ArenaBot, "long_lived", True)
    d = Driver(tmp_path, players=2)
    await d.start()
    try:
        assert drawing.started(), "the drawing processes start at setup"
        assert thinking._pool is not None, "the AI's processes start at setup"
    finally:
        await d.stop()
    assert not drawing.started()
    assert thinking._pool is None  # no manager thread left behind by the bot's close
