"""A whole match played through the harness on PostgreSQL shows the players exactly what
it shows on SQLite (``bench/bench_table.py --postgres``): the same public messages, edits
and pings per round, the same clicks and Discord calls, the same pictures byte for byte.
The store's PostgreSQL path (issue 16: fewer round trips) changes nothing they see."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from cogs import deferral
from tests.support.bench import load_bench


@pytest.fixture(scope="module")
def table() -> ModuleType:
    return load_bench("bench_table.py", "bench_table")


async def test_a_whole_match_on_postgres_shows_what_it_shows_on_sqlite(
    table: ModuleType, pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every click answered by its result (its handling well within Discord's 3 s): whether
    # one is deferred first depends on how long it took (cogs/deferral.py), and the
    # store's round trips take longer on PostgreSQL.
    monkeypatch.setattr(deferral, "QUICK_ANSWER", 2.0)
    setup = next(s for s in table.SETUPS if s.game == "mad-arena")
    seed = "table-on-postgres"
    sqlite = await table.play(setup, seed, tmp_path / "sqlite")
    postgres = await table.play(setup, seed, tmp_path / "postgres", pg_url)
    assert sqlite.rounds > 1
    assert (postgres.rounds, postgres.per_round) == (sqlite.rounds, sqlite.per_round)
    assert (postgres.clicks, postgres.calls) == (sqlite.clicks, sqlite.calls)
    assert postgres.public_sizes == sqlite.public_sizes
    assert (postgres.public_png, postgres.private_png) == (sqlite.public_png, sqlite.private_png)
