"""A decision and its snapshot commit together; the log is append-only; conflicts are refused."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.engine.autoplay import ai_step
from bot.store import Store, StoreConflict
from bot.store.backend import SqliteBackend
from tests.store.helpers import new_live, norm, play

ROOT = Path(__file__).resolve().parents[2]


class Boom(Exception):
    pass


async def _assert_whole(store: Store, match_id: int, version: int) -> None:
    """The stored match is exactly the state after ``version`` decisions: no mix."""
    record = await store.get(match_id)
    assert record is not None
    log = await store.decision_log(match_id)
    assert record.version == version
    assert [r["seq"] for r in log] == list(range(1, version + 1))
    assert record.snapshot is not None and record.snapshot["version"] == version
    assert await store.check_replay(match_id)


async def test_exception_between_version_swap_and_log_insert_rolls_back(
    db_path: Path | str,
) -> None:
    store = await Store.open(db_path)
    match_id, match = await new_live(store)
    await play(store, match_id, match, limit=3)
    before = await store.get(match_id)

    async def crash() -> None:
        # The new version is written inside the open transaction at this point, and
        # readers (who take no write lock) still see only the last commit.
        seen = await store.get(match_id, snapshot=False)
        assert seen is not None and seen.version == 3
        raise Boom

    store._between_statements = crash  # noqa: SLF001
    choice, _ = ai_step(match)
    with pytest.raises(Boom):
        await store.commit_decision(match_id, choice, match)
    store._between_statements = None  # noqa: SLF001
    await _assert_whole(store, match_id, 3)
    assert await store.get(match_id) == before
    await store.close()

    # Reopened from disk: still the old state, whole.
    store = await Store.open(db_path)
    await _assert_whole(store, match_id, 3)
    # The bot reloads and carries on; the same decision now commits cleanly.
    reloaded = await store.load_match(match_id)
    reloaded.apply(choice)
    await store.commit_decision(match_id, choice, reloaded)
    await _assert_whole(store, match_id, 4)
    await store.close()


_CRASHER = """
import asyncio, os, sys
sys.path.insert(0, {root!r})
from bot.store import Store
from tests.store.helpers import new_live, play, step

async def main() -> None:
    store = await Store.open({path!r})
    match_id, match = await new_live(store, seed="crash")
    await play(store, match_id, match, limit={before})
    print(match_id, flush=True)

    async def die() -> None:
        os._exit(17)  # a hard crash: no rollback, no close, no atexit

    if {where!r} == "between":
        store._between_statements = die
        await step(store, match_id, match)
    else:  # right after COMMIT returned, before anything could be posted
        await step(store, match_id, match)
        os._exit(17)

