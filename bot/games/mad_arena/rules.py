"""The round of Mad Arena (§2): gong, secret picks, countdown, actions, end of game.

``pending`` lists what is awaited; ``apply`` answers one decision. Between
decisions the state always rests either in the pick phase (every living
fighter but the dragon picks secretly) or inside one fighter's action.
"""

from __future__ import annotations

from typing import Any

from bot.engine.decisions import (
    Allocation,
    Answer,
    Ask,
    Choice,
    Decision,
    One,
    Option,
    Order,
    Quantity,
    Total,
)
from bot.engine.errors import IllegalDecision
from bot.engine.game import Ctx, SeatSpec
from bot.engine.text import Text, plural
from bot.games.fighters import rolltexts
from bot.games.fighters.countdown import count_down, next_to_act
from bot.games.fighters.hands import TakeBackDiscard, replace, reveal
from bot.games.mad_arena import secret_moves as sm
from bot.games.mad_arena.arena import adjacent, legal_steps
from bot.games.mad_arena.args import (
    ActionArgs,
    End,
    ForFighter,
    Free,
    Kick,
    Melee,
    Move,
    PlayCard,
    Ranged,
    SplitDice,
    StrikeTarget,
    Throw,
    ZoneAttack,
)
from bot.games.mad_arena.cards import DRAGON, load_cards
from bot.games.mad_arena.combat import (
    defence,
    enemies,
    in_zone,
    initiative,
    is_dragon,
    net_malus,
    net_note,
    netted,
    single_attack,
)
from bot.games.mad_arena.labels import (
    card_detail,
    card_label,
    card_stats,
    de,
    stats_text,
    zone_short,
    zone_text,
)
from bot.games.mad_arena.modes import deal
from bot.games.mad_arena.scoring import check_last_standing, final_scores
from bot.games.mad_arena.state import Action, Fighter, LastAction, MAState

LAST_ROUND = 12
REFILL = TakeBackDiscard()
"""§2.2: an empty hand takes back its discard (used secret moves are out of the game)."""


# --- setup ---------------------------------------------------------------------------------
def setup_state(seats: list[SeatSpec], mode: str, options: dict[str, Any], ctx: Ctx) -> MAState:
    """§1 Préparation: deal fighters, build the ring in seating order, full HP and hands."""
    cards = load_cards(options.get("cards"), options.get("card_data"))
    per_seat, team_lists = deal(mode, len(seats), ctx.rng)
    team_of = {fid: i for i, t in enumerate(team_lists) for fid in t}
    zones = [fid for fs in per_seat for fid in fs if fid != DRAGON]
    fighters: list[Fighter] = []
    for seat, fs in enumerate(per_seat):
        for fid in fs:
            data = cards.fighter(fid)
            fighters.append(
                Fighter(
                    id=fid,
                    seat=seat,
                    team=team_of[fid],
                    hp=data.size,
                    zone=len(zones) if data.dragon else zones.index(fid),
                    hand=[c.id for c in data.cards],
                )
            )
    dragon_first = options.get("dragon_gong") or "blue"
    state = MAState(
        mode=mode,
        seat_names=[s.name for s in seats],
        cards=cards,
        zones=zones,
        fighters=fighters,
        teams=team_lists,
        dragon_first="red" if dragon_first == "red" else "blue",
    )
    lines_fr = []
    lines_en = []
    for seat, fs in enumerate(per_seat):
        names = ", ".join(cards.fighter(f).name for f in fs)
        lines_fr.append(f"{seats[seat].name} : {names}")
        lines_en.append(f"{seats[seat].name}: {names}")
    ctx.emit(
        "setup",
        Text(
            fr="🏟️ Combattants : " + " ; ".join(lines_fr) + ".",
            en="🏟️ Fighters: " + "; ".join(lines_en) + ".",
        ),
        fighters={f.id: f.seat for f in fighters},
    )
    start_round(state, ctx)
    return state


