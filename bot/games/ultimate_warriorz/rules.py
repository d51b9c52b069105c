"""The rules of Ultimate Warriorz (rule book ``ultimate-warriorz.fr.txt``).

Flow: the lots are chosen or dealt (§2), fighters are placed by ascending size
(§3), then seven rounds (§4): secret picks, a countdown 8..1 with ties by size,
each fighter's action (exact movement, mandatory attacks), the lucky charm
after each attack roll, wounds, popularity, trophies and stones; the end (§5).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine.decisions import Allocation, Answer, Decision, Many, Option, Quantity, Total
from bot.engine.errors import IllegalDecision
from bot.engine.game import Ctx, SeatSpec
from bot.engine.text import Text, plural
from bot.games.fighters import rolltexts
from bot.games.fighters.attacks import resolve, wounds_taken
from bot.games.fighters.countdown import next_to_act
from bot.games.fighters.hands import NoRefill, reveal
from bot.games.fighters.zones import Steps, legal_steps
from bot.games.ultimate_warriorz.arena import CENTRE, MOVES, PERIPHERAL, RING, distance
from bot.games.ultimate_warriorz.args import (
    Attack,
    CharmFlip,
    CharmNo,
    CharmReroll,
    Continue,
    Die,
    DoubleShot,
    EndAction,
    GiveSkull,
    Keg,
    Lot,
    Move,
    PickCard,
    Place,
    RollRef,
)
from bot.games.ultimate_warriorz.args import Fighter as FighterArg
from bot.games.ultimate_warriorz.cards import FIGHTERS, NAMES, SPECIAL_NAMES, Card, load_cards
from bot.games.ultimate_warriorz.modes import (
    FIGHTER,
    LOBBY,
    TEAM_CHOICE,
    TRIBAL,
    Config,
    lobby_teams,
    team_config,
    tribal_config,
)
from bot.games.ultimate_warriorz.state import (
    Action,
    AttackKind,
    Fighter,
    Obligation,
    Resolution,
    Roll,
    UWState,
)

LAST_ROUND = 7
"""§4: the Tribal Rumble lasts 7 rounds."""
STONES = {1: 3, 2: 2, 3: 1}
"""§4.3 Jets de pierre: dice thrown at an eliminator, by round."""
FIRST_WOUND_PP = 3
"""§4.3: the big 'first wound' token is worth 3 PP."""
WHILE_ACTIVE = {"ghost-ring", "calumet", "light-suit", "spear-whirl"}
"""Item and secret effects that last while their card is the active one."""
MELEE_SPECIALS = {"kamikaze", "terminotaure", "cursed-net", "vampire", "electroshock"}
RANGED_SPECIALS = {"powder-keg", "double-shot", "strike", "energy-armour", "claymore"}
"""Specials named on the attack they change (vampire and electroshock act on the whole card)."""
REFILL = NoRefill()
"""§4: each action card is played once in the match; an empty hand is never refilled."""


@dataclass(frozen=True)
class CharmWindow:
    """PORTE-BONHEUR: after an attack roll, a living target that still has its charm may react."""

    def opens(self, target: Fighter, dice: Sequence[int]) -> bool:
        return target.charm and target.alive and bool(dice)


CHARM = CharmWindow()


# --- small helpers ----------------------------------------------------------------------------
def name(state: UWState, fid: str) -> str:
    return NAMES.get(fid, fid)


def de(who: str) -> str:
    """French "de" before a name: "d'Agaric", "de Cactus", "du public"."""
    if who.startswith("le "):
        return "du " + who[3:]
    return f"d'{who}" if who[:1].lower() in "aeiouyéè" else f"de {who}"


def zone_name(zone: int) -> Text:
    if zone == CENTRE:
        return Text(fr="le centre", en="the centre")
    return Text(fr=f"la zone {zone + 1}", en=f"zone {zone + 1}")


def card(state: UWState, cid: str) -> Card:
    return state.cards.card(cid)


def active_card(state: UWState, f: Fighter) -> Card | None:
    return card(state, f.active) if f.active else None


def active_effect(state: UWState, f: Fighter) -> str | None:
    """The lasting effect of the fighter's active card, if it has one."""
    c = active_card(state, f)
    if c is not None and c.special in WHILE_ACTIVE:
        return c.special
    return None


def defence(state: UWState, f: Fighter) -> int:
    """The active card's defence, the sheet's before the first card (FICHE COMBATTANT)."""
    c = active_card(state, f)
    return c.defence if c is not None else state.cards.fighter(f.id).defence


def kamikaze_dice(f: Fighter) -> int:
    """Bonzaï's kamikaze (RULINGS): min(6, 8 - current HP), at least 1 ("de 1 à 6")."""
    return max(1, min(6, 8 - f.hp))


def terminotaure_dice(f: Fighter) -> int:
    """Sorgho's Terminotaure: the action cards already played, this one included."""
    return len(f.played)


def initiative(state: UWState, f: Fighter) -> int | None:
    """This round's initiative: the picked card's, with an Electroshock token (§4.2)."""
    if f.pick is None:
        return None
    return card(state, f.pick).initiative + f.shock


def opponents(state: UWState, a: Fighter, b: Fighter) -> bool:
    return a.team != b.team


def owners(state: UWState, seat: int) -> list[Fighter]:
    return [f for f in state.fighters if f.seat == seat]


# --- setup (§2, §3) ---------------------------------------------------------------------------
def setup_state(seats: list[SeatSpec], mode: str, options: dict[str, Any], ctx: Ctx) -> UWState:
    """§2 Attribution: the lots (a fighter, or a team with 2-3 people) and who plays them.

    Fighters chosen in the lobby (``SeatSpec.choices["fighter"]``) are checked: one per
    seat, never twice, in the configuration played; the seats left without one are dealt
    the remaining lots with the match dice. Team Spirit with ``config`` "lobby": the teams
    the host composed (``choices["team"]``), sized as a book configuration.
    """
    cards = load_cards(options.get("cards"), options.get("card_data"))
    people = len(seats)
    from_lobby = options.get("fighters", LOBBY) == LOBBY
    picks: list[str | None] = [s.choices.get(FIGHTER) if from_lobby else None for s in seats]
    if mode == TRIBAL:
        cfg = tribal_config()
    elif options.get("config") == LOBBY and not options.get("teams"):
        cfg = _lobby_config(seats, picks, ctx)
        picks = [lot[0] for lot in cfg.lots]
    else:
        cfg = team_config(people, str(options.get("config") or "1"), options.get("teams"))
    state = UWState(
        mode=mode,
        cards=cards,
        seat_names=[s.name for s in seats],
        seat_ai=[s.ai for s in seats],
        lots=cfg.lots,
        teams=cfg.teams,
        choose=options.get("fighters") == "choose",
    )
    if state.choose:
        state.phase = "draft"
        return state
    chosen = _chosen_lots(state, seats, picks)
    if not chosen:
        order = ctx.rng.shuffle(list(range(len(cfg.lots))))
        for seat in range(people):
            state.seat_lots[seat] = order[seat]
    else:
        rest = ctx.rng.shuffle([i for i in range(len(cfg.lots)) if i not in chosen.values()])
        for seat in range(people):
            state.seat_lots[seat] = chosen[seat] if seat in chosen else rest.pop(0)
    _start_placement(state, ctx)
    return state


