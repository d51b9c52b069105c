"""The PostgreSQL store's pool hands connections back without asyncpg's reset query, a
round trip to the server at every release (issue 16), and nothing of one use reaches
the next."""

from __future__ import annotations

import asyncio

import asyncpg  # type: ignore[import-untyped]

from bot.store.backend import PostgresBackend, Stmt

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
