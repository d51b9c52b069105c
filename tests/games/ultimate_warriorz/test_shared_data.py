"""Live Ultimate Warriorz matches share one frozen card set per content and their strings,
a move's state copy shares nothing an apply changes, and a match still stores its whole
card set (issue 16 item 5)."""

from __future__ import annotations

import json

import pytest
from pydantic import BaseModel, ValidationError

from bot.engine import Match, SeatSpec
from bot.games.ultimate_warriorz.cards import DEFAULT_CARDS, load_cards, parse_cards
from bot.games.ultimate_warriorz.modes import TEAM, TRIBAL
from tests.support.state_copies import check_copies_through

SEATS = [SeatSpec(name="Ann", user_id=1)] + [
    SeatSpec(name=f"Robot {k}", ai=True, ai_level="easy") for k in range(1, 4)
]


def new(seed: str, mode: str = TRIBAL, **options: object) -> Match:
    return Match.create("ultimate-warriorz", SEATS, seed=seed, mode=mode, options=options)


def reload(m: Match) -> Match:
    """The match as the store gives it back: from its snapshot's JSON text."""
    return Match.from_snapshot(json.loads(json.dumps(m.snapshot())))


def test_matches_with_the_same_cards_share_one_set_through_moves_and_reloads() -> None:
    a, b = new("a"), new("b")
    cards = a.state.cards
    assert b.state.cards is cards
    for _ in range(30):  # moves copy the state, not its card set
        a.apply(a.ai_choice(a.pending()[0]))
    assert a.state.cards is cards
    reloaded = reload(a)
    assert reloaded.state.cards is cards
    # The snapshot still holds the whole set, as before.
    assert reloaded.snapshot()["state"]["cards"] == cards.model_dump(mode="json")
    assert reloaded.snapshot() == a.snapshot()


def test_a_group_s_own_cards_are_a_set_of_their_own() -> None:
    text = DEFAULT_CARDS.read_text(encoding="utf-8")
    changed = text.replace('name = "Agaric"', 'name = "Agaric the Bold"', 1)
    assert changed != text
    own = new("c", card_data=changed)
    default = new("d")
    assert own.state.cards is not default.state.cards
    assert own.state.cards.fighter("agaric").name == "Agaric the Bold"
    assert own.state.cards.model_dump() == load_cards(data=changed).model_dump()
    assert new("e", card_data=changed).state.cards is own.state.cards
    assert reload(own).state.cards is own.state.cards


def test_the_card_set_cannot_be_changed_and_each_card_names_its_fighter() -> None:
    cards = load_cards()
    card = cards.fighter("agaric").cards[0]
    with pytest.raises(ValidationError):
        card.melee = 6
    with pytest.raises(ValidationError):
        cards.fighter("agaric").defence = 6
    assert {c.fighter for c in cards.fighter("baobab").cards} == {"baobab"}
    # A file naming another owner on a card still gives the card to the fighter holding it.
    text = DEFAULT_CARDS.read_text(encoding="utf-8")
    moved = text.replace('id = "agaric-8"', 'id = "agaric-8"\nfighter = "jojoba"', 1)
    assert moved != text
    assert parse_cards(moved).card("agaric-8").fighter == "agaric"


@pytest.mark.parametrize(("mode", "seed"), [(TRIBAL, "copy-1"), (TEAM, "copy-2")])
def test_an_apply_on_a_copy_never_changes_the_original(mode: str, seed: str) -> None:
    m = new(seed, mode)
    assert check_copies_through(m, 400) > 50
    assert m.over


def test_a_copy_shares_the_card_set_and_texts() -> None:
    m = new("share")
    for _ in range(12):
        m.apply(m.ai_choice(m.pending()[0]))
    copied = m.game.copy(m.state)
    assert copied.cards is m.state.cards
    assert copied.fighters[0] is not m.state.fighters[0]
    assert all(x is y for x, y in zip(copied.last, m.state.last, strict=True))


def _strings(value: object, out: list[str]) -> list[str]:
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, BaseModel):
        for v in value.__dict__.values():
            _strings(v, out)
    elif isinstance(value, dict):
        for k, v in value.items():
            _strings(k, out)
            _strings(v, out)
    elif isinstance(value, list):
        for v in value:
            _strings(v, out)
    return out


def test_reloaded_matches_share_their_strings() -> None:
    a, b = new("s1"), new("s2")
    for m in (a, b):
        for _ in range(10):
            m.apply(m.ai_choice(m.pending()[0]))
    ra, rb = reload(a), reload(b)
    mine = {s: s for s in _strings(ra.state.model_copy(update={"cards": None}), [])}
    theirs = _strings(rb.state.model_copy(update={"cards": None}), [])
    common = [s for s in theirs if s in mine]
    assert len(common) > 20
    assert all(mine[s] is s for s in common)


def test_a_dump_is_the_state_s_full_json_with_the_cards_dumped_once() -> None:
    m = new("dump")
    for k in range(60):
        if k % 15 == 0:
            dumped = m.game.dump(m.state)
            assert json.dumps(dumped) == json.dumps(m.state.model_dump(mode="json"))
            assert dumped["cards"] is m.game.dump(m.game.copy(m.state))["cards"]
        m.apply(m.ai_choice(m.pending()[0]))
