"""A test-only game whose decisions are structured: Many, Order and Allocation.

Two seats play three phases, each seat answering at the same time:
- ``many``: seat 0 keeps 1 or 2 of 4 gems (buttons); seat 1 keeps 2 or 3 of 30
  pebbles (more than buttons hold: selects);
- ``order``: each seat puts three banners in order; the first one scores;
- ``alloc``: seat 0 spends wood, stone (0-3 each, exactly 2 together) and gold
  (0-40, too many amounts for a select: -/+ buttons); seat 1 spreads exactly 3
  over five stores (more quantities than rows: one shown at a time).
Then one die decides a bonus. It is registered by ``tests/cogs/conftest.py``
(the slash command's game choices are fixed when the cog is imported).
"""

from __future__ import annotations

import random
from typing import Any

from pydantic import BaseModel, Field

from bot.engine import Ctx, Decision, Game, GameInfo, ModeInfo, Option, Outcome, SeatSpec, Text
from bot.engine.decisions import Allocation, Answer, Args, Many, Order, Quantity, Total
from bot.engine.game import Reply, View
from bot.engine.registry import register
from bot.engine.vocabulary import StatInfo

GEMS = ["ruby", "jade", "opal", "onyx"]
BANNERS = ["lion", "eagle", "bear"]
STORES = [f"store{i}" for i in range(1, 6)]
PHASES = ["many", "order", "alloc"]


class Worth(Args):
    """What a gem, pebble or banner is worth."""

    worth: int


class DraftState(BaseModel):
    phase: int = 0
    answered: list[int] = Field(default_factory=list)
    score: list[int] = Field(default_factory=lambda: [0, 0])


class DraftView(View):
    phase: str
    score: list[int]


def _label(name: str) -> Text:
    return Text(fr=name.capitalize() + " (fr)", en=name.capitalize())


def _many(seat: int) -> Decision:
    if seat == 0:
        options = [
            Option(id=g, label=_label(g), args=Worth(worth=i + 1), stats={"worth": i + 1})
            for i, g in enumerate(GEMS)
        ]
        ask = Many(min=1, max=2)
    else:
        options = [
            Option(id=f"p{i}", label=_label(f"pebble {i}"), args=Worth(worth=i % 3))
            for i in range(30)
        ]
        ask = Many(min=2, max=3)
    return Decision(
        key=f"many:s{seat}",
        seat=seat,
        kind="many",
        prompt=Text(fr="Gardez des pierres", en="Keep some stones"),
        options=options,
        ask=ask,
        timing="pick",
        secret=True,
    )


def _order(seat: int) -> Decision:
    return Decision(
        key=f"order:s{seat}",
        seat=seat,
        kind="order",
        prompt=Text(fr="Rangez vos bannières", en="Order your banners"),
        options=[
            Option(id=b, label=_label(b), args=Worth(worth=i + 1)) for i, b in enumerate(BANNERS)
        ],
        ask=Order(),
    )


def _alloc(seat: int) -> Decision:
    if seat == 0:
        ask = Allocation(
            quantities=[
                Quantity(id="wood", label=Text(fr="Bois", en="Wood"), max=3),
                Quantity(id="stone", label=Text(fr="Pierre", en="Stone"), max=3),
                Quantity(id="gold", label=Text(fr="Or", en="Gold"), max=40, emoji="🪙"),
            ],
            totals=[
                Total(
                    of=["wood", "stone"],
                    min=2,
                    max=2,
                    label=Text(fr="Bois et pierre ensemble", en="Wood and stone together"),
                )
            ],
        )
    else:
        ask = Allocation(
            quantities=[
                Quantity(id=s, label=Text(fr=f"Réserve {i}", en=f"Store {i}"), max=2)
                for i, s in enumerate(STORES, 1)
            ],
            totals=[Total(min=3, max=3)],
        )
    return Decision(
        key=f"alloc:s{seat}",
        seat=seat,
        kind="alloc",
        prompt=Text(fr="Répartissez", en="Share out"),
        ask=ask,
        subject="builder" if seat == 0 else None,
    )


class DraftGame(Game[DraftState, DraftView]):
    info = GameInfo(
        id="test-drafts",
        names=Text(fr="Brouillons", en="Drafts"),
        min_players=2,
        max_players=2,
        modes=[ModeInfo(id="default", names=Text(fr="Normal", en="Normal"), player_counts=[2])],
        summary=Text(fr="Test", en="Test"),
        stats=[StatInfo(key="worth", symbol="💎", names=Text(fr="valeur", en="worth"))],
        subjects={"builder": Text(fr="Bâtisseur", en="Builder")},
    )

    def setup(
        self, seats: list[SeatSpec], mode: str, options: dict[str, Any], ctx: Ctx
    ) -> DraftState:
        return DraftState()

    def pending(self, state: DraftState) -> list[Decision]:
        if state.phase >= len(PHASES):
            return []
        make = {"many": _many, "order": _order, "alloc": _alloc}[PHASES[state.phase]]
        return [make(s) for s in (0, 1) if s not in state.answered]

    def apply(self, state: DraftState, answer: Answer, ctx: Ctx) -> None:
        phase = PHASES[state.phase]
        if phase == "many":
            gained = sum(o.args.worth for o in answer.chosen if isinstance(o.args, Worth))
        elif phase == "order":
            first = answer.chosen[0].args
            gained = first.worth if isinstance(first, Worth) else 0
        else:
            gained = sum(answer.amounts.values())
        state.score[answer.seat] += gained
        state.answered.append(answer.seat)
        ctx.emit(
            "answered",
            Text(fr=f"Place {answer.seat + 1} a répondu.", en=f"Seat {answer.seat + 1} answered."),
        )
        if len(state.answered) == 2:
            state.answered = []
            state.phase += 1
            if state.phase == len(PHASES):
                roll = ctx.roll(1, "bonus", Text(fr="bonus", en="bonus"))
                state.score[roll.dice[0] % 2] += 1

    def view(self, state: DraftState, seat: int | None) -> DraftView:
        phase = PHASES[state.phase] if state.phase < len(PHASES) else "over"
        return DraftView(phase=phase, score=list(state.score))

    def outcome(self, state: DraftState) -> Outcome | None:
        if state.phase < len(PHASES):
            return None
        top = max(state.score)
        return Outcome(
            winners=[i for i, s in enumerate(state.score) if s == top],
            reason=Text(fr="Fin", en="End"),
        )

    def dump(self, state: DraftState) -> dict[str, Any]:
        return state.model_dump(mode="json")

    def load(self, data: dict[str, Any]) -> DraftState:
        return DraftState.model_validate(data)

    def render(self, view: DraftView, lang: str = "en", decision: Decision | None = None) -> bytes:
        return b""

    def ai_choose(
        self, state: DraftState, decision: Decision, rnd: random.Random, level: str | None = None
    ) -> Reply:
        ask = decision.ask
        if isinstance(ask, Many):
            return [o.id for o in decision.options[: ask.min]]
        if isinstance(ask, Order):
            return [o.id for o in decision.options]
        assert isinstance(ask, Allocation)
        if decision.seat == 0:
            return {"wood": 1, "stone": 1, "gold": 0}
        return {"store1": 2, "store2": 1}


GAME = register(DraftGame())
