"""The table rules of the Discord layer on the small test game (issue 6 items 3-8).

``test-pick``: every seat secretly picks 1-3 each round (simultaneous), three
rounds. Every assertion reads the JSON that reached the fake Discord.
"""

from __future__ import annotations

import copy

from bot.gm.ids import MAX_LEN, parse
from tests.cogs.driver import Driver
from tests.harness import payloads as P
from tests.harness import runner


async def lobby_with(d: Driver, users: list, *, start: bool = True) -> int:
    await d.slash(users[0], "start", game="test-pick")
    lobby = d.lobby()
    for u in users[1:]:
        await d.press(u, d.fake.message(lobby.id), "Join")
    if start:
        await d.press(users[0], d.fake.message(lobby.id), "Start")
    return 1


async def open_prompt(d: Driver, user: dict, **kw: object):
    fi = await d.press(user, d.round_message(), "Make your choice", **kw)
    return d.replies(fi)[-1]


async def test_lobby_buttons_and_host_rights(driver: Driver) -> None:
    d = driver
    ann, bob, cat = d.users[:3]
    await d.slash(ann, "start", game="test-pick")
    lobby = d.lobby()
    start = d.fake.find_button(lobby, label="Start")
    assert start["disabled"], "one seat is not a valid count for this game"
    fi = await d.press(bob, lobby, "Add AI")
    assert "Only the host" in d.reply_text(fi)
    await d.press(bob, lobby, "Join")
    lobby = d.fake.message(lobby.id)
    assert not d.fake.find_button(lobby, label="Start")["disabled"]
    fi = await d.press(bob, lobby, "Join")
    assert "already seated" in d.reply_text(fi)
    fi = await d.press(bob, lobby, "Start")
    assert "Only the host" in d.reply_text(fi)
    await d.press(ann, lobby, "Add AI")
    lobby = d.fake.message(lobby.id)
    assert "Robot 1" in lobby.text()
    assert d.fake.find_button(lobby, label="Join")["disabled"], "3 seats: the table is full"
    fi = await d.slash(cat, "start", game="test-pick")
    assert "already going on in this channel" in d.reply_text(fi)
    # Custom ids: match, action, version; short and parseable.
    for c in d.fake.components(lobby):
        assert len(c["custom_id"]) <= MAX_LEN and parse(c["custom_id"]) is not None
    await d.press(bob, lobby, "Leave")
    assert f"<@{bob['id']}>" not in d.fake.message(lobby.id).text()
    fi = await d.slash(bob, "cancel")
    assert "Only the host or someone with Manage Server" in d.reply_text(fi)
    fi = await d.slash(bob, "cancel", manager=True)
    assert "closed" in d.reply_text(fi)
    assert "cancelled" in d.fake.message(lobby.id).text()
    assert d.fake.components(d.fake.message(lobby.id)) == []


async def test_private_pick_spectator_and_who_has_chosen(driver: Driver) -> None:
    d = driver
    ann, bob = d.users[:2]
    await lobby_with(d, [ann, bob])
    board = d.round_message()
    fi = await d.press(d.spectator, board, "Make your choice")
    [reply] = d.replies(fi)
    assert reply.ephemeral and "You are watching this match" in reply.text()
    assert "not your seat" not in reply.text()
    prompt = await open_prompt(d, ann)
    assert prompt.ephemeral and prompt.ephemeral_for == d.uid(ann)
    # A forged click on Ann's private prompt by someone else is refused privately.
    pick3 = d.fake.find_button(prompt, label="3")["custom_id"]
    fi = await d.click(bob, prompt, pick3)
    assert "not your seat" in d.reply_text(fi)
    assert (await d.live(1)).match.version == 0
    await d.press(ann, prompt, "3")
    board = d.fake.message(board.id)
    assert f"✅ <@{ann['id']}> has chosen" in board.text()
    # Who has chosen, never what: the board has no trace of the pick.
    assert "3" not in board.text().replace("<t:", "").split("has chosen")[1].split("\n")[0]
    # The option index, never the option id, is in the private custom id.
    assert pick3.endswith(".2")


