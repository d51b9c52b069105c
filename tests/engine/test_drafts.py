"""Drafts (bot/engine/drafts.py): a structured answer built click by click, with Back and a
live summary, committed once on Confirm as one logged choice."""

from __future__ import annotations

import pytest

import tests.engine.fixture_game  # noqa: F401  (registers test-shapes)
from bot.engine import IllegalDecision, Match, SeatSpec, Text
from bot.engine.decisions import Allocation, Decision, Many, One, Option, Order, Quantity, Total
from bot.engine.drafts import Draft


def _decision(ask: One | Many | Order | Allocation, key: str = "k", seat: int = 0) -> Decision:
    names = {"a": ("Agaric", "Agaric"), "b": ("Baobab", "Baobab"), "c": ("Cactus", "Cactus")}
    return Decision(
        key=key,
        seat=seat,
        kind="test",
        prompt=Text(fr="?", en="?"),
        options=[]
        if isinstance(ask, Allocation)
        else [Option(id=i, label=Text(fr=fr, en=en)) for i, (fr, en) in names.items()],
        ask=ask,
    )


def _alloc(ammo_max: int = 2) -> Decision:
    return _decision(
        Allocation(
            quantities=[
                Quantity(id="ammo", label=Text(fr="Munitions", en="Ammo"), max=ammo_max),
                Quantity(id="wood", label=Text(fr="Bois", en="Wood"), min=1, max=3),
            ],
            totals=[Total(min=3, max=3, label=Text(fr="La différence", en="The difference"))],
        )
    )


def _raises(fn: object, *args: object) -> Text:
    with pytest.raises(IllegalDecision) as exc:
        fn(*args)  # type: ignore[operator]
    return exc.value.reason


DRAFT = Draft(key="k", seat=0)


# --- toggle ---------------------------------------------------------------------------------
def test_toggle_adds_and_takes_out_again_in_a_many() -> None:
    d = _decision(Many(min=1, max=2))
    draft = DRAFT.toggle(d, "a").toggle(d, "c")
    assert draft.options() == ["a", "c"]
    assert draft.toggle(d, "a").options() == ["c"]
    assert DRAFT.options() == []  # a draft is a value: building never changes the old one


def test_toggle_refuses_past_the_maximum_but_lets_an_option_out() -> None:
    d = _decision(Many(min=1, max=2))
    full = DRAFT.toggle(d, "a").toggle(d, "b")
    reason = _raises(full.toggle, d, "c")
    assert reason.en == "You have already chosen the maximum (2)."
    assert reason.fr == "Vous avez déjà choisi le maximum (2)."
    assert full.toggle(d, "b").toggle(d, "c").options() == ["a", "c"]


def test_toggle_refuses_an_option_not_offered() -> None:
    assert _raises(DRAFT.toggle, _decision(Many()), "z").en == "That option is not allowed now."
    assert _raises(DRAFT.toggle, _alloc(), "ammo").en == "That option is not allowed now."


def test_toggle_builds_an_order_and_refuses_placing_twice() -> None:
    d = _decision(Order())
    draft = DRAFT.toggle(d, "c").toggle(d, "a")
    assert draft.options() == ["c", "a"]
    reason = _raises(draft.toggle, d, "c")
    assert reason.en == "That option is already placed." and reason.fr.startswith("Cette option")


# --- amounts --------------------------------------------------------------------------------
def test_amounts_start_at_each_minimum_and_the_last_setting_wins() -> None:
    d = _alloc()
    assert DRAFT.amounts(d) == {"ammo": 0, "wood": 1}
    draft = DRAFT.set_amount(d, "ammo", 1).set_amount(d, "wood", 3).set_amount(d, "ammo", 2)
    assert draft.amounts(d) == {"ammo": 2, "wood": 3}


def test_set_amount_refuses_out_of_bounds_and_unknown_quantities() -> None:
    d = _alloc()
    reason = _raises(DRAFT.set_amount, d, "wood", 4)
    assert reason.en == "Wood: between 1 and 3." and reason.fr == "Bois : entre 1 et 3."
    assert _raises(DRAFT.set_amount, d, "gold", 1).en == "That option is not allowed now."
    assert (
        _raises(DRAFT.set_amount, _decision(Many()), "a", 1).en == "That option is not allowed now."
    )


# --- back -----------------------------------------------------------------------------------
def test_back_undoes_the_last_click_only() -> None:
    d = _alloc()
    draft = DRAFT.set_amount(d, "ammo", 1).set_amount(d, "ammo", 2)
    assert draft.back().amounts(d)["ammo"] == 1
    assert draft.back().back().amounts(d)["ammo"] == 0
    o = _decision(Order())
    assert DRAFT.toggle(o, "b").toggle(o, "a").back().options() == ["b"]
    m = _decision(Many())
    assert DRAFT.toggle(m, "b").toggle(m, "b").back().options() == ["b"]  # the removal undone


