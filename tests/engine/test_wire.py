"""A decision crosses to a worker process as its JSON and its arguments' classes
(:mod:`bot.engine.wire`); the contract test checks every game's decisions come back
equal, these check what is sent."""

from __future__ import annotations

import pickle

from bot.engine import Match, SeatSpec
from bot.engine.wire import DecisionWire
from bot.render.cache import decision_json


def test_no_pydantic_model_is_pickled() -> None:
    """What made pickling slow: the models' state, option by option. The wire holds bytes
    and classes (pickled as their names) only."""
    match = Match.create("mad", [SeatSpec(name="A"), SeatSpec(name="B")], "wire", "duel")
    decision = match.pending()[0]
    assert any(o.args is not None for o in decision.options)
    model = pickle.dumps(decision, protocol=pickle.HIGHEST_PROTOCOL)
    wire = pickle.dumps(DecisionWire.of(decision), protocol=pickle.HIGHEST_PROTOCOL)
    assert b"__pydantic_fields_set__" in model
    assert b"__pydantic_fields_set__" not in wire
    assert pickle.loads(wire).decision() == decision


def test_the_image_keys_json_is_the_one_sent() -> None:
    """The drawing sends the bytes its image key hashed (serialised once per decision)."""
    match = Match.create("mad", [SeatSpec(name="A"), SeatSpec(name="B")], "wire", "duel")
    decision = match.pending()[0]
    raw = decision_json(decision)
    assert decision_json(decision) is raw
    wire = DecisionWire.of(decision)
    assert wire.json is raw
    assert wire.decision() == decision


def test_a_decision_without_typed_arguments_travels() -> None:
    """Arena!'s decisions carry no ``args`` of their own: None stands in its place."""
    match = Match.create("arena", [SeatSpec(name="A"), SeatSpec(name="B")], "wire", "melee")
    decisions = match.pending()
    assert decisions
    for decision in decisions:
        assert decision.args is None
        wire = DecisionWire.of(decision)
        assert wire.classes[0] is None
        assert len(wire.classes) == 1 + len(decision.options)
        assert pickle.loads(pickle.dumps(wire)).decision() == decision
