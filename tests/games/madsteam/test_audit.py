"""Rules checked against the book (madsteam.fr.txt) in the audit of the first version."""

from __future__ import annotations

import random

import pytest

from bot.engine import Match, SeatSpec
from bot.engine.errors import IllegalDecision
from bot.engine.game import Ctx
from bot.games.madsteam import GAME, rules
from bot.games.madsteam.data import DEFAULT_DATA, load_data, parse_data
from bot.games.madsteam.state import Gibier, MSState
from tests.games.madsteam.helpers import (
    clear_board,
    harvest_turn,
    heroes,
    option_for,
    pending_of,
    play,
    set_up,
)


# --- Supermarché ---------------------------------------------------------------------------
def _to_supermarket(state: MSState, ctx: Ctx, value: int, taken: list[int]) -> None:
    clear_board(state)
    heroes(state, 0, [(value, "mine", False)])
    heroes(state, 1, [(3, "house_b", False)])
    state.slots = [1 if i in taken else None for i in range(4)]
    state.token_taken = True
    harvest_turn(state, 0)
    d = GAME.pending(state)[0]
    play(state, d, ctx, option_for(d, place="supermarket"))


@pytest.mark.parametrize(
    ("value", "taken", "cans"),
    [(5, [], 3), (4, [], 2), (4, [1], 2), (3, [], 1), (5, [3], 0), (4, [1, 2], 0)],
)
def test_supermarket_slot_takes_a_meeple_of_its_value(
    value: int, taken: list[int], cans: int
) -> None:
    """Supermarché: « placer un Meeple de la valeur indiquée sur un des 4 emplacements
    disponibles afin d'obtenir le nombre de Conserves de cette même case ». Slots 3/4/4/5
    give 1/2/2/3 cans; a 5 whose slot is taken does not fall back on a 4's slot."""
    state, ctx = set_up(2)
    _to_supermarket(state, ctx, value, taken)
    assert state.players[0].has("cans") == cans
    assert not pending_of(state, "supermarket")  # nothing to choose: the value decides


def test_supermarket_slot_values_are_meeple_values() -> None:
    text = DEFAULT_DATA.read_text("utf-8")
    bad = text.replace("[[supermarket]]\nvalue = 3", "[[supermarket]]\nvalue = 2", 1)
    assert bad != text
    with pytest.raises(IllegalDecision):
        parse_data(bad)


# --- Recrutement: the clan chooses which denrées it spends ----------------------------------
def _recruit(res: dict[str, int], recruits: int) -> tuple[MSState, Ctx]:
    state, ctx = set_up(2)
    state.round = 3
    p = state.players[0]
    p.shelter = "forge"
    p.rooms = [1, 0, 0, 0, 0, 0, 0, 0]
    p.res = dict(res)
    state.phase = "shelter"
    p.step = "recruit"
    state.players[1].step = "done"
    d = pending_of(state, "recruit")[0]
    play(state, d, ctx, {"room0": recruits})
    return state, ctx


def test_recruits_paid_with_cans_or_the_last_water_is_asked() -> None:
    """Recrutement: « Chaque Denrée dépensée attire 1 nouveau survivant »; 1 water keeps,
    cans keep: with 1 water and 3 cans, 2 recruits cost 2 cans or 1 water and 1 can, the
    player's choice (a One decision), never decided for them."""
    for keep_water, left in ((True, (1, 1)), (False, (0, 2))):
        state, ctx = _recruit({"water": 1, "cans": 3}, 2)
        p = state.players[0]
        pay = pending_of(state, "pay")[0]
        assert pay.seat == 0 and {o.id for o in pay.options} == {"pay-cans", "pay-water"}
        play(state, pay, ctx, option_for(pay, keep_water=keep_water))
        assert (p.has("water"), p.has("cans")) == left
        assert p.rooms[0] == 3 and p.step != "pay"


def test_recruits_spend_what_perishes_first_without_asking() -> None:
    """Recrutement: food and water above 1 are lost after step 2 (« ne peuvent conserver
    qu'1 Eau ... et 0 Nourriture »), so they pay first; a forced rest is paid at once."""
    state, _ = _recruit({"water": 3, "food": 1, "cans": 2}, 3)
    p = state.players[0]
    assert not pending_of(state, "pay")
    assert (p.has("water"), p.has("food"), p.has("cans")) == (1, 0, 2)
    state, _ = _recruit({"water": 1, "cans": 1}, 2)
    p = state.players[0]
    assert not pending_of(state, "pay")
    assert (p.has("water"), p.has("cans")) == (0, 0) and p.rooms[0] == 3


