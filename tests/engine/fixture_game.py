"""Minimal games used only to test the engine's own guarantees (not shipped to players).

``test-pick``: two or three seats secretly pick a number 1-3 each round
(simultaneous), then the highest unique pick rolls a die; 3 rounds.

``test-shapes``: one decision of every shape the engine can ask, with typed
arguments and a typed view, so the engine's checks, drafts and the contract
test run over Many, Order and Allocation answers as well as One.
"""

from __future__ import annotations

import random
from typing import Any

from pydantic import BaseModel, Field

from bot.engine import (
    Ctx,
    Decision,
    Game,
    GameInfo,
    ModeInfo,
    Option,
    Outcome,
    SeatSpec,
    Text,
)
from bot.engine.decisions import Allocation, Answer, Args, Many, Order, Quantity, Total
from bot.engine.errors import IllegalDecision
from bot.engine.game import Reply, View
from bot.engine.registry import register


# --- test-pick --------------------------------------------------------------------------------
class Pick(Args):
    """The number a seat picks."""

    n: int


class Picker(Args):
    """Which seat a pick decision is for."""

    seat: int


class PickState(BaseModel):
    seats: int
    round: int = 1
    picks: dict[int, int] = {}
    score: list[int] = []


class PickView(View):
    """Round, scores and who has picked (never what)."""

    round: int
    score: list[int]
    picked: list[int]


class PickGame(Game[PickState, PickView]):
    info = GameInfo(
        id="test-pick",
        names=Text(fr="Test", en="Test"),
        min_players=2,
        max_players=3,
        modes=[ModeInfo(id="default", names=Text(fr="Normal", en="Normal"), player_counts=[2, 3])],
        summary=Text(fr="Test", en="Test"),
    )

    def setup(
        self, seats: list[SeatSpec], mode: str, options: dict[str, Any], ctx: Ctx
    ) -> PickState:
        return PickState(seats=len(seats), score=[0] * len(seats))

    def pending(self, state: PickState) -> list[Decision]:
        if state.round > 3:
            return []
        return [
            Decision(
                key=f"r{state.round}:s{s}",
                seat=s,
                kind="pick",
                prompt=Text(fr="Choisis", en="Pick"),
                options=[
                    Option(id=str(n), label=Text(fr=str(n), en=str(n)), args=Pick(n=n))
                    for n in (1, 2, 3)
                ],
                args=Picker(seat=s),
                timing="pick",
                secret=True,
            )
            for s in range(state.seats)
            if s not in state.picks
        ]

    def apply(self, state: PickState, answer: Answer, ctx: Ctx) -> None:
        pick = answer.args
        assert isinstance(pick, Pick)
        n = pick.n
        if n == 3 and state.round == 3 and answer.seat == 0:
            # Exercise the "illegal after copy" path: refuse after mutating the copy.
            state.score[0] += 100
            ctx.rng.draw(6)
            raise IllegalDecision(Text(fr="Interdit", en="Forbidden"))
        state.picks[answer.seat] = n
        ctx.emit("picked", Text(fr="a choisi", en="has picked"), seat=answer.seat)
        if len(state.picks) == state.seats:
            best = max(state.picks.values())
            winners = [s for s, v in state.picks.items() if v == best]
            if len(winners) == 1:
                roll = ctx.roll(1, f"seat {winners[0]}", Text(fr="points", en="points"))
                state.score[winners[0]] += roll.dice[0]
            state.picks = {}
            state.round += 1

    def view(self, state: PickState, seat: int | None) -> PickView:
        return PickView(round=state.round, score=list(state.score), picked=sorted(state.picks))

    def outcome(self, state: PickState) -> Outcome | None:
        if state.round <= 3:
            return None
        top = max(state.score)
        return Outcome(
            winners=[i for i, s in enumerate(state.score) if s == top],
            reason=Text(fr="Fin", en="End"),
            scores={i: float(s) for i, s in enumerate(state.score)},
        )

    def dump(self, state: PickState) -> dict[str, Any]:
        return state.model_dump(mode="json")

    def load(self, data: dict[str, Any]) -> PickState:
        return PickState.model_validate(data)

    def render(self, view: PickView, lang: str = "en", decision: Decision | None = None) -> bytes:
        return b""

    def ai_choose(
        self, state: PickState, decision: Decision, rnd: random.Random, level: str | None = None
    ) -> str:
        return rnd.choice(["1", "2"])


register(PickGame())


# --- test-shapes ------------------------------------------------------------------------------
GEMS = {"ruby": Text(fr="Rubis", en="Ruby"), "jade": Text(fr="Jade", en="Jade")}
GEMS["onyx"] = Text(fr="Onyx", en="Onyx")
FIGHTERS = ("Agaric", "Baobab", "Cactus")
LAST_ROUND = 2


