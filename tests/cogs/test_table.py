"""The calm table (issue 11 items 1, 2, 7, 8, 9; issue 16 item 4), through the harness.

Whole matches played by clicks, counting what the channel gets per round: new
public messages, pings (mentions a created message may notify), and checking that
every public payload is a components v2 message within Discord's limits (the
harness refuses any other), that edits never ping, that summaries keep no button,
and that the live table's edits survive a restart.
"""

from __future__ import annotations

import random
import re
from collections import Counter, defaultdict
from typing import Any

from bot.engine import Decision
from bot.gm import posting
from tests.cogs.driver import Driver
from tests.cogs.test_full_matches import assert_finished, open_and_fill
from tests.harness.fake_discord import Call, iter_components

MENTION = re.compile(r"<@!?(\d+)>")


def _texts(body: dict[str, Any]) -> str:
    parts = [body.get("content") or ""]
    parts += [c.get("content") or "" for c in iter_components(body.get("components") or [])]
    return "\n".join(parts)


def pinged(body: dict[str, Any]) -> set[int]:
    """Users a created message notifies: mentioned and allowed (always explicit here)."""
    allowed = body.get("allowed_mentions")
    assert allowed is not None, "allowed_mentions must be explicit on every message"
    assert not allowed.get("parse"), allowed  # never @everyone, roles or any user
    users = {int(u) for u in allowed.get("users") or []}
    return {int(u) for u in MENTION.findall(_texts(body))} & users


def channel_calls(d: Driver, since: int) -> list[Call]:
    """Posts and edits of the match's public messages since call ``since``: through the
    channel, or through the token of a click on the edited message (cogs.publisher)."""
    chans = {d.channel_id} | {int(t["id"]) for t in d.fake.threads(d.channel_id)}
    out = []
    for c in d.fake.calls[since:]:
        if c.route_template.startswith("/channels/{channel_id}/messages"):
            if int(c.path.split("/")[2]) in chans and c.method in ("POST", "PATCH"):
                out.append(c)
        elif c.route_template.startswith("/webhooks/") and c.method == "PATCH":
            target = d.fake.messages.get(d.fake.target_of(c) or 0)
            if target is not None and not target.ephemeral and target.channel_id in chans:
                out.append(c)
    return out


class Tally:
    """Per round label: new public messages, and pings per user."""

    def __init__(self) -> None:
        self.messages: Counter[int] = Counter()
        self.pings: dict[int, Counter[int]] = defaultdict(Counter)
        self.turns: Counter[int] = Counter()
        """Pick/turn decisions begun per round (what may ping)."""

    def book(self, d: Driver, since: int, label: int) -> None:
        for c in channel_calls(d, since):
            body = c.json or {}
            if c.method == "PATCH":
                # An edit never pings: the mentions it allows are none.
                allowed = body.get("allowed_mentions")
                assert allowed is not None and not allowed.get("users"), allowed
                continue
            self.messages[label] += 1
            for u in pinged(body):
                self.pings[label][u] += 1


async def start(d: Driver, game: str, users: list[Any], **options: Any) -> tuple[int, int]:
    """A lobby filled and started: (match id, index of the first call of the start)."""
    fi = await d.slash(users[0], "start", game=game, **options)
    assert "Lobby #" in d.reply_text(fi)
    lobby = d.lobby()
    for u in users[1:]:
        await d.press(u, d.fake.message(lobby.id), "Join")
    since = len(d.fake.calls)
    await d.press(users[0], d.fake.message(lobby.id), "Start")
    return int(d.fake.components(d.round_message())[0]["custom_id"].split(":")[1]), since


