"""Structured answers in the log (migration 6) and matches stored before them.

A database written by the bot before structured decisions (schema 5, one-option
rows, snapshots of format 1) is built here by hand, the way that code wrote it;
the store must replay such a match instead of loading its snapshot, upgrade a
live one once, and keep a finished one verifiable.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from bot.cli.verify import check_dice, check_replay, verify_stored
from bot.engine import Choice, Match, SeatSpec, registry
from bot.engine.autoplay import ai_step, play_out
from bot.engine.log import log_json, markdown_log, parse_log, rolls_of
from bot.engine.match import LOG_FORMAT, SNAPSHOT_FORMAT
from bot.store import Store, StoreConflict
from tests.store.helpers import FIXTURE, migrate_sqlite, norm
from tests.store.merge_game import ID as MERGE
from tests.store.merge_game import MergeGame, old_steps


@pytest.fixture
def db_path(sqlite_path: Path) -> Path:
    """Logs of format 1 exist only in SQLite files (Postgres came later): SQLite only."""
    return sqlite_path


GOLDEN = Path(__file__).resolve().parents[1] / "golden"
SEATS = [SeatSpec(name="Ann", user_id=1), SeatSpec(name="Bob", user_id=2)]
OLD_STATE = {"shape": "what the game stored before structured decisions"}
"""The old snapshot's state: today's game cannot load it, so loading it would fail."""


@pytest.fixture(autouse=True)
def registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The merge game exists only during these tests."""
    registry.get_game(FIXTURE)  # discovery first, so it does not run inside the patch
    monkeypatch.setitem(registry._GAMES, MERGE, MergeGame())  # noqa: SLF001
    yield


async def old_database(
    db_path: Path,
    game: str,
    seats: list[SeatSpec],
    seed: str,
    choices: list[Choice],
    *,
    mode: str | None = None,
    options: dict[str, Any] | None = None,
    status: str = "live",
    by_ai: list[bool] | None = None,
) -> int:
    """A match stored by the bot before migration 6; returns its id.

    Schema 5 (no ``answer``, no ``log_format``), one row per old one-option
    choice, and a format-1 snapshot: the dice stream those choices used, and a
    game state in a shape today's game does not read.
    """
    ref = Match.replay(game, seats, seed, mode, options, choices, log_format=1)
    snapshot = {
        "format": 1,
        "game": game,
        "mode": ref.mode,
        "options": ref.options,
        "seats": [s.model_dump() for s in seats],
        "dice": ref.dice.model_dump(),
        "version": len(choices),
        "pending_since": {},
        "state": OLD_STATE,
    }
    flags = by_ai or [False] * len(choices)
    db_path.parent.mkdir(parents=True, exist_ok=True)
    assert await migrate_sqlite(db_path, 5) == 5
    async with aiosqlite.connect(db_path, isolation_level=None) as db:
        cur = await db.execute(
            "INSERT INTO matches (guild_id, channel_id, host_id, game, mode, options, status, "
            "seed, version, snapshot, start_seats, locale, created_at, updated_at, started_at) "
            "VALUES (1, 10, 1, ?, ?, ?, ?, ?, ?, ?, ?, 'fr', 1.0, 1.0, 1.0)",
            (
                game,
                ref.mode,
                json.dumps(ref.options),
                status,
                seed,
                len(choices),
                json.dumps(snapshot),
                json.dumps([s.model_dump() for s in seats]),
            ),
        )
        match_id = cur.lastrowid
        assert match_id is not None
        for i, s in enumerate(seats):
            await db.execute(
                "INSERT INTO seats (match_id, idx, name, user_id, ai) VALUES (?, ?, ?, ?, ?)",
                (match_id, i, s.name, s.user_id, int(s.ai)),
            )
        for seq, (c, ai) in enumerate(zip(choices, flags, strict=True), start=1):
            await db.execute(
                "INSERT INTO decisions (match_id, seq, seat, key, option, by_ai, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (match_id, seq, c.seat, c.key, c.option, int(ai), 100.0 + seq),
            )
    return match_id