# --- AI: the order of moves frees the well --------------------------------------------------
@pytest.mark.parametrize(
    "layout",
    [
        [
            (3, "well", False),
            (4, "house_a", False),
            (4, "supermarket", False),
            (5, "house_b", False),
        ],
        [
            (3, "house_a", False),
            (4, "well", False),
            (4, "supermarket", False),
            (5, "house_b", False),
        ],
    ],
)
def test_hard_ai_frees_the_well_before_it_needs_it(layout: list[tuple[int, str, bool]]) -> None:
    """Règles de déplacement, example: a hero lying on a place keeps the clan off it, « le
    joueur vert doit d'abord libérer ce lieu ». A clan with no water and a chip gets there."""
    state, ctx = set_up(2)
    clear_board(state)
    heroes(state, 0, layout)
    heroes(
        state,
        1,
        [(3, "factory", True), (4, "armoury", True), (4, "mine", True), (5, "forest", True)],
    )
    state.players[0].res = {"chips": 1, "ammo": 1}
    state.supply["well"] = 7
    harvest_turn(state, 0)
    rnd = random.Random(0)
    while state.phase == "harvest":
        d = GAME.pending(state)[0]
        play(state, d, ctx, GAME.ai_choose(state, d, rnd, "hard"))
    assert state.players[0].has("water") >= 4


# --- Texts in both languages ----------------------------------------------------------------
def test_cards_effects_and_events_read_in_english_too() -> None:
    """Players read French and English: every card has an English name, and effects and
    events are worded in both languages."""
    d = load_data()
    cards = [
        *d.objects,
        *d.gibier,
        *d.events,
        *d.shelters,
        *(r for s in d.shelters for r in s.rooms),
    ]
    assert all(getattr(c, "name_en", None) for c in cards)
    state, _ = set_up(2)
    p = state.players[0]
    p.inactive = ["pioche"]
    p.active = ["decrypteur"]
    state.events_active = ["pillards"]
    state.event_deck = ["famine"]
    v = GAME.view(state, 0)
    me = v.players[0]
    assert me.inactive[0].name.en == "Pickaxe" and me.inactive[0].effect.en == "Mine: +2 metal"
    assert me.inactive[0].effect.fr == "Mine : +2 métaux"
    assert me.active[0].effect.en == "Well: free access (no chip)"
    assert v.events_active[0].effects.en == "every clan loses 1 ammo"
    assert v.next_event is not None and v.next_event.name.en == "Famine"
    assert v.next_event.effects.en == "feeding costs 1 more provision"
    assert me.shelter is not None and me.shelter.en != me.shelter.fr
    assert all(r.name.en and r.power.en for r in me.rooms)
    assert GAME.render(v, "en")[:4] == b"\x89PNG"


def test_english_prompts_do_not_say_denrees() -> None:
    state, ctx = set_up(2)
    p = state.players[0]
    p.shelter = "forge"
    p.rooms = [2, 1, 0, 0, 0, 0, 0, 0]
    p.res = {"water": 2, "food": 3}
    state.phase = "shelter"
    p.step = "feed"
    state.players[1].step = "done"
    state.feed_extra = 0
    feed = pending_of(state, "feed")[0]
    assert "denrée" not in feed.prompt.en and "provisions" in feed.prompt.en


# --- Secrets --------------------------------------------------------------------------------
def test_public_view_shows_the_top_gibier_and_the_search_cards_set_aside() -> None:
    """Mise en place: the gibier stack shows its top card only; « Les cartes fouille
    excédentaires sont disposées face visible », the house's own cards stay face down."""
    state, _ = set_up(2)
    state.gibier["forest"] = [
        Gibier(name="a", strength=3, food=[1, 2]),
        Gibier(name="b", strength=7, food=[5, 6]),
    ]
    state.search["house_a"] = [{"water": 2}]
    state.search_aside["house_a"] = [{"wood": 2}, {}]
    v = GAME.view(state, None)
    forest = next(p for p in v.places if p.id == "forest")
    assert forest.gibier_top is not None and forest.gibier_top.strength == 7
    assert forest.gibier_count == 2 and "strength=3" not in v.model_dump_json()
    house = next(p for p in v.places if p.id == "house_a")
    assert house.search_left == 1
    assert [t.en for t in house.search_aside] == ["2 wood", "nothing"]


def test_removed_events_are_nowhere_in_the_match() -> None:
    """Mise en place: 5 events are removed « sans les montrer »: the match keeps no trace of
    them; the next event is visible to all (the pile lies face up)."""
    m = Match.create("madsteam", [SeatSpec(name="A"), SeatSpec(name="B")], seed="ev")
    kept = set(m.state.event_deck)
    removed = {e.id for e in m.state.data.events} - kept
    assert len(kept) == 5 and len(removed) == 5
    dump = GAME.dump(m.state)
    dump.pop("data")
    text = str(dump)
    assert not any(f"'{e}'" in text for e in removed)
    assert GAME.view(m.state, None).next_event is not None
    assert rules.EVENTS_KEPT == 5
