"""MAD's typed view: what the renderer and the prompts read (everything in MAD is public).

Numbers the rules derive (whose turn, whether it is a positioning turn, how
many turns are left before the 40-turn tie-break, who would win a tie-break
now, whether the last move earned its bonus) are computed once by
:meth:`bot.games.mad.game.MadGame.view`; the renderer never re-derives them.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from bot.engine.game import View
from bot.engine.text import Text


class ShipView(BaseModel):
    """One ship: ``id`` 0-7 red, 8-15 blue; ``kind`` its three numbers; ``square`` None in exile."""

    id: int
    side: int
    kind: str
    square: str | None


class LastView(BaseModel):
    """The last turn, as the renderer highlights it (squares by name)."""

    side: int
    text: str
    """Its notation (``b3xb4``, ``112=221``...)."""
    kind: str | None = None
    """The displaced ship's numbers (None for a teleport or a pass)."""
    src: str | None = None
    dst: str | None = None
    via: str | None = None
    """The free square a two-square displacement went through (never a diagonal)."""
    expelled: list[int] = Field(default_factory=list)
    teleported: list[int] = Field(default_factory=list)
    bonus: bool = False
    """Whether the displacement was followed by its bonus teleport ("Coup bonus")."""


class ResultView(BaseModel):
    winner: int
    kind: str
    """``corvette``, ``tiebreak_turns`` or ``tiebreak_agreed``."""
    half: bool
    """A half victory (a tie-break)."""
    reason: Text


class MadView(View):
    """The whole board and counters of a MAD match."""

    game: str = "mad"
    board: str
    rows: int
    cols: int
    ships: list[ShipView]
    to_move: int
    """The side whose turn it is (0 red, 1 blue)."""
    turn: int
    """Turns played so far (both sides)."""
    turn_number: int
    """The turn being played, from 1."""
    positioning_turn: bool
    """Whether the side to move plays its positioning turn ("Tour de positionnement")."""
    streak: int
    """Consecutive turns without a change in the number of ships in the arena."""
    tiebreak_turns: int
    """The streak that ends the match ("Départage": 40)."""
    turns_left: int
    """Turns left before that tie-break ends the match."""
    last_expeller: int | None
    tiebreak_winner: int
    """The side a tie-break would give the half victory now (the last to expel, else blue)."""
    draw_offer: int | None
    """The side proposing the tie-break, awaiting the other's answer."""
    history: list[str]
    last: LastView | None = None
    result: ResultView | None = None
    seat: int | None = None
