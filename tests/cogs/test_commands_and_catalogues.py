"""Command sync payloads in French and English, autocomplete, catalogues, custom ids, prompts."""

from __future__ import annotations

import re
import string
from pathlib import Path

from bot.engine import Decision, Option, Text
from bot.engine.registry import all_games, get_game
from bot.gm import ids
from bot.gm.ids import MAX_LEN, key_tag, parse
from bot.gm.msg import Select
from bot.gm.prompts import decision_msg
from bot.i18n import CATALOGUES, COMMANDS, fr, t
from tests.cogs.driver import Driver


def _sub(cmd: dict, name: str) -> dict:
    return next(o for o in cmd["options"] if o["name"] == name)


async def test_sync_payload_has_french_and_english(driver: Driver) -> None:
    d = driver
    [sync] = d.fake.command_syncs
    assert sync.method == "PUT" and f"/guilds/{d.guild_id}/commands" in sync.path, "dev guild sync"
    [arena] = sync.json
    assert arena["name"] == "arena"
    assert arena["description"] == "Play board games refereed by the bot"
    assert arena["name_localizations"]["fr"] == "arène"
    assert arena["name_localizations"]["en-US"] == "arena"
    assert arena["description_localizations"]["fr"].startswith("Jouer à des jeux de plateau")
    subs = {o["name"]: o for o in arena["options"]}
    assert set(subs) >= {
        "start",
        "status",
        "hand",
        "rules",
        "abandon",
        "cancel",
        "history",
        "play",
        "settings",
        "dm",
        "autopilot",
    }
    start = subs["start"]
    assert start["name_localizations"]["fr"] == "lancer"
    assert start["description_localizations"]["fr"] == fr.COMMANDS["start.desc"]
    game = _sub(start, "game")
    assert game["name_localizations"]["fr"] == "jeu" and not game.get("autocomplete")
    # The game is a fixed choice (never free text), named in both languages.
    by_value = {c["value"]: c for c in game["choices"]}
    assert "test-pick" in by_value
    for gid, choice in by_value.items():
        names = get_game(gid).info.names
        assert choice["name"] == names.en and choice["name_localizations"]["fr"] == names.fr
    assert subs["status"]["name_localizations"]["fr"] == "état"
    lang = _sub(subs["settings"], "language")
    assert [c["name_localizations"]["fr"] for c in lang["choices"]] == [
        "automatique",
        "Français",
        "Anglais",
    ]
    for sub in subs.values():
        assert sub["name_localizations"]["fr"] and sub["description_localizations"]["fr"]
        for opt in sub.get("options", []):
            assert opt["name_localizations"]["fr"] and opt["description_localizations"]["fr"]