def _chosen_lots(state: UWState, seats: list[SeatSpec], picks: list[str | None]) -> dict[int, int]:
    """The lot each seat chose in the lobby (by one of its fighters), checked."""
    out: dict[int, int] = {}
    for seat, fid in enumerate(picks):
        if fid is None:
            continue
        lot = next((i for i, lot in enumerate(state.lots) if fid in lot), None)
        if fid not in FIGHTERS or lot is None:
            played = ", ".join(name(state, f) for lot in state.lots for f in lot)
            who = NAMES.get(fid, fid)
            raise IllegalDecision(
                Text(
                    fr=f"{seats[seat].name} a choisi {who}, qui ne joue pas dans cette "
                    f"configuration ({played}).",
                    en=f"{seats[seat].name} chose {who}, who is not in this configuration "
                    f"({played}).",
                )
            )
        other = next((s for s, x in out.items() if x == lot), None)
        if other is not None:
            raise IllegalDecision(
                Text(
                    fr=f"{seats[seat].name} et {seats[other].name} ont choisi le même lot "
                    f"({' + '.join(name(state, f) for f in state.lots[lot])}).",
                    en=f"{seats[seat].name} and {seats[other].name} chose the same lot "
                    f"({' + '.join(name(state, f) for f in state.lots[lot])}).",
                )
            )
        out[seat] = lot
    return out


def _lobby_config(seats: list[SeatSpec], picks: list[str | None], ctx: Ctx) -> Config:
    """TEAM SPIRIT, teams composed in the lobby: one fighter per person (chosen, or dealt
    from those nobody chose), in the teams the host gave, sized as the book's."""
    groups = lobby_teams(len(seats), [s.choices.get(TEAM_CHOICE) for s in seats])
    free = [f for f in FIGHTERS if f not in picks]
    dealt = ctx.rng.shuffle(free)
    fighters: list[str] = []
    for p in picks:
        if p is not None and p in FIGHTERS and p not in fighters:
            fighters.append(p)
        else:
            fighters.append(dealt.pop(0))
    teams = [[fighters[seat] for seat in group] for group in groups]
    return Config(teams=teams, lots=[[f] for f in fighters])


def _start_placement(state: UWState, ctx: Ctx) -> None:
    for seat, lot in sorted(state.seat_lots.items()):
        for fid in state.lots[lot]:
            data = state.cards.fighter(fid)
            team = next(i for i, t in enumerate(state.teams) if fid in t)
            state.fighters.append(
                Fighter(
                    id=fid,
                    seat=seat,
                    team=team,
                    size=data.size,
                    hp=data.size,
                    hand=[c.id for c in data.cards],
                )
            )
    state.fighters.sort(key=lambda f: f.size)
    ctx.emit(
        "fighters",
        Text(
            fr="Combattants : "
            + ", ".join(
                f"{name(state, f.id)} ({state.seat_names[f.seat]})" for f in state.fighters
            ),
            en="Fighters: "
            + ", ".join(
                f"{name(state, f.id)} ({state.seat_names[f.seat]})" for f in state.fighters
            ),
        ),
    )
    state.phase = "place"
    _auto_place(state, ctx)


def free_zones(state: UWState) -> list[int]:
    """§3 step 2: an empty peripheral zone; the centre once all six are taken."""
    taken = {f.zone for f in state.fighters if f.zone is not None}
    free = [z for z in PERIPHERAL if z not in taken]
    return free or [CENTRE]


def placing(state: UWState) -> Fighter | None:
    """The smallest fighter not placed yet (§3: ascending size)."""
    for f in state.fighters:
        if f.zone is None:
            return f
    return None


def _auto_place(state: UWState, ctx: Ctx) -> None:
    """Place while there is no choice (the centre at 7-8 fighters), then start round 1."""
    while True:
        f = placing(state)
        if f is None:
            _start_round(state, ctx)
            return
        zones = free_zones(state)
        if len(zones) > 1:
            return
        _place(state, f, zones[0], ctx)


def _place(state: UWState, f: Fighter, zone: int, ctx: Ctx) -> None:
    f.zone = zone
    z = zone_name(zone)
    ctx.emit(
        "place",
        Text(fr=f"{name(state, f.id)} entre sur {z.fr}.", en=f"{name(state, f.id)} enters {z.en}."),
        fighter=f.id,
        zone=zone,
    )


# --- rounds (§4) ------------------------------------------------------------------------------
def _start_round(state: UWState, ctx: Ctx) -> None:
    state.phase = "pick"
    state.countdown = None
    for f in state.fighters:
        f.pick = None
        f.acted = False
        taken = REFILL.refill(f.hand, f.played[:-1])
        if taken is not None:
            f.hand = taken
    ctx.emit(
        "round",
        Text(
            fr=f"Round {state.round} sur {LAST_ROUND} : chacun choisit en secret une carte Action.",
            en=f"Round {state.round} of {LAST_ROUND}: everyone secretly picks an action card.",
        ),
        round=state.round,
    )


def next_actor(state: UWState) -> Fighter | None:
    """§4.2: highest initiative first (Electroshock included); ties by ascending size."""
    return next_to_act(
        [f for f in state.alive() if not f.acted and f.pick is not None],
        lambda f: initiative(state, f) or 0,
        lambda f: f.size,
    )


def _continue(state: UWState, ctx: Ctx) -> None:
    """Run everything automatic until a decision is needed or the match ends."""
    for _ in range(200):
        if state.phase == "over":
            return
        if state.resolution is not None:
            if not _settle(state, ctx):
                return
            if _check_end(state, ctx):
                return
            continue
        if state.phase == "pick":
            if any(f.pick is None for f in state.alive()):
                return
            state.phase = "act"
            continue
        if state.phase == "act":
            if state.action is not None:
                a = state.action
                f = state.fighter(a.fighter)
                if not f.alive:
                    _end_action(state, ctx)
                    continue
                if a.moves_left == 0 and not _open_obligations(state, a):
                    _end_action(state, ctx)
                    continue
                return
            actor = next_actor(state)
            if actor is None:
                _end_round(state, ctx)
                continue
            _begin_action(state, actor, ctx)
            continue
        return


