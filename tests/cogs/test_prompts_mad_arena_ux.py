"""What a MAD or Arena! player actually reads on Discord (issue 4 item 5, issue 5 item 6).

The prompts are checked on the JSON Discord receives: through the driver for a
French and an English player, and through :func:`bot.gm.prompts.decision_msg`
for positions arranged by hand (a capture, a bonus move, an adjacent enemy).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot.engine import Decision
from bot.games.arena.game import ArenaGame
from bot.games.mad.game import GAME as MAD
from bot.gm.msg import Button
from bot.gm.prompts import decision_msg, groups_of
from tests.cogs.driver import Driver
from tests.games.arena.helpers import arrange, play
from tests.games.mad.helpers import play as mad_play
from tests.games.mad.helpers import state as mad_state
from tests.harness.fake_discord import FakeMessage

ARENA = ArenaGame()
ENGLISH_WORDS = re.compile(
    r"\b(red|blue|choose|ship|Match|Pass|Back|attack|move|hex|Deadline|Positioning)\b", re.I
)
FRENCH_WORDS = re.compile(
    r"\b(Rouge|Bleu|Choisissez|vaisseau|Retour|Passer|attaque|case|Limite)\b", re.I
)
LOCALE = {"fr": "fr", "en": "en-US"}
WORDS = {
    "fr": ("Rejoindre", "Lancer", "Faire mon choix"),
    "en": ("Join", "Start", "Make your choice"),
}


def buttons(msg: Any) -> list[list[Button]]:
    return [row for row in msg.rows if isinstance(row, list)]


def labels(msg: Any) -> list[str]:
    return [b.label for row in buttons(msg) for b in row]


async def open_prompt(tmp_path: Path, game: str, lang: str) -> tuple[Driver, Decision, FakeMessage]:
    """Two players in ``lang`` start ``game``; the one to move opens their private prompt."""
    d = Driver(tmp_path, players=2, guild_locale=LOCALE[lang])
    await d.start()
    join, start, choose = WORDS[lang]
    ann, bob = d.users[0], d.users[1]
    loc = LOCALE[lang]
    await d.slash(ann, "start", game=game, locale=loc)
    lobby = d.lobby()
    await d.press(bob, d.fake.message(lobby.id), join, locale=loc)
    await d.press(ann, d.fake.message(lobby.id), start, locale=loc)
    live = await d.live(1)
    x = live.match.pending()[0]
    user = d.user_by_id(live.match.seats[x.seat].user_id)
    fi = await d.press(user, d.round_message(), choose, locale=loc)
    return d, x, d.prompt_for(d.replies(fi), x)


def rows_of(d: Driver, msg: FakeMessage) -> list[list[dict[str, Any]]]:
    out: dict[int, list[dict[str, Any]]] = {}
    for c in d.fake.components(d.fake.message(msg.id)):
        out.setdefault(c["row"], []).append(c)
    return [out[r] for r in sorted(out)]


@pytest.mark.parametrize("lang", ["fr", "en"])
async def test_mad_prompt_names_the_side_mentions_typing_and_speaks_one_language(
    tmp_path: Path, lang: str
) -> None:
    d, x, prompt = await open_prompt(tmp_path, "mad", lang)
    try:
        text = d.fake.message(prompt.id).text()
        side = {"fr": "**Rouge**", "en": "**Red**"}[lang]
        assert text.startswith(side), text
        typed = {"fr": "`/arène jouer coup:", "en": "`/arena play text:"}[lang]
        assert typed in text
        # The example is a real notation of this turn, and it is accepted as typed.
        example = text.split(typed)[1].split("`")[0]
        assert example in {o.id for o in x.options} and "pass" not in example
        # The positioning turn: pass, permutation, rotation; the tie-break offer apart, in red.
        rows = rows_of(d, prompt)
        assert [c["label"] for c in rows[-1]] == [{"fr": "Départage…", "en": "Tie-break…"}[lang]]
        assert rows[-1][0]["style"] == 4  # danger
        everything = text + " " + " ".join(c["label"] for r in rows for c in r)
        wrong = ENGLISH_WORDS if lang == "fr" else FRENCH_WORDS
        assert not wrong.search(everything), everything
        # The public board names the side in the reader's language too.
        # (Who is awaited: the table's log below quotes the game's own event lines.)
        board = d.round_message().text().split("**Last events**")[0].split("**Derniers")[0]
        assert {"fr": "(Rouge)", "en": "(Red)"}[lang] in board
        assert "(red)" not in board
        # Every permutation is a direct button (one click, issue 11 item 3): each ship's
        # digits and square.
        perms = [c["label"] for r in rows for c in r if "⇄" in c["label"]]
        exile = {"fr": "exil", "en": "exile"}[lang]
        assert len(perms) == 4 and all(
            re.fullmatch(rf"\d{{3}} ([a-f]\d|{exile}) ⇄ \d{{3}} ([a-f]\d|{exile})", lab)
            for lab in perms
        ), perms
        assert not any(c["label"] == "Permutation" for r in rows for c in r)
    finally:
        await d.stop()


def mad_capture_and_bonus() -> Decision:
    st = mad_state("6x4", "R111@a1 R112@b5 R221@c1 R212@c5 B111@d6 B121@c6 B222@a6")
    [x] = MAD.pending(st)
    return x


def test_mad_ship_menu_then_destination_shows_digits_squares_expulsions_and_bonus() -> None:
    x = mad_capture_and_bonus()
    top = decision_msg(1, 0, x, "Ann", "fr", info=MAD.info)
    rows = [[b.label for b in row] for row in buttons(top)]
    # Ships first, then the teleports on their own row, then the tie-break offer.
    assert rows[-2] == ["Permutation", "Rotation"]
    assert rows[-1] == ["Départage…"]
    ships = [lab for row in rows[:-2] for lab in row]
    assert all(re.fullmatch(r"\w+ \d{3} en [a-f]\d", s) for s in ships), ships
    assert "Destroyer 212 en c5" in ships
    # One click on the ship shows every destination (the second click plays).
    g = ships.index("Destroyer 212 en c5")
    opened = decision_msg(1, 0, x, "Ann", "fr", group=g, info=MAD.info)
    dests = labels(opened)
    assert dests[-1] == "Retour"
    assert all(lab.startswith("212 c5 → ") for lab in dests[:-1]), dests
    assert "212 c5 → c6 · ✕ expulse 121" in dests
    assert "212 c5 → d4" in dests
    bonus = [lab for lab in dests if "★ bonus" in lab]
    assert "212 c5 → c6 · ✕ expulse 121 · ★ bonus 121 exil ⇄ 212 c6" in bonus
    assert all(len(lab) <= 80 for lab in dests)
    en = labels(decision_msg(1, 0, x, "Ann", "en", group=g, info=MAD.info))
    assert "212 c5 → c6 · ✕ expels 121 · ★ bonus 121 exile ⇄ 212 c6" in en
    # A bonus without a capture is blue (primary), a capture red (danger), a plain move grey.
    frigate = labels(
        decision_msg(1, 0, x, "Ann", "fr", group=ships.index("Frégate 112 en b5"), info=MAD.info)
    )
    styles = {
        b.label: b.style
        for row in buttons(
            decision_msg(
                1, 0, x, "Ann", "fr", group=ships.index("Frégate 112 en b5"), info=MAD.info
            )
        )
        for b in row
    }
    assert styles["112 b5 → b6 · ★ bonus 112 b6 ⇄ 221 c1"] == "primary"
    assert styles["112 b5 → b6"] == "secondary"
    assert "112 b5 → b6 · ★ bonus 112 b6 ⇄ 221 c1" in frigate


def test_mad_rotation_labels_say_where_each_ship_goes_and_the_offer_names_the_winner() -> None:
    x = mad_capture_and_bonus()
    groups = [
        b.label for row in buttons(decision_msg(1, 0, x, "Ann", "fr", info=MAD.info)) for b in row
    ]
    rot = labels(decision_msg(1, 0, x, "Ann", "fr", group=groups.index("Rotation"), info=MAD.info))
    assert "122 exil→c5 · 212 c5→c1 · 221 c1→exil" in rot
    offer = labels(
        decision_msg(1, 0, x, "Ann", "fr", group=groups.index("Départage…"), info=MAD.info)
    )
    assert offer == ["Proposer le départage (semi-victoire des bleus)", "Retour"]


@pytest.mark.parametrize("lang", ["fr", "en"])
async def test_arena_posture_buttons_show_move_attack_and_defence(
    tmp_path: Path, lang: str
) -> None:
    d, x, prompt = await open_prompt(tmp_path, "arena", lang)
    try:
        assert x.kind == "posture"
        text = d.fake.message(prompt.id).text()
        assert text.startswith(f"**{x.subject}** (7 ")  # named once, in bold
        legend = {
            "fr": "👣 déplacement · 🗡️ dés d'attaque · 🛡️ dés de défense",
            "en": "👣 move · 🗡️ attack dice · 🛡️ defence dice",
        }[lang]
        assert legend in text
        labs = [c["label"] for c in d.fake.components(d.fake.message(prompt.id))]
        assert labs[0] == {"fr": "En garde", "en": "On guard"}[lang] + " · 👣0 · 🗡️0 · 🛡️4"
        assert all(re.search(r"👣\d · 🗡️\d · 🛡️\d$", lab) for lab in labs), labs
        # A posture's emoji is never one of the stat symbols beside it.
        emojis = [(c.get("emoji") or {}).get("name") for c in d.fake.components(prompt)]
        assert emojis[0] == "🤺" and not {"👣", "🗡️", "🛡️"} & set(emojis), emojis
    finally:
        await d.stop()


COMPASS_ROWS = [["↖", "↗"], ["←", "→"], ["↙", "↘"]]


def step_by_step(x: Decision, lang: str) -> int:
    """The index of Arena!'s "step by step" group (its compass), as the prompt numbers it."""
    return next(i for i, g in enumerate(groups_of(x, lang)) if g.startswith("👣"))


