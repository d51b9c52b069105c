"""MAD as an engine :class:`Game`: decisions, applying turns, views, outcome.

Seat 0 plays red (moves first, bottom of the board), seat 1 blue. The player
to move gets ONE decision listing every legal turn: options are grouped by
ship (``Frégate 112 en b2``), bonus moves are separate options of the moving
ship (``b6 + 112⇄221``), teleports are grouped under ``Téléportation``. The
decision also offers ``Proposer le départage`` (id ``draw``), which asks the
opponent (a reaction decision) to accept the tie-break.

Options carry typed arguments (:mod:`bot.games.mad.args`); option ids are the
canonical notation and decision keys ``t<turn>:move`` / ``t<turn>:tiebreak<n>``,
kept as they are because decision logs store them, but never read back.
"""

from __future__ import annotations

import random
from typing import Any

from bot.engine.copying import copy_state
from bot.engine.decisions import Answer, Args, Decision, Option
from bot.engine.errors import IllegalDecision
from bot.engine.events import AnyEvent
from bot.engine.game import Ctx, Game, GameInfo, ModeInfo, OptionSpec, Outcome, SeatSpec
from bot.engine.text import Text
from bot.engine.vocabulary import LEVEL_NAMES, standard_level
from bot.games.mad import ai
from bot.games.mad.args import (
    Displacement,
    Permutation,
    ProposeTiebreak,
    Rotation,
    TiebreakQuestion,
    TiebreakReply,
    TurnArgs,
    TurnOf,
    turn_args,
)
from bot.games.mad.core import (
    BLUE,
    BOARD_IDS,
    EXILE,
    KINDS,
    MOVE,
    PASS,
    PERM,
    RED,
    Board,
    Position,
    Turn,
    apply_teleport,
    board,
    corvette_exiled,
    occupancy,
    on_board_count,
    turns,
    via_square,
)
from bot.games.mad.notation import matches, turn_text
from bot.games.mad.state import (
    SIDE_ADJ_F,
    SIDE_NAMES,
    TIEBREAK_TURNS,
    LastTurn,
    MadResult,
    MadState,
    ship_text,
)
from bot.games.mad.view import LastView, MadView, ResultView, ShipView

DRAW = "draw"
ACCEPT = "accept"
REFUSE = "refuse"
"""Option ids of the tie-break proposal and its answers (as stored in decision logs)."""

SUMMARY = Text(
    fr=(
        "MAD : deux flottes de 8 vaisseaux (voiles, canons, boucliers). À son tour, on joue UN coup : "
        "déplacement (1 case, ou 1-2 cases avec 2 voiles, sans diagonale ni demi-tour ; on expulse un "
        "adversaire dont les boucliers ≤ nos canons), permutation de deux vaisseaux complémentaires "
        "(111⇄222, 112⇄221, 121⇄212, 211⇄122) ou rotation des trois frégates / des trois destroyers "
        "(au moins deux dans l'arène). Premier tour : positionnement (téléportation ou passe). Coup bonus "
        "après un déplacement d'une case sur la dernière rangée. On gagne en exilant la corvette 111 "
        "adverse ; 40 tours sans expulsion, ou un accord, donnent une semi-victoire au dernier à avoir "
        "expulsé (aux bleus sinon)."
    ),
    en=(
        "MAD: two fleets of 8 ships (sails, cannons, shields). On your turn play ONE move: a displacement "
        "(1 square, or 1-2 with two sails, no diagonal, no going back; you expel an enemy whose shields "
        "<= your cannons), a permutation of two complementary ships (111⇄222, 112⇄221, 121⇄212, "
        "211⇄122) or a rotation of the three frigates / three destroyers (at least two in the arena). "
        "First turn: positioning (teleport or pass). Bonus teleport after a one-square move onto the last "
        "row. Win by exiling the enemy corvette 111; 40 turns without expulsion, or an agreement, give a "
        "half victory to the last side to expel (blue if none)."
    ),
)

LEVEL_CHOICES = [(level, LEVEL_NAMES[level]) for level in ("easy", "medium", "hard")]
"""The host option ``ai_level`` (its default, ``hard``, is the level of seats without one)."""

