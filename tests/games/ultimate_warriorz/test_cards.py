"""Card data (RULINGS "Card values", Ultimate Warriorz): our values, validated on load; a group's
own file loads too, through a path or an upload kept in the match options."""

from __future__ import annotations

import json
import tomllib

import pytest

from bot.engine import IllegalDecision, Match, SeatSpec
from bot.engine.registry import get_game
from bot.games.ultimate_warriorz.cards import DEFAULT_CARDS, FIGHTERS, load_cards, parse_cards

SEATS = [SeatSpec(name=f"P{i}") for i in range(3)]


def _raw() -> dict:
    return tomllib.loads(DEFAULT_CARDS.read_text(encoding="utf-8"))


def test_default_data_64_cards_one_secret_move_and_one_item_each() -> None:
    cs = load_cards()
    assert sum(len(f.cards) for f in cs.fighters) == 64
    for f in cs.fighters:
        size, colour, secret, item = FIGHTERS[f.id]
        assert (f.size, f.colour, len(f.cards)) == (size, colour, 8)
        assert sorted(c.special for c in f.cards if c.special) == sorted([secret, item])
        assert 2 <= f.defence <= 6
        for c in f.cards:
            assert 1 <= c.initiative <= 8 and 0 <= c.move <= 2 and 2 <= c.defence <= 6


def test_help_says_default_values_are_ours_and_upload_fills_cards() -> None:
    info = get_game("ultimate-warriorz").info
    opt = next(o for o in info.options if o.id == "cards")
    assert opt.type == "path" and opt.help is not None and "publisher" in opt.help.en
    up = info.upload_option()
    assert up is not None and up.id == "card_data" and up.upload_for == "cards"
    assert "éditeur" in info.summary.fr


def test_a_card_contradicting_the_book_is_refused() -> None:
    """The powder keg is "d'une puissance de 3 dés": a file giving it 4 is refused."""
    raw = _raw()
    agaric = next(f for f in raw["fighters"] if f["id"] == "agaric")
    keg = next(c for c in agaric["cards"] if c.get("special") == "powder-keg")
    keg["ranged"] = 4
    with pytest.raises(IllegalDecision) as exc:
        parse_cards(json.dumps(raw))
    assert "3 dice" in exc.value.reason.en


def test_two_secret_moves_are_refused() -> None:
    raw = _raw()
    jojoba = next(f for f in raw["fighters"] if f["id"] == "jojoba")
    jojoba["cards"][0]["special"] = "double-shot"
    with pytest.raises(IllegalDecision):
        parse_cards(json.dumps(raw))


def test_uploaded_data_is_used_and_kept_in_the_options() -> None:
    raw = _raw()
    for f in raw["fighters"]:
        f["defence"] = 6
    text = json.dumps(raw)
    m = Match.create("ultimate-warriorz", SEATS, "upload", "tribal-rumble", {"card_data": text})
    assert all(m.state.cards.fighter(f.id).defence == 6 for f in m.state.fighters)
    assert m.options["card_data"] == text
    again = Match.replay("ultimate-warriorz", SEATS, "upload", "tribal-rumble", dict(m.options), [])
    assert again.snapshot() == m.snapshot()


def test_each_special_says_what_it_does_on_its_button_and_in_the_summary() -> None:
    """Issue 12 item 1: the special card's button and the rules summary explain it."""
    from bot.games.ultimate_warriorz.cards import SPECIAL_EFFECTS, SPECIAL_NAMES
    from tests.games.ultimate_warriorz.helpers import GAME, make

    info = get_game("ultimate-warriorz").info
    for special, text in SPECIAL_EFFECTS.items():
        assert text.fr in info.summary.fr and text.en in info.summary.en
        assert SPECIAL_NAMES[special].en in info.summary.en
    state = make({"agaric": 0, "baobab": 1, "cactus": 2})
    state.phase = "pick"
    d = next(x for x in GAME.pending(state) if x.args.fighter == "baobab")  # type: ignore[union-attr]
    details = [o.detail.en for o in d.options if o.detail is not None]
    assert len(details) == 2 and any("Strike" in x for x in details)