def merge_reference(seed: str = "merge-1") -> tuple[Match, list[Choice], list[int]]:
    """A whole merge-game match played today, its old-format log and each answer's old rows."""
    match = play_out(Match.create(MERGE, SEATS, seed))
    old: list[Choice] = []
    sizes: list[int] = []
    round_ = 1
    for c in match.choices:
        steps = old_steps(c, round_)
        old += steps
        sizes.append(len(steps))
        if c.amounts is not None:
            round_ += 1
    return match, old, sizes


async def raw_rows(db_path: Path, match_id: int) -> list[dict[str, Any]]:
    async with aiosqlite.connect(db_path) as db:
        db.row_factory = aiosqlite.Row
        async with db.execute(
            "SELECT * FROM decisions WHERE match_id = ? ORDER BY seq", (match_id,)
        ) as cur:
            return [dict(r) for r in await cur.fetchall()]


async def assert_append_only(db_path: Path, match_id: int) -> None:
    async with aiosqlite.connect(db_path) as raw:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            await raw.execute("DELETE FROM decisions WHERE match_id = ?", (match_id,))
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            await raw.execute("UPDATE decisions SET key = 'x' WHERE match_id = ?", (match_id,))


async def finish(store: Store, match_id: int, match: Match) -> None:
    while not match.over:
        choice, _ = ai_step(match)
        await store.commit_decision(match_id, choice, match, by_ai=True)


def final_log_verifies(match: Match) -> None:
    data = parse_log(markdown_log(match, "fr"))
    assert check_dice(data)[0], check_dice(data)
    assert check_replay(data)[0], check_replay(data)


# --- structured answers --------------------------------------------------------------


async def test_structured_answers_are_stored_and_read_back_exactly(
    store: Store, db_path: Path
) -> None:
    match = Match.create(MERGE, SEATS, "structured")
    match_id = await store.create_lobby(
        guild_id=1, channel_id=2, thread_id=None, host_id=1,
        game=MERGE, mode=match.mode, options={}, locale="en",
    )  # fmt: skip
    await store.start_match(match_id, match)
    record = await store.get(match_id)
    assert record is not None and record.log_format == LOG_FORMAT == 2
    await finish(store, match_id, match)
    assert await store.decisions(match_id) == match.choices
    assert any(c.options for c in match.choices) and any(c.amounts for c in match.choices)
    log = await store.decision_log(match_id)
    order = next(r for r in log if r["options"] is not None)
    assert order["option"] is None and sorted(order["options"]) == ["a", "b", "c"]
    split = next(r for r in log if r["amounts"] is not None)
    assert sum(split["amounts"].values()) == 3 and split["options"] is None
    rows = await raw_rows(db_path, match_id)
    assert {r["option"] for r in rows} == {""}  # only structured answers in this game
    assert json.loads(rows[0]["answer"]) == {"options": match.choices[0].options}
    assert await store.check_replay(match_id)


async def test_one_option_choices_keep_their_id_and_no_answer(store: Store, db_path: Path) -> None:
    match = Match.create(FIXTURE, SEATS, "ids")
    match_id = await store.create_lobby(
        guild_id=1, channel_id=2, thread_id=None, host_id=1,
        game=FIXTURE, mode=match.mode, options={}, locale="en",
    )  # fmt: skip
    await store.start_match(match_id, match)
    await finish(store, match_id, match)
    rows = await raw_rows(db_path, match_id)
    assert [r["option"] for r in rows] == [c.option for c in match.choices]
    assert {r["answer"] for r in rows} == {None}
    assert (await store.decision_log(match_id))[0]["options"] is None


# --- matches stored before structured decisions ---------------------------------------