AI_LEVELS = [
    standard_level(
        id="hard",
        summary=Text(
            fr="Recherche alpha-bêta à 8 tours et plus, voit venir le départage des 40 tours.",
            en="Alpha-beta search 8 turns deep and more; sees the 40-turn tie-break coming.",
        ),
        process=True,
    ),
    standard_level(
        id="medium",
        summary=Text(
            fr="Regarde trois tours à l'avance et compte les tours du départage.",
            en="Looks three turns ahead and counts the tie-break turns.",
        ),
        process=True,
    ),
    standard_level(
        id="easy",
        summary=Text(
            fr="Un tour à l'avance, avec beaucoup de hasard ; ne laisse pas filer le départage.",
            en="One turn ahead, with a lot of randomness; does not let the tie-break slip.",
        ),
    ),
]
"""MAD's AI levels, the default first: ``hard``, the default of the ``ai_level`` option."""

SUBJECT_IDS = {RED: "red", BLUE: "blue"}
"""``Decision.subject`` of each side's decisions."""
SUBJECTS = {SUBJECT_IDS[side]: SIDE_NAMES[side] for side in (RED, BLUE)}
"""How players read those subjects (``Rouge``/``Red``, ``Bleu``/``Blue``)."""


def teleport_button(b: Board, pos: Position, t: Turn) -> Text:
    """A teleport as a button shows: each ship's digits and squares, e.g.
    ``112 b2 ⇄ 221 exil`` or ``112 b2→c6 · 121 c6→a1 · 211 a1→b2``."""
    new = apply_teleport(pos, t)

    def sq(p: int, lang: str) -> str:
        return ("exil" if lang == "fr" else "exile") if p == EXILE else b.name(p)

    def text(lang: str) -> str:
        if t[0] == PERM:
            a, c = sorted((t[1], t[2]))
            return f"{KINDS[a & 7]} {sq(pos[a], lang)} ⇄ {KINDS[c & 7]} {sq(pos[c], lang)}"
        return " · ".join(f"{KINDS[s & 7]} {sq(pos[s], lang)}→{sq(new[s], lang)}" for s in t[1:])

    return Text(fr=text("fr"), en=text("en"))


def teleport_detail(b: Board, pos: Position, t: Turn) -> Text:
    """Where each ship goes, e.g. ``112 : b2 → c6 ; 221 : exil → b2``."""
    new = apply_teleport(pos, t)
    parts_fr, parts_en = [], []
    for s in t[1:]:
        a = "exil" if pos[s] == EXILE else b.name(pos[s])
        z = "exil" if new[s] == EXILE else b.name(new[s])
        parts_fr.append(f"{KINDS[s & 7]} : {a} → {z}")
        parts_en.append(
            f"{KINDS[s & 7]}: {a.replace('exil', 'exile')} → {z.replace('exil', 'exile')}"
        )
    return Text(fr=" ; ".join(parts_fr), en="; ".join(parts_en))


