"""A match: a game state wrapped with its seed, version and decision log.

This is where the engine guarantees what every game relies on:
- a decision is checked against the pending list before the game sees it, and
  applied to a private copy, so a refusal never leaves a half-applied state;
- ``version`` increases with every applied decision; a choice carrying an
  older version is stale unless its decision was already pending then (so
  simultaneous secret picks do not invalidate each other's buttons);
- replaying seed + options + ordered choices reproduces the snapshot exactly.
"""

from __future__ import annotations

import functools
import random
import threading
import weakref
from collections import OrderedDict
from typing import Any

from pydantic import BaseModel

from bot.engine.answers import check_answer
from bot.engine.decisions import Allocation, Answer, Choice, Decision, One
from bot.engine.dice import DiceState, FairRng, normalise_seed, seed_commitment
from bot.engine.errors import IllegalDecision, StaleDecision
from bot.engine.events import AnyEvent, event_from_json
from bot.engine.game import Ctx, Game, Outcome, Reply, SeatSpec
from bot.engine.registry import get_game
from bot.engine.text import Text
from bot.render.cache import IMAGES, image_key

SNAPSHOT_FORMAT = 2
"""2: structured decisions (typed args, Many/Order/Allocation). A snapshot of an older
format is not loaded: the store replays its decisions instead."""
LOG_FORMAT = 2
"""Decision logs without a ``format`` are 1: their choices go through
:meth:`Game.upgrade_choice` when replayed."""


VIEWS_KEPT = 64
"""Views kept by :meth:`Match.view` (with a weak reference to the state each was built
from, so an id reused by a newer state never returns an old view); a bound, not a
per-match cost. An entry goes with its state: a state the match left is not kept alive
by its view (under load, such stale states survived young garbage collections: issue 16
item 5)."""
ViewKey = tuple[int, int, int | None]
"""(id of the state, version, seat: None for the public view)."""
_VIEWS: OrderedDict[ViewKey, tuple[weakref.ref[Any], BaseModel]] = OrderedDict()
_VIEWS_LOCK = threading.Lock()
"""Images are drawn in worker threads, which read views too."""


def _forget_view(key: ViewKey, dead: weakref.ref[Any]) -> None:
    """A state was freed: its views go too. Called wherever the state dies, perhaps while
    this thread holds the lock, so without it (a lookup and a removal, each atomic in
    CPython): only the entry built from that very state is dropped, and a newer entry
    another thread put there in between would only be built again."""
    hit = _VIEWS.get(key)
    if hit is not None and hit[0] is dead:
        _VIEWS.pop(key, None)


