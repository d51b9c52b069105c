"""Live Madsteam matches share one frozen data file per content, one gibier card per
content and their strings; a move's state copy shares nothing an apply changes, and a
match still stores its whole data file (issue 16 item 5)."""

from __future__ import annotations

import gc
import json
import weakref

import pytest
from pydantic import ValidationError

from bot.engine import Match, SeatSpec
from bot.games.madsteam.data import DATA_FILE, DEFAULT_DATA, GameData, load_data
from bot.games.madsteam.state import Gibier, MSState
from tests.support.state_copies import check_copies_through

SEATS = [SeatSpec(name="Ann", user_id=1)] + [
    SeatSpec(name=f"Robot {k}", ai=True, ai_level="easy") for k in range(1, 4)
]


def new(seed: str, seats: int = 4, **options: object) -> Match:
    return Match.create("madsteam", SEATS[:seats], seed=seed, options=options)


def reload(m: Match) -> Match:
    """The match as the store gives it back: from its snapshot's JSON text."""
    return Match.from_snapshot(json.loads(json.dumps(m.snapshot())))


def state(m: Match) -> MSState:
    assert isinstance(m.state, MSState)
    return m.state


def test_matches_with_the_same_data_share_one_copy_through_moves_and_reloads() -> None:
    a, b = new("a"), new("b")
    data = state(a).data
    assert state(b).data is data
    for _ in range(30):  # moves copy the state, not its data
        a.apply(a.ai_choice(a.pending()[0]))
    assert state(a).data is data
    reloaded = reload(a)
    assert state(reloaded).data is data
    # The snapshot still holds the whole file, as before.
    assert reloaded.snapshot()["state"]["data"] == data.model_dump(mode="json")
    assert reloaded.snapshot() == a.snapshot()


def test_a_group_s_own_data_is_a_copy_of_its_own() -> None:
    text = DEFAULT_DATA.read_text(encoding="utf-8")
    changed = text.replace('name = "Rat géant"', 'name = "Rat mutant"', 1)
    assert changed != text
    own = new("c", data_text=changed)
    default = new("d")
    assert state(own).data is not state(default).data
    assert any(g.name == "Rat mutant" for g in state(own).data.gibier)
    assert state(own).data.model_dump() == load_data(text=changed).model_dump()
    assert state(new("e", data_text=changed)).data is state(own).data
    assert state(reload(own)).data is state(own).data


def test_gibier_cards_are_frozen_and_shared_between_matches() -> None:
    a, b = reload(new("g1")), reload(new("g2"))
    ga = {(g.name, g.strength, tuple(g.food)): g for s in state(a).gibier.values() for g in s}
    common = [g for s in state(b).gibier.values() for g in s if g.name in {k[0] for k in ga}]
    assert len(common) > 3
    for g in common:
        assert ga[(g.name, g.strength, tuple(g.food))] is g
    with pytest.raises(ValidationError):
        common[0].strength = 1
    # A card built by hand (a test's position) is still a card like any other.
    assert Gibier(name="x", strength=4, food=[2, 3]).food == [2, 3]


@pytest.mark.parametrize(("seats", "seed"), [(4, "copy-1"), (2, "copy-2")])
def test_an_apply_on_a_copy_never_changes_the_original(seats: int, seed: str) -> None:
    m = new(seed, seats)
    assert check_copies_through(m, 600) > 50
    assert m.over


def test_a_copy_shares_the_data_and_the_gibier_cards() -> None:
    m = new("share")
    for _ in range(12):
        m.apply(m.ai_choice(m.pending()[0]))
    original = state(m)
    copied = m.game.copy(original)
    assert isinstance(copied, MSState)
    assert copied.data is original.data
    assert copied.players[0] is not original.players[0]
    for place, stack in original.gibier.items():
        assert copied.gibier[place] is not stack
        assert all(x is y for x, y in zip(copied.gibier[place], stack, strict=True))


def test_reloaded_matches_share_their_strings() -> None:
    a, b = new("s1"), new("s2")
    for m in (a, b):
        for _ in range(10):
            m.apply(m.ai_choice(m.pending()[0]))
    ra, rb = state(reload(a)), state(reload(b))
    ids_a = {o: o for p in ra.players for o in [*p.res, *p.drawn, *p.inactive]}
    ids_a.update({o: o for o in ra.object_deck})
    ids_b = [o for p in rb.players for o in [*p.res, *p.drawn, *p.inactive]] + rb.object_deck
    common = [o for o in ids_b if o in ids_a]
    assert len(common) > 10
    assert all(ids_a[o] is o for o in common)


def test_a_stored_state_finds_the_data_in_use_without_validating_it_again() -> None:
    m = new("stored")
    raw = json.loads(json.dumps(m.snapshot()))["state"]["data"]

    def never(value: object) -> GameData:
        raise AssertionError("validated again")

    assert DATA_FILE.shared(raw, never) is state(m).data
    changed = dict(raw, supermarket=list(reversed(raw["supermarket"])))
    assert changed != raw
    with pytest.raises(AssertionError, match="validated again"):
        DATA_FILE.shared(changed, never)


def test_data_no_match_holds_any_more_is_freed() -> None:
    text = DEFAULT_DATA.read_text(encoding="utf-8")
    uploads = [text.replace('name = "Rat géant"', f'name = "Rat {k}"', 1) for k in range(6)]
    m = new("gone", data_text=uploads[0])
    gone = weakref.ref(state(m).data)
    del m
    for upload in uploads[1:]:  # newer contents push it out of the few kept alive
        new("other", data_text=upload)
    gc.collect()
    assert gone() is None


def test_a_dump_is_the_state_s_full_json_with_the_data_dumped_once() -> None:
    m = new("dump")
    for k in range(60):
        if k % 15 == 0:
            dumped = m.game.dump(m.state)
            assert json.dumps(dumped) == json.dumps(state(m).model_dump(mode="json"))
            assert dumped["data"] is m.game.dump(m.game.copy(m.state))["data"]
        m.apply(m.ai_choice(m.pending()[0]))
