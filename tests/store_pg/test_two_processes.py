"""Two bot processes on one PostgreSQL database (issue 15 item 3).

Each "process" is a GameMaster with its own Store (its own connection pool), as
two sharded bot processes would be; they share the database and the Discord
channel (a fake with Discord's nonce deduplication). The same click sent to both
is applied exactly once, the other answered as stale; a deadline fires once, in
the process holding the timers lease, and another takes the lease over when its
holder stops renewing.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

import tests.engine.fixture_game  # noqa: F401  (registers test-pick)
from bot.gm import GameMaster, ManualClock
from bot.gm.ids import parse
from bot.gm.lease import LEASE_TTL, TIMERS
from bot.gm.msg import Button
from bot.i18n import t
from bot.store import Store
from tests.gm.test_outbox import ANN, CHANNEL, GUILD, Channel


class Process:
    """One bot process: its own store connections and game master."""

    def __init__(self, store: Store, channel: Channel, clock: ManualClock) -> None:
        self.store = store
        self.gm = GameMaster(store, channel, clock)


@pytest.fixture
async def pair(pg_url: str) -> AsyncIterator[tuple[Process, Process, ManualClock]]:
    clock = ManualClock()
    channel = Channel()
    a = Process(await Store.open(pg_url), channel, clock)
    b = Process(await Store.open(pg_url), channel, clock)
    yield a, b, clock
    await a.store.close()
    await b.store.close()


async def start(p: Process) -> int:
    await p.gm.open_lobby(
        ANN,
        guild_id=GUILD,
        channel_id=CHANNEL,
        guild_locale="fr",
        game_id="test-pick",
        mode="default",
    )
    live = await p.gm.live_in(CHANNEL)
    assert live is not None
    await p.gm.lobby_action(live.mid, "addai", ANN)
    await p.gm.lobby_action(live.mid, "start", ANN)
    return live.mid


async def button(p: Process, mid: int, label: str) -> tuple[str, int, str | None]:
    reply = await p.gm.hand(mid, ANN)
    prompt = next(m for m in reply.private if m.rows)
    b: Button = next(
        x for row in prompt.rows if isinstance(row, list) for x in row if x.label == label
    )
    c = parse(b.custom_id)
    assert c is not None
    return c.action, c.ver, c.arg


def text_of(reply: object) -> str:
    parts = [getattr(reply, "update", None), *getattr(reply, "private", [])]
    return " ".join((m.content or "") for m in parts if m is not None)


async def test_the_same_click_in_two_processes_is_applied_once(
    pair: tuple[Process, Process, ManualClock],
) -> None:
    a, b, _ = pair
    mid = await start(a)
    await b.gm.hand(mid, ANN)  # b has the match in memory too, at the same version
    before = await a.store.match_head(mid)
    assert before is not None
    action, ver, arg = await button(a, mid, "3")
    replies = await asyncio.gather(
        a.gm.component(mid, action, ver, arg, ANN), b.gm.component(mid, action, ver, arg, ANN)
    )
    log = await a.store.decision_log(mid)
    human = [r for r in log if r["seat"] == 0 and not r["by_ai"]]
    assert len(human) == 1 and human[0]["option"] == "3"  # applied exactly once
    stale = t("fr", "err.stale")
    assert sum(stale in text_of(r) for r in replies) == 1, [text_of(r) for r in replies]
    assert await a.store.check_replay(mid)
    # The loser catches up on its next access: the next click works in either process.
    action, ver, arg = await button(b, mid, "3")
    reply = await b.gm.component(mid, action, ver, arg, ANN)
    assert stale not in text_of(reply)
    after = await a.store.decision_log(mid)
    assert len([r for r in after if r["seat"] == 0 and not r["by_ai"]]) == 2


async def test_deadlines_fire_once_in_the_lease_holder_and_are_taken_over(
    pair: tuple[Process, Process, ManualClock],
) -> None:
    a, b, clock = pair
    await a.gm.recover()  # a starts first: it holds the timers lease
    await b.gm.recover()
    assert a.gm.timer_lease is not None and b.gm.timer_lease is not None
    assert a.gm.timer_lease.held and not b.gm.timer_lease.held
    mid = await start(b)  # a match created in b's guild: the store is shared
    assert await a.store.deadlines(mid), "the human pick has a deadline"
    version = await human_moves(a, mid)
    for _ in range(100):  # both tick every 5 s, as the bots do, until the deadline fired
        clock.advance(5)
        await asyncio.gather(a.gm.tick(), b.gm.tick())
        if await human_moves(a, mid) > version:
            break
    assert await human_moves(a, mid) == version + 1  # fired once
    assert a.gm.timer_lease.held and not b.gm.timer_lease.held
    assert await a.store.lease_owner(TIMERS, clock.now()) == a.gm.timer_lease.owner

    # a dies (stops renewing): once its lease expired, b takes it over and fires.
    assert await a.store.deadlines(mid)
    version = await human_moves(b, mid)
    for step in range(100):
        clock.advance(5)
        await b.gm.tick()
        if step < LEASE_TTL / 5 - 1:
            assert not b.gm.timer_lease.held  # a's lease still runs
        if await human_moves(b, mid) > version:
            break
    assert b.gm.timer_lease.held
    assert await b.store.lease_owner(TIMERS, clock.now()) == b.gm.timer_lease.owner
    # b fired the next deadline (the seat, on autopilot since its first timeout, then
    # plays on at once in b, which resumed the match when it took the lease).
    assert await human_moves(b, mid) > version
    assert await b.store.check_replay(mid)


async def human_moves(p: Process, mid: int) -> int:
    """Decisions logged for the human seat (a timeout answers for it)."""
    return len([r for r in await p.store.decision_log(mid) if r["seat"] == 0])