def _begin_action(state: UWState, f: Fighter, ctx: Ctx) -> None:
    """§4.3: the picked card covers the previous one and becomes active."""
    c = card(state, reveal(f, in_hand=True))
    init = c.initiative + f.shock
    state.countdown = init
    f.shock = 0
    # The card covers the previous one, which stays in the played pile (§4.3).
    f.played.append(c.id)
    state.last = []
    obligations: list[Obligation] = []
    melee = c.melee
    if c.special == "kamikaze":
        melee = kamikaze_dice(f)
    elif c.special == "terminotaure":
        melee = terminotaure_dice(f)
    if c.special == "spiked-pad":
        obligations += [
            Obligation(kind="melee", dice=melee, special="spiked-pad", part="trident", group="pad"),
            Obligation(
                kind="melee",
                dice=2,
                special="spiked-pad",
                part="pad",
                group="pad",
                optional=True,
            ),
        ]
    elif c.special == "spear-whirl":
        obligations += [
            Obligation(
                kind="melee", dice=melee, special="spear-whirl", part="first", group="whirl"
            ),
            Obligation(
                kind="melee",
                dice=melee,
                special="spear-whirl",
                part="second",
                group="whirl",
                optional=True,
            ),
        ]
    elif melee > 0:
        tag = c.special if c.special in MELEE_SPECIALS else None
        obligations.append(Obligation(kind="melee", dice=melee, special=tag))
    ranged = c.ranged
    if c.special == "claymore":
        obligations.append(Obligation(kind="ranged", dice=0, special="claymore"))
    elif ranged > 0:
        rtag = c.special if c.special in RANGED_SPECIALS else None
        obligations.append(Obligation(kind="ranged", dice=ranged, special=rtag))
    if c.special == "skull":
        obligations.append(Obligation(kind="skull"))
    assert f.zone is not None
    state.action = Action(
        fighter=f.id, card=c.id, moves_left=c.move, visited=[f.zone], obligations=obligations
    )
    shown = {"spiked-pad": "3+2", "spear-whirl": f"{melee}+{melee}"}.get(c.special or "", melee)
    special, special_en = "", ""
    if c.special:
        sp = SPECIAL_NAMES[c.special]
        special, special_en = f" — {sp.fr}", f" — {sp.en}"
    ctx.emit(
        "reveal",
        Text(
            fr=f"⚡{init} : {name(state, f.id)} révèle sa carte (⚡{c.initiative} 👣{c.move} "
            f"⚔️{shown} 🏹{ranged if c.special != 'claymore' else '?'} 🛡️{c.defence}){special}.",
            en=f"⚡{init}: {name(state, f.id)} reveals its card (⚡{c.initiative} 👣{c.move} "
            f"⚔️{shown} 🏹{ranged if c.special != 'claymore' else '?'} 🛡️{c.defence}){special_en}.",
        ),
        fighter=f.id,
        card=c.id,
        initiative=init,
    )


def _end_action(state: UWState, ctx: Ctx) -> None:
    a = state.action
    assert a is not None
    f = state.fighter(a.fighter)
    f.acted = True
    lost = [o for o in a.obligations if not o.done and not o.optional and f.alive]
    if f.skull:
        # Crâne mystique: discarded at the end of the holder's next action.
        f.skull = False
        ctx.emit(
            "skull-discard",
            Text(
                fr=f"Le crâne {de(name(state, f.id))} est défaussé.",
                en=f"{name(state, f.id)}'s skull is discarded.",
            ),
        )
    if lost:
        ctx.emit(
            "attack-lost",
            Text(
                fr=f"{name(state, f.id)} n'a plus de cible : "
                + plural(len(lost), "attaque perdue", "attaques perdues", "fr")
                + ".",
                en=f"{name(state, f.id)} has no target left: "
                + plural(len(lost), "attack lost", "attacks lost", "en")
                + ".",
            ),
        )
    state.action = None
    ctx.emit(
        "action-end",
        Text(
            fr=f"Fin de l'action {de(name(state, f.id))}.", en=f"{name(state, f.id)}'s action ends."
        ),
        fighter=f.id,
    )


def _end_round(state: UWState, ctx: Ctx) -> None:
    """§4.4: a new round, or the final gong after round 7."""
    if state.round >= LAST_ROUND:
        _finish_on_points(state, ctx)
        return
    state.round += 1
    _start_round(state, ctx)


# --- what an acting fighter may do ------------------------------------------------------------
def can_attack(state: UWState, attacker: Fighter, target: Fighter, kind: AttackKind) -> bool:
    """Whether ``target`` may be attacked: ring (no shots), calumet (no melee), skull."""
    if not target.alive or target.id == attacker.id:
        return False
    effect = active_effect(state, target)
    if kind == "ranged" and effect == "ghost-ring":
        return False
    if kind == "melee" and effect == "calumet":
        return False
    if attacker.skull and target.id == "baobab":
        return False
    return True


def _targets(state: UWState, a: Action, index: int) -> list[Fighter]:
    """Legal targets of obligation ``index`` from the actor's current zone."""
    f = state.fighter(a.fighter)
    o = a.obligations[index]
    if o.done or f.zone is None:
        return []
    taken = {
        t
        for other in a.obligations
        if other.group and other.group == o.group
        for t in other.targets
    }
    out = []
    for t in state.alive():
        if t.id in taken or t.zone is None:
            continue
        if o.kind == "melee":
            ok = t.zone == f.zone and can_attack(state, f, t, "melee")
        elif o.kind == "ranged":
            ok = t.zone != f.zone and can_attack(state, f, t, "ranged")
        else:  # skull: an opponent in shooting range (near or far)
            ok = t.zone != f.zone and opponents(state, f, t) and t.id != f.id
        if ok:
            out.append(t)
    return out


def _keg_zones(state: UWState, a: Action, index: int) -> list[int]:
    f = state.fighter(a.fighter)
    zones = sorted({t.zone for t in _targets(state, a, index) if t.zone is not None})
    return [z for z in zones if z != f.zone]


def _open_obligations(state: UWState, a: Action) -> list[int]:
    """Attacks not yet made that still have a legal target (§4.3, RULINGS), the optional too."""
    return [i for i in range(len(a.obligations)) if _targets(state, a, i)]


def _may_end(state: UWState, a: Action) -> bool:
    """§4.3: with no movement left and every obliged attack made (or without target), the
    action may end though a second attack a special allows ("peut") is still possible."""
    return a.moves_left == 0 and all(a.obligations[i].optional for i in _open_obligations(state, a))


def _dice_word(n: int, lang: str) -> str:
    return rolltexts.dice(n).get(lang)


