"""The decision log replays to the stored snapshot; a restarted bot resumes where it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.engine import Match
from bot.store import Store
from tests.store.helpers import FIXTURE, game_cases, new_live, norm, play, step


@pytest.mark.parametrize(("game_id", "mode"), game_cases())
async def test_finished_match_log_replays_to_snapshot(
    sqlite_path: Path, game_id: str, mode: str
) -> None:
    """Every mode of every game, on SQLite."""
    store = await Store.open(sqlite_path)
    try:
        await replays_to_snapshot(store, game_id, mode)
    finally:
        await store.close()


@pytest.mark.parametrize(("game_id", "mode"), [(FIXTURE, "default"), ("mad-arena", None)])
async def test_finished_match_log_replays_to_snapshot_on_postgres(
    pg_url: str, game_id: str, mode: str | None
) -> None:
    """The same on PostgreSQL, for two games: the replay itself does not depend on the
    backend, what is stored and read back does (Mad Arena has the largest snapshots)."""
    store = await Store.open(pg_url)
    try:
        await replays_to_snapshot(store, game_id, mode)
    finally:
        await store.close()


async def replays_to_snapshot(store: Store, game_id: str, mode: str | None) -> None:
    match_id, match = await new_live(store, game_id, mode=mode, seed=f"replay-{game_id}")
    made = await play(store, match_id, match, ai_seconds=1.5)
    record = await store.get(match_id)
    assert record is not None
    assert record.status == "finished" and record.finished_at is not None
    assert record.version == match.version == made
    assert record.snapshot == norm(match.snapshot())
    log = await store.decisions(match_id)
    assert log == match.choices
    replayed = await store.replay_match(match_id)
    assert norm(replayed.snapshot()) == record.snapshot
    # The same through the engine directly, from the record's fields alone.
    again = Match.replay(game_id, record.seats, record.seed, record.mode, record.options, log)
    assert norm(again.snapshot()) == record.snapshot
    assert await store.check_replay(match_id)
    rows = await store.decision_log(match_id)
    assert [r["seq"] for r in rows] == list(range(1, made + 1))
    flags = [r["by_ai"] for r in rows]
    assert flags[0] is True and flags == sorted(flags, reverse=True)  # AI, then maybe random


async def test_check_replay_detects_a_snapshot_that_does_not_match(store: Store) -> None:
    match_id, match = await new_live(store)
    await play(store, match_id, match, limit=3)
    assert await store.check_replay(match_id)
    tampered = norm(match.snapshot())
    tampered["dice"]["counter"] += 1
    async with store.backend.write() as tx:  # corruption behind the store's back
        await tx.execute(
            "UPDATE matches SET snapshot = ? WHERE id = ?", (json.dumps(tampered), match_id)
        )
    assert not await store.check_replay(match_id)


async def test_restart_recovery_resumes_every_active_match(db_path: Path) -> None:
    store = await Store.open(db_path)
    lobby = await store.create_lobby(
        guild_id=1,
        channel_id=20,
        thread_id=None,
        host_id=7,
        game=FIXTURE,
        mode="default",
        options={},
        locale="en",
    )
    live_a, match_a = await new_live(store, seed="a", channel_id=21)
    live_b, match_b = await new_live(store, seed="b", channel_id=22, count=3)
    done, match_done = await new_live(store, seed="c", channel_id=23)
    await play(store, live_a, match_a, limit=3)
    await play(store, live_b, match_b, limit=4)
    await play(store, done, match_done)
    await store.set_deadline(live_a, "r2:s1", 1, due_at=100.0, remind_at=50.0)
    await store.set_message(live_a, "round", 21, 555)
    await store.close()

    store = await Store.open(db_path)
    try:
        active = await store.active_matches()
        assert [r.id for r in active] == [lobby, live_a, live_b]
        assert [r.status for r in active] == ["lobby", "live", "live"]
        for match_id, before in ((live_a, match_a), (live_b, match_b)):
            loaded = await store.load_match(match_id)
            assert norm(loaded.snapshot()) == norm(before.snapshot())
            assert loaded.choices == before.choices
            assert loaded.version == before.version
            assert [d.key for d in loaded.pending()] == [d.key for d in before.pending()]
            # Play on from the reloaded match: versions continue without a gap.
            await play(store, match_id, loaded)
            assert await store.check_replay(match_id)
        assert [d.key for d in await store.deadlines()] == []  # finished matches drop timers
        assert await store.messages(live_a) == {"round": (21, 555)}
        assert [r.id for r in await store.active_matches()] == [lobby]
    finally:
        await store.close()


async def test_load_match_of_a_lobby_is_refused(store: Store) -> None:
    lobby = await store.create_lobby(
        guild_id=1,
        channel_id=2,
        thread_id=None,
        host_id=3,
        game=FIXTURE,
        mode="default",
        options={},
        locale="en",
    )
    with pytest.raises(KeyError):
        await store.load_match(lobby)
    with pytest.raises(KeyError):
        await store.replay_match(lobby)


async def test_step_helper_marks_ai_decisions(store: Store) -> None:
    match_id, match = await new_live(store)
    await step(store, match_id, match)
    assert (await store.decision_log(match_id))[0]["by_ai"] is True
