"""Madsteam's rules: set-up, the six rounds (events, harvest, shelter), scoring.

Section names in docstrings are the rule book's (madsteam.fr.txt). Every step
with no real choice is played at once by :func:`advance`; :func:`pending` only
asks real questions, with legal values only.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from bot.engine.decisions import (
    Allocation,
    Answer,
    Decision,
    Many,
    Option,
    Quantity,
    Total,
)
from bot.engine.errors import IllegalDecision
from bot.engine.game import Ctx, SeatSpec
from bot.engine.text import Text
from bot.games.madsteam.args import (
    About,
    Comfort,
    Hunt,
    KeepObject,
    Move,
    PayRecruits,
    PickShelter,
    PlaceHeroes,
    Pump,
    Resolve,
)
from bot.games.madsteam.data import (
    DENREES,
    HARVEST,
    HUNTING,
    PLACES,
    Effect,
    GameData,
    Place,
    load_data,
)
from bot.games.madsteam.labels import PLACE_NAMES, RES_EMOJI, amount, bag_text, res_name
from bot.games.madsteam.state import HERO_VALUES, Arrival, Gibier, Hero, MSState, Player

ROUNDS = 6
EVENT_ROUNDS = 5
"""Phase Evènements: one event drawn in each of rounds 1-5 (RULINGS), none in 6."""
EVENTS_KEPT = 5
START_PLACES: list[Place] = ["well", "house_a", "house_b", "supermarket"]
PRESSURE_GIFTS: list[str] = ["wood", "metal", "chips"]
"""What a pressured clan gives: ressources (the book keeps denrées apart); ammo defends."""
COMFORT_RES: list[str] = ["wood", "metal", "chips"]
COMFORT_PRICE = 2
COMFORT_STEP = 2
"""Amélioration du Confort: the gauge reads 4, 6, 8...; a step is 2 (12 + 2 steps = 16)."""
KEEP_WATER = 1

EDGES: set[frozenset[str]] = {
    frozenset((PLACES[i], PLACES[(i + 1) % len(PLACES)])) for i in range(len(PLACES))
} | {frozenset(("well", "forest"))}


def T(fr: str, en: str) -> Text:
    return Text(fr=fr, en=en)


# --- board ---------------------------------------------------------------------------------
def neighbours(place: str) -> list[Place]:
    return [p for p in PLACES if frozenset((place, p)) in EDGES]


def distances(src: str) -> dict[Place, int]:
    """Steps along the paths from ``src`` (Règles de déplacement)."""
    dist: dict[Place, int] = {}
    queue: deque[tuple[str, int]] = deque([(src, 0)])
    seen = {src}
    while queue:
        p, d = queue.popleft()
        for q in neighbours(p):
            if q not in seen:
                seen.add(q)
                dist[q] = d + 1
                queue.append((q, d + 1))
    return dist


def legal_moves(state: MSState, seat: int) -> list[Move]:
    """Très important : règles de déplacement. A lying hero moves 1-2 steps, never stays,
    never onto a place holding one of its clan's heroes (lying or standing); passing
    through is allowed. An active free-move object lifts the distance limit once a round."""
    p = state.players[seat]
    own = {h.place for h in p.heroes}
    free = _object_ready(state, p, "free_move") is not None
    out: list[Move] = []
    for i, h in enumerate(p.heroes):
        if h.standing:
            continue
        dist = distances(h.place)
        for place in PLACES:
            if place == h.place or place in own:
                continue
            if dist.get(place, 99) <= 2:
                out.append(Move(hero=i, place=place))
            elif free:
                out.append(Move(hero=i, place=place, free_move=True))
    return out


# --- shelter numbers -----------------------------------------------------------------------
def shelter_rooms(state: MSState, p: Player) -> list[Any]:
    return list(state.data.shelter(p.shelter).rooms) if p.shelter else []


def room_active(state: MSState, p: Player, i: int) -> bool:
    """Activation des salles: a room's power works only while every slot is occupied."""
    rooms = shelter_rooms(state, p)
    return bool(rooms) and p.rooms[i] == rooms[i].slots


def active_powers(state: MSState, p: Player) -> list[Effect]:
    return [r.power for i, r in enumerate(shelter_rooms(state, p)) if room_active(state, p, i)]


def feed_cost(state: MSState, p: Player) -> int:
    """Fourniture des Denrées: each room with at least one survivor costs its denrées
    (full or not), plus what unresolved events add this round."""
    rooms = shelter_rooms(state, p)
    base = sum(r.cost for i, r in enumerate(rooms) if p.rooms[i] > 0)
    return base + state.feed_extra if p.survivors else 0


def recruit_price(state: MSState) -> int:
    """Recrutement: 1 denrée per survivor, doubled in the last round."""
    return 2 if state.round == ROUNDS else 1


def denrees(p: Player) -> int:
    return sum(p.has(r) for r in DENREES)


def free_slots(state: MSState, p: Player) -> list[int]:
    return [r.slots - p.rooms[i] for i, r in enumerate(shelter_rooms(state, p))]


def symbols_completed(state: MSState, p: Player) -> int:
    """Conditions de victoire: 1 PS per symbol whose two halves are both repaired."""
    halves: dict[str, set[str]] = {}
    for oid in p.active:
        o = state.data.obj(oid)
        halves.setdefault(o.symbol, set()).add(o.half)
    return sum(1 for h in halves.values() if len(h) == 2)


def score_parts(state: MSState, p: Player) -> dict[str, int]:
    """Conditions de victoire: survivors validated by comfort, events, objects, symbols."""
    return {
        "survivors": min(p.survivors, p.comfort),
        "events": sum(state.data.event(e).points for e in p.resolved),
        "objects": len(p.active),
        "symbols": symbols_completed(state, p),
    }


def score(state: MSState, p: Player) -> int:
    return sum(score_parts(state, p).values())


def can_pay(p: Player, cost: dict[str, int]) -> bool:
    return all(p.has(r) >= n for r, n in cost.items())


