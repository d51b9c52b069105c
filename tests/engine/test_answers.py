"""The engine checks a whole structured answer before any game code runs (bot/engine/answers.py).

One, Many, Order and Allocation: bounds, totals, duplicates, unknown ids and
answers of the wrong shape are refused with a reason in French and English,
and a refused answer leaves the match exactly as it was.
"""

from __future__ import annotations

import json

import pytest

import tests.engine.fixture_game  # noqa: F401  (registers test-shapes)
from bot.engine import Choice, IllegalDecision, Match, SeatSpec, Text
from bot.engine.answers import NOT_ALLOWED, allocation_ok, check_answer
from bot.engine.decisions import (
    Allocation,
    Answer,
    Args,
    Decision,
    Many,
    One,
    Option,
    Order,
    Quantity,
    Total,
)
from bot.engine.match import reply_choice
from tests.engine.fixture_game import Card, Fighter


class Zone(Args):
    zone: int


def _decision(ask: One | Many | Order | Allocation, n: int = 4) -> Decision:
    return Decision(
        key="k",
        seat=0,
        kind="test",
        prompt=Text(fr="?", en="?"),
        options=[
            Option(id=f"z{i}", label=Text(fr=f"zone {i}", en=f"zone {i}"), args=Zone(zone=i))
            for i in range(n)
        ],
        ask=ask,
    )


def _refusal(decision: Decision, **answer: object) -> Text:
    with pytest.raises(IllegalDecision) as exc:
        check_answer(decision, Choice(seat=0, key="k", **answer))  # type: ignore[arg-type]
    reason = exc.value.reason
    assert reason.fr and reason.en and reason.fr != reason.en, reason
    return reason


ALLOC = Allocation(
    quantities=[
        Quantity(id="ammo", label=Text(fr="Munitions", en="Ammo"), max=2),
        Quantity(id="wood", label=Text(fr="Bois", en="Wood"), min=1, max=3),
    ],
    totals=[Total(min=3, max=3, label=Text(fr="La différence", en="The difference"))],
)


# --- One ------------------------------------------------------------------------------------
def test_one_gives_the_picked_option_with_its_typed_args() -> None:
    answer = check_answer(_decision(One()), Choice(seat=0, key="k", option="z2"))
    assert answer.option == "z2" and answer.args == Zone(zone=2)
    assert [o.id for o in answer.chosen] == ["z2"] and answer.amounts == {}


def test_one_refuses_an_option_not_offered() -> None:
    assert _refusal(_decision(One()), option="z9") == NOT_ALLOWED


@pytest.mark.parametrize(
    "shape",
    [{"options": ["z1"]}, {"amounts": {"z1": 1}}, {}, {"option": "z1", "options": ["z1"]}],
)
def test_one_refuses_an_answer_of_another_shape(shape: dict[str, object]) -> None:
    reason = _refusal(_decision(One()), **shape)
    assert reason.en == "Please choose exactly one option."
    assert reason.fr == "Choisissez une seule option."


# --- Many -----------------------------------------------------------------------------------
def test_many_keeps_the_chosen_options_in_the_order_given() -> None:
    answer = check_answer(
        _decision(Many(min=1, max=3)), Choice(seat=0, key="k", options=["z3", "z0"])
    )
    assert [o.args for o in answer.chosen] == [Zone(zone=3), Zone(zone=0)]
    with pytest.raises(ValueError):
        _ = answer.picked  # several options: no single one


def test_many_refuses_fewer_than_min_with_real_plurals() -> None:
    reason = _refusal(_decision(Many(min=2, max=3)), options=["z1"])
    assert reason.en == "Please choose at least 2 options."
    assert reason.fr == "Choisissez au moins 2 options."
    reason = _refusal(_decision(Many(min=1, max=3)), options=[])
    assert reason.en == "Please choose at least 1 option."
    assert reason.fr == "Choisissez au moins 1 option."


def test_many_refuses_more_than_max() -> None:
    reason = _refusal(_decision(Many(min=0, max=1)), options=["z1", "z2"])
    assert reason.en == "Please choose at most 1 option."
    assert reason.fr == "Choisissez au plus 1 option."


def test_many_without_max_allows_every_option_and_min_zero_allows_none() -> None:
    d = _decision(Many())
    assert (
        len(check_answer(d, Choice(seat=0, key="k", options=["z0", "z1", "z2", "z3"])).chosen) == 4
    )
    assert check_answer(d, Choice(seat=0, key="k", options=[])).chosen == []


