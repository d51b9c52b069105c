"""Issue 10 item 5: every value from Discord is checked against what was offered.

Values never offered (forged select values, timers, component ids of another
kind, ids of another match or a future version, commands in a DM, values
outside a command's choices) are refused politely in the player's language,
change nothing in the store, and every interaction is answered.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from bot.engine import Decision, Option, Text
from bot.gm import Actor, ids
from bot.gm.ids import key_tag
from bot.gm.prompts import decision_msg, decision_views, offered
from bot.i18n import t
from tests.cogs.driver import Driver
from tests.cogs.test_flow import lobby_with, open_prompt
from tests.harness import payloads as P
from tests.harness.fake_discord import FakeInteraction, FakeMessage

Json = dict[str, Any]
BUTTON, SELECT = 2, 3
LOCALES = {"en": "en-US", "fr": "fr"}


def refusal(lang: str) -> str:
    return t(lang, "err.not_offered")


async def fingerprint(d: Driver, mid: int = 1) -> Any:
    """What a refused interaction must leave as it was: the stored match and the
    guild's settings."""
    assert d.bot is not None
    rec = await d.bot.store.get(mid)
    settings = await d.bot.store.guild_settings(d.guild_id)
    if rec is None:
        return (None, settings)
    return (
        rec.status,
        rec.version,
        rec.snapshot,
        rec.seats,
        rec.options,
        rec.mode,
        settings,
    )


def with_component(message: Json, component: Json) -> Json:
    """The message JSON as a modified Discord might show it: one more component."""
    out = copy.deepcopy(message)
    out.setdefault("components", []).append({"type": 1, "components": [component]})
    return out


async def send(
    d: Driver,
    user: Json,
    message: Json,
    custom_id: str,
    *,
    kind: int,
    values: list[str] | None = None,
    lang: str = "en",
    dm: bool = False,
) -> FakeInteraction:
    channel = d.fake.channels[int(message["channel_id"])]
    payload = P.component_interaction(
        user if dm else d.member(user),
        message,
        custom_id,
        application_id=d.app_id,
        channel=channel,
        guild_id=None if dm else d.guild_id,
        component_type=kind,
        values=values,
        locale=LOCALES[lang],
        guild_locale=d.guild_locale,
    )
    return await d.dispatch(payload)


def answer_text(d: Driver, fi: FakeInteraction) -> str:
    """Everything the interaction answered: a direct message, or its follow-ups."""
    assert fi.response_type is not None, "the interaction was never answered"
    texts = [
        str((cb.get("data") or {}).get("content") or "")
        for cb in fi.callbacks
        if cb.get("type") == 4
    ]
    texts += [m.text() for m in d.replies(fi)]
    return "\n".join(dict.fromkeys(x for x in texts if x))


