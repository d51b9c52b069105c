from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Store


class Clock:
    """A controllable clock so ordering by time is deterministic."""

    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "arena.sqlite3"


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def store(db_path: Path, clock: Clock) -> AsyncIterator[Store]:
    s = await Store.open(db_path, clock=clock)
    yield s
    await s.close()
