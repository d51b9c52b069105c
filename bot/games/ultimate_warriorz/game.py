"""The Ultimate Warriorz game object: the engine contract wired to the rules modules."""

from __future__ import annotations

import random
from typing import Any

from bot.engine.copying import copy_state
from bot.engine.decisions import Answer, Decision
from bot.engine.events import AnyEvent
from bot.engine.game import Ctx, Game, GameInfo, ModeInfo, OptionSpec, Outcome, Reply, SeatSpec
from bot.engine.seating import ChoiceValue, SeatChoice
from bot.engine.text import Text
from bot.engine.vocabulary import StatInfo, standard_level
from bot.games.ultimate_warriorz import rules
from bot.games.ultimate_warriorz.ai import EASY, HARD, MEDIUM, StrikeSlot, choose
from bot.games.ultimate_warriorz.args import RollRef
from bot.games.ultimate_warriorz.cards import (
    CARD_FILE,
    FIGHTERS,
    NAMES,
    SPECIAL_EFFECTS,
    SPECIAL_NAMES,
)
from bot.games.ultimate_warriorz.modes import (
    CONFIG_CHOICES,
    FIGHTER,
    LOBBY,
    PLAYER_COUNTS,
    TEAM,
    TEAM_CHOICE,
    TEAM_IDS,
    TRIBAL,
)
from bot.games.ultimate_warriorz.state import UWState
from bot.games.ultimate_warriorz.view import UWView, build_view

CHECKPOINT_EVENTS = {"round", "reveal", "action-end", "game-over", "eliminated"}

STATS = [
    StatInfo(key="initiative", symbol="⚡", names=Text(fr="initiative", en="initiative")),
    StatInfo(key="move", symbol="👣", names=Text(fr="mouvement", en="move")),
    StatInfo(key="melee", symbol="⚔️", names=Text(fr="corps à corps", en="melee")),
    StatInfo(key="ranged", symbol="🏹", names=Text(fr="tir", en="ranged")),
    StatInfo(key="defence", symbol="🛡️", names=Text(fr="défense", en="defence")),
    StatInfo(key="dice", symbol="🎲", names=Text(fr="dés", en="dice")),
    StatInfo(key="hp", symbol="❤️", names=Text(fr="PV", en="HP")),
]
"""The stats its buttons show: a card's values, an attack's dice and its target."""

SUMMARY = Text(
    fr=(
        "Ultimate Warriorz : 7 rounds. Chaque round, chaque combattant choisit en secret une carte Action "
        "(8 cartes, chacune jouée une fois) ; compte à rebours de 8 à 1 (égalité : le plus petit d'abord). "
        "En agissant : mouvement exact, sans revenir sur une zone déjà visitée ; corps à corps et tir "
        "OBLIGATOIRES quand la carte en donne (tir lointain à 2 zones : -1 par dé). Chaque dé >= la défense "
        "blesse : 1 PP par blessure, 3 PP pour la première. Élimination : trophée ; aux rounds 1 à 3, le "
        "public jette 3, 2 ou 1 dés de pierres sur l'éliminateur. Porte-bonheur une fois par partie : "
        "retourner un dé ou faire relancer jusqu'à 3 dés. Bottes secrètes et objets magiques comme imprimés. "
        "Victoire : dernier debout, sinon PP, puis trophées, puis le plus petit. Les valeurs des cartes par "
        "défaut sont écrites par le projet, pas celles de l'éditeur (option « cards » pour charger les vôtres)."
    ),
    en=(
        "Ultimate Warriorz: 7 rounds. Each round every fighter secretly picks an action card (8 cards, "
        "each played once); countdown 8 to 1 (ties: smaller first). When acting: exact movement, never "
        "re-entering a zone; melee and ranged attacks are MANDATORY when the card gives dice (long shot "
        "at 2 zones: -1 per die). Each die >= the defence wounds: 1 PP per wound, 3 PP for the first. "
        "Elimination: a trophy; in rounds 1-3 the crowd throws 3, 2 or 1 dice of stones at the eliminator. "
        "Lucky charm once per match: flip a die or make the attacker reroll up to 3 dice. Secret moves and "
        "magic items as printed. Victory: last standing, else PP, then trophies, then the smallest. The "
        "default card values are written by this project, not the publisher's (option 'cards' loads yours)."
    ),
)


def _with_specials(summary: Text) -> Text:
    """The summary followed by what each of the 16 special cards does (issue 12 item 1)."""
    fr = [f"• {SPECIAL_NAMES[k].fr} ({NAMES[f]}) : {SPECIAL_EFFECTS[k].fr}" for k, f in _OWNERS]
    en = [f"• {SPECIAL_NAMES[k].en} ({NAMES[f]}): {SPECIAL_EFFECTS[k].en}" for k, f in _OWNERS]
    return Text(fr=summary.fr + "\n" + "\n".join(fr), en=summary.en + "\n" + "\n".join(en))