async def forged(
    d: Driver,
    user: Json,
    message: FakeMessage | Json,
    custom_id: str,
    *,
    kind: int,
    values: list[str] | None = None,
    lang: str = "en",
    on_message: bool = True,
) -> str:
    """Send a forged click (its component planted on the message, so only the game
    master's own checks can refuse it); assert it was refused and changed nothing."""
    before = await fingerprint(d)
    msg = message.to_json() if isinstance(message, FakeMessage) else message
    if on_message:
        comp: Json = {"type": kind, "custom_id": custom_id}
        if kind == BUTTON:
            comp |= {"style": 2, "label": "x"}
        else:
            comp["options"] = [{"label": v, "value": v} for v in values or []]
        msg = with_component(msg, comp)
    fi = await send(d, user, msg, custom_id, kind=kind, values=values, lang=lang)
    assert await fingerprint(d) == before, custom_id
    return answer_text(d, fi)


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_settings_value_outside_its_choices_is_refused_politely(
    driver: Driver, lang: str
) -> None:
    d = driver
    ann = d.users[0]
    before = await fingerprint(d)
    fi = await d.slash(ann, "settings", language="de", manager=True, locale=LOCALES[lang])
    text = answer_text(d, fi)
    assert t(lang, "err.generic") not in text
    assert "`de`" in text and "`auto`, `fr`, `en`" in text
    assert text.startswith("Sorry" if lang == "en" else "Désolé")
    # A boolean option sent as text (an outdated command definition) too.
    fi = await d.slash(ann, "settings", threads="yes", manager=True, locale=LOCALES[lang])
    assert "`yes`" in answer_text(d, fi) and "`True`, `False`" in answer_text(d, fi)
    assert await fingerprint(d) == before


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_forged_lobby_menu_values_change_nothing(driver: Driver, lang: str) -> None:
    """Timers 0, negative or huge, options and levels never offered, a mode not offered."""
    d = driver
    ann, bob = d.users[:2]
    await lobby_with(d, [ann, bob], start=False)
    lobby = d.lobby()
    menu = d.fake.find_select(lobby, custom_id="am:1:opt:0")
    offered = {o["value"] for o in menu["options"]}
    assert "tp:60" in offered
    for value in (
        "tp:0",
        "tp:-60",
        "tp:99999999",
        "tp:60 ",
        "tp:+60",
        "tp:０",
        "tp:\u0666\u0660",
        "ta:1",
        "tr:0",
        "lv:nope",
        "o0:1",
        "o99:0",
        "zz",
        "",
    ):
        assert value not in offered
        text = await forged(d, ann, lobby, "am:1:opt:0", kind=SELECT, values=[value], lang=lang)
        assert refusal(lang) in text, (value, text)
    # test-pick has one mode: its lobby offers no mode menu, and no mode is accepted.
    text = await forged(d, ann, lobby, "am:1:mode:0", kind=SELECT, values=["pick"], lang=lang)
    assert refusal(lang) in text
    # The offered value still works.
    await d.click(ann, d.fake.message(lobby.id), "am:1:opt:0", values=["tp:60"])
    assert (await d.bot.store.get(1)).options["_timers"]["pick"] == 60


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_start_and_match_commands_in_a_dm_are_refused(driver: Driver, lang: str) -> None:
    d = driver
    ann = d.users[0]
    dm = d.fake.channels[d.fake.dm_channel_id(int(ann["id"]))]
    cmd = d.fake.command("arena", d.guild_id)
    assert cmd is not None
    for sub, opts in [
        ("start", [P.option("game", "test-pick")]),
        ("status", []),
        ("hand", []),
        ("cancel", []),
        ("abandon", []),
        ("history", []),
        ("play", [P.option("text", "1")]),
        ("settings", [P.option("language", "fr")]),
        ("autopilot", [P.option("on", True)]),
    ]:
        payload = P.application_command(
            ann,
            "arena",
            [P.subcommand(sub, opts)],
            application_id=d.app_id,
            channel=dm,
            guild_id=None,
            command_id=int(cmd["id"]),
            command_guild_id=d.guild_id,
            locale=LOCALES[lang],
        )
        fi = await d.dispatch(payload)
        assert answer_text(d, fi).strip() == t(lang, "err.guild_only"), sub
    assert d.bot is not None
    assert await d.bot.store.get(1) is None, "no lobby was opened in the DM"
    assert d.fake.messages_in(int(dm["id"])) == []


async def test_forged_prompt_clicks_change_nothing(driver: Driver) -> None:
    """Select values and indexes never offered, ids of another kind, match or version."""
    d = driver
    ann, bob = d.users[:2]
    await lobby_with(d, [ann, bob])
    prompt = await open_prompt(d, ann)
    live = await d.live(1)
    decision = next(x for x in live.match.pending() if x.seat == 0)
    tag = key_tag(decision.key)
    ver = live.match.version
    pick = ids.Pick(1, ver, tag, 0).encode()
    assert any(c.get("custom_id") == pick for c in d.fake.components(prompt))
    for lang in ("en", "fr"):
        cases: list[tuple[str, int, list[str] | None]] = [
            (ids.Pick(1, ver, tag, 3).encode(), BUTTON, None),  # index not in the prompt
            (ids.Pick(1, ver, tag, 99).encode(), BUTTON, None),
            (ids.Pick(1, ver + 5, tag, 0).encode(), BUTTON, None),  # a future version
            (ids.Group(1, ver, tag, 0).encode(), BUTTON, None),  # no groups here
            (ids.Page(1, ver, tag, 1).encode(), BUTTON, None),
            (ids.Back(1, ver, tag).encode(), BUTTON, None),
            (ids.Menu(1, ver, tag, 0, 0).encode(), SELECT, ["o0"]),  # buttons, not selects
            (ids.DraftConfirm(1, ver, tag, "n", 0).encode(), BUTTON, None),  # not a draft
        ]
        for custom_id, kind, values in cases:
            text = await forged(d, ann, prompt, custom_id, kind=kind, values=values, lang=lang)
            assert refusal(lang) in text, (custom_id, text)
        # Malformed ids, unknown kinds, integers of other scripts: refused by the codec.
        for custom_id in (
            f"am:1:pick:{ver}:{tag}.+1",
            f"am:1:pick:{ver}:{tag}.0\n",
            f"am:1:pick:{ver}:{tag}.\u0661",
            f"am:1:pick:{ver}:{tag}.00",
            f"am:1:zap:{ver}:{tag}.0",
            "hello",
            "am:1:pick",
        ):
            text = await forged(d, ann, prompt, custom_id, kind=BUTTON, lang=lang)
            assert refusal(lang) in text, (custom_id, text)
        # A button id sent as a select interaction, and a select id sent as a button.
        text = await forged(d, ann, prompt, pick, kind=SELECT, values=["o0"], lang=lang)
        assert refusal(lang) in text
        text = await forged(d, ann, d.round_message(), "am:1:opt:0", kind=BUTTON, lang=lang)
        assert refusal(lang) in text
        # A real button whose id is not on the clicked message (Discord shows the message).
        text = await forged(d, ann, d.round_message(), pick, kind=BUTTON, on_message=False)
        assert refusal("en") in text
        # Another match's id (match 999 does not exist): answered, nothing changed.
        other = ids.Pick(999, ver, tag, 0).encode()
        text = await forged(d, ann, prompt, other, kind=BUTTON, lang=lang)
        assert t(lang, "err.no_match") in text
    # A prompt id planted on the public round board: its answer would overwrite the
    # board, so it is refused and the board is intact.
    board = d.round_message()
    before = board.text()
    text = await forged(d, ann, board, pick, kind=BUTTON)
    assert refusal("en") in text and d.fake.message(board.id).text() == before
    # Bob (a player, not this seat) and a spectator clicking Ann's real button.
    for who, answer in ((bob, "err.not_your_seat"), (d.spectator, "watch.spectator")):
        text = await forged(d, who, prompt, pick, kind=BUTTON, on_message=False)
        assert t("en", answer) in text or refusal("en") in text
    # The genuine click still works afterwards.
    await d.click(ann, d.fake.message(prompt.id), pick)
    assert (await d.live(1)).match.version == ver + 1