def test_arena_whole_destinations_in_selects_and_the_compass_one_click_away() -> None:
    state = arrange([(0, 0), (3, -3)])
    play(state, 0, "dechainee")
    [x] = ARENA.pending(state)
    msg = decision_msg(1, 0, x, "Ann", "fr", info=ARENA.info)
    # Every destination is one pick in a select that names its range; "step by step"
    # (to attack on the way) is a direct button above them.
    assert [[b.label for b in row] for row in buttons(msg)] == [["👣 Pas à pas"]]
    selects = [r for r in msg.rows if not isinstance(r, list)]
    assert selects[0].placeholder == "Choisir : A1 … E2"
    assert [o.label for o in selects[0].options][:4] == [
        "A1",
        "A2",
        "A3",
        "A3 ⚔ Bob · 🗡️4 · 🛡️4 · 💥1 · ❤️7",
    ]
    opened = decision_msg(1, 0, x, "Ann", "fr", group=step_by_step(x, "fr"), info=ARENA.info)
    rows = [[b.label for b in row] for row in buttons(opened)]
    assert rows[:3] == [["↖ NO C3", "↗ NE C4"], ["← O D3", "→ E D5"], ["↙ SO E3", "↘ SE E4"]]
    assert rows[3] == ["Retour"]
    assert "➡️" not in msg.content  # the hex is named once, on the label
    en = decision_msg(1, 0, x, "Ann", "en", group=step_by_step(x, "en"), info=ARENA.info)
    en_rows = [[b.label for b in row] for row in buttons(en)]
    assert en_rows[0] == ["↖ NW C3", "↗ NE C4"] and en_rows[1] == ["← W D3", "→ E D5"]
    assert msg.content.startswith("**Ann** en D4 : encore 4 cases, une attaque possible.")


