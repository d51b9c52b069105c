"""Option values (``Option.stats``) reach each player in their own language."""

from __future__ import annotations

from bot.engine import Decision, GameInfo, ModeInfo, Option, Text
from bot.engine.registry import all_games
from bot.engine.vocabulary import StatInfo
from bot.gm.prompts import decision_msg
from tests.cogs.driver import Driver

ENGLISH_KEYS = ("initiative", "move", "melee", "ranged", "defence")


async def test_french_player_sees_mad_arena_card_values_in_french(driver: Driver) -> None:
    d = driver
    ann = d.users[0]
    await d.slash(ann, "start", game="mad-arena", mode="mad-arena:ultimate-warrior", locale="fr")
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


INFO = GameInfo(
    id="test-words",
    names=Text(fr="Mots", en="Words"),
    min_players=2,
    max_players=2,
    modes=[ModeInfo(id="m", names=Text(fr="M", en="M"), player_counts=[2])],
    summary=Text(fr="-", en="-"),
    stats=[
        StatInfo(key="initiative", symbol="⚡", names=Text(fr="initiative", en="initiative")),
        StatInfo(key="move", symbol="👣", names=Text(fr="déplacement", en="move")),
    ],
    stat_values={"gong": Text(fr="gong (fr)", en="gong")},
    subjects={"red": Text(fr="Rouge", en="Red")},
)


def test_stat_words_come_from_the_game_and_fall_back_to_the_key() -> None:
    d = Decision(
        key="r1:pick",
        seat=0,
        kind="pick",
        prompt=Text(fr="Choisis", en="Choose"),
        subject="red",
        options=[
            Option(
                id=f"o{i}",
                label=Text(fr=f"Carte {i}", en=f"Card {i}"),
                stats={"initiative": "gong", "move": 2, "zzz": 1},
            )
            for i in range(30)
        ],
    )
    fr = decision_msg(1, 1, d, "Ann", "fr", info=INFO)
    en = decision_msg(1, 1, d, "Ann", "en", info=INFO)
    # 30 options: a select, whose descriptions spell the values out.
    assert fr.rows[0].options[0].label == "Carte 0 · ⚡gong (fr) · 👣2 · zzz 1"
    assert fr.rows[0].options[0].description == "initiative gong (fr) · déplacement 2 · zzz 1"
    assert en.rows[0].options[0].description == "initiative gong · move 2 · zzz 1"
    assert "👣 déplacement" in fr.content and "👣 move" in en.content
    assert fr.content.startswith("**Rouge**") and en.content.startswith("**Red**")
    # Without the game's declarations every key and subject shows as it is.
    bare = decision_msg(1, 1, d, "Ann", "fr")
    assert bare.rows[0].options[0].label == "Carte 0 · initiative gong · move 2 · zzz 1"
    assert bare.content.startswith("**red**")


def test_no_game_words_in_the_discord_layer() -> None:
    """Stats, subjects and levels are the games' own words: none in bot/gm, bot/i18n, cogs."""
    from bot.i18n import CATALOGUES

    for lang in ("fr", "en"):
        assert not [k for k in CATALOGUES[lang] if k.startswith(("stat.", "subject."))]
    import bot.gm.prompts as prompts

    assert not hasattr(prompts, "STAT_SYMBOLS")


def test_every_stat_key_the_real_games_show_is_declared() -> None:
    """Play each registered game's modes at random, collecting every ``Option.stats`` key:
    each is a stat its game declares, with a symbol and names in both languages."""
    import random

    from bot.engine import Choice, IllegalDecision, Match, SeatSpec

    seen: dict[str, set[str]] = {}
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
                        seen.setdefault(info.id, set()).update(o.stats)
                d = match.pending()[0]
                if d.structured:
                    match.apply(match.ai_choice(d))
                    continue
                for o in rnd.sample(d.options, len(d.options)):
                    try:
                        match.apply(Choice(seat=d.seat, key=d.key, option=o.id))
                        break
                    except IllegalDecision:
                        continue
                else:
                    break
    assert seen, "the games show values on their buttons"
    for game_id, keys in seen.items():
        info = next(g for g in all_games() if g.id == game_id)
        for key in keys:
            stat = info.stat(key)
            assert stat is not None and stat.symbol and stat.names.fr and stat.names.en, (
                game_id,
                key,
            )
