"""Madsteam's typed view: what one seat (or the public) sees, with every number the
rules derive (supplies left, feeding cost, food track, comfort cap, score) computed
once here from the rules, for the image, the AI and the prompts."""

from __future__ import annotations

import functools

from pydantic import BaseModel, Field

from bot.engine.game import View
from bot.engine.text import Text
from bot.games.madsteam import rules
from bot.games.madsteam.data import HARVEST, HUNTING, PLACES
from bot.games.madsteam.labels import PLACE_NAMES, amount, bag_text, survivors
from bot.games.madsteam.state import MSState


class HeroView(BaseModel):
    seat: int
    value: int
    standing: bool


class OwnHeroView(BaseModel):
    """A clan's hero by its index (the index its moves name)."""

    value: int
    place: str
    standing: bool


class GibierView(BaseModel):
    name: Text
    strength: int
    food: list[int]


class PlaceView(BaseModel):
    id: str
    name: Text
    resource: str | None
    supply: int | None
    """Tokens left on the place this round (None: a place without a supply)."""
    heroes: list[HeroView]
    gibier_top: GibierView | None = None
    """The visible top card of the place's gibier stack (the cards under it are unseen)."""
    gibier_count: int = 0
    search_left: int | None = None
    search_aside: list[Text] = Field(default_factory=list)
    """Mise en place: the search cards left out of the house this round, face up."""
    objects: list[Text] = Field(default_factory=list)
    slots: list[int | None] = Field(default_factory=list)
    """Supermarket: the seat on each slot (None: free)."""
    slot_values: list[int] = Field(default_factory=list)
    """Supermarket: the meeple value each slot takes."""
    slot_cans: list[int] = Field(default_factory=list)


class RoomView(BaseModel):
    name: Text
    slots: int
    survivors: int
    cost: int
    active: bool
    power: Text


class ObjectView(BaseModel):
    id: str
    name: Text
    cost: list[str]
    effect: Text
    symbol: str
    half: str
    used: bool = False


class EventView(BaseModel):
    id: str
    name: Text
    effects: Text
    cost: dict[str, int]
    points: int


class PlayerView(BaseModel):
    seat: int
    name: str
    shelter: Text | None
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
    heroes: list[OwnHeroView] = Field(default_factory=list)
    inactive: list[ObjectView]
    active: list[ObjectView]
    drawn: list[ObjectView] = Field(default_factory=list)
    """Set-up objects to choose from: only in the owner's view."""
    resolved: list[Text]
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


@functools.lru_cache(maxsize=1024)
def effect_text(kind: str, place: str | None, resource: str | None, n: int) -> Text:
    """An object's effect or a room's power, in both languages (kept: a view shows every
    room's power of every clan, and a Text is immutable)."""
    where = PLACE_NAMES[place] if place else Text(fr="", en="")
    fr_res = amount(n, resource, "fr") if resource else str(n)
    en_res = amount(n, resource, "en") if resource else str(n)
    steps_fr = f"{n} cran" + ("s" if n > 1 else "")
    steps_en = f"{n} step" + ("s" if n != 1 else "")
    texts = {
        "none": ("—", "—"),
        "bonus": (f"{where.fr} : +{fr_res}", f"{where.en}: +{en_res}"),
        "hunt": (f"Chasse : +{n}", f"Hunting: +{n}"),
        "search": (
            f"Fouille : +{n} carte" + ("s" if n > 1 else ""),
            f"Search: +{n} card" + ("s" if n != 1 else ""),
        ),
        "free_well": ("Puits : accès libre", "Well: free access (no chip)"),
        "hunt_choice": ("Choix du gibier", "Choice of prey"),
        "free_move": ("Mouvement illimité", "Unlimited movement"),
        "income": (f"+{fr_res} par tour", f"+{en_res} per round"),
        "comfort": (f"Confort +{steps_fr} par tour", f"Comfort +{steps_en} per round"),
    }
    fr, en = texts.get(kind, (kind, kind))
    return Text(fr=fr, en=en)


@functools.lru_cache(maxsize=1024)
def event_text(kind: str, place: str | None, resource: str | None, n: int) -> Text:
    """An event's immediate effect (Phase Evènements), in both languages (kept, as above)."""
    if kind == "lose" and resource:
        return Text(
            fr=f"chaque clan perd {amount(n, resource, 'fr')}",
            en=f"every clan loses {amount(n, resource, 'en')}",
        )
    if kind == "supply" and place:
        return Text(
            fr=f"{PLACE_NAMES[place].fr} : {n} de moins ce tour",
            en=f"{PLACE_NAMES[place].en}: {n} fewer this round",
        )
    if kind == "survivors":
        return Text(
            fr=f"chaque clan perd {survivors(n, 'fr')} de son choix",
            en=f"every clan loses {survivors(n, 'en')} of its choice",
        )
    return Text(
        fr=f"nourrir coûte {n} denrée{'s' if n > 1 else ''} de plus",
        en=f"feeding costs {n} more provision{'s' if n != 1 else ''}",
    )


def _object(state: MSState, oid: str, used: bool = False) -> ObjectView:
    o = state.data.obj(oid)
    e = o.effect
    return ObjectView(
        id=o.id,
        name=o.names,
        cost=list(o.cost),
        effect=effect_text(e.kind, e.place, e.resource, e.amount),
        symbol=o.symbol,
        half=o.half,
        used=used,
    )


def _event(state: MSState, eid: str) -> EventView:
    ev = state.data.event(eid)
    parts = [event_text(e.kind, e.place, e.resource, e.amount) for e in ev.effects]
    eff = Text(fr="; ".join(t.fr for t in parts), en="; ".join(t.en for t in parts))
    return EventView(id=eid, name=ev.names, effects=eff, cost=dict(ev.cost), points=ev.points)


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
            stack = state.gibier.get(pid, [])
            pv.gibier_count = len(stack)
            if stack:
                top = stack[-1]
                pv.gibier_top = GibierView(name=top.names, strength=top.strength, food=top.food)
        if pid in ("house_a", "house_b"):
            pv.search_left = len(state.search.get(pid, []))
            pv.search_aside = [bag_text(c) for c in state.search_aside.get(pid, [])]
            pv.objects = [state.data.obj(o).names for o in state.house_objects.get(pid, [])]
        if pid == "supermarket":
            pv.slots = list(state.slots)
            pv.slot_values = [sl.value for sl in state.data.supermarket]
            pv.slot_cans = [sl.cans for sl in state.data.supermarket]
        places.append(pv)
    players = []
    strengths = sorted({g.strength for g in state.data.gibier})
    for i, p in enumerate(state.players):
        rooms = rules.shelter_rooms(state, p)
        players.append(
            PlayerView(
                seat=i,
                name=p.name,
                shelter=state.data.shelter(p.shelter).names if p.shelter else None,
                resources={
                    r: p.has(r) for r in ("water", "food", "cans", "wood", "metal", "chips", "ammo")
                },
                rooms=[
                    RoomView(
                        name=r.names,
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
                heroes=[
                    OwnHeroView(value=h.value, place=h.place, standing=h.standing) for h in p.heroes
                ],
                inactive=[_object(state, o) for o in p.inactive],
                active=[_object(state, o, o in p.used) for o in p.active],
                drawn=[_object(state, o) for o in p.drawn] if seat == i else [],
                resolved=[state.data.event(e).names for e in p.resolved],
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
