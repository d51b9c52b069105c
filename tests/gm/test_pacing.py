"""Pacing of public posts and edits per channel (issue 16 item 4).

The policy (:mod:`bot.gm.pacing`) with a manual clock; the merging of held edits
(:func:`bot.gm.posting._units`); and the outbox delivering through it, with a
recording channel: a burst makes few calls, never more than a window allows, posts
keep their order and overtake held edits, nothing is lost, a refusal is retried after
a back-off, and a real-time wake delivers what was held without any tick.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.gm import DmResult, GameMaster, ManualClock, Msg, SystemClock
from bot.gm.msg import Attachment
from bot.gm.pacing import PaceLimits, Pacer, default_pacer
from bot.gm.posting import TABLE, Out, _merged, _units
from bot.gm.publisher import RetryLater, msg_from_json, msg_to_json
from bot.store import Store
from bot.store.records import OutboxItem

CHANNEL = 20
OTHER = 21
EPS = 1e-9
"""Float rounding of clock sums (a call leaving the window exactly at its edge)."""


# --- the policy -----------------------------------------------------------------------------
def test_an_idle_channel_speaks_at_once() -> None:
    clock = ManualClock()
    pacer = Pacer(clock)
    assert pacer.wait(CHANNEL, "edit") == 0
    assert pacer.wait(CHANNEL, "post", 2) == 0
    pacer.spend(CHANNEL, "edit")
    clock.advance(60)  # a calm table: the next click's edit is not delayed either
    assert pacer.wait(CHANNEL, "edit") == 0


def test_two_edits_go_at_once_then_they_are_spread() -> None:
    """A move shown, then the AI's reply a moment later: both at once; a third edit
    waits until two edits fit in ``burst * edit_gap`` seconds again."""
    clock = ManualClock()
    lim = PaceLimits()
    pacer = Pacer(clock, lim)
    assert lim.burst == 2
    pacer.spend(CHANNEL, "edit")
    clock.advance(0.1)
    assert pacer.wait(CHANNEL, "edit") == 0
    pacer.spend(CHANNEL, "edit")
    assert pacer.wait(CHANNEL, "edit") == pytest.approx(2 * lim.edit_gap - 0.1)
    clock.advance(2 * lim.edit_gap - 0.1)
    assert pacer.wait(CHANNEL, "edit") == 0
    assert PaceLimits(calls=2, post_reserve=1).burst == 1  # never more than a window's edits


def test_edits_are_spread_and_leave_a_window_room_for_posts() -> None:
    clock = ManualClock()
    lim = PaceLimits(edit_burst=1)
    pacer = Pacer(clock, lim)
    assert lim.edit_gap == pytest.approx(1.25)
    pacer.spend(CHANNEL, "edit")
    assert pacer.wait(CHANNEL, "edit") == pytest.approx(1.25)  # the next edit is spaced
    assert pacer.wait(CHANNEL, "post") == 0  # a post is not held behind it
    for _ in range(3):
        clock.advance(lim.edit_gap)
        assert pacer.wait(CHANNEL, "edit") == 0
        pacer.spend(CHANNEL, "edit")
    # Four edits in 3.75 s: the fifth call of the window is a post's only.
    clock.advance(0.5)
    assert pacer.wait(CHANNEL, "edit") == pytest.approx(0.75)
    assert pacer.wait(CHANNEL, "post") == 0
    assert pacer.wait(CHANNEL, "post", 2) == pytest.approx(0.75)
    pacer.spend(CHANNEL, "post")
    # Window full: the oldest call (t=0) leaves it at t=5.
    assert pacer.wait(CHANNEL, "post") == pytest.approx(5 - 4.25)
    assert pacer.wait(OTHER, "edit") == 0  # another channel (a thread) is not held


def test_a_refusal_leaves_the_channel_alone_for_a_window() -> None:
    clock = ManualClock()
    pacer = Pacer(clock)
    assert pacer.refused(CHANNEL) == 5.0
    assert pacer.wait(CHANNEL, "post") == 5.0
    clock.advance(5)
    assert pacer.wait(CHANNEL, "post") == 0
    assert pacer.stats.refused == 1


def test_the_global_limit_holds_every_channel() -> None:
    clock = ManualClock()
    pacer = Pacer(clock, PaceLimits(global_calls=3, global_window=1.0))
    for ch in range(3):
        pacer.spend(ch, "post")
    assert pacer.wait(99, "post") == pytest.approx(1.0)
    clock.advance(1.0)
    assert pacer.wait(99, "post") == 0


def test_an_edit_through_a_clicks_token_has_a_budget_of_its_own() -> None:
    """Discord counts an interaction webhook call neither in a bot's global limit nor in
    the channel's bucket (``counted=False``): such edits neither wait for nor take those
    budgets, and at most ``token_calls`` of them go in any ``token_window`` per channel
    (the token's own bucket is Discord's, followed by discord.py)."""
    clock = ManualClock()
    lim = PaceLimits(global_calls=2, global_window=1.0)
    pacer = Pacer(clock, lim)
    pacer.spend(CHANNEL, "post")
    pacer.spend(CHANNEL, "edit")
    assert pacer.wait(CHANNEL, "edit") == pytest.approx(1.0)  # the global budget is spent
    assert pacer.wait(CHANNEL, "edit", counted=False) == 0
    for _ in range(lim.token_calls):
        assert pacer.wait(CHANNEL, "edit", counted=False) == 0
        pacer.spend(CHANNEL, "edit", counted=False)
        clock.advance(0.1)
    wait = lim.token_window - 0.1 * lim.token_calls
    assert pacer.wait(CHANNEL, "edit", counted=False) == pytest.approx(wait)
    assert pacer.wait(OTHER, "edit", counted=False) == 0  # another channel's table
    clock.advance(1.0)
    assert pacer.wait(99, "post") == 0  # the token edits took nothing of the global budget
    assert pacer.wait(CHANNEL, "post") == 0  # nor of the channel's
    assert (pacer.stats.calls, pacer.stats.exempt) == (2 + lim.token_calls, lim.token_calls)
    assert pacer.stats.summary()["exempt"] == lim.token_calls


@pytest.mark.parametrize("seed", range(20))
def test_no_window_ever_holds_more_calls_than_allowed(seed: int) -> None:
    """A greedy sender (every call as soon as the pacer allows it), random arrivals over
    a few channels: in every window of every channel at most ``calls`` calls, at most
    ``calls - post_reserve`` of them edits, at most ``burst`` edits in any ``burst *
    edit_gap`` seconds; in every global window at most ``global_calls``."""
    rnd = random.Random(seed)
    clock = ManualClock(0.0)
    lim = PaceLimits(global_calls=8)
    pacer = Pacer(clock, lim)
    made: list[tuple[float, int, str]] = []
    queue: dict[int, list[str]] = {ch: [] for ch in range(4)}
    for _ in range(3000):
        clock.advance(rnd.choice([0.0, 0.01, 0.1, 0.4, 1.3]))
        ch = rnd.randrange(4)
        queue[ch].append(rnd.choice(["post", "edit", "edit"]))
        for c, waiting in queue.items():
            while waiting:
                kind: Any = waiting[0]
                cost = 2 if kind == "post" and rnd.random() < 0.2 else 1
                if pacer.wait(c, kind, cost) > 0:
                    break
                pacer.spend(c, kind, cost)
                made += [(clock.now(), c, kind)] * cost
                waiting.pop(0)
    assert len(made) > 1000
    for i, (t, ch, kind) in enumerate(made):
        window = [m for m in made[: i + 1] if m[0] > t - lim.window + EPS and m[1] == ch]
        assert len(window) <= lim.calls
        if kind == "edit":
            assert sum(m[2] == "edit" for m in window) <= lim.edit_calls
        glob = [m for m in made[max(0, i - 50) : i + 1] if m[0] > t - lim.global_window + EPS]
        assert len(glob) <= lim.global_calls
    edits: dict[int, list[float]] = {}
    for t, ch, kind in made:
        if kind == "edit":
            edits.setdefault(ch, []).append(t)
    span = lim.burst * lim.edit_gap
    for times in edits.values():
        assert all(b - a >= span - EPS for a, b in zip(times, times[lim.burst :], strict=False))


def test_waits_and_merges_are_measured() -> None:
    clock = ManualClock()
    pacer = Pacer(clock)
    pacer.hold(1)
    clock.advance(0.5)
    pacer.hold(2)
    pacer.hold(1)  # held again: counted from its first hold
    clock.advance(1.0)
    pacer.released([1, 2], merged=1)
    pacer.released([3])  # never held: no wait
    s = pacer.stats.summary()
    assert s["held"] == 1 and s["merged"] == 1
    assert s["wait_max_s"] == pytest.approx(1.5) and s["wait_p95_s"] == pytest.approx(1.5)


def test_limits_are_checked_and_pacing_is_real_time_only_by_default() -> None:
    with pytest.raises(ValueError):
        PaceLimits(calls=2, post_reserve=2)
    with pytest.raises(ValueError):
        PaceLimits(window=0)
    assert default_pacer(ManualClock()) is None
    assert isinstance(default_pacer(SystemClock()), Pacer)


def test_idle_channels_are_forgotten() -> None:
    clock = ManualClock()
    pacer = Pacer(clock)
    for ch in range(600):
        pacer.spend(ch, "edit")
        clock.advance(0.01)
    clock.advance(10)
    for ch in range(1000, 1600):
        pacer.spend(ch, "post")
    assert len(pacer._channels) < 700


# --- merging held edits -----------------------------------------------------------------------
def _row(rid: int, out: Out, channel: int = CHANNEL) -> OutboxItem:
    entry = out.entry(channel)
    return OutboxItem(id=rid, match_id=1, version=1, **entry.model_dump())


def _table(text: str, image: bytes | None = None, create: bool = True) -> Out:
    msg = Msg(content=text)
    if image is not None:
        msg.files.append(Attachment("board.png", image))
    else:
        msg.keep_files = True
    return Out("edit", msg, role=TABLE, create=create)


def test_edits_of_one_message_merge_into_the_newest_keeping_the_newest_image() -> None:
    rows = [
        _row(1, _table("a", b"img1")),
        _row(2, _table("b", b"img2")),
        _row(3, _table("c")),  # keeps the attachment: img2 must go with it
        _row(4, _table("summary", create=False)),
    ]
    (unit,) = _units(rows, {TABLE})
    assert unit.item.id == 4 and [r.id for r in unit.replaces] == [1, 2, 3]
    msg = msg_from_json(unit.payload["msg"])
    assert msg.content == "summary"
    assert [(f.filename, f.data) for f in msg.files] == [("board.png", b"img2")]
    assert unit.payload.get("create", True)  # the older edits would have posted it anew


def test_a_merged_edit_clears_attachments_an_older_one_cleared() -> None:
    cleared = Out("edit", Msg(content="no image"), role=TABLE)
    merged = _merged(cleared.entry(CHANNEL).payload, _table("x").entry(CHANNEL).payload)
    assert not merged["msg"].get("keep_files") and not merged["msg"]["files"]


def test_posts_between_edits_go_first_and_a_post_taking_the_role_is_a_barrier() -> None:
    note = Out("post", Msg(content="note"))
    rows = [
        _row(1, _table("a")),
        _row(2, note),
        _row(3, _table("b")),
        _row(4, Out("post", Msg(content="new table"), role=TABLE, retire=True)),
        _row(5, _table("c")),
        _row(6, _table("d"), channel=OTHER),
    ]
    units = _units(rows, {TABLE})
    assert [u.item.id for u in units] == [2, 3, 4, 5, 6]
    assert [r.id for r in units[1].replaces] == [1]
    assert all(not u.replaces for u in units[2:])
    # A role with no message yet: its first edit posts it, so no post may overtake it.
    assert [u.item.id for u in _units(rows[:3], set())] == [1, 2, 3]


# --- the outbox, paced ------------------------------------------------------------------------
@dataclass
class Call:
    at: float
    kind: str
    channel: int
    content: str | None


class Channel:
    """Discord as far as the outbox sees it, recording every call with the clock's time."""

    def __init__(self, clock: Any) -> None:
        self.clock = clock
        self.calls: list[Call] = []
        self.messages: dict[int, dict[str, Any]] = {}
        self.order: list[int] = []
        self.busy = 0
        self.next_id = 1000

    async def send(self, channel_id: int, msg: Msg) -> int | None:
        self.calls.append(Call(self.clock.now(), "post", channel_id, msg.content))
        if self.busy:
            self.busy -= 1
            return None
        self.next_id += 1
        self.messages[self.next_id] = msg_to_json(msg)
        self.order.append(self.next_id)
        return self.next_id

    async def edit(self, channel_id: int, message_id: int, msg: Msg) -> bool:
        self.calls.append(Call(self.clock.now(), "edit", channel_id, msg.content))
        if self.busy:
            self.busy -= 1
            raise RetryLater
        if message_id not in self.messages:
            return False
        self.messages[message_id] = msg_to_json(msg)
        return True

    async def dm(self, user_id: int, msg: Msg) -> DmResult:
        return DmResult.CLOSED

    async def create_thread(self, channel_id: int, name: str) -> int | None:
        return None

    def posts(self) -> list[str | None]:
        return [self.messages[m]["content"] for m in self.order]


