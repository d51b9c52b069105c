"""Property: whatever mix of commits, refused commits, failures mid-transaction and
restarts happens, every stored match stays whole (log and snapshot agree)."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import Match
from bot.engine.autoplay import ai_step
from bot.store import Store, StoreConflict
from tests.store.helpers import new_live, norm


class Injected(Exception):
    pass


# Each op: (kind, which match). kinds: commit, fail (exception between the two
# statements), stale (commit from a copy that fell behind), reopen (restart).
OPS = st.lists(
    st.tuples(
        st.sampled_from(["commit", "commit", "commit", "fail", "stale", "reopen"]),
        st.integers(0, 2),
    ),
    min_size=1,
    max_size=40,
)


async def _run(path: Path, ops: list[tuple[str, int]]) -> None:
    store = await Store.open(path)
    lives: list[tuple[int, Match]] = [
        await new_live(store, seed=f"p{i}", channel_id=100 + i) for i in range(3)
    ]
    try:
        for kind, k in ops:
            match_id, match = lives[k]
            if kind == "reopen":
                await store.close()
                store = await Store.open(path)
                lives = [(mid, await store.load_match(mid)) for mid, _ in lives]
                continue
            if match.over:
                continue
            if kind == "stale":
                twin = await store.load_match(match_id)
                ai_step(match)
                await store.commit_decision(match_id, match.choices[-1], match)
                if twin.over:
                    continue
                ai_step(twin)
                with pytest.raises(StoreConflict):
                    await store.commit_decision(match_id, twin.choices[-1], twin)
                continue
            if kind == "fail":

                async def boom() -> None:
                    raise Injected

                store._between_statements = boom  # noqa: SLF001
            choice, _ = ai_step(match)
            try:
                await store.commit_decision(match_id, choice, match)
            except Injected:
                # What the bot does after a failed commit: reload the truth.
                lives[k] = (match_id, await store.load_match(match_id))
            finally:
                store._between_statements = None  # noqa: SLF001
        for match_id, match in lives:
            record = await store.get(match_id)
            assert record is not None
            assert record.snapshot == norm(match.snapshot())
            assert len(await store.decisions(match_id)) == record.version == match.version
            assert await store.check_replay(match_id)
            assert (record.status == "finished") == match.over
    finally:
        await store.close()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=OPS)
def test_every_match_stays_whole(ops: list[tuple[str, int]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(_run(Path(tmp) / "p.sqlite3", ops))