async def test_forged_draft_select_values_change_nothing(driver: Driver) -> None:
    """The 30-pebble Many prompt (two selects of options): values not in that select."""
    d = driver
    ann, bob = d.users[:2]
    await d.slash(ann, "start", game="test-drafts")
    lobby = d.lobby()
    await d.press(bob, d.fake.message(lobby.id), "Join")
    await d.press(ann, d.fake.message(lobby.id), "Start")
    live = await d.live(1)
    decision = next(x for x in live.match.pending() if x.seat == 1)
    fi = await d.press(bob, d.round_message(), "Make your choice")
    prompt = d.prompt_for(d.replies(fi), decision)
    selects = [c for c in d.fake.components(prompt) if c["type"] == SELECT]
    first = selects[0]
    offered = {o["value"] for o in first["options"]}
    assert offered == {str(i) for i in range(25)}
    slot_before = dict(live.drafts)
    for value in ("+1", "1\n", " 1", "01", "\u0661", "\uff11", "27", "-1", "99", ""):
        text = await forged(d, bob, prompt, first["custom_id"], kind=SELECT, values=[value])
        assert refusal("en") in text, (value, text)
    # Two values for a one-value select, and no value at all.
    text = await forged(d, bob, prompt, first["custom_id"], kind=SELECT, values=["1", "2"])
    assert refusal("en") in text
    assert (await d.live(1)).drafts == slot_before, "the draft did not move either"
    await d.click(bob, d.fake.message(prompt.id), first["custom_id"], values=["1"])
    assert (await d.live(1)).drafts, "an offered value builds the draft"


async def test_modal_and_autocomplete_and_unknown_commands_are_answered(driver: Driver) -> None:
    d = driver
    ann = d.users[0]
    before = await fingerprint(d)
    payload = P.modal_submit(
        d.member(ann),
        "am:1:join:0",
        {"x": "y"},
        application_id=d.app_id,
        channel=d.channel,
        guild_id=d.guild_id,
    )
    fi = await d.dispatch(payload)
    assert refusal("en") in answer_text(d, fi)
    cmd = d.fake.command("arena", d.guild_id)
    assert cmd is not None
    payload = P.application_command(
        d.member(ann),
        "arena",
        [P.subcommand("start", [{"name": "game", "type": 3, "value": "ma", "focused": True}])],
        application_id=d.app_id,
        channel=d.channel,
        guild_id=d.guild_id,
        command_id=int(cmd["id"]),
        command_guild_id=d.guild_id,
        autocomplete=True,
    )
    fi = await d.dispatch(payload)
    assert fi.response_type == 8 and fi.choices == []
    for name, sub in (("arena", "teleport"), ("zzz", "start")):
        payload = P.application_command(
            d.member(ann),
            name,
            [P.subcommand(sub, [])],
            application_id=d.app_id,
            channel=d.channel,
            guild_id=d.guild_id,
            command_id=int(cmd["id"]),
            command_guild_id=d.guild_id,
            locale="fr",
        )
        fi = await d.dispatch(payload)
        assert answer_text(d, fi).strip() == t("fr", "err.unknown_command")
    assert await fingerprint(d) == before


