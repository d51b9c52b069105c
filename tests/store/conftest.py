"""Store fixtures: every test that takes ``db_path`` runs on SQLite and on a real PostgreSQL.

``db_path`` is a SQLite file path or, for the ``postgres`` run, the URL of a fresh
schema on the session's server (``tests/support/postgres.py``). A test about SQLite
files themselves (older schemas, pragmas, the WAL) takes ``sqlite_path`` instead.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Store
from tests.support.postgres import pg_server, pg_url  # noqa: F401  (fixtures)

BACKENDS = ("sqlite", "postgres")


class Clock:
    """A controllable clock so ordering by time is deterministic."""

    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


@pytest.fixture
def sqlite_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "arena.sqlite3"


@pytest.fixture(params=BACKENDS)
def db_path(request: pytest.FixtureRequest, sqlite_path: Path) -> Path | str:
    """Where the store lives: a SQLite file, or a Postgres URL (a fresh schema)."""
    if request.param == "sqlite":
        return sqlite_path
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def store(db_path: Path | str, clock: Clock) -> AsyncIterator[Store]:
    s = await Store.open(db_path, clock=clock)
    yield s
    await s.close()