async def test_mode_and_ai_level_are_fixed_localised_choices(driver: Driver) -> None:
    """Issue 6 item 2: game, mode and options are offered as choices, never free text."""
    d = driver
    start = _sub(d.fake.command("arena", d.guild_id), "start")
    mode, level = _sub(start, "mode"), _sub(start, "ai_level")
    assert not mode.get("autocomplete") and not level.get("autocomplete")
    modes = {c["value"]: c for c in mode["choices"]}
    arena = get_game("mad-arena").info
    wanted = {f"mad-arena:{m.id}" for m in arena.modes}
    assert set(modes) >= wanted | {"test-pick:default", "mad:duel", "arena:melee"}
    team = modes["mad-arena:team-spirit"]
    assert team["name"] == "Mad Arena — Team Spirit"
    assert team["name_localizations"]["fr"] == "Mad Arena — Team Spirit"
    # Two games with the same mode id: each (game, mode) is its own choice, named for its game.
    assert modes["test-pick:default"]["name"] == "Test — Normal"
    assert modes["test-drafts:default"]["name"] == "Drafts — Normal"
    assert modes["test-drafts:default"]["name_localizations"]["fr"] == "Brouillons — Normal"
    assert len(modes) == len(mode["choices"]), "one choice per (game, mode)"
    levels = {c["value"]: c for c in level["choices"]}
    declared = {lv.id for g in all_games() for lv in g.ai_levels}
    assert set(levels) == declared and {"easy", "medium", "hard"} <= declared
    hard = next(lv for lv in get_game("mad").info.ai_levels if lv.id == "hard")
    assert levels["hard"]["name"] == hard.names.en
    assert levels["hard"]["name_localizations"]["fr"] == hard.names.fr
    # A value outside the choices (an outdated client) gets a polite private answer
    # naming the parameter it was for.
    fi = await d.slash(d.users[0], "start", game="no-such-game")
    assert "I do not know the game `no-such-game`" in d.reply_text(fi)
    fi = await d.slash(d.users[0], "start", game="test-pick", mode="nope")
    assert "no mode `nope`" in d.reply_text(fi) and "`test-pick:default`" in d.reply_text(fi)
    fi = await d.slash(d.users[0], "start", game="mad-arena", mode="team-spirit")
    assert "no mode `team-spirit`" in d.reply_text(fi), "a bare mode id is no longer a choice"
    fi = await d.slash(d.users[0], "start", game="mad", ai_level="godlike")
    assert "Unknown AI level `godlike`" in d.reply_text(fi)
    # A mode of another game is refused by the game master, in the player's language.
    fi = await d.slash(d.users[0], "start", game="mad", mode="arena:melee")
    assert d.reply_text(fi) == (
        "Free-for-all is a mode of Arena!, not of MAD. Modes of MAD: `Duel`."
    )
    fi = await d.slash(
        d.users[0], "start", game="test-pick", mode="test-drafts:default", locale="fr"
    )
    assert d.reply_text(fi) == (
        "Normal est un mode de Brouillons, pas de Test. Modes de Test : `Normal`."
    )
    assert d.public() == [], "no lobby was opened"
    # The same mode id in the right game opens that game's lobby.
    fi = await d.slash(d.users[0], "start", game="test-drafts", mode="test-drafts:default")
    assert "Lobby #1" in d.reply_text(fi)
    assert (await d.bot.store.get(1)).game == "test-drafts"


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_catalogues_are_complete_and_consistent() -> None:
    assert set(CATALOGUES["fr"]) == set(CATALOGUES["en"])
    for key in CATALOGUES["en"]:
        assert _fields(CATALOGUES["fr"][key]) == _fields(CATALOGUES["en"][key]), key
    assert set(COMMANDS["fr"]) == set(COMMANDS["en"])
    for key, name in COMMANDS["fr"].items():
        if not key.endswith(".desc") and key not in ("auto", "french", "english"):
            assert re.fullmatch(r"[-_\w]{1,32}", name) and name == name.lower(), name


def test_every_message_key_used_in_code_exists() -> None:
    root = Path(__file__).resolve().parents[2]
    used: set[str] = set()
    for path in [*root.joinpath("bot", "gm").glob("*.py"), *root.joinpath("cogs").glob("*.py")]:
        used |= set(re.findall(r"t\([^,()]+, \"([a-z_]+\.[a-z_.]+|on|off|or)\"", path.read_text()))
    assert used and used <= set(CATALOGUES["en"]), used - set(CATALOGUES["en"])
    assert t("fr-FR", "err.not_your_seat").startswith("Désolé")
    assert t("de", "err.not_your_seat").startswith("Sorry")


def test_custom_ids_fit_and_round_trip() -> None:
    big = 999_999_999
    tag = key_tag("r12:pick:cactus")
    longest = ids.DraftAmount(2**63 - 1, big, tag, "a1b2c3", big, big, -big).encode()
    assert len(longest) <= MAX_LEN
    assert parse(longest) == ids.DraftAmount(2**63 - 1, big, tag, "a1b2c3", big, big, -big)
    assert parse("am:3:pick:7:abcdef12.4") == ids.Pick(3, 7, "abcdef12", 4)
    menu = parse("am:3:sel:7:abcdef12.0.1")
    assert menu == ids.Menu(3, 7, "abcdef12", 0, 1) and menu.KIND == "select"
    assert parse("am:3:join:0") == ids.LobbyButton(3, 0, "join")
    assert parse("am:3:opt:0") == ids.LobbySelect(3, 0, "opt")
    assert parse("am:3:hand:5") == ids.Hand(3, 5)