# --- round ---------------------------------------------------------------------------------
def start_round(state: MAState, ctx: Ctx) -> None:
    """§2.1 the gong advances; §2.2 an empty hand takes back the discard (not a used secret move)."""
    state.phase = "pick"
    state.countdown = 6
    state.action = None
    last = " — dernier round !" if state.round == LAST_ROUND else ""
    last_en = " — last round!" if state.round == LAST_ROUND else ""
    ctx.emit(
        "round",
        Text(
            fr=f"🔔 Gong {state.round}/{LAST_ROUND}{last}",
            en=f"🔔 Gong {state.round}/{LAST_ROUND}{last_en}",
        ),
        round=state.round,
    )
    for f in state.alive():
        f.acted = False
        f.pick = None
        f.round_zone = f.zone
        if is_dragon(state, f.id):
            continue
        taken = REFILL.refill(f.hand, f.discard)
        if taken is not None:
            f.hand = taken
            f.discard = []
            f.played_since_refill = 0
            ctx.emit(
                "refill",
                Text(
                    fr=f"♻️ {state.name(f.id)} reprend en main ses {len(f.hand)} cartes défaussées.",
                    en=f"♻️ {state.name(f.id)} takes back its {len(f.hand)} discarded cards.",
                ),
                fighter=f.id,
            )
    if not pickers(state):
        begin_countdown(state, ctx)


def pickers(state: MAState) -> list[Fighter]:
    return [f for f in state.alive() if not is_dragon(state, f.id) and f.pick is None]


def begin_countdown(state: MAState, ctx: Ctx) -> None:
    state.phase = "action"
    ctx.emit(
        "countdown",
        Text(
            fr="📣 Tout le monde a choisi : compte à rebours de 6 à 1 !",
            en="📣 Everyone has chosen: countdown from 6 to 1!",
        ),
    )
    advance(state, ctx)


def next_actor(state: MAState, called: int | None = None) -> Fighter | None:
    """§2.3: the fighters whose initiative is called act one by one, smaller size first.

    A fighter whose initiative went back above the count (the net token moved
    off it before it acted) has had its number called already: it acts at once,
    before those of the current number (RULES.md), so nobody is ever skipped.
    """
    return next_to_act(
        [f for f in state.alive() if not f.acted],
        lambda f: initiative(state, f.id),
        lambda f: state.data(f.id).size,
        called=state.countdown if called is None else called,
        tiebreak=lambda f: f.id,
    )


def advance(state: MAState, ctx: Ctx) -> None:
    """Run the countdown until someone has a choice to make, or the round/match ends."""
    while state.phase == "action" and state.action is None:
        state.countdown, actor = count_down(state.countdown, 1, lambda n: next_actor(state, n))
        if actor is None:
            end_round(state, ctx)
            return
        begin_action(state, ctx, actor)
        auto_end(state, ctx)


def end_round(state: MAState, ctx: Ctx) -> None:
    if state.round >= LAST_ROUND:
        final_scores(state, ctx)
        return
    state.round += 1
    start_round(state, ctx)


def begin_action(state: MAState, ctx: Ctx, f: Fighter) -> None:
    """§2.4: replace the card in play by the chosen one, then act (secret moves leave the game)."""
    if is_dragon(state, f.id):
        f.in_play = f.hand[0] if f.hand else f.in_play
        moves = 0
    else:

        def leave(old: str) -> None:
            # Bottes secrètes: a used secret move leaves the game, never to the discard.
            (f.removed if state.card(old).secret is not None else f.discard).append(old)

        f.in_play = replace(f.in_play, reveal(f, in_hand=False), leave)
        f.played_since_refill += 1
        moves = max(0, state.card(f.in_play).move - net_malus(state, f.id))
    assert f.in_play is not None
    state.action = Action(
        fighter=f.id,
        start_zone=f.zone,
        round_zone=f.round_zone,
        path=[f.zone],
        moves_total=moves,
        moves_left=moves,
    )
    state.last = LastAction(fighter=f.id, path=[f.zone])
    label = card_label(state, f.in_play)
    stats = stats_text(card_stats(state, f.in_play, f.id, next_play=False))
    if is_dragon(state, f.id):
        ini = initiative(state, f.id)
        ctx.emit(
            "reveal",
            Text(
                fr=f"⏱️ {state.countdown} — le dragon {state.name(f.id)} passe à l'action (initiative {ini} au gong).",
                en=f"⏱️ {state.countdown} — the dragon {state.name(f.id)} acts (initiative {ini} from the gong).",
            ),
            fighter=f.id,
            card=f.in_play,
            countdown=state.countdown,
        )
        return
    net_fr = " (dans le filet : -1)" if netted(state, f.id) else ""
    net_en = " (netted: -1)" if netted(state, f.id) else ""
    if initiative(state, f.id) > state.countdown:
        net_fr += " (libéré du filet après l'appel de son numéro : il agit tout de suite)"
        net_en += " (freed of the net after its number was called: it acts at once)"
    if state.card(f.in_play).secret is not None:
        net_fr += " — botte secrète !"
        net_en += " — secret move!"
    ctx.emit(
        "reveal",
        Text(
            fr=f"⏱️ {state.countdown} — {state.name(f.id)} révèle {label.fr} {stats.fr}{net_fr}",
            en=f"⏱️ {state.countdown} — {state.name(f.id)} reveals {label.en} {stats.en}{net_en}",
        ),
        fighter=f.id,
        card=f.in_play,
        countdown=state.countdown,
    )


