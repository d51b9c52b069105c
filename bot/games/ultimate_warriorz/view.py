"""What each seat may see: hands, face-down picks and charm questions are private.

The numbers the rules derive (defence now, dice a card gives now, effective
initiative, rounds left, the acting fighter's obligations) are computed here
once, by the rules' own functions; the renderer and the AI read them.
"""

from __future__ import annotations

from pydantic import BaseModel

from bot.engine.game import View
from bot.engine.text import Text
from bot.games.ultimate_warriorz.arena import adjacent, distance
from bot.games.ultimate_warriorz.cards import COLOURS_HEX, NAMES, SPECIAL_NAMES
from bot.games.ultimate_warriorz.rules import (
    LAST_ROUND,
    STONES,
    active_effect,
    card,
    defence,
    initiative,
    kamikaze_dice,
)
from bot.games.ultimate_warriorz.state import Fighter, UWState


class CardView(BaseModel):
    """An action card, with the dice it gives its fighter now (computed ones included)."""

    id: str
    initiative: int
    move: int
    melee: int
    ranged: int
    defence: int
    special: str | None
    special_name: Text | None
    melee_now: str
    """What the melee value means now: ``3``, ``3+2`` (spiked pad), ``2+2``, kamikaze/Terminotaure dice."""
    ranged_now: str


class FighterView(BaseModel):
    id: str
    name: str
    colour: str
    size: int
    seat: int
    player: str
    team: int
    hp: int
    zone: int | None
    alive: bool
    pp: int
    first_wound: bool
    """Its big 'first wound' token is still there (3 PP for whoever wounds it first)."""
    trophies: list[str]
    charm: bool
    shock: int
    skull: bool
    defence_now: int
    """The active card's defence (the sheet's before any card); spear whirl: rolled per attack."""
    defence_rolled: bool
    active: CardView | None
    effect: str | None
    """The lasting effect of its active card (ghost-ring, calumet, light-suit, spear-whirl)."""
    effects: list[Text]
    """Lasting effects readable at a glance: ring, calumet, light suit, spear whirl, tokens."""
    picked: bool
    acted: bool
    initiative_now: int | None
    """Its card's initiative this round with any Electroshock token, once revealed (or own)."""
    hand: list[CardView] | None = None
    """Only for its own seat."""
    pick: CardView | None = None
    """Its face-down card, only for its own seat."""
    played: int


class ObligationView(BaseModel):
    kind: str
    dice: int
    special: str | None
    part: str | None
    done: bool
    targets: list[str]


class ActionView(BaseModel):
    fighter: str
    moves_left: int
    visited: list[int]
    obligations: list[ObligationView]


class UWView(View):
    seat: int | None
    mode: str
    phase: str
    round: int
    last_round: int
    rounds_left: int
    stones_now: int
    """Dice the crowd throws at whoever eliminates someone this round (0 from round 4)."""
    countdown: int | None
    fighters: list[FighterView]
    teams: list[list[str]]
    action: ActionView | None
    last: list[Text]
    result: Text | None
    winners: list[str]
    adjacency: dict[int, list[int]]
    distances: dict[str, int]
    """``"a-b"`` -> distance between zones a and b (0, 1 or 2)."""
    charm_question: bool = False
    """Whether this seat is being asked about its lucky charm (never in the public view)."""


def card_view(state: UWState, f: Fighter, cid: str, upcoming: bool) -> CardView:
    c = card(state, cid)
    melee: str = str(c.melee)
    ranged: str = str(c.ranged)
    if c.special == "kamikaze":
        melee = str(kamikaze_dice(f))
    elif c.special == "terminotaure":
        melee = str(len(f.played) + (1 if upcoming else 0))
    elif c.special == "spiked-pad":
        melee = "3+2"
    elif c.special == "spear-whirl":
        melee = "2+2"
    if c.special == "claymore":
        ranged = "1-6"
    elif c.special == "double-shot":
        ranged = f"{c.ranged}x2"
    return CardView(
        id=c.id,
        initiative=c.initiative,
        move=c.move,
        melee=c.melee,
        ranged=c.ranged,
        defence=c.defence,
        special=c.special,
        special_name=SPECIAL_NAMES[c.special] if c.special else None,
        melee_now=melee,
        ranged_now=ranged,
    )