async def _never(seconds: float) -> None:
    await asyncio.Event().wait()


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[tuple[GameMaster, Channel, ManualClock, int]]:
    clock = ManualClock()
    store = await Store.open(tmp_path / "pace.sqlite3")
    channel = Channel(clock)
    gm = GameMaster(store, channel, clock)
    assert gm.pacer is None  # a manual clock: no pacing unless asked
    gm.pacer = Pacer(clock, PaceLimits(edit_burst=1))
    gm.pace_sleep = _never  # the test's clock moves by hand: its flushes stand for the wake
    mid = await store.create_lobby(
        guild_id=1,
        channel_id=CHANNEL,
        thread_id=None,
        host_id=1,
        game="test-pick",
        mode="default",
        options={},
        locale="en",
    )
    try:
        yield gm, channel, clock, mid
    finally:
        gm.stop_pacing()
        await store.close()


async def _out(gm: GameMaster, mid: int, *outs: Out) -> bool:
    await gm.store.add_public(mid, [o.entry(CHANNEL) for o in outs])
    async with gm.lock(mid):
        return await gm._flush(mid)


async def test_a_burst_of_edits_is_merged_and_posts_overtake_it(
    rig: tuple[GameMaster, Channel, ManualClock, int],
) -> None:
    gm, channel, clock, mid = rig
    assert await _out(gm, mid, _table("t0", b"img0"))  # calm: posted at once (a new table)
    assert await _out(gm, mid, _table("t1"))  # and its first edit too
    for i in range(2, 10):
        clock.advance(0.05)
        image = b"img%d" % i if i == 6 else None
        assert not await _out(gm, mid, _table(f"t{i}", image))  # held for pace
        if i in (4, 8):
            await _out(gm, mid, Out("post", Msg(content=f"note{i}")))
    assert [(c.kind, c.content) for c in channel.calls] == [
        ("post", "t0"),
        ("edit", "t1"),
        ("post", "note4"),  # not held behind the table's edits
        ("post", "note8"),
    ]
    assert len(gm._wakes) == 1
    clock.advance(1.25)  # the edit gap has passed, but four calls of the window are made:
    async with gm.lock(mid):  # the fifth is a post's (what the wake does, each time)
        assert not await gm._flush(mid)
    assert len(channel.calls) == 4
    clock.t = 1_800_000_005.0  # the first call leaves the window
    async with gm.lock(mid):
        assert await gm._flush(mid)
    assert [(c.kind, c.content) for c in channel.calls[4:]] == [("edit", "t9")]
    table = channel.messages[channel.order[0]]
    assert [f["filename"] for f in table["files"]] == ["board.png"]
    assert msg_from_json(table).files[0].data == b"img6"  # the newest image, kept by t9
    assert channel.posts() == ["t9", "note4", "note8"]
    assert await gm.store.outbox(mid) == []
    stats = gm.pacer.stats if gm.pacer else None
    assert stats is not None and stats.merged == 7 and stats.held == 1
    assert stats.waited_max == pytest.approx(5 - 0.05)


