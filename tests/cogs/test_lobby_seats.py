"""Per-seat lobby settings: each AI seat's level (issue 14 item 1) and a game's seat
choices (issue 12 item 2: Ultimate Warriorz's fighters and teams), generic in the lobby."""

from __future__ import annotations

from bot.engine import SeatSpec
from bot.gm import present
from tests.cogs.driver import Driver


def options_of(d: Driver, message, custom_part: str) -> list[dict]:
    sel = next(c for c in d.fake.components(message) if f":{custom_part}:" in c["custom_id"])
    return sel["options"]


async def pick(d: Driver, user, message, custom_part: str, label_part: str):
    sel = next(c for c in d.fake.components(message) if f":{custom_part}:" in c["custom_id"])
    value = next(o["value"] for o in sel["options"] if label_part in o["label"])
    return await d.click(user, message, sel["custom_id"], values=[value])


async def test_each_ai_seat_has_its_level_set_by_the_host(driver: Driver) -> None:
    d = driver
    ann, bob = d.users[:2]
    await d.slash(ann, "start", game="mad")
    lobby = d.lobby()
    await d.press(ann, lobby, "Add AI")
    lobby = d.fake.message(lobby.id)
    assert "🤖 Robot 1 · Hard" in lobby.text(), "the game's default level, next to the seat"
    labels = [o["label"] for o in options_of(d, lobby, "seat")]
    assert labels == [
        "Robot 1 — ✅ AI level Hard",
        "Robot 1 — AI level Medium",
        "Robot 1 — AI level Easy",
    ]
    fi = await pick(d, bob, lobby, "seat", "Easy")
    assert "Only the host" in d.reply_text(fi)
    await pick(d, ann, d.fake.message(lobby.id), "seat", "Easy")
    lobby = d.fake.message(lobby.id)
    assert "🤖 Robot 1 · Easy" in lobby.text()
    await d.press(ann, lobby, "Start")
    live = await d.live(1)
    assert live.match.seats[1].ai_level == "easy"
    assert "🤖 Robot 1 · Easy" in "\n".join(m.text() for m in d.public())


async def test_a_value_not_offered_changes_nothing(driver: Driver) -> None:
    d = driver
    ann = d.users[0]
    await d.slash(ann, "start", game="mad")
    lobby = d.lobby()
    await d.press(ann, lobby, "Add AI")
    lobby = d.fake.message(lobby.id)
    sel = next(c for c in d.fake.components(lobby) if ":seat:" in c["custom_id"])
    fi = await d.click(ann, lobby, sel["custom_id"], values=["s0:lv:hard"])
    assert "not" in d.reply_text(fi).lower()
    rec = await d.bot.store.get(1)
    assert rec.seats[1].ai_level == "hard"


def test_an_old_lobby_seat_without_level_shows_the_default() -> None:
    info = present.get_game("mad").info
    line = present.seat_line(1, SeatSpec(name="Robot 1", ai=True), "fr", info)
    assert line == "2. 🤖 Robot 1 · " + info.ai_levels[0].names.fr
    seats = [SeatSpec(name="Ann", user_id=5), SeatSpec(name="Robot 1", ai=True)]
    msg = present.lobby_msg(1, "mad", "duel", {}, seats, 5, "en")
    assert "Robot 1 · Hard" in msg.embeds[0].fields[2][1]
