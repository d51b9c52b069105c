"""The rules of Arena! as functions on :class:`ArenaState` (book sections cited per function)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from bot.engine.events import AnyEvent, RollEvent
from bot.engine.game import Ctx
from bot.engine.text import Text
from bot.games.arena.board import (
    DISTANCES,
    HEXES,
    Hex,
    adjacent,
    label,
    longest_path,
    neighbours,
    on_board,
    paths,
    step,
)
from bot.games.arena.postures import (
    MAX_HP,
    POSTURE_NAMES,
    ROUNDS,
    attack_dice,
    attack_value,
    damage,
    defence_dice,
    defence_value,
    move_allowance,
)
from bot.games.arena.state import ArenaState, AttackRecord, Fighter, Turn, TurnRecord


def fighter(state: ArenaState, seat: int) -> Fighter:
    return state.fighters[seat]


def posture_key(f: Fighter) -> str:
    """The space of the posture track the fighter's pawn is on ("sol" when down)."""
    return "sol" if f.down else f.posture


class PostureDice(BaseModel):
    """What one space of the posture track gives this fighter now (book's table,
    "Handicap", "Désarmé")."""

    move: int
    """Hexes its move must cross (0 on the ground, at most its HP at 3 HP or less)."""
    attack: int
    """Attack dice, after the disarm penalty."""
    defence: int
    """Defence dice, after the disarm penalty."""
    attack_value: int
    """The table's attack value, for wounds (the disarm penalty never changes it)."""
    defence_value: int
    """The table's defence value, for wounds."""


def posture_dice(f: Fighter, space: str) -> PostureDice:
    """The values of one space of the posture track for ``f`` now."""
    down = space == "sol"
    posture = f.posture if down else space
    return PostureDice(
        move=move_allowance(posture, down, f.hp),
        attack=attack_dice(posture, down, f.disarmed),
        defence=defence_dice(posture, down, f.disarmed),
        attack_value=attack_value(posture, down),
        defence_value=defence_value(posture, down),
    )


def standing_enemies(state: ArenaState, seat: int) -> list[Fighter]:
    return [f for f in state.fighters if f.seat != seat and not f.out]


def living(state: ArenaState) -> list[Fighter]:
    return [f for f in state.fighters if not f.out]


def blocked_hexes(state: ArenaState, seat: int) -> set[Hex]:
    """Hexes the mover may neither cross nor stop on: opponents ("Bouger") and
    knocked-out fighters ("Zéro points de vie")."""
    return {f.pos for f in state.fighters if f.seat != seat}


def current_seat(state: ArenaState) -> int:
    return state.order[state.index]


# --- movement ----------------------------------------------------------------------


def required_length(state: ArenaState, seat: int, posture: str) -> int:
    """ "On doit bouger du nombre exact de cases" (capped by the handicap, 0 on the
    ground); RULINGS: the longest legal path when no path of that length exists."""
    f = fighter(state, seat)
    allowance = move_allowance(posture, f.down, f.hp)
    return longest_path(f.pos, blocked_hexes(state, seat), allowance)


def legal_steps(state: ArenaState, turn: Turn) -> list[str]:
    """Directions that keep a path of exactly the remaining length possible
    ("il est interdit de passer sur la même case deux fois", no occupied hex)."""
    f = fighter(state, turn.seat)
    remaining = turn.required - (len(turn.path) - 1)
    if remaining <= 0 or f.down:
        return []
    blocked = blocked_hexes(state, turn.seat) | set(turn.path)
    out: list[str] = []
    for d in ("e", "ne", "nw", "w", "sw", "se"):
        n = step(f.pos, d)
        if not on_board(n) or n in blocked:
            continue
        if longest_path(n, blocked, remaining - 1) >= remaining - 1:
            out.append(d)
    return out


def remaining_steps(turn: Turn) -> int:
    return turn.required - (len(turn.path) - 1)


