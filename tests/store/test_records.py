"""Lobbies, statuses, seats, messages, deadlines, preferences and history queries."""

from __future__ import annotations

import asyncio

import pytest

from bot.engine import SeatSpec
from bot.engine.autoplay import ai_step
from bot.store import Deadline, GuildSettings, Store, StoreConflict, UserPrefs
from tests.store.helpers import FIXTURE, new_live, norm, play


async def _lobby(
    store: Store, channel_id: int = 10, thread_id: int | None = None, guild_id: int = 1
) -> int:
    return await store.create_lobby(
        guild_id=guild_id,
        channel_id=channel_id,
        thread_id=thread_id,
        host_id=42,
        game=FIXTURE,
        mode="default",
        options={"a": 1},
        locale="fr",
    )


async def test_lobby_lifecycle(store: Store) -> None:
    lobby = await _lobby(store)
    record = await store.get(lobby)
    assert record is not None
    assert (record.status, record.version, record.seed, record.snapshot) == ("lobby", 0, None, None)
    assert record.options == {"a": 1} and record.locale == "fr" and record.host_id == 42
    seats = [SeatSpec(name="Ann", user_id=1), SeatSpec(name="Bot", ai=True, ai_level="hard")]
    await store.update_lobby(lobby, seats=seats, options={"a": 2}, mode="default")
    record = await store.get(lobby)
    assert record is not None and record.seats == seats and record.options == {"a": 2}
    await store.set_status(lobby, "cancelled")
    record = await store.get(lobby)
    assert record is not None and record.status == "cancelled" and record.finished_at is not None
    with pytest.raises(StoreConflict):
        await store.update_lobby(lobby, mode="default")
    assert await store.get(12345) is None


async def test_lobbies_created_together_get_each_their_own_id(store: Store) -> None:
    """A new lobby's id comes back from its one-statement batch (``Stmt.returns_id``),
    also when several are written in one group."""
    ids = await asyncio.gather(*(_lobby(store, channel_id=100 + k) for k in range(8)))
    assert len(set(ids)) == 8
    for k, lobby in enumerate(ids):
        record = await store.get(lobby)
        assert record is not None and record.channel_id == 100 + k and record.status == "lobby"


async def test_start_match_stores_seed_seats_effective_options_and_snapshot(store: Store) -> None:
    match_id, match = await new_live(store)
    record = await store.get(match_id)
    assert record is not None
    assert record.status == "live" and record.seed == match.seed and record.version == 0
    assert record.seats == match.seats and record.options == match.options
    assert record.snapshot == norm(match.snapshot())
    with pytest.raises(StoreConflict):  # a live match cannot be started again
        await store.start_match(match_id, match)


async def test_set_status_rejects_unknown_status(store: Store) -> None:
    lobby = await _lobby(store)
    with pytest.raises(ValueError):
        await store.set_status(lobby, "paused")
    with pytest.raises(KeyError):
        await store.set_status(999, "live")


async def test_ai_takeover_updates_seats_and_snapshot_without_a_version(store: Store) -> None:
    match_id, match = await new_live(store)
    await play(store, match_id, match, limit=2)
    seats = [s.model_copy() for s in match.seats]
    seats[1] = SeatSpec(name=seats[1].name + " (AI)", user_id=None, ai=True, ai_level="normal")
    await store.set_seats(match_id, seats)
    record = await store.get(match_id)
    assert record is not None and record.seats == seats and record.version == 2
    assert record.snapshot is not None and record.snapshot["seats"] == [
        s.model_dump() for s in seats
    ]
    loaded = await store.load_match(match_id)
    assert loaded.seats == seats
    await play(store, match_id, loaded)
    assert await store.check_replay(match_id)  # setup replays with the seats it started with
    with pytest.raises(StoreConflict):
        await store.set_seats(match_id, seats[:1])


async def test_active_in_channel(store: Store) -> None:
    in_channel = await _lobby(store, channel_id=10)
    in_thread = await _lobby(store, channel_id=10, thread_id=11)
    assert (r := await store.active_in_channel(10)) is not None and r.id == in_channel
    assert (r := await store.active_in_channel(11)) is not None and r.id == in_thread
    assert await store.active_in_channel(12) is None
    await store.set_status(in_channel, "cancelled")
    assert await store.active_in_channel(10) is None  # the thread match is not "in" channel 10
    await store.set_status(in_thread, "abandoned")
    assert await store.active_in_channel(11) is None


async def test_status_moves(store: Store) -> None:
    lobby = await _lobby(store)
    with pytest.raises(StoreConflict):  # only start_match makes a lobby live
        await store.set_status(lobby, "live")
    live, _ = await new_live(store)
    with pytest.raises(StoreConflict):
        await store.set_status(live, "lobby")
    await store.set_status(live, "live")  # unchanged: a no-op
    await store.set_status(live, "abandoned")
    record = await store.get(live)
    assert record is not None and record.status == "abandoned" and record.finished_at is not None
    for status in ("live", "finished", "lobby"):
        with pytest.raises(StoreConflict):  # terminal statuses are final
            await store.set_status(live, status)