class Match:
    """A live match. Not thread-safe: the Discord layer holds a lock per match."""

    def __init__(
        self,
        game: Game[Any, Any],
        mode: str,
        options: dict[str, Any],
        seats: list[SeatSpec],
        dice: DiceState,
        state: Any,
        version: int = 0,
        pending_since: dict[str, int] | None = None,
        choices: list[Choice] | None = None,
        events: list[AnyEvent] | None = None,
    ) -> None:
        self.game = game
        self.mode = mode
        self.options = options
        self.seats = seats
        self.dice = dice
        self.state = state
        self.version = version
        self.choices: list[Choice] = choices or []
        self.events: list[AnyEvent] = events or []
        self.whole_history = False
        """``events`` hold every event since setup (a match made by :meth:`create`, then
        only applied to), so its log needs no replay; a match loaded from a snapshot holds
        only the events since the load."""
        self._pending: list[Decision] | None = None
        self.pending_since: dict[str, int] = pending_since or {}
        self._refresh_pending()

    # --- creation --------------------------------------------------------------------
    @classmethod
    def create(
        cls,
        game_id: str,
        seats: list[SeatSpec],
        seed: str | int,
        mode: str | None = None,
        options: dict[str, Any] | None = None,
    ) -> Match:
        game = get_game(game_id)
        info = game.info
        mode_info = info.mode(mode)
        if len(seats) not in mode_info.player_counts:
            raise IllegalDecision(
                Text(
                    fr=f"{mode_info.names.fr} se joue à {_counts(mode_info.player_counts, 'fr')} joueurs, pas {len(seats)}.",
                    en=f"{mode_info.names.en} is played by {_counts(mode_info.player_counts, 'en')} players, not {len(seats)}.",
                )
            )
        opts = info.default_options()
        for k, v in (options or {}).items():
            if k not in opts:
                raise IllegalDecision(Text(fr=f"Option inconnue : {k}", en=f"Unknown option: {k}"))
            opts[k] = v
        dice = DiceState(seed=normalise_seed(seed))
        ctx = Ctx(FairRng(dice))
        state = game.setup(list(seats), mode_info.id, opts, ctx)
        match = cls(game, mode_info.id, opts, list(seats), dice, state, events=list(ctx.events))
        match.whole_history = True
        return match

    @classmethod
    def replay(
        cls,
        game_id: str,
        seats: list[SeatSpec],
        seed: str | int,
        mode: str | None,
        options: dict[str, Any] | None,
        choices: list[Choice],
        log_format: int = LOG_FORMAT,
    ) -> Match:
        """Seed + options + the ordered choices: the same match, roll for roll.

        Choices of an older ``log_format`` are upgraded by the game as they are
        replayed; the match then holds (and logs) today's choices.
        """
        match = cls.create(game_id, seats, seed, mode, options)
        if log_format >= LOG_FORMAT:
            for c in choices:
                match.apply(c)
            return match
        held: list[Choice] = []
        for c in choices:
            held.append(c)
            new = match.game.upgrade_choice(match.state, match.pending(), held)
            if new is not None:
                held.clear()
                match.apply(new)
        return match

    # --- queries ---------------------------------------------------------------------
    @property
    def game_id(self) -> str:
        return self.game.info.id

    @property
    def seed(self) -> str:
        return self.dice.seed

    @property
    def commitment(self) -> str:
        return seed_commitment(self.dice.seed)

    def pending(self) -> list[Decision]:
        assert self._pending is not None
        return self._pending

    def pending_for(self, seat: int) -> list[Decision]:
        return [d for d in self.pending() if d.seat == seat]

    def decision(self, key: str) -> Decision | None:
        for d in self.pending():
            if d.key == key:
                return d
        return None

    def outcome(self) -> Outcome | None:
        return self.game.outcome(self.state)

    @property
    def over(self) -> bool:
        return self.outcome() is not None

    def view(self, seat: int | None) -> BaseModel:
        """``seat``'s view (public: None) of the state now. Views are pure functions of the
        state, so one is built once per state and seat: the table's view key, its image
        and its text read the same one (a small cache shared by every match)."""
        state = self.state
        key = (id(state), self.version, seat)
        with _VIEWS_LOCK:
            hit = _VIEWS.get(key)
            if hit is not None and hit[0]() is state:
                _VIEWS.move_to_end(key)
                return hit[1]
        view = self.game.view(state, seat)
        with _VIEWS_LOCK:
            _VIEWS[key] = (weakref.ref(state, functools.partial(_forget_view, key)), view)
            while len(_VIEWS) > VIEWS_KEPT:
                _VIEWS.popitem(last=False)
        return view

    def render(
        self, seat: int | None = None, lang: str = "en", decision: Decision | None = None
    ) -> bytes:
        """The picture of ``seat``'s view (public: None); with ``decision`` (a prompt of
        that seat) its legal targets are marked with the buttons' labels. Drawn once per
        content: an identical view (same language, same marks) comes from the cache."""
        view = self.view(seat)
        game = self.game
        drawer = f"{type(game).__module__}.{type(game).__qualname__}"
        if decision is None:
            return IMAGES.get_or_render(
                image_key(drawer, view, lang), lambda: game.render(view, lang)
            )
        return IMAGES.get_or_render(
            image_key(drawer, view, lang, decision),
            lambda: game.render(view, lang, decision),
        )

    def board_text(self, seat: int | None = None, lang: str = "en") -> list[str]:
        """The lines shown next to ``seat``'s picture: what the image leaves to the text."""
        return self.game.board_text(self.view(seat), lang)

    def round_label(self) -> int:
        return self.game.round_label(self.state)

    # --- applying --------------------------------------------------------------------
    def check(self, choice: Choice, expected_version: int | None = None) -> Answer:
        """The checked answer ``choice`` gives; raises if stale or illegal (bilingual reason)."""
        decision = self.decision(choice.key)
        if decision is None:
            if expected_version is not None and expected_version < self.version:
                raise StaleDecision(_STALE)
            if self.over:
                raise IllegalDecision(Text(fr="La partie est terminée.", en="The match is over."))
            raise IllegalDecision(
                Text(
                    fr="Ce choix n'est pas attendu maintenant.",
                    en="That choice is not awaited now.",
                )
            )
        if expected_version is not None:
            if (
                expected_version > self.version
                or self.pending_since.get(decision.key, 0) > expected_version
            ):
                raise StaleDecision(_STALE)
        if decision.seat != choice.seat:
            raise IllegalDecision(Text(fr="Ce n'est pas votre place.", en="This is not your seat."))
        return check_answer(decision, choice)

    def apply(self, choice: Choice, expected_version: int | None = None) -> list[AnyEvent]:
        """Apply one choice; return its events. On refusal nothing changes."""
        answer = self.check(choice, expected_version)
        dice = self.dice.model_copy()
        state = self.game.copy(self.state)
        ctx = Ctx(FairRng(dice))
        self.game.apply(state, answer, ctx)
        # Commit only once the game accepted the choice.
        self.state = state
        self.dice = dice
        self.version += 1
        self.choices.append(choice)
        self.events.extend(ctx.events)
        self._refresh_pending()
        return ctx.events

    def _refresh_pending(self) -> None:
        self._pending = self.game.pending(self.state)
        since: dict[str, int] = {}
        for d in self._pending:
            since[d.key] = self.pending_since.get(d.key, self.version)
        self.pending_since = since

    # --- AI --------------------------------------------------------------------------
    def ai_rng(self, decision: Decision) -> random.Random:
        return random.Random(f"{self.dice.seed}:{self.version}:{decision.key}")

    def ai_choice(self, decision: Decision) -> Choice:
        level = self.seats[decision.seat].ai_level if decision.seat < len(self.seats) else None
        reply = self.game.ai_choose(self.state, decision, self.ai_rng(decision), level)
        return reply_choice(decision, reply)

    # --- persistence -----------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        return {
            "format": SNAPSHOT_FORMAT,
            "game": self.game_id,
            "mode": self.mode,
            "options": self.options,
            "seats": [s.model_dump() for s in self.seats],
            "dice": self.dice.model_dump(),
            "version": self.version,
            "pending_since": self.pending_since,
            "state": self.game.dump(self.state),
        }

    @classmethod
    def from_snapshot(
        cls,
        data: dict[str, Any],
        choices: list[Choice] | None = None,
        events: list[dict[str, Any]] | None = None,
    ) -> Match:
        game = get_game(data["game"])
        return cls(
            game,
            data["mode"],
            dict(data["options"]),
            [SeatSpec.model_validate(s) for s in data["seats"]],
            DiceState.model_validate(data["dice"]),
            game.load(data["state"]),
            version=data["version"],
            pending_since=dict(data["pending_since"]),
            choices=choices,
            events=[event_from_json(e) for e in events or []],
        )


