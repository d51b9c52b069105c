"""Opening an older database migrates it in order; a newer one is refused."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import pytest

import bot.store.schema as schema
from bot.store import LATEST_VERSION, MIGRATIONS, Migration, SchemaTooNew, Store
from tests.store.helpers import FIXTURE, migrate_sqlite, new_live, play


def test_migrations_are_numbered_in_order() -> None:
    assert [m.version for m in MIGRATIONS] == list(range(1, LATEST_VERSION + 1))
    assert LATEST_VERSION >= 2


async def test_fresh_database_reaches_latest_version(store: Store) -> None:
    assert await store.schema_version() == LATEST_VERSION


async def test_version_1_database_is_migrated_and_keeps_its_data(sqlite_path: Path) -> None:
    sqlite_path.parent.mkdir(parents=True)
    assert await migrate_sqlite(sqlite_path, 1) == 1
    async with aiosqlite.connect(sqlite_path, isolation_level=None) as db:
        await db.execute(
            "INSERT INTO matches (id, guild_id, channel_id, host_id, game, mode, options, status, "
            "locale, created_at, updated_at) "
            "VALUES (1, 5, 6, 7, ?, 'default', '{}', 'lobby', 'fr', 1.0, 1.0)",
            (FIXTURE,),
        )
        await db.execute("INSERT INTO seats (match_id, idx, name, user_id) VALUES (1, 0, 'Ann', 7)")
        async with db.execute("SELECT name FROM sqlite_master WHERE name = 'messages'") as cur:
            assert await cur.fetchone() is None
    store = await Store.open(sqlite_path)
    try:
        assert await store.schema_version() == LATEST_VERSION
        record = await store.get(1)
        assert record is not None and record.locale == "fr" and record.seats[0].name == "Ann"
        # Tables from later migrations work.
        await store.set_message(1, "lobby", 6, 99)
        assert await store.messages(1) == {"lobby": (6, 99)}
        await store.set_user_prefs(7, dm=True)
        assert (await store.user_prefs(7)).dm is True
        # And new matches are stored alongside the old one.
        match_id, match = await new_live(store)
        await play(store, match_id, match)
        assert await store.check_replay(match_id)
    finally:
        await store.close()


async def test_reopening_is_idempotent(db_path: Path) -> None:
    for _ in range(3):
        store = await Store.open(db_path)
        assert await store.schema_version() == LATEST_VERSION
        await store.close()


async def test_newer_database_is_refused(db_path: Path) -> None:
    store = await Store.open(db_path)
    async with store.backend.write() as tx:
        await tx.execute("UPDATE schema_version SET version = ?", (LATEST_VERSION + 1,))
    await store.close()
    with pytest.raises(SchemaTooNew):
        await Store.open(db_path)


async def test_a_failing_migration_leaves_the_previous_version_whole(
    sqlite_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = await Store.open(sqlite_path)
    await store.close()
    broken = Migration(
        LATEST_VERSION + 1,
        "half good, half broken",
        ("CREATE TABLE extra (x INTEGER)", "ALTER TABLE no_such_table ADD COLUMN y INTEGER"),
    )
    monkeypatch.setattr(schema, "MIGRATIONS", (*MIGRATIONS, broken))
    with pytest.raises(Exception, match="no_such_table"):
        await Store.open(sqlite_path)
    async with aiosqlite.connect(sqlite_path) as db:
        async with db.execute("SELECT version FROM schema_version") as cur:
            assert (await cur.fetchone())[0] == LATEST_VERSION
        async with db.execute("SELECT name FROM sqlite_master WHERE name = 'extra'") as cur:
            assert await cur.fetchone() is None  # the good half was rolled back too
    monkeypatch.setattr(
        schema,
        "MIGRATIONS",
        (*MIGRATIONS, Migration(LATEST_VERSION + 1, "fixed", ("CREATE TABLE extra (x INTEGER)",))),
    )
    store = await Store.open(sqlite_path)
    assert await store.schema_version() == LATEST_VERSION + 1
    await store.close()
