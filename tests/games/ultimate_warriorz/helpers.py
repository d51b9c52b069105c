"""Building Ultimate Warriorz positions directly, to test one rule with scripted dice."""

from __future__ import annotations

from bot.engine.decisions import Decision
from bot.engine.game import Ctx
from bot.games.ultimate_warriorz import GAME, rules
from bot.games.ultimate_warriorz.cards import load_cards
from bot.games.ultimate_warriorz.modes import TEAM, TRIBAL
from bot.games.ultimate_warriorz.state import Fighter, UWState
from tests.support.dice import ScriptedCtx
from tests.support.play import answer, only_pending

__all__ = ["GAME", "ScriptedCtx", "act", "answer", "make", "only_pending", "play", "pick_ids"]


def make(
    zones: dict[str, int],
    *,
    teams: list[list[str]] | None = None,
    round: int = 1,
    ai: bool = False,
) -> UWState:
    """Fighters on zones (one seat each), in the action phase, nobody acted yet."""
    cards = load_cards()
    ids = list(zones)
    state = UWState(
        mode=TEAM if teams else TRIBAL,
        cards=cards,
        seat_names=[f"P{i}" for i in range(len(ids))],
        seat_ai=[ai] * len(ids),
        lots=[[f] for f in ids],
        teams=teams or [[f] for f in ids],
        phase="act",
        round=round,
    )
    for i, fid in enumerate(ids):
        data = cards.fighter(fid)
        team = next(k for k, t in enumerate(state.teams) if fid in t)
        state.fighters.append(
            Fighter(
                id=fid,
                seat=i,
                team=team,
                size=data.size,
                hp=data.size,
                zone=zones[fid],
                hand=[c.id for c in data.cards],
            )
        )
    return state


def act(state: UWState, fid: str, card: str, ctx: Ctx) -> Decision | None:
    """``fid`` plays ``card`` now (everyone else has acted): returns its first decision."""
    for f in state.fighters:
        f.acted = f.id != fid
        f.pick = None
    state.fighter(fid).pick = card
    state.action = None
    state.phase = "act"
    rules._continue(state, ctx)
    pending = GAME.pending(state)
    return pending[0] if pending else None


def play(state: UWState, ctx: Ctx, option: str) -> list:
    """Answer the single pending decision with ``option``."""
    return answer(GAME, state, only_pending(GAME, state), ctx, option=option)


def pick_ids(decision: Decision) -> list[str]:
    return [o.id for o in decision.options]
