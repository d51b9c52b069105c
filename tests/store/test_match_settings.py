"""Per-match table settings (schema version 4): kept apart from the game options."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import pytest

from bot.engine import Match
from bot.store import Store
from tests.store.helpers import FIXTURE, migrate_sqlite, new_live, play, seats_for


async def test_settings_survive_start_match_and_reopening(db_path: Path, store: Store) -> None:
    match_id = await store.create_lobby(
        guild_id=1,
        channel_id=10,
        thread_id=None,
        host_id=1000,
        game=FIXTURE,
        mode="default",
        options={"_timers": {"pick": 60}},
        locale="en",
    )
    assert await store.match_settings(match_id) == {}
    await store.set_match_settings(match_id, {"timers": {"pick": 60, "turn": 60}})
    match = Match.create(FIXTURE, seats_for(FIXTURE), seed="s", mode="default")
    await store.start_match(match_id, match)
    assert await store.match_settings(match_id) == {"timers": {"pick": 60, "turn": 60}}
    record = await store.get(match_id)
    assert record is not None and "timers" not in record.options
    await play(store, match_id, match)
    assert await store.check_replay(match_id), "settings never enter the replay"
    await store.close()
    again = await Store.open(db_path)
    try:
        assert await again.match_settings(match_id) == {"timers": {"pick": 60, "turn": 60}}
        await again.set_match_settings(match_id, {})
        assert await again.match_settings(match_id) == {}
    finally:
        await again.close()


async def test_unknown_match(store: Store) -> None:
    assert await store.match_settings(404) == {}
    with pytest.raises(KeyError):
        await store.set_match_settings(404, {"timers": {}})


async def test_version_3_timer_rows_become_settings(sqlite_path: Path) -> None:
    """Bots before version 4 kept deadlines as ``timer:*`` message rows; they are moved."""
    sqlite_path.parent.mkdir(parents=True)
    assert await migrate_sqlite(sqlite_path, 3) == 3
    async with aiosqlite.connect(sqlite_path, isolation_level=None) as db:
        for mid in (1, 2):
            await db.execute(
                "INSERT INTO matches (id, guild_id, channel_id, host_id, game, mode, options, "
                "status, locale, created_at, updated_at) "
                "VALUES (?, 5, 6, 7, ?, 'default', '{}', 'lobby', 'fr', 1.0, 1.0)",
                (mid, FIXTURE),
            )
        rows = [(1, "timer:pick", 0, 120), (1, "timer:action", 0, 30), (1, "round", 6, 999)]
        for mid, role, channel, message in rows:
            await db.execute(
                "INSERT INTO messages (match_id, role, channel_id, message_id, updated_at) "
                "VALUES (?, ?, ?, ?, 1.0)",
                (mid, role, channel, message),
            )
    store = await Store.open(sqlite_path)
    try:
        assert await store.match_settings(1) == {"timers": {"pick": 120, "action": 30}}
        assert await store.match_settings(2) == {}
        assert await store.messages(1) == {"round": (6, 999)}
        match_id, match = await new_live(store)
        assert await store.match_settings(match_id) == {}
    finally:
        await store.close()