def action_options(state: UWState) -> list[Option]:
    a = state.action
    assert a is not None
    f = state.fighter(a.fighter)
    assert f.zone is not None
    opts: list[Option] = []
    steps = Steps(
        here=f.zone,
        start=a.visited[0],
        total=card(state, a.card).move,
        left=a.moves_left,
        visited=tuple(a.visited),
    )
    if a.moves_left > 0:
        for z in sorted(legal_steps(RING, MOVES, steps)):
            zn = zone_name(z)
            opts.append(
                Option(
                    id=f"move-{z}",
                    label=Text(fr=f"Aller sur {zn.fr}", en=f"Move to {zn.en}"),
                    args=Move(zone=z),
                    group=Text(fr="Mouvement", en="Move"),
                    emoji="👣",
                    style="primary",
                )
            )
    if _may_end(state, a) and _open_obligations(state, a):
        opts.append(
            Option(
                id="end",
                label=Text(
                    fr="Finir l'action sans la seconde attaque",
                    en="End the action without the second attack",
                ),
                args=EndAction(),
                style="secondary",
            )
        )
    for i, o in enumerate(a.obligations):
        targets = _targets(state, a, i)
        if not targets:
            continue
        sp = SPECIAL_NAMES[o.special] if o.special else None
        tag_fr = f" ({sp.fr})" if sp else ""
        tag_en = f" ({sp.en})" if sp else ""
        if o.special == "spiked-pad":
            tag_fr = " (trident, 3 dés)" if o.part == "trident" else " (épaulette, 2 dés)"
            tag_en = " (trident, 3 dice)" if o.part == "trident" else " (shoulder pad, 2 dice)"
        if o.kind == "skull":
            for t in targets:
                opts.append(
                    Option(
                        id=f"skull-{t.id}",
                        label=Text(
                            fr=f"Donner le crâne à {name(state, t.id)}",
                            en=f"Give the skull to {name(state, t.id)}",
                        ),
                        args=GiveSkull(obligation=i, target=t.id),
                        group=Text(fr="Crâne mystique", en="Mystic skull"),
                        emoji="💀",
                    )
                )
            continue
        if o.special == "powder-keg":
            for z in _keg_zones(state, a, i):
                zn = zone_name(z)
                far = distance(f.zone, z) == 2
                opts.append(
                    Option(
                        id=f"keg-{z}",
                        label=Text(
                            fr=f"Tonnelet de poudre sur {zn.fr}"
                            + (" (tir lointain -1)" if far else ""),
                            en=f"Powder keg at {zn.en}" + (" (long shot -1)" if far else ""),
                        ),
                        args=Keg(obligation=i, zone=z),
                        group=Text(fr="Tir", en="Ranged"),
                        emoji="💥",
                        style="danger",
                        stats={"dice": o.dice},
                    )
                )
            continue
        if o.special == "double-shot":
            ids = [t.id for t in targets]
            pairs: list[list[str]] = (
                [[x, y] for k, x in enumerate(ids) for y in ids[k + 1 :]] if len(ids) > 1 else [ids]
            )
            for pair in pairs:
                who = " + ".join(name(state, t) for t in pair)
                opts.append(
                    Option(
                        id="double-" + "-".join(pair),
                        label=Text(fr=f"Double tir : {who}", en=f"Double shot: {who}"),
                        args=DoubleShot(obligation=i, targets=pair),
                        group=Text(fr="Tir", en="Ranged"),
                        emoji="🏹",
                        style="danger",
                        stats={"dice": o.dice},
                    )
                )
            continue
        for t in targets:
            assert t.zone is not None
            far = o.kind == "ranged" and distance(f.zone, t.zone) == 2
            verb_fr = "Attaquer" if o.kind == "melee" else "Tirer sur"
            verb_en = "Attack" if o.kind == "melee" else "Shoot"
            dice = o.dice if o.special != "claymore" else "?"
            opts.append(
                Option(
                    id=f"{o.kind}-{i}-{t.id}",
                    label=Text(
                        fr=f"{verb_fr} {name(state, t.id)}{tag_fr}"
                        + (" — tir lointain -1" if far else ""),
                        en=f"{verb_en} {name(state, t.id)}{tag_en}"
                        + (" — long shot -1" if far else ""),
                    ),
                    args=Attack(obligation=i, target=t.id),
                    group=Text(fr="Corps à corps", en="Melee")
                    if o.kind == "melee"
                    else Text(fr="Tir", en="Ranged"),
                    emoji="⚔️" if o.kind == "melee" else "🏹",
                    style="danger",
                    stats={"dice": dice, "defence": defence(state, t), "hp": t.hp},
                )
            )
    return opts


# --- decisions ------------------------------------------------------------------------------
def pending(state: UWState) -> list[Decision]:
    if state.phase == "over":
        return []
    if state.hold is not None:
        return [_hold_decision(state, state.hold)]
    if state.resolution is not None:
        return _resolution_decisions(state)
    if state.phase == "draft":
        return [_draft_decision(state)]
    if state.phase == "place":
        f = placing(state)
        assert f is not None
        return [
            Decision(
                key=f"place:{f.id}",
                seat=f.seat,
                kind="place",
                prompt=Text(
                    fr=f"Où placer {name(state, f.id)} (taille {f.size}) ?",
                    en=f"Where does {name(state, f.id)} (size {f.size}) enter?",
                ),
                options=[
                    Option(
                        id=f"zone-{z}",
                        label=Text(
                            fr=zone_name(z).fr.capitalize(), en=zone_name(z).en.capitalize()
                        ),
                        args=Place(zone=z),
                    )
                    for z in free_zones(state)
                ],
                args=FighterArg(fighter=f.id),
                subject=name(state, f.id),
                timing="turn",
            )
        ]
    if state.phase == "pick":
        out = []
        for f in state.alive():
            if f.pick is not None:
                continue
            out.append(
                Decision(
                    key=f"pick:{state.round}:{f.id}",
                    seat=f.seat,
                    kind="pick",
                    prompt=Text(
                        fr=f"Round {state.round} : quelle carte Action pour {name(state, f.id)} ?",
                        en=f"Round {state.round}: which action card for {name(state, f.id)}?",
                    ),
                    options=[_card_option(state, f, cid) for cid in f.hand],
                    args=FighterArg(fighter=f.id),
                    timing="pick",
                    secret=True,
                    subject=name(state, f.id),
                )
            )
        return out
    if state.phase == "act" and state.action is not None:
        a = state.action
        f = state.fighter(a.fighter)
        todo = [o for o in a.obligations if not o.done and not o.optional]
        hint = Text(
            fr=f"Mouvements restants : {a.moves_left}. Attaques obligatoires à faire : {len(todo)}.",
            en=f"Moves left: {a.moves_left}. Obliged attacks to make: {len(todo)}.",
        )
        return [
            Decision(
                key=f"act:{state.round}:{f.id}:{a.step}",
                seat=f.seat,
                kind="action",
                prompt=Text(
                    fr=f"{name(state, f.id)} agit ({zone_name(f.zone or 0).fr}) : que faire ?",
                    en=f"{name(state, f.id)} acts ({zone_name(f.zone or 0).en}): what now?",
                ),
                options=action_options(state),
                args=FighterArg(fighter=f.id),
                timing="action",
                subject=name(state, f.id),
                hint=hint,
            )
        ]
    return []


def _card_option(state: UWState, f: Fighter, cid: str) -> Option:
    c = card(state, cid)
    melee: int | str = c.melee
    ranged: int | str = c.ranged
    if c.special == "kamikaze":
        melee = kamikaze_dice(f)
    elif c.special == "terminotaure":
        melee = len(f.played) + 1
    elif c.special == "spiked-pad":
        melee = "3+2"
    elif c.special == "spear-whirl":
        melee = "2+2"
    if c.special == "claymore":
        ranged = "1-6"
    sp = SPECIAL_NAMES[c.special] if c.special else None
    return Option(
        id=cid,
        label=Text(
            fr=f"⚡{c.initiative} 👣{c.move} ⚔️{melee} 🏹{ranged} 🛡️{c.defence}"
            + (f" {sp.fr}" if sp else ""),
            en=f"⚡{c.initiative} 👣{c.move} ⚔️{melee} 🏹{ranged} 🛡️{c.defence}"
            + (f" {sp.en}" if sp else ""),
        ),
        args=PickCard(card=cid),
        stats={
            "initiative": c.initiative,
            "move": c.move,
            "melee": melee,
            "ranged": ranged,
            "defence": c.defence,
        },
        detail=_special_detail(c),
        emoji="✨" if c.special else None,
    )


def _special_detail(c: Card) -> Text | None:
    from bot.games.ultimate_warriorz.cards import SPECIAL_EFFECTS

    if c.special is None:
        return None
    return Text(
        fr=f"{SPECIAL_NAMES[c.special].fr} : {SPECIAL_EFFECTS[c.special].fr}",
        en=f"{SPECIAL_NAMES[c.special].en}: {SPECIAL_EFFECTS[c.special].en}",
    )


