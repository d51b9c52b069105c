"""Structured answers (Many, Order, Allocation) built in the private prompt, click by click.

Played through the offline harness with the test-only game of
:mod:`tests.cogs.draft_game`: every click edits the same ephemeral prompt with a
live summary; Back undoes; Confirm is refused with the reason while the answer
is incomplete, and otherwise commits ONE decision. Drafts live in memory only:
after a restart, or once the step is gone, a click says so and shows a fresh prompt.
Every payload is checked against Discord's limits by the harness.
"""

from __future__ import annotations

import re
from typing import Any

from bot.engine import Choice
from bot.gm import ids
from tests.cogs.driver import Driver
from tests.harness.fake_discord import FakeMessage

FR = "fr"
SUCCESS, DISABLED = 3, True


async def start(d: Driver) -> tuple[dict[str, Any], dict[str, Any]]:
    """Ann (English) hosts test-drafts, Bob (French) joins; Ann starts."""
    ann, bob = d.users[0], d.users[1]
    await d.slash(ann, "start", game="test-drafts", mode="test-drafts:default")
    lobby = d.lobby()
    await d.press(bob, d.fake.message(lobby.id), "Join", locale=FR)
    await d.press(ann, d.fake.message(lobby.id), "Start")
    return ann, bob


async def prompt(d: Driver, user: dict[str, Any], key: str, locale: str = "en-US") -> FakeMessage:
    """The user's private prompt for decision ``key``, opened from the round board."""
    live = await d.live(1)
    decision = live.match.decision(key)
    assert decision is not None, key
    fi = await d.press(user, d.round_message(), "Make your choice", locale=locale)
    return d.prompt_for(d.replies(fi), decision)


async def press(
    d: Driver, user: dict[str, Any], msg: FakeMessage, label: str, locale: str = "en-US"
) -> FakeMessage:
    """Press the one button whose label contains ``label``; the prompt as edited."""
    current = d.fake.message(msg.id)
    button = d.fake.find_button(current, label_contains=label)
    await d.click(user, current, button["custom_id"], locale=locale)
    return d.fake.message(msg.id)


async def pick(
    d: Driver, user: dict[str, Any], msg: FakeMessage, part: str, value: str, locale: str = "en-US"
) -> FakeMessage:
    """Choose ``value`` in the draft select whose custom id ends with ``.<part>``."""
    current = d.fake.message(msg.id)
    select = next(
        c
        for c in d.fake.components(current)
        if ":dsel:" in c["custom_id"] and c["custom_id"].endswith("." + part)
    )
    assert value in [o["value"] for o in select["options"]], (value, select["options"])
    await d.click(user, current, select["custom_id"], values=[value], locale=locale)
    return d.fake.message(msg.id)


def button(d: Driver, msg: FakeMessage, label: str) -> dict[str, Any]:
    return d.fake.find_button(d.fake.message(msg.id), label_contains=label)


def so_far(msg: FakeMessage) -> str:
    line = next(x for x in msg.content.splitlines() if x.startswith(("**So far:**", "**Jusqu")))
    return line.split(":**", 1)[1].strip()


async def logged(d: Driver) -> list[Choice]:
    return await d.bot.store.decisions(1)


def check_custom_ids(d: Driver, msg: FakeMessage) -> None:
    """Draft custom ids: our pattern, and nothing but a tag, a draft id and numbers."""
    for c in d.fake.components(d.fake.message(msg.id)):
        parsed = ids.parse(c["custom_id"])
        assert isinstance(parsed, ids.Draft), c["custom_id"]
        assert parsed.encode() == c["custom_id"]
        assert re.fullmatch(
            r"[0-9a-f]{8}\.([0-9a-f]{6}|n)\.[0-9]+(\.[oqf]?-?[0-9]*)*", parsed.arg or ""
        )


