"""A decision's commit on PostgreSQL is one statement, one round trip (issue 16;
:mod:`bot.store.pg_commit`), and writes exactly the rows the batch of statements writes.

The batch is still what SQLite runs, and what the store runs on PostgreSQL with its test
hook between statements: the same scripted commits go through both on two fresh schemas,
and every table must come out the same.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from bot.engine import Match, Text
from bot.store import OutboxEntry, Store, StoreConflict
from tests.store.conftest import Clock
from tests.store.helpers import new_live
from tests.support.postgres import PgServer

TABLES = {
    "matches": "id, status, version, snapshot, public_state, updated_at, finished_at",
    "decisions": "id, match_id, seq, seat, key, option, answer, by_ai, created_at",
    "notices": "id, match_id, seat, version, text_fr, text_en, delivered, created_at",
    "outbox": "id, match_id, version, kind, role, channel_id, payload, delivered, created_at",
    "deadlines": "match_id, key, seat, due_at, remind_at, reminded",
}


def post(text: str, role: str | None = None, kind: str = "post") -> OutboxEntry:
    return OutboxEntry(kind=kind, channel_id=10, role=role, payload={"text": text})  # type: ignore[arg-type]


async def _commit(store: Store, mid: int, match: Match, *, arm: bool = False, **extra: Any) -> str:
    """One AI step committed with ``extra``; ``arm``: with a timer for every decision
    pending after it too. The key answered."""
    d = match.pending()[0]
    match.apply(match.ai_choice(d))
    timers = [(p.key, p.seat, 50.0 + match.version, 25.0) for p in match.pending()] if arm else []
    extra["deadlines"] = [*timers, *extra.get("deadlines", [])]
    await store.commit_decision(mid, match.choices[-1], match, **extra)
    return d.key


async def _timers(store: Store, mid: int) -> set[str]:
    return {t.key for t in await store.deadlines(mid)}


async def _script(store: Store) -> list[Any]:
    """Commits covering every part of the statement: the tables after each, and what
    the conflict raised."""
    seen: list[Any] = []
    mid, match = await new_live(store, count=2)
    other, other_match = await new_live(store, seed="seed-2", count=2)
    await _commit(
        store,
        mid,
        match,
        arm=True,
        notices=[(0, Text(fr="ta main", en="your hand")), (1, Text(fr="à toi", en="yours"))],
        outbox=[post("step"), post("board", role="round"), post('edit ✓ "q"', "round", "edit")],
        public_state={"batch": ["x"]},
        deadlines=[("b", 1, 60.0, 30.0)],
    )
    seen.append(await _tables(store))
    # A commit of the other match in between: its outbox ids come between this one's.
    await _commit(store, other, other_match, outbox=[post("other")], deadlines=[("b", 0, 5.0, 2.0)])
    seen.append(await _tables(store))
    # The answered decision's timer armed again, and twice in one list: the last one
    # counts, as when the batch upserted them in turn.
    key = match.pending()[0].key
    assert key in await _timers(store, mid)
    await _commit(
        store,
        mid,
        match,
        arm=True,
        outbox=[post("two")],
        deadlines=[(key, 0, 70.0, 35.0), ("c", 1, 80.0, 40.0), (key, 1, 90.0, 45.0)],
    )
    seen.append(await _tables(store))
    assert key in await _timers(store, mid)
    # No public state (the stored one is kept), no outbox, no timer: the answered
    # decision's timer goes, the others stay.
    before = await _timers(store, mid)
    answered = await _commit(store, mid, match)
    assert answered in before
    assert await _timers(store, mid) == before - {answered}
    seen.append(await _tables(store))
    # A stale commit (built on an older version) writes nothing at all.
    stale = await store.load_match(mid)
    await _commit(store, mid, match, outbox=[post("kept")])
    stale.apply(stale.ai_choice(stale.pending()[0]))
    try:
        await store.commit_decision(
            mid, stale.choices[-1], stale, outbox=[post("never")], deadlines=[("z", 0, 1.0, 1.0)]
        )
    except StoreConflict as exc:
        seen.append(type(exc).__name__)
    # Played to the end: every timer of the match goes, even one armed by the last commit.
    while not match.over:
        await _commit(store, mid, match, arm=True, outbox=[post("more")])
        seen.append(await _tables(store))
    return seen


async def _tables(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    out: dict[str, list[tuple[Any, ...]]] = {}
    async with store.backend.read() as db:
        for table, columns in TABLES.items():
            rows = await db.fetchall(f"SELECT {columns} FROM {table} ORDER BY 1, 2")
            out[table] = [tuple(r.values()) for r in rows]
    return out


@pytest.fixture
async def two_stores(pg_server: PgServer, pg_url: str) -> AsyncIterator[tuple[Store, Store]]:
    one = await Store.open(pg_url, clock=Clock())
    other = await Store.open(pg_server.new_schema(), clock=Clock())
    try:
        yield one, other
    finally:
        await one.close()
        await other.close()


async def test_the_statement_writes_what_the_batch_writes(two_stores: tuple[Store, Store]) -> None:
    single, batched = two_stores

    async def nothing() -> None:
        pass

    hook: Callable[[], Awaitable[None]] = nothing
    batched._between_statements = hook  # noqa: SLF001  (the statement-by-statement path)
    steps, batched_steps = await _script(single), await _script(batched)
    assert "StoreConflict" in steps
    assert len(steps) == len(batched_steps) > 6
    for got, want in zip(steps, batched_steps, strict=True):
        if isinstance(want, dict):
            for table in TABLES:
                assert got[table] == want[table], table
    want = await _tables(batched)
    assert want == await _tables(single)
    assert len(want["outbox"]) >= 8 and want["notices"] and want["decisions"]
    # What the script means to check, whichever path wrote it.
    mid = want["matches"][0][0]
    assert not [r for r in want["deadlines"] if r[0] == mid]  # over: every timer gone
    assert "never" not in str(want["outbox"]) and ("z",) not in [r[1:2] for r in want["deadlines"]]
    texts = [r[6] for r in want["outbox"] if r[1] == mid]
    assert texts[:4] == [
        '{"text":"step"}',
        '{"text":"board"}',
        '{"text":"edit ✓ \\"q\\""}',
        '{"text":"two"}',
    ]


async def test_a_commit_is_one_query(pg_url: str) -> None:
    store = await Store.open(pg_url, clock=Clock(), pool_size=1)  # every query on one connection
    sent: list[str] = []
    try:
        mid, match = await new_live(store, count=2)
        async with store.backend._pool.acquire() as conn:  # type: ignore[attr-defined]  # noqa: SLF001
            conn.add_query_logger(lambda record: sent.append(record.query))
        # The first use of the statement on a connection also asks the server about its
        # array types, once (asyncpg's type introspection, then cached with the statement).
        await _commit(store, mid, match, outbox=[post("first")], deadlines=[("j", 0, 5.0, 2.0)])
        sent.clear()
        await _commit(
            store,
            mid,
            match,
            notices=[(0, Text(fr="f", en="e"))],
            outbox=[post("a"), post("b")],
            deadlines=[("k", 0, 5.0, 2.0)],
        )
        assert len(sent) == 1, sent
        assert sent[0].lstrip().startswith("WITH cas AS")
        assert [i.payload["text"] for i in await store.outbox(mid)] == ["first", "a", "b"]
    finally:
        await store.close()