async def test_a_table_becoming_its_summary_goes_with_the_next_table_unspaced(
    rig: tuple[GameMaster, Channel, ManualClock, int],
) -> None:
    """The round's end: the table's last edit (its summary) is what the new table's post
    waits for, so it is not held by the spacing of edits."""
    gm, channel, clock, mid = rig
    await _out(gm, mid, _table("t0", b"img"))
    await _out(gm, mid, _table("t1"))
    clock.advance(0.2)
    nxt = Out("post", Msg(content="next"), role=TABLE, retire=True)
    assert await _out(gm, mid, _table("summary", create=False), nxt)
    assert [(c.kind, c.content) for c in channel.calls] == [
        ("post", "t0"),
        ("edit", "t1"),
        ("edit", "summary"),
        ("post", "next"),
    ]
    assert channel.posts() == ["summary", "next"]
    clock.advance(0.2)
    assert not await _out(gm, mid, _table("n1"))  # four calls in the window: edits wait
    clock.t = 1_800_000_005.0  # for the first to leave it
    async with gm.lock(mid):
        assert await gm._flush(mid)
    assert channel.posts() == ["summary", "n1"]


async def test_held_posts_keep_their_order_and_what_follows_waits_for_them(
    rig: tuple[GameMaster, Channel, ManualClock, int],
) -> None:
    gm, channel, clock, mid = rig
    await _out(gm, mid, *[Out("post", Msg(content=f"p{i}")) for i in range(7)])
    await _out(gm, mid, _table("t"))  # behind held posts (its first edit posts it)
    assert channel.posts() == [f"p{i}" for i in range(5)]
    clock.advance(4.9)
    async with gm.lock(mid):
        assert not await gm._flush(mid)
    assert len(channel.calls) == 5
    clock.advance(0.1)
    async with gm.lock(mid):
        assert await gm._flush(mid)
    assert channel.posts() == [*(f"p{i}" for i in range(7)), "t"]