asyncio.run(main())
"""


@pytest.mark.parametrize(("where", "expected"), [("between", 5), ("after_commit", 6)])
async def test_hard_crash_leaves_the_old_or_the_new_state(
    db_path: Path | str, where: str, expected: int
) -> None:
    script = _CRASHER.format(root=str(ROOT), path=str(db_path), before=5, where=where)
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    assert proc.returncode == 17, proc.stderr
    match_id = int(proc.stdout.split()[0])
    store = await Store.open(db_path)
    try:
        await _assert_whole(store, match_id, expected)
        loaded = await store.load_match(match_id)
        assert norm(loaded.snapshot()) == norm((await store.replay_match(match_id)).snapshot())
    finally:
        await store.close()


async def test_version_gap_is_a_conflict_and_writes_nothing(store: Store) -> None:
    match_id, match = await new_live(store)
    ai_step(match)
    choice, _ = ai_step(match)  # two decisions ahead of the store
    with pytest.raises(StoreConflict):
        await store.commit_decision(match_id, choice, match)
    await _assert_whole(store, match_id, 0)


async def test_same_version_twice_is_a_conflict(store: Store) -> None:
    match_id, match = await new_live(store)
    twin = await store.load_match(match_id)
    choice, _ = ai_step(match)
    await store.commit_decision(match_id, choice, match)
    other, _ = ai_step(twin)  # a second task that applied to a stale copy
    with pytest.raises(StoreConflict):
        await store.commit_decision(match_id, other, twin)
    await _assert_whole(store, match_id, 1)


async def test_commit_to_a_match_that_is_not_live_is_a_conflict(store: Store) -> None:
    match_id, match = await new_live(store)
    await store.set_status(match_id, "abandoned")
    choice, _ = ai_step(match)
    with pytest.raises(StoreConflict):
        await store.commit_decision(match_id, choice, match)
    with pytest.raises(StoreConflict):
        await store.commit_decision(999, choice, match)


async def test_commit_refuses_a_choice_that_is_not_the_last_applied(store: Store) -> None:
    match_id, match = await new_live(store)
    ai_step(match)
    wrong = match.choices[0].model_copy(update={"option": "3"})
    with pytest.raises(ValueError):
        await store.commit_decision(match_id, wrong, match)


async def test_decision_log_is_append_only(store: Store) -> None:
    match_id, match = await new_live(store)
    await play(store, match_id, match, limit=2)
    for sql in (
        "UPDATE decisions SET option = '3' WHERE match_id = ?",
        "DELETE FROM decisions WHERE match_id = ?",
    ):
        with pytest.raises(Exception, match="append-only"):
            async with store.backend.write() as tx:
                await tx.execute(sql, (match_id,))
    with pytest.raises(Exception, match="(?i)unique"):  # UNIQUE (match_id, seq)
        async with store.backend.write() as tx:
            await tx.execute(
                "INSERT INTO decisions (match_id, seq, seat, key, option, by_ai, created_at) "
                "VALUES (?, 1, 0, 'x', 'y', 0, 0)",
                (match_id,),
            )
    assert len(await store.decisions(match_id)) == 2


async def test_pragmas(sqlite_path: Path) -> None:
    store = await Store.open(sqlite_path)
    try:
        backend = store.backend
        assert isinstance(backend, SqliteBackend)
        assert (
            await backend.run_raw(lambda c: c.execute("PRAGMA journal_mode").fetchone()[0]) == "wal"
        )
        assert await backend.run_raw(lambda c: c.execute("PRAGMA foreign_keys").fetchone()[0]) == 1
        assert await backend.run_raw(lambda c: c.execute("PRAGMA synchronous").fetchone()[0]) == 1
        with pytest.raises(sqlite3.IntegrityError):  # foreign keys are enforced
            await store.set_message(12345, "lobby", 1, 2)
    finally:
        await store.close()


async def test_foreign_keys_are_enforced(store: Store) -> None:
    with pytest.raises(Exception, match="(?i)foreign key"):
        await store.set_message(12345, "lobby", 1, 2)


async def test_concurrent_commits_on_one_store_do_not_interleave(store: Store) -> None:
    import asyncio

    pairs = [await new_live(store, seed=f"c{i}", channel_id=100 + i) for i in range(6)]
    await asyncio.gather(*(play(store, mid, m) for mid, m in pairs))
    for mid, m in pairs:
        await _assert_whole(store, mid, m.version)


async def test_wal_is_checkpointed_in_the_background(sqlite_path: Path) -> None:
    import asyncio

    store = await Store.open(sqlite_path, checkpoint_every=0.02)
    try:
        match_id, match = await new_live(store)
        await play(store, match_id, match, limit=3)
        for _ in range(100):
            if store.checkpoints:
                break
            await asyncio.sleep(0.02)
        assert store.checkpoints >= 1
        await asyncio.sleep(0.1)  # a round already under way when play ended may still count
        idle = store.checkpoints
        await asyncio.sleep(0.1)
        assert store.checkpoints == idle  # nothing written since: no checkpoint
        backend = store.backend
        assert isinstance(backend, SqliteBackend)
        auto = await backend.run_raw(lambda c: c.execute("PRAGMA wal_autocheckpoint").fetchone())
        assert auto[0] == 10000  # the in-commit one is only a backstop
        await _assert_whole(store, match_id, 3)
    finally:
        await store.close()