def test_many_refuses_duplicates_and_unknown_ids() -> None:
    reason = _refusal(_decision(Many(max=3)), options=["z1", "z1"])
    assert reason.en == "Each option can be chosen only once."
    assert _refusal(_decision(Many(max=3)), options=["z1", "nope"]) == NOT_ALLOWED


@pytest.mark.parametrize("shape", [{"option": "z1"}, {"amounts": {"z1": 1}}, {}])
def test_many_refuses_an_answer_of_another_shape(shape: dict[str, object]) -> None:
    assert _refusal(_decision(Many(max=2)), **shape).en == "That answer does not fit this question."


# --- Order ----------------------------------------------------------------------------------
def test_order_keeps_the_order_given() -> None:
    answer = check_answer(
        _decision(Order(), n=3), Choice(seat=0, key="k", options=["z2", "z0", "z1"])
    )
    assert [o.id for o in answer.chosen] == ["z2", "z0", "z1"]


def test_order_refuses_a_missing_option_and_says_how_many() -> None:
    reason = _refusal(_decision(Order(), n=3), options=["z2"])
    assert reason.en == "Please put every option in order: 2 still missing."
    assert "il en manque 2" in reason.fr


def test_order_refuses_duplicates_unknown_ids_and_other_shapes() -> None:
    d = _decision(Order(), n=3)
    assert _refusal(d, options=["z0", "z0", "z1"]).en == "Each option can be chosen only once."
    assert _refusal(d, options=["z0", "z1", "z7"]) == NOT_ALLOWED
    assert _refusal(d, option="z0").en == "That answer does not fit this question."
    assert _refusal(d, amounts={"z0": 1}).en == "That answer does not fit this question."


# --- Allocation -----------------------------------------------------------------------------
def test_allocation_gives_every_quantity_missing_ones_as_zero() -> None:
    ask = Allocation(
        quantities=[
            Quantity(id="ammo", label=Text(fr="Munitions", en="Ammo"), max=3),
            Quantity(id="wood", label=Text(fr="Bois", en="Wood"), max=3),
        ],
        totals=[Total(min=2)],
    )
    answer = check_answer(_decision(ask, n=0), Choice(seat=0, key="k", amounts={"wood": 2}))
    assert answer.amounts == {"ammo": 0, "wood": 2} and answer.chosen == []


def test_allocation_refuses_a_quantity_out_of_its_bounds_naming_it() -> None:
    d = _decision(ALLOC, n=0)
    reason = _refusal(d, amounts={"ammo": 3, "wood": 0})
    assert reason.en == "Ammo: between 0 and 2, not 3."
    assert reason.fr == "Munitions : entre 0 et 2, pas 3."
    # A quantity left out counts as 0, below wood's minimum of 1.
    assert _refusal(d, amounts={"ammo": 2}).en == "Wood: between 1 and 3, not 0."
    assert _refusal(d, amounts={"ammo": -1, "wood": 3}).en == "Ammo: between 0 and 2, not -1."


def test_allocation_refuses_a_total_that_does_not_hold() -> None:
    d = _decision(ALLOC, n=0)
    reason = _refusal(d, amounts={"ammo": 1, "wood": 1})
    assert reason.en == "The difference must be exactly 3 (you have 2)."
    assert reason.fr == "La différence doit faire exactement 3 (vous en êtes à 2)."
    assert check_answer(d, Choice(seat=0, key="k", amounts={"ammo": 2, "wood": 1})).amounts == {
        "ammo": 2,
        "wood": 1,
    }


def test_allocation_totals_over_some_quantities_min_and_max() -> None:
    ask = Allocation(
        quantities=[
            Quantity(id="a", label=Text(fr="A", en="A"), max=5),
            Quantity(id="b", label=Text(fr="B", en="B"), max=5),
            Quantity(id="c", label=Text(fr="C", en="C"), max=5),
        ],
        totals=[Total(of=["a", "b"], min=2), Total(of=["b", "c"], max=4)],
    )
    d = _decision(ask, n=0)
    reason = _refusal(d, amounts={"a": 1, "c": 5})
    assert reason.en == "The total must be at least 2 (you have 1)."
    assert reason.fr == "Le total doit faire au moins 2 (vous en êtes à 1)."
    reason = _refusal(d, amounts={"a": 2, "b": 1, "c": 4})
    assert reason.en == "The total must be at most 4 (you have 5)."
    assert check_answer(d, Choice(seat=0, key="k", amounts={"a": 2, "c": 4})).amounts["c"] == 4
    assert allocation_ok(ask, {"a": 2, "c": 4}) and not allocation_ok(ask, {"a": 1})


