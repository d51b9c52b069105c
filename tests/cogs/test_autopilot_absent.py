"""Absent players (issue 11 item 6): one expired deadline makes the AI play that seat's
whole turn or action; the second expiry in a match puts the seat on autopilot with one
public notice, and one click on it gives the seat back."""

from __future__ import annotations

from bot.engine import Decision
from tests.cogs.driver import Driver


async def open_match(d: Driver, game: str, users: list, mode: str | None = None) -> int:
    await d.slash(users[0], "start", game=game, **({"mode": mode} if mode else {}))
    lobby = d.lobby()
    for u in users[1:]:
        await d.press(u, d.fake.message(lobby.id), "Join")
    await d.press(users[0], d.fake.message(lobby.id), "Start")
    return 1


def human_pending(live) -> list[Decision]:
    m = live.match
    return [x for x in m.pending() if not m.seats[x.seat].ai]


async def test_one_expiry_plays_the_whole_arena_turn(driver: Driver) -> None:
    d = driver
    ann, bob = d.users[:2]
    mid = await open_match(d, "arena", [ann, bob])
    live = await d.live(mid)
    first = live.match.pending()[0]
    s = first.seat
    assert first.timing == "turn"
    version = live.match.version
    await d.tick(301)
    live = await d.live(mid)
    after = live.match.pending()
    assert after and all(x.seat == 1 - s for x in after), "the other's turn: this one played whole"
    stored = await d.bot.store.decision_log(mid)
    by_ai = [x for x in stored[version:] if x["by_ai"] and x["seat"] == s]
    assert len(by_ai) >= 2, "the posture and at least one fight step, by the AI"
    texts = [m.text() for m in d.public()]
    assert sum("Time is up for" in t for t in texts) == 1, "one notice for the whole turn"
    assert not any("missed two deadlines" in t for t in texts)
    assert not live.match.seats[s].ai and live.absent == {s: 1}


async def test_second_expiry_autopilot_then_one_click_back(driver: Driver) -> None:
    d = driver
    ann, bob = d.users[:2]
    mid = await open_match(d, "arena", [ann, bob])
    live = await d.live(mid)
    s = live.match.pending()[0].seat
    if s == 1:
        ann, bob = bob, ann  # Ann: the one who does not play
    await d.tick(301)  # Ann's first turn expires
    # Bob plays his turn by clicks.
    for _ in range(20):
        live = await d.live(mid)
        mine = [x for x in human_pending(live) if x.seat == 1 - s]
        if not mine:
            break
        await d.answer(bob, mine[0], mine[0].options[0].id)
    live = await d.live(mid)
    assert any(x.seat == s for x in live.match.pending())
    await d.tick(301)  # Ann's second expiry
    notices = [m for m in d.public() if "missed two deadlines" in m.text()]
    assert len(notices) == 1 and f"<@{ann['id']}>" in notices[0].text()
    live = await d.live(mid)
    assert live.match.seats[s].ai and set(live.away) == {s}
    # The AI plays her seat meanwhile: nothing of hers is awaited.
    assert all(x.seat == 1 - s for x in human_pending(live))
    # Bob cannot take her seat back with her button.
    fi = await d.press(bob, d.fake.message(notices[0].id), "I'm back: give me my seat")
    live = await d.live(mid)
    assert live.match.seats[s].ai
    # /arena hand only reads: her seat stays with the AI.
    await d.slash(ann, "hand")
    assert (await d.live(mid)).match.seats[s].ai
    # One click: Ann is back, her seat is hers again.
    fi = await d.press(ann, d.fake.message(notices[0].id), "I'm back: give me my seat")
    live = await d.live(mid)
    assert not live.match.seats[s].ai and live.away == {}
    assert "You have your seat back" in d.reply_text(fi)
    assert any("takes their seat back" in m.text() for m in d.public())
    # After a restart the counts start afresh for her (kept in the public state).
    await d.restart()
    live = await d.live(mid)
    assert not live.match.seats[s].ai and live.absent.get(s, 0) == 0


async def test_absence_count_survives_a_restart(driver: Driver) -> None:
    d = driver
    ann, bob = d.users[:2]
    mid = await open_match(d, "arena", [ann, bob])
    s = (await d.live(mid)).match.pending()[0].seat
    await d.tick(301)
    await d.restart()
    live = await d.live(mid)
    assert live.absent == {s: 1}


async def test_one_absence_with_several_fighters_is_one_expiry(driver: Driver) -> None:
    """Team Spirit with two people: each plays two fighters, so two picks per round; an
    absent player's picks are all made at the first expiry, counted once."""
    d = driver
    ann, bob = d.users[:2]
    mid = await open_match(d, "mad-arena", [ann, bob], mode="mad-arena:team-spirit")
    live = await d.live(mid)
    picks = [x for x in live.match.pending() if x.seat == 0]
    assert len(picks) >= 2 and all(x.timing == "pick" for x in picks)
    # Bob picks for his fighters by clicks; Ann is away.
    for x in [x for x in live.match.pending() if x.seat == 1]:
        await d.answer(bob, x, x.options[0].id)
    await d.tick(301)
    live = await d.live(mid)
    assert not any(x.seat == 0 and x.timing == "pick" for x in live.match.pending())
    assert live.absent == {0: 1} and not live.match.seats[0].ai
    texts = [m.text() for m in d.public()]
    assert sum("Time is up for" in t for t in texts) == 1
