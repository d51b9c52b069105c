"""Arena! as an engine :class:`Game`: a turn is a short chain of decisions.

Posture first, then the action (auto-chosen when only one exists), then, for a
fight, one decision per hex step or attack until the move is complete.
"""

from __future__ import annotations

import random
import threading
from collections import OrderedDict
from typing import Any

from bot.engine.copying import copy_state
from bot.engine.decisions import Answer, Choice, Decision, Option
from bot.engine.errors import IllegalDecision
from bot.engine.events import AnyEvent
from bot.engine.game import Ctx, Game, GameInfo, ModeInfo, Outcome, SeatSpec
from bot.engine.text import Text
from bot.engine.vocabulary import StatInfo, standard_level
from bot.games.arena.args import (
    Attack,
    EndTurn,
    Fight,
    GetUp,
    Move,
    Pass,
    PickUp,
    Rest,
    StayDown,
    Step,
    TakePosture,
)
from bot.games.arena.board import CORNERS, DIRECTION_LABELS, SEAT_CORNERS, Hex, label, step
from bot.games.arena.postures import (
    POSTURE_EMOJI,
    POSTURE_NAMES,
    POSTURES,
    ROUNDS,
    START_HP,
    Posture,
)
from bot.games.arena.rules import (
    attack_targets,
    attack_values,
    begin_turn,
    destinations,
    fighter,
    finish_turn,
    legal_steps,
    living,
    posture_dice,
    remaining_steps,
    required_length,
    resolve_attack,
    wound,
)
from bot.games.arena.state import ArenaState, Fighter, Turn
from bot.games.arena.view import ArenaView, build_view

COLOURS = ["red", "blue", "green", "yellow", "violet", "orange"]

SUMMARY = Text(
    fr=(
        "Arène hexagonale de 37 cases, 2 à 6 combattants à 7 PV. À son tour, chacun choisit "
        "une posture (en garde, défensive, balancée, agressive, déchaînée) qui fixe son "
        "mouvement exact (0-4 cases), ses dés d'attaque (0-4) et de défense (4-0), puis bouge "
        "et attaque un voisin (avant, pendant ou après le mouvement), se relève, ramasse son "
        "arme, ou se repose en garde (+1 PV). Le dernier debout avant la fin du 10e tour "
        "gagne ; sinon tout le monde perd."
    ),
    en=(
        "A 37-hex arena, 2 to 6 fighters with 7 HP. On its turn each picks a posture (on "
        "guard, defensive, balanced, aggressive, unleashed) that sets its exact move (0-4 "
        "hexes), attack dice (0-4) and defence dice (4-0), then moves and attacks a neighbour "
        "(before, during or after the move), gets up, picks up its weapon, or rests on guard "
        "(+1 HP). The last one standing before the end of round 10 wins; otherwise everyone "
        "loses."
    ),
)


STATS = [
    StatInfo(key="move", symbol="👣", names=Text(fr="déplacement", en="move")),
    StatInfo(key="atk", symbol="🗡️", names=Text(fr="dés d'attaque", en="attack dice")),
    StatInfo(key="def", symbol="🛡️", names=Text(fr="dés de défense", en="defence dice")),
    StatInfo(key="dmg", symbol="💥", names=Text(fr="dégâts si touché", en="damage on a hit")),
    StatInfo(key="hp", symbol="❤️", names=Text(fr="PV", en="HP")),
    StatInfo(key="to", symbol="➡️", names=Text(fr="vers", en="to")),
]
"""The stats Arena!'s buttons show (``Option.stats`` keys), with their symbols and names."""