def destinations(state: ArenaState, turn: Turn) -> dict[Hex, list[Hex]]:
    """Every hex where the rest of the move can end, each with the path taken there
    (start excluded), in board order.

    The same rules as :func:`legal_steps` ("Bouger": exactly the remaining hexes,
    never through or onto another pawn, never twice on one hex): each hex of such
    a path is a legal step when it is taken. Movement has no other effect in the
    book (no terrain, no zone of control), so where several paths reach the same
    hex, the one hugging the straight line is taken (the first such, in the board's
    direction order): the path is only drawn.
    """
    f = fighter(state, turn.seat)
    remaining = remaining_steps(turn)
    if remaining <= 0 or f.down:
        return {}
    blocked = blocked_hexes(state, turn.seat) | set(turn.path)
    best: dict[Hex, tuple[int, list[Hex]]] = {}
    from_start = DISTANCES[f.pos]
    for p in paths(f.pos, blocked, remaining):
        end = p[-1]
        to_end = DISTANCES[end]
        bend = sum(from_start[h] + to_end[h] for h in p[:-1])
        if end not in best or bend < best[end][0]:
            best[end] = (bend, p)
    return {h: best[h][1] for h in HEXES if h in best}


# --- attack ------------------------------------------------------------------------


def targets(state: ArenaState, seat: int, at: Hex | None = None) -> list[Fighter]:
    """Opponents on a hex adjacent to ``at`` (its own hex by default): "le
    combattant doit se placer sur une case adjacente"."""
    f = fighter(state, seat)
    where = f.pos if at is None else at
    return [e for e in standing_enemies(state, seat) if adjacent(e.pos, where)]


def attack_targets(state: ArenaState, seat: int, at: Hex | None = None) -> list[Fighter]:
    """The opponents this fighter may attack now (or once on ``at``): adjacent ones,
    and only if its attack is at least 1 die. RULINGS: a fighter whose attack is 0
    dice (en garde) is offered no attack, so it can neither hit, be disarmed by it,
    nor cancel a neighbour's rest with it."""
    f = fighter(state, seat)
    if attack_dice(f.posture, f.down, f.disarmed) == 0:
        return []
    return targets(state, seat, at)


def attack_values(attacker: Fighter, defender: Fighter) -> tuple[int, int]:
    """Dice of both sides: attacker by its posture, defender by its own current posture."""
    return (
        attack_dice(attacker.posture, attacker.down, attacker.disarmed),
        defence_dice(defender.posture, defender.down, defender.disarmed),
    )


def wound(attacker: Fighter, defender: Fighter) -> int:
    """ "Blessures": "on consulte les postures des adversaires sur le tableau" and
    subtracts the defence value from the attack value, at least 1. The values are
    the posture's (or "au sol"'s); being disarmed changes the dice, not the values."""
    return damage(
        attack_value(attacker.posture, attacker.down),
        defence_value(defender.posture, defender.down),
    )


def _dice_words(n: int) -> Text:
    return Text(fr=f"{n} dé" if n <= 1 else f"{n} dés", en="1 die" if n == 1 else f"{n} dice")


def _posture_words(f: Fighter, dice: int) -> Text:
    """The space of the posture table the dice come from, and their count."""
    name = POSTURE_NAMES[posture_key(f)]
    count = _dice_words(dice)
    if f.disarmed:
        return Text(fr=f"{name.fr}, désarmé : {count.fr}", en=f"{name.en}, disarmed: {count.en}")
    return Text(fr=f"{name.fr} : {count.fr}", en=f"{name.en}: {count.en}")


def _throw(
    ctx: Ctx, count: int, who: Fighter, purpose: Text, **data: Any
) -> tuple[list[int], AnyEvent]:
    """Roll ``count`` dice (a logged roll); with none, a plain event says the total is 0."""
    if count == 0:
        ev = ctx.emit(
            "no_dice",
            Text(
                fr=f"🎲 {who.name} ne lance aucun dé pour {purpose.fr}",
                en=f"🎲 {who.name} rolls no dice for {purpose.en}",
            ),
            **data,
        )
        return [], ev
    roll = ctx.roll(count, who.name, purpose, **data)
    return list(roll.dice), roll


def _set_result(ev: AnyEvent, result: Text) -> None:
    if isinstance(ev, RollEvent):
        ev.result = result
    else:
        ev.text = Text(fr=f"{ev.text.fr} : {result.fr}", en=f"{ev.text.en}: {result.en}")