async def test_a_refused_call_is_retried_after_a_back_off_and_not_lost(
    rig: tuple[GameMaster, Channel, ManualClock, int],
) -> None:
    gm, channel, clock, mid = rig
    await _out(gm, mid, _table("t0", b"img"))
    clock.advance(2)
    channel.busy = 1  # Discord still answers 429 after discord.py's retries
    assert not await _out(gm, mid, _table("t1"))
    clock.advance(2)
    assert not await _out(gm, mid, _table("t2"))  # backed off: not even tried
    assert [c.content for c in channel.calls] == ["t0", "t1"]
    clock.advance(3)
    async with gm.lock(mid):
        assert await gm._flush(mid)
    assert [c.content for c in channel.calls] == ["t0", "t1", "t2"]
    assert channel.posts() == ["t2"]
    assert gm.pacer is not None and gm.pacer.stats.refused == 1


async def test_edits_a_clicks_token_can_make_take_nothing_of_the_global_budget(
    rig: tuple[GameMaster, Channel, ManualClock, int],
) -> None:
    """The publisher says which messages it can edit through a click's token
    (``exempt``): their edits are paced in the channel only; a post, or an edit of a
    message without such a token, takes the global budget as before."""
    gm, channel, clock, mid = rig
    assert gm.pacer is not None
    gm.pacer.limits = PaceLimits(edit_burst=1, global_calls=1)
    exempt: set[int] = set()
    channel.exempt = lambda message_id: message_id in exempt  # type: ignore[attr-defined]
    assert await _out(gm, mid, _table("t0", b"img"))  # the post takes the global call
    exempt.add(channel.order[-1])
    assert await _out(gm, mid, _table("t1"))  # through the token: not held by it
    assert [c.content for c in channel.calls] == ["t0", "t1"]
    assert (gm.pacer.stats.calls, gm.pacer.stats.exempt) == (2, 1)
    clock.advance(1.0)
    exempt.clear()  # the token grew too old: the channel's route, counted again
    assert await _out(gm, mid, _table("t2"))
    assert not await _out(gm, mid, Out("post", Msg(content="p")))  # the global call is spent
    assert gm.pacer.stats.exempt == 1