async def test_old_live_match_is_replayed_not_loaded_and_upgraded_in_place(db_path: Path) -> None:
    """The generic path: the game's upgrade keeps every old choice as it is."""
    ref = play_out(Match.create(FIXTURE, SEATS, "old-pick"))
    cut = ref.choices[:3]
    match_id = await old_database(
        db_path, FIXTURE, SEATS, "old-pick", cut, by_ai=[False, True, False]
    )
    store = await Store.open(db_path)
    try:
        record = await store.get(match_id)
        assert record is not None and record.log_format == 1
        before = await store.decision_log(match_id)
        # Nothing new is logged on top of a format-1 log before it is upgraded.
        twin = Match.replay(FIXTURE, SEATS, "old-pick", None, None, cut, log_format=1)
        ai_step(twin)
        with pytest.raises(StoreConflict, match="format 1"):
            await store.commit_decision(match_id, twin.choices[-1], twin)

        match = await store.load_match(match_id)  # the old state would not load
        assert match.version == 3 and match.choices == cut
        expected = Match.replay(FIXTURE, SEATS, "old-pick", None, None, cut)
        assert norm(match.snapshot()) == norm(expected.snapshot())
        record = await store.get(match_id)
        assert record is not None and record.log_format == LOG_FORMAT
        assert record.version == 3 and record.snapshot == norm(match.snapshot())
        assert record.snapshot is not None and record.snapshot["format"] == SNAPSHOT_FORMAT
        # Same choices: the log is kept as it was (who, when), not rewritten.
        assert await store.decision_log(match_id) == before
        assert (await store.load_match(match_id)).snapshot() == match.snapshot()

        await finish(store, match_id, match)
        assert await store.check_replay(match_id)
        final_log_verifies(await store.replay_match(match_id))
    finally:
        await store.close()


async def test_merged_old_steps_rewrite_a_live_match_log_once(db_path: Path) -> None:
    ref, old, sizes = merge_reference()
    # Round 1 whole, then seat 0's order of round 2: 4 answers today, 10 old rows.
    answers = 4
    rows_cut = sum(sizes[:answers])
    assert rows_cut > answers
    by_ai = [c.seat == 1 for c in old[:rows_cut]]
    match_id = await old_database(db_path, MERGE, SEATS, "merge-1", old[:rows_cut], by_ai=by_ai)
    store = await Store.open(db_path)
    try:
        match = await store.load_match(match_id)
        assert match.version == answers and match.choices == ref.choices[:answers]
        record = await store.get(match_id)
        assert record is not None
        assert (record.version, record.log_format) == (answers, LOG_FORMAT)
        assert record.snapshot == norm(match.snapshot())
        assert await store.decisions(match_id) == ref.choices[:answers]
        log = await store.decision_log(match_id)
        assert [r["seq"] for r in log] == [1, 2, 3, 4]
        # Who answered and when survive the merge: Bob (seat 1) was the AI, each answer
        # dates from its last old step.
        assert [r["by_ai"] for r in log] == [c.seat == 1 for c in ref.choices[:answers]]
        ends = [sum(sizes[: i + 1]) for i in range(answers)]
        assert [r["created_at"] for r in log] == [100.0 + e for e in ends]
        await assert_append_only(db_path, match_id)
        ids = [r["id"] for r in await raw_rows(db_path, match_id)]
        assert await store.check_replay(match_id)

        # Once: the next load reads the new snapshot and rewrites nothing.
        again = await store.load_match(match_id)
        assert again.snapshot() == match.snapshot()
        assert [r["id"] for r in await raw_rows(db_path, match_id)] == ids

        for c in ref.choices[answers:]:
            match.apply(c)
            await store.commit_decision(match_id, c, match)
        assert norm(match.snapshot()) == norm(ref.snapshot())
        replayed = await store.replay_match(match_id)
        assert rolls_of(replayed.events) == rolls_of(ref.events)
        final_log_verifies(replayed)
    finally:
        await store.close()


async def test_old_steps_still_held_at_the_cut_are_asked_again(db_path: Path) -> None:
    ref, old, sizes = merge_reference()
    rows_cut = sum(sizes[:4]) + 1  # Bob's first letter of round 2 only
    match_id = await old_database(db_path, MERGE, SEATS, "merge-1", old[:rows_cut])
    store = await Store.open(db_path)
    try:
        match = await store.load_match(match_id)
        assert match.version == 4
        assert [d.seat for d in match.pending()] == [1]
        assert len(await store.decisions(match_id)) == 4
        record = await store.get(match_id)
        assert record is not None and record.version == 4
    finally:
        await store.close()