def resolve_attack(state: ArenaState, seat: int, target: int, ctx: Ctx) -> AttackRecord:
    """ "Attaquer", "Blessures" and "Résultats spéciaux découlant d'une attaque"."""
    a = fighter(state, seat)
    d = fighter(state, target)
    a_dice, d_dice = attack_values(a, d)
    a_words, d_words = _posture_words(a, a_dice), _posture_words(d, d_dice)
    a_rolled, att = _throw(
        ctx,
        a_dice,
        a,
        Text(
            fr=f"attaquer {d.name} ({a_words.fr})",
            en=f"an attack on {d.name} ({a_words.en})",
        ),
        seat=seat,
        side="attack",
        target_seat=target,
    )
    d_rolled, dfn = _throw(
        ctx,
        d_dice,
        d,
        Text(
            fr=f"se défendre contre {a.name} ({d_words.fr})",
            en=f"defence against {a.name} ({d_words.en})",
        ),
        seat=target,
        side="defence",
        attacker_seat=seat,
    )
    a_total, d_total = sum(a_rolled), sum(d_rolled)
    hit = a_total > d_total
    defender_en_garde = not d.down and d.posture == "garde"
    attacker_unleashed = not a.down and a.posture == "dechainee"
    rec = AttackRecord(
        attacker=seat,
        defender=target,
        at=a.pos,
        attack_dice=a_rolled,
        defence_dice=d_rolled,
        attack_total=a_total,
        defence_total=d_total,
        hit=hit,
        hp_after=d.hp,
    )
    if d.resting:
        d.attacked_while_resting = True
    before = d.hp
    _set_result(att, Text(fr=f"total {a_total}", en=f"total {a_total}"))
    if hit:
        rec.damage = wound(a, d)
        d.hp = max(0, d.hp - rec.damage)
        rec.hp_after = d.hp
        av, dv = attack_value(a.posture, a.down), defence_value(d.posture, d.down)
        rec.attack_value, rec.defence_value = av, dv
        raw = av - dv
        least = Text(fr=", au moins 1", en=", at least 1") if raw < 1 else Text(fr="", en="")
        _set_result(
            dfn,
            Text(
                fr=f"{a_total} contre {d_total} : touché, blessure {av} - {dv} = {raw}{least.fr}"
                f" ({d.name} {before} -> {d.hp} PV)",
                en=f"{a_total} vs {d_total}: hit, wound {av} - {dv} = {raw}{least.en}"
                f" ({d.name} {before} -> {d.hp} HP)",
            ),
        )
    else:
        _set_result(
            dfn,
            Text(fr=f"{a_total} contre {d_total} : paré", en=f"{a_total} vs {d_total}: parried"),
        )
    # "Si la posture du défenseur est en garde et que l'attaquant rate son coup,
    # sur un résultat de défense pair, l'attaquant est désarmé."
    if not hit and defender_en_garde and d_total % 2 == 0 and not a.disarmed:
        a.disarmed = True
        a.weapon_at = a.pos
        rec.disarmed = True
        ctx.emit(
            "disarmed",
            Text(
                fr=f"🗡️ {a.name} est désarmé : son arme tombe en {label(a.pos)}.",
                en=f"🗡️ {a.name} is disarmed: the weapon falls on {label(a.pos)}.",
            ),
            seat=seat,
            hex=list(a.pos),
        )
    # "Si la posture de l'attaquant est déchaînée et qu'il rate son coup, sur un
    # résultat d'attaque impair, celui-ci tombe au sol."
    if not hit and attacker_unleashed and a_total % 2 == 1 and not a.down:
        a.down = True
        rec.attacker_fell = True
        ctx.emit(
            "fell",
            Text(fr=f"⬇️ {a.name} tombe au sol.", en=f"⬇️ {a.name} falls to the ground."),
            seat=seat,
        )
    if d.hp == 0:
        d.out = True
        d.down = False
        rec.knocked_out = True
        ctx.emit(
            "knocked_out",
            Text(
                fr=f"💀 {d.name} est hors de combat ; la case {label(d.pos)} est bloquée.",
                en=f"💀 {d.name} is knocked out; hex {label(d.pos)} is now blocked.",
            ),
            seat=target,
            hex=list(d.pos),
        )
    elif attacker_unleashed and defender_en_garde:
        # "Un attaquant déchaîné qui attaque un défenseur en garde, quel que soit
        # le résultat de l'attaque, fera tomber le défenseur au sol."
        d.down = True
        rec.defender_fell = True
        ctx.emit(
            "fell",
            Text(
                fr=f"⬇️ {d.name} est renversé au sol par {a.name}.",
                en=f"⬇️ {d.name} is knocked to the ground by {a.name}.",
            ),
            seat=target,
        )
    ctx.emit(
        "attack",
        Text(
            fr=f"⚔️ {a.name} attaque {d.name} : {a_total} contre {d_total}, "
            + (f"touché ! -{rec.damage} PV ({d.hp} PV)" if hit else "paré."),
            en=f"⚔️ {a.name} attacks {d.name}: {a_total} vs {d_total}, "
            + (f"hit! -{rec.damage} HP ({d.hp} HP)" if hit else "parried."),
        ),
        **rec.model_dump(mode="json"),
    )
    return rec


