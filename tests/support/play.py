"""Answering a game's pending decisions in tests, exactly as the engine would."""

from __future__ import annotations

from typing import Any

from bot.engine.answers import check_answer
from bot.engine.decisions import Choice, Decision
from bot.engine.events import AnyEvent
from bot.engine.game import Ctx, Game


def answer(
    game: Game[Any, Any],
    state: Any,
    decision: Decision,
    ctx: Ctx,
    *,
    option: str | None = None,
    options: list[str] | None = None,
    amounts: dict[str, int] | None = None,
    seat: int | None = None,
) -> list[AnyEvent]:
    """Check the answer against ``decision`` (as the engine does) and apply it to ``state``."""
    choice = Choice(
        seat=decision.seat if seat is None else seat,
        key=decision.key,
        option=option,
        options=options,
        amounts=amounts,
    )
    before = len(ctx.events)
    game.apply(state, check_answer(decision, choice), ctx)
    return ctx.events[before:]


def only_pending(game: Game[Any, Any], state: Any) -> Decision:
    """The single decision pending now (fails if there are none or several)."""
    pending = game.pending(state)
    assert len(pending) == 1, [d.key for d in pending]
    return pending[0]


def option_ids(decision: Decision) -> list[str]:
    return [o.id for o in decision.options]
