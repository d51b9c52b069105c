"""What each seat may see (secrets stripped): hands and unrevealed picks are private.

The numbers the rules derive (a card's initiative this round, the dice it gives
now with the net's -1, the acting fighter's dice) are computed here once, by
the rules' own functions; the renderer and the AI read them and never re-derive
a rule.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from bot.engine.copying import copy_state
from bot.engine.game import View
from bot.engine.text import Text
from bot.games.mad_arena.arena import adjacent
from bot.games.mad_arena.combat import defence, gong_colour, gong_initiative, is_dragon, net_malus
from bot.games.mad_arena.labels import card_label, card_stats, melee_shown
from bot.games.mad_arena.rules import LAST_ROUND, melee_dice, ranged_dice
from bot.games.mad_arena.scoring import fighter_score
from bot.games.mad_arena.state import Action, LastAction, MAState, Trophy


class CardView(BaseModel):
    """An action card as its fighter would play it now."""

    id: str
    label: Text
    stats: dict[str, int | str]
    """The values its button shows (``initiative`` may be the word ``gong``)."""
    secret: str | None
    initiative: int
    """Its printed initiative; the dragon's card takes the gong's (3 blue, 4 red)."""
    move_now: int
    melee_now: int
    ranged_now: int
    """Movement points and dice it gives now: computed ones (kamikaze, Terminotaure)
    included, with the net's -1 while its fighter is netted (never below 0)."""


class ZoneView(BaseModel):
    index: int
    owner: str
    """The fighter whose card the zone is (§1 Préparation)."""
    name: str
    adjacent: list[int]


class FighterView(BaseModel):
    id: str
    name: str
    colour: str
    size: int
    dragon: bool
    seat: int
    player: str
    team: int
    hp: int
    max_hp: int
    alive: bool
    zone: int
    defence: int
    in_play: CardView | None
    discard: list[str]
    removed: list[str]
    hand_count: int
    picked: bool
    acted: bool
    netted: bool
    played_since_refill: int
    kick_used: bool
    trophies: list[Trophy]
    trophy_points: int
    score: int
    eliminated_by: str | None
    eliminated_round: int | None
    # Only in the owner's view:
    hand: list[CardView] | None = None
    pick: CardView | None = None
    secret_unused: bool | None = None


class ActionView(Action):
    """The action in progress, with the dice the acting fighter's attacks roll now."""

    melee_dice: int
    ranged_dice: int


class MAView(View):
    """One seat's view of the arena (``seat`` None: the public's)."""

    game: Literal["mad-arena"] = "mad-arena"
    mode: str
    seat: int | None
    round: int
    last_round: int = LAST_ROUND
    gong_colour: str
    phase: Literal["pick", "action", "over"]
    countdown: int
    zones: list[ZoneView]
    centre: int
    fighters: list[FighterView]
    teams: list[list[str]]
    net_on: str | None
    action: ActionView | None
    last: LastAction | None
    winners: list[int] | None
    result: Text | None
    shared: bool


def card_view(state: MAState, cid: str, fid: str, next_play: bool) -> CardView:
    """``next_play``: as the fighter's next card (a hand card or its pick), else as in play."""
    c = state.card(cid)
    malus = net_malus(state, fid)
    return CardView(
        id=cid,
        label=card_label(state, cid),
        stats=card_stats(state, cid, fid, next_play),
        secret=c.secret,
        initiative=c.initiative if c.initiative is not None else gong_initiative(state),
        move_now=max(0, c.move - malus),
        melee_now=max(0, int(melee_shown(state, c, fid, next_play)) - malus),
        ranged_now=max(0, c.ranged - malus),
    )


def build_view(state: MAState, seat: int | None) -> MAView:
    n = len(state.zones)
    fighters: list[FighterView] = []
    for f in state.fighters:
        data = state.data(f.id)
        own = seat is not None and f.seat == seat
        fv = FighterView(
            id=f.id,
            name=data.name,
            colour=data.colour,
            size=data.size,
            dragon=data.dragon,
            seat=f.seat,
            player=state.seat_names[f.seat],
            team=f.team,
            hp=f.hp,
            max_hp=data.size,
            alive=f.alive,
            zone=f.zone,
            defence=defence(state, f.id),
            in_play=card_view(state, f.in_play, f.id, False) if f.in_play else None,
            discard=list(f.discard),
            removed=list(f.removed),
            hand_count=len(f.hand),
            picked=f.pick is not None,
            acted=f.acted,
            netted=state.net_on == f.id,
            played_since_refill=f.played_since_refill,
            kick_used=f.kick_used,
            trophies=[t.model_copy() for t in f.trophies],
            trophy_points=sum(state.data(t.fighter).size for t in f.trophies),
            score=fighter_score(state, f.id),
            eliminated_by=f.eliminated_by,
            eliminated_round=f.eliminated_round,
        )
        if own:
            fv.hand = [card_view(state, cid, f.id, True) for cid in f.hand]
            fv.pick = card_view(state, f.pick, f.id, True) if f.pick else None
            fv.secret_unused = any(state.card(c).secret for c in f.hand) or (
                is_dragon(state, f.id) and not f.kick_used
            )
        fighters.append(fv)
    a = state.action
    action = (
        ActionView(
            **a.model_dump(),
            melee_dice=melee_dice(state, a.fighter),
            ranged_dice=ranged_dice(state, a.fighter),
        )
        if a is not None
        else None
    )
    return MAView(
        mode=state.mode,
        seat=seat,
        round=state.round,
        last_round=LAST_ROUND,
        gong_colour=gong_colour(state),
        phase=state.phase,
        countdown=state.countdown,
        zones=[
            ZoneView(index=i, owner=fid, name=state.name(fid), adjacent=adjacent(i, n))
            for i, fid in enumerate(state.zones)
        ],
        centre=n,
        fighters=fighters,
        teams=[list(t) for t in state.teams],
        net_on=state.net_on,
        action=action,
        last=copy_state(state.last) if state.last else None,
        winners=list(state.result_winners) if state.phase == "over" else None,
        result=state.result_text,
        shared=state.result_shared,
    )
