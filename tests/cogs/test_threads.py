"""A thread per match (issue 11.2): offered in the lobby, the default where the bot may
make one; made at Start; the match falls back to the channel, with one polite line,
where the bot may not (no permission, the lobby itself in a thread)."""

from __future__ import annotations

from typing import Any

from tests.cogs.driver import Driver
from tests.harness import payloads as P
from tests.harness.fake_discord import FakeMessage


def _option(d: Driver, lobby: FakeMessage, label: str) -> tuple[str, str]:
    """(custom_id, value) of the lobby options menu's entry with this exact label."""
    sel = next(c for c in d.fake.components(lobby) if ":opt:" in (c.get("custom_id") or ""))
    [value] = [o["value"] for o in sel["options"] if o["label"] == label]
    return sel["custom_id"], value


async def _lobby(d: Driver, users: list[Any], **kw: Any) -> FakeMessage:
    fi = await d.slash(users[0], "start", game="test-pick", **kw)
    assert "Lobby #" in d.reply_text(fi), d.reply_text(fi)
    lobby = d.lobby(kw["channel"]["id"] if "channel" in kw else d.channel_id)
    for u in users[1:]:
        await d.press(u, d.fake.message(lobby.id), "Join")
    return d.fake.message(lobby.id)


async def test_the_match_gets_its_own_thread_at_start(driver: Driver) -> None:
    d = driver
    ann, bob = d.users[:2]
    lobby = await _lobby(d, [ann, bob])
    assert d.fake.threads(d.channel_id) == [], "no thread before Start"
    assert "Played in a thread of its own" in lobby.text()
    assert _option(d, lobby, "Play in this channel")
    await d.press(ann, lobby, "Start")
    [thread] = d.fake.threads(d.channel_id)
    tid = int(thread["id"])
    assert "#1" in thread["name"] and "Ann" in thread["name"]
    # The table is in the thread; the closed lobby (in the channel) says where.
    assert d.round_message(tid).channel_id == tid
    closed = d.fake.message(lobby.id)
    assert closed.channel_id == d.channel_id
    assert f"The match is played in <#{tid}>." in closed.text()
    assert not any(m.channel_id == d.channel_id for m in d.public() if m.id != lobby.id), (
        "nothing of the match is posted in the channel"
    )
    # From the parent channel, /arena hand finds the thread's match where Bob is seated.
    fi = await d.slash(bob, "hand")
    assert "**Bob** — Pick" in d.reply_text(fi)
    # The channel is free again: the next lobby opens there and gets its own thread.
    await _lobby(d, [d.users[2], d.users[3]])
    await d.press(d.users[2], d.lobby(d.channel_id), "Start")
    assert len(d.fake.threads(d.channel_id)) == 2


async def test_the_host_keeps_the_match_in_the_channel(driver: Driver) -> None:
    d = driver
    ann, bob = d.users[:2]
    lobby = await _lobby(d, [ann, bob])
    custom_id, value = _option(d, lobby, "Play in this channel")
    fi = await d.click(bob, lobby, custom_id, values=[value])
    assert "Only the host" in d.reply_text(fi)
    await d.click(ann, lobby, custom_id, values=[value])
    lobby = d.fake.message(lobby.id)
    assert "Played in this channel" in lobby.text()
    await d.press(ann, lobby, "Start")
    assert d.fake.threads(d.channel_id) == []
    assert d.fake.calls_to("POST", r"/threads$") == []
    assert d.round_message(d.channel_id).channel_id == d.channel_id
    assert f"The match is played in <#{d.channel_id}>." in d.fake.message(lobby.id).text()


async def test_without_permission_the_match_is_played_in_the_channel(driver: Driver) -> None:
    d = driver
    ann, bob = d.users[:2]
    lobby = await _lobby(d, [ann, bob])
    d.fake.fail_next("POST", r"/threads$", 403, code=50013)
    await d.press(ann, lobby, "Start")
    assert d.fake.threads(d.channel_id) == []
    assert d.round_message(d.channel_id).channel_id == d.channel_id
    closed = d.fake.message(lobby.id).text()
    assert "I could not open a thread here" in closed, closed


async def test_a_lobby_in_a_thread_plays_there(driver: Driver) -> None:
    d = driver
    ann, bob = d.users[:2]
    thread = P.thread_channel(
        d.fake.new_id(),
        "chat",
        guild_id=d.guild_id,
        parent_id=d.channel_id,
        owner_id=int(ann["id"]),
        member_user_id=d.fake.bot_id,
    )
    d.fake.channels[int(thread["id"])] = thread
    tid = int(thread["id"])
    lobby = await _lobby(d, [ann, bob], channel=thread)
    assert lobby.channel_id == tid
    await d.press(ann, lobby, "Start")
    assert [t["id"] for t in d.fake.threads(d.channel_id)] == [thread["id"]]
    assert d.round_message(tid).channel_id == tid
    assert "I could not open a thread here" in d.fake.message(lobby.id).text()


async def test_the_server_setting_is_the_lobby_default(driver: Driver) -> None:
    d = driver
    ann, bob = d.users[:2]
    fi = await d.slash(ann, "settings", manager=True)
    assert "one thread per match: on" in d.reply_text(fi), "on where never chosen"
    fi = await d.slash(ann, "settings", threads=False, manager=True)
    assert "one thread per match: off" in d.reply_text(fi)
    lobby = await _lobby(d, [ann, bob])
    assert "Played in this channel" in lobby.text()
    custom_id, value = _option(d, lobby, "Play in a thread")
    await d.click(ann, lobby, custom_id, values=[value])
    assert "Played in a thread of its own" in d.fake.message(lobby.id).text()
    await d.press(ann, d.fake.message(lobby.id), "Start")
    [thread] = d.fake.threads(d.channel_id)
    assert d.round_message(int(thread["id"])).channel_id == int(thread["id"])