def test_arena_a_blocked_direction_leaves_the_others_in_compass_order() -> None:
    state = arrange([(0, 0), (1, 0), (3, -3)])  # Bob east of Ann
    play(state, 0, "defensive")
    [x] = ARENA.pending(state)
    top = decision_msg(1, 0, x, "Ann", "fr", info=ARENA.info)
    # Few destinations: all direct buttons, then "step by step", the attack on its own row.
    rows = [[b.label for b in row] for row in buttons(top)]
    assert rows[0][:2] == ["C3", "C4"] and rows[-2] == ["👣 Pas à pas"]
    assert rows[-1] == ["Attaquer Bob en D5 · 🗡️1 · 🛡️4 · 💥1 · ❤️7"]
    opened = decision_msg(1, 0, x, "Ann", "fr", group=step_by_step(x, "fr"), info=ARENA.info)
    rows = [[b.label for b in row] for row in buttons(opened)]
    arrows = [[lab.split()[0] for lab in row] for row in rows]
    # E is taken by Bob: the other directions keep their places.
    assert arrows[0] == ["↖", "↗"] and arrows[1] == ["←"] and arrows[2] == ["↙", "↘"]


def test_arena_attack_names_the_target_both_dice_and_then_the_remaining_steps() -> None:
    state = arrange([(0, 0), (1, 0), (3, -3)], f1={"posture": "agressive"})
    play(state, 0, "defensive")
    [x] = ARENA.pending(state)
    msg = decision_msg(1, 0, x, "Ann", "fr", info=ARENA.info)
    attack = next(b for row in buttons(msg) for b in row if b.label.startswith("Attaquer"))
    atk, dfn = x.option("atk1").stats["atk"], x.option("atk1").stats["def"]  # type: ignore[union-attr]
    assert attack.label.startswith(f"Attaquer Bob en D5 · 🗡️{atk} · 🛡️{dfn} · 💥")
    assert attack.style == "danger"
    legend = "🗡️ dés d'attaque · 🛡️ dés de défense · 💥 dégâts si touché · ❤️ PV"
    assert legend in msg.content
    en = decision_msg(1, 0, x, "Ann", "en", info=ARENA.info)
    assert any(b.label.startswith("Attack Bob on D5 · 🗡️") for row in buttons(en) for b in row)
    # After the attack: the remaining move, said so.
    play(state, 0, "atk1", dice=[6, 1])
    [after] = ARENA.pending(state)
    content = decision_msg(1, 0, after, "Ann", "fr", info=ARENA.info).content
    assert "**Ann** en D4 : encore 1 case, attaque faite." in content
    assert not any(o.id.startswith("atk") for o in after.options)