def test_allocation_refuses_unknown_quantities_and_other_shapes() -> None:
    d = _decision(ALLOC, n=2)
    assert _refusal(d, amounts={"ammo": 2, "wood": 1, "gold": 0}) == NOT_ALLOWED
    assert _refusal(d, option="z0").en == "That answer does not fit this question."
    assert _refusal(d, options=["z0"]).en == "That answer does not fit this question."
    assert _refusal(d).en == "That answer does not fit this question."


# --- AI replies -----------------------------------------------------------------------------
def test_reply_choice_shapes_an_ai_reply_and_refuses_the_wrong_kind() -> None:
    assert reply_choice(_decision(One()), "z1").option == "z1"
    assert reply_choice(_decision(Order()), ["z1", "z0"]).options == ["z1", "z0"]
    assert reply_choice(_decision(ALLOC), {"ammo": 1}).amounts == {"ammo": 1}
    with pytest.raises(TypeError):
        reply_choice(_decision(One()), ["z1"])
    with pytest.raises(TypeError):
        reply_choice(_decision(Many()), "z1")
    with pytest.raises(TypeError):
        reply_choice(_decision(ALLOC), ["z1"])


# --- through a match: nothing changes on refusal --------------------------------------------
SEATS = [SeatSpec(name="Ann"), SeatSpec(name="Bob")]


def _to(kind: str) -> tuple[Match, Decision]:
    """A test-shapes match played by its AI up to the first decision of ``kind``."""
    m = Match.create("test-shapes", SEATS, seed="answers")
    while True:
        d = m.pending()[0]
        if d.kind == kind:
            return m, d
        m.apply(m.ai_choice(d))


def _frozen(m: Match) -> str:
    return json.dumps(
        [m.snapshot(), [c.log_data() for c in m.choices], [e.model_dump() for e in m.events]],
        sort_keys=True,
    )


@pytest.mark.parametrize(
    ("kind", "bad"),
    [
        ("gem", {"option": "pearl"}),
        ("gem", {"options": ["ruby"]}),
        ("cards", {"options": []}),
        ("cards", {"options": ["c1", "c2", "c3"]}),
        ("cards", {"options": ["c1", "c1"]}),
        ("cards", {"option": "c1"}),
        ("order", {"options": ["agaric", "baobab"]}),
        ("order", {"options": ["agaric", "baobab", "agaric"]}),
        ("harvest", {"amounts": {"stone": 4}}),
        ("harvest", {"amounts": {"wood": 0, "stone": 0, "hunt": 0}}),
        ("harvest", {"amounts": {"gold": 1}}),
        ("harvest", {"options": ["wood"]}),
    ],
)
def test_a_refused_answer_changes_nothing_in_the_match(kind: str, bad: dict[str, object]) -> None:
    m, d = _to(kind)
    before = _frozen(m)
    with pytest.raises(IllegalDecision) as exc:
        m.apply(Choice(seat=d.seat, key=d.key, **bad))  # type: ignore[arg-type]
    assert exc.value.reason.fr != exc.value.reason.en
    assert _frozen(m) == before


def test_an_answer_the_game_refuses_after_the_checks_changes_nothing() -> None:
    """test-shapes hunts in pairs, which an Allocation cannot say: the game refuses an odd
    hunt after the engine accepted the amounts, and the copy it mutated is dropped."""
    m, d = _to("harvest")
    h = m.state.harvest
    hunt = 1 if h <= 5 else 3  # odd, and leaves at most 4 for the cart
    odd = {"wood": h - hunt, "stone": 0, "hunt": hunt}
    assert isinstance(m.check(Choice(seat=d.seat, key=d.key, amounts=odd)), Answer)
    before = _frozen(m)
    with pytest.raises(IllegalDecision) as exc:
        m.apply(Choice(seat=d.seat, key=d.key, amounts=odd))
    assert exc.value.reason.en == "Hunting goes in pairs."
    assert _frozen(m) == before


def test_the_game_reads_typed_args_of_many_and_order_answers() -> None:
    m, d = _to("cards")
    assert [o.args for o in d.options] == [Card(value=v) for v in (1, 2, 3, 4)]
    score = list(m.state.score)
    m.apply(Choice(seat=d.seat, key=d.key, options=["c4", "c1"]))
    assert m.state.score[d.seat] == score[d.seat] + 5
    assert 4 not in m.state.hands[d.seat] and 1 not in m.state.hands[d.seat]
    m, d = _to("order")
    assert [o.args for o in d.options] == [Fighter(name=n) for n in ("Agaric", "Baobab", "Cactus")]
    score = list(m.state.score)
    m.apply(Choice(seat=d.seat, key=d.key, options=["cactus", "agaric", "baobab"]))
    assert m.state.score[d.seat] == score[d.seat] + 2  # Cactus first: index 2