AI_LEVELS = [
    standard_level(
        id="hard",
        summary=Text(
            fr="Probabilités exactes des dés ; choisit sa posture selon la meilleure riposte "
            "de chaque adversaire.",
            en="Exact dice odds; picks its posture against each opponent's best answer.",
        ),
        process=True,
    ),
    standard_level(
        id="medium",
        summary=Text(
            fr="Probabilités exactes des dés ; craint l'attaque la plus forte de chacun.",
            en="Exact dice odds; fears each opponent's strongest attack.",
        ),
        process=True,
    ),
    standard_level(
        id="easy",
        summary=Text(
            fr="Se soucie peu des ripostes et joue avec une part de hasard.",
            en="Cares little about answers and plays with some randomness.",
        ),
        process=True,
    ),
]
"""Arena!'s AI levels (``ai.py``: ``LEVELS``), the default (hard) first. Every level
weighs exact dice odds for each reachable hex and posture: 2.6-4 ms of CPU a move at the
median, up to 17 ms, under the load benchmark; so all of them think in a worker process
(``process``, :mod:`bot.gm.thinking`), off the interpreter lock the event loop needs,
for the 0.2 ms it costs to send the state there (issue 16 items 2 and 5)."""


COMPASS: list[tuple[str, int]] = [
    ("nw", 0),
    ("ne", 0),
    ("w", 1),
    ("e", 1),
    ("sw", 2),
    ("se", 2),
]
"""Direction buttons as a hex compass: (direction, button row)."""


STEP_GROUP = Text(fr="👣 Pas à pas", en="👣 Step by step")
"""The single steps: to attack on the way, or to choose the path hex by hex."""
STEP_HINT = Text(
    fr="Une case = tout le déplacement jusqu'à elle. « Pas à pas » : une case à la fois, "
    "pour attaquer en chemin.",
    en="A hex = the whole move to it. “Step by step”: one hex at a time, to attack on the way.",
)


def _attack_option(f: Fighter, t: Fighter) -> Option:
    """Attack ``t`` from here (buttons show the dice and the wound of a hit)."""
    atk, dfn = attack_values(f, t)
    hurt = wound(f, t)
    return Option(
        id=f"atk{t.seat}",
        args=Attack(target=t.seat),
        label=Text(
            fr=f"Attaquer {t.name} en {label(t.pos)}",
            en=f"Attack {t.name} on {label(t.pos)}",
        ),
        detail=Text(
            fr=f"{atk}🎲 contre {dfn}🎲, touché : -{hurt} PV ; {t.name} a {t.hp} PV",
            en=f"{atk}🎲 vs {dfn}🎲, a hit: -{hurt} HP; {t.name} has {t.hp} HP",
        ),
        stats={"atk": atk, "def": dfn, "dmg": hurt, "hp": t.hp},
        emoji="⚔️",
        style="danger",
        row=3,
    )


def _move_attack_option(f: Fighter, t: Fighter, dest: Hex, path: list[Hex]) -> Option:
    """Move to ``dest``, then attack ``t`` next to it: the book's "bouger puis attaquer"."""
    atk, dfn = attack_values(f, t)
    hurt = wound(f, t)
    name = label(dest)
    return Option(
        id=f"m{name}a{t.seat}",
        args=Move(to=dest, path=tuple(path), target=t.seat),
        label=Text(fr=f"{name} ⚔ {t.name}", en=f"{name} ⚔ {t.name}"),
        detail=Text(
            fr=f"Aller en {name}, puis attaquer {t.name} en {label(t.pos)} : {atk}🎲 contre "
            f"{dfn}🎲, touché : -{hurt} PV ; {t.name} a {t.hp} PV",
            en=f"Go to {name}, then attack {t.name} on {label(t.pos)}: {atk}🎲 vs {dfn}🎲, "
            f"a hit: -{hurt} HP; {t.name} has {t.hp} HP",
        ),
        stats={"atk": atk, "def": dfn, "dmg": hurt, "hp": t.hp},
        emoji="⚔️",
        style="danger",
    )


def _stats_text(move: int, atk: int, dfn: int) -> Text:
    return Text(
        fr=f"bouge {move} · attaque {atk}🎲 · défense {dfn}🎲",
        en=f"move {move} · attack {atk}🎲 · defence {dfn}🎲",
    )


