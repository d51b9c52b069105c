"""The Madsteam game object: the engine contract wired to the rules modules."""

from __future__ import annotations

import random
from typing import Any

from bot.engine.copying import copy_state
from bot.engine.decisions import Answer, Decision
from bot.engine.events import AnyEvent
from bot.engine.game import Ctx, Game, GameInfo, ModeInfo, OptionSpec, Outcome, Reply, SeatSpec
from bot.engine.text import Text
from bot.engine.vocabulary import StatInfo, standard_level
from bot.games.madsteam import rules
from bot.games.madsteam.ai import choose
from bot.games.madsteam.data import DATA_FILE
from bot.games.madsteam.state import MSState
from bot.games.madsteam.view import MSView, build_view

CHECKPOINT_EVENTS = {"round", "move", "shelter", "game-over"}


class Madsteam(Game[MSState, MSView]):
    info = GameInfo(
        id="madsteam",
        names=Text(fr="Madsteam", en="Madsteam"),
        min_players=2,
        max_players=4,
        modes=[
            ModeInfo(
                id="standard",
                names=Text(fr="Partie standard", en="Standard game"),
                player_counts=[2, 3, 4],
                summary=Text(
                    fr="6 tours de pose d'ouvriers et de survie, 2 à 4 clans.",
                    en="6 rounds of worker placement and survival, 2 to 4 clans.",
                ),
            )
        ],
        options=[
            OptionSpec(
                id="data",
                names=Text(fr="Fichier de données", en="Data file"),
                type="path",
                default=None,
                help=Text(
                    fr="Objets, gibiers, événements, fouilles, abris (TOML ou JSON). Par défaut : valeurs écrites par le projet, pas celles de l'éditeur.",
                    en="Objects, gibier, events, search cards, shelters (TOML or JSON). Default: values written by this project, not the publisher's.",
                ),
            ),
            OptionSpec(
                id="data_text",
                names=Text(fr="Données envoyées", en="Uploaded data"),
                type="text",
                upload_for="data",
                default=None,
                help=Text(
                    fr="Le contenu d'un fichier de données (64 Kio au plus), validé comme l'option « data » ; il l'emporte sur elle.",
                    en="The content of a data file (64 KiB at most), validated like option 'data', which it overrides.",
                ),
            ),
        ],
        summary=Text(
            fr=(
                "Madsteam : 6 tours. Événements (un par tour aux tours 1-5, cumulés tant qu'ils ne sont pas "
                "résolus), récolte (chacun à son tour relève un héros, le déplace de 1-2 lieux sans rester ni "
                "rejoindre un des siens, pression sur les héros debout plus faibles, puis action du lieu : puits "
                "pour 1 puce, forêt/mine/usine/armurerie, maisons, supermarché, chasse), abri (nourrir avec au "
                "moins 1 eau, recruter, réparer, résoudre un événement, confort). Points : survivants plafonnés "
                "par le confort, événements, objets réparés, symboles complets. Cartes écrites par le projet "
                "(option « data » pour les vôtres)."
            ),
            en=(
                "Madsteam: 6 rounds. Events (one in each of rounds 1-5, adding up until resolved), harvest (in "
                "turn, stand one hero up and move it 1-2 places, never staying nor joining your own, pressure "
                "on weaker standing heroes, then the place's action: the well for 1 chip, forest/mine/factory/"
                "armoury, houses, supermarket, hunting), shelter (feed with at least 1 water, recruit, repair, "
                "resolve an event, comfort). Points: survivors capped by comfort, events, repaired objects, "
                "complete symbols. Card values written by this project (option 'data' loads yours)."
            ),
        ),
        stats=[
            StatInfo(key="strength", symbol="💪", names=Text(fr="force", en="strength")),
            StatInfo(key="food", symbol="🍖", names=Text(fr="nourriture", en="food")),
            StatInfo(
                key="points", symbol="⭐", names=Text(fr="points de survie", en="survival points")
            ),
        ],
        # hard and medium weigh every move against the shelter's needs: 0.8-0.9 ms of CPU a
        # decision at the median but 15-16 ms at the 95th percentile (up to 22), on a slow
        # moment of the 2-core machine (easy: at most 1.4 ms); so they think in a worker
        # process, off the interpreter lock the event loop needs (issue 16 item 2).
        ai_levels=[
            standard_level(
                id="hard",
                summary=Text(
                    fr="Planifie ses héros, la nourriture, le recrutement jusqu'au confort, "
                    "les réparations et les événements.",
                    en="Plans its heroes, food, recruiting up to its comfort, repairs and events.",
                ),
                process=True,
            ),
            standard_level(
                id="medium",
                summary=Text(
                    fr="Pèse chaque coup selon les besoins de l'abri, recrute prudemment.",
                    en="Weighs each move by the shelter's needs, recruits cautiously.",
                ),
                process=True,
            ),
            standard_level(
                id="easy",
                summary=Text(
                    fr="Déplace ses héros au hasard, répond au reste au plus simple.",
                    en="Moves its heroes at random, answers the rest the simple way.",
                ),
            ),
        ],
    )

    state_model = MSState

    def setup(self, seats: list[SeatSpec], mode: str, options: dict[str, Any], ctx: Ctx) -> MSState:
        state = rules.setup_state(seats, options, ctx)
        rules.advance(state, ctx)
        return state

    def pending(self, state: MSState) -> list[Decision]:
        return rules.pending(state)

    def apply(self, state: MSState, answer: Answer, ctx: Ctx) -> None:
        rules.apply(state, answer, ctx)

    def view(self, state: MSState, seat: int | None) -> MSView:
        return build_view(state, seat)

    def outcome(self, state: MSState) -> Outcome | None:
        if state.phase != "over":
            return None
        names = " & ".join(state.players[i].name for i in state.winners)
        return Outcome(
            winners=list(state.winners),
            reason=Text(
                fr=f"Plus de points de survie : {names}.", en=f"Most survival points: {names}."
            ),
            scores={i: float(s) for i, s in state.scores.items()},
            shared=state.shared,
        )

    def dump(self, state: MSState) -> dict[str, Any]:
        """The state's JSON, its data being the dump kept with the shared model."""
        return DATA_FILE.dump_state(state, "data")

    def load(self, data: dict[str, Any]) -> MSState:
        """The state, shared with every other live match where it can be (issue 16)."""
        return DATA_FILE.load_state(MSState, data, "data")

    def copy(self, state: MSState) -> MSState:
        """A copy of what an apply may change; the frozen data, texts and strings
        are shared (:func:`copy_state`: a deep copy cost most of an apply)."""
        return copy_state(state)

    def round_label(self, state: MSState) -> int:
        return state.round

    def checkpoint(self, events: list[AnyEvent]) -> bool:
        return any(e.visible_to is None and e.type in CHECKPOINT_EVENTS for e in events)

    def render(self, view: MSView, lang: str = "en", decision: Decision | None = None) -> bytes:
        from bot.games.madsteam.render import render_view

        return render_view(view, lang, decision)

    def board_text(self, view: MSView, lang: str = "en") -> list[str]:
        """Events, set-aside search cards, resources and objects' effects in words."""
        from bot.games.madsteam.render import board_lines

        return board_lines(view, lang)

    def ai_choose(
        self, state: MSState, decision: Decision, rnd: random.Random, level: str | None = None
    ) -> Reply:
        return choose(self.view(state, decision.seat), decision, rnd, level or "hard")
