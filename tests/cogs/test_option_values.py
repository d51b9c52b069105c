"""Option values (``Option.stats``) reach each player in their own language."""

from __future__ import annotations

from bot.engine import Decision, Option, Text
from bot.engine.registry import all_games
from bot.gm.prompts import decision_msg
from tests.cogs.driver import Driver

ENGLISH_KEYS = ("initiative", "move", "melee", "ranged", "defence")


async def test_french_player_sees_mad_arena_card_values_in_french(driver: Driver) -> None:
    d = driver
    ann = d.users[0]
    await d.slash(ann, "start", game="mad-arena", mode="ultimate-warrior", locale="fr")
    lobby = d.lobby()
    for u in d.users[1:4]:
        await d.press(u, d.fake.message(lobby.id), "Join")
    await d.press(ann, d.fake.message(lobby.id), "Start")
    live = await d.live(1)
    pick = next(x for x in live.match.pending() if any("move" in o.stats for o in x.options))
    player = d.user_by_id(live.match.seats[pick.seat].user_id)
    fi = await d.press(player, d.round_message(), "Make your choice", locale="fr")
    prompt = d.prompt_for(d.replies(fi), pick)
    # The legend names the symbols in French; no English stat identifier is shown.
    assert "⚡ initiative" in prompt.content and "👣 déplacement" in prompt.content
    assert "⚔️ mêlée" in prompt.content and "🛡️ défense" in prompt.content
    comps = d.fake.components(prompt)
    texts = [c.get("label") or "" for c in comps]
    for c in comps:
        texts += [o.get("description") or "" for o in c.get("options", [])]
    assert texts and all(len(x) <= 80 for x in texts)
    card = pick.options[0]
    shown = "\n".join(texts)
    assert f"⚡{card.stats['initiative']}" in shown and f"👣{card.stats['move']}" in shown
    for word in ("move", "melee", "ranged", "defence"):
        assert word not in shown, (word, shown)


def test_stat_words_fall_back_to_the_key_and_follow_the_language() -> None:
    d = Decision(
        key="r1:pick",
        seat=0,
        kind="pick",
        prompt=Text(fr="Choisis", en="Choose"),
        options=[
            Option(
                id=f"o{i}",
                label=Text(fr=f"Carte {i}", en=f"Card {i}"),
                stats={"initiative": "gong", "move": 2, "zzz": 1},
            )
            for i in range(30)
        ],
    )
    fr = decision_msg(1, 1, d, "Ann", "fr")
    en = decision_msg(1, 1, d, "Ann", "en")
    # 30 options: a select, whose descriptions spell the values out.
    assert fr.rows[0].options[0].label == "Carte 0 · ⚡gong · 👣2 · zzz 1"
    assert fr.rows[0].options[0].description == "initiative gong · déplacement 2 · zzz 1"
    assert en.rows[0].options[0].description == "initiative gong · move 2 · zzz 1"
    assert "👣 déplacement" in fr.content and "👣 move" in en.content


def test_every_stat_key_the_real_games_show_is_translated() -> None:
    """Play each registered game's modes at random, collecting every ``Option.stats`` key."""
    import random

    from bot.engine import Choice, IllegalDecision, Match, SeatSpec
    from bot.gm.prompts import STAT_SYMBOLS
    from bot.i18n import CATALOGUES

    seen: set[str] = set()
    for info in all_games():
        if info.id.startswith("test-"):
            continue
        for mode in info.modes:
            n = mode.player_counts[0]
            seats = [SeatSpec(name=f"P{i}", ai=True) for i in range(n)]
            match = Match.create(info.id, seats, seed=7, mode=mode.id)
            rnd = random.Random(7)
            for _ in range(300):
                if match.over:
                    break
                for d in match.pending():
                    for o in d.options:
                        seen.update(o.stats)
                d = match.pending()[0]
                for o in rnd.sample(d.options, len(d.options)):
                    try:
                        match.apply(Choice(seat=d.seat, key=d.key, option=o.id))
                        break
                    except IllegalDecision:
                        continue
                else:
                    break
    assert seen, "the games show values on their buttons"
    for key in seen | set(STAT_SYMBOLS):
        for lang in ("fr", "en"):
            assert f"stat.{key}" in CATALOGUES[lang], (lang, key)