def test_custom_ids_are_read_only_as_written() -> None:
    """Issue 10 item 5: no integer parsing of free text; only what encode() writes is read."""
    forged = [
        "am:3:sel:7",  # a select id without its argument
        "am:3:pick:7:abcdef12.+4",
        "am:3:pick:7:abcdef12. 4",
        "am:3:pick:7:abcdef12.04",  # a leading zero
        "am:3:pick:7:abcdef12.\u0664",  # an Arabic-Indic digit
        "am:3:pick:7:abcdef12.4\n",
        "am:3:pick:07:abcdef12.4",
        "am:03:pick:7:abcdef12.4",
        "am:3:pick:7:ABCDEF12.4",
        "am:3:pick:7:abcdef12",
        "am:3:pick:7:abcdef12.4.5",
        "am:3:join:1",  # lobby ids carry version 0 and no argument
        "am:3:join:0:x",
        "am:3:hand:5:1",
        "am:3:dsel:7:abcdef12.n.0.f1",
        "am:3:dsel:7:abcdef12.n.0.o",
        "am:3:dsel:7:abcdef12.zz.0.o1",
        "am:3:damt:7:abcdef12.n.0.1.-0",
        "am:3:zzz:7",
        "am:0:join:0",
        "AM:3:join:0",
        "",
    ]
    for text in forged:
        assert parse(text) is None, text
    assert ids.parse_menu_value("o12") == ids.MenuValue("o", 12)
    for value in ("o+1", "o1\n", "o\u0661", " o1", "o01", "o-1", "x1", "o", "g"):
        assert ids.parse_menu_value(value) is None, value


def _decision(n: int, groups: int = 0) -> Decision:
    return Decision(
        key="r1:move",
        seat=0,
        kind="move",
        prompt=Text(fr="Choisis", en="Choose"),
        subject="Cactus",
        options=[
            Option(
                id=f"o{i}",
                label=Text(fr=f"Carte {i}", en=f"Card {i}"),
                group=Text(fr=f"G{i % groups}", en=f"G{i % groups}") if groups else None,
                stats={"ini": i, "mv": 2},
            )
            for i in range(n)
        ],
    )


def test_prompt_layouts_respect_discord_limits() -> None:
    small = decision_msg(1, 4, _decision(7), "Ann", "en")
    assert "**Cactus**" in small.content
    assert [len(r) for r in small.rows] == [5, 2]
    assert small.rows[0][0].label == "Card 0 · ini 0 · mv 2"
    big = decision_msg(1, 4, _decision(60), "Ann", "en")
    assert all(isinstance(r, Select) for r in big.rows) and len(big.rows) == 3
    huge = decision_msg(1, 4, _decision(230), "Ann", "en")
    assert len(huge.rows) == 5 and [b.label for b in huge.rows[-1]] == ["Next"]
    grouped = decision_msg(1, 4, _decision(30, groups=3), "Ann", "en")
    assert [b.label for b in grouped.rows[0]] == ["G0", "G1", "G2"]
    inner = decision_msg(1, 4, _decision(30, groups=3), "Ann", "en", group=1)
    assert inner.rows[-1][0].label == "Back" and len(inner.rows) == 3
    for msg in (small, big, huge, grouped, inner):
        assert len(msg.rows) <= 5
        for row in msg.rows:
            items = [row] if isinstance(row, Select) else row
            assert len(items) <= 5
            for item in items:
                assert len(item.custom_id) <= MAX_LEN


def test_game_master_and_catalogues_do_not_import_discord() -> None:
    """``bot/gm`` decides everything without discord (and talks to SQLite only through the store)."""
    import ast

    root = Path(__file__).resolve().parents[2]
    files = [*root.joinpath("bot", "gm").rglob("*.py"), *root.joinpath("bot", "i18n").rglob("*.py")]
    assert files
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in ("discord", "aiosqlite"), (path, name)


def test_long_dice_logs_are_chunked_to_discord_limits() -> None:
    from bot.gm.table import TEXT_BLOCK_MAX, chunk

    lines = [f"🎲 line {i} " + "x" * 90 for i in range(200)]
    chunks = chunk(lines, TEXT_BLOCK_MAX)
    assert len(chunks) > 1 and all(len(c) <= TEXT_BLOCK_MAX for c in chunks)
    assert "\n".join(chunks).split("\n") == lines, "nothing lost, order kept"