# --- turn sequencing -----------------------------------------------------------------


def begin_turn(state: ArenaState, ctx: Ctx) -> None:
    """Start the turn of ``order[index]``: resting pays off now ("Reprendre des forces")."""
    seat = current_seat(state)
    f = fighter(state, seat)
    state.healed_now = False
    if f.resting:
        if not f.attacked_while_resting and f.hp < MAX_HP:
            f.hp += 1
            state.healed_now = True
            ctx.emit(
                "rested",
                Text(
                    fr=f"💚 {f.name} a repris des forces : {f.hp - 1} -> {f.hp} PV.",
                    en=f"💚 {f.name} got its strength back: {f.hp - 1} -> {f.hp} HP.",
                ),
                seat=seat,
                hp=f.hp,
            )
        f.resting = False
        f.attacked_while_resting = False
    state.turns_played += 1
    state.turn = Turn(number=state.turns_played, seat=seat, path=[f.pos])


def finish_turn(state: ArenaState, action: str, attack: AttackRecord | None, ctx: Ctx) -> None:
    """Close the turn, record it for the picture, check the end and pass to the next fighter."""
    turn = state.turn
    assert turn is not None
    f = fighter(state, turn.seat)
    state.last = TurnRecord(
        seat=turn.seat,
        round=state.round,
        posture=posture_key(f),
        action=action,
        path=list(turn.path),
        attack=attack,
        healed=state.healed_now,
    )
    ctx.emit(
        "turn_end",
        Text(fr=f"Fin du tour de {f.name}.", en=f"End of {f.name}'s turn."),
        seat=turn.seat,
        action=action,
        path=[list(h) for h in turn.path],
        round=state.round,
    )
    state.turn = None
    if check_end(state, ctx):
        return
    advance(state, ctx)


def check_end(state: ArenaState, ctx: Ctx) -> bool:
    """ "Fin du jeu": the last fighter standing wins at once."""
    alive = living(state)
    if len(alive) == 1:
        state.finished = True
        state.winner = alive[0].seat
        ctx.emit(
            "match_end",
            Text(
                fr=f"🏆 {alive[0].name} est le dernier debout : champion de l'arène !",
                en=f"🏆 {alive[0].name} is the last one standing: champion of the arena!",
            ),
            winner=alive[0].seat,
        )
        return True
    return False


def advance(state: ArenaState, ctx: Ctx) -> None:
    """Next living fighter in the fixed order; the round track moves after a full
    round and the match ends after round 10 ("Après un tour de table complet")."""
    n = len(state.order)
    while True:
        state.index += 1
        if state.index >= n:
            state.index = 0
            if state.round >= ROUNDS:
                state.finished = True
                state.winner = None
                ctx.emit(
                    "match_end",
                    Text(
                        fr=f"⏱️ Fin du 10e tour avec {len(living(state))} survivants : "
                        "les Maîtres de l'Arène les éliminent tous. Personne ne gagne.",
                        en=f"⏱️ Round 10 is over with {len(living(state))} survivors: "
                        "the Arena Masters eliminate them all. Nobody wins.",
                    ),
                    winner=None,
                )
                return
            state.round += 1
            ctx.emit(
                "round",
                Text(
                    fr=f"🔔 Tour {state.round} / {ROUNDS}", en=f"🔔 Round {state.round} / {ROUNDS}"
                ),
                round=state.round,
            )
        if not fighter(state, state.order[state.index]).out:
            break
    begin_turn(state, ctx)


def neighbours_free(state: ArenaState, seat: int) -> list[Hex]:
    blocked = blocked_hexes(state, seat)
    return [h for h in neighbours(fighter(state, seat).pos) if h not in blocked]