def _effects(state: UWState, f: Fighter) -> list[Text]:
    out: list[Text] = []
    effect = active_effect(state, f)
    if effect == "ghost-ring":
        out.append(Text(fr="💍 intouchable au tir", en="💍 cannot be shot"))
    elif effect == "calumet":
        out.append(Text(fr="🪶 intouchable au corps à corps", en="🪶 no melee on it"))
    elif effect == "light-suit":
        out.append(Text(fr="✨ -1 dé contre lui", en="✨ -1 die against it"))
    elif effect == "spear-whirl":
        out.append(Text(fr="🌀 défense = 1 dé", en="🌀 defence = 1 die"))
    if f.shock:
        out.append(Text(fr=f"⚡{f.shock:+d} initiative", en=f"⚡{f.shock:+d} initiative"))
    if f.skull:
        out.append(Text(fr="💀 ne peut pas attaquer Baobab", en="💀 cannot attack Baobab"))
    return out


def build_view(state: UWState, seat: int | None) -> UWView:
    asked = False
    if state.resolution is not None and seat is not None:
        asked = any(
            r.charm in ("ask", "reroll") and state.fighter(r.target).seat == seat
            for r in state.resolution.rolls
        )
    fighters = []
    for f in state.fighters:
        own = seat is not None and f.seat == seat
        c_active = card_view(state, f, f.active, False) if f.active else None
        fighters.append(
            FighterView(
                id=f.id,
                name=NAMES[f.id],
                colour=COLOURS_HEX[f.id],
                size=f.size,
                seat=f.seat,
                player=state.seat_names[f.seat],
                team=f.team,
                hp=f.hp,
                zone=f.zone,
                alive=f.alive,
                pp=f.pp,
                first_wound=f.first_wound,
                trophies=list(f.trophies),
                charm=f.charm,
                shock=f.shock,
                skull=f.skull,
                defence_now=defence(state, f),
                defence_rolled=active_effect(state, f) == "spear-whirl",
                active=c_active,
                effect=active_effect(state, f),
                effects=_effects(state, f),
                picked=f.pick is not None,
                acted=f.acted,
                initiative_now=(initiative(state, f) if own else None)
                if f.pick is not None
                else None,
                hand=[card_view(state, f, c, True) for c in f.hand] if own else None,
                pick=card_view(state, f, f.pick, True) if own and f.pick else None,
                played=len(f.played),
            )
        )
    action = None
    if state.action is not None:
        a = state.action
        action = ActionView(
            fighter=a.fighter,
            moves_left=a.moves_left,
            visited=list(a.visited),
            obligations=[
                ObligationView(
                    kind=o.kind,
                    dice=o.dice,
                    special=o.special,
                    part=o.part,
                    done=o.done,
                    targets=list(o.targets),
                )
                for o in a.obligations
            ],
        )
    zones = list(range(7))
    return UWView(
        seat=seat,
        mode=state.mode,
        phase=state.phase,
        round=state.round,
        last_round=LAST_ROUND,
        rounds_left=max(0, LAST_ROUND - state.round),
        stones_now=STONES.get(state.round, 0),
        countdown=state.countdown,
        fighters=fighters,
        teams=[list(t) for t in state.teams if any(f.id in t for f in state.fighters)],
        action=action,
        last=list(state.last),
        result=state.result_text,
        winners=list(state.result_fighters),
        adjacency={z: adjacent(z) for z in zones},
        distances={f"{a}-{b}": distance(a, b) for a in zones for b in zones},
        charm_question=asked,
    )
