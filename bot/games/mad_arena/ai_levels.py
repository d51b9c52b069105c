"""Mad Arena's AI levels: what each one looks at (``GameInfo.ai_levels``, the default first)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.text import Text
from bot.engine.vocabulary import standard_level

EASY = "easy"
MEDIUM = "medium"
HARD = "hard"


@dataclass(frozen=True)
class Style:
    """The knobs of one level; every level plans its secret move with the refill rule."""

    noise: float
    """Random spread added to each card's value at the pick (from the engine's ``rnd``)."""
    foresight: bool
    """Weigh every attack by where its target is likely to stand when the fighter acts
    (who acts before, with which cards and moves), not only the secret move."""
    caution: float
    """Weight of the wounds the fighter risks where it ends its action (0: ignored)."""
    defence: float
    """Weight of the chosen card's defence when wounded."""
    endgame: bool
    """Aim for the centre and trophies in the last rounds (the points after round 12)."""
    spoils: bool
    """Value a kill by the trophies it takes (the victim's size and its own trophies)."""
    aim: float
    """Random spread on each target's value (0: always the best target)."""


STYLES: dict[str, Style] = {
    EASY: Style(
        noise=2.5,
        foresight=False,
        caution=0.0,
        defence=0.0,
        endgame=False,
        spoils=False,
        aim=1.6,
    ),
    MEDIUM: Style(
        noise=0.2,
        foresight=False,
        caution=0.3,
        defence=1.0,
        endgame=True,
        spoils=False,
        aim=0.0,
    ),
    HARD: Style(
        noise=0.05,
        foresight=True,
        caution=0.8,
        defence=1.0,
        endgame=True,
        spoils=True,
        aim=0.0,
    ),
}

DEFAULT = HARD


def style(level: str | None) -> Style:
    """The style of ``level``; an unknown or missing level plays the default."""
    return STYLES.get(level or DEFAULT, STYLES[DEFAULT])


AI_LEVELS = [
    standard_level(
        id=HARD,
        summary=Text(
            fr="Prévoit où seront les adversaires quand il agira, garde sa botte secrète pour un coup sûr et se met à l'abri blessé.",
            en="Foresees where its adversaries will stand when it acts, keeps its secret move for a sure blow and takes cover when wounded.",
        ),
        process=True,
    ),
    standard_level(
        id=MEDIUM,
        summary=Text(
            fr="Vise les coups les plus rentables sur l'arène telle qu'elle est et ne gâche pas sa botte secrète.",
            en="Goes for the most rewarding blows on the arena as it stands and does not waste its secret move.",
        ),
    ),
    standard_level(
        id=EASY,
        summary=Text(
            fr="Attaque ce qui passe à sa portée, choisit ses cartes un peu au hasard.",
            en="Attacks whatever comes within reach and picks its cards somewhat at random.",
        ),
    ),
]
"""The levels the lobby offers, the default (``hard``, well under 1 s a decision) first.
``hard`` foresees every adversary's reach: 2.6 ms of CPU a decision at the median, 15 ms
at the 95th percentile, up to 19 ms, on a slow moment of the 2-core machine (``medium``
and ``easy``: 0.8-1.2 ms, at most 6); so it thinks in a worker process (``process``,
:mod:`bot.gm.thinking`), off the interpreter lock the event loop needs, for the 0.3 ms
it costs the loop to send the state there (issue 16 item 2)."""