PENDING_KEPT = 64
"""States whose decisions :meth:`ArenaGame.pending` keeps (a bound shared by all matches)."""
_PENDING: OrderedDict[str, tuple[Decision, ...]] = OrderedDict()
_PENDING_LOCK = threading.Lock()
"""The AI weighs states in worker threads too."""


class ArenaGame(Game[ArenaState, ArenaView]):
    info = GameInfo(
        id="arena",
        names=Text(fr="Arena!", en="Arena!"),
        min_players=2,
        max_players=6,
        modes=[
            ModeInfo(
                id="melee",
                names=Text(fr="Mêlée", en="Free-for-all"),
                player_counts=[2, 3, 4, 5, 6],
                summary=Text(
                    fr="Chacun pour soi, dernier debout en 10 tours.",
                    en="Every fighter for itself, last one standing within 10 rounds.",
                ),
            )
        ],
        summary=SUMMARY,
        stats=STATS,
        ai_levels=AI_LEVELS,
    )

    # --- lifecycle -----------------------------------------------------------------
    state_model = ArenaState

    def setup(
        self, seats: list[SeatSpec], mode: str, options: dict[str, Any], ctx: Ctx
    ) -> ArenaState:
        """Book "Préparation" and "Début du jeu": corners for symmetry, 7 HP, en garde,
        round 1, a random first player, then clockwise (seat order is clockwise)."""
        n = len(seats)
        if n not in SEAT_CORNERS:
            raise IllegalDecision(
                Text(fr="Arena! se joue de 2 à 6 joueurs.", en="Arena! is for 2 to 6 players.")
            )
        fighters = [
            Fighter(
                seat=i,
                name=s.name,
                colour=COLOURS[i],
                pos=CORNERS[SEAT_CORNERS[n][i]],
                hp=START_HP,
            )
            for i, s in enumerate(seats)
        ]
        # A die with one face per seat, logged so the draw can be checked.
        faces = ", ".join(f"{i + 1} = {f.name}" for i, f in enumerate(fighters))
        draw = ctx.roll(
            1,
            "Arena!",
            Text(
                fr=f"désigner qui joue en premier (dé à {n} faces : {faces})",
                en=f"the first player (a {n}-sided die: {faces})",
            ),
            sides=n,
            side="first_player",
        )
        first = draw.dice[0] - 1
        draw.result = Text(
            fr=f"{fighters[first].name} joue en premier",
            en=f"{fighters[first].name} plays first",
        )
        order = [(first + i) % n for i in range(n)]
        state = ArenaState(fighters=fighters, order=order)
        names = " → ".join(fighters[s].name for s in order)
        ctx.emit(
            "order",
            Text(fr=f"🎲 Ordre de jeu : {names}", en=f"🎲 Turn order: {names}"),
            order=order,
        )
        begin_turn(state, ctx)
        return state

    # --- decisions -----------------------------------------------------------------
    def pending(self, state: ArenaState) -> list[Decision]:
        """The decisions of ``state``, a pure function of it: those of the last few states
        (by their JSON) are kept, for the engine asks once per move and :meth:`apply`'s own
        check asks again for the same state (each time every path of the move)."""
        key = state.model_dump_json()
        with _PENDING_LOCK:
            hit = _PENDING.get(key)
            if hit is not None:
                _PENDING.move_to_end(key)
                return list(hit)
        out = self._pending(state)
        with _PENDING_LOCK:
            _PENDING[key] = tuple(out)
            while len(_PENDING) > PENDING_KEPT:
                _PENDING.popitem(last=False)
        return out

    def _pending(self, state: ArenaState) -> list[Decision]:
        if state.finished or state.turn is None:
            return []
        turn = state.turn
        f = fighter(state, turn.seat)
        if turn.step == "posture":
            return [self._posture_decision(state, turn, f)]
        if turn.step == "action":
            return [self._action_decision(state, turn, f)]
        return [self._fight_decision(state, turn, f)]

    def _posture_decision(self, state: ArenaState, turn: Turn, f: Fighter) -> Decision:
        options: list[Option] = []
        for p in POSTURES:
            # The exact hexes this turn: the posture's value, the handicap and,
            # when boxed in, the longest legal path (RULINGS).
            move = 0 if f.down else required_length(state, f.seat, p)
            dice = posture_dice(f, p)
            atk, dfn = dice.attack, dice.defence
            name = POSTURE_NAMES[p]
            lab = (
                Text(fr=f"Se relever {name.fr.lower()}", en=f"Get up {name.en.lower()}")
                if f.down
                else name
            )
            # Getting up is the whole turn: no move and no attack now, only the
            # posture's defence until the next turn (RULINGS).
            detail = (
                Text(
                    fr=f"prend tout le tour · défense {dfn}🎲 jusqu'à votre prochain tour",
                    en=f"takes the whole turn · defence {dfn}🎲 until your next turn",
                )
                if f.down
                else _stats_text(move, atk, dfn)
            )
            stats: dict[str, int | str] = (
                {"def": dfn} if f.down else {"move": move, "atk": atk, "def": dfn}
            )
            options.append(
                Option(
                    id=p,
                    label=lab,
                    args=GetUp(posture=p) if f.down else TakePosture(posture=p),
                    detail=detail,
                    stats=stats,
                    emoji=POSTURE_EMOJI[p],
                    style="primary" if f.down else "secondary",
                )
            )
        if f.down and attack_targets(state, f.seat):
            # RULINGS: on the ground, attack with 1 die without getting up.
            ground = posture_dice(f, "sol")
            atk, dfn = ground.attack, ground.defence
            options.append(
                Option(
                    id="sol",
                    label=Text(fr="Rester au sol et attaquer", en="Stay down and attack"),
                    args=StayDown(),
                    detail=_stats_text(0, atk, dfn),
                    stats={"move": 0, "atk": atk, "def": dfn},
                    emoji=POSTURE_EMOJI["sol"],
                )
            )
        if f.down and f.disarmed and f.weapon_at == f.pos:
            # RULINGS: a weapon on its own hex is picked up without getting up.
            options.append(
                Option(
                    id="solpick",
                    label=Text(
                        fr="Rester au sol et ramasser son arme",
                        en="Stay down and pick up the weapon",
                    ),
                    args=PickUp(),
                    detail=Text(fr="Prend tout le tour", en="Takes the whole turn"),
                    emoji="🗡️",
                    style="success",
                )
            )
        status = _status(f)
        return Decision(
            key=f"t{turn.number}:posture",
            seat=f.seat,
            kind="posture",
            prompt=Text(
                fr=f"{f.name} ({status.fr}), tour {state.round}/{ROUNDS} : choisissez une posture.",
                en=f"{f.name} ({status.en}), round {state.round}/{ROUNDS}: choose a posture.",
            ),
            options=options,
            subject=f.name,
        )

    def _action_options(self, state: ArenaState, turn: Turn, f: Fighter) -> list[Option]:
        assert turn.posture is not None
        options: list[Option] = []
        # RULINGS: with 0 attack dice (en garde) no attack is offered, so a
        # fight that cannot move either is no action at all.
        if turn.required > 0 or attack_targets(state, f.seat):
            options.append(
                Option(
                    id="fight",
                    label=Text(fr="Bouger et attaquer", en="Move and attack"),
                    args=Fight(),
                    detail=Text(
                        fr=f"{turn.required} case(s) à parcourir ; une attaque avant, pendant ou après",
                        en=f"{turn.required} hex(es) to cross; one attack before, during or after",
                    ),
                    stats={"move": turn.required},
                    emoji="⚔️",
                    style="primary",
                )
            )
        if f.disarmed and f.weapon_at == f.pos:
            options.append(
                Option(
                    id="pickup",
                    label=Text(fr="Ramasser son arme", en="Pick up the weapon"),
                    args=PickUp(),
                    detail=Text(fr="Prend tout le tour", en="Takes the whole turn"),
                    emoji="🗡️",
                    style="success",
                )
            )
        if turn.posture == "garde":
            options.append(
                Option(
                    id="rest",
                    label=Text(fr="Reprendre des forces", en="Rest"),
                    args=Rest(),
                    detail=Text(
                        fr="Rien d'autre ; +1 PV au prochain tour si personne ne vous attaque",
                        en="Nothing else; +1 HP next turn if nobody attacks you",
                    ),
                    emoji="💚",
                    style="success",
                )
            )
        if not options:
            options.append(
                Option(
                    id="pass",
                    label=Text(
                        fr="Passer (aucune action possible)", en="Pass (no action possible)"
                    ),
                    args=Pass(),
                    emoji="⏭️",
                )
            )
        return options

    def _action_decision(self, state: ArenaState, turn: Turn, f: Fighter) -> Decision:
        assert turn.posture is not None
        name = POSTURE_NAMES[turn.posture]
        return Decision(
            key=f"t{turn.number}:action",
            seat=f.seat,
            kind="action",
            prompt=Text(
                fr=f"{f.name} ({name.fr}) : choisissez l'action.",
                en=f"{f.name} ({name.en}): choose the action.",
            ),
            options=self._action_options(state, turn, f),
            subject=f.name,
            timing="action",
        )

    def _fight_options(self, state: ArenaState, turn: Turn, f: Fighter) -> list[Option]:
        """Attacks from here, then the whole destinations (each alone, then each with
        an attack on a fighter next to it), then the single steps in a group (to
        attack on the way, book "bouger-attaquer-finir son mouvement"), then "End"."""
        options: list[Option] = []
        may_attack = not turn.attacked
        if may_attack:
            options += [_attack_option(f, t) for t in attack_targets(state, f.seat)]
        for dest, path in destinations(state, turn).items():
            name = label(dest)
            options.append(
                Option(
                    id=f"m{name}",
                    label=Text(fr=name, en=name),
                    args=Move(to=dest, path=tuple(path)),
                    detail=Text(
                        fr=f"Aller en {name}, puis fin du tour",
                        en=f"Go to {name}, then end the turn",
                    ),
                    emoji="👣",
                    style="primary",
                )
            )
            if may_attack:
                for t in attack_targets(state, f.seat, dest):
                    options.append(_move_attack_option(f, t, dest, path))
        # Laid out like a hex compass (NW NE / W E / SW SE); the stat names the hex.
        legal = set(legal_steps(state, turn))
        for d, row in COMPASS:
            if d not in legal:
                continue
            dest = step(f.pos, d)
            lab = DIRECTION_LABELS[d]
            options.append(
                Option(
                    id=d,
                    label=Text(fr=f"{lab.fr} {label(dest)}", en=f"{lab.en} {label(dest)}"),
                    args=Step(to=dest),
                    group=STEP_GROUP,
                    stats={"to": label(dest)},
                    row=row,
                )
            )
        if self._may_end(state, turn, f):
            options.append(
                Option(
                    id="end",
                    label=Text(fr="Finir sans attaquer", en="End without attacking"),
                    args=EndTurn(),
                    emoji="⏹️",
                    row=4,
                )
            )
        return options

    @staticmethod
    def _may_end(state: ArenaState, turn: Turn, f: Fighter) -> bool:
        """The move is complete; a fight that moved may end without an attack."""
        return (
            remaining_steps(turn) <= 0
            and not turn.attacked
            and turn.required > 0
            and bool(attack_targets(state, f.seat))
        )

    def _fight_decision(self, state: ArenaState, turn: Turn, f: Fighter) -> Decision:
        rem = remaining_steps(turn)
        path = " → ".join(label(h) for h in turn.path)
        trail = Text(fr=f" (chemin {path})", en=f" (path {path})") if len(turn.path) > 1 else None
        steps = (
            Text(fr="déplacement terminé", en="move complete")
            if rem <= 0
            else Text(
                fr=f"encore {rem} case{'s' if rem > 1 else ''}",
                en=f"{rem} more hex{'es' if rem > 1 else ''}",
            )
        )
        attack = (
            Text(fr="attaque faite", en="attack done")
            if turn.attacked
            else Text(fr="une attaque possible", en="one attack available")
        )
        return Decision(
            key=f"t{turn.number}:f{turn.choices}",
            seat=f.seat,
            kind="fight",
            prompt=Text(
                fr=f"{f.name} en {label(f.pos)}{trail.fr if trail else ''} : "
                f"{steps.fr}, {attack.fr}.",
                en=f"{f.name} on {label(f.pos)}{trail.en if trail else ''}: "
                f"{steps.en}, {attack.en}.",
            ),
            options=self._fight_options(state, turn, f),
            subject=f.name,
            timing="action",
            hint=STEP_HINT if rem > 0 else None,
        )

    # --- applying ------------------------------------------------------------------
    def apply(self, state: ArenaState, answer: Answer, ctx: Ctx) -> None:
        """Apply an option of the pending decision (checked by the engine), by its args."""
        turn = state.turn
        if turn is None or state.finished:
            raise IllegalDecision(Text(fr="La partie est terminée.", en="The match is over."))
        if answer.seat != turn.seat:
            raise IllegalDecision(Text(fr="Ce n'est pas votre tour.", en="It is not your turn."))
        args = answer.picked.args
        # Defence in depth: only what this state offers, whatever answer is handed in.
        if args is None or args not in [o.args for o in self.pending(state)[0].options]:
            raise IllegalDecision(
                Text(
                    fr="Ce choix n'est pas permis maintenant.", en="That choice is not allowed now."
                )
            )
        self._do(state, turn, fighter(state, turn.seat), args, ctx)

    def _do(self, state: ArenaState, turn: Turn, f: Fighter, args: object, ctx: Ctx) -> None:
        match args:
            case TakePosture(posture=posture):
                self._take_posture(state, turn, f, posture, ctx)
            case GetUp(posture=posture):
                self._get_up(state, turn, f, posture, ctx)
            case StayDown():
                self._stay_down(turn, f, ctx)
            case PickUp():
                if turn.step == "posture":
                    # RULINGS: on the ground, the weapon on its hex is picked up
                    # without getting up.
                    turn.stay_down = True
                    turn.posture = f.posture
                self._pick_up(state, f, ctx)
            case Fight():
                turn.step = "fight"
                self._maybe_finish_fight(state, turn, f, ctx)
            case Rest():
                # "Reprendre des forces": en garde and nothing else.
                f.resting = True
                f.attacked_while_resting = False
                ctx.emit(
                    "rest",
                    Text(fr=f"💤 {f.name} reprend des forces.", en=f"💤 {f.name} rests."),
                    seat=f.seat,
                )
                finish_turn(state, "rest", None, ctx)
            case Pass():
                ctx.emit(
                    "pass",
                    Text(fr=f"{f.name} ne peut rien faire.", en=f"{f.name} can do nothing."),
                    seat=f.seat,
                )
                finish_turn(state, "pass", None, ctx)
            case Step(to=to):
                self._step(turn, f, to, ctx)
                self._maybe_finish_fight(state, turn, f, ctx)
            case Move(path=path, target=target):
                # Exactly the single steps, then the attack or the end of the turn,
                # with the same events and decision numbering.
                for to in path:
                    self._step(turn, f, to, ctx)
                if target is None:
                    self._finish_fight(state, turn, ctx)
                else:
                    self._attack(state, turn, f, target, ctx)
            case Attack(target=target):
                self._attack(state, turn, f, target, ctx)
            case EndTurn():
                turn.choices += 1
                self._finish_fight(state, turn, ctx)
            case _:
                raise IllegalDecision(
                    Text(fr="Ce choix n'est pas permis.", en="That choice is not allowed.")
                )

    @staticmethod
    def _step(turn: Turn, f: Fighter, to: Hex, ctx: Ctx) -> None:
        """One hex of the move ("Bouger")."""
        turn.choices += 1
        f.pos = to
        turn.path.append(f.pos)
        ctx.emit(
            "step",
            Text(fr=f"{f.name} → {label(f.pos)}", en=f"{f.name} → {label(f.pos)}"),
            seat=f.seat,
            hex=list(f.pos),
        )

    def _attack(self, state: ArenaState, turn: Turn, f: Fighter, target: int, ctx: Ctx) -> None:
        """The turn's one attack ("Attaquer"); the match ends at once on the last knock-out."""
        turn.choices += 1
        turn.attack = resolve_attack(state, f.seat, target, ctx)
        turn.attacked = True
        if len(living(state)) == 1:
            self._finish_fight(state, turn, ctx)
            return
        self._maybe_finish_fight(state, turn, f, ctx)

    @staticmethod
    def _stay_down(turn: Turn, f: Fighter, ctx: Ctx) -> None:
        """RULINGS: a fighter on the ground may attack with 1 die without getting up
        (move 0; the attack is then the whole fight)."""
        turn.stay_down = True
        turn.posture = f.posture
        turn.required = 0
        turn.step = "fight"
        ctx.emit(
            "posture",
            Text(
                fr=f"{f.name} reste au sol pour attaquer.",
                en=f"{f.name} stays on the ground to attack.",
            ),
            seat=f.seat,
            posture="sol",
        )

    @staticmethod
    def _get_up(state: ArenaState, turn: Turn, f: Fighter, posture: Posture, ctx: Ctx) -> None:
        """ "Se relever (si au sol)": a whole turn; the new posture is its defence (RULINGS)."""
        name = POSTURE_NAMES[posture]
        f.posture = posture
        turn.posture = posture
        f.down = False
        ctx.emit(
            "get_up",
            Text(fr=f"⬆️ {f.name} se relève ({name.fr}).", en=f"⬆️ {f.name} gets up ({name.en})."),
            seat=f.seat,
            posture=posture,
        )
        finish_turn(state, "getup", None, ctx)

    def _take_posture(
        self, state: ArenaState, turn: Turn, f: Fighter, posture: Posture, ctx: Ctx
    ) -> None:
        """Book "Le tour de jeu": choose a posture, then one action (applied at once
        when it is the only one)."""
        name = POSTURE_NAMES[posture]
        f.posture = posture
        turn.posture = posture
        ctx.emit(
            "posture",
            Text(
                fr=f"{f.name} prend la posture {name.fr}.",
                en=f"{f.name} takes the {name.en} posture.",
            ),
            seat=f.seat,
            posture=posture,
        )
        turn.required = required_length(state, f.seat, posture)
        turn.step = "action"
        options = self._action_options(state, turn, f)
        if len(options) == 1:
            self._do(state, turn, f, options[0].args, ctx)

    @staticmethod
    def _pick_up(state: ArenaState, f: Fighter, ctx: Ctx) -> None:
        """ "Ramasser son arme (si désarmé)", on the hex where it fell: a whole turn."""
        f.disarmed = False
        f.weapon_at = None
        ctx.emit(
            "pickup",
            Text(fr=f"🗡️ {f.name} ramasse son arme.", en=f"🗡️ {f.name} picks up the weapon."),
            seat=f.seat,
        )
        finish_turn(state, "pickup", None, ctx)

    def _maybe_finish_fight(self, state: ArenaState, turn: Turn, f: Fighter, ctx: Ctx) -> None:
        """End the turn once nothing is left to choose (move done and no attack left)."""
        if not self._has_fight_option(state, turn, f):
            self._finish_fight(state, turn, ctx)

    def _has_fight_option(self, state: ArenaState, turn: Turn, f: Fighter) -> bool:
        """Whether :meth:`_fight_options` offers anything, without building the options
        (every path of the move was enumerated twice per step): its parts, cheapest first.
        A step is offered for every legal direction (the compass has all six)."""
        if not turn.attacked and attack_targets(state, f.seat):
            return True
        if legal_steps(state, turn) or destinations(state, turn):
            return True
        return self._may_end(state, turn, f)

    def _finish_fight(self, state: ArenaState, turn: Turn, ctx: Ctx) -> None:
        finish_turn(state, "fight", turn.attack, ctx)

    # --- old logs ------------------------------------------------------------------
    def upgrade_choice(
        self, state: ArenaState, pending: list[Decision], held: list[Choice]
    ) -> Choice | None:
        """Old logs hold today's option ids and keys. One answer may no longer be
        awaited: RULINGS (0 attack dice, no attack) leave an en-garde fighter next to
        an opponent only "rest", which is now applied at once, so its logged "rest" is
        dropped. Anything else not awaited is returned, and refused by the engine."""
        old = held[-1]
        if any(d.key == old.key for d in pending):
            return old
        last = state.last
        if (
            old.option == "rest"
            and last is not None
            and last.action == "rest"
            and last.seat == old.seat
        ):
            return None
        return old

    # --- queries -------------------------------------------------------------------
    def view(self, state: ArenaState, seat: int | None) -> ArenaView:
        """Everything is public in Arena!, so every seat sees the same view."""
        return build_view(state)

    def outcome(self, state: ArenaState) -> Outcome | None:
        """Book "Fin du jeu": one survivor wins; after round 10 with more, nobody wins."""
        if not state.finished:
            return None
        if state.winner is not None:
            name = state.fighters[state.winner].name
            return Outcome(
                winners=[state.winner],
                reason=Text(
                    fr=f"{name} est le dernier combattant debout.",
                    en=f"{name} is the last fighter standing.",
                ),
                scores={f.seat: float(f.hp) for f in state.fighters},
            )
        return Outcome(
            winners=[],
            reason=Text(
                fr="Plus d'un survivant à la fin du 10e tour : tous sont déclarés perdants.",
                en="More than one survivor at the end of round 10: all are declared losers.",
            ),
            scores={f.seat: float(f.hp) for f in state.fighters},
        )

    def round_label(self, state: ArenaState) -> int:
        return state.round

    def checkpoint(self, events: list[AnyEvent]) -> bool:
        """A fresh board image after every finished turn (and the end of the match)."""
        return any(e.type in ("turn_end", "match_end") for e in events)

    def parse_option(self, state: ArenaState, decision: Decision, text: str) -> str | None:
        """Typed moves: an option id or label (a destination's label is its hex,
        ``D5``), or the name of the hex a step reaches."""
        found = super().parse_option(state, decision, text)
        if found is not None:
            return found
        wanted = text.strip().upper()
        for opt in decision.options:
            if isinstance(opt.args, Step) and label(opt.args.to) == wanted:
                return opt.id
        return None

    # --- persistence ---------------------------------------------------------------
    def copy(self, state: ArenaState) -> ArenaState:
        """A copy of what an apply may change (:func:`copy_state`: no deep copy's memo)."""
        return copy_state(state)

    # --- presentation and AI -------------------------------------------------------
    def render(self, view: ArenaView, lang: str = "en", decision: Decision | None = None) -> bytes:
        from bot.games.arena.render import render_board

        return render_board(view, lang, decision)

    def board_text(self, view: ArenaView, lang: str = "en") -> list[str]:
        """The roster, the last turn's dice and the winner: in words next to the image."""
        from bot.games.arena.render import board_lines

        return board_lines(view, lang)

    def ai_choose(
        self, state: ArenaState, decision: Decision, rnd: random.Random, level: str | None = None
    ) -> str:
        """The level's choice (``AI_LEVELS``), from the public view only."""
        from bot.games.arena.ai import choose

        return choose(self.view(state, decision.seat), decision, rnd, level)


def _status(f: Fighter) -> Text:
    marks_fr = [f"{f.hp} PV", f"en {label(f.pos)}"]
    marks_en = [f"{f.hp} HP", f"on {label(f.pos)}"]
    if f.down:
        marks_fr.append("au sol")
        marks_en.append("on the ground")
    if f.disarmed:
        where = label(f.weapon_at) if f.weapon_at else "?"
        marks_fr.append(f"désarmé, arme en {where}")
        marks_en.append(f"disarmed, weapon on {where}")
    return Text(fr=", ".join(marks_fr), en=", ".join(marks_en))