def end_action(state: MAState, ctx: Ctx) -> None:
    a = state.action
    assert a is not None
    f = state.f(a.fighter)
    f.acted = True
    state.action = None
    ctx.emit(
        "action-end",
        Text(
            fr=f"✅ Fin de l'action {de(state.name(f.id))}.",
            en=f"✅ {state.name(f.id)}'s action is over.",
        ),
        fighter=f.id,
    )


def auto_end(state: MAState, ctx: Ctx) -> None:
    """End an action by itself when "end" is the only thing left to do."""
    if state.phase != "action" or state.action is None or state.action.sub is not None:
        return
    opts = action_options(state)
    if len(opts) == 1 and isinstance(opts[0].args, End):
        end_action(state, ctx)


# --- dice counts ----------------------------------------------------------------------------
def melee_dice(state: MAState, fid: str) -> int:
    f = state.f(fid)
    assert f.in_play is not None
    c = state.card(f.in_play)
    if c.secret == "kamikaze":
        return sm.kamikaze_dice(state, fid)
    if c.secret == "terminotaure":
        return sm.terminotaure_dice(state, fid)
    return max(0, c.melee - net_malus(state, fid))


def ranged_dice(state: MAState, fid: str) -> int:
    f = state.f(fid)
    assert f.in_play is not None
    return max(0, state.card(f.in_play).ranged - net_malus(state, fid))


# --- options --------------------------------------------------------------------------------
MOVE = Text(fr="Se déplacer", en="Move")
MELEE = Text(fr="Combat", en="Melee")
RANGED = Text(fr="Tir", en="Ranged")


def _target_stats(state: MAState, tid: str, dice: int) -> dict[str, int | str]:
    return {"dice": dice, "defence": defence(state, tid), "hp": state.f(tid).hp}


def _attack_fighter(
    state: MAState, args: Melee | Ranged | Kick, dice: int, fr: str, en: str, group: Text
) -> Option:
    """An attack button on one fighter: ``fr``/``en`` prefix the target's name."""
    tid = args.target
    kind = "melee" if isinstance(args, Melee) else "ranged" if isinstance(args, Ranged) else "kick"
    return Option(
        id=f"{kind}-{tid}",
        label=Text(fr=f"{fr} : {state.name(tid)}", en=f"{en}: {state.name(tid)}"),
        args=args,
        group=group,
        stats=_target_stats(state, tid, dice),
        style="danger",
    )


def _attack_zone(state: MAState, z: int, fr: str, en: str) -> Option:
    """A ranged attack button on a whole zone (powder keg, strike, dragon's split fire)."""
    return Option(
        id=f"zone-z{z}",
        label=Text(fr=f"{fr} : {zone_short(state, z).fr}", en=f"{en}: {zone_short(state, z).en}"),
        args=ZoneAttack(zone=z),
        group=RANGED,
        style="danger",
    )