async def test_stale_and_double_clicks(driver: Driver) -> None:
    d = driver
    ann, bob = d.users[:2]
    await lobby_with(d, [ann, bob])
    prompt = await open_prompt(d, ann)
    old_prompt = d.fake.message(prompt.id)
    old_json = old_prompt.to_json()
    button = d.fake.find_button(prompt, label="2")["custom_id"]
    # Double click: two clicks of the same button handled concurrently.
    p1 = d.fake.components(old_prompt)
    assert p1
    payloads = []
    for _ in range(2):
        payloads.append(
            P.component_interaction(
                d.member(ann),
                old_prompt.to_json(),
                button,
                application_id=d.app_id,
                channel=d.channel,
                guild_id=d.guild_id,
            )
        )
    fis = [await runner.dispatch(d.bot, p) for p in payloads]
    await d.settle()
    decisions = await d.bot.store.decisions(1)
    assert len(decisions) == 1, "a double click applies the decision exactly once"
    texts = [d.reply_text(fi) for fi in fis]
    assert sum("out of date" in t for t in texts) == 1, texts
    # Stale: after the round moved on, the old prompt answers privately with a fresh one.
    bob_prompt = await open_prompt(d, bob)
    await d.press(bob, bob_prompt, "1")
    assert (await d.live(1)).match.version == 2
    fi = await d.click_json(ann, old_json, button)
    replies = d.replies(fi)
    assert any("out of date" in m.text() for m in replies)
    fresh = replies[-1]
    assert fresh.ephemeral and d.fake.components(fresh), "a fresh prompt comes with the refusal"
    assert len(await d.bot.store.decisions(1)) == 2
    await d.press(ann, fresh, "1")
    assert len(await d.bot.store.decisions(1)) == 3


async def test_restart_mid_round_buttons_and_timers_survive(driver: Driver) -> None:
    d = driver
    ann, bob = d.users[:2]
    await lobby_with(d, [ann, bob])
    board = d.round_message()
    board_json = board.to_json()
    choose = d.fake.find_button(board, label="Make your choice")["custom_id"]
    ann_prompt = await open_prompt(d, ann)
    bob_prompt = await open_prompt(d, bob)
    await d.press(ann, ann_prompt, "2")
    await d.restart()
    # Bob's prompt drawn before the restart still works.
    await d.press(bob, d.fake.message(bob_prompt.id), "1")
    assert (await d.live(1)).match.version == 2
    # The live table was edited for round 2 (the fixture game has a single round label,
    # so it stays the one table): its button is redrawn; a client still showing the old
    # one (posted before the restart) gets a fresh prompt anyway.
    assert d.round_message().id == board.id
    assert (
        d.fake.find_button(d.fake.message(board.id), label="Make your choice")["custom_id"]
        != choose
    )
    fi = await d.click_json(ann, board_json, choose)
    assert d.fake.components(d.replies(fi)[-1])
    # Round 2 timers were armed before this restart; restart again and let them run out.
    await d.restart()
    await d.tick(301)
    texts = [m.text() for m in d.public()]
    assert any("Time is up for" in t and f"<@{ann['id']}>" in t for t in texts)
    assert (await d.live(1)).match.version == 4
    deadlines = await d.bot.store.deadlines(1)
    assert {x.key for x in deadlines} == {"r3:s0", "r3:s1"}


async def test_timer_reminder_then_ai_decides(driver: Driver) -> None:
    d = driver
    ann, bob = d.users[:2]
    await lobby_with(d, [ann, bob])
    prompt = await open_prompt(d, ann)
    await d.press(ann, prompt, "2")
    before = len(d.public())
    await d.tick(100)
    assert len(d.public()) == before, "nothing before half time"
    await d.tick(60)
    reminder = d.public()[-1]
    assert "half the time is gone" in reminder.content and f"<@{bob['id']}>" in reminder.content
    await d.tick(60)
    assert len(d.public()) == before + 1, "the reminder is sent once"
    await d.tick(90)
    texts = "\n".join(m.text() for m in d.public())
    assert f"Time is up for <@{bob['id']}>: the AI decided in their place." in texts
    decisions = await d.bot.store.decisions(1)
    assert len(decisions) == 2


async def test_dm_delivery_and_closed_dms_fallback(driver: Driver) -> None:
    d = driver
    ann, bob, cat = d.users[:3]
    await d.slash(bob, "dm", enabled=True)
    await d.slash(cat, "dm", enabled=True)
    d.fake.close_dms(d.uid(cat))
    await lobby_with(d, [ann, bob, cat])
    dms = d.fake.dms_to(d.uid(bob))
    assert dms and d.fake.components(dms[-1]), "Bob got his prompt by DM"
    await d.press(bob, dms[-1], "3", dm=True)
    assert "✅" in d.fake.message(dms[-1].id).text(), "the DM prompt shows the choice made"
    assert (await d.live(1)).match.version == 1
    prefs = await d.bot.store.user_prefs(d.uid(cat))
    assert prefs.dm_closed
    assert any("cannot send you private messages" in m.text() for m in d.public())
    cat_dm = d.fake.dm_channel_id(d.uid(cat))
    attempts = len(d.fake.calls_to("POST", rf"^/channels/{cat_dm}/messages$"))
    # Next round: no new attempt to the closed DMs; the ephemeral flow works.
    for u in (ann, cat):
        await d.press(u, await open_prompt(d, u), "1")
    assert (await d.live(1)).match.version == 3
    assert len(d.fake.calls_to("POST", rf"^/channels/{cat_dm}/messages$")) == attempts
    assert len(d.fake.dms_to(d.uid(bob))) == 2, "Bob's next prompt came by DM too"


