"""Card data (RULINGS "Card data"): our values, validated on load; a group's own file loads too."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

import bot.games.mad_arena  # noqa: F401
from bot.engine import IllegalDecision, Match, SeatSpec
from bot.engine.registry import get_game
from bot.games.mad_arena.cards import CARD_DATA_MAX, DEFAULT_CARDS, FIGHTERS, load_cards

SEATS4 = [SeatSpec(name=f"P{i}") for i in range(4)]


def test_default_data_has_the_36_cards_with_one_secret_move_each() -> None:
    cs = load_cards()
    assert sum(len(f.cards) for f in cs.fighters) == 36
    for f in cs.fighters:
        size, colour, count, secret = FIGHTERS[f.id]
        assert (f.size, f.colour, len(f.cards)) == (size, colour, count)
        assert [c.secret for c in f.cards if c.secret] == [secret]
        for c in f.cards:
            assert 0 <= c.move <= 2 and 2 <= c.defence <= 6
            assert c.initiative is None if f.dragon else 1 <= (c.initiative or 0) <= 6


def test_help_says_default_values_are_ours_not_the_publishers() -> None:
    info = get_game("mad-arena").info
    opt = next(o for o in info.options if o.id == "cards")
    assert opt.type == "path" and opt.default is None
    assert opt.help is not None and "publisher" in opt.help.en and "éditeur" in opt.help.fr
    assert "publisher" in info.summary.en and "éditeur" in info.summary.fr


def _raw() -> dict:
    return tomllib.loads(DEFAULT_CARDS.read_text(encoding="utf-8"))


def test_a_group_can_load_its_own_printed_values(tmp_path: Path) -> None:
    raw = _raw()
    raw["fighters"][0]["cards"][0]["defence"] = 6
    p = tmp_path / "mine.json"
    p.write_text(json.dumps(raw), encoding="utf-8")
    m = Match.create(
        "mad-arena", SEATS4, seed=1, mode="ultimate-warrior", options={"cards": str(p)}
    )
    assert m.state.card("agaric-1").defence == 6


@pytest.mark.parametrize(
    "breakage",
    [
        lambda r: r["fighters"][0].update(size=6),
        lambda r: r["fighters"][1]["cards"].pop(),
        lambda r: r["fighters"][2]["cards"][0].update(secret="net"),
        lambda r: r["fighters"][3]["cards"][0].update(defence=1),
        lambda r: r["fighters"][4]["cards"][0].update(move=3),
        lambda r: r["fighters"].pop(),
    ],
)
def test_bad_card_files_are_refused_politely(tmp_path: Path, breakage) -> None:
    raw = _raw()
    breakage(raw)
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(IllegalDecision) as e:
        Match.create(
            "mad-arena", SEATS4, seed=1, mode="ultimate-warrior", options={"cards": str(p)}
        )
    assert "Invalid card file" in e.value.reason.en and "invalide" in e.value.reason.fr


def test_missing_card_file_is_refused_politely() -> None:
    with pytest.raises(IllegalDecision) as e:
        load_cards("/nonexistent/cards.toml")
    assert "Cannot read" in e.value.reason.en


@pytest.mark.parametrize(
    ("fighter", "card", "field", "value"),
    [
        (0, 5, "ranged", 2),  # powder keg: "d'une puissance de 3 dés"
        (2, 5, "ranged", 4),  # net: "la somme des 3 dés"
        (3, 5, "melee", 4),  # finishing: "chacun des 5 dés"
        (5, 4, "ranged", 3),  # strike: "Son tir (4 dés)"
        (6, 0, "melee", 3),  # dragon: "le combat (4 dés)", the kick "(4 dés)"
        (6, 0, "ranged", 4),  # dragon: "ou le tir (5 dés)"
    ],
)
def test_dice_printed_in_the_book_cannot_be_changed_by_a_card_file(
    tmp_path: Path, fighter: int, card: int, field: str, value: int
) -> None:
    """Bottes secrètes + Règles spéciales du dragon: the book itself fixes these dice
    counts, so a card file that contradicts it is refused, not silently played."""
    raw = _raw()
    raw["fighters"][fighter]["cards"][card][field] = value
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(IllegalDecision) as e:
        load_cards(p)
    assert "rule book" in e.value.reason.en


# --- option ``card_data``: the card file's content itself (uploaded from Discord) ------------
def test_inline_card_data_loads_as_toml_or_json_and_replays_on_its_own() -> None:
    toml_text = DEFAULT_CARDS.read_text(encoding="utf-8").replace(
        "ranged = 1, defence = 5 }", "ranged = 1, defence = 6 }", 1
    )
    raw = _raw()
    raw["fighters"][0]["cards"][0]["defence"] = 6
    for text in (toml_text, json.dumps(raw)):
        m = Match.create(
            "mad-arena", SEATS4, seed=1, mode="ultimate-warrior", options={"card_data": text}
        )
        assert m.state.card("agaric-1").defence == 6
        assert m.options["card_data"] == text, "the content travels with the match"
        again = Match.replay("mad-arena", SEATS4, 1, "ultimate-warrior", m.options, [])
        assert again.snapshot() == m.snapshot()


def test_card_data_wins_over_the_cards_path() -> None:
    raw = _raw()
    raw["fighters"][0]["cards"][0]["defence"] = 6
    cs = load_cards("/nonexistent/cards.toml", data=json.dumps(raw))
    assert cs.card("agaric-1").defence == 6


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("fighters = [", "Invalid card file"),
        ("{not json", "Invalid card file"),
        ('{"fighters": []}', "seven fighters"),
    ],
)
def test_malformed_card_data_is_refused_with_its_first_errors(text: str, expected: str) -> None:
    with pytest.raises(IllegalDecision) as e:
        Match.create(
            "mad-arena", SEATS4, seed=1, mode="ultimate-warrior", options={"card_data": text}
        )
    assert expected in e.value.reason.en and "invalide" in e.value.reason.fr


def test_card_data_errors_name_where_and_what_and_book_constraints_hold() -> None:
    raw = _raw()
    raw["fighters"][0]["cards"][0]["move"] = "far"
    raw["fighters"][0]["cards"][1]["defence"] = 1
    raw["fighters"][6]["cards"][0]["ranged"] = 4  # the dragon's shot is 5 dice (book)
    with pytest.raises(IllegalDecision) as e:
        load_cards(data=json.dumps(raw))
    reason = e.value.reason.en
    assert "fighters.0.cards.0.move" in reason and "fighters.0.cards.1.defence" in reason
    raw = _raw()
    raw["fighters"][6]["cards"][0]["ranged"] = 4
    with pytest.raises(IllegalDecision) as e:
        load_cards(data=json.dumps(raw))
    assert "rule book" in e.value.reason.en


def test_card_data_over_64_kib_is_refused() -> None:
    text = DEFAULT_CARDS.read_text(encoding="utf-8") + "\n#" + "x" * CARD_DATA_MAX
    with pytest.raises(IllegalDecision) as e:
        load_cards(data=text)
    assert "64 KiB" in e.value.reason.en and "64 Kio" in e.value.reason.fr


def test_the_uploaded_card_file_fills_card_data_in_place_of_the_cards_path() -> None:
    """Host options: a card file uploaded with /arena start is the ``card_data`` text,
    the twin of the ``cards`` path (the game declares it; no generic layer knows it)."""
    from bot.engine.registry import get_game

    info = get_game("mad-arena").info
    upload = info.upload_option()
    assert upload is not None and upload.id == "card_data" and upload.type == "text"
    assert upload.upload_for == "cards"
    assert {o.id: o.type for o in info.options}["cards"] == "path"