async def test_a_failed_upgrade_leaves_the_old_log_whole(db_path: Path) -> None:
    _ref, old, sizes = merge_reference()
    rows_cut = sum(sizes[:4])
    match_id = await old_database(db_path, MERGE, SEATS, "merge-1", old[:rows_cut])
    store = await Store.open(db_path)
    try:
        real = store._insert_decision  # noqa: SLF001
        calls = 0

        async def disk_full(*args: Any) -> None:
            nonlocal calls
            calls += 1
            if calls == 2:
                raise sqlite3.OperationalError("database or disk is full")
            await real(*args)

        store._insert_decision = disk_full  # type: ignore[method-assign,assignment]  # noqa: SLF001
        with pytest.raises(sqlite3.OperationalError):
            await store.load_match(match_id)
        record = await store.get(match_id)
        assert record is not None
        assert (record.log_format, record.version) == (1, rows_cut)
        assert record.snapshot is not None and record.snapshot["state"] == OLD_STATE
        assert [r["key"] for r in await raw_rows(db_path, match_id)] == [
            c.key for c in old[:rows_cut]
        ]
        await assert_append_only(db_path, match_id)

        store._insert_decision = real  # type: ignore[method-assign,assignment]  # noqa: SLF001
        match = await store.load_match(match_id)
        assert match.version == 4 and await store.check_replay(match_id)
    finally:
        await store.close()


async def test_finished_old_match_replays_and_verifies_without_being_rewritten(
    sqlite_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, old, _sizes = merge_reference()
    match_id = await old_database(sqlite_path, MERGE, SEATS, "merge-1", old, status="finished")
    store = await Store.open(sqlite_path)
    try:
        match = await store.load_match(match_id)
        assert match.over and match.choices == ref.choices
        record = await store.get(match_id)
        assert record is not None and record.log_format == 1  # its record stays as it was
        assert len(await store.decisions(match_id)) == len(old)
        replayed = await store.replay_match(match_id)
        assert rolls_of(replayed.events) == rolls_of(ref.events)
        assert await store.check_replay(match_id)
        final_log_verifies(replayed)
    finally:
        await store.close()
    assert await verify_stored(sqlite_path, match_id) == 0
    assert "format 1" in capsys.readouterr().out

    async with aiosqlite.connect(sqlite_path) as raw:  # a stored dice stream that differs
        assert record.snapshot is not None
        snap = json.loads(json.dumps(record.snapshot))
        snap["dice"]["counter"] += 1
        await raw.execute(
            "UPDATE matches SET snapshot = ? WHERE id = ?", (json.dumps(snap), match_id)
        )
        await raw.commit()
    assert await verify_stored(sqlite_path, match_id) == 1
    store = await Store.open(sqlite_path)
    try:
        assert not await store.check_replay(match_id)
    finally:
        await store.close()


async def test_golden_mad_arena_log_cut_in_the_middle_resumes_and_verifies(
    db_path: Path,
) -> None:
    """A real match recorded before structured decisions, stopped halfway."""
    data = parse_log(
        (GOLDEN / "mad-arena-ultimate-warrior-5p-seed18.md").read_text(encoding="utf-8")
    )
    seats = [SeatSpec.model_validate(s) for s in data["seats"]]
    choices = [Choice.model_validate(c) for c in data["choices"]]
    cut = choices[: len(choices) // 2]
    match_id = await old_database(
        db_path,
        data["game"],
        seats,
        data["seed"],
        cut,
        mode=data["mode"],
        options=data["options"],
        by_ai=[True] * len(cut),
    )
    golden_rolls = [e for e in data["events"] if e["kind"] == "roll"]
    store = await Store.open(db_path)
    try:
        match = await store.load_match(match_id)
        assert not match.over and match.version > 0
        record = await store.get(match_id)
        assert record is not None and record.log_format == LOG_FORMAT
        assert record.version == match.version == len(await store.decisions(match_id))
        assert record.snapshot == norm(match.snapshot())
        assert await store.check_replay(match_id)
        replayed = await store.replay_match(match_id)
        rolls = [r.model_dump(mode="json") for r in rolls_of(replayed.events)]
        assert rolls and rolls == golden_rolls[: len(rolls)]
        await finish(store, match_id, match)
        assert await store.check_replay(match_id)
        final_log_verifies(await store.replay_match(match_id))
        assert log_json(await store.replay_match(match_id))["format"] == LOG_FORMAT
    finally:
        await store.close()