async def test_autopilot_status_rules_history(driver: Driver) -> None:
    d = driver
    ann, bob = d.users[:2]
    await lobby_with(d, [ann, bob])
    fi = await d.slash(bob, "autopilot", on=True)
    assert "The AI now plays your seat" in d.reply_text(fi)
    assert any("hands their seat to the AI" in m.text() for m in d.public())
    fi = await d.slash(bob, "hand")
    assert "The AI is playing your seat" in d.reply_text(fi)
    fi = await d.slash(bob, "autopilot", on=False)
    fi = await d.slash(ann, "status")
    assert "waiting for" in d.reply_text(fi)
    fi = await d.slash(ann, "rules", game="test-pick")
    assert "rules summary" in d.reply_text(fi)
    for _ in range(3):
        for u in (ann, bob):
            live = await d.live(1)
            if live is None:
                break
            seat = next(i for i, s in enumerate(live.match.seats) if s.user_id == d.uid(u))
            if live.match.pending_for(seat):
                await d.press(u, await open_prompt(d, u), "1")
    assert await d.live(1) is None
    fi = await d.slash(ann, "history")
    assert "#1" in d.reply_text(fi) and "finished" in d.reply_text(fi)


async def test_french_player_and_french_server(tmp_path) -> None:
    d = Driver(tmp_path, guild_locale="fr")
    await d.start()
    try:
        ann, bob = d.users[:2]
        fi = await d.slash(ann, "start", game="test-pick", locale="fr")
        assert "La salle d'attente n°1 est ouverte" in d.reply_text(fi)
        lobby = d.with_button("^Rejoindre$")
        await d.press(bob, lobby, "Rejoindre", locale="en-US")
        await d.press(ann, d.fake.message(lobby.id), "Lancer", locale="fr")
        board = d.with_button("^Faire mon choix$")
        fi = await d.press(ann, board, "Faire mon choix", locale="fr")
        assert "Limite" in d.reply_text(fi)
        fi = await d.press(bob, board, "Faire mon choix", locale="en-US")
        assert "Deadline" in d.reply_text(fi), "private replies follow the reader's locale"
        fi = await d.press(d.spectator, board, "Faire mon choix", locale="fr")
        assert "Vous regardez cette partie" in d.reply_text(fi)
    finally:
        await d.stop()


async def test_interaction_errors_never_crash(driver: Driver) -> None:
    d = driver
    ann, bob, cat = d.users[:3]
    await lobby_with(d, [ann, bob, cat])
    board = d.round_message()
    # An expired token: the click cannot be answered; the bot logs it and carries on.
    payload = P.component_interaction(
        d.member(ann),
        board.to_json(),
        d.fake.find_button(board, label="Make your choice")["custom_id"],
        application_id=d.app_id,
        channel=d.channel,
        guild_id=d.guild_id,
    )
    fi = d.fake.register_interaction(payload)
    d.fake.expire_interaction(fi.id)
    d.bot._connection.parse_interaction_create(copy.deepcopy(payload))
    await d.settle()
    [callback] = d.fake.calls_to("POST", rf"^/interactions/{fi.id}/")
    assert callback.status == 404 and not fi.acknowledged
    # A rate-limited public post: discord.py retries, the post lands.
    d.fake.fail_next(
        "PATCH", rf"^/channels/{d.channel_id}/messages/{board.id}$", 429, retry_after=0.5
    )
    await d.press(ann, await open_prompt(d, ann), "2")
    assert f"<@{ann['id']}> has chosen" in d.fake.message(board.id).text()
    # The round board was deleted: the next update posts a fresh one.
    d.fake.messages[board.id].deleted = True
    fi = await d.slash(bob, "hand")
    await d.press(bob, d.replies(fi)[-1], "2")
    fresh = d.round_message()
    assert fresh.id != board.id and f"<@{bob['id']}> has chosen" in fresh.text()
    assert (await d.live(1)).match.version == 2