def action_options(state: MAState) -> list[Option]:
    """Only the legal choices of the acting fighter (§2.4 and the special rules)."""
    a = state.action
    assert a is not None
    fid = a.fighter
    f = state.f(fid)
    n = len(state.zones)
    if a.sub == "strike-order":
        return [
            Option(
                id=f"order-{tid}",
                label=Text(fr=state.name(tid), en=state.name(tid)),
                args=StrikeTarget(target=tid),
                stats={"defence": defence(state, tid), "hp": state.f(tid).hp},
            )
            for tid in strike_targets(state)
        ]
    if a.sub == "dragon-split":
        return []
    if a.sub == "kick-throw":
        return [
            Option(
                id=f"throw-z{z}",
                label=Text(
                    fr=f"Projeter vers {zone_short(state, z).fr}",
                    en=f"Throw to {zone_short(state, z).en}",
                ),
                args=Throw(zone=z),
                detail=Text(
                    fr=f"{len(in_zone(state, z, exclude=a.kicked))} combattant(s) sur place",
                    en=f"{len(in_zone(state, z, exclude=a.kicked))} fighter(s) there",
                ),
            )
            for z in range(n)
        ]
    opts: list[Option] = []
    if a.moves_left > 0:
        if netted(state, fid):
            opts.append(
                Option(
                    id="free",
                    label=Text(
                        fr="Se dépêtrer du filet (1 mouvement)", en="Get free of the net (1 move)"
                    ),
                    args=Free(),
                    group=MOVE,
                    style="primary",
                )
            )
        else:
            for z in legal_steps(
                f.zone, a.start_zone, a.moves_total, a.moves_left, n, a.round_zone
            ):
                opts.append(
                    Option(
                        id=f"move-z{z}",
                        label=Text(
                            fr=f"Aller : {zone_short(state, z).fr}",
                            en=f"Go to {zone_short(state, z).en}",
                        ),
                        args=Move(zone=z),
                        group=MOVE,
                        style="primary",
                    )
                )
    card = state.card(f.in_play or "")
    secret = card.secret
    star = " ★" if secret else ""
    if is_dragon(state, fid):
        if not a.melee_done:
            d = melee_dice(state, fid)
            for t in enemies(state, fid):
                if t.zone == state.centre and d > 0:
                    opts.append(
                        _attack_fighter(state, Melee(target=t.id), d, "Combat", "Melee", MELEE)
                    )
            r = ranged_dice(state, fid)
            for z in range(n):
                if r > 0 and any(t.zone == z for t in enemies(state, fid)):
                    opts.append(_attack_zone(state, z, f"Tir ({r} dés)", f"Ranged ({r} dice)"))
            if not f.kick_used and d > 0:
                for t in enemies(state, fid):
                    if t.zone == state.centre:
                        opts.append(
                            _attack_fighter(
                                state,
                                Kick(target=t.id),
                                d,
                                "★ Coup de sandale (botte secrète)",
                                "★ Sandal kick (secret move)",
                                MELEE,
                            )
                        )
    else:
        if not a.melee_done:
            d = melee_dice(state, fid)
            if d > 0:
                for t in enemies(state, fid):
                    if t.zone == f.zone:
                        opts.append(
                            _attack_fighter(
                                state,
                                Melee(target=t.id),
                                d,
                                f"Combat{star}",
                                f"Melee{star}",
                                MELEE,
                            )
                        )
        if not a.ranged_done:
            r = ranged_dice(state, fid)
            near = adjacent(f.zone, n)
            if r > 0 and secret in ("powder-keg", "strike"):
                for z in near:
                    if in_zone(state, z, exclude=fid):
                        opts.append(_attack_zone(state, z, "★ Tir sur la zone", "★ Shoot the zone"))
            elif r > 0:
                for t in enemies(state, fid):
                    if t.zone in near:
                        opts.append(
                            _attack_fighter(
                                state,
                                Ranged(target=t.id),
                                r,
                                f"Tir{star}",
                                f"Ranged{star}",
                                RANGED,
                            )
                        )
    if a.moves_left == 0:
        opts.append(
            Option(
                id="end",
                label=Text(fr="Terminer l'action", en="End the action"),
                args=End(),
                style="success",
            )
        )
    return opts


def split_targets(state: MAState) -> list[str]:
    """The dragon's split fire: the adversaries in the zone it fires at, in seating order."""
    a = state.action
    assert a is not None and a.sub_zone is not None
    return [t.id for t in enemies(state, a.fighter) if t.zone == a.sub_zone]


def strike_targets(state: MAState) -> list[str]:
    """Baobab's strike: every fighter in the struck zone, team mates included (Bottes secrètes)."""
    a = state.action
    assert a is not None and a.sub_zone is not None
    return [t.id for t in in_zone(state, a.sub_zone, exclude=a.fighter)]


def split_ask(state: MAState) -> Allocation:
    """The dragon's split fire (RULINGS): whole dice per adversary, all its ranged dice used."""
    a = state.action
    assert a is not None
    total = ranged_dice(state, a.fighter)
    return Allocation(
        quantities=[
            Quantity(id=tid, label=Text(fr=state.name(tid), en=state.name(tid)), min=0, max=total)
            for tid in split_targets(state)
        ],
        totals=[
            Total(
                min=total,
                max=total,
                label=Text(fr="Le nombre de dés de tir", en="The number of ranged dice"),
            )
        ],
    )


def legacy_split_options(left: int) -> list[Option]:
    """The one-fighter-at-a-time options older logs answered the split with (``dice-k``).

    Only read to translate those logs (:func:`upgrade_choice`): ``left`` dice to give.
    """
    return [
        Option(id=f"dice-{k}", label=Text(fr=str(k), en=str(k)), args=SplitDice(dice=k))
        for k in range(left + 1)
    ]