async def test_recent_is_latest_activity_first_and_filters(store: Store) -> None:
    a = await _lobby(store, channel_id=10)
    b = await _lobby(store, channel_id=20)
    c = await _lobby(store, channel_id=30, thread_id=31)
    other_guild = await _lobby(store, guild_id=2)
    assert [r.id for r in await store.recent(1)] == [c, b, a]
    await store.set_status(a, "cancelled")  # touching a match makes it the most recent
    assert [r.id for r in await store.recent(1)] == [a, c, b]
    assert [r.id for r in await store.recent(1, limit=2)] == [a, c]
    assert [r.id for r in await store.recent(1, channel_id=20)] == [b]
    assert [r.id for r in await store.recent(1, channel_id=31)] == [c]
    assert [r.id for r in await store.recent(2)] == [other_guild]


async def test_messages_by_role(store: Store) -> None:
    match_id = await _lobby(store)
    assert await store.messages(match_id) == {}
    await store.set_message(match_id, "lobby", 10, 1)
    await store.set_message(match_id, "round", 10, 2)
    await store.set_message(match_id, "round", 11, 3)  # replaced, not duplicated
    assert await store.messages(match_id) == {"lobby": (10, 1), "round": (11, 3)}
    await store.clear_message(match_id, "lobby")
    assert await store.messages(match_id) == {"round": (11, 3)}


async def test_deadlines_upsert_remind_clear(store: Store) -> None:
    m1, match = await new_live(store, channel_id=1)
    m2, _ = await new_live(store, channel_id=2)
    await store.set_deadline(m1, "r1:s0", 0, due_at=300.0, remind_at=200.0)
    await store.set_deadline(m2, "r1:s1", 1, due_at=100.0, remind_at=50.0)
    await store.mark_reminded(m1, "r1:s0")
    assert (await store.deadlines(m1))[0].reminded is True
    await store.set_deadline(m1, "r1:s0", 0, due_at=400.0, remind_at=350.0)  # moved: upsert
    assert await store.deadlines(m1) == [
        Deadline(match_id=m1, key="r1:s0", seat=0, due_at=400.0, remind_at=350.0, reminded=False)
    ]
    assert [(d.match_id, d.key) for d in await store.deadlines()] == [(m2, "r1:s1"), (m1, "r1:s0")]
    await store.clear_deadline(m2, "r1:s1")
    assert [d.match_id for d in await store.deadlines()] == [m1]
    await play(store, m1, match)  # a finished match keeps no timers
    assert await store.deadlines() == []


async def test_guild_settings_defaults_and_partial_updates(store: Store) -> None:
    assert await store.guild_settings(5) == GuildSettings(guild_id=5, locale=None, use_threads=True)
    await store.set_guild_settings(5, use_threads=False)
    assert await store.guild_settings(5) == GuildSettings(guild_id=5, use_threads=False)
    await store.set_guild_settings(5, use_threads=True)
    assert await store.guild_settings(5) == GuildSettings(guild_id=5, use_threads=True)
    await store.set_guild_settings(5, locale="fr")
    assert await store.guild_settings(5) == GuildSettings(guild_id=5, locale="fr", use_threads=True)
    await store.set_guild_settings(5, locale=None)  # None clears, ... keeps
    assert await store.guild_settings(5) == GuildSettings(guild_id=5, locale=None, use_threads=True)
    assert await store.guild_settings(6) == GuildSettings(guild_id=6)


async def test_user_prefs_defaults_and_partial_updates(store: Store) -> None:
    assert await store.user_prefs(9) == UserPrefs(user_id=9)
    await store.set_user_prefs(9, dm=True, locale="en-US")
    await store.set_user_prefs(9, dm_closed=True)
    assert await store.user_prefs(9) == UserPrefs(
        user_id=9, dm=True, dm_closed=True, locale="en-US"
    )
    await store.set_user_prefs(9, dm=False, locale=None)
    assert await store.user_prefs(9) == UserPrefs(user_id=9, dm=False, dm_closed=True, locale=None)


async def test_started_with_choices_logs_them_in_the_same_transaction(store: Store) -> None:
    from bot.engine import Match
    from tests.store.helpers import seats_for

    match = Match.create(FIXTURE, seats_for(FIXTURE), seed="pre")
    ai_step(match)
    ai_step(match)
    lobby = await _lobby(store)
    await store.start_match(lobby, match)
    assert await store.decisions(lobby) == match.choices
    assert await store.check_replay(lobby)