async def test_lobby_menus_mode_timers_and_server_language(driver: Driver) -> None:
    d = driver
    ann, bob = d.users[:2]
    fi = await d.slash(ann, "settings", language="fr", manager=True)
    assert "language: fr" in d.reply_text(fi)
    await d.slash(ann, "start", game="mad-arena", mode="mad-arena:ultimate-warrior")
    lobby = d.with_button("^Rejoindre$")
    assert "salle d'attente" in lobby.text(), "public posts follow the server's language"
    mode = d.fake.find_select(lobby, custom_id="am:1:mode:0")
    assert {o["value"] for o in mode["options"]} == {
        "ultimate-warrior",
        "team-spirit",
        "brothers-in-arms",
    }
    fi = await d.click(bob, lobby, "am:1:mode:0", values=["team-spirit"])
    assert "Only the host" in d.reply_text(fi)
    await d.click(ann, lobby, "am:1:mode:0", values=["team-spirit"])
    await d.click(ann, d.fake.message(lobby.id), "am:1:opt:0", values=["tp:120"])
    await d.click(ann, d.fake.message(lobby.id), "am:1:opt:0", values=["ta:30"])
    lobby = d.fake.message(lobby.id)
    assert "Équipe" in lobby.text() or "team" in lobby.text().lower()
    assert "choix et tours 2 min, en cours d'action 30 s" in lobby.text()
    rec = await d.bot.store.get(1)
    assert rec.mode == "team-spirit" and rec.options["_timers"] == {
        "pick": 120,
        "turn": 120,
        "action": 30,
    }
    await d.press(bob, lobby, "Rejoindre")
    await d.press(ann, d.fake.message(lobby.id), "Lancer")
    deadlines = await d.bot.store.deadlines(1)
    assert deadlines and all(x.due_at == d.clock.now() + 120 for x in deadlines)
    # The chosen deadlines are the match's settings, not rows of its message table.
    settings = await d.bot.store.match_settings(1)
    assert settings["timers"] == {"pick": 120, "turn": 120, "action": 30, "reaction": 30}
    assert not [r for r in await d.bot.store.messages(1) if r.startswith("timer")]
    await d.restart()
    live = await d.live(1)
    assert live.timers == {"pick": 120, "turn": 120, "action": 30, "reaction": 30}


async def test_lobby_buttons_work_after_a_restart(driver: Driver) -> None:
    d = driver
    ann, bob = d.users[:2]
    await lobby_with(d, [ann], start=False)
    lobby = d.lobby()
    await d.restart()
    await d.press(bob, d.fake.message(lobby.id), "Join")
    await d.press(ann, d.fake.message(lobby.id), "Start")
    assert (await d.live(1)).match is not None
    assert d.round_message()


async def test_abandon_a_live_match(driver: Driver) -> None:
    d = driver
    ann, bob, cat = d.users[:3]
    await lobby_with(d, [ann, bob])
    board = d.round_message()
    seen = board.to_json()  # what players' screens still show afterwards
    fi = await d.slash(bob, "abandon")
    assert "Only the host or someone with Manage Server" in d.reply_text(fi)
    # Cat has no seat: typed where the match is played (its thread).
    where = d.fake.channels[board.channel_id]
    fi = await d.slash(cat, "abandon", manager=True, channel=where)
    assert "match #1 is closed" in d.reply_text(fi)
    last = d.public()[-1]
    assert "abandoned by" in last.text() and last.attachments[0]["filename"] == "match1-log.md"
    assert (await d.bot.store.get(1)).status == "abandoned"
    assert await d.bot.store.deadlines(1) == []
    assert d.fake.components(d.fake.message(board.id)) == [], "the board loses its button"
    fi = await d.click_json(ann, seen, "am:1:hand:0")
    assert "no longer exists" in d.reply_text(fi)
    fi = await d.slash(ann, "start", game="test-pick")
    assert "Lobby #2" in d.reply_text(fi), "the channel is free again"


async def test_two_simultaneous_starts_open_one_lobby(driver: Driver) -> None:
    d = driver
    ann, bob = d.users[:2]
    cmd = d.fake.command("arena", d.guild_id)
    payloads = [
        P.application_command(
            d.member(u),
            "arena",
            [P.subcommand("start", [P.option("game", "test-pick")])],
            application_id=d.app_id,
            channel=d.channel,
            guild_id=d.guild_id,
            command_id=int(cmd["id"]),
            command_guild_id=d.guild_id,
        )
        for u in (ann, bob)
    ]
    fis = [await runner.dispatch(d.bot, p) for p in payloads]
    await d.settle()
    texts = [d.reply_text(fi) for fi in fis]
    assert sum("Lobby #" in x for x in texts) == 1, texts
    assert sum("already going on" in x for x in texts) == 1, texts
