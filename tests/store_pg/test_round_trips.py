"""Round trips the PostgreSQL store saves (issue 16): its pool hands connections back
without asyncpg's reset query, and nothing of one use reaches the next; a batch of one
statement is sent without BEGIN and COMMIT."""

from __future__ import annotations

import asyncio

import asyncpg  # type: ignore[import-untyped]
import pytest

from bot.store.backend import BatchRefused, PostgresBackend, Stmt

RESET = "RESET ALL"
"""Part of asyncpg's default reset query (``Connection.get_reset_query``)."""


async def _sent_while(pool: asyncpg.Pool, uses: int) -> list[str]:
    """The queries a pool of one connection sends over ``uses`` acquire/release pairs,
    each running one SELECT."""
    sent: list[str] = []
    async with pool.acquire() as conn:
        conn.add_query_logger(lambda record: sent.append(record.query))
    for _ in range(uses):
        async with pool.acquire() as conn:
            await conn.fetchval("SELECT 1")
    return sent


async def test_asyncpgs_default_pool_sends_its_reset_query(pg_url: str) -> None:
    """The control: the logger sees the reset query asyncpg sends by default."""
    pool = await asyncpg.create_pool(pg_url, min_size=1, max_size=1)
    try:
        sent = await _sent_while(pool, 3)
    finally:
        await pool.close()
    assert sum(RESET in q for q in sent) >= 3


async def test_the_stores_pool_sends_no_reset_query(pg_url: str) -> None:
    backend = await PostgresBackend.open(pg_url, pool_size=1)
    try:
        sent = await _sent_while(backend._pool, 3)
        await backend.batch([Stmt("CREATE TABLE t (x INT)")])
        async with backend.read() as tx:
            await tx.fetchall("SELECT * FROM t")
        sent += await _sent_while(backend._pool, 1)
    finally:
        await backend.close()
    assert sent and not [q for q in sent if RESET in q]


async def test_a_write_cancelled_midway_leaves_nothing_to_the_next_user(pg_url: str) -> None:
    """One connection in all: the next user of it is not in a transaction and does not
    see the cancelled write."""
    backend = await PostgresBackend.open(pg_url, pool_size=1)
    inside = asyncio.Event()

    async def write_then_hang() -> None:
        async with backend.write() as tx:
            await tx.execute("INSERT INTO t VALUES (?)", (1,))
            inside.set()
            await asyncio.sleep(60)

    try:
        await backend.batch([Stmt("CREATE TABLE t (x INT)")])
        task = asyncio.create_task(write_then_hang())
        await inside.wait()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        async with backend._pool.acquire() as conn:
            assert not conn.is_in_transaction()
            assert await conn.fetchval("SELECT count(*) FROM t") == 0
        async with backend.read() as tx:
            assert await tx.fetchall("SELECT x FROM t") == []
    finally:
        await backend.close()


async def _sent_by(backend: PostgresBackend, *batches: list[Stmt]) -> list[str]:
    """The queries the backend's one connection sent for ``batches``."""
    sent: list[str] = []
    async with backend._pool.acquire() as conn:
        conn.add_query_logger(lambda record: sent.append(record.query))
    for stmts in batches:
        await backend.batch(stmts)
    return sent


async def test_a_batch_of_one_statement_is_one_round_trip(pg_url: str) -> None:
    backend = await PostgresBackend.open(pg_url, pool_size=1)
    try:
        await backend.batch([Stmt("CREATE TABLE t (id SERIAL PRIMARY KEY, x INT)")])
        one = Stmt("UPDATE t SET x = ? WHERE x = ?", (2, 1))
        sent = await _sent_by(backend, [Stmt("INSERT INTO t (x) VALUES (?)", (1,))], [one])
        assert sent == ["INSERT INTO t (x) VALUES ($1)", "UPDATE t SET x = $1 WHERE x = $2"]
        # Several statements, or one whose count is checked: one transaction, as before.
        two = [Stmt("INSERT INTO t (x) VALUES (?)", (3,)), one]
        checked = [Stmt("UPDATE t SET x = ? WHERE x = ?", (5, 3), expect=1)]
        sent = await _sent_by(backend, two, checked)
        assert [q for q in sent if q.startswith(("BEGIN", "COMMIT"))] == ["BEGIN;", "COMMIT;"] * 2
        async with backend.read() as tx:
            rows = await tx.fetchall("SELECT x FROM t ORDER BY id")
        assert [r["x"] for r in rows] == [2, 5]
    finally:
        await backend.close()


async def test_a_refused_count_still_rolls_the_batch_back(pg_url: str) -> None:
    backend = await PostgresBackend.open(pg_url, pool_size=1)
    try:
        await backend.batch([Stmt("CREATE TABLE t (x INT)")])
        with pytest.raises(BatchRefused):
            await backend.batch(
                [
                    Stmt("INSERT INTO t VALUES (?)", (1,)),
                    Stmt("UPDATE t SET x = 2 WHERE x = ?", (9,), expect=1),
                ]
            )
        with pytest.raises(BatchRefused):  # alone, it changed nothing
            await backend.batch([Stmt("UPDATE t SET x = 2 WHERE x = ?", (1,), expect=1)])
        assert await backend.batch([Stmt("SELECT 1 FROM t")]) == [0]
        # A single statement that returns an id, or runs once per row, works alone too.
        await backend.batch([Stmt("CREATE TABLE u (id SERIAL PRIMARY KEY, x INT)")])
        assert await backend.batch(
            [Stmt("INSERT INTO u (x) VALUES (?) RETURNING id", (7,), returns_id=True)]
        ) == [1]
        assert await backend.batch([Stmt("INSERT INTO u (x) VALUES (?)", many=[(8,), (9,)])]) == [2]
    finally:
        await backend.close()
