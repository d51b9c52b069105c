"""The contract every game implements, and what the engine hands it.

A game is a state machine over its own state type ``S``:
``setup`` from seats, options and randomness; ``pending`` decisions with their
legal options; ``apply`` one choice (mutating the copy it is given, emitting
events through :class:`Ctx`); ``view`` per seat with secrets stripped;
``outcome`` once over. The engine (:mod:`bot.engine.match`) owns versioning,
staleness, copies, the RNG and the log, so games only write rules.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from typing import Any, ClassVar, Generic, Literal, TypeVar, cast

from pydantic import BaseModel, Field

from bot.engine.decisions import Answer, Choice, Decision
from bot.engine.dice import FairRng
from bot.engine.events import AnyEvent, Event, RollEvent
from bot.engine.seating import SeatChoice
from bot.engine.text import Text
from bot.engine.vocabulary import LevelInfo, StatInfo

S = TypeVar("S")
V = TypeVar("V", bound=BaseModel)

Reply = str | list[str] | dict[str, int]
"""What an AI answers: an option id (One), option ids (Many, Order) or amounts (Allocation)."""


class View(BaseModel):
    """Base of a game's typed view: what one seat (or the public) may see.

    Games subclass it; numbers the rules derive (initiative now, effective dice,
    rounds left) are fields computed once by the rules, so renderers, AIs and
    prompts read them instead of re-deriving a rule.
    """


class SeatSpec(BaseModel):
    """Who sits in a seat: a Discord user or the AI."""

    name: str
    user_id: int | None = None
    ai: bool = False
    ai_level: str | None = None
    choices: dict[str, str] = Field(default_factory=dict)
    """Values of the game's per-seat lobby choices (``GameInfo.seat_choices``) by choice
    id; a seat without one lets the game decide (a fighter dealt at random)."""


class ModeInfo(BaseModel):
    id: str
    names: Text
    player_counts: list[int]
    """Valid numbers of people (seats), not fighters."""
    summary: Text | None = None


class OptionSpec(BaseModel):
    """A host option offered at ``/arena start`` (choices, never free text)."""

    id: str
    names: Text
    type: Literal["bool", "int", "choice", "path", "text"]
    """``path``: a file on the bot's host; ``text``: inline content (an uploaded file's
    text, kept in the options so a replay needs nothing else). Neither is offered in
    lobby menus."""
    upload_for: str | None = None
    """On a ``text`` option: the ``path`` option whose file a host may upload instead
    (``/arena start`` with a file); the text wins over the path."""
    default: Any
    choices: list[tuple[str, Text]] = Field(default_factory=list)
    min: int | None = None
    max: int | None = None
    help: Text | None = None


class GameInfo(BaseModel):
    id: str
    names: Text
    min_players: int
    max_players: int
    modes: list[ModeInfo]
    options: list[OptionSpec] = Field(default_factory=list)
    summary: Text
    """A rules summary for ``/arena rules``."""
    stats: list[StatInfo] = Field(default_factory=list)
    """The stats its options show (``Option.stats`` keys), with symbols and names."""
    stat_values: dict[str, Text] = Field(default_factory=dict)
    """Word values a stat may take (a card's ``gong`` initiative), by value."""
    subjects: dict[str, Text] = Field(default_factory=dict)
    """Subjects named by an id in ``Decision.subject`` (MAD's ``red``), by id."""
    ai_levels: list[LevelInfo] = Field(default_factory=list)
    """Its AI levels, the default first."""
    seat_choices: list[SeatChoice] = Field(default_factory=list)
    """Choices each seat makes in the lobby (a fighter, a team), read by ``setup``."""

    def stat(self, key: str) -> StatInfo | None:
        for s in self.stats:
            if s.key == key:
                return s
        return None

    def upload_option(self) -> OptionSpec | None:
        """The inline-data option a host may fill by uploading a file, if any."""
        for o in self.options:
            if o.upload_for is not None:
                return o
        return None

    def mode(self, mode_id: str | None) -> ModeInfo:
        if mode_id is None:
            return self.modes[0]
        for m in self.modes:
            if m.id == mode_id:
                return m
        raise KeyError(mode_id)

    def player_counts(self, mode_id: str | None = None) -> list[int]:
        return self.mode(mode_id).player_counts

    def default_options(self) -> dict[str, Any]:
        return {o.id: o.default for o in self.options}


class Outcome(BaseModel):
    """How a match ended. ``winners`` are seat indices (empty: nobody won)."""

    winners: list[int]
    reason: Text
    scores: dict[int, float] = Field(default_factory=dict)
    half: bool = False
    """A half victory (MAD's tie-break)."""
    shared: bool = False


class Ctx:
    """What ``setup``/``apply`` may touch besides the state: the RNG and the event list."""

    def __init__(self, rng: FairRng) -> None:
        self.rng = rng
        self.events: list[AnyEvent] = []

    def emit(
        self,
        type: str,
        text: Text,
        visible_to: list[int] | None = None,
        **data: Any,
    ) -> Event:
        ev = Event(type=type, text=text, data=data, visible_to=visible_to)
        self.events.append(ev)
        return ev

    def roll(
        self,
        count: int,
        roller: str,
        purpose: Text,
        target: int | None = None,
        sides: int = 6,
        modifier: int = 0,
        **data: Any,
    ) -> RollEvent:
        """Roll ``count`` dice on the match stream and log it.

        The caller sets ``.result`` (hits, HP before -> after) once it knows it;
        events are frozen only when ``apply`` returns.
        """
        dice, indices = self.rng.dice(count, sides)
        ev = RollEvent(
            roller=roller,
            purpose=purpose,
            dice=dice,
            indices=indices,
            sides=sides,
            target=target,
            modifier=modifier,
            data=data,
        )
        self.events.append(ev)
        return ev


class Game(ABC, Generic[S, V]):
    """Base class of a game's rules. Subclasses are stateless singletons."""

    info: ClassVar[GameInfo]
    state_model: ClassVar[type[BaseModel] | None] = None
    """The game's pydantic state type, if it has one: then ``dump``/``load`` are given."""

    # --- lifecycle -----------------------------------------------------------------
    @abstractmethod
    def setup(self, seats: list[SeatSpec], mode: str, options: dict[str, Any], ctx: Ctx) -> S:
        """The initial state. Raise :class:`IllegalDecision` for a bad seat count/option."""

    @abstractmethod
    def pending(self, state: S) -> list[Decision]:
        """Every decision awaited now (empty when over)."""

    @abstractmethod
    def apply(self, state: S, answer: Answer, ctx: Ctx) -> None:
        """Apply an answer already checked against its decision (bounds, totals, options).

        ``state`` is a private copy: mutate it. Read ``answer.picked.args`` (or
        ``answer.chosen``/``answer.amounts``), never parts of an id. Raise
        :class:`IllegalDecision` for anything the decision could not express; the
        engine then discards the copy, so nothing is half-applied.
        """

    @abstractmethod
    def view(self, state: S, seat: int | None) -> V:
        """What ``seat`` (or the public, for ``None``) may see, as the game's typed view."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """The result once the match is over, else ``None``."""

    # --- persistence -----------------------------------------------------------------
    def dump(self, state: S) -> dict[str, Any]:
        """JSON-able snapshot of the state (a pydantic state dumps itself)."""
        if isinstance(state, BaseModel):
            return state.model_dump(mode="json")
        raise NotImplementedError(f"{type(self).__name__} must write dump()")

    def load(self, data: dict[str, Any]) -> S:
        """Inverse of :meth:`dump` (given for a game that names its ``state_model``)."""
        if self.state_model is None:
            raise NotImplementedError(f"{type(self).__name__} must write load() or state_model")
        return cast(S, self.state_model.model_validate(data))

    def copy(self, state: S) -> S:
        return copy.deepcopy(state)

    # --- presentation ----------------------------------------------------------------
    @abstractmethod
    def render(self, view: V, lang: str = "en", decision: Decision | None = None) -> bytes:
        """PNG bytes of a view; a pure function.

        ``decision`` is given for a private prompt (issue 11 item 4): the picture then
        marks that decision's legal targets with the options' own labels, the same
        words as the buttons, so a player matches a button with a place on the board.
        A game may ignore it (the plain board stays a valid prompt picture).
        """

    def board_text(self, view: V, lang: str = "en") -> list[str]:
        """Lines shown next to the image in the message text: the stats a phone could
        not read in the picture (issue 11 item 5). None by default."""
        return []

    def round_label(self, state: S) -> int:
        """The current round/turn number, for logs and file names."""
        return 0

    def checkpoint(self, events: list[AnyEvent]) -> bool:
        """Whether these events close a step worth a fresh public image.

        The Discord layer posts the arena image after a checkpoint (a turn, a
        fighter's action, a round) rather than after every tiny in-action choice.
        """
        return any(e.visible_to is None for e in events)

    def parse_option(self, state: S, decision: Decision, text: str) -> str | None:
        """Map typed text (a move in a game's notation) to an option id, if any."""
        wanted = text.strip().lower()
        for opt in decision.options:
            if wanted in (opt.id.lower(), opt.label.fr.lower(), opt.label.en.lower()):
                return opt.id
        return None

    # --- AI --------------------------------------------------------------------------
    @abstractmethod
    def ai_choose(
        self, state: S, decision: Decision, rnd: random.Random, level: str | None = None
    ) -> Reply:
        """A sensible legal answer for ``decision`` (see :data:`Reply`).

        ``rnd`` is seeded by the engine from the match seed, the version and the
        decision key, so AI play is deterministic for a given seed. The AI should
        only use what ``view(state, decision.seat)`` reveals.
        """

    # --- old logs ----------------------------------------------------------------------
    def upgrade_choice(
        self, state: S, pending: list[Decision], held: list[Choice]
    ) -> Choice | None:
        """Translate choices logged by an older engine (``log format`` 1) into today's.

        The engine feeds old choices one by one into ``held``; return the choice to
        apply now (then ``held`` is cleared), or ``None`` to keep holding (several
        old one-option steps that are now one structured answer). By default every
        old choice is still a valid choice.
        """
        return held[-1]