def object_cost(state: MSState, oid: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for r in state.data.obj(oid).cost:
        out[r] = out.get(r, 0) + 1
    return out


def _object_ready(state: MSState, p: Player, kind: str) -> str | None:
    """An active object of this effect kind not used yet this round (once per round)."""
    for oid in p.active:
        if oid not in p.used and state.data.obj(oid).effect.kind == kind:
            return oid
    return None


def hunt_bonus(state: MSState, p: Player) -> int:
    """+N to a hunt: full rooms with a hunt power, and one unused hunt object."""
    bonus = sum(e.amount for e in active_powers(state, p) if e.kind == "hunt")
    oid = _object_ready(state, p, "hunt")
    if oid is not None:
        bonus += state.data.obj(oid).effect.amount
    return bonus


def food_value(p: Player, g: Gibier) -> int:
    """Emplacements de Gibiers: the first kill of a strength gives the lowest food value,
    the next one the next value, and so on (the track's last value after that)."""
    k = p.kills.get(g.strength, 0)
    return g.food[min(k, len(g.food) - 1)]


def huntable(state: MSState, seat: int, place: str, value: int) -> list[int]:
    """Indices of the gibier this hero may kill: strength within value + bonus + ammo; the
    top card only, any card with an unused hunt-choice object (Vision thermique)."""
    p = state.players[seat]
    stack = state.gibier.get(place, [])
    if not stack:
        return []
    reach = value + hunt_bonus(state, p) + p.has("ammo")
    choice = _object_ready(state, p, "hunt_choice") is not None
    idx = range(len(stack)) if choice else [len(stack) - 1]
    return [i for i in idx if stack[i].strength <= reach]


# --- set-up --------------------------------------------------------------------------------
def setup_state(seats: list[SeatSpec], options: dict[str, Any], ctx: Ctx) -> MSState:
    """Mise en place: data, board supplies, shelters, objects, events, first player."""
    n = len(seats)
    if not 2 <= n <= 4:
        raise IllegalDecision(T("Madsteam se joue de 2 à 4.", "Madsteam is for 2 to 4 players."))
    data: GameData = load_data(options.get("data"), options.get("data_text"))
    players = [Player(name=s.name, res={"ammo": 1, "chips": 1}, comfort=4) for s in seats]
    deck = ctx.rng.shuffle([o.id for o in data.objects])
    for p in players:
        p.drawn = [deck.pop(), deck.pop()]
    events = ctx.rng.shuffle([e.id for e in data.events])
    kept = events[: len(events) - EVENTS_KEPT]
    cards = [
        Gibier(name=g.name, name_en=g.name_en, strength=g.strength, food=list(g.food))
        for g in data.gibier
        for _ in range(g.count)
        if n > 2 or g.strength != 2
    ]
    cards = ctx.rng.shuffle(cards)[: data.supplies[n].gibier]
    stacks: dict[str, list[Gibier]] = {p: [] for p in HUNTING}
    for i, c in enumerate(cards):
        stacks[HUNTING[i % 3]].append(c)
    state = MSState(
        data=data,
        players=players,
        object_deck=deck,
        event_deck=kept,
        gibier=stacks,
        first=ctx.rng.randint(0, n - 1),
    )
    state.pick_turn = state.first
    ctx.emit(
        "setup",
        T(
            f"🏭 Madsteam à {n} : {len(cards)} gibiers en jeu, 5 événements retirés sans les voir. "
            f"Premier joueur : {players[state.first].name}. Chacun choisit son abri.",
            f"🏭 Madsteam with {n}: {len(cards)} gibier in play, 5 events removed unseen. "
            f"First player: {players[state.first].name}. Everyone picks a shelter.",
        ),
    )
    return state


def _free_shelters(state: MSState) -> list[str]:
    taken = {p.shelter for p in state.players}
    return [s.id for s in state.data.shelters if s.id not in taken]


# --- rounds --------------------------------------------------------------------------------
def start_round(state: MSState, ctx: Ctx) -> None:
    """Réapprovisionnement, then Phase Evènements."""
    state.round += 1
    n = state.n
    sup = state.data.supplies[n]
    state.supply = {place: sup.of(res) for place, res in HARVEST.items()}
    state.feed_extra = 0
    state.token_taken = False
    state.slots = [None] * 4
    state.moves = 0
    state.summary = []
    for house, letter in (("house_a", "A"), ("house_b", "B")):
        cards = [
            dict(k.gives) for k in state.data.search if k.house == letter for _ in range(k.count)
        ]
        cards = ctx.rng.shuffle(cards)
        state.search[house] = cards[: sup.search]
        state.search_aside[house] = cards[sup.search :]
        # Unclaimed objects are replaced each round.
        state.object_deck = state.house_objects.get(house, []) + state.object_deck
        state.house_objects[house] = []
    for house in ("house_a", "house_b"):
        take = min(n, len(state.object_deck))
        state.house_objects[house] = [state.object_deck.pop() for _ in range(take)]
    for p in state.players:
        p.used = []
        for h in p.heroes:
            h.standing = False
    ctx.emit(
        "round",
        T(
            f"🔔 Tour {state.round} sur {ROUNDS}"
            + (" — dernier tour !" if state.round == ROUNDS else "."),
            f"🔔 Round {state.round} of {ROUNDS}"
            + (" — last round!" if state.round == ROUNDS else "."),
        ),
        round=state.round,
    )
    state.phase = "events"
    if state.round <= EVENT_ROUNDS and state.event_deck:
        eid = state.event_deck.pop(0)
        state.events_active.append(eid)
        ev = state.data.event(eid)
        ctx.emit("event", T(f"⚠️ Événement : {ev.names.fr}.", f"⚠️ Event: {ev.names.en}."), event=eid)
    for eid in state.events_active:
        _apply_event(state, eid, ctx)
    if state.event_deck:
        nxt = state.data.event(state.event_deck[0])
        ctx.emit(
            "next-event", T(f"Prochain événement : {nxt.names.fr}.", f"Next event: {nxt.names.en}.")
        )


def _apply_event(state: MSState, eid: str, ctx: Ctx) -> None:
    """Phase Evènements: the drawn event and every unresolved one apply their effect."""
    ev = state.data.event(eid)
    for eff in ev.effects:
        if eff.kind == "lose" and eff.resource is not None:
            for p in state.players:
                p.res[eff.resource] = max(0, p.has(eff.resource) - eff.amount)
        elif eff.kind == "supply" and eff.place is not None:
            state.supply[eff.place] = max(0, state.supply.get(eff.place, 0) - eff.amount)
        elif eff.kind == "survivors":
            for p in state.players:
                p.to_lose += eff.amount
        elif eff.kind == "feed":
            state.feed_extra += eff.amount


def _start_harvest(state: MSState, ctx: Ctx) -> None:
    state.phase = "harvest"
    state.round_first = state.first
    state.turn = state.first


def _next_turn(state: MSState, ctx: Ctx) -> None:
    """Phase de Récolte: in turn order, one hero at a time, until every hero has moved."""
    state.moves += 1
    for k in range(1, state.n + 1):
        seat = (state.turn + k) % state.n
        if any(not h.standing for h in state.players[seat].heroes):
            state.turn = seat
            return
    # Every hero played: they lie down, the shelter phase begins.
    for p in state.players:
        for h in p.heroes:
            h.standing = False
    state.phase = "shelter"
    for p in state.players:
        p.step = "feed"
    ctx.emit("shelter", T("🏠 Phase d'Abri.", "🏠 Shelter phase."))


def do_move(state: MSState, seat: int, mv: Move, ctx: Ctx) -> None:
    p = state.players[seat]
    h = p.heroes[mv.hero]
    if mv.free_move:
        oid = _object_ready(state, p, "free_move")
        if oid is not None:
            p.used.append(oid)
    h.place = mv.place
    h.standing = True
    ctx.emit(
        "move",
        T(
            f"{p.name} : héros {h.value} → {PLACE_NAMES[mv.place].fr}.",
            f"{p.name}: hero {h.value} → {PLACE_NAMES[mv.place].en}.",
        ),
        seat=seat,
        hero=mv.hero,
        place=mv.place,
    )
    defenders: dict[int, int] = {}
    for s, other in enumerate(state.players):
        if s == seat:
            continue
        for oh in other.heroes:
            if oh.place == mv.place and oh.standing and oh.value < h.value:
                defenders[s] = h.value - oh.value
    state.arrival = Arrival(seat=seat, hero=mv.hero, place=mv.place, defenders=defenders)


def pressure_total(p: Player, diff: int) -> int:
    return min(diff, p.has("ammo") + sum(p.has(r) for r in PRESSURE_GIFTS))


def pressure_forced(p: Player, diff: int) -> dict[str, int] | None:
    """The only possible answer to a pressure, if there is just one."""
    total = pressure_total(p, diff)
    kinds = [r for r in ("ammo", *PRESSURE_GIFTS) if p.has(r)]
    if total == 0:
        return {}
    if total == p.has("ammo") + sum(p.has(r) for r in PRESSURE_GIFTS) or len(kinds) == 1:
        left = total
        out: dict[str, int] = {}
        for r in kinds:
            take = min(left, p.has(r))
            out[r] = take
            left -= take
        return out
    return None


def resolve_pressure(state: MSState, defender: int, amounts: dict[str, int], ctx: Ctx) -> None:
    """Système de Pression: the defender spends ammo to match the aggressor's strength
    and/or gives chosen ressources for the rest of the difference."""
    arr = state.arrival
    assert arr is not None
    p = state.players[defender]
    attacker = state.players[arr.seat]
    ammo = amounts.get("ammo", 0)
    p.add("ammo", -ammo)
    gifts: dict[str, int] = {}
    for r in PRESSURE_GIFTS:
        n = amounts.get(r, 0)
        if n:
            p.add(r, -n)
            attacker.add(r, n)
            gifts[r] = n
    del arr.defenders[defender]
    fr = f"🛡️ {p.name} subit la pression de {attacker.name} : "
    en = f"🛡️ {p.name} is pressured by {attacker.name}: "
    if ammo:
        fr += f"{amount(ammo, 'ammo', 'fr')} pour se défendre"
        en += f"{amount(ammo, 'ammo', 'en')} to defend"
    if gifts:
        fr += (" et " if ammo else "") + f"donne {bag_text(gifts).fr}"
        en += (" and " if ammo else "") + f"gives {bag_text(gifts).en}"
    if not ammo and not gifts:
        fr += "rien à donner"
        en += "nothing to give"
    text = T(fr + ".", en + ".")
    state.summary.append(text)
    ctx.emit("pressure", text, defender=defender, attacker=arr.seat, ammo=ammo, gifts=gifts)


def _gain(p: Player, r: str, n: int) -> None:
    if r == "comfort":
        p.comfort += COMFORT_STEP * n
    else:
        p.add(r, n)


def _place_bonuses(state: MSState, seat: int, place: str, ctx: Ctx) -> dict[str, int]:
    """Objects (once per round) and full rooms giving more at a place (Pioche: Mine +2
    Métaux, while the place has enough left; other resources come from the reserve)."""
    p = state.players[seat]
    effects: list[Effect] = [e for e in active_powers(state, p) if e.kind == "bonus"]
    for oid in p.active:
        e = state.data.obj(oid).effect
        if e.kind == "bonus" and e.place == place and oid not in p.used:
            p.used.append(oid)
            effects.append(e)
    got: dict[str, int] = {}
    for e in effects:
        if e.place != place or e.resource is None:
            continue
        n = e.amount
        if HARVEST.get(place) == e.resource:
            n = min(n, state.supply.get(place, 0))
            state.supply[place] -= n
        if n:
            p.add(e.resource, n)
            got[e.resource] = got.get(e.resource, 0) + n
    return got


def harvest_place(state: MSState, seat: int, place: str, value: int, ctx: Ctx) -> None:
    """Forêt, Mine, Usine, Armurerie, Puits: x resources by the hero's value, while supplies last."""
    p = state.players[seat]
    res = HARVEST[place]
    n = max(0, min(value, state.supply.get(place, 0)))
    state.supply[place] = state.supply.get(place, 0) - n
    p.add(res, n)
    got = {res: n}
    for r, k in _place_bonuses(state, seat, place, ctx).items():
        got[r] = got.get(r, 0) + k
    ctx.emit(
        "harvest",
        T(f"{p.name} récolte {bag_text(got).fr}.", f"{p.name} collects {bag_text(got).en}."),
        seat=seat,
        place=place,
        got=got,
    )


def continue_arrival(state: MSState, ctx: Ctx) -> None:
    """Pressure first (forced answers at once), then the place's action."""
    arr = state.arrival
    if arr is None:
        return
    if arr.stage == "pressure":
        for s in list(arr.defenders):
            forced = pressure_forced(state.players[s], arr.defenders[s])
            if forced is not None:
                resolve_pressure(state, s, forced, ctx)
        if arr.defenders:
            return
        arr.stage = "act"
    if arr.stage != "act":
        return
    p = state.players[arr.seat]
    hero = p.heroes[arr.hero]
    place = arr.place
    if place == "well":
        free = _object_ready(state, p, "free_well")
        if state.supply.get("well", 0) > 0 and (free is not None):
            p.used.append(free)
            harvest_place(state, arr.seat, "well", hero.value, ctx)
        elif state.supply.get("well", 0) > 0 and p.has("chips") > 0:
            arr.stage = "well"
            return
    elif place in HUNTING:
        if huntable(state, arr.seat, place, hero.value):
            arr.stage = "hunt-pick"
            return
        harvest_place(state, arr.seat, place, hero.value, ctx)
    elif place in HARVEST:
        harvest_place(state, arr.seat, place, hero.value, ctx)
    elif place in ("house_a", "house_b"):
        if state.search[place] or state.house_objects[place]:
            arr.stage = "house"
            return
    elif place == "supermarket":
        supermarket(state, arr.seat, hero.value, ctx)
    _end_arrival(state, ctx)


def _end_arrival(state: MSState, ctx: Ctx) -> None:
    state.arrival = None
    _next_turn(state, ctx)


def supermarket_slot(state: MSState, value: int) -> int | None:
    """Supermarché: « placer un Meeple de la valeur indiquée sur un des 4 emplacements » —
    a hero takes a free slot showing its own value. Nothing is left to choose: slots of
    one value differ at most by their cans, and the most cans is always the better one
    (the slot left over is the same for the others)."""
    best: int | None = None
    for i, slot in enumerate(state.data.supermarket):
        if state.slots[i] is None and slot.value == value:
            if best is None or slot.cans > state.data.supermarket[best].cans:
                best = i
    return best


def supermarket(state: MSState, seat: int, value: int, ctx: Ctx) -> None:
    """Supermarché: the free slot of the hero's value gives its cans (none free: no cans);
    the round's first hero here takes the first-player token (active from the shelter
    phase)."""
    p = state.players[seat]
    best = supermarket_slot(state, value)
    got: dict[str, int] = {}
    if best is not None:
        state.slots[best] = seat
        cans = state.data.supermarket[best].cans
        p.add("cans", cans)
        got["cans"] = cans
    for r, k in _place_bonuses(state, seat, "supermarket", ctx).items():
        got[r] = got.get(r, 0) + k
    fr = f"{p.name} récolte {bag_text(got).fr}"
    en = f"{p.name} collects {bag_text(got).en}"
    if not state.token_taken:
        state.token_taken = True
        state.first = seat
        fr += " et prend le jeton premier joueur"
        en += " and takes the first-player token"
    ctx.emit("harvest", T(fr + ".", en + "."), seat=seat, place="supermarket", got=got)


def hunt_range(state: MSState, seat: int, value: int, g: Gibier) -> tuple[int, int, int]:
    """(need, lowest, highest) harvest value spent on a hunt: value + ammo must reach the
    strength left once bonuses count."""
    p = state.players[seat]
    need = max(0, g.strength - hunt_bonus(state, p))
    lo = max(0, need - p.has("ammo"))
    hi = min(value, need)
    return need, lo, hi


def do_hunt(state: MSState, spent: int, ammo: int, ctx: Ctx) -> None:
    """Chasse: kill the gibier, gain food by its track, harvest with the value left."""
    arr = state.arrival
    assert arr is not None and arr.target is not None
    seat, place = arr.seat, arr.place
    p = state.players[seat]
    hero = p.heroes[arr.hero]
    stack = state.gibier[place]
    g = stack[arr.target]
    if arr.target != len(stack) - 1:
        oid = _object_ready(state, p, "hunt_choice")
        if oid is not None:
            p.used.append(oid)
    oid = _object_ready(state, p, "hunt")
    if oid is not None:
        p.used.append(oid)
    food = food_value(p, g)
    p.kills[g.strength] = p.kills.get(g.strength, 0) + 1
    p.add("ammo", -ammo)
    p.add("food", food)
    stack.pop(arr.target)
    text = T(
        f"🏹 {p.name} tue {g.names.fr} (force {g.strength}) avec {hero.value} de récolte dont "
        f"{spent} à la chasse et {amount(ammo, 'ammo', 'fr')} : {amount(food, 'food', 'fr')}.",
        f"🏹 {p.name} kills {g.names.en} (strength {g.strength}) with harvest value {hero.value}, "
        f"{spent} of it hunting, and {amount(ammo, 'ammo', 'en')}: {amount(food, 'food', 'en')}.",
    )
    state.summary.append(text)
    ctx.emit("hunt", text, seat=seat, strength=g.strength, food=food, ammo=ammo)
    harvest_place(state, seat, place, hero.value - spent, ctx)
    _end_arrival(state, ctx)


def do_house(state: MSState, search: int, objects: list[str], ctx: Ctx) -> None:
    """Maisons: the value is split between search cards and visible objects (1 each)."""
    arr = state.arrival
    assert arr is not None
    p = state.players[arr.seat]
    place = arr.place
    got: dict[str, int] = {}
    if search:
        oid = _object_ready(state, p, "search")
        if oid is not None:
            p.used.append(oid)
            search += state.data.obj(oid).effect.amount
    for _ in range(min(search, len(state.search[place]))):
        card = state.search[place].pop()
        for r, k in card.items():
            _gain(p, r, k)
            got[r] = got.get(r, 0) + k
    for oid in objects:
        state.house_objects[place].remove(oid)
        p.inactive.append(oid)
    fr_names = ", ".join(state.data.obj(o).names.fr for o in objects)
    en_names = ", ".join(state.data.obj(o).names.en for o in objects)
    ctx.emit(
        "search",
        T(
            f"{p.name} fouille ({bag_text(got).fr})"
            + (f" et prend {fr_names}." if fr_names else "."),
            f"{p.name} searches ({bag_text(got).en})"
            + (f" and takes {en_names}." if en_names else "."),
        ),
        seat=arr.seat,
        got=got,
        objects=objects,
    )
    _end_arrival(state, ctx)


# --- shelter phase -------------------------------------------------------------------------
def feed_forced(state: MSState, p: Player) -> dict[str, int] | None:
    cost = feed_cost(state, p)
    have = {r: p.has(r) for r in DENREES if p.has(r)}
    if cost == 0:
        return {}
    if sum(have.values()) <= cost:
        return have
    if len(have) == 1:
        r = next(iter(have))
        return {r: cost}
    return None


def do_feed(state: MSState, seat: int, paid: dict[str, int], ctx: Ctx) -> None:
    """Fourniture des Denrées: one survivor dies per missing denrée, and one more if no
    water at all was given."""
    p = state.players[seat]
    cost = feed_cost(state, p)
    for r, n in paid.items():
        p.add(r, -n)
    total = sum(paid.values())
    deaths = cost - total
    if cost and not paid.get("water"):
        deaths += 1
    deaths = min(deaths, p.survivors)
    p.to_lose += deaths
    ctx.emit(
        "feed",
        T(
            f"{p.name} nourrit son abri ({cost} demandées, {bag_text(paid).fr})"
            + (f" : {deaths} mort{'s' if deaths > 1 else ''}." if deaths else "."),
            f"{p.name} feeds the shelter ({cost} needed, {bag_text(paid).en})"
            + (f": {deaths} dead." if deaths else "."),
        ),
        seat=seat,
        cost=cost,
        paid=paid,
        deaths=deaths,
    )
    p.step = "recruit"


def lose_survivors(state: MSState, seat: int, per_room: dict[int, int], ctx: Ctx) -> None:
    p = state.players[seat]
    n = 0
    for i, k in per_room.items():
        p.rooms[i] -= k
        n += k
    p.to_lose = 0
    p.losses_asked += 1
    ctx.emit(
        "loss",
        T(
            f"☠️ {p.name} perd {n} survivant{'s' if n > 1 else ''}.",
            f"☠️ {p.name} loses {n} survivor{'s' if n != 1 else ''}.",
        ),
        seat=seat,
        lost=n,
    )


def loss_forced(state: MSState, p: Player) -> dict[int, int] | None:
    need = min(p.to_lose, p.survivors)
    occupied = [i for i, k in enumerate(p.rooms) if k]
    if need == 0:
        return {}
    if len(occupied) == 1 or need == p.survivors:
        out: dict[int, int] = {}
        for i in occupied:
            take = min(need, p.rooms[i])
            out[i] = take
            need -= take
        return {i: k for i, k in out.items() if k}
    return None


def recruits_possible(state: MSState, p: Player) -> int:
    return min(denrees(p) // recruit_price(state), sum(free_slots(state, p)))


def pay_denrees(p: Player, n: int) -> int:
    """Recrutement: the denrées that perish anyway are spent first: all food, then water
    above the 1 kept (keeping them instead could never help). Returns what is left to
    pay from cans and the last water; that choice is the clan's (:func:`pay_choice`)."""
    for r, keep in (("food", 0), ("water", KEEP_WATER)):
        take = min(n, max(0, p.has(r) - keep))
        p.add(r, -take)
        n -= take
    return n


def pay_choice(p: Player, due: int) -> bool:
    """Whether the rest of a recruitment leaves a real choice: pay it all in cans and keep
    the last water, or spend that water and keep one more can."""
    return due > 0 and p.has("water") >= 1 and p.has("cans") >= due


def pay_rest(p: Player, due: int, keep_water: bool) -> None:
    """Pay the rest in cans, the last water too unless it is kept (and cans suffice)."""
    water = 0 if keep_water and p.has("cans") >= due else min(1, p.has("water"), due)
    p.add("water", -water)
    p.add("cans", -(due - water))


def do_recruit(state: MSState, seat: int, per_room: dict[int, int], ctx: Ctx) -> None:
    """Recrutement: each denrée left attracts a survivor (2 per survivor in the last round)."""
    p = state.players[seat]
    n = sum(per_room.values())
    if n * recruit_price(state) > denrees(p):
        raise IllegalDecision(T("Pas assez de denrées.", "Not enough provisions."))
    due = pay_denrees(p, n * recruit_price(state))
    for i, k in per_room.items():
        p.rooms[i] += k
    if n:
        ctx.emit(
            "recruit",
            T(
                f"{p.name} accueille {n} survivant{'s' if n > 1 else ''}.",
                f"{p.name} takes in {n} survivor{'s' if n != 1 else ''}.",
            ),
            seat=seat,
            recruits=n,
        )
    if pay_choice(p, due):
        p.pay_due = due
        p.step = "pay"
        return
    pay_rest(p, due, keep_water=False)
    _after_recruit(state, seat, ctx)


def do_pay(state: MSState, seat: int, keep_water: bool, ctx: Ctx) -> None:
    """Recrutement: the clan's choice of denrées for the rest of the price."""
    p = state.players[seat]
    pay_rest(p, p.pay_due, keep_water)
    p.pay_due = 0
    _after_recruit(state, seat, ctx)


def _after_recruit(state: MSState, seat: int, ctx: Ctx) -> None:
    """End of step 2 (keep 1 water, 0 food; cans keep) and step 3's shelter powers."""
    p = state.players[seat]
    p.res["water"] = min(p.has("water"), KEEP_WATER)
    p.res["food"] = 0
    got: dict[str, int] = {}
    for e in active_powers(state, p):
        if e.kind == "income" and e.resource is not None:
            p.add(e.resource, e.amount)
            got[e.resource] = got.get(e.resource, 0) + e.amount
        elif e.kind == "comfort":
            p.comfort += COMFORT_STEP * e.amount
            got["comfort"] = got.get("comfort", 0) + e.amount
    if got:
        ctx.emit(
            "rooms",
            T(
                f"Salles de {p.name} : {bag_text(got).fr}.",
                f"{p.name}'s rooms: {bag_text(got).en}.",
            ),
            seat=seat,
        )
    p.step = "repair"


def repairable(state: MSState, p: Player) -> list[str]:
    return [o for o in p.inactive if can_pay(p, object_cost(state, o))]


def do_repair(state: MSState, seat: int, objects: list[str], ctx: Ctx) -> None:
    """Fabrication d'objets: pay the 3 icons; the object works until the end (1 PS)."""
    p = state.players[seat]
    total: dict[str, int] = {}
    for o in objects:
        for r, k in object_cost(state, o).items():
            total[r] = total.get(r, 0) + k
    if not can_pay(p, total):
        raise IllegalDecision(
            T(
                "Ces réparations coûtent plus que vos ressources.",
                "Those repairs cost more than you have.",
            )
        )
    for r, k in total.items():
        p.add(r, -k)
    for o in objects:
        p.inactive.remove(o)
        p.active.append(o)
    if objects:
        fr_names = ", ".join(state.data.obj(o).names.fr for o in objects)
        en_names = ", ".join(state.data.obj(o).names.en for o in objects)
        ctx.emit(
            "repair",
            T(f"🔧 {p.name} répare {fr_names}.", f"🔧 {p.name} repairs {en_names}."),
            seat=seat,
        )
    p.step = "done"


def resolvable(state: MSState, p: Player) -> list[str]:
    return [e for e in state.events_active if can_pay(p, dict(state.data.event(e).cost))]


def do_resolve(state: MSState, seat: int, eid: str | None, ctx: Ctx) -> None:
    """Résolution des Evènements: pay the cost, keep the card (PS), nobody suffers it again."""
    p = state.players[seat]
    if eid is not None:
        ev = state.data.event(eid)
        for r, k in ev.cost.items():
            p.add(r, -k)
        state.events_active.remove(eid)
        p.resolved.append(eid)
        ctx.emit(
            "resolve",
            T(
                f"✅ {p.name} résout {ev.names.fr} (+{ev.points} PS).",
                f"✅ {p.name} resolves {ev.names.en} (+{ev.points} SP).",
            ),
            seat=seat,
            event=eid,
        )
    state.resolve_order.pop(0)


def comfort_options(p: Player) -> list[str]:
    return [r for r in COMFORT_RES if p.has(r) >= COMFORT_PRICE]


def do_comfort(state: MSState, seat: int, picked: list[str], ctx: Ctx) -> None:
    """Amélioration du Confort: +1 step for 2 wood, 2 metal or 2 chips, each once a round."""
    p = state.players[seat]
    for r in picked:
        p.add(r, -COMFORT_PRICE)
        p.comfort += COMFORT_STEP
    if picked:
        ctx.emit(
            "comfort",
            T(
                f"🛋️ {p.name} monte son confort à {p.comfort}.",
                f"🛋️ {p.name} raises comfort to {p.comfort}.",
            ),
            seat=seat,
        )
    state.comfort_left.remove(seat)


def finish(state: MSState, ctx: Ctx) -> None:
    """Conditions de victoire; ties: most survivors, then most resolved events, then shared."""
    state.phase = "over"
    scores = {i: score(state, p) for i, p in enumerate(state.players)}
    state.scores = scores

    def rank(i: int) -> tuple[int, int, int]:
        p = state.players[i]
        return (scores[i], p.survivors, len(p.resolved))

    best = max(rank(i) for i in scores)
    state.winners = [i for i in scores if rank(i) == best]
    state.shared = len(state.winners) > 1
    names = " & ".join(state.players[i].name for i in state.winners)
    ctx.emit(
        "game-over",
        T(
            f"🏁 Fin de la partie. Vainqueur : {names} ({best[0]} PS).",
            f"🏁 Game over. Winner: {names} ({best[0]} SP).",
        ),
        scores=scores,
    )


# --- the loop ------------------------------------------------------------------------------
def advance(state: MSState, ctx: Ctx) -> None:
    """Play every step with no real choice, until a decision is needed or the match ends."""
    for _ in range(10_000):
        if not _step(state, ctx):
            return
    raise RuntimeError("madsteam: advance did not settle")


def _step(state: MSState, ctx: Ctx) -> bool:
    """One automatic step; False when a player must decide (or it is over)."""
    ph = state.phase
    if ph == "over":
        return False
    if ph == "shelter-pick":
        if all(p.shelter for p in state.players):
            state.phase = "setup"
            return True
        return False
    if ph == "setup":
        if all(p.rooms_set and p.heroes_set and not p.drawn for p in state.players):
            start_round(state, ctx)
            return True
        return False
    if ph == "events":
        changed = _settle_losses(state, ctx)
        if any(p.to_lose for p in state.players):
            return changed
        _start_harvest(state, ctx)
        return True
    if ph == "harvest":
        if state.arrival is None:
            return False
        stage = state.arrival.stage
        continue_arrival(state, ctx)
        return state.arrival is None or state.arrival.stage != stage
    if ph == "shelter":
        changed = _settle_losses(state, ctx)
        for seat, p in enumerate(state.players):
            if p.to_lose:
                continue
            if p.step == "feed":
                forced = feed_forced(state, p)
                if forced is not None:
                    do_feed(state, seat, forced, ctx)
                    changed = True
            elif p.step == "recruit":
                if recruits_possible(state, p) == 0:
                    _after_recruit(state, seat, ctx)
                    changed = True
            elif p.step == "repair":
                if not repairable(state, p):
                    p.step = "done"
                    changed = True
        if all(p.step == "done" and not p.to_lose for p in state.players):
            state.phase = "resolve"
            state.resolve_order = [(state.first + k) % state.n for k in range(state.n)]
            return True
        return changed
    if ph == "resolve":
        while state.resolve_order and not resolvable(state, state.players[state.resolve_order[0]]):
            state.resolve_order.pop(0)
        if state.resolve_order:
            return False
        state.phase = "comfort"
        state.comfort_left = [i for i, p in enumerate(state.players) if comfort_options(p)]
        return True
    if ph == "comfort":
        if state.comfort_left:
            return False
        if state.round >= ROUNDS:
            finish(state, ctx)
            return False
        start_round(state, ctx)
        return True
    return False


def _settle_losses(state: MSState, ctx: Ctx) -> bool:
    changed = False
    for seat, p in enumerate(state.players):
        if p.to_lose:
            forced = loss_forced(state, p)
            if forced is not None:
                lose_survivors(state, seat, forced, ctx)
                changed = True
    return changed


# --- decisions -----------------------------------------------------------------------------
def _about(seat: int, hero: int | None = None) -> About:
    return About(seat=seat, hero=hero)


def pending(state: MSState) -> list[Decision]:
    ph = state.phase
    r = state.round
    out: list[Decision] = []
    if ph == "shelter-pick":
        seat = state.pick_turn
        out.append(
            Decision(
                key=f"shelter:{seat}",
                seat=seat,
                kind="shelter",
                prompt=T("Choisissez votre abri.", "Choose your shelter."),
                options=[
                    Option(
                        id=f"shelter-{sid}",
                        label=state.data.shelter(sid).names,
                        args=PickShelter(shelter=sid),
                    )
                    for sid in _free_shelters(state)
                ],
                args=_about(seat),
            )
        )
    elif ph == "setup":
        for seat, p in enumerate(state.players):
            d = _setup_decision(state, seat, p)
            if d is not None:
                out.append(d)
    elif ph in ("events", "shelter"):
        for seat, p in enumerate(state.players):
            if p.to_lose:
                out.append(_loss_decision(state, seat, p))
            elif ph == "shelter":
                d = _shelter_decision(state, seat, p)
                if d is not None:
                    out.append(d)
    elif ph == "harvest":
        out.extend(_harvest_decisions(state))
    elif ph == "resolve" and state.resolve_order:
        seat = state.resolve_order[0]
        p = state.players[seat]
        opts = [
            Option(
                id=f"resolve-{eid}",
                label=state.data.event(eid).names,
                detail=bag_text(dict(state.data.event(eid).cost)),
                args=Resolve(event=eid),
                stats={"points": state.data.event(eid).points},
                style="success",
            )
            for eid in resolvable(state, p)
        ]
        opts.append(Option(id="resolve-none", label=T("Passer", "Pass"), args=Resolve(event=None)))
        out.append(
            Decision(
                key=f"r{r}:resolve:{seat}",
                seat=seat,
                kind="resolve",
                prompt=T("Résoudre un événement ?", "Resolve an event?"),
                options=opts,
                args=_about(seat),
            )
        )
    elif ph == "comfort":
        for seat in state.comfort_left:
            p = state.players[seat]
            opts = [
                Option(
                    id=f"comfort-{res}",
                    label=T(f"2 {res_name(res).fr.lower()}", f"2 {res_name(res).en.lower()}"),
                    args=Comfort(resource=res),
                    emoji=RES_EMOJI[res],
                )
                for res in comfort_options(p)
            ]
            out.append(
                Decision(
                    key=f"r{r}:comfort:{seat}",
                    seat=seat,
                    kind="comfort",
                    prompt=T(
                        f"Confort {p.comfort} : monter d'un cran par ressource choisie (2 chacune).",
                        f"Comfort {p.comfort}: one step up per resource chosen (2 each).",
                    ),
                    options=opts,
                    ask=Many(min=0, max=len(opts)),
                    args=_about(seat),
                )
            )
    return out


def _setup_decision(state: MSState, seat: int, p: Player) -> Decision | None:
    if not p.rooms_set:
        assert p.shelter is not None
        rooms = state.data.shelter(p.shelter).rooms
        return Decision(
            key=f"rooms:{seat}",
            seat=seat,
            kind="rooms",
            prompt=T(
                "Placez vos 6 survivants dans vos salles.", "Place your 6 survivors in your rooms."
            ),
            ask=Allocation(
                quantities=[
                    Quantity(
                        id=f"room{i}",
                        label=T(
                            f"{room.names.fr} ({room.slots})", f"{room.names.en} ({room.slots})"
                        ),
                        max=room.slots,
                    )
                    for i, room in enumerate(rooms)
                ],
                totals=[Total(min=6, max=6, label=T("Les survivants", "Survivors"))],
            ),
            args=_about(seat),
        )
    if p.drawn:
        return Decision(
            key=f"keep:{seat}",
            seat=seat,
            kind="keep",
            prompt=T("Gardez un des deux objets.", "Keep one of the two objects."),
            options=[
                Option(
                    id=f"keep-{oid}",
                    label=state.data.obj(oid).names,
                    args=KeepObject(object=oid),
                )
                for oid in p.drawn
            ],
            args=_about(seat),
        )
    if not p.heroes_set:
        opts = []
        for five in START_PLACES:
            for three in START_PLACES:
                if three != five:
                    opts.append(
                        Option(
                            id=f"heroes-{five}-{three}",
                            label=T(
                                f"5 {PLACE_NAMES[five].fr}, 3 {PLACE_NAMES[three].fr}",
                                f"5 {PLACE_NAMES[five].en}, 3 {PLACE_NAMES[three].en}",
                            ),
                            args=PlaceHeroes(five=five, three=three),
                        )
                    )
        return Decision(
            key=f"heroes:{seat}",
            seat=seat,
            kind="heroes",
            prompt=T(
                "Où couchez-vous vos héros 5 et 3 ? (les 4 vont sur les deux autres lieux)",
                "Where do your heroes 5 and 3 lie? (the 4s take the two other places)",
            ),
            options=opts,
            args=_about(seat),
        )
    return None


def _loss_decision(state: MSState, seat: int, p: Player) -> Decision:
    rooms = shelter_rooms(state, p)
    need = min(p.to_lose, p.survivors)
    return Decision(
        key=f"r{state.round}:lose:{seat}:{p.losses_asked}",
        seat=seat,
        kind="lose",
        prompt=T(
            f"Choisissez {need} survivant{'s' if need > 1 else ''} à perdre.",
            f"Choose {need} survivor{'s' if need != 1 else ''} to lose.",
        ),
        ask=Allocation(
            quantities=[
                Quantity(id=f"room{i}", label=rooms[i].names, max=k)
                for i, k in enumerate(p.rooms)
                if k
            ],
            totals=[Total(min=need, max=need, label=T("Les pertes", "Losses"))],
        ),
        args=_about(seat),
    )


def _shelter_decision(state: MSState, seat: int, p: Player) -> Decision | None:
    r = state.round
    if p.step == "feed":
        cost = feed_cost(state, p)
        total = min(cost, denrees(p))
        qs = [
            Quantity(
                id=res,
                label=res_name(res),
                min=1 if res == "water" else 0,
                max=min(p.has(res), total),
                emoji=RES_EMOJI[res],
            )
            for res in DENREES
            if p.has(res)
        ]
        return Decision(
            key=f"r{r}:feed:{seat}",
            seat=seat,
            kind="feed",
            prompt=T(
                f"Nourrissez votre abri : {cost} denrées demandées, dont au moins 1 eau.",
                f"Feed your shelter: {cost} provisions needed, at least 1 of them water.",
            ),
            ask=Allocation(
                quantities=qs,
                totals=[Total(min=total, max=total, label=T("Les denrées", "Provisions"))],
            ),
            args=_about(seat),
        )
    if p.step == "recruit":
        rooms = shelter_rooms(state, p)
        free = free_slots(state, p)
        price = recruit_price(state)
        return Decision(
            key=f"r{r}:recruit:{seat}",
            seat=seat,
            kind="recruit",
            prompt=T(
                f"Recrutement : {price} denrée{'s' if price > 1 else ''} par survivant ; où les placer ?",
                f"Recruiting: {price} provision{'s' if price > 1 else ''} per survivor; where do they go?",
            ),
            ask=Allocation(
                quantities=[
                    Quantity(id=f"room{i}", label=rooms[i].names, max=f)
                    for i, f in enumerate(free)
                    if f
                ],
                totals=[
                    Total(
                        max=recruits_possible(state, p),
                        label=T("Les nouveaux survivants", "New survivors"),
                    )
                ],
            ),
            args=_about(seat),
        )
    if p.step == "pay":
        due = p.pay_due
        cans_fr, cans_en = amount(due, "cans", "fr"), amount(due, "cans", "en")
        less_fr, less_en = amount(due - 1, "cans", "fr"), amount(due - 1, "cans", "en")
        return Decision(
            key=f"r{r}:pay:{seat}",
            seat=seat,
            kind="pay",
            prompt=T(
                f"Recrutement : il reste {due} à payer. Gardez-vous votre dernière eau "
                "(l'eau au-delà d'une se perd, les conserves se gardent) ?",
                f"Recruiting: {due} left to pay. Do you keep your last water "
                "(water above one is lost, cans keep)?",
            ),
            options=[
                Option(
                    id="pay-cans",
                    label=T(f"Payer {cans_fr}, garder l'eau", f"Pay {cans_en}, keep the water"),
                    args=PayRecruits(keep_water=True),
                    emoji=RES_EMOJI["cans"],
                ),
                Option(
                    id="pay-water",
                    label=T(f"Payer 1 eau et {less_fr}", f"Pay 1 water and {less_en}"),
                    args=PayRecruits(keep_water=False),
                    emoji=RES_EMOJI["water"],
                ),
            ],
            args=_about(seat),
        )
    if p.step == "repair":
        objs = repairable(state, p)
        return Decision(
            key=f"r{r}:repair:{seat}",
            seat=seat,
            kind="repair",
            prompt=T("Quels objets réparer ?", "Which objects do you repair?"),
            ask=Allocation(
                quantities=[
                    Quantity(
                        id=f"obj-{oid}",
                        label=T(
                            f"{state.data.obj(oid).names.fr} ({bag_text(object_cost(state, oid)).fr})",
                            f"{state.data.obj(oid).names.en} ({bag_text(object_cost(state, oid)).en})",
                        ),
                        max=1,
                    )
                    for oid in objs
                ]
            ),
            args=_about(seat),
        )
    return None


def _harvest_decisions(state: MSState) -> list[Decision]:
    r, k = state.round, state.moves
    arr = state.arrival
    if arr is None:
        seat = state.turn
        p = state.players[seat]
        opts = []
        for mv in legal_moves(state, seat):
            h = p.heroes[mv.hero]
            opts.append(
                Option(
                    id=f"h{mv.hero}-{mv.place}" + ("-free" if mv.free_move else ""),
                    label=T(
                        f"{h.value} → {PLACE_NAMES[mv.place].fr}"
                        + (" (exosquelette)" if mv.free_move else ""),
                        f"{h.value} → {PLACE_NAMES[mv.place].en}"
                        + (" (exoskeleton)" if mv.free_move else ""),
                    ),
                    group=T(
                        f"Héros {h.value} ({PLACE_NAMES[h.place].fr})",
                        f"Hero {h.value} ({PLACE_NAMES[h.place].en})",
                    ),
                    args=mv,
                )
            )
        return [
            Decision(
                key=f"r{r}:move:{k}",
                seat=seat,
                kind="move",
                prompt=T("Relevez un héros et déplacez-le.", "Stand a hero up and move it."),
                options=opts,
                args=_about(seat),
            )
        ]
    p = state.players[arr.seat]
    hero = p.heroes[arr.hero]
    if arr.stage == "pressure":
        out = []
        for s, diff in arr.defenders.items():
            d = state.players[s]
            total = pressure_total(d, diff)
            qs = [
                Quantity(
                    id=res,
                    label=(
                        T("Munitions (défense)", "Ammo (defence)")
                        if res == "ammo"
                        else T(f"{res_name(res).fr} (donnés)", f"{res_name(res).en} (given)")
                    ),
                    max=min(d.has(res), diff),
                    emoji=RES_EMOJI[res],
                )
                for res in ("ammo", *PRESSURE_GIFTS)
                if d.has(res)
            ]
            out.append(
                Decision(
                    key=f"r{r}:pressure:{k}:{s}",
                    seat=s,
                    kind="pressure",
                    prompt=T(
                        f"{p.name} vous met la pression ({hero.value} contre vous) : couvrez {total} "
                        "avec des munitions et/ou en donnant des ressources.",
                        f"{p.name} pressures you ({hero.value} against you): cover {total} "
                        "with ammo and/or by giving resources.",
                    ),
                    ask=Allocation(
                        quantities=qs,
                        totals=[
                            Total(min=total, max=total, label=T("La différence", "The difference"))
                        ],
                    ),
                    timing="reaction",
                    args=_about(arr.seat, arr.hero),
                )
            )
        return out
    if arr.stage == "well":
        return [
            Decision(
                key=f"r{r}:well:{k}",
                seat=arr.seat,
                kind="well",
                prompt=T(
                    f"Activer le puits pour 1 puce ({min(hero.value, state.supply.get('well', 0))} eaux) ?",
                    f"Work the well for 1 chip ({min(hero.value, state.supply.get('well', 0))} water)?",
                ),
                options=[
                    Option(
                        id="pump",
                        label=T("Pomper (1 puce)", "Pump (1 chip)"),
                        args=Pump(pump=True),
                        style="success",
                    ),
                    Option(
                        id="no-pump", label=T("Ne rien faire", "Do nothing"), args=Pump(pump=False)
                    ),
                ],
                args=_about(arr.seat, arr.hero),
            )
        ]
    if arr.stage == "hunt-pick":
        stack = state.gibier[arr.place]
        opts = [
            Option(
                id="no-hunt",
                label=T("Pas de chasse", "No hunt"),
                args=Hunt(index=None),
            )
        ]
        for i in huntable(state, arr.seat, arr.place, hero.value):
            g = stack[i]
            opts.append(
                Option(
                    id=f"hunt-{i}",
                    label=T(
                        f"{g.names.fr} (force {g.strength})",
                        f"{g.names.en} (strength {g.strength})",
                    ),
                    detail=bag_text({"food": food_value(p, g)}),
                    stats={"strength": g.strength, "food": food_value(p, g)},
                    args=Hunt(index=i),
                    style="danger",
                )
            )
        return [
            Decision(
                key=f"r{r}:hunt:{k}",
                seat=arr.seat,
                kind="hunt",
                prompt=T(
                    f"Héros {hero.value} : chasser avant de récolter ?",
                    f"Hero {hero.value}: hunt before harvesting?",
                ),
                options=opts,
                args=_about(arr.seat, arr.hero),
            )
        ]
    if arr.stage == "hunt-alloc":
        assert arr.target is not None
        g = state.gibier[arr.place][arr.target]
        need, lo, hi = hunt_range(state, arr.seat, hero.value, g)
        return [
            Decision(
                key=f"r{r}:hunt-alloc:{k}",
                seat=arr.seat,
                kind="hunt-alloc",
                prompt=T(
                    f"Force {need} à atteindre : valeur de récolte et munitions (le reste de la valeur récolte).",
                    f"Strength {need} to reach: harvest value and ammo (the value left harvests).",
                ),
                ask=Allocation(
                    quantities=[
                        Quantity(
                            id="hunt",
                            label=T("Valeur à la chasse", "Value hunting"),
                            min=lo,
                            max=hi,
                        ),
                        Quantity(
                            id="ammo",
                            label=T("Munitions", "Ammo"),
                            min=max(0, need - hi),
                            max=min(p.has("ammo"), need - lo),
                            emoji=RES_EMOJI["ammo"],
                        ),
                    ],
                    totals=[Total(min=need, max=need, label=T("La force", "Strength"))],
                ),
                args=_about(arr.seat, arr.hero),
            )
        ]
    if arr.stage == "house":
        deck = len(state.search[arr.place])
        qs = []
        if deck:
            qs.append(
                Quantity(
                    id="search",
                    label=T("Cartes fouille", "Search cards"),
                    max=min(deck, hero.value),
                )
            )
        for oid in state.house_objects[arr.place]:
            qs.append(
                Quantity(
                    id=f"obj-{oid}",
                    label=state.data.obj(oid).names,
                    max=1,
                )
            )
        return [
            Decision(
                key=f"r{r}:house:{k}",
                seat=arr.seat,
                kind="house",
                prompt=T(
                    f"Valeur {hero.value} : fouille (1 carte par point) et objets visibles (1 point chacun).",
                    f"Value {hero.value}: search (1 card per point) and visible objects (1 point each).",
                ),
                ask=Allocation(
                    quantities=qs, totals=[Total(max=hero.value, label=T("La valeur", "The value"))]
                ),
                args=_about(arr.seat, arr.hero),
            )
        ]
    return []


# --- answers -------------------------------------------------------------------------------
ROOM_IDS = {f"room{i}": i for i in range(8)}
"""Quantity ids of rooms, read through this table (never parsed)."""


def _rooms_of(amounts: dict[str, int]) -> dict[int, int]:
    return {ROOM_IDS[qid]: k for qid, k in amounts.items() if k and qid in ROOM_IDS}


def _objects_of(amounts: dict[str, int], candidates: list[str]) -> list[str]:
    """The objects whose quantity (``obj-<id>``, built from ``candidates``) is 1."""
    return [oid for oid in candidates if amounts.get(f"obj-{oid}", 0)]


def apply(state: MSState, answer: Answer, ctx: Ctx) -> None:
    d = answer.decision
    seat = answer.seat
    p = state.players[seat]
    kind = d.kind
    if kind == "shelter":
        a = answer.args
        assert isinstance(a, PickShelter)
        p.shelter = a.shelter
        ctx.emit(
            "shelter-pick",
            T(
                f"{p.name} prend {state.data.shelter(a.shelter).names.fr}.",
                f"{p.name} takes {state.data.shelter(a.shelter).names.en}.",
            ),
            seat=seat,
        )
        state.pick_turn = (state.pick_turn + 1) % state.n
    elif kind == "rooms":
        p.rooms = [0] * 8
        for i, k in _rooms_of(answer.amounts).items():
            p.rooms[i] = k
        p.rooms_set = True
    elif kind == "keep":
        a = answer.args
        assert isinstance(a, KeepObject)
        p.inactive.append(a.object)
        p.drawn = []
        ctx.emit(
            "keep",
            T(
                f"{p.name} garde {state.data.obj(a.object).names.fr}.",
                f"{p.name} keeps {state.data.obj(a.object).names.en}.",
            ),
            seat=seat,
        )
    elif kind == "heroes":
        a = answer.args
        assert isinstance(a, PlaceHeroes)
        rest = [pl for pl in START_PLACES if pl not in (a.five, a.three)]
        p.heroes = [
            Hero(value=HERO_VALUES[0], place=a.three),
            Hero(value=HERO_VALUES[1], place=rest[0]),
            Hero(value=HERO_VALUES[2], place=rest[1]),
            Hero(value=HERO_VALUES[3], place=a.five),
        ]
        p.heroes_set = True
    elif kind == "lose":
        per_room = _rooms_of(answer.amounts)
        lose_survivors(state, seat, per_room, ctx)
    elif kind == "move":
        a = answer.args
        assert isinstance(a, Move)
        do_move(state, seat, a, ctx)
    elif kind == "pressure":
        resolve_pressure(state, seat, answer.amounts, ctx)
    elif kind == "well":
        a = answer.args
        assert isinstance(a, Pump) and state.arrival is not None
        if a.pump:
            p.add("chips", -1)
            harvest_place(state, seat, "well", p.heroes[state.arrival.hero].value, ctx)
        _end_arrival(state, ctx)
    elif kind == "hunt":
        a = answer.args
        assert isinstance(a, Hunt) and state.arrival is not None
        arr = state.arrival
        hero = p.heroes[arr.hero]
        if a.index is None:
            harvest_place(state, seat, arr.place, hero.value, ctx)
            _end_arrival(state, ctx)
        else:
            arr.target = a.index
            g = state.gibier[arr.place][a.index]
            need, lo, hi = hunt_range(state, seat, hero.value, g)
            if lo == hi:
                do_hunt(state, lo, need - lo, ctx)
            else:
                arr.stage = "hunt-alloc"
    elif kind == "hunt-alloc":
        do_hunt(state, answer.amounts["hunt"], answer.amounts["ammo"], ctx)
    elif kind == "house":
        assert state.arrival is not None
        objs = _objects_of(answer.amounts, state.house_objects[state.arrival.place])
        do_house(state, answer.amounts.get("search", 0), objs, ctx)
    elif kind == "feed":
        do_feed(state, seat, {r: k for r, k in answer.amounts.items() if k}, ctx)
    elif kind == "recruit":
        do_recruit(state, seat, _rooms_of(answer.amounts), ctx)
    elif kind == "pay":
        a = answer.args
        assert isinstance(a, PayRecruits)
        do_pay(state, seat, a.keep_water, ctx)
    elif kind == "repair":
        objs = _objects_of(answer.amounts, repairable(state, p))
        do_repair(state, seat, objs, ctx)
    elif kind == "resolve":
        a = answer.args
        assert isinstance(a, Resolve)
        do_resolve(state, seat, a.event, ctx)
    elif kind == "comfort":
        picked = []
        for o in answer.chosen:
            assert isinstance(o.args, Comfort)
            picked.append(o.args.resource)
        do_comfort(state, seat, picked, ctx)
    else:  # pragma: no cover - every kind above
        raise IllegalDecision(T("Décision inconnue.", "Unknown decision."))
    advance(state, ctx)