class Gem(Args):
    """A gem picked in secret."""

    gem: str


class Card(Args):
    """A card played from the hand."""

    value: int


class Fighter(Args):
    """A fighter put in the strike order."""

    name: str


class SeatTurn(Args):
    """Which seat a decision is for (read by ``apply``, never parsed from a key)."""

    seat: int


class ShapesState(BaseModel):
    seats: int
    round: int = 1
    phase: str = "gem"
    turn: int = 0
    """The seat playing cards now (phase ``cards``)."""
    gems: dict[int, str] = Field(default_factory=dict)
    """This round's secret picks, until every seat has picked."""
    revealed: dict[int, str] = Field(default_factory=dict)
    hands: list[list[int]] = Field(default_factory=list)
    score: list[int] = Field(default_factory=list)
    harvest: int | None = None
    stock: dict[str, int] = Field(default_factory=lambda: {"wood": 0, "stone": 0, "hunt": 0})


class ShapesView(View):
    """What one seat sees: its own gem and hand, everyone's revealed gems and scores."""

    round: int
    phase: str
    score: list[int]
    revealed: dict[int, str]
    my_gem: str | None = None
    my_hand: list[int] | None = None
    hand_sizes: list[int]
    harvest: int | None = None
    stock: dict[str, int]
    picked: list[int]
    """Seats that have picked their gem this round (not which gem)."""


def _text(s: str) -> Text:
    return Text(fr=s, en=s)


