"""Scenario builders for Mad Arena tests: exact arenas and scripted dice."""

from __future__ import annotations

from typing import Any

from bot.engine.decisions import Choice
from bot.engine.dice import DiceState, FairRng
from bot.engine.events import RollEvent
from bot.engine.game import Ctx
from bot.engine.text import Text
from bot.games.mad_arena import rules
from bot.games.mad_arena.cards import DRAGON, load_cards
from bot.games.mad_arena.state import Fighter, MAState


class ScriptedCtx(Ctx):
    """A Ctx whose dice come from a script, so a scenario's rolls are exact."""

    def __init__(self, dice: list[int] | None = None) -> None:
        super().__init__(FairRng(DiceState(seed="scripted")))
        self.script = list(dice or [])

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
        assert len(self.script) >= count, "scenario ran out of scripted dice"
        vals = self.script[:count]
        del self.script[:count]
        ev = RollEvent(
            roller=roller,
            purpose=purpose,
            dice=vals,
            indices=list(range(count)),
            target=target,
            modifier=modifier,
            data=data,
        )
        self.events.append(ev)
        return ev


def build(
    fids: list[str],
    teams: list[int] | None = None,
    zones: dict[str, int | str] | None = None,
    mode: str = "ultimate-warrior",
    seats: list[int] | None = None,
) -> MAState:
    """An arena whose ring is ``fids`` (minus the dragon) in order; one seat per fighter by default.

    ``zones`` moves fighters: a zone index, or "c" for the centre.
    """
    cards = load_cards()
    ring = [f for f in fids if f != DRAGON]
    team_of = teams or list(range(len(fids)))
    seat_of = seats or list(range(len(fids)))
    fighters = []
    for i, fid in enumerate(fids):
        data = cards.fighter(fid)
        fighters.append(
            Fighter(
                id=fid,
                seat=seat_of[i],
                team=team_of[i],
                hp=data.size,
                zone=len(ring) if data.dragon else ring.index(fid),
                hand=[c.id for c in data.cards],
            )
        )
    n_teams = max(team_of) + 1
    state = MAState(
        mode=mode,
        seat_names=[f"P{i}" for i in range(max(seat_of) + 1)],
        cards=cards,
        zones=ring,
        fighters=fighters,
        teams=[[fids[i] for i in range(len(fids)) if team_of[i] == t] for t in range(n_teams)],
        phase="action",
    )
    for fid, z in (zones or {}).items():
        state.f(fid).zone = state.centre if z == "c" else int(z)
    return state


def begin(state: MAState, fid: str, card: str | None = None, ctx: Ctx | None = None) -> Ctx:
    """Start ``fid``'s action with ``card`` (all others have acted this round)."""
    ctx = ctx or ScriptedCtx()
    for f in state.fighters:
        f.acted = f.id != fid
    f = state.f(fid)
    if card is not None:
        f.pick = card
        if card in f.hand:
            f.hand.remove(card)
    state.phase = "action"
    state.action = None
    rules.begin_action(state, ctx, f)
    return ctx


def do(state: MAState, option: str, ctx: Ctx) -> None:
    """Answer the one pending action decision with ``option`` (must be legal)."""
    (d,) = rules.pending(state)
    ids = [o.id for o in d.options]
    assert option in ids, f"{option} not in {ids}"
    rules.apply(state, Choice(seat=d.seat, key=d.key, option=option), ctx)


def options(state: MAState) -> list[str]:
    (d,) = rules.pending(state)
    return [o.id for o in d.options]


def rolls(ctx: Ctx) -> list[RollEvent]:
    return [e for e in ctx.events if isinstance(e, RollEvent)]
