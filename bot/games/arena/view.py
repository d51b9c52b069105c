"""The typed view of Arena!: everything is public, so every seat sees the same.

The numbers the rules derive (each posture's move after the handicap, its dice
after the disarm penalty, the exact hexes of this turn, the move left, the
rounds left) are computed here once, by the rules' own functions; the renderer
and the AI read them and never re-derive a rule.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from bot.engine.copying import copy_state
from bot.engine.game import View
from bot.games.arena.board import CORNERS, HEXES, Hex, label
from bot.games.arena.postures import POSTURES, ROUNDS
from bot.games.arena.rules import (
    PostureDice,
    attack_targets,
    blocked_hexes,
    current_seat,
    posture_dice,
    posture_key,
    remaining_steps,
    required_length,
)
from bot.games.arena.state import ArenaState, Fighter, TurnRecord

SPACES: tuple[str, ...] = (*POSTURES, "sol")
"""The spaces of the posture track: the five postures and "au sol"."""


class HexView(BaseModel):
    q: int
    r: int
    label: str


class FighterView(BaseModel):
    seat: int
    name: str
    colour: str
    pos: Hex
    hex: str
    hp: int
    posture: str
    """The space its pawn is on: a posture, or "sol" when on the ground."""
    down: bool
    disarmed: bool
    weapon_at: Hex | None
    out: bool
    resting: bool
    spaces: dict[str, PostureDice]
    """Each space of the track as it would be for this fighter now."""
    attack: int
    """Attack dice of its current space."""
    defence: int
    """Defence dice of its current space: what it rolls if attacked now."""
    can_attack: list[int]
    """Seats it could attack from where it stands now (adjacent, with dice to roll)."""


class TurnView(BaseModel):
    seat: int
    step: str
    posture: str | None
    """The posture taken this turn ("sol" when staying down), once chosen."""
    path: list[Hex]
    """Hexes visited this turn, the starting hex first."""
    required: int
    """Hexes the move must cross this turn (fixed when the posture is taken)."""
    remaining: int | None
    """Hexes still to cross, during the fight step."""
    attacked: bool
    blocked: list[Hex]
    """Hexes the acting fighter may neither cross nor stop on (every other pawn)."""
    lengths: dict[str, int] = Field(default_factory=dict)
    """Before the posture: the exact hexes each posture would make it cross now
    (handicap and the longest-path fallback included)."""


class ArenaView(View):
    game: str = "arena"
    round: int
    rounds: int
    rounds_left: int
    """Rounds still to start after this one; the match ends after round ``rounds``."""
    order: list[int]
    current: int | None
    hexes: list[HexView]
    corners: list[Hex]
    fighters: list[FighterView]
    turn: TurnView | None
    last: TurnRecord | None
    finished: bool
    winner: int | None

    def fighter(self, seat: int) -> FighterView:
        return self.fighters[seat]


def _fighter(state: ArenaState, f: Fighter) -> FighterView:
    spaces = {s: posture_dice(f, s) for s in SPACES}
    now = spaces[posture_key(f)]
    return FighterView(
        seat=f.seat,
        name=f.name,
        colour=f.colour,
        pos=f.pos,
        hex=label(f.pos),
        hp=f.hp,
        posture=posture_key(f),
        down=f.down,
        disarmed=f.disarmed,
        weapon_at=f.weapon_at,
        out=f.out,
        resting=f.resting,
        spaces=spaces,
        attack=now.attack,
        defence=now.defence,
        can_attack=[] if f.out else [t.seat for t in attack_targets(state, f.seat)],
    )


_HEXES = tuple(HexView(q=h[0], r=h[1], label=label(h)) for h in HEXES)
"""The board's hexes, the same in every view: built once (views are never changed)."""


def build_view(state: ArenaState) -> ArenaView:
    turn = state.turn
    turn_view: TurnView | None = None
    if turn is not None:
        turn_view = TurnView(
            seat=turn.seat,
            step=turn.step,
            posture="sol" if turn.stay_down else turn.posture,
            path=list(turn.path),
            required=turn.required,
            remaining=max(0, remaining_steps(turn)) if turn.step == "fight" else None,
            attacked=turn.attacked,
            blocked=sorted(blocked_hexes(state, turn.seat)),
            lengths=(
                {p: required_length(state, turn.seat, p) for p in POSTURES}
                if turn.step == "posture"
                else {}
            ),
        )
    return ArenaView(
        round=state.round,
        rounds=ROUNDS,
        rounds_left=ROUNDS - state.round,
        order=list(state.order),
        current=None if state.finished else current_seat(state),
        hexes=list(_HEXES),
        corners=list(CORNERS),
        fighters=[_fighter(state, f) for f in state.fighters],
        turn=turn_view,
        last=copy_state(state.last) if state.last else None,
        finished=state.finished,
        winner=state.winner,
    )