def _draft_decision(state: UWState) -> Decision:
    taken = set(state.seat_lots.values())
    opts = []
    for i, lot in enumerate(state.lots):
        if i in taken:
            continue
        who = " + ".join(name(state, f) for f in lot)
        opts.append(Option(id=f"lot-{i}", label=Text(fr=who, en=who), args=Lot(index=i)))
    gone = [" + ".join(name(state, f) for f in state.lots[i]) for i in sorted(taken)]
    hint = Text(
        fr="Déjà pris : " + (", ".join(gone) or "aucun"),
        en="Already taken: " + (", ".join(gone) or "none"),
    )
    return Decision(
        key=f"lot:{state.draft_seat}",
        seat=state.draft_seat,
        kind="draft",
        prompt=Text(fr="Choisissez votre combattant.", en="Choose your fighter."),
        options=opts,
        timing="turn",
        hint=hint,
    )


def _resolution_decisions(state: UWState) -> list[Decision]:
    r = state.resolution
    assert r is not None
    out = []
    for k, roll in enumerate(r.rolls):
        t = state.fighter(roll.target)
        ref = RollRef(fighter=t.id, resolution=r.id, roll=k)
        who = _by(state, roll)
        dice = ", ".join(str(d) for d in roll.dice)
        if roll.charm == "ask":
            opts = [
                Option(
                    id="no",
                    label=Text(fr="Non, garder le porte-bonheur", en="No, keep the charm"),
                    args=CharmNo(),
                    style="secondary",
                )
            ]
            for i, d in enumerate(roll.dice):
                opts.append(
                    Option(
                        id=f"flip-{i}",
                        label=Text(
                            fr=f"Retourner le dé n°{i + 1} : {d} → {7 - d}",
                            en=f"Flip die #{i + 1}: {d} → {7 - d}",
                        ),
                        args=CharmFlip(die=i),
                        emoji="🍀",
                    )
                )
            opts.append(
                Option(
                    id="reroll",
                    label=Text(
                        fr="Faire relancer jusqu'à 3 dés",
                        en="Make the attacker reroll up to 3 dice",
                    ),
                    args=CharmReroll(),
                    emoji="🍀",
                )
            )
            out.append(
                Decision(
                    key=f"charm:{r.id}:{k}",
                    seat=t.seat,
                    kind="charm",
                    prompt=Text(
                        fr=f"Porte-bonheur {de(name(state, t.id))} ? Attaque {de(who.fr)} : [{dice}] "
                        f"contre défense {roll.defence}"
                        + (f" ({roll.modifier:+d} par dé)" if roll.modifier else "")
                        + ". Une seule fois par partie.",
                        en=f"Use {name(state, t.id)}'s lucky charm? Attack by {who.en}: [{dice}] "
                        f"against defence {roll.defence}"
                        + (f" ({roll.modifier:+d} per die)" if roll.modifier else "")
                        + ". Once per match.",
                    ),
                    options=opts,
                    args=ref,
                    timing="reaction",
                    secret=True,
                    subject=name(state, t.id),
                )
            )
        elif roll.charm == "reroll":
            out.append(
                Decision(
                    key=f"charm-dice:{r.id}:{k}",
                    seat=t.seat,
                    kind="charm-dice",
                    prompt=Text(
                        fr=f"Quels dés (1 à 3) faire relancer à {who.fr} ? [{dice}]",
                        en=f"Which dice (1 to 3) must {who.en} reroll? [{dice}]",
                    ),
                    options=[
                        Option(
                            id=f"die-{i}",
                            label=Text(fr=f"Dé n°{i + 1} ({d})", en=f"Die #{i + 1} ({d})"),
                            args=Die(die=i),
                        )
                        for i, d in enumerate(roll.dice)
                    ],
                    ask=Many(min=1, max=min(3, len(roll.dice))),
                    args=ref,
                    timing="reaction",
                    secret=True,
                    subject=name(state, t.id),
                )
            )
    if out:
        return out
    if r.strike_zone is not None and not r.strike_done:
        return [_strike_decision(state, r)]
    return []


def _hold_decision(state: UWState, seat: int) -> Decision:
    return Decision(
        key=f"continue:{state.hold_step}",
        seat=seat,
        kind="continue",
        prompt=Text(fr="Le combat continue.", en="The fight goes on."),
        options=[Option(id="continue", label=Text(fr="Continuer", en="Continue"), args=Continue())],
        timing="action",
    )


def _strike_decision(state: UWState, r: Resolution) -> Decision:
    """Baobab's strike: each die may go to another fighter of the zone, one die each (RULINGS)."""
    primary = r.rolls[0]
    attacker = state.fighter(primary.attacker or "baobab")
    quantities = []
    totals = []
    for i, d in enumerate(primary.dice):
        for fid in r.strike_others:
            quantities.append(
                Quantity(
                    id=f"d{i}-{fid}",
                    label=Text(
                        fr=f"Dé n°{i + 1} ({d + primary.modifier}) → {name(state, fid)} 🛡️{defence(state, state.fighter(fid))}",
                        en=f"Die #{i + 1} ({d + primary.modifier}) → {name(state, fid)} 🛡️{defence(state, state.fighter(fid))}",
                    ),
                    max=1,
                )
            )
        totals.append(
            Total(
                of=[f"d{i}-{fid}" for fid in r.strike_others],
                max=1,
                label=Text(
                    fr=f"Dé n°{i + 1} : une cible au plus", en=f"Die #{i + 1}: one target at most"
                ),
            )
        )
    for fid in r.strike_others:
        totals.append(
            Total(
                of=[f"d{i}-{fid}" for i in range(len(primary.dice))],
                max=1,
                label=Text(
                    fr=f"{name(state, fid)} : un dé au plus",
                    en=f"{name(state, fid)}: one die at most",
                ),
            )
        )
    dice = ", ".join(str(d + primary.modifier) for d in primary.dice)
    return Decision(
        key=f"strike:{r.id}",
        seat=attacker.seat,
        kind="strike",
        prompt=Text(
            fr=f"Strike : [{dice}] sur {name(state, primary.target)} (🛡️{primary.defence}). "
            "Réaffecter des dés aux autres combattants de la zone (un dé chacun) ? "
            "Les dés non réaffectés restent sur la cible principale.",
            en=f"Strike: [{dice}] at {name(state, primary.target)} (🛡️{primary.defence}). "
            "Reassign dice to the zone's other fighters (one die each)? "
            "Dice not reassigned stay on the main target.",
        ),
        ask=Allocation(quantities=quantities, totals=totals),
        args=FighterArg(fighter=attacker.id),
        timing="action",
        subject=name(state, attacker.id),
    )


