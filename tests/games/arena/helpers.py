"""Shared helpers: arranged positions for Arena! rule tests, played as the engine would.

Dice come from :mod:`tests.support.dice` (scripted) and answers go through
:func:`tests.support.play.answer`, which checks them against the decision first.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import bot.games.arena  # noqa: F401  (registers the game)
from bot.engine.events import AnyEvent
from bot.games.arena.board import Hex
from bot.games.arena.game import ArenaGame
from bot.games.arena.rules import begin_turn
from bot.games.arena.state import ArenaState, Fighter
from tests.support.dice import ScriptedCtx
from tests.support.play import answer, option_ids

GAME = ArenaGame()
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
COLOURS = ["red", "blue", "green", "yellow", "violet", "orange"]


def arrange(positions: list[Hex], acting: int = 0, **overrides: Any) -> ArenaState:
    """A state with fighters on ``positions``; ``acting`` starts its turn now.

    ``overrides`` maps ``"f<seat>"`` to a dict of Fighter fields.
    """
    fighters = [
        Fighter(seat=i, name=NAMES[i], colour=COLOURS[i], pos=p) for i, p in enumerate(positions)
    ]
    for key, fields in overrides.items():
        seat = int(key[1:])
        for k, v in fields.items():
            setattr(fighters[seat], k, v)
    n = len(positions)
    state = ArenaState(fighters=fighters, order=[(acting + i) % n for i in range(n)])
    begin_turn(state, ScriptedCtx())
    return state


def play(state: ArenaState, seat: int, *options: str, dice: Iterable[int] = ()) -> list[AnyEvent]:
    """Answer ``options`` in order for ``seat`` (each must be offered), rolling ``dice``."""
    ctx = ScriptedCtx(dice)
    for opt in options:
        pending = GAME.pending(state)
        assert pending, f"nothing pending before {opt!r}"
        decision = pending[0]
        assert decision.seat == seat, (decision.seat, seat)
        offered = option_ids(decision)
        assert opt in offered, f"{opt!r} not offered at {decision.key}: {offered}"
        answer(GAME, state, decision, ctx, option=opt)
    assert ctx.left() == [], f"unused scripted dice: {ctx.left()}"
    return ctx.events


def offered(state: ArenaState) -> list[str]:
    return option_ids(GAME.pending(state)[0])


def steps(state: ArenaState) -> list[str]:
    """The single-step options (the "step by step" group), in compass order."""
    from bot.games.arena.args import Step

    return [o.id for o in GAME.pending(state)[0].options if isinstance(o.args, Step)]


def kind(state: ArenaState) -> str:
    return GAME.pending(state)[0].kind
