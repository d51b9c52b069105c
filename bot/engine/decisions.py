"""Decisions pending in a match and the choices that answer them.

A :class:`Decision` belongs to one seat and lists every legal
:class:`Option`. Several decisions can be pending at once (simultaneous secret
picks; one seat controlling several fighters). ``key`` identifies a decision
across versions: a button made for it stays valid until that key is answered
or withdrawn, even while other seats answer theirs.

What a decision asks for is its :data:`Ask`:
- :class:`One`: exactly one option (a card, a hex, a ship);
- :class:`Many`: several distinct options at once, between ``min`` and ``max``;
- :class:`Order`: the options put in an order (Baobab's strike order);
- :class:`Allocation`: whole amounts over named quantities, each bounded, with
  totals that must hold ("cover a difference of 3 with ammo and/or resources").

Options carry typed :attr:`Option.args` (a game's own pydantic model), so a
game reads ``answer.option.args`` instead of taking an id string apart; the
id stays an opaque, stable key (stored in the decision log).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SerializeAsAny

from bot.engine.text import Text

Timing = Literal["pick", "turn", "action", "reaction"]
"""Which deadline applies: card picks and turns, in-action choices, reactions."""

Style = Literal["primary", "secondary", "success", "danger"]


class Args(BaseModel):
    """Base of a game's typed option arguments (``Move(zone=3)``, ``Attack(target=...)``).

    Games subclass it (frozen pydantic models) and match on the subclass, e.g.
    ``match answer.option.args: case Move(zone=z): ...``.
    """

    model_config = ConfigDict(frozen=True)


class Option(BaseModel):
    """One legal answer. ``id`` is what :class:`Choice` sends back.

    ``group`` lets a front end build a two-level menu (ship, then destination)
    from a flat list. ``stats`` holds the values a player needs to see on a
    button (a card's initiative, move...); their keys are the game's declared
    stats (:class:`bot.engine.vocabulary.StatInfo`).
    """

    id: str
    label: Text
    args: SerializeAsAny[Args] | None = None
    """What this option means, typed: the game reads this, never ``id``."""
    group: Text | None = None
    detail: Text | None = None
    stats: dict[str, int | str] = Field(default_factory=dict)
    emoji: str | None = None
    style: Style = "secondary"
    row: int | None = None
    """Front-end layout hint: the button row (0-4) this option sits on, e.g. a hex
    compass (NW NE / W E / SW SE). Options without one are packed after."""


# --- what a decision asks for ---------------------------------------------------------------
class One(BaseModel):
    """Exactly one of the options."""

    kind: Literal["one"] = "one"


class Many(BaseModel):
    """Between ``min`` and ``max`` distinct options (``max`` None: up to all of them)."""

    kind: Literal["many"] = "many"
    min: int = 0
    max: int | None = None


class Order(BaseModel):
    """Every option exactly once, in the order the player wants."""

    kind: Literal["order"] = "order"


class Quantity(BaseModel):
    """One named amount of an :class:`Allocation` (ammo, wood, hunting...)."""

    id: str
    label: Text
    min: int = 0
    max: int
    emoji: str | None = None


class Total(BaseModel):
    """A sum that must hold: of the named quantities (all of them when empty)."""

    of: list[str] = Field(default_factory=list)
    min: int | None = None
    max: int | None = None
    label: Text | None = None
    """How a player reads this constraint ("the difference to cover")."""


class Allocation(BaseModel):
    """Whole amounts over named quantities, each in its bounds, with totals that hold."""

    kind: Literal["allocation"] = "allocation"
    quantities: list[Quantity]
    totals: list[Total] = Field(default_factory=list)

    def quantity(self, qid: str) -> Quantity | None:
        for q in self.quantities:
            if q.id == qid:
                return q
        return None


Ask = Annotated[One | Many | Order | Allocation, Field(discriminator="kind")]


class Decision(BaseModel):
    """A question awaiting one seat's answer."""

    key: str
    seat: int
    kind: str
    prompt: Text
    options: list[Option] = Field(default_factory=list)
    ask: Ask = Field(default_factory=One)
    args: SerializeAsAny[Args] | None = None
    """What this question is about, typed (e.g. which fighter picks): the game
    reads this when applying, never parts of ``key``."""
    timing: Timing = "turn"
    secret: bool = False
    subject: str | None = None
    """The fighter/piece this decision is for, named in every prompt."""
    hint: Text | None = None
    """A line shown only in the private prompt (e.g. how to type the move instead)."""

    def option(self, option_id: str) -> Option | None:
        for opt in self.options:
            if opt.id == option_id:
                return opt
        return None

    @property
    def structured(self) -> bool:
        """Whether the answer is built in several parts (a draft) rather than one click."""
        return not isinstance(self.ask, One)


class Choice(BaseModel):
    """An answer as logged: which seat, for which pending decision, and what.

    Exactly one of ``option`` (:class:`One`), ``options`` (:class:`Many`, or
    :class:`Order` in its order) and ``amounts`` (:class:`Allocation`) is set.
    """

    seat: int
    key: str
    option: str | None = None
    options: list[str] | None = None
    amounts: dict[str, int] | None = None

    def log_data(self) -> dict[str, Any]:
        """Only the fields in use: old logs (``seat``, ``key``, ``option``) read the same."""
        return self.model_dump(exclude_none=True)


class Answer:
    """A :class:`Choice` checked against its :class:`Decision`: what a game applies.

    It keeps ``seat``/``key``/``option`` readable like the choice, and gives the
    chosen :class:`Option` objects (with their typed ``args``) and amounts.
    """

    __slots__ = ("choice", "decision", "chosen", "amounts")

    def __init__(
        self,
        choice: Choice,
        decision: Decision,
        chosen: list[Option],
        amounts: dict[str, int],
    ) -> None:
        self.choice = choice
        self.decision = decision
        self.chosen = chosen
        """The chosen options: one for :class:`One`, the set or the order otherwise."""
        self.amounts = amounts
        """Every quantity of an :class:`Allocation` (0 where not given)."""

    @property
    def seat(self) -> int:
        return self.choice.seat

    @property
    def key(self) -> str:
        return self.choice.key

    @property
    def picked(self) -> Option:
        """The one chosen option of a :class:`One` decision."""
        if len(self.chosen) != 1:
            raise ValueError("this answer has no single option")
        return self.chosen[0]

    @property
    def option(self) -> str:
        """The chosen option's id (for a :class:`One` decision)."""
        return self.picked.id

    @property
    def args(self) -> Args | None:
        """The chosen option's typed arguments (for a :class:`One` decision)."""
        return self.picked.args
