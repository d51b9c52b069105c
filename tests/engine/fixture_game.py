"""A minimal game used only to test the engine's own guarantees.

Two or three seats secretly pick a number 1-3 each round (simultaneous), then
the highest unique pick rolls a die; 3 rounds. It is not shipped to players.
"""

from __future__ import annotations

import random
from typing import Any

from pydantic import BaseModel

from bot.engine import (
    Choice,
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
from bot.engine.errors import IllegalDecision
from bot.engine.registry import register


class PickState(BaseModel):
    seats: int
    round: int = 1
    picks: dict[int, int] = {}
    score: list[int] = []


class PickGame(Game[PickState, Any]):
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
                options=[Option(id=str(n), label=Text(fr=str(n), en=str(n))) for n in (1, 2, 3)],
                timing="pick",
                secret=True,
            )
            for s in range(state.seats)
            if s not in state.picks
        ]

    def apply(self, state: PickState, choice: Choice, ctx: Ctx) -> None:
        n = int(choice.option)
        if n == 3 and state.round == 3 and choice.seat == 0:
            # Exercise the "illegal after copy" path: refuse after mutating the copy.
            state.score[0] += 100
            ctx.rng.draw(6)
            raise IllegalDecision(Text(fr="Interdit", en="Forbidden"))
        state.picks[choice.seat] = n
        ctx.emit("picked", Text(fr="a choisi", en="has picked"), seat=choice.seat)
        if len(state.picks) == state.seats:
            best = max(state.picks.values())
            winners = [s for s, v in state.picks.items() if v == best]
            if len(winners) == 1:
                roll = ctx.roll(1, f"seat {winners[0]}", Text(fr="points", en="points"))
                state.score[winners[0]] += roll.dice[0]
            state.picks = {}
            state.round += 1

    def view(self, state: PickState, seat: int | None) -> dict[str, Any]:
        return {"round": state.round, "score": state.score, "picked": sorted(state.picks)}

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

    def render(self, view: dict[str, Any], lang: str = "en") -> bytes:
        return b""

    def ai_choose(
        self, state: PickState, decision: Decision, rnd: random.Random, level: str | None = None
    ) -> str:
        return rnd.choice(["1", "2"])


register(PickGame())