def _wide(n: int, groups: int = 0) -> Decision:
    return Decision(
        key="r1:wide",
        seat=0,
        kind="pick",
        prompt=Text(fr="Choisis", en="Choose"),
        options=[
            Option(
                id=f"x{i}",
                label=Text(fr=f"Carte {i}", en=f"Card {i}"),
                group=Text(fr=f"G{i % groups}", en=f"G{i % groups}") if groups else None,
            )
            for i in range(n)
        ],
    )


def test_a_select_offers_exactly_its_own_values() -> None:
    """Menu values are compared as drawn: ``o+1``, ``o1\\n``, other scripts, another
    select's index are not offered; every drawn value is."""
    d = _wide(60)
    msg = decision_msg(1, 4, d, "Ann", "en")
    first = msg.rows[0]
    second = msg.rows[1]
    assert not isinstance(first, list) and not isinstance(second, list)
    assert msg.offers(first.custom_id, ["o3"]) and msg.offers(second.custom_id, ["o30"])
    for value in ("o+1", "o1\n", "o\u0661", " o1", "o01", "o30", "o60", "g0", "3", ""):
        assert not msg.offers(first.custom_id, [value]), value
    assert not msg.offers(first.custom_id, None) and not msg.offers(first.custom_id, ["o1", "o2"])
    # Grouped: the groups' buttons and each group's own options, across views.
    grouped = _wide(30, groups=3)
    views = decision_views(1, 4, grouped, ("en", "fr"), None)
    tag = key_tag(grouped.key)
    assert any(v.offers(ids.Group(1, 4, tag, 2).encode(), None) for v in views)
    assert any(v.offers(ids.Back(1, 4, tag).encode(), None) for v in views)
    assert not any(v.offers(ids.Group(1, 4, tag, 3).encode(), None) for v in views)
    assert not any(v.offers(ids.Pick(1, 5, tag, 0).encode(), None) for v in views)


@pytest.mark.parametrize(
    ("n", "groups"), [(8, 0), (8, 3), (30, 3), (60, 0), (130, 0), (130, 4), (45, 45)]
)
def test_the_lazy_search_accepts_exactly_what_the_views_offer(n: int, groups: int) -> None:
    """``offered`` (the click check, drawing views lazily, likeliest first) says yes
    exactly when one of ``decision_views`` offers the component and value: every drawn
    one, with each of its values, and forged ones (other indexes, pages, versions)."""
    d = _wide(n, groups)
    langs = ("fr", "en")
    views = decision_views(1, 4, d, langs, None)
    tag = key_tag(d.key)
    asked: list[tuple[str, list[str] | None]] = []
    for v in views:
        for row in v.rows:
            if isinstance(row, list):
                asked += [(b.custom_id, None) for b in row]
            else:
                values = [o.value for o in row.options]
                asked += [(row.custom_id, [x]) for x in [*values, "o999", "g9"]]
                asked.append((row.custom_id, None))
    for k in range(-1, n + 3):
        for c in (ids.Pick(1, 4, tag, max(k, 0)), ids.Group(1, 4, tag, max(k, 0))):
            asked.append((c.encode(), None))
        asked.append((ids.Page(1, 4, tag, max(k, 0) % 5).encode(), None))
        asked.append((ids.Pick(1, 5, tag, max(k, 0)).encode(), None))
        for page in range(3):
            asked.append((ids.Menu(1, 4, tag, page, k % 4).encode(), [f"o{max(k, 0)}"]))
    assert len(asked) > n
    for custom_id, values in asked:
        c = ids.parse(custom_id)
        option = c.n if isinstance(c, ids.Pick) else None
        page = c.page if isinstance(c, ids.Menu) else None
        expected = any(v.offers(custom_id, values) for v in views)
        got = offered(1, 4, d, langs, None, custom_id, values, option=option, page=page)
        assert got == expected, (custom_id, values)
        assert offered(1, 4, d, langs[::-1], None, custom_id, values) == expected


async def test_game_master_refuses_ids_it_never_wrote(driver: Driver) -> None:
    """The legacy entry (parts of an id) goes through the same codec."""
    d = driver
    ann, bob = d.users[:2]
    await lobby_with(d, [ann, bob])
    assert d.bot is not None
    gm = d.bot.gm
    live = await d.live(1)
    decision = next(x for x in live.match.pending() if x.seat == 0)
    tag = key_tag(decision.key)
    ver = live.match.version
    actor = Actor(user_id=int(ann["id"]), name="ann", lang="fr")
    for arg in (f"{tag}.+1", f"{tag}. 1", f"{tag}.\u0661", f"{tag}.1\n", f"{tag}.5"):
        reply = await gm.component(1, "pick", ver, arg, actor)
        assert reply.update is None
        assert [m.content for m in reply.private] == [t("fr", "err.not_offered")], arg
    assert (await d.live(1)).match.version == ver