async def play_counting(d: Driver, mid: int, since: int, rnd: random.Random) -> Tally:
    """Every human decision answered by clicks; public traffic booked to the round that
    follows it (the start's posts, the lobby closed and the introduction included, to
    the first round; the podium to the last)."""
    tally = Tally()
    live = await d.live(mid)
    tally.book(d, since, live.match.round_label())
    seen = len(d.fake.calls)
    begun: set[str] = set()
    for _ in range(3000):
        live = await d.live(mid)
        if live is None:
            return tally
        match = live.match
        label = match.round_label()
        humans = [x for x in match.pending() if not match.seats[x.seat].ai]
        for x in humans:
            if x.key not in begun and x.timing in posting.PING_TIMINGS:
                begun.add(x.key)
                tally.turns[label] += 1
        x: Decision = humans[0]
        user = d.user_by_id(match.seats[x.seat].user_id)
        if x.structured:
            await d.answer_draft(user, x, match.ai_choice(x))
        else:
            await d.answer(user, x, rnd.choice(x.options).id)
        # Booked to the round the channel shows next: a decision that ends a round
        # brings the next round's table.
        after = await d.live(mid)
        tally.book(d, seen, after.match.round_label() if after is not None else label)
        seen = len(d.fake.calls)
    raise AssertionError("the match did not end")


def assert_story(d: Driver) -> None:
    """Only the live table offers a button; every other message of the match (summaries,
    the podium's Rematch aside) offers none, so no old message says "waiting" with a
    working button."""
    tables = [
        m
        for m in d.public()
        if any(":hand:" in (c.get("custom_id") or "") for c in d.fake.components(m))
    ]
    assert len(tables) <= 1


async def test_mad_arena_two_messages_per_round_and_one_ping_per_pick(driver: Driver) -> None:
    d = driver
    mid, since = await start(d, "mad-arena", d.users[:4], mode="mad-arena:ultimate-warrior")
    tally = await play_counting(d, mid, since, random.Random(31))
    rounds = sorted(tally.messages)
    assert len(rounds) >= 3
    last = rounds[-1]
    for label in rounds:
        # The last round also gets the podium.
        assert tally.messages[label] <= (3 if label == last else 2), (label, tally.messages)
        # Each player is pinged once per round, when the round's pick begins (and once
        # more by the podium at the end).
        most = 2 if label == last else 1
        assert all(n <= most for n in tally.pings[label].values()), (label, tally.pings[label])
    await assert_finished(d, mid)
    assert_story(d)
    d.fake.assert_all_acknowledged_first()


async def test_arena_one_message_per_turn(driver: Driver) -> None:
    d = driver
    mid, since = await start(d, "arena", d.users[:4])
    tally = await play_counting(d, mid, since, random.Random(32))
    first, last = min(tally.messages), max(tally.messages)
    for label, n in tally.messages.items():
        turns = max(tally.turns[label], 1)
        # One table per turn; the introduction opens the match, the podium ends it.
        extra = (label == first) + (label == last)
        assert n <= turns + extra, (label, n, turns)
        # A ping per turn begun; the introduction and the podium name every player.
        assert sum(tally.pings[label].values()) <= turns + 4 * extra, (label, tally.pings)
    middle = [n for label, n in tally.messages.items() if label not in (first, last)]
    assert middle and max(middle) <= 4  # four players, one turn each
    await assert_finished(d, mid)
    assert_story(d)


async def test_the_clickers_answer_comes_before_the_channel(driver: Driver) -> None:
    """Issue 16.4: the clicked prompt is answered first; the table's edit follows."""
    d = driver
    mid = await open_and_fill(d, "mad-arena", d.users[:4], mode="mad-arena:ultimate-warrior")
    live = await d.live(mid)
    x = live.match.pending()[0]
    user = d.user_by_id(live.match.seats[x.seat].user_id)
    fi = await d.press(user, d.round_message(), "Make your choice")
    prompt = d.prompt_for(d.replies(fi), x)
    chosen = await d.choose_in(user, prompt, x, x.options[0].id)
    routes = [c.route_template for c in chosen.calls]
    assert routes[0].endswith("/callback")
    # Handled quickly, the answer to the click is the prompt edited (cogs/deferral.py);
    # deferred, it is the edit through the click's token that follows.
    own = f"/{chosen.token}"
    answer = 0
    if chosen.response_type != 7:
        answer = next(i for i, c in enumerate(chosen.calls) if own in c.path and i > 0)
    shown = {id(c) for c in channel_calls(d, 0)}
    public = [i for i, c in enumerate(chosen.calls) if id(c) in shown]
    assert public and answer < min(public), routes
    assert len(public) <= 2  # the table edited (or a summary and a new table)