# --- pending --------------------------------------------------------------------------------
def pending(state: MAState) -> list[Decision]:
    if state.phase == "over":
        return []
    if state.phase == "pick":
        out: list[Decision] = []
        for f in pickers(state):
            name = state.name(f.id)
            out.append(
                Decision(
                    key=f"r{state.round}:pick:{f.id}",
                    seat=f.seat,
                    kind="pick",
                    prompt=Text(
                        fr=f"Gong {state.round}/{LAST_ROUND} — {name} : choisissez en secret une carte Action."
                        + (
                            " Dans le filet : -1 à l'initiative, au mouvement, au combat et au tir."
                            if netted(state, f.id)
                            else ""
                        ),
                        en=f"Gong {state.round}/{LAST_ROUND} — {name}: secretly choose an action card."
                        + (
                            " Netted: -1 to initiative, move, melee and ranged."
                            if netted(state, f.id)
                            else ""
                        ),
                    ),
                    options=[
                        Option(
                            id=cid,
                            label=card_label(state, cid),
                            args=PlayCard(card=cid),
                            stats=card_stats(state, cid, f.id),
                            detail=card_detail(state, cid, f.id),
                        )
                        for cid in f.hand
                    ],
                    args=ForFighter(fighter=f.id),
                    timing="pick",
                    secret=True,
                    subject=name,
                )
            )
        return out
    a = state.action
    if a is None:
        return []
    f = state.f(a.fighter)
    name = state.name(f.id)
    ask: Ask = One()
    if a.sub == "strike-order":
        ask = Order()
        prompt = Text(
            fr=f"{name} : ordre des cibles du « Strike » (les dés qui ratent une cible passent à la suivante)",
            en=f"{name}: order of the Strike targets (dice that miss one target pass to the next)",
        )
    elif a.sub == "dragon-split":
        ask = split_ask(state)
        prompt = split_prompt(state, name)
    elif a.sub == "kick-throw":
        prompt = Text(
            fr=f"{name} : où projeter {state.name(a.kicked or '')} ?",
            en=f"{name}: where do you throw {state.name(a.kicked or '')}?",
        )
    else:
        mv_fr = f"{a.moves_left} mouvement(s) à faire" if a.moves_left else "mouvements faits"
        mv_en = f"{a.moves_left} move(s) left" if a.moves_left else "moves done"
        card = stats_text(card_stats(state, f.in_play or "", f.id, next_play=False))
        net_fr = " Dans le filet : -1 partout." if netted(state, f.id) else ""
        net_en = " Netted: -1 to everything." if netted(state, f.id) else ""
        prompt = Text(
            fr=f"{name} agit ({mv_fr}) — {card.fr}.{net_fr}",
            en=f"{name} acts ({mv_en}) — {card.en}.{net_en}",
        )
    return [
        Decision(
            key=f"r{state.round}:{f.id}:a{a.step}",
            seat=f.seat,
            kind=a.sub or "action",
            prompt=prompt,
            options=action_options(state),
            ask=ask,
            args=ForFighter(fighter=f.id),
            timing="action",
            subject=name,
        )
    ]


def split_prompt(state: MAState, name: str) -> Text:
    """How many dice there are to split, and each adversary's defence and HP."""
    a = state.action
    assert a is not None
    total = ranged_dice(state, a.fighter)
    targets = split_targets(state)
    fr = [f"{state.name(t)} (défense {defence(state, t)}+, {state.f(t).hp} PV)" for t in targets]
    en = [f"{state.name(t)} (defence {defence(state, t)}+, {state.f(t).hp} HP)" for t in targets]
    return Text(
        fr=f"{name} : répartissez vos {plural(total, 'dé', 'dés', 'fr')} de tir entre "
        + ", ".join(fr[:-1])
        + f" et {fr[-1]}",
        en=f"{name}: split your {plural(total, 'ranged die', 'ranged dice', 'en')} between "
        + ", ".join(en[:-1])
        + f" and {en[-1]}",
    )


# --- apply ----------------------------------------------------------------------------------
def apply(state: MAState, answer: Answer, ctx: Ctx) -> None:
    """Apply an answer the engine checked against its pending decision."""
    if state.phase == "pick":
        apply_pick(state, answer, ctx)
        return
    a = state.action
    if a is None:
        raise IllegalDecision(Text(fr="Rien n'est attendu.", en="Nothing is awaited."))
    if isinstance(answer.decision.ask, Order):
        strike_in_order(state, ctx, a, answer.chosen)
        finish_step(state, a, ctx)
        return
    if isinstance(answer.decision.ask, Allocation):
        split_fire(state, ctx, a, answer.amounts)
        finish_step(state, a, ctx)
        return
    args = answer.args
    if isinstance(args, End):
        end_action(state, ctx)
        advance(state, ctx)
        return
    if not isinstance(args, ActionArgs):
        raise IllegalDecision(Text(fr="Choix inconnu.", en="Unknown choice."))
    apply_action(state, a, args, ctx)
    finish_step(state, a, ctx)