async def test_a_whole_match_of_set_order_and_amounts_through_drafts(driver: Driver) -> None:
    d = driver
    ann, bob = await start(d)
    # --- Many, with buttons: Ann keeps 1 or 2 of 4 gems ------------------------------------
    p = await prompt(d, ann, "many:s0")
    assert p.content.startswith("**Ann** — Keep some stones")
    assert "(1 to 2)" in p.content and "-# 💎 worth" in p.content
    assert so_far(p) == "nothing yet"
    assert button(d, p, "Back")["disabled"] is DISABLED
    check_custom_ids(d, p)
    p = await press(d, ann, p, "Confirm")
    assert "⚠️ Please choose at least 1 option." in p.content, "Confirm refused, with the reason"
    assert await logged(d) == []
    p = await press(d, ann, p, "Ruby")
    assert so_far(p) == "Ruby" and button(d, p, "Ruby")["style"] == SUCCESS
    assert button(d, p, "Ruby")["label"] == "Ruby · 💎1"
    p = await press(d, ann, p, "Jade")
    assert so_far(p) == "Ruby, Jade"
    p = await press(d, ann, p, "Opal")
    assert "⚠️ You have already chosen the maximum (2)." in p.content
    assert so_far(p) == "Ruby, Jade" and button(d, p, "Opal")["style"] != SUCCESS
    p = await press(d, ann, p, "Back")
    assert so_far(p) == "Ruby" and button(d, p, "Jade")["style"] != SUCCESS
    p = await press(d, ann, p, "Onyx")
    p = await press(d, ann, p, "Ruby")  # a second click takes it out again
    p = await press(d, ann, p, "Opal")
    assert so_far(p) == "Onyx, Opal"
    check_custom_ids(d, p)
    assert await logged(d) == [], "nothing is logged before Confirm"
    p = await press(d, ann, p, "Confirm")
    assert p.content == "✅ Ann: Onyx, Opal"
    assert await logged(d) == [Choice(seat=0, key="many:s0", options=["onyx", "opal"])]
    # --- Many, with selects (30 options), in French: Bob keeps 2 or 3 pebbles -------------
    q = await prompt(d, bob, "many:s1", locale=FR)
    assert "Cliquez pour choisir ou retirer des options (de 2 à 3)" in q.content
    assert so_far(q) == "rien pour l'instant"
    rows = {c["row"] for c in d.fake.components(q)}
    assert len(rows) == 3, "two selects (25 + 5) and the navigation row"
    q = await pick(d, bob, q, "o0", "3", locale=FR)
    q = await pick(d, bob, q, "o1", "27", locale=FR)
    assert so_far(q) == "Pebble 3 (fr), Pebble 27 (fr)"
    chosen = [o for c in d.fake.components(q) for o in c.get("options", [])]
    assert {o["label"] for o in chosen if o["label"].startswith("✅")} == {
        "✅ Pebble 3 (fr)",
        "✅ Pebble 27 (fr)",
    }
    q = await press(d, bob, q, "Valider", locale=FR)
    assert q.content == "✅ Bob : Pebble 3 (fr), Pebble 27 (fr)"
    # --- Order: placed banners are numbered and disabled; Back frees the last one ----------
    p = await prompt(d, ann, "order:s0")
    assert "in the order you want" in p.content
    p = await press(d, ann, p, "Lion")
    assert button(d, p, "Lion")["label"] == "1. Lion" and button(d, p, "Lion")["disabled"]
    p = await press(d, ann, p, "Bear")
    assert so_far(p) == "1. Lion → 2. Bear"
    p = await press(d, ann, p, "Back")
    assert not button(d, p, "Bear")["disabled"] and button(d, p, "Bear")["label"] == "Bear"
    p = await press(d, ann, p, "Eagle")
    p = await press(d, ann, p, "Bear")
    assert so_far(p) == "1. Lion → 2. Eagle → 3. Bear"
    p = await press(d, ann, p, "Confirm")
    assert p.content == "✅ Ann: 1. Lion → 2. Eagle → 3. Bear"
    q = await prompt(d, bob, "order:s1", locale=FR)
    q = await press(d, bob, q, "Bear", locale=FR)
    q = await press(d, bob, q, "Valider", locale=FR)
    assert "⚠️ Placez toutes les options dans l'ordre : il en manque 2." in q.content
    q = await press(d, bob, q, "Lion", locale=FR)
    q = await press(d, bob, q, "Eagle", locale=FR)
    q = await press(d, bob, q, "Valider", locale=FR)
    assert (await logged(d))[-2:] == [
        Choice(seat=0, key="order:s0", options=["lion", "eagle", "bear"]),
        Choice(seat=1, key="order:s1", options=["bear", "lion", "eagle"]),
    ]
    # --- Allocation: selects for small ranges, -/+ buttons for gold (0-40) -------------------
    p = await prompt(d, ann, "alloc:s0")
    assert p.content.startswith("**Builder** — Share out"), "the subject named by the game"
    assert "Wood and stone together: exactly 2 (now 0)" in p.content
    assert so_far(p) == "Wood 0, Stone 0, Gold 0"
    assert [b["label"] for b in d.fake.components(p) if b["row"] == 2] == ["Gold: 0", "+1", "+5"]
    p = await pick(d, ann, p, "q0", "3")
    assert "(now 3)" in p.content
    p = await press(d, ann, p, "Confirm")
    assert "⚠️ Wood and stone together must be exactly 2 (you have 3)." in p.content
    p = await pick(d, ann, p, "q0", "1")
    p = await pick(d, ann, p, "q1", "1")
    p = await press(d, ann, p, "+5")
    assert [b["label"] for b in d.fake.components(p) if b["row"] == 2] == [
        "-5",
        "-1",
        "Gold: 5",
        "+1",
        "+5",
    ]
    p = await press(d, ann, p, "+1")
    p = await press(d, ann, p, "+5")
    p = await press(d, ann, p, "Back")
    assert so_far(p) == "Wood 1, Stone 1, Gold 6"
    p = await press(d, ann, p, "Confirm")
    assert p.content == "✅ Builder: Wood 1, Stone 1, Gold 6"
    # Five quantities: one shown at a time, picked in a select (5 rows at most).
    q = await prompt(d, bob, "alloc:s1", locale=FR)
    assert "Le total : exactement 3 (actuellement 0)" in q.content
    assert len({c["row"] for c in d.fake.components(q)}) == 3
    q = await pick(d, bob, q, "q0", "2", locale=FR)
    q = await pick(d, bob, q, "f", "2", locale=FR)
    placeholders = [c.get("placeholder") for c in d.fake.components(q)]
    assert placeholders[:2] == [
        "Quantité affichée : Réserve 3 (en choisir une autre)",
        "Réserve 3 : 0 (choisir)",
    ]
    q = await pick(d, bob, q, "q2", "1", locale=FR)
    assert so_far(q) == "Réserve 1 2, Réserve 2 0, Réserve 3 1, Réserve 4 0, Réserve 5 0"
    q = await press(d, bob, q, "Valider", locale=FR)
    # --- the end: six decisions, one per step, and the match replays ---------------------
    assert "is over" in d.public()[-1].text()
    log = await logged(d)
    assert len(log) == 6
    assert log[-2:] == [
        Choice(seat=0, key="alloc:s0", amounts={"wood": 1, "stone": 1, "gold": 6}),
        Choice(
            seat=1,
            key="alloc:s1",
            amounts={"store1": 2, "store2": 0, "store3": 1, "store4": 0, "store5": 0},
        ),
    ]
    assert await d.bot.store.check_replay(1)


