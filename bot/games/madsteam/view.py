"""Madsteam's typed view: what one seat (or the public) sees, with every number the
rules derive (supplies left, feeding cost, food track, comfort cap, score) computed
once here from the rules, for the image, the AI and the prompts."""

from __future__ import annotations

from pydantic import BaseModel, Field

from bot.engine.game import View
from bot.engine.text import Text
from bot.games.madsteam import rules
from bot.games.madsteam.data import HARVEST, HUNTING, PLACES
from bot.games.madsteam.labels import PLACE_NAMES
from bot.games.madsteam.state import MSState


class HeroView(BaseModel):
    seat: int
    value: int
    standing: bool


class GibierView(BaseModel):
    name: str
    strength: int
    food: list[int]


class PlaceView(BaseModel):
    id: str
    name: Text
    resource: str | None
    supply: int | None
    """Tokens left on the place this round (None: a place without a supply)."""
    heroes: list[HeroView]
    gibier: list[GibierView] = Field(default_factory=list)
    """The stack, bottom first; the last one is the visible top."""
    search_left: int | None = None
    objects: list[str] = Field(default_factory=list)
    slots: list[int | None] = Field(default_factory=list)
    """Supermarket: the seat on each slot (None: free)."""


class RoomView(BaseModel):
    name: str
    slots: int
    survivors: int
    cost: int
    active: bool
    power: str


class ObjectView(BaseModel):
    id: str
    name: str
    cost: list[str]
    effect: str
    symbol: str
    half: str
    used: bool = False


class EventView(BaseModel):
    id: str
    name: str
    effects: str
    cost: dict[str, int]
    points: int


class PlayerView(BaseModel):
    seat: int
    name: str
    shelter: str | None
    resources: dict[str, int]
    rooms: list[RoomView]
    survivors: int
    comfort: int
    survivors_scored: int
    """Survivors validated by comfort (min of both)."""
    feed_cost: int
    hunt_bonus: int
    next_food: dict[int, int]
    """Food the next kill of each strength would give this clan (its growing track)."""
    kills: dict[int, int]
    inactive: list[ObjectView]
    active: list[ObjectView]
    drawn: list[ObjectView] = Field(default_factory=list)
    """Set-up objects to choose from: only in the owner's view."""
    resolved: list[str]
    score: int
    score_parts: dict[str, int]
    first: bool


class MSView(View):
    seat: int | None
    round: int
    rounds: int
    rounds_left: int
    phase: str
    first: int
    turn: int | None
    recruit_price: int
    places: list[PlaceView]
    players: list[PlayerView]
    events_active: list[EventView]
    next_event: EventView | None
    events_left: int
    summary: list[Text]
    arrival_place: str | None = None
    winners: list[int] = Field(default_factory=list)
    scores: dict[int, int] = Field(default_factory=dict)


def effect_text(kind: str, place: str | None, resource: str | None, amount: int) -> str:
    where = PLACE_NAMES[place].fr if place else ""
    return {
        "none": "—",
        "bonus": f"{where} : +{amount} {resource}",
        "hunt": f"Chasse : +{amount}",
        "search": f"Fouille : +{amount}",
        "free_well": "Puits : accès libre",
        "hunt_choice": "Choix du gibier",
        "free_move": "Mouvement illimité",
        "income": f"+{amount} {resource} / tour",
        "comfort": f"Confort +{amount} cran / tour",
    }.get(kind, kind)


def _object(state: MSState, oid: str, used: bool = False) -> ObjectView:
    o = state.data.obj(oid)
    e = o.effect
    return ObjectView(
        id=o.id,
        name=o.name,
        cost=list(o.cost),
        effect=effect_text(e.kind, e.place, e.resource, e.amount),
        symbol=o.symbol,
        half=o.half,
        used=used,
    )


def _event(state: MSState, eid: str) -> EventView:
    ev = state.data.event(eid)
    eff = "; ".join(
        f"{e.kind} {e.resource or e.place or ''} {e.amount}".replace("  ", " ") for e in ev.effects
    )
    return EventView(id=eid, name=ev.name, effects=eff, cost=dict(ev.cost), points=ev.points)


def build_view(state: MSState, seat: int | None) -> MSView:
    places = []
    for pid in PLACES:
        heroes = [
            HeroView(seat=s, value=h.value, standing=h.standing)
            for s, p in enumerate(state.players)
            for h in p.heroes
            if h.place == pid
        ]
        pv = PlaceView(
            id=pid,
            name=PLACE_NAMES[pid],
            resource=HARVEST.get(pid),
            supply=state.supply.get(pid) if pid in HARVEST else None,
            heroes=heroes,
        )
        if pid in HUNTING:
            pv.gibier = [
                GibierView(name=g.name, strength=g.strength, food=list(g.food))
                for g in state.gibier.get(pid, [])
            ]
        if pid in ("house_a", "house_b"):
            pv.search_left = len(state.search.get(pid, []))
            pv.objects = [state.data.obj(o).name for o in state.house_objects.get(pid, [])]
        if pid == "supermarket":
            pv.slots = list(state.slots)
        places.append(pv)
    players = []
    strengths = sorted({g.strength for g in state.data.gibier})
    for i, p in enumerate(state.players):
        rooms = rules.shelter_rooms(state, p)
        players.append(
            PlayerView(
                seat=i,
                name=p.name,
                shelter=state.data.shelter(p.shelter).name if p.shelter else None,
                resources={
                    r: p.has(r) for r in ("water", "food", "cans", "wood", "metal", "chips", "ammo")
                },
                rooms=[
                    RoomView(
                        name=r.name,
                        slots=r.slots,
                        survivors=p.rooms[k],
                        cost=r.cost,
                        active=rules.room_active(state, p, k),
                        power=effect_text(
                            r.power.kind, r.power.place, r.power.resource, r.power.amount
                        ),
                    )
                    for k, r in enumerate(rooms)
                ],
                survivors=p.survivors,
                comfort=p.comfort,
                survivors_scored=min(p.survivors, p.comfort),
                feed_cost=rules.feed_cost(state, p),
                hunt_bonus=rules.hunt_bonus(state, p),
                next_food={
                    s: next(
                        (
                            k.food[min(p.kills.get(s, 0), len(k.food) - 1)]
                            for k in state.data.gibier
                            if k.strength == s
                        ),
                        0,
                    )
                    for s in strengths
                },
                kills=dict(p.kills),
                inactive=[_object(state, o) for o in p.inactive],
                active=[_object(state, o, o in p.used) for o in p.active],
                drawn=[_object(state, o) for o in p.drawn] if seat == i else [],
                resolved=[state.data.event(e).name for e in p.resolved],
                score=rules.score(state, p),
                score_parts=rules.score_parts(state, p),
                first=state.first == i,
            )
        )
    turn: int | None = None
    if state.phase == "harvest":
        turn = state.arrival.seat if state.arrival else state.turn
    return MSView(
        seat=seat,
        round=state.round,
        rounds=rules.ROUNDS,
        rounds_left=max(0, rules.ROUNDS - state.round),
        phase=state.phase,
        first=state.first,
        turn=turn,
        recruit_price=rules.recruit_price(state),
        places=places,
        players=players,
        events_active=[_event(state, e) for e in state.events_active],
        next_event=_event(state, state.event_deck[0]) if state.event_deck else None,
        events_left=len(state.event_deck),
        summary=list(state.summary),
        arrival_place=state.arrival.place if state.arrival else None,
        winners=list(state.winners),
        scores=dict(state.scores),
    )