def finish_step(state: MAState, a: Action, ctx: Ctx) -> None:
    """After one answer in an action: the next step, or the action/match ends by itself."""
    a.step += 1
    if state.phase == "over":
        state.action = None
        return
    auto_end(state, ctx)
    advance(state, ctx)


def apply_pick(state: MAState, answer: Answer, ctx: Ctx) -> None:
    """§2.2: the card leaves the hand face down; only its owner sees which it is."""
    about = answer.decision.args
    card = answer.args
    if not isinstance(about, ForFighter) or not isinstance(card, PlayCard):
        raise IllegalDecision(Text(fr="Choix inconnu.", en="Unknown choice."))
    fid = about.fighter
    f = state.f(fid)
    if card.card not in f.hand:
        raise IllegalDecision(
            Text(fr="Cette carte n'est pas en main.", en="That card is not in hand.")
        )
    f.hand.remove(card.card)
    f.pick = card.card
    label = card_label(state, card.card)
    ctx.emit(
        "pick",
        Text(
            fr=f"🤫 Vous avez choisi {label.fr} pour {state.name(fid)}.",
            en=f"🤫 You chose {label.en} for {state.name(fid)}.",
        ),
        visible_to=[f.seat],
        fighter=fid,
        card=card.card,
    )
    ctx.emit(
        "picked",
        Text(
            fr=f"🂠 {state.name(fid)} a choisi sa carte.",
            en=f"🂠 {state.name(fid)} has chosen a card.",
        ),
        fighter=fid,
    )
    if not pickers(state):
        begin_countdown(state, ctx)


def apply_action(state: MAState, a: Action, args: ActionArgs, ctx: Ctx) -> None:
    """One step of the acting fighter's action (§2.4 and the special rules)."""
    fid = a.fighter
    f = state.f(fid)
    last = state.last
    assert last is not None
    match args:
        case Move(zone=z):
            f.zone = z
            a.moves_left -= 1
            a.path.append(z)
            last.path.append(z)
            ctx.emit(
                "move",
                Text(
                    fr=f"👣 {state.name(fid)} va vers {zone_text(state, z).fr}.",
                    en=f"👣 {state.name(fid)} moves to {zone_text(state, z).en}.",
                ),
                fighter=fid,
                zone=z,
            )
        case Free():
            state.net_on = None
            a.moves_left -= 1
            ctx.emit(
                "free",
                Text(
                    fr=f"🕸️ {state.name(fid)} se dépêtre du filet.",
                    en=f"🕸️ {state.name(fid)} gets free of the net.",
                ),
                fighter=fid,
            )
        case Melee(target=tid):
            attack_melee(state, ctx, fid, tid)
            last.targets.append(tid)
        case Ranged(target=tid):
            attack_ranged(state, ctx, fid, tid)
            last.targets.append(tid)
        case ZoneAttack(zone=z):
            zone_attack(state, ctx, a, z)
        case Kick(target=tid):
            kick_attack(state, ctx, a, tid)
        case Throw(zone=z):
            throw(state, ctx, a, z)
        case _:
            raise IllegalDecision(Text(fr="Choix inconnu.", en="Unknown choice."))


def kick_attack(state: MAState, ctx: Ctx, a: Action, tid: str) -> None:
    """The dragon's kick: its one attack this round; a thrown survivor waits for a zone."""
    fid = a.fighter
    last = state.last
    assert last is not None
    a.melee_done = a.ranged_done = True
    state.f(fid).kick_used = True
    last.targets.append(tid)
    ctx.emit(
        "secret",
        Text(
            fr=f"★ {state.name(fid)} retourne sa carte : coup de sandale « Dégage de là ! » sur {state.name(tid)} !",
            en=f"★ {state.name(fid)} flips its card: sandal kick “Get out of here!” on {state.name(tid)}!",
        ),
        fighter=fid,
        secret="kick",
    )
    if sm.kick(state, ctx, fid, tid, melee_dice(state, fid)):
        a.sub = "kick-throw"
        a.kicked = tid
    check_last_standing(state, ctx)