def test_back_on_an_empty_draft_is_the_same_draft() -> None:
    assert DRAFT.back() == DRAFT


# --- summary --------------------------------------------------------------------------------
def test_summary_says_nothing_yet_then_lists_the_choice_in_both_languages() -> None:
    m = _decision(Many())
    assert DRAFT.summary(m) == Text(fr="rien pour l'instant", en="nothing yet")
    assert DRAFT.toggle(m, "b").toggle(m, "a").summary(m).en == "Baobab, Agaric"
    o = _decision(Order())
    assert DRAFT.toggle(o, "c").toggle(o, "a").summary(o) == Text(
        fr="1. Cactus → 2. Agaric", en="1. Cactus → 2. Agaric"
    )
    a = _alloc()
    assert DRAFT.set_amount(a, "ammo", 2).summary(a) == Text(
        fr="Munitions 2, Bois 1", en="Ammo 2, Wood 1"
    )


# --- problem and choice ---------------------------------------------------------------------
def test_problem_tells_why_confirm_would_be_refused_until_it_would_not() -> None:
    o = _decision(Order())
    draft = DRAFT.toggle(o, "b")
    assert draft.problem(o) == Text(
        fr="Placez toutes les options dans l'ordre : il en manque 2.",
        en="Please put every option in order: 2 still missing.",
    )
    assert draft.toggle(o, "a").toggle(o, "c").problem(o) is None
    a = _alloc()
    assert DRAFT.problem(a) is not None and "exactly 3 (you have 1)" in DRAFT.problem(a).en  # type: ignore[union-attr]
    assert DRAFT.set_amount(a, "ammo", 2).problem(a) is None
    m = _decision(Many(min=1))
    assert DRAFT.problem(m) is not None and DRAFT.toggle(m, "a").problem(m) is None


def test_choice_has_the_shape_of_the_decision() -> None:
    o = _decision(Order())
    c = DRAFT.toggle(o, "c").toggle(o, "b").toggle(o, "a").choice(o)
    assert (c.seat, c.key, c.option, c.options, c.amounts) == (0, "k", None, ["c", "b", "a"], None)
    a = _alloc()
    c = DRAFT.set_amount(a, "ammo", 2).choice(a)
    assert (c.option, c.options, c.amounts) == (None, None, {"ammo": 2, "wood": 1})
    one = _decision(One())
    assert DRAFT.toggle(one, "b").choice(one).option == "b"
    assert DRAFT.choice(one).option is None and DRAFT.problem(one) is not None


# --- valid_for ------------------------------------------------------------------------------
def test_valid_for_the_same_decision_after_a_restart() -> None:
    o = _decision(Order())
    draft = Draft.model_validate_json(DRAFT.toggle(o, "b").model_dump_json())
    assert draft.valid_for(o) and draft.options() == ["b"]


def test_not_valid_for_another_decision_or_seat() -> None:
    o = _decision(Order())
    draft = DRAFT.toggle(o, "b")
    assert not draft.valid_for(_decision(Order(), key="k2"))
    assert not draft.valid_for(_decision(Order(), seat=1))


def test_not_valid_once_a_part_is_no_longer_offered() -> None:
    o = _decision(Order())
    draft = DRAFT.toggle(o, "c")
    fewer = o.model_copy(update={"options": o.options[:2]})
    assert not draft.valid_for(fewer)
    a = _alloc()
    assert not DRAFT.set_amount(a, "ammo", 1).valid_for(_decision(Many()))
    assert not DRAFT.toggle(o, "a").valid_for(a)


def test_not_valid_once_an_amount_is_out_of_its_new_bounds() -> None:
    """After a restart the same decision may offer less (less ammo): a kept amount must fit."""
    draft = DRAFT.set_amount(_alloc(ammo_max=2), "ammo", 2)
    assert draft.valid_for(_alloc(ammo_max=2))
    assert not draft.valid_for(_alloc(ammo_max=1))


# --- committed once -------------------------------------------------------------------------
def test_a_confirmed_draft_is_one_logged_choice() -> None:
    m = Match.create("test-shapes", [SeatSpec(name="Ann"), SeatSpec(name="Bob")], seed="draft")
    while m.pending()[0].kind != "order":
        m.apply(m.ai_choice(m.pending()[0]))
    d = m.pending()[0]
    draft = Draft(key=d.key, seat=d.seat)
    logged = len(m.choices)
    for oid in ("baobab", "cactus", "agaric"):
        draft = draft.toggle(d, oid)
        assert (
            len(m.choices) == logged and m.pending()[0].key == d.key
        )  # nothing logged while drafting
    m.apply(draft.choice(d))
    assert len(m.choices) == logged + 1
    assert m.choices[-1].log_data() == {
        "seat": d.seat,
        "key": d.key,
        "options": ["baobab", "cactus", "agaric"],
    }