# --- applying -------------------------------------------------------------------------------
def apply(state: UWState, answer: Answer, ctx: Ctx) -> None:
    kind = answer.decision.kind
    if kind == "draft":
        match answer.args:
            case Lot(index=i):
                state.seat_lots[answer.seat] = i
                who = " + ".join(name(state, f) for f in state.lots[i])
                ctx.emit(
                    "draft",
                    Text(
                        fr=f"{state.seat_names[answer.seat]} prend {who}.",
                        en=f"{state.seat_names[answer.seat]} takes {who}.",
                    ),
                )
        state.draft_seat += 1
        if state.draft_seat >= len(state.seat_names):
            _start_placement(state, ctx)
        return
    if kind == "place":
        f = placing(state)
        assert f is not None
        match answer.args:
            case Place(zone=z):
                _place(state, f, z, ctx)
        _auto_place(state, ctx)
        return
    if kind == "pick":
        match (answer.decision.args, answer.args):
            case (FighterArg(fighter=fid), PickCard(card=cid)):
                state.fighter(fid).pick = cid
                ctx.emit(
                    "picked",
                    Text(
                        fr=f"{name(state, fid)} jouera {_card_option(state, state.fighter(fid), cid).label.fr}",
                        en=f"{name(state, fid)} will play {_card_option(state, state.fighter(fid), cid).label.en}",
                    ),
                    visible_to=[answer.seat],
                    fighter=fid,
                )
        _continue(state, ctx)
        return
    if kind == "action":
        _apply_action(state, answer, ctx)
        _continue(state, ctx)
        return
    if kind in ("charm", "charm-dice"):
        _apply_charm(state, answer)
        _continue(state, ctx)
        return
    if kind == "continue":
        # A one-button step older matches may still hold (before 2026-11): no longer asked.
        state.hold = None
        state.hold_step += 1
        _continue(state, ctx)
        return
    if kind == "strike":
        r = state.resolution
        assert r is not None
        for qid, amount in answer.amounts.items():
            if amount:
                for i in range(len(r.rolls[0].dice)):
                    for fid in r.strike_others:
                        if qid == f"d{i}-{fid}":
                            r.assigned[fid] = i
        r.strike_done = True
        _continue(state, ctx)
        return
    raise IllegalDecision(Text(fr="Choix inattendu.", en="Unexpected choice."))


def _apply_action(state: UWState, answer: Answer, ctx: Ctx) -> None:
    a = state.action
    assert a is not None
    f = state.fighter(a.fighter)
    assert f.zone is not None
    a.step += 1
    match answer.args:
        case Move(zone=z):
            a.moves_left -= 1
            a.visited.append(z)
            f.zone = z
            zn = zone_name(z)
            ctx.emit(
                "move",
                Text(
                    fr=f"{name(state, f.id)} va sur {zn.fr}.",
                    en=f"{name(state, f.id)} moves to {zn.en}.",
                ),
                fighter=f.id,
                zone=z,
            )
            state.last.append(Text(fr=f"👣 {zn.fr}", en=f"👣 {zn.en}"))
        case Attack(obligation=i, target=tid):
            o = a.obligations[i]
            o.done = True
            o.targets.append(tid)
            _attack(state, f, [state.fighter(tid)], o, ctx)
        case Keg(obligation=i, zone=z):
            o = a.obligations[i]
            victims = [t for t in _targets(state, a, i) if t.zone == z]
            o.done = True
            o.targets += [t.id for t in victims]
            _attack(state, f, victims, o, ctx, shared=True)
        case DoubleShot(obligation=i, targets=tids):
            o = a.obligations[i]
            o.done = True
            o.targets += tids
            _attack(state, f, [state.fighter(t) for t in tids], o, ctx)
        case EndAction() if _may_end(state, a):
            _end_action(state, ctx)
        case GiveSkull(obligation=i, target=tid):
            o = a.obligations[i]
            o.done = True
            for other in state.fighters:
                other.skull = False
            state.fighter(tid).skull = True
            ctx.emit(
                "skull",
                Text(
                    fr=f"💀 {name(state, f.id)} donne le crâne à {name(state, tid)} : "
                    f"il ne pourra pas attaquer {name(state, f.id)} à sa prochaine action.",
                    en=f"💀 {name(state, f.id)} gives the skull to {name(state, tid)}: "
                    f"it cannot attack {name(state, f.id)} on its next action.",
                ),
            )
            state.last.append(Text(fr=f"💀 {name(state, tid)}", en=f"💀 {name(state, tid)}"))
        case _:
            raise IllegalDecision(Text(fr="Choix inattendu.", en="Unexpected choice."))


# --- attacks ------------------------------------------------------------------------------
def _attack(
    state: UWState,
    f: Fighter,
    targets: list[Fighter],
    o: Obligation,
    ctx: Ctx,
    shared: bool = False,
) -> None:
    """Résolution d'un combat: roll, then the charm, then wounds (with each special's twist)."""
    assert f.zone is not None
    a = state.action
    cid = a.card if a else None
    kind: AttackKind = "melee" if o.kind == "melee" else "ranged"
    dice_n = o.dice
    who = name(state, f.id)
    if o.special == "claymore":
        power = ctx.roll(1, who, Text(fr="la puissance de la claymore", en="the claymore's power"))
        dice_n = power.dice[0]
        power.result = Text(fr=_dice_word(dice_n, "fr"), en=_dice_word(dice_n, "en"))
    # Baobab's skull: attacking the holder discards it.
    for t in targets:
        if t.skull and f.id == "baobab":
            t.skull = False
    rolls: list[Roll] = []
    shared_dice: list[int] | None = None
    for t in targets:
        assert t.zone is not None
        modifier = 0
        if kind == "ranged" and distance(f.zone, t.zone) == 2:
            modifier -= 1  # Tir lointain
        if o.special == "energy-armour":
            modifier += 1
        n = dice_n
        if active_effect(state, t) == "light-suit":
            n = max(0, n - 1)
        d = _defence_against(state, f, t, o, ctx)
        label = _purpose(state, t, o)
        if shared:
            if shared_dice is None:
                ev = ctx.roll(dice_n, who, label, target=None, modifier=modifier)
                shared_dice = list(ev.dice)
            dice = list(shared_dice[:n])
        else:
            if n == 0:
                ctx.emit(
                    "no-dice",
                    Text(
                        fr=f"{who} n'a aucun dé contre {name(state, t.id)}.",
                        en=f"{who} has no die against {name(state, t.id)}.",
                    ),
                )
                continue
            ev = ctx.roll(n, who, label, target=d, modifier=modifier)
            dice = list(ev.dice)
        rolls.append(
            Roll(
                attacker=f.id,
                target=t.id,
                kind=kind,
                dice=dice,
                modifier=modifier,
                defence=d,
                special=o.special,
                card=cid,
                primary=o.special == "strike",
                roller=who,
            )
        )
    _open_resolution(state, rolls, ctx)
    if o.special == "strike" and rolls:
        t = targets[0]
        assert state.resolution is not None and t.zone is not None
        others = [
            x.id
            for x in state.alive()
            if x.zone == t.zone and x.id != t.id and can_attack(state, f, x, "ranged")
        ]
        if others:
            state.resolution.strike_zone = t.zone
            state.resolution.strike_others = others


def _purpose(state: UWState, t: Fighter, o: Obligation) -> Text:
    n = name(state, t.id)
    return (rolltexts.CLOSE_COMBAT if o.kind == "melee" else rolltexts.SHOT).at(n)


def _defence_against(state: UWState, f: Fighter, t: Fighter, o: Obligation, ctx: Ctx) -> int:
    """The target's defence for this attack: spear whirl rolls it, the cursed net lowers it."""
    if active_effect(state, t) == "spear-whirl":
        ev = ctx.roll(
            1,
            name(state, t.id),
            Text(fr="sa défense (vrombissement de lance)", en="its defence (spear whirl)"),
        )
        d = ev.dice[0]
        ev.result = Text(fr=f"défense {d}", en=f"defence {d}")
    else:
        d = defence(state, t)
    if o.special == "cursed-net":
        ev = ctx.roll(3, name(state, f.id), Text(fr="le filet maléfique", en="the cursed net"))
        if sum(ev.dice) >= t.size:
            d = max(1, d - 2)
            ev.result = Text(
                fr=f"{sum(ev.dice)} >= {t.size} : défense {de(name(state, t.id))} -2 ({d})",
                en=f"{sum(ev.dice)} >= {t.size}: {name(state, t.id)}'s defence -2 ({d})",
            )
        else:
            ev.result = Text(
                fr=f"{sum(ev.dice)} < {t.size} : sans effet",
                en=f"{sum(ev.dice)} < {t.size}: no effect",
            )
    return d