def strike_in_order(state: MAState, ctx: Ctx, a: Action, chosen: list[Option]) -> None:
    """Baobab's strike (Bottes secrètes): one roll, the dice passing down the chosen order."""
    order = [o.args.target for o in chosen if isinstance(o.args, StrikeTarget)]
    if sorted(order) != sorted(strike_targets(state)):
        raise IllegalDecision(
            Text(
                fr="Placez chaque combattant de la zone dans l'ordre.",
                en="Please put every fighter of the zone in order.",
            )
        )
    last = state.last
    assert last is not None
    sm.strike(state, ctx, a.fighter, order, ranged_dice(state, a.fighter))
    last.targets.extend(order)
    a.sub = None
    check_last_standing(state, ctx)


def split_fire(state: MAState, ctx: Ctx, a: Action, amounts: dict[str, int]) -> None:
    """The dragon's split fire (RULINGS): its ranged dice split before rolling, one roll each."""
    targets = split_targets(state)
    if set(amounts) != set(targets) or sum(amounts.values()) != ranged_dice(state, a.fighter):
        raise IllegalDecision(
            Text(
                fr="Répartissez tous vos dés de tir entre les adversaires de la zone.",
                en="Please split all your ranged dice among the adversaries of the zone.",
            )
        )
    last = state.last
    assert last is not None
    split = {t: amounts[t] for t in targets if amounts[t] > 0}
    sm.split_fire(state, ctx, a.fighter, split)
    last.targets.extend(split)
    a.sub = None
    check_last_standing(state, ctx)


def throw(state: MAState, ctx: Ctx, a: Action, z: int) -> None:
    """The dragon's kick: the thrown fighter lands on zone ``z``."""
    fid = a.fighter
    last = state.last
    assert last is not None
    tid = a.kicked or ""
    ctx.emit(
        "thrown",
        Text(
            fr=f"🌀 {state.name(tid)} est projeté vers {zone_text(state, z).fr} !",
            en=f"🌀 {state.name(tid)} is thrown to {zone_text(state, z).en}!",
        ),
        fighter=tid,
        zone=z,
    )
    hit = sm.land(state, ctx, fid, tid, z)
    last.zones.append(z)
    last.targets.extend(hit)
    a.sub = None
    a.kicked = None
    check_last_standing(state, ctx)


def _purpose(state: MAState, kind: str, tid: str, fid: str) -> Text:
    """What a roll is for, with why its dice count differs from the card (net, secret move)."""
    name = state.name(tid)
    note = net_note(state, fid)
    f = state.f(fid)
    secret = state.card(f.in_play or "").secret if kind == "melee" else None
    if secret == "kamikaze":
        return Text(
            fr=f"l'attaque kamikaze contre {name} (dés = min(6, 8 - {f.hp} PV)){note.fr}",
            en=f"the kamikaze attack against {name} (dice = min(6, 8 - {f.hp} HP)){note.en}",
        )
    if secret == "terminotaure":
        k = f.played_since_refill
        return Text(
            fr=f"la mise à mort du Terminotaure contre {name} (dés = {k} carte(s) jouée(s) depuis la reprise en main){note.fr}",
            en=f"the Terminotaure kill against {name} (dice = {k} card(s) played since the hand refill){note.en}",
        )
    if kind == "melee":
        return rolltexts.MELEE.at(name, note)
    return rolltexts.RANGED.at(name, note)


def attack_melee(state: MAState, ctx: Ctx, fid: str, tid: str) -> None:
    """§2.4 Combat (same zone), or the melee secret move on the card in play."""
    a = state.action
    assert a is not None
    f = state.f(fid)
    a.melee_done = True
    if is_dragon(state, fid):
        a.ranged_done = True
    secret = state.card(f.in_play or "").secret
    dice = melee_dice(state, fid)
    if secret == "finishing":
        _announce(state, ctx, fid, secret, tid)
        sm.finishing(state, ctx, fid, tid, dice)
    elif secret in ("kamikaze", "terminotaure"):
        _announce(state, ctx, fid, secret, tid)
        single_attack(state, ctx, fid, tid, dice, _purpose(state, "melee", tid, fid))
    else:
        single_attack(state, ctx, fid, tid, dice, _purpose(state, "melee", tid, fid))
    check_last_standing(state, ctx)


