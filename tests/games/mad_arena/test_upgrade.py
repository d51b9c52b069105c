"""Older decision logs (format 1) replay to the same rolls and result.

Before the strike order (Bottes secrètes: "the player orders the fighters
there") and the dragon's split (RULINGS: "the 5 ranged dice may be split
before rolling") were one answer each, logs answered them one fighter per
decision; those steps are translated into today's whole answer.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import bot.games.mad_arena  # noqa: F401
from bot.engine import Choice, Match, SeatSpec
from bot.engine.events import RollEvent
from bot.engine.log import parse_log
from tests.games.mad_arena.helpers import GAME, ScriptedCtx, begin, build, do
from tests.support.play import only_pending

D = "zamioculcas"
GOLDEN = Path(__file__).resolve().parents[2] / "golden"


def _old(seat: int, key: str, option: str) -> Choice:
    return Choice(seat=seat, key=key, option=option)


def test_old_strike_steps_become_one_order_with_the_last_fighter_added() -> None:
    st = build(["baobab", "agaric", "bonzai", "cactus"], zones={"bonzai": 1, "cactus": 1})
    ctx = begin(st, "baobab", "baobab-strike", ScriptedCtx([6, 4, 3, 2]))
    do(st, "zone-z1", ctx)
    d = only_pending(GAME, st)
    first = _old(d.seat, d.key, "order-agaric")
    assert GAME.upgrade_choice(st, [d], [first]) is None  # one more place to fill
    # The second old step had the next key (one per step): it still belongs here.
    second = _old(d.seat, "r1:baobab:a2", "order-cactus")
    assert GAME.upgrade_choice(st, [d], [first, second]) == Choice(
        seat=d.seat, key=d.key, options=["order-agaric", "order-cactus", "order-bonzai"]
    )


def test_old_split_steps_become_one_allocation_the_last_taking_the_rest() -> None:
    st = build(["agaric", "bonzai", "cactus", D], zones={"bonzai": 0, "cactus": 0})
    ctx = begin(st, D, None, ScriptedCtx([6] * 5))
    do(st, "zone-z0", ctx)
    d = only_pending(GAME, st)
    two = _old(d.seat, d.key, "dice-2")
    assert GAME.upgrade_choice(st, [d], [two]) is None
    one = _old(d.seat, "r1:zamioculcas:a2", "dice-1")
    assert GAME.upgrade_choice(st, [d], [two, one]) == Choice(
        seat=d.seat, key=d.key, amounts={"agaric": 2, "bonzai": 1, "cactus": 2}
    )
    # All five on the first fighter: the others got nothing, without being asked.
    five = _old(d.seat, d.key, "dice-5")
    assert GAME.upgrade_choice(st, [d], [five]) == Choice(
        seat=d.seat, key=d.key, amounts={"agaric": 5, "bonzai": 0, "cactus": 0}
    )
    # More dice than are left was never offered: the engine refuses it as it stands.
    six = _old(d.seat, d.key, "dice-6")
    assert GAME.upgrade_choice(st, [d], [six]) == six


def test_a_shifted_old_key_answers_the_one_action_decision_pending() -> None:
    """After a whole answer, old logs' later keys in the action are one per old step further."""
    st = build(["agaric", "bonzai", "cactus", "sorgho"])
    begin(st, "agaric", "agaric-1")
    d = only_pending(GAME, st)
    old = _old(d.seat, "r1:agaric:a7", "move-z1")
    assert GAME.upgrade_choice(st, [d], [old]) == Choice(seat=d.seat, key=d.key, option="move-z1")


@pytest.mark.parametrize(
    "name",
    ["mad-arena-ultimate-warrior-5p-seed18.md", "mad-arena-ultimate-warrior-6p-seed42.md"],
)
def test_golden_logs_with_old_strike_and_split_steps_replay_the_same(name: str) -> None:
    data = parse_log((GOLDEN / name).read_text(encoding="utf-8"))
    assert "format" not in data  # recorded before the change
    old = [Choice.model_validate(c) for c in data["choices"]]
    assert any((c.option or "").startswith("order-") for c in old)
    assert any((c.option or "").startswith("dice-") for c in old)
    m = Match.replay(
        data["game"],
        [SeatSpec.model_validate(s) for s in data["seats"]],
        data["seed"],
        data["mode"],
        data["options"],
        old,
        log_format=1,
    )
    logged = [e["dice"] for e in data["events"] if e.get("kind") == "roll"]
    assert [e.dice for e in m.events if isinstance(e, RollEvent)] == logged
    out = m.outcome()
    assert out is not None and out.model_dump(mode="json") == data["outcome"]
    # Today's log holds whole answers: an order and a split.
    assert any(c.options for c in m.choices) and any(c.amounts for c in m.choices)
