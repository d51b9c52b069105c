"""The persisted match state (pydantic) and the bilingual names of ships and sides."""

from __future__ import annotations

from typing import Any, Final

from pydantic import BaseModel, Field

from bot.engine.text import Text
from bot.games.mad.core import BLUE, KINDS, RED, Board, Position, board

TIEBREAK_TURNS: Final = 40
"""Départage: 40 consecutive turns (both sides counted) with the same ship count."""

SIDE_NAMES = {RED: Text(fr="Rouge", en="Red"), BLUE: Text(fr="Bleu", en="Blue")}
SIDE_ADJ = {RED: Text(fr="rouge", en="red"), BLUE: Text(fr="bleu", en="blue")}
SIDE_ADJ_F = {RED: Text(fr="rouge", en="red"), BLUE: Text(fr="bleue", en="blue")}
"""For the feminine ship names (corvette, frégate)."""


def kind_name(kind: int) -> Text:
    code = KINDS[kind]
    if code == "111":
        return Text(fr="Corvette", en="Corvette")
    if code == "222":
        return Text(fr="Croiseur", en="Cruiser")
    if code.count("2") == 1:
        return Text(fr="Frégate", en="Frigate")
    return Text(fr="Destroyer", en="Destroyer")


def ship_text(ship: int, with_side: bool = False) -> Text:
    """``Frégate 112`` / ``Frigate 112`` (optionally ``... rouge`` / ``red ...``)."""
    side, kind = divmod(ship, 8)
    n = kind_name(kind)
    if not with_side:
        return Text(fr=f"{n.fr} {KINDS[kind]}", en=f"{n.en} {KINDS[kind]}")
    a = (SIDE_ADJ_F if n.fr in ("Corvette", "Frégate") else SIDE_ADJ)[side]
    return Text(fr=f"{n.fr} {KINDS[kind]} {a.fr}", en=f"{a.en} {n.en.lower()} {KINDS[kind]}")


class LastTurn(BaseModel):
    """What the renderer highlights: the displacement, teleports and expulsions."""

    side: int
    text: str
    ship: int | None = None
    src: int | None = None
    dst: int | None = None
    via: int | None = None
    """The free square a two-square displacement went through (drawn, never a diagonal)."""
    expelled: list[int] = Field(default_factory=list)
    """Ships expelled by the displacement."""
    teleported: list[int] = Field(default_factory=list)
    """Ships that changed place (or went to/came from exile) by teleport."""


class MadResult(BaseModel):
    winner: int
    kind: str
    """``corvette``, ``tiebreak_turns`` or ``tiebreak_agreed``."""


class MadState(BaseModel):
    board: str = "6x4"
    positioning: bool = True
    ai_level: str = "hard"
    pos: list[int]
    to_move: int = RED
    turn: int = 0
    """Turns played so far (both sides)."""
    streak: int = 0
    """Consecutive turns that ended with the same number of ships in the arena."""
    last_expeller: int | None = None
    history: list[str] = Field(default_factory=list)
    last: LastTurn | None = None
    draw_offer: int | None = None
    """The side proposing the tie-break, awaiting the other's answer."""
    offers_this_turn: int = 0
    result: MadResult | None = None

    def geometry(self) -> Board:
        return board(self.board)

    def position(self) -> Position:
        return tuple(self.pos)

    def positioning_turn(self) -> bool:
        """Tour de positionnement: each side's first turn, when the option is on."""
        return self.positioning and self.turn < 2

    def tiebreak_winner(self) -> int:
        """Départage: the last side to expel an enemy ship, else blue."""
        return BLUE if self.last_expeller is None else self.last_expeller

    def dump(self) -> dict[str, Any]:
        return self.model_dump(mode="json")