def _open_resolution(state: UWState, rolls: list[Roll], ctx: Ctx) -> None:
    """Rolls made together; each target with its charm is asked privately (PORTE-BONHEUR)."""
    for r in rolls:
        t = state.fighter(r.target)
        r.charm = "ask" if CHARM.opens(t, r.dice) else "none"
    state.resolution = Resolution(id=state.next_roll, rolls=rolls)
    state.next_roll += 1


def _apply_charm(state: UWState, answer: Answer) -> None:
    r = state.resolution
    ref = answer.decision.args
    assert r is not None and isinstance(ref, RollRef)
    roll = r.rolls[ref.roll]
    if answer.decision.kind == "charm-dice":
        roll.rerolled = sorted(o.args.die for o in answer.chosen if isinstance(o.args, Die))
        roll.charm = "rerolled"
        return
    match answer.args:
        case CharmNo():
            roll.charm = "no"
        case CharmFlip(die=i):
            roll.charm = "flip"
            roll.flipped = i
        case CharmReroll():
            roll.charm = "reroll"
        case _:
            raise IllegalDecision(Text(fr="Choix inattendu.", en="Unexpected choice."))


def _settle(state: UWState, ctx: Ctx) -> bool:
    """Resolve the open rolls once every charm is answered; False while a decision waits."""
    r = state.resolution
    assert r is not None
    if any(x.charm in ("ask", "reroll") for x in r.rolls):
        return False
    for x in r.rolls:
        _use_charm(state, x, ctx)
    if r.strike_zone is not None and not r.strike_done:
        return False
    state.resolution = None
    stones: list[tuple[Fighter, int, str]] = []
    for k, x in enumerate(r.rolls):
        dice = list(x.dice)
        if k == 0 and r.assigned:
            taken = set(r.assigned.values())
            dice = [d for i, d in enumerate(x.dice) if i not in taken]
        _resolve(state, x, dice, ctx, stones)
    for fid, i in sorted(r.assigned.items()):
        primary = r.rolls[0]
        t = state.fighter(fid)
        if not t.alive:
            continue
        attacker = state.fighter(primary.attacker or "baobab")
        if t.skull and attacker.id == "baobab":
            t.skull = False  # Crâne mystique: discarded as soon as Baobab attacks its holder
        d = _defence_against(state, attacker, t, Obligation(kind="ranged"), ctx)
        x = Roll(
            attacker=primary.attacker,
            target=fid,
            kind="ranged",
            dice=[primary.dice[i]],
            modifier=primary.modifier,
            defence=d,
            special="strike",
            card=primary.card,
        )
        _resolve(state, x, x.dice, ctx, stones)
    if stones and len({f.team for f in state.alive()}) > 1:
        # Stones only while the fight goes on: a last fighter standing has already won.
        _throw_stones(state, stones, ctx)
    return True


def _by(state: UWState, roll: Roll) -> Text:
    """Who made an attack roll: a fighter, or the crowd for the stones."""
    if roll.attacker:
        n = name(state, roll.attacker)
        return Text(fr=n, en=n)
    return Text(fr="le public", en="the crowd")


def _use_charm(state: UWState, x: Roll, ctx: Ctx) -> None:
    t = state.fighter(x.target)
    who = _by(state, x)
    if x.charm == "flip" and x.flipped is not None:
        before = x.dice[x.flipped]
        x.dice[x.flipped] = 7 - before
        t.charm = False
        ctx.emit(
            "charm",
            Text(
                fr=f"🍀 {name(state, t.id)} utilise son porte-bonheur : un {before} devient {7 - before}.",
                en=f"🍀 {name(state, t.id)} uses its lucky charm: a {before} becomes {7 - before}.",
            ),
            fighter=t.id,
        )
        x.charm = "none"
    elif x.charm == "rerolled":
        t.charm = False
        ctx.emit(
            "charm",
            Text(
                fr=f"🍀 {name(state, t.id)} utilise son porte-bonheur : {who.fr} relance "
                + plural(len(x.rerolled), "dé", "dés", "fr")
                + ".",
                en=f"🍀 {name(state, t.id)} uses its lucky charm: {who.en} rerolls "
                + plural(len(x.rerolled), "die", "dice", "en")
                + ".",
            ),
            fighter=t.id,
        )
        ev = ctx.roll(
            len(x.rerolled),
            x.roller,
            rolltexts.REROLL.at(name(state, t.id)),
        )
        for i, d in zip(x.rerolled, ev.dice, strict=True):
            x.dice[i] = d
        x.charm = "none"
    else:
        x.charm = "none"


def _resolve(
    state: UWState, x: Roll, dice: list[int], ctx: Ctx, stones: list[tuple[Fighter, int, str]]
) -> None:
    """Blessures: each die (modified) >= defence wounds; PP, the first-wound token, trophies."""
    t = state.fighter(x.target)
    if not t.alive:
        return
    resolve(dice, x.defence, lambda hits: _wound(state, x, t, dice, hits, ctx, stones), x.modifier)


