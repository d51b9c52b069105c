"""Pruning ended matches after ARENA_PRUNE_DAYS (issue 15 item 5), on both backends."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.errors import CliError
from bot.cli.verify import verify_stored
from bot.store import Store
from tests.store.conftest import Clock
from tests.store.helpers import new_live, play


async def test_prune_deletes_only_old_ended_matches_and_remembers_them(
    store: Store, clock: Clock
) -> None:
    old, m = await new_live(store, seed="old", channel_id=11)
    await play(store, old, m)
    abandoned, _ = await new_live(store, seed="gone", channel_id=12)
    await store.set_status(abandoned, "abandoned")
    cutoff = clock.now + 0.5
    clock.now += 1000
    recent, m2 = await new_live(store, seed="new", channel_id=13)
    await play(store, recent, m2)
    live, _ = await new_live(store, seed="live", channel_id=14)
    await store.set_message(old, "round", 11, 5)
    await store.add_notices(old, 1, [])

    assert sorted(await store.prune(cutoff)) == sorted([old, abandoned])
    assert await store.prune(cutoff) == []
    for mid in (old, abandoned):
        assert await store.get(mid) is None
        assert await store.decisions(mid) == []
        assert await store.messages(mid) == {}
    gone = await store.pruned(old)
    assert gone is not None and gone.status == "finished" and gone.game == m.game_id
    assert (await store.pruned(abandoned) or gone).status == "abandoned"
    assert await store.pruned(recent) is None
    # The rest is untouched, and the log stays append-only for every other match.
    assert await store.check_replay(recent)
    assert (await store.get(live)) is not None
    with pytest.raises(Exception, match="append-only"):
        async with store.backend.write() as tx:
            await tx.execute("DELETE FROM decisions WHERE match_id = ?", (recent,))


async def test_a_match_owing_posts_is_kept(store: Store, clock: Clock) -> None:
    from bot.store import OutboxEntry

    mid, m = await new_live(store)
    await play(store, mid, m)
    await store.add_public(mid, [OutboxEntry(kind="post", role="end", channel_id=1, payload={})])
    clock.now += 1000
    assert await store.prune(clock.now) == []
    assert (await store.outbox(mid))[0].role == "end"


async def test_verify_says_a_match_was_pruned(
    db_path: Path | str, capsys: pytest.CaptureFixture[str]
) -> None:
    store = await Store.open(db_path)
    mid, m = await new_live(store)
    await play(store, mid, m)
    assert await verify_stored(db_path, mid) == 0
    assert await store.prune(4e9) == [mid]
    await store.close()
    with pytest.raises(CliError, match=f"Match {mid} .*was pruned .*ARENA_PRUNE_DAYS"):
        await verify_stored(db_path, mid)
    with pytest.raises(CliError, match="There is no match 999"):
        await verify_stored(db_path, 999)