def reply_choice(decision: Decision, reply: Reply) -> Choice:
    """The :class:`Choice` an AI's :data:`Reply` stands for, shaped by the decision's ask."""
    if isinstance(decision.ask, One):
        if not isinstance(reply, str):
            raise TypeError(f"{decision.key}: a one-option decision needs an option id")
        return Choice(seat=decision.seat, key=decision.key, option=reply)
    if isinstance(decision.ask, Allocation):
        if not isinstance(reply, dict):
            raise TypeError(f"{decision.key}: an allocation needs amounts")
        return Choice(seat=decision.seat, key=decision.key, amounts=dict(reply))
    if not isinstance(reply, list):
        raise TypeError(f"{decision.key}: this decision needs a list of option ids")
    return Choice(seat=decision.seat, key=decision.key, options=list(reply))


_STALE = Text(
    fr="Ce choix est périmé : la partie a avancé depuis. Voici le choix à jour.",
    en="This prompt is out of date: the match has moved on. Here is a fresh one.",
)


def _counts(counts: list[int], lang: str) -> str:
    if len(counts) == 1:
        return str(counts[0])
    if counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}-{counts[-1]}"
    sep = " ou " if lang == "fr" else " or "
    return ", ".join(str(c) for c in counts[:-1]) + sep + str(counts[-1])