def _wound(
    state: UWState,
    x: Roll,
    t: Fighter,
    dice: list[int],
    hits: int,
    ctx: Ctx,
    stones: list[tuple[Fighter, int, str]],
) -> None:
    """Blessures: each hit costs 1 HP; PP (3 for the first wound), the vampire, trophies."""
    shown = ", ".join(str(d + x.modifier) for d in dice)
    attacker = state.fighter(x.attacker) if x.attacker else None
    vampire = (
        x.card is not None and attacker is not None and card(state, x.card).special == "vampire"
    )
    lost = wounds_taken(t.hp, hits)
    pp = 0
    for _ in range(lost):
        worth = FIRST_WOUND_PP if t.first_wound else 1
        t.first_wound = False
        t.hp -= 1
        if attacker is None:
            continue
        if vampire:
            attacker.hp += 1  # Baguettes vampiriques: heart side up, no PP
        else:
            pp += worth
    if attacker is not None:
        attacker.pp += pp
    a_name = name(state, x.attacker) if x.attacker else "Le public"
    a_name_en = name(state, x.attacker) if x.attacker else "The crowd"
    if lost == 0:
        text = Text(
            fr=f"[{shown}] contre 🛡️{x.defence} : {name(state, t.id)} n'est pas blessé.",
            en=f"[{shown}] against 🛡️{x.defence}: {name(state, t.id)} is not wounded.",
        )
    elif vampire:
        text = Text(
            fr=f"[{shown}] contre 🛡️{x.defence} : {name(state, t.id)} perd "
            + plural(lost, "PV", "PV", "fr")
            + f", qui vont aux PV de {a_name} (vampire).",
            en=f"[{shown}] against 🛡️{x.defence}: {name(state, t.id)} loses {lost} HP, "
            f"added to {a_name_en}'s HP (vampire).",
        )
    else:
        text = Text(
            fr=f"[{shown}] contre 🛡️{x.defence} : {name(state, t.id)} perd "
            + plural(lost, "PV", "PV", "fr")
            + (f", {a_name} gagne {pp} PP." if attacker else " (pierres : aucun PP)."),
            en=f"[{shown}] against 🛡️{x.defence}: {name(state, t.id)} loses {lost} HP"
            + (f", {a_name_en} gains {pp} PP." if attacker else " (stones: no PP)."),
        )
    ctx.emit("wound", text, target=t.id, attacker=x.attacker, hp=lost, pp=pp)
    state.last.append(
        Text(fr=f"💥 {name(state, t.id)} -{lost}", en=f"💥 {name(state, t.id)} -{lost}")
    )
    if lost and attacker is not None and x.card and card(state, x.card).special == "electroshock":
        t.shock = -2
        attacker.shock = 2
        ctx.emit(
            "electroshock",
            Text(
                fr=f"⚡ Electroshock : {name(state, t.id)} -2 en initiative à sa prochaine action, "
                f"{a_name} +2.",
                en=f"⚡ Electroshock: {name(state, t.id)} -2 initiative on its next action, "
                f"{a_name_en} +2.",
            ),
        )
    if t.hp == 0:
        t.alive = False
        t.eliminated_round = state.round
        t.eliminated_by = x.attacker
        t.skull = False
        t.shock = 0
        t.pick = None
        if attacker is not None:
            attacker.trophies.append(t.id)
        ctx.emit(
            "eliminated",
            Text(
                fr=f"☠️ {name(state, t.id)} est éliminé"
                + (f" ; {a_name} prend sa figurine en trophée." if attacker else "."),
                en=f"☠️ {name(state, t.id)} is eliminated"
                + (f"; {a_name_en} takes its figure as a trophy." if attacker else "."),
            ),
            fighter=t.id,
            by=x.attacker,
        )
        if attacker is not None and attacker.alive and state.round in STONES:
            stones.append((attacker, STONES[state.round], t.id))


def _throw_stones(state: UWState, stones: list[tuple[Fighter, int, str]], ctx: Ctx) -> None:
    """Jets de pierre: a shot of 3/2/1 dice at the eliminator, rolled for the victim, no PP."""
    rolls = []
    for f, n, victim in stones:
        if not f.alive:
            continue
        ctx.emit(
            "stones",
            Text(
                fr=f"🪨 Le public jette des pierres sur {name(state, f.id)} ("
                + _dice_word(n, "fr")
                + ") !",
                en=f"🪨 The crowd throws stones at {name(state, f.id)} ("
                + _dice_word(n, "en")
                + ")!",
            ),
            fighter=f.id,
        )
        if active_effect(state, f) == "ghost-ring":
            continue  # stones are a shot: the ghost ring makes Agaric untouchable
        if active_effect(state, f) == "light-suit":
            n -= 1
        if n <= 0:
            continue
        o = Obligation(kind="ranged", dice=n)
        d = _defence_against(state, f, f, o, ctx)
        ev = ctx.roll(
            n,
            name(state, victim),
            Text(
                fr=f"les pierres sur {name(state, f.id)}", en=f"the stones at {name(state, f.id)}"
            ),
            target=d,
        )
        rolls.append(
            Roll(
                attacker=None,
                target=f.id,
                kind="stones",
                dice=list(ev.dice),
                defence=d,
                roller=name(state, victim),
            )
        )
    if rolls:
        _open_resolution(state, rolls, ctx)


# --- the end (§5) ---------------------------------------------------------------------------
def _sides(state: UWState) -> dict[int, list[Fighter]]:
    sides: dict[int, list[Fighter]] = {}
    for f in state.fighters:
        sides.setdefault(f.team, []).append(f)
    return sides


def _check_end(state: UWState, ctx: Ctx) -> bool:
    """§5: one fighter (one team) left standing wins at once."""
    if state.phase not in ("pick", "act"):
        return False
    standing = {f.team for f in state.alive()}
    if len(standing) > 1:
        return False
    if not standing:
        # Everyone fell at once (stones): the last to fall compete on points.
        last = [f for f in state.fighters if f.eliminated_round == state.round]
        _finish(
            state,
            [f.team for f in last],
            ctx,
            Text(fr="Plus personne debout", en="Nobody left standing"),
        )
        return True
    team = standing.pop()
    state.resolution = None
    winners = _sides(state)[team]
    state.phase = "over"
    state.action = None
    seats = sorted({f.seat for f in winners})
    state.result_winners = seats
    state.result_fighters = [f.id for f in winners if f.alive]
    state.result_scores = _seat_scores(state)
    who = " + ".join(name(state, f.id) for f in winners if f.alive)
    state.result_text = Text(
        fr=f"{who} {'restent seuls' if len(state.result_fighters) > 1 else 'reste seul'} debout : victoire !",
        en=f"{who} {'are' if len(state.result_fighters) > 1 else 'is'} the last standing: victory!",
    )
    ctx.emit("game-over", state.result_text)
    return True


def team_score(
    state: UWState, fighters: list[Fighter], survivors_only: bool
) -> tuple[int, int, int]:
    """(PP, trophies, size) of a side: §5 and TEAM SPIRIT (all members' PP and trophies)."""
    counted = [f for f in fighters if f.alive or not survivors_only]
    size = sum(f.size for f in fighters if f.alive) or sum(f.size for f in fighters)
    return (sum(f.pp for f in counted), sum(len(f.trophies) for f in counted), size)


def _finish_on_points(state: UWState, ctx: Ctx) -> None:
    standing = sorted({f.team for f in state.alive()})
    _finish(state, standing, ctx, Text(fr="Gong final", en="Final gong"))


def _finish(state: UWState, teams: list[int], ctx: Ctx, why: Text) -> None:
    """Most PP, then most trophies, then the smallest size (team totals in Team Spirit)."""
    sides = _sides(state)
    tribal = state.mode == TRIBAL
    scores = {t: team_score(state, sides[t], survivors_only=tribal) for t in teams}
    best = max(scores.values(), key=lambda s: (s[0], s[1], -s[2]))
    top = [t for t in teams if scores[t] == best]
    winners = [f for t in top for f in sides[t]]
    state.phase = "over"
    state.action = None
    state.result_winners = sorted({f.seat for f in winners})
    state.result_fighters = [f.id for f in winners]
    state.result_shared = len(top) > 1
    state.result_scores = _seat_scores(state)
    who = " + ".join(name(state, f.id) for f in winners)
    pp, tr, _ = best
    state.result_text = Text(
        fr=f"{why.fr} : {who} {'l’emportent' if len(winners) > 1 else 'l’emporte'} aux points ({pp} PP, "
        + plural(tr, "trophée", "trophées", "fr")
        + ").",
        en=f"{why.en}: {who} {'win' if len(winners) > 1 else 'wins'} on points ({pp} PP, "
        + plural(tr, "trophy", "trophies", "en")
        + ").",
    )
    ctx.emit("game-over", state.result_text)


def _seat_scores(state: UWState) -> dict[int, float]:
    out: dict[int, float] = {}
    for f in state.fighters:
        out[f.seat] = out.get(f.seat, 0) + f.pp
    return out