_OWNERS = [(k, f) for f, (_, _, secret, item) in FIGHTERS.items() for k in (secret, item)]


TEAM_EMOJI = {"1": "🔴", "2": "🔵", "3": "🟢"}

SEAT_CHOICES = [
    SeatChoice(
        id=FIGHTER,
        names=Text(fr="Combattant", en="Fighter"),
        values=[ChoiceValue(id=f, names=Text(fr=NAMES[f], en=NAMES[f])) for f in FIGHTERS],
        unique=True,
        when={"fighters": [LOBBY]},
        help=Text(
            fr="Chacun choisit son combattant ; une place sans choix en reçoit un au hasard.",
            en="Each player picks a fighter; a seat without one is dealt one at random.",
        ),
    ),
    SeatChoice(
        id=TEAM_CHOICE,
        names=Text(fr="Équipe", en="Team"),
        values=[
            ChoiceValue(id=t, names=Text(fr=f"Équipe {t}", en=f"Team {t}"), emoji=TEAM_EMOJI.get(t))
            for t in TEAM_IDS
        ],
        host_only=True,
        modes=[TEAM],
        when={"config": [LOBBY]},
        help=Text(
            fr="L'hôte compose les équipes, de tailles prévues par le livret.",
            en="The host composes the teams, sized as the book's configurations.",
        ),
    ),
]
"""Per-seat lobby choices (§2 Attribution): the fighter, and in Team Spirit the team."""


