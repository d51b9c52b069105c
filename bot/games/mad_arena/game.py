"""The Mad Arena game object: the engine contract wired to the rules modules."""

from __future__ import annotations

import random
from typing import Any

from bot.engine.copying import copy_state
from bot.engine.decisions import Answer, Choice, Decision
from bot.engine.events import AnyEvent
from bot.engine.game import Ctx, Game, GameInfo, ModeInfo, OptionSpec, Outcome, Reply, SeatSpec
from bot.engine.text import Text
from bot.engine.vocabulary import StatInfo
from bot.games.mad_arena import rules
from bot.games.mad_arena.ai import choose
from bot.games.mad_arena.ai_levels import AI_LEVELS
from bot.games.mad_arena.modes import BROTHERS, PLAYER_COUNTS, TEAM, ULTIMATE
from bot.games.mad_arena.state import MAState
from bot.games.mad_arena.view import MAView, build_view

_STATE_FIELDS = set(MAState.model_fields)
"""Every field of a copied state is given: one set for all copies, as a loaded state's."""

CHECKPOINT_EVENTS = {"countdown", "reveal", "action-end", "game-over"}

STATS = [
    StatInfo(key="initiative", symbol="⚡", names=Text(fr="initiative", en="initiative")),
    StatInfo(key="move", symbol="👣", names=Text(fr="déplacement", en="move")),
    StatInfo(key="melee", symbol="⚔️", names=Text(fr="mêlée", en="melee")),
    StatInfo(key="ranged", symbol="🏹", names=Text(fr="distance", en="ranged")),
    StatInfo(key="defence", symbol="🛡️", names=Text(fr="défense", en="defence")),
    StatInfo(key="dice", symbol="🎲", names=Text(fr="dés", en="dice")),
    StatInfo(key="hp", symbol="❤️", names=Text(fr="PV", en="HP")),
]
"""The stats Mad Arena's buttons show: a card's values, an attack's dice and its target."""

STAT_VALUES = {"gong": Text(fr="gong", en="gong")}
"""The dragon's card has no printed initiative: the gong gives it."""


