"""Card data (RULINGS "Card data"): our values, validated on load; a group's own file loads too."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

import bot.games.mad_arena  # noqa: F401
from bot.engine import IllegalDecision, Match, SeatSpec
from bot.engine.registry import get_game
from bot.games.mad_arena.cards import DEFAULT_CARDS, FIGHTERS, load_cards

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