def test_arena_end_button_only_once_the_move_is_complete_and_last() -> None:
    state = arrange([(0, 0), (2, 0), (3, -3)])
    play(state, 0, "balancee", "e")
    [x] = ARENA.pending(state)
    assert "Finir sans attaquer" not in labels(decision_msg(1, 0, x, "Ann", "fr", info=ARENA.info))
    play(state, 0, "ne")
    [x] = ARENA.pending(state)
    msg = decision_msg(1, 0, x, "Ann", "fr", info=ARENA.info)
    rows = [[b.label for b in row] for row in buttons(msg)]
    assert rows[-1] == ["Finir sans attaquer"]
    assert rows[-2][0].startswith("Attaquer Bob")
    assert "déplacement terminé, une attaque possible" in msg.content
    en = decision_msg(1, 0, x, "Ann", "en", info=ARENA.info)
    assert "move complete, one attack available" in en.content
    assert [b.label for b in buttons(en)[-1]] == ["End without attacking"]


def test_every_label_fits_and_french_prompts_hold_no_english() -> None:
    x = mad_capture_and_bonus()
    state = arrange([(0, 0), (1, 0), (3, -3)], f1={"posture": "agressive"})
    play(state, 0, "agressive")
    [fight] = ARENA.pending(state)
    groups = range(len({o.group.fr for o in x.options if o.group}))
    msgs = [decision_msg(1, 0, x, "Ann", "fr", group=g, info=MAD.info) for g in [None, *groups]]
    msgs.append(decision_msg(1, 0, fight, "Ann", "fr", info=ARENA.info))
    for m in msgs:
        for lab in labels(m):
            assert len(lab) <= 80
        assert not ENGLISH_WORDS.search(m.content + " ".join(labels(m))), m.content


def test_mad_tie_break_answer_names_who_answers_and_who_wins() -> None:
    st = mad_state("6x4", "R111@a1 R112@b5 R221@c1 R212@c5 B111@d6 B121@c6 B222@a6")
    mad_play(st, "draw")
    [x] = MAD.pending(st)
    fr = decision_msg(1, 0, x, "Bob", "fr", info=MAD.info)
    assert fr.content.startswith("**Bleu** — Rouge propose d'arrêter la partie (départage)")
    assert "semi-victoire des bleus" in fr.content
    assert [(b.label, b.style) for row in buttons(fr) for b in row] == [
        ("Accepter", "success"),
        ("Refuser", "danger"),
    ]
    en = decision_msg(1, 0, x, "Bob", "en", info=MAD.info)
    assert (
        en.content.startswith("**Blue** — Red proposes") and "half victory for blue" in en.content
    )
