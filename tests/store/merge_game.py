"""A test game whose decisions changed shape, to test how the store upgrades old logs.

Today each seat puts three letters in order in one answer (:class:`Order`) and
seat 0 splits 3 points between x and y (:class:`Allocation`). In "log format 1"
the same match was played as one-option steps: a letter per step, three steps
per seat, and a split picked as one option (``x0``..``x3``). Its
``upgrade_choice`` merges the old steps, so an old log has more decisions than
today's: exactly what makes the store rewrite a live match's log. Two rounds,
dice after every round. It is not shipped to players, and registered only by the
tests that use it (``registered`` fixture), so contract tests over every game skip it.
"""

from __future__ import annotations

import random
from typing import Any

from pydantic import BaseModel

from bot.engine import Choice, Ctx, Decision, Game, GameInfo, ModeInfo, Option, Outcome, SeatSpec
from bot.engine.decisions import Allocation, Answer, Args, Order, Quantity, Total
from bot.engine.text import Text

ID = "test-merge"
LETTERS = ("a", "b", "c")
OLD_SPLITS = {f"x{n}": n for n in range(4)}
"""Format-1 option ids of the split and the x amount each stood for."""


class Letter(Args):
    letter: str


class MergeState(BaseModel):
    seats: int
    round: int = 1
    orders: dict[int, list[str]] = {}
    splitting: bool = False
    score: list[int] = []


class MergeGame(Game[MergeState, Any]):
    info = GameInfo(
        id=ID,
        names=Text(fr="Test fusion", en="Merge test"),
        min_players=2,
        max_players=3,
        modes=[ModeInfo(id="default", names=Text(fr="Normal", en="Normal"), player_counts=[2, 3])],
        summary=Text(fr="Test", en="Test"),
    )

    def setup(
        self, seats: list[SeatSpec], mode: str, options: dict[str, Any], ctx: Ctx
    ) -> MergeState:
        return MergeState(seats=len(seats), score=[0] * len(seats))

    def pending(self, state: MergeState) -> list[Decision]:
        if state.round > 2:
            return []
        if state.splitting:
            return [
                Decision(
                    key=f"r{state.round}:split",
                    seat=0,
                    kind="split",
                    prompt=Text(fr="Répartissez 3 points", en="Split 3 points"),
                    ask=Allocation(
                        quantities=[
                            Quantity(id="x", label=Text(fr="x", en="x"), max=3),
                            Quantity(id="y", label=Text(fr="y", en="y"), max=3),
                        ],
                        totals=[Total(min=3, max=3)],
                    ),
                )
            ]
        return [
            Decision(
                key=f"r{state.round}:order:s{s}",
                seat=s,
                kind="order",
                prompt=Text(fr="Ordonnez", en="Order"),
                ask=Order(),
                options=[
                    Option(id=x, label=Text(fr=x, en=x), args=Letter(letter=x)) for x in LETTERS
                ],
                timing="pick",
                secret=True,
            )
            for s in range(state.seats)
            if s not in state.orders
        ]

    def apply(self, state: MergeState, answer: Answer, ctx: Ctx) -> None:
        if state.splitting:
            roll = ctx.roll(answer.amounts["x"] + 1, "seat 0", Text(fr="x", en="x"))
            state.score[0] += sum(roll.dice)
            state.splitting = False
            state.orders = {}
            state.round += 1
            return
        letters = [o.args.letter for o in answer.chosen if isinstance(o.args, Letter)]
        state.orders[answer.seat] = letters
        ctx.emit("ordered", Text(fr="a ordonné", en="has ordered"), seat=answer.seat)
        if len(state.orders) == state.seats:
            for s, order in sorted(state.orders.items()):
                roll = ctx.roll(1, f"seat {s}", Text(fr="points", en="points"))
                state.score[s] += roll.dice[0] * (3 - order.index("a"))
            state.splitting = True

    def view(self, state: MergeState, seat: int | None) -> dict[str, Any]:
        return {"round": state.round, "score": state.score}

    def outcome(self, state: MergeState) -> Outcome | None:
        if state.round <= 2:
            return None
        top = max(state.score)
        return Outcome(
            winners=[i for i, s in enumerate(state.score) if s == top],
            reason=Text(fr="Fin", en="End"),
            scores={i: float(s) for i, s in enumerate(state.score)},
        )

    def dump(self, state: MergeState) -> dict[str, Any]:
        return state.model_dump(mode="json")

    def load(self, data: dict[str, Any]) -> MergeState:
        return MergeState.model_validate(data)

    def render(
        self, view: dict[str, Any], lang: str = "en", decision: Decision | None = None
    ) -> bytes:
        return b""

    def ai_choose(
        self, state: MergeState, decision: Decision, rnd: random.Random, level: str | None = None
    ) -> list[str] | dict[str, int]:
        if isinstance(decision.ask, Allocation):
            x = rnd.randint(0, 3)
            return {"x": x, "y": 3 - x}
        letters = list(LETTERS)
        rnd.shuffle(letters)
        return letters

    def upgrade_choice(
        self, state: MergeState, pending: list[Decision], held: list[Choice]
    ) -> Choice | None:
        """Old logs: three one-letter steps per order, and the split as one option."""
        decision = next(d for d in pending if d.seat == held[0].seat)
        if isinstance(decision.ask, Allocation):
            x = OLD_SPLITS[held[0].option or ""]
            return Choice(seat=decision.seat, key=decision.key, amounts={"x": x, "y": 3 - x})
        if len(held) < len(decision.options):
            return None
        return Choice(seat=decision.seat, key=decision.key, options=[c.option or "" for c in held])


def old_steps(choice: Choice, round_: int) -> list[Choice]:
    """How the format-1 game logged what ``choice`` answers today (in round ``round_``)."""
    if choice.amounts is not None:
        return [Choice(seat=0, key=f"r{round_}:split", option=f"x{choice.amounts['x']}")]
    assert choice.options is not None
    return [
        Choice(seat=choice.seat, key=f"r{round_}:pick{k}:s{choice.seat}", option=letter)
        for k, letter in enumerate(choice.options, start=1)
    ]