async def test_a_restart_mid_draft_asks_to_start_the_step_again(driver: Driver) -> None:
    d = driver
    ann, bob = await start(d)
    q = await prompt(d, bob, "many:s1", locale=FR)
    q = await pick(d, bob, q, "o0", "4", locale=FR)
    old = d.fake.message(q.id).snapshot()
    await d.restart()
    # A click on the prompt drawn before the restart: told plainly, then a fresh prompt.
    select = next(c for c in d.fake.components(old) if c["custom_id"].endswith(".o0"))
    await d.click(bob, old, select["custom_id"], values=["5"], locale=FR)
    q = d.fake.message(q.id)
    assert q.content.startswith("⚠️ Votre réponse en cours a été perdue (le bot a redémarré)")
    assert so_far(q) == "rien pour l'instant", "nothing of the lost draft is applied"
    q = await pick(d, bob, q, "o0", "5", locale=FR)
    q = await pick(d, bob, q, "o0", "6", locale=FR)
    q = await press(d, bob, q, "Valider", locale=FR)
    assert await logged(d) == [Choice(seat=1, key="many:s1", options=["p5", "p6"])]
    # Ann's fresh prompt after the restart starts empty and works as usual.
    p = await prompt(d, ann, "many:s0")
    p = await press(d, ann, p, "Jade")
    p = await press(d, ann, p, "Confirm")
    assert p.content == "✅ Ann: Jade"