class ShapesGame(Game[ShapesState, ShapesView]):
    """Each round: secret gem picks (One), cards (Many), a strike order (Order), a harvest
    split (Allocation). Hunting goes in pairs: an odd hunt passes the engine's checks
    but the game refuses it, which an Allocation cannot express."""

    info = GameInfo(
        id="test-shapes",
        names=Text(fr="Test des formes", en="Shapes test"),
        min_players=2,
        max_players=3,
        modes=[ModeInfo(id="default", names=Text(fr="Normal", en="Normal"), player_counts=[2, 3])],
        summary=Text(fr="Test", en="Test"),
    )

    def setup(
        self, seats: list[SeatSpec], mode: str, options: dict[str, Any], ctx: Ctx
    ) -> ShapesState:
        n = len(seats)
        return ShapesState(seats=n, hands=[[1, 2, 3, 4] for _ in range(n)], score=[0] * n)

    def _lead(self, state: ShapesState) -> int:
        return (state.round - 1) % state.seats

    def pending(self, state: ShapesState) -> list[Decision]:
        if state.phase == "over":
            return []
        if state.phase == "gem":
            return [
                Decision(
                    key=f"r{state.round}:gem:{s}",
                    seat=s,
                    kind="gem",
                    prompt=Text(fr="Choisissez une gemme en secret", en="Secretly pick a gem"),
                    options=[
                        Option(id=g, label=label, args=Gem(gem=g)) for g, label in GEMS.items()
                    ],
                    args=SeatTurn(seat=s),
                    timing="pick",
                    secret=True,
                )
                for s in range(state.seats)
                if s not in state.gems
            ]
        if state.phase == "cards":
            hand = state.hands[state.turn]
            return [
                Decision(
                    key=f"r{state.round}:cards:{state.turn}",
                    seat=state.turn,
                    kind="cards",
                    prompt=Text(fr="Jouez une ou deux cartes", en="Play one or two cards"),
                    options=[
                        Option(id=f"c{v}", label=_text(str(v)), args=Card(value=v)) for v in hand
                    ],
                    ask=Many(min=1, max=2),
                    args=SeatTurn(seat=state.turn),
                )
            ]
        lead = self._lead(state)
        if state.phase == "order":
            return [
                Decision(
                    key=f"r{state.round}:order",
                    seat=lead,
                    kind="order",
                    prompt=Text(fr="Ordre des frappes", en="Strike order"),
                    options=[
                        Option(id=f.lower(), label=_text(f), args=Fighter(name=f)) for f in FIGHTERS
                    ],
                    ask=Order(),
                )
            ]
        h = state.harvest or 0
        return [
            Decision(
                key=f"r{state.round}:harvest",
                seat=lead,
                kind="harvest",
                prompt=Text(fr=f"Répartissez {h}", en=f"Split {h}"),
                ask=Allocation(
                    quantities=[
                        Quantity(id="wood", label=Text(fr="Bois", en="Wood"), max=h),
                        Quantity(id="stone", label=Text(fr="Pierre", en="Stone"), max=3),
                        Quantity(id="hunt", label=Text(fr="Chasse", en="Hunting"), max=h),
                    ],
                    totals=[
                        Total(min=h, max=h, label=Text(fr="La récolte", en="The harvest")),
                        Total(
                            of=["wood", "stone"],
                            max=4,
                            label=Text(fr="La charrette", en="The cart"),
                        ),
                    ],
                ),
            )
        ]

    def apply(self, state: ShapesState, answer: Answer, ctx: Ctx) -> None:
        kind = answer.decision.kind
        if kind == "gem":
            who = answer.decision.args
            gem = answer.args
            assert isinstance(who, SeatTurn) and isinstance(gem, Gem)
            state.gems[who.seat] = gem.gem
            ctx.emit(
                "gem",
                Text(fr=f"Vous gardez {GEMS[gem.gem].fr}.", en=f"You keep {GEMS[gem.gem].en}."),
                visible_to=[who.seat],
            )
            ctx.emit("picked", Text(fr="Une gemme est choisie.", en="A gem is picked."))
            if len(state.gems) == state.seats:
                state.revealed = dict(state.gems)
                state.gems = {}
                for s, g in state.revealed.items():
                    if g == "ruby":
                        state.score[s] += 1
                ctx.emit(
                    "reveal",
                    Text(fr="Gemmes révélées.", en="Gems revealed."),
                    gems={str(s): g for s, g in state.revealed.items()},
                )
                state.phase = "cards"
                state.turn = 0
            return
        if kind == "cards":
            who = answer.decision.args
            assert isinstance(who, SeatTurn)
            for opt in answer.chosen:
                card = opt.args
                assert isinstance(card, Card)
                state.hands[who.seat].remove(card.value)
                state.score[who.seat] += card.value
            ctx.emit("cards", _text(f"{len(answer.chosen)}"), seat=who.seat)
            state.turn += 1
            if state.turn == state.seats:
                state.phase = "order"
            return
        if kind == "order":
            first = answer.chosen[0].args
            assert isinstance(first, Fighter)
            state.score[answer.seat] += FIGHTERS.index(first.name)
            ctx.emit("order", _text(" > ".join(o.label.en for o in answer.chosen)))
            roll = ctx.roll(1, "harvest", Text(fr="la récolte", en="the harvest"))
            state.harvest = roll.dice[0]
            state.phase = "harvest"
            return
        if answer.amounts["hunt"] % 2:
            raise IllegalDecision(
                Text(fr="On chasse par deux.", en="Hunting goes in pairs."),
            )
        for k, v in answer.amounts.items():
            state.stock[k] += v
        state.score[answer.seat] += answer.amounts["stone"]
        state.harvest = None
        state.round += 1
        state.phase = "over" if state.round > LAST_ROUND else "gem"

    def view(self, state: ShapesState, seat: int | None) -> ShapesView:
        own = seat is not None and 0 <= seat < state.seats
        return ShapesView(
            round=state.round,
            phase=state.phase,
            score=list(state.score),
            revealed=dict(state.revealed),
            my_gem=state.gems.get(seat) if own and seat is not None else None,
            my_hand=list(state.hands[seat]) if own and seat is not None else None,
            hand_sizes=[len(h) for h in state.hands],
            harvest=state.harvest,
            stock=dict(state.stock),
            picked=sorted(state.gems),
        )

    def outcome(self, state: ShapesState) -> Outcome | None:
        if state.phase != "over":
            return None
        top = max(state.score)
        return Outcome(
            winners=[i for i, s in enumerate(state.score) if s == top],
            reason=Text(fr="Fin", en="End"),
            scores={i: float(s) for i, s in enumerate(state.score)},
        )

    def dump(self, state: ShapesState) -> dict[str, Any]:
        return state.model_dump(mode="json")

    def load(self, data: dict[str, Any]) -> ShapesState:
        return ShapesState.model_validate(data)

    def render(self, view: ShapesView, lang: str = "en", decision: Decision | None = None) -> bytes:
        return b""

    def ai_choose(
        self, state: ShapesState, decision: Decision, rnd: random.Random, level: str | None = None
    ) -> Reply:
        ids = [o.id for o in decision.options]
        if isinstance(decision.ask, Many):
            return rnd.sample(ids, rnd.randint(decision.ask.min, decision.ask.max or len(ids)))
        if isinstance(decision.ask, Order):
            rnd.shuffle(ids)
            return ids
        if isinstance(decision.ask, Allocation):
            h = state.harvest or 0
            return {"wood": h % 2, "stone": 0, "hunt": h - h % 2}
        return rnd.choice(ids)


register(ShapesGame())
