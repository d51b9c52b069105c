"""Shared helpers for the MAD tests: build positions and states by hand."""

from __future__ import annotations

from typing import Any

from bot.engine.decisions import Decision
from bot.engine.dice import DiceState, FairRng
from bot.engine.events import AnyEvent
from bot.engine.game import Ctx
from bot.games.mad.core import EXILE, KIND_INDEX, Position, board
from bot.games.mad.game import GAME
from bot.games.mad.state import MadState
from tests.support.play import answer, only_pending


def place(board_id: str, spec: str) -> Position:
    """``"R111@b1 B111@b6 R211@c4"``: ships not named are in exile."""
    b = board(board_id)
    pos = [EXILE] * 16
    for item in spec.split():
        ship, sq = item.split("@")
        side = {"R": 0, "B": 1}[ship[0]]
        s = b.square(sq)
        assert s is not None, item
        assert s not in pos, f"two ships on {sq}"
        pos[side * 8 + KIND_INDEX[ship[1:]]] = s
    return tuple(pos)


def state(board_id: str, spec: str, to_move: int = 0, turn: int = 10, **kw: Any) -> MadState:
    """A mid-game state (past the positioning turns unless ``turn`` < 2)."""
    return MadState(
        board=board_id, pos=list(place(board_id, spec)), to_move=to_move, turn=turn, **kw
    )


def decision(st: MadState) -> Decision:
    return only_pending(GAME, st)


def ids(st: MadState) -> set[str]:
    return {o.id for o in decision(st).options}


def play(st: MadState, option: str, seat: int | None = None) -> list[AnyEvent]:
    """Apply an option to ``st`` in place, as the engine would (on a legal option)."""
    d = decision(st)
    assert d.option(option) is not None, f"{option} not in {sorted(o.id for o in d.options)}"
    return answer(GAME, st, d, Ctx(FairRng(DiceState(seed="test"))), option=option, seat=seat)