async def test_a_step_answered_elsewhere_or_another_copy_of_the_prompt(driver: Driver) -> None:
    d = driver
    ann, _ = await start(d)
    first = await prompt(d, ann, "many:s0")
    second = await prompt(d, ann, "many:s0")
    first = await press(d, ann, first, "Ruby")
    # The other copy is behind: its click is not applied, it shows the draft as it is.
    second = await press(d, ann, second, "Jade")
    assert "⚠️ This message was out of date" in second.content and so_far(second) == "Ruby"
    second = await press(d, ann, second, "Jade")
    assert so_far(second) == "Ruby, Jade"
    # Time runs out: the AI answers the step; the draft's buttons then say so.
    old = d.fake.message(first.id).snapshot()
    live = await d.live(1)
    await d.tick(live.timers["pick"] + 1)
    assert (await logged(d))[0].key == "many:s0"
    # Both open copies now say so, without buttons (issue 11.8); a client still showing
    # the old copy gets the plain answer.
    for copy in (first, second):
        shown = d.fake.message(copy.id)
        assert "the AI answered for **Ann**" in shown.text()
        assert d.fake.components(shown) == []
    fi = await d.click(ann, old, d.fake.find_button(old, label_contains="Opal")["custom_id"])
    text = d.reply_text(fi)
    assert "Your answer in progress no longer applies" in text
    assert "Order your banners" in text, "the fresh prompt of what is awaited now"


def test_draft_prompts_fit_discord_for_every_shape() -> None:
    """5 rows, a select alone in its row, 5 buttons a row, unique custom ids of 100 chars."""
    from bot.engine import Decision, Option, Text
    from bot.engine.decisions import Allocation, Many, Order, Quantity, Total
    from bot.engine.drafts import Draft
    from bot.gm.msg import Select
    from bot.gm.prompts import DraftRef, draft_msg

    def options(n: int) -> list[Option]:
        return [
            Option(id=f"o{i}", label=Text(fr=f"Option {i}", en=f"Option {i}")) for i in range(n)
        ]

    def quantities(n: int, top: int) -> list[Quantity]:
        return [Quantity(id=f"q{i}", label=Text(fr=f"Q{i}", en=f"Q{i}"), max=top) for i in range(n)]

    asks = [
        (Many(min=1), options(20)),
        (Many(max=3), options(100)),
        (Order(), options(7)),
        (Order(), options(60)),
        (Allocation(quantities=quantities(4, 100), totals=[Total(max=50)]), []),
        (Allocation(quantities=quantities(4, 3)), []),
        (Allocation(quantities=quantities(9, 1000)), []),
    ]
    for ask, opts in asks:
        d = Decision(
            key="k:" + "x" * 80,
            seat=0,
            kind="k",
            prompt=Text(fr="P", en="P"),
            options=opts,
            ask=ask,
        )
        draft = Draft(key=d.key, seat=0)
        if opts:
            draft = draft.toggle(d, opts[-1].id)
        ref = DraftRef(did="abcdef", rev=123_456)
        for lang in ("fr", "en"):
            msg = draft_msg(2**63 - 1, 999_999_999, d, draft, ref, "Ann", lang, focus=8)
            assert 1 <= len(msg.rows) <= 5, (ask, len(msg.rows))
            ids = []
            for row in msg.rows:
                items = [row] if isinstance(row, Select) else row
                assert 1 <= len(items) <= 5
                for item in items:
                    ids.append(item.custom_id)
                    assert len(item.custom_id) <= 100
                if isinstance(row, Select):
                    assert 1 <= len(row.options) <= 25
            assert len(ids) == len(set(ids)), ids
            assert len(msg.content or "") <= 2000