class UltimateWarriorz(Game[UWState, UWView]):
    info = GameInfo(
        id="ultimate-warriorz",
        names=Text(fr="Ultimate Warriorz", en="Ultimate Warriorz"),
        min_players=2,
        max_players=8,
        modes=[
            ModeInfo(
                id=TRIBAL,
                names=Text(fr="Tribal Rumble", en="Tribal Rumble"),
                player_counts=PLAYER_COUNTS[TRIBAL],
                summary=Text(
                    fr="Chacun pour soi, un combattant par joueur (3 à 8).",
                    en="Every fighter for itself, one fighter per person (3 to 8).",
                ),
            ),
            ModeInfo(
                id=TEAM,
                names=Text(fr="Team Spirit", en="Team Spirit"),
                player_counts=PLAYER_COUNTS[TEAM],
                summary=Text(
                    fr="Par équipes, selon les configurations du livret (ou vos équipes).",
                    en="In teams, as the book's configurations (or your own teams).",
                ),
            ),
        ],
        options=[
            OptionSpec(
                id="fighters",
                names=Text(fr="Attribution des combattants", en="Fighters"),
                type="choice",
                default=LOBBY,
                choices=[
                    ("random", Text(fr="Tirés au hasard", en="Dealt at random")),
                    ("choose", Text(fr="Choisis à tour de rôle", en="Chosen in turn")),
                    (
                        LOBBY,
                        Text(
                            fr="Choisis avant la partie (les autres au hasard)",
                            en="Chosen before the match (the others at random)",
                        ),
                    ),
                ],
            ),
            OptionSpec(
                id="config",
                names=Text(fr="Configuration Team Spirit", en="Team Spirit configuration"),
                type="choice",
                default="1",
                choices=CONFIG_CHOICES,
            ),
            OptionSpec(
                id="teams",
                names=Text(fr="Équipes de l'hôte", en="Host's teams"),
                type="text",
                default=None,
                help=Text(
                    fr="Team Spirit : vos équipes, ex. « agaric+baobab vs cactus+sorgho ».",
                    en="Team Spirit: your own teams, e.g. 'agaric+baobab vs cactus+sorgho'.",
                ),
            ),
            OptionSpec(
                id="cards",
                names=Text(fr="Fichier de cartes", en="Card file"),
                type="path",
                default=None,
                help=Text(
                    fr="Valeurs des cartes (TOML ou JSON). Par défaut : valeurs écrites par le projet, pas celles de l'éditeur.",
                    en="Card values (TOML or JSON). Default: values written by this project, not the publisher's.",
                ),
            ),
            OptionSpec(
                id="card_data",
                names=Text(fr="Cartes envoyées", en="Uploaded cards"),
                type="text",
                default=None,
                upload_for="cards",
                help=Text(
                    fr="Le contenu d'un fichier de cartes (TOML ou JSON, 64 Kio au plus), validé comme l'option « cards » ; il l'emporte sur elle.",
                    en="The content of a card file (TOML or JSON, 64 KiB at most), validated like option 'cards', which it overrides.",
                ),
            ),
        ],
        seat_choices=SEAT_CHOICES,
        summary=_with_specials(SUMMARY),
        stats=STATS,
        ai_levels=[
            standard_level(
                id=HARD,
                summary=Text(
                    fr="Choisit sa carte selon le terrain, planifie son chemin avant de frapper, "
                    "court après les PP et les éliminations qui comptent.",
                    en="Picks its card for the board, plans its path before striking, "
                    "chases PP and the eliminations that count.",
                ),
            ),
            standard_level(
                id=MEDIUM,
                summary=Text(
                    fr="Vise les premières blessures, garde ses bottes pour le bon moment.",
                    en="Goes for first wounds, keeps its specials for the right moment.",
                ),
            ),
            standard_level(
                id=EASY,
                summary=Text(
                    fr="Joue au hasard parmi les coups permis.", en="Plays random legal moves."
                ),
            ),
        ],
    )

    state_model = UWState

    def setup(self, seats: list[SeatSpec], mode: str, options: dict[str, Any], ctx: Ctx) -> UWState:
        return rules.setup_state(seats, mode, options, ctx)

    def pending(self, state: UWState) -> list[Decision]:
        return rules.pending(state)

    def apply(self, state: UWState, answer: Answer, ctx: Ctx) -> None:
        rules.apply(state, answer, ctx)

    def view(self, state: UWState, seat: int | None) -> UWView:
        return build_view(state, seat)

    def outcome(self, state: UWState) -> Outcome | None:
        if state.phase != "over":
            return None
        return Outcome(
            winners=list(state.result_winners),
            reason=state.result_text or Text(fr="Fin", en="End"),
            scores=dict(state.result_scores),
            shared=state.result_shared,
        )

    def dump(self, state: UWState) -> dict[str, Any]:
        """The state's JSON, its cards being the dump kept with the shared model."""
        return CARD_FILE.dump_state(state, "cards")

    def load(self, data: dict[str, Any]) -> UWState:
        """The state, shared with every other live match where it can be (issue 16)."""
        return CARD_FILE.load_state(UWState, data, "cards")

    def copy(self, state: UWState) -> UWState:
        """A copy of what an apply may change; the frozen cards, texts and strings
        are shared (:func:`copy_state`: a deep copy cost most of an apply)."""
        return copy_state(state)

    def round_label(self, state: UWState) -> int:
        return state.round

    def checkpoint(self, events: list[AnyEvent]) -> bool:
        """An image at each round, each reveal, each elimination and each action's end."""
        return any(e.visible_to is None and e.type in CHECKPOINT_EVENTS for e in events)

    def render(self, view: UWView, lang: str = "en", decision: Decision | None = None) -> bytes:
        from bot.games.ultimate_warriorz.render import render_arena

        return render_arena(view, lang, decision)

    def board_text(self, view: UWView, lang: str = "en") -> list[str]:
        """PP, first-wound tokens, trophies, charms and effects in words (issue 12 item 8)."""
        from bot.games.ultimate_warriorz.render import board_lines

        return board_lines(view, lang)

    def ai_choose(
        self, state: UWState, decision: Decision, rnd: random.Random, level: str | None = None
    ) -> Reply:
        """The seat's AI; a human seat's expired charm question is answered "no"."""
        human = decision.seat < len(state.seat_ai) and not state.seat_ai[decision.seat]
        dice: list[int] = []
        defence = 0
        modifier = 0
        ref = decision.args
        if isinstance(ref, RollRef) and state.resolution is not None:
            roll = state.resolution.rolls[ref.roll]
            dice, defence, modifier = list(roll.dice), roll.defence, roll.modifier
        return choose(
            self.view(state, decision.seat),
            decision,
            rnd,
            level,
            human and decision.kind == "charm",
            dice,
            defence,
            modifier,
            _strike_slots(state) if decision.kind == "strike" else [],
        )


def _strike_slots(state: UWState) -> list[StrikeSlot]:
    r = state.resolution
    if r is None or not r.rolls:
        return []
    primary = r.rolls[0]
    attacker = state.fighter(primary.attacker or "baobab")
    out = []
    for i, d in enumerate(primary.dice):
        for fid in r.strike_others:
            t = state.fighter(fid)
            out.append(
                StrikeSlot(
                    qid=f"d{i}-{fid}",
                    die=i,
                    value=d + primary.modifier,
                    target=fid,
                    defence=rules.defence(state, t),
                    enemy=t.team != attacker.team,
                    misses_primary=d + primary.modifier < primary.defence,
                )
            )
    return out