async def test_a_wake_delivers_held_rows_in_real_time(tmp_path: Path) -> None:
    """With the real clock no tick is needed: the channel's wake flushes the match."""
    store = await Store.open(tmp_path / "wake.sqlite3")
    clock = SystemClock()
    channel = Channel(clock)
    gm = GameMaster(store, channel, clock)
    assert gm.pacer is not None  # real time: paced by default
    gm.pacer = Pacer(clock, PaceLimits(calls=2, window=0.3, post_reserve=1))
    mid = await store.create_lobby(
        guild_id=1,
        channel_id=CHANNEL,
        thread_id=None,
        host_id=1,
        game="test-pick",
        mode="default",
        options={},
        locale="en",
    )
    try:
        assert not await _out(gm, mid, *[Out("post", Msg(content=f"p{i}")) for i in range(5)])
        assert channel.posts() == ["p0", "p1"]
        for _ in range(100):
            await asyncio.sleep(0.05)
            # Posted, and the post recorded as delivered (its own hop to the database,
            # right after Discord answered: under a loaded machine, a moment later).
            if len(channel.posts()) == 5 and not await store.outbox(mid):
                break
        assert channel.posts() == [f"p{i}" for i in range(5)]
        times = [c.at for c in channel.calls]
        assert all(b - a >= 0.3 - 0.02 for a, b in zip(times, times[2:], strict=False))
        assert await store.outbox(mid) == [] and not gm._wakes
    finally:
        gm.stop_pacing()
        await store.close()


async def test_rows_held_when_the_bot_stops_are_delivered_after_a_restart(
    rig: tuple[GameMaster, Channel, ManualClock, int],
) -> None:
    """A wake survives nothing: the held rows are in the store, and the next process
    delivers them (merged) when it recovers, before anything new."""
    gm, channel, clock, mid = rig
    await _out(gm, mid, Out("post", Msg(content="lobby"), role="lobby"))
    await _out(gm, mid, Out("edit", Msg(content="l1"), role="lobby"))
    for i in range(2, 6):
        await _out(gm, mid, Out("edit", Msg(content=f"l{i}"), role="lobby"))
    assert channel.posts() == ["l1"]
    gm.stop_pacing()  # the process dies
    clock.advance(60)
    again = GameMaster(gm.store, channel, clock)
    again.pacer = Pacer(clock, PaceLimits(edit_burst=1))
    await again.recover()
    assert channel.posts() == ["l5"]
    assert [c.content for c in channel.calls] == ["lobby", "l1", "l5"]
    assert await gm.store.outbox(mid) == []