class MadGame(Game[MadState, MadView]):
    """MAD (rules/mad.fr.txt) with the RULINGS' MAD section."""

    info = GameInfo(
        id="mad",
        names=Text(fr="MAD", en="MAD"),
        min_players=2,
        max_players=2,
        modes=[
            ModeInfo(
                id="duel",
                names=Text(fr="Duel", en="Duel"),
                player_counts=[2],
                summary=Text(fr="Rouges contre bleus", en="Red against blue"),
            )
        ],
        options=[
            OptionSpec(
                id="board",
                names=Text(fr="Arène", en="Board"),
                type="choice",
                default="6x4",
                choices=[
                    ("6x4", Text(fr="6 × 4", en="6 × 4")),
                    ("5x5", Text(fr="5 × 5", en="5 × 5")),
                ],
            ),
            OptionSpec(
                id="positioning",
                names=Text(fr="Tour de positionnement", en="Positioning turn"),
                type="bool",
                default=True,
                help=Text(
                    fr="Premier tour de chaque camp : permutation, rotation ou passe.",
                    en="Each side's first turn: permutation, rotation or pass.",
                ),
            ),
            OptionSpec(
                id="ai_level",
                names=Text(fr="Niveau de l'IA", en="AI level"),
                type="choice",
                default="hard",
                choices=LEVEL_CHOICES,
            ),
        ],
        summary=SUMMARY,
        subjects=SUBJECTS,
        ai_levels=AI_LEVELS,
    )

    # --- lifecycle -------------------------------------------------------------------
    def setup(
        self, seats: list[SeatSpec], mode: str, options: dict[str, Any], ctx: Ctx
    ) -> MadState:
        if len(seats) != 2:
            raise IllegalDecision(Text(fr="MAD se joue à deux.", en="MAD is a two-player game."))
        board_id = str(options.get("board", "6x4")).lower().replace("×", "x").replace(" ", "")
        if board_id not in BOARD_IDS:
            raise IllegalDecision(
                Text(
                    fr=f"Arène inconnue : {board_id} (6x4 ou 5x5).",
                    en=f"Unknown board: {board_id} (6x4 or 5x5).",
                )
            )
        level = ai.level_id(str(options.get("ai_level", "hard"))) or str(options["ai_level"])
        if level not in ai.LEVELS:
            raise IllegalDecision(
                Text(fr=f"Niveau d'IA inconnu : {level}.", en=f"Unknown AI level: {level}.")
            )
        b = board(board_id)
        state = MadState(
            board=board_id,
            positioning=bool(options.get("positioning", True)),
            ai_level=level,
            pos=list(b.start),
        )
        ctx.emit(
            "start",
            Text(
                fr=f"MAD sur l'arène {board_id} : {seats[0].name} (rouges) contre {seats[1].name} (bleus). Les rouges commencent.",
                en=f"MAD on the {board_id} board: {seats[0].name} (red) against {seats[1].name} (blue). Red moves first.",
            ),
            board=board_id,
        )
        return state

    def legal_turns(self, state: MadState) -> list[tuple[Turn, Position]]:
        """Every legal turn of the side to move (none once the match is over)."""
        if state.result is not None:
            return []
        return turns(state.geometry(), state.position(), state.to_move, state.positioning_turn())

    def pending(self, state: MadState) -> list[Decision]:
        if state.result is not None:
            return []
        side = state.to_move
        if state.draw_offer is not None:
            other = 1 - state.draw_offer
            winner = SIDE_NAMES[state.tiebreak_winner()]
            accept = TiebreakReply(accept=True)
            refuse = TiebreakReply(accept=False)
            return [
                Decision(
                    key=f"t{state.turn}:tiebreak{state.offers_this_turn}",
                    seat=other,
                    kind="tiebreak",
                    prompt=Text(
                        fr=f"{SIDE_NAMES[state.draw_offer].fr} propose d'arrêter la partie (départage) : "
                        f"semi-victoire des {winner.fr.lower()}s. Acceptez-vous ?",
                        en=f"{SIDE_NAMES[state.draw_offer].en} proposes to stop the match (tie-break): "
                        f"half victory for {winner.en.lower()}. Do you accept?",
                    ),
                    options=[
                        Option(
                            id=ACCEPT,
                            label=Text(fr="Accepter", en="Accept"),
                            args=accept,
                            style="success",
                        ),
                        Option(
                            id=REFUSE,
                            label=Text(fr="Refuser", en="Refuse"),
                            args=refuse,
                            style="danger",
                        ),
                    ],
                    args=TiebreakQuestion(
                        proposer=state.draw_offer, winner=state.tiebreak_winner()
                    ),
                    timing="reaction",
                    subject=SUBJECT_IDS[other],
                )
            ]
        b = state.geometry()
        pos = state.position()
        options = [self._option(b, pos, t) for t, _ in self.legal_turns(state)]
        if state.offers_this_turn == 0:
            tb = SIDE_NAMES[state.tiebreak_winner()]
            options.append(
                Option(
                    id=DRAW,
                    args=ProposeTiebreak(),
                    label=Text(
                        fr=f"Proposer le départage (semi-victoire des {tb.fr.lower()}s)",
                        en=f"Propose the tie-break (half victory for {tb.en.lower()})",
                    ),
                    group=Text(fr="Départage…", en="Tie-break…"),
                    row=2,
                    detail=Text(
                        fr="Arrêter la partie d'un commun accord : semi-victoire au dernier à avoir expulsé (aux bleus sinon).",
                        en="Stop the match by agreement: half victory to the last side to expel (blue if none).",
                    ),
                    style="danger",
                )
            )
        first = state.positioning_turn()
        prompt = (
            Text(
                fr="tour de positionnement : une permutation, une rotation, ou passer.",
                en="positioning turn: a permutation, a rotation, or pass.",
            )
            if first
            else Text(
                fr="choisissez un vaisseau puis sa destination, "
                "ou une téléportation (permutation, rotation).",
                en="choose a ship, then its destination, or a teleport (permutation, rotation).",
            )
        )
        example = _example(options, occupancy(b, pos))
        hint = Text(
            fr=f"Ou tapez le coup : `/arène jouer coup:{example}` (notation : `/arène règles`).",
            en=f"Or type the move: `/arena play text:{example}` (notation: `/arena rules`).",
        )
        suffix = "" if state.offers_this_turn == 0 else f"r{state.offers_this_turn}"
        return [
            Decision(
                key=f"t{state.turn}:move{suffix}",
                seat=side,
                kind="turn",
                prompt=prompt,
                options=options,
                args=TurnOf(side=side),
                timing="turn",
                subject=SUBJECT_IDS[side],
                hint=hint,
            )
        ]

    def _option(self, b: Board, pos: Position, t: Turn) -> Option:
        """One legal turn as an option: its notation as id, its meaning as ``args``."""
        oid = turn_text(b, pos, t)
        args = turn_args(t)
        if t[0] == PASS:
            return Option(
                id=oid,
                args=args,
                label=Text(fr="Passer (garder la position de départ)", en="Pass (keep the start)"),
                group=Text(fr="Passer…", en="Pass…"),
                row=1,
                detail=Text(fr="Garder la position initiale.", en="Keep the starting position."),
            )
        if t[0] == MOVE:
            _, ship, src, dst, bonus = t
            name = ship_text(ship)
            group = Text(fr=f"{name.fr} en {b.name(src)}", en=f"{name.en} on {b.name(src)}")
            victim = next((s for s in range(16) if pos[s] == dst), None)
            fr = en = f"{KINDS[ship & 7]} {b.name(src)} → {b.name(dst)}"
            if victim is not None:
                fr += f" · ✕ expulse {KINDS[victim & 7]}"
                en += f" · ✕ expels {KINDS[victim & 7]}"
            detail = None
            if bonus is not None:
                moved = list(pos)
                if victim is not None:
                    moved[victim] = EXILE
                moved[ship] = dst
                extra = teleport_button(b, tuple(moved), bonus)
                fr += f" · ★ bonus {extra.fr}"
                en += f" · ★ bonus {extra.en}"
                d = teleport_detail(b, tuple(moved), bonus)
                detail = Text(fr="Coup bonus : " + d.fr, en="Bonus move: " + d.en)
            elif victim is not None:
                v = ship_text(victim, with_side=True)
                detail = Text(fr=f"Expulse {v.fr}", en=f"Expels the {v.en}")
            return Option(
                id=oid,
                args=args,
                label=Text(fr=fr, en=en),
                group=group,
                detail=detail,
                style="danger"
                if victim is not None
                else ("primary" if bonus is not None else "secondary"),
            )
        return Option(
            id=oid,
            args=args,
            label=teleport_button(b, pos, t),
            group=Text(
                fr="Permutation" if t[0] == PERM else "Rotation",
                en="Permutation" if t[0] == PERM else "Rotation",
            ),
            row=1,
            detail=teleport_detail(b, pos, t),
        )

    def apply(self, state: MadState, answer: Answer, ctx: Ctx) -> None:
        if state.result is not None:
            raise IllegalDecision(Text(fr="La partie est terminée.", en="The match is over."))
        args = answer.args
        if state.draw_offer is not None:
            self._answer_offer(state, answer.seat, args, ctx)
            return
        side = state.to_move
        if answer.seat != side:
            raise IllegalDecision(Text(fr="Ce n'est pas votre tour.", en="It is not your turn."))
        if isinstance(args, ProposeTiebreak):
            if state.offers_this_turn:
                raise IllegalDecision(
                    Text(
                        fr="Vous avez déjà proposé le départage ce tour-ci.",
                        en="You already proposed the tie-break this turn.",
                    )
                )
            state.draw_offer = side
            state.offers_this_turn += 1
            ctx.emit(
                "tiebreak_offer",
                Text(
                    fr=f"{SIDE_NAMES[side].fr} propose le départage.",
                    en=f"{SIDE_NAMES[side].en} proposes the tie-break.",
                ),
                side=side,
            )
            return
        if isinstance(args, TurnArgs):
            wanted = args.turn()
            for t, new in self.legal_turns(state):
                if t == wanted:
                    self._play(state, t, new, ctx)
                    return
        raise IllegalDecision(
            Text(fr="Ce coup n'est pas permis maintenant.", en="That move is not allowed now.")
        )

    def _answer_offer(self, state: MadState, seat: int, args: Args | None, ctx: Ctx) -> None:
        """Départage by agreement: the other side accepts (the match ends) or refuses."""
        proposer = state.draw_offer
        assert proposer is not None
        if seat != 1 - proposer or not isinstance(args, TiebreakReply):
            raise IllegalDecision(
                Text(
                    fr="Réponse attendue : accepter ou refuser.",
                    en="Expected answer: accept or refuse.",
                )
            )
        state.draw_offer = None
        other = SIDE_NAMES[1 - proposer]
        if not args.accept:
            ctx.emit(
                "tiebreak_refused",
                Text(
                    fr=f"{other.fr} refuse le départage.", en=f"{other.en} refuses the tie-break."
                ),
            )
            return
        ctx.emit(
            "tiebreak_accepted",
            Text(fr=f"{other.fr} accepte le départage.", en=f"{other.en} accepts the tie-break."),
        )
        self._finish(state, MadResult(winner=state.tiebreak_winner(), kind="tiebreak_agreed"), ctx)

    def _play(self, state: MadState, t: Turn, new: Position, ctx: Ctx) -> None:
        """One whole turn: the move (with its bonus) or the teleport, then the end checks."""
        b = state.geometry()
        pos = state.position()
        side = state.to_move
        text = turn_text(b, pos, t)
        last = LastTurn(side=side, text=text)
        fr = f"{SIDE_NAMES[side].fr} : "
        en = f"{SIDE_NAMES[side].en}: "
        expelled = [s for s in range(16) if s >> 3 != side and pos[s] != EXILE and new[s] == EXILE]
        if t[0] == PASS:
            fr += "passe (tour de positionnement)"
            en += "passes (positioning turn)"
        elif t[0] == MOVE:
            _, ship, src, dst, bonus = t
            last.src, last.dst, last.ship = src, dst, ship
            last.via = via_square(b, pos, src, dst)
            last.expelled = expelled
            fr += f"{KINDS[ship & 7]} {text}"
            en += f"{KINDS[ship & 7]} {text}"
            for v in expelled:
                vt = ship_text(v, with_side=True)
                fr += (
                    f" — {vt.fr} expulsée"
                    if vt.fr.startswith(("Corvette", "Frégate"))
                    else f" — {vt.fr} expulsé"
                )
                en += f" — {vt.en} expelled"
            if bonus is not None:
                last.teleported = [s for s in bonus[1:]]
                fr += " (coup bonus)"
                en += " (bonus move)"
        else:
            last.teleported = list(t[1:])
            kind = "permutation" if t[0] == PERM else "rotation"
            fr += f"{kind} {text}"
            en += f"{kind} {text}"
        own_exiled = [
            s for s in range(side * 8, side * 8 + 8) if pos[s] != EXILE and new[s] == EXILE
        ]
        if own_exiled:
            names = ", ".join(KINDS[s & 7] for s in own_exiled)
            fr += f" [exil : {names}]"
            en += f" [exiled: {names}]"
        before = on_board_count(pos)
        state.pos = list(new)
        state.history.append(text)
        state.last = last
        if expelled:
            state.last_expeller = side
        state.streak = state.streak + 1 if on_board_count(new) == before else 0
        state.turn += 1
        state.to_move = 1 - side
        state.offers_this_turn = 0
        ctx.emit("turn", Text(fr=fr, en=en), side=side, notation=text, expelled=expelled)
        loser = corvette_exiled(new)
        if loser is not None:
            self._finish(state, MadResult(winner=1 - loser, kind="corvette"), ctx)
        elif state.streak >= TIEBREAK_TURNS:
            self._finish(
                state, MadResult(winner=state.tiebreak_winner(), kind="tiebreak_turns"), ctx
            )

    def _finish(self, state: MadState, result: MadResult, ctx: Ctx) -> None:
        state.result = result
        out = self.outcome(state)
        assert out is not None
        ctx.emit("end", out.reason, winner=result.winner, kind=result.kind)

    # --- queries ---------------------------------------------------------------------
    def outcome(self, state: MadState) -> Outcome | None:
        r = state.result
        if r is None:
            return None
        w = SIDE_NAMES[r.winner]
        if r.kind == "corvette":
            loser = SIDE_ADJ_F[1 - r.winner]
            reason = Text(
                fr=f"La corvette 111 {loser.fr} est exilée : victoire des {w.fr.lower()}s.",
                en=f"The {loser.en} corvette 111 is exiled: {w.en.lower()} wins.",
            )
            return Outcome(
                winners=[r.winner], reason=reason, scores={r.winner: 1.0, 1 - r.winner: 0.0}
            )
        why = (
            Text(
                fr=f"{TIEBREAK_TURNS} tours consécutifs sans changement du nombre de vaisseaux",
                en=f"{TIEBREAK_TURNS} consecutive turns without a change in the number of ships",
            )
            if r.kind == "tiebreak_turns"
            else Text(
                fr="Départage accepté par les deux joueurs", en="Tie-break agreed by both players"
            )
        )
        who = (
            Text(fr="aucune expulsion : les bleus l'emportent", en="no expulsion: blue wins")
            if state.last_expeller is None
            else Text(
                fr=f"dernière expulsion par les {w.fr.lower()}s",
                en=f"last expulsion by {w.en.lower()}",
            )
        )
        reason = Text(
            fr=f"{why.fr} ; {who.fr} : semi-victoire des {w.fr.lower()}s (½ point).",
            en=f"{why.en}; {who.en}: half victory for {w.en.lower()} (½ point).",
        )
        return Outcome(
            winners=[r.winner], reason=reason, scores={r.winner: 0.5, 1 - r.winner: 0.0}, half=True
        )

    def view(self, state: MadState, seat: int | None) -> MadView:
        """Everything is public in MAD; the renderer draws from this alone."""
        b = state.geometry()

        def name(sq: int | None) -> str | None:
            return None if sq is None or sq == EXILE else b.name(sq)

        ships = [
            ShipView(id=s, side=s >> 3, kind=KINDS[s & 7], square=name(state.pos[s]))
            for s in range(16)
        ]
        out = self.outcome(state)
        last = state.last
        return MadView(
            board=state.board,
            rows=b.rows,
            cols=b.cols,
            ships=ships,
            to_move=state.to_move,
            turn=state.turn,
            turn_number=state.turn + 1,
            positioning_turn=state.positioning_turn() and state.result is None,
            streak=state.streak,
            tiebreak_turns=TIEBREAK_TURNS,
            turns_left=max(0, TIEBREAK_TURNS - state.streak),
            last_expeller=state.last_expeller,
            tiebreak_winner=state.tiebreak_winner(),
            draw_offer=state.draw_offer,
            history=list(state.history),
            last=None
            if last is None
            else LastView(
                side=last.side,
                text=last.text,
                kind=None if last.ship is None else KINDS[last.ship & 7],
                src=name(last.src),
                dst=name(last.dst),
                via=name(last.via),
                expelled=list(last.expelled),
                teleported=list(last.teleported),
                bonus=last.ship is not None and bool(last.teleported),
            ),
            result=None
            if state.result is None or out is None
            else ResultView(
                winner=state.result.winner, kind=state.result.kind, half=out.half, reason=out.reason
            ),
            seat=seat,
        )

    def round_label(self, state: MadState) -> int:
        return state.turn // 2 + 1

    def checkpoint(self, events: list[AnyEvent]) -> bool:
        """A fresh board image after each turn and at the end, not after a tie-break offer."""
        return any(e.type in ("turn", "end", "tiebreak_accepted") for e in events)

    def parse_option(self, state: MadState, decision: Decision, text: str) -> str | None:
        """Typed notation (``b2-b4``, ``c5xc6+112=221``, ``121>211>112``, ``pass``) -> option id."""
        t = text.strip().lower()
        if isinstance(decision.args, TiebreakQuestion):
            if t in ("accept", "accepter", "oui", "yes", "ok", "y", "o"):
                return _reply_id(decision, True)
            if t in ("refuse", "refuser", "non", "no", "n"):
                return _reply_id(decision, False)
            return super().parse_option(state, decision, text)
        if t in ("draw", "tiebreak", "tie-break", "départage", "departage", "nulle"):
            return next(
                (o.id for o in decision.options if isinstance(o.args, ProposeTiebreak)), None
            )
        b = state.geometry()
        pos = state.position()
        for opt in decision.options:
            if isinstance(opt.args, TurnArgs) and matches(b, pos, opt.args.turn(), t):
                return opt.id
        return super().parse_option(state, decision, text)

    # --- persistence -------------------------------------------------------------------
    def dump(self, state: MadState) -> dict[str, Any]:
        return state.dump()

    def load(self, data: dict[str, Any]) -> MadState:
        return MadState.model_validate(data)

    def copy(self, state: MadState) -> MadState:
        """A copy of what an apply may change (:func:`copy_state`: no deep copy's memo)."""
        return copy_state(state)

    def render(self, view: MadView, lang: str = "en", decision: Decision | None = None) -> bytes:
        from bot.games.mad.render import render_board

        return render_board(view, lang, decision)

    def board_text(self, view: MadView, lang: str = "en") -> list[str]:
        """The last move, the tie-break counter and an offer: in words next to the image."""
        from bot.games.mad.render import board_lines

        return board_lines(view, lang)

    # --- AI ----------------------------------------------------------------------------
    def ai_choose(
        self, state: MadState, decision: Decision, rnd: random.Random, level: str | None = None
    ) -> str:
        """``easy``/``medium``/``hard`` (see :mod:`bot.games.mad.ai`); never proposes the tie-break.

        Asked to accept a tie-break, the AI accepts exactly when it would win it.
        """
        if isinstance(decision.args, TiebreakQuestion):
            reply = _reply_id(decision, decision.args.winner == decision.seat)
            assert reply is not None
            return reply
        lvl = ai.level_id(level) or ai.level_id(state.ai_level) or "hard"
        t = ai.choose(
            state.geometry(),
            state.position(),
            state.to_move,
            state.turn,
            state.positioning,
            lvl,
            rnd,
            streak=state.streak,
            last_expeller=state.last_expeller,
        )
        for opt in decision.options:
            if isinstance(opt.args, TurnArgs) and opt.args.turn() == t:
                return opt.id
        raise RuntimeError(f"AI chose an illegal turn {t!r}")  # pragma: no cover - generator bug


def _reply_id(decision: Decision, accept: bool) -> str | None:
    """The id of the tie-break answer ``accept`` (accept or refuse)."""
    for opt in decision.options:
        if isinstance(opt.args, TiebreakReply) and opt.args.accept == accept:
            return opt.id
    return None


def _example(options: list[Option], occ: list[int]) -> str:
    """The move a turn's hint shows as typed text: a quiet displacement, else a permutation,
    else a rotation (a capture counts by its bonus teleport); ``pass`` reads as English."""

    def rank(args: Args | None) -> int | None:
        if isinstance(args, Displacement):
            if occ[args.dst] == -1:
                return 0
            args = args.bonus
        if isinstance(args, Permutation):
            return 1
        if isinstance(args, Rotation):
            return 2
        return None

    ranked = [(r, i) for i, o in enumerate(options) if (r := rank(o.args)) is not None]
    return options[min(ranked)[1]].id if ranked else options[0].id


GAME = MadGame()