def attack_ranged(state: MAState, ctx: Ctx, fid: str, tid: str) -> None:
    """§2.4 Tir (adjacent zone), or Cactus's net."""
    a = state.action
    assert a is not None
    f = state.f(fid)
    a.ranged_done = True
    dice = ranged_dice(state, fid)
    if state.card(f.in_play or "").secret == "net":
        _announce(state, ctx, fid, "net", tid)
        sm.net(state, ctx, fid, tid, dice)
    else:
        single_attack(state, ctx, fid, tid, dice, _purpose(state, "ranged", tid, fid))
    check_last_standing(state, ctx)


def zone_attack(state: MAState, ctx: Ctx, a: Action, z: int) -> None:
    """Agaric's keg, Baobab's strike, or the dragon's split fire at one zone."""
    fid = a.fighter
    f = state.f(fid)
    last = state.last
    assert last is not None
    last.zones.append(z)
    a.ranged_done = True
    if is_dragon(state, fid):
        a.melee_done = True
        a.sub_zone = z
        targets = split_targets(state)
        if len(targets) == 1:
            sm.split_fire(state, ctx, fid, {targets[0]: ranged_dice(state, fid)})
            last.targets.extend(targets)
            check_last_standing(state, ctx)
        else:
            a.sub = "dragon-split"
        return
    secret = state.card(f.in_play or "").secret
    here = [t.id for t in in_zone(state, z, exclude=fid)]
    if secret == "powder-keg":
        _announce(state, ctx, fid, secret, None, z)
        sm.powder_keg(state, ctx, fid, z, ranged_dice(state, fid))
        last.targets.extend(here)
        check_last_standing(state, ctx)
        return
    _announce(state, ctx, fid, "strike", None, z)
    a.sub_zone = z
    if len(here) == 1:
        sm.strike(state, ctx, fid, here, ranged_dice(state, fid))
        last.targets.extend(here)
        check_last_standing(state, ctx)
    else:
        a.sub = "strike-order"


def _announce(
    state: MAState, ctx: Ctx, fid: str, secret: str, tid: str | None, zone: int | None = None
) -> None:
    from bot.games.mad_arena.cards import SECRET_NAMES

    s = SECRET_NAMES[secret]
    at_fr = state.name(tid) if tid else zone_text(state, zone or 0).fr
    at_en = state.name(tid) if tid else zone_text(state, zone or 0).en
    ctx.emit(
        "secret",
        Text(
            fr=f"★ {state.name(fid)} joue sa botte secrète {s.fr} sur {at_fr} !",
            en=f"★ {state.name(fid)} plays its secret move {s.en} on {at_en}!",
        ),
        fighter=fid,
        secret=secret,
    )


# --- older logs -----------------------------------------------------------------------------
def upgrade_choice(pending: list[Decision], held: list[Choice]) -> Choice | None:
    """Today's answer for choices logged before the strike order and the split were one answer.

    Older logs (format 1) ordered the strike one fighter per decision (the last
    following by itself) and split the dragon's dice one fighter per decision
    (``dice-k``; the last taking the rest, the others nothing once all were
    given). Those steps are held until they make today's whole answer. Each step
    also had its own key, so the action decisions after them are answered by the
    one action decision pending now.
    """
    old = held[-1]
    decision = next((d for d in pending if d.key == old.key), None)
    if decision is None:
        acting = [d for d in pending if d.seat == old.seat and d.timing == "action"]
        decision = acting[0] if len(acting) == 1 else None
    if decision is None:
        return old
    ask = decision.ask
    if isinstance(ask, Order):
        placed = [c.option or "" for c in held]
        if len(placed) < len(decision.options) - 1:
            return None
        rest = [o.id for o in decision.options if o.id not in placed]
        return Choice(seat=old.seat, key=decision.key, options=placed + rest)
    if isinstance(ask, Allocation):
        return _upgrade_split(decision, ask, held)
    return Choice(seat=old.seat, key=decision.key, option=old.option)


def _upgrade_split(decision: Decision, ask: Allocation, held: list[Choice]) -> Choice | None:
    targets = [q.id for q in ask.quantities]
    left = ask.totals[0].min or 0
    amounts: dict[str, int] = {}
    for target, c in zip(targets, held, strict=False):
        opt = next((o for o in legacy_split_options(left) if o.id == c.option), None)
        if opt is None or not isinstance(opt.args, SplitDice):
            # Not a split step of an older log: let the engine refuse it as it stands.
            return c
        amounts[target] = opt.args.dice
        left -= opt.args.dice
    rest = targets[len(amounts) :]
    if len(rest) > 1 and left > 0:
        return None
    for t in rest:
        amounts[t] = left if t == rest[-1] else 0
    return Choice(seat=decision.seat, key=decision.key, amounts=amounts)