async def test_table_edits_are_delivered_after_a_restart(driver: Driver) -> None:
    """A pick committed, then the bot dies before the table's edit went out: the new
    process delivers it (the outbox), and the table says who has chosen."""
    d = driver
    mid = await open_and_fill(d, "mad-arena", d.users[:4], mode="mad-arena:ultimate-warrior")
    table = d.round_message()
    before = table.text()
    live = await d.live(mid)
    x = live.match.pending()[0]
    user = d.user_by_id(live.match.seats[x.seat].user_id)
    assert d.bot is not None

    async def dead(mid: int) -> bool:
        return False

    gm: Any = d.bot.gm
    gm._flush = dead  # nothing reaches Discord from here on: as if killed after commits
    fi = await d.press(user, table, "Make your choice")
    await d.choose_in(user, d.prompt_for(d.replies(fi), x), x, x.options[0].id)
    assert d.fake.message(table.id).text() == before
    assert await d.bot.store.outbox(mid)
    await d.restart()
    assert d.bot is not None
    assert await d.bot.store.outbox(mid) == []
    after = d.fake.message(table.id).text()
    assert after != before and "has chosen" in after


async def test_the_podium_offers_a_rematch_with_the_same_seats(driver: Driver) -> None:
    """Issue 11.9: the podium's Rematch opens a lobby with the same players and options;
    a spectator is told that only the players can ask for it."""
    d = driver
    ann, bob = d.users[:2]
    mid = await open_and_fill(d, "test-pick", [ann, bob])
    await d.play_out(mid, random.Random(3))
    podium = d.public()[-1]
    assert "is over" in podium.text()
    assert f"<@{ann['id']}>" in podium.text()  # the podium names the players
    fi = await d.press(d.spectator, podium, "Rematch")
    assert "Only the players" in d.reply_text(fi)
    fi = await d.press(bob, podium, "Rematch")
    assert "Lobby #" in d.reply_text(fi)
    lobby = d.lobby()
    assert lobby.id != podium.id
    text = lobby.text()
    assert f"<@{ann['id']}>" in text and f"<@{bob['id']}>" in text
    assert d.bot is not None
    new = await d.bot.store.get(mid + 1, snapshot=False)
    assert new is not None and new.status == "lobby" and new.host_id == int(bob["id"])
    assert [s.user_id for s in new.seats] == [int(bob["id"]), int(ann["id"])]
    await d.press(bob, d.fake.message(lobby.id), "Start")
    assert d.round_message().id != podium.id


def _shown(body: dict[str, Any]) -> str:
    """What a message shows, attachments and pings aside (an edit keeps the image)."""
    return repr(body.get("components"))


async def test_a_table_is_never_edited_into_what_it_already_shows(driver: Driver) -> None:
    """Issue 16.4: a new round's table, posted with its ping, is not edited right after into
    the same table without the ping (an AI's reply planned the table again): a round
    change costs two channel calls (the summary, the new table), not three."""
    d = driver
    ann = d.users[0]
    await d.slash(ann, "start", game="mad", ai_level="easy")
    lobby = d.lobby()
    await d.press(ann, lobby, "Add AI")
    since = len(d.fake.calls)
    await d.press(ann, d.fake.message(lobby.id), "Start")
    rnd = random.Random(5)
    await d.play_out(
        1, rnd, chooser=lambda m, x: next(o.id for o in x.options if "tie" not in o.id)
    )
    shown: dict[int, str] = {}
    edits = 0
    for c in channel_calls(d, since):
        body = c.json or {}
        if c.method == "POST":
            message_id = int((c.response or {}).get("id", 0))
        else:
            message_id = d.fake.target_of(c) or 0
            edits += 1
            assert shown.get(message_id) != _shown(body), f"edit {c.path} changes nothing"
        shown[message_id] = _shown(body)
    assert edits > 5
    await assert_finished(d, 1, dice=False)