class MadArena(Game[MAState, MAView]):
    info = GameInfo(
        id="mad-arena",
        names=Text(fr="Mad Arena", en="Mad Arena"),
        min_players=2,
        max_players=7,
        modes=[
            ModeInfo(
                id=ULTIMATE,
                names=Text(fr="Ultimate Warrior", en="Ultimate Warrior"),
                player_counts=PLAYER_COUNTS[ULTIMATE],
                summary=Text(
                    fr="Chacun pour soi, un combattant tiré au hasard par joueur.",
                    en="Every fighter for itself, one random fighter per player.",
                ),
            ),
            ModeInfo(
                id=TEAM,
                names=Text(fr="Team Spirit", en="Team Spirit"),
                player_counts=PLAYER_COUNTS[TEAM],
                summary=Text(
                    fr="Agaric, Cactus, Baobab contre Bonzaï, Sorgho, Burdock (2 joueurs x 3 combattants, ou 6).",
                    en="Agaric, Cactus, Baobab vs Bonzaï, Sorgho, Burdock (2 players x 3 fighters, or 6).",
                ),
            ),
            ModeInfo(
                id=BROTHERS,
                names=Text(fr="Brothers in arms", en="Brothers in arms"),
                player_counts=PLAYER_COUNTS[BROTHERS],
                summary=Text(
                    fr="Paires Agaric-Baobab, Bonzaï-Burdock, Cactus-Sorgho (3 x 2 combattants, 4 ou 6).",
                    en="Pairs Agaric-Baobab, Bonzaï-Burdock, Cactus-Sorgho (3 x 2 fighters, 4 or 6).",
                ),
            ),
        ],
        options=[
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
                upload_for="cards",
                default=None,
                help=Text(
                    fr="Le contenu d'un fichier de cartes (TOML ou JSON, 64 Kio au plus), validé comme l'option « cards » ; il l'emporte sur elle.",
                    en="The content of a card file (TOML or JSON, 64 KiB at most), validated like option 'cards', which it overrides.",
                ),
            ),
            OptionSpec(
                id="dragon_gong",
                names=Text(fr="Couleur du gong au round 1", en="Gong colour in round 1"),
                type="choice",
                default="blue",
                choices=[
                    (
                        "blue",
                        Text(fr="Bleu (dragon initiative 3)", en="Blue (dragon initiative 3)"),
                    ),
                    ("red", Text(fr="Rouge (dragon initiative 4)", en="Red (dragon initiative 4)")),
                ],
            ),
        ],
        summary=Text(
            fr=(
                "Mad Arena : 12 rounds de combat au plus. Chaque round, chaque combattant (sauf le dragon) choisit "
                "en secret une carte Action ; compte à rebours d'initiative de 6 à 1 (égalité : le plus petit d'abord). "
                "En agissant : mouvements obligatoires et exacts (2 mouvements : jamais de retour à la zone de départ), "
                "combat (même zone) et tir (zone voisine) facultatifs, avant, entre ou après les mouvements. Chaque dé "
                ">= la défense de la cible lui ôte 1 PV. Bottes secrètes une fois par partie. Victoire : dernier "
                "combattant/équipe debout, sinon aux points (tailles des trophées, +3 au centre). Les valeurs des cartes "
                "par défaut sont écrites par le projet, pas celles de l'éditeur (option « cards » pour charger les vôtres)."
            ),
            en=(
                "Mad Arena: at most 12 rounds. Each round every fighter (but the dragon) secretly picks an action card; "
                "initiative countdown 6 to 1 (ties: smaller first). When acting: exact mandatory moves (2 moves never "
                "return to the start zone), optional melee (same zone) and ranged (adjacent zone) attacks before, "
                "between or after moves. Each die >= the target's defence removes 1 HP. Secret moves once per game. "
                "Victory: last fighter/team standing, else points (trophy sizes, +3 in the centre). The default card "
                "values are written by this project, not the publisher's (option 'cards' loads yours)."
            ),
        ),
        stats=STATS,
        stat_values=STAT_VALUES,
        ai_levels=AI_LEVELS,
    )

    state_model = MAState

    def setup(self, seats: list[SeatSpec], mode: str, options: dict[str, Any], ctx: Ctx) -> MAState:
        return rules.setup_state(seats, mode, options, ctx)

    def pending(self, state: MAState) -> list[Decision]:
        return rules.pending(state)

    def apply(self, state: MAState, answer: Answer, ctx: Ctx) -> None:
        rules.apply(state, answer, ctx)

    def view(self, state: MAState, seat: int | None) -> MAView:
        return build_view(state, seat)

    def outcome(self, state: MAState) -> Outcome | None:
        if state.phase != "over":
            return None
        return Outcome(
            winners=list(state.result_winners),
            reason=state.result_text or Text(fr="Fin", en="End"),
            scores=dict(state.result_scores),
            shared=state.result_shared,
        )

    def copy(self, state: MAState) -> MAState:
        """A copy of what an apply may change, rebuilt by :func:`copy_state` (a deep copy
        cost most of an apply); the card set, shared between matches and never changed,
        is shared, not copied."""
        fields = {k: v if k == "cards" else copy_state(v) for k, v in state.__dict__.items()}
        return MAState.model_construct(_STATE_FIELDS, **fields)

    def round_label(self, state: MAState) -> int:
        return state.round

    def checkpoint(self, events: list[AnyEvent]) -> bool:
        """An image after the countdown starts, each reveal and each fighter's action, not every step."""
        return any(e.visible_to is None and e.type in CHECKPOINT_EVENTS for e in events)

    def render(self, view: MAView, lang: str = "en", decision: Decision | None = None) -> bytes:
        from bot.games.mad_arena.render import render_arena

        return render_arena(view, lang, decision)

    def board_text(self, view: MAView, lang: str = "en") -> list[str]:
        """Players, teams, trophies and the legend: what the phone-sized image leaves out."""
        from bot.games.mad_arena.render import board_lines

        return board_lines(view, lang)

    def ai_choose(
        self, state: MAState, decision: Decision, rnd: random.Random, level: str | None = None
    ) -> Reply:
        return choose(self.view(state, decision.seat), decision, rnd, level, state.cards)

    def upgrade_choice(
        self, state: MAState, pending: list[Decision], held: list[Choice]
    ) -> Choice | None:
        """Older logs' strike order and dragon split, one step per fighter, as one answer."""
        return rules.upgrade_choice(pending, held)
