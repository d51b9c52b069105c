"""Modes and the fighters' distribution (§2 Attribution, TEAM SPIRIT configurations).

A *lot* is what one person plays: one fighter (Tribal Rumble, 4-8 people in
Team Spirit) or a team of 2-4 fighters (Team Spirit with 2 or 3 people).
Teams are the sides that win together.
"""

from __future__ import annotations

from pydantic import BaseModel

from bot.engine.errors import IllegalDecision
from bot.engine.text import Text
from bot.games.ultimate_warriorz.cards import FIGHTERS

TRIBAL = "tribal-rumble"
TEAM = "team-spirit"

PLAYER_COUNTS: dict[str, list[int]] = {TRIBAL: [3, 4, 5, 6, 7, 8], TEAM: [2, 3, 4, 5, 6, 7, 8]}


class Config(BaseModel):
    """A Team Spirit configuration: the teams, and the lots people get."""

    teams: list[list[str]]
    lots: list[list[str]]


def _c(teams: list[list[str]], per_person: bool) -> Config:
    """``per_person``: each fighter is one person's lot; else each team is one lot."""
    lots = [[f] for t in teams for f in t] if per_person else [list(t) for t in teams]
    return Config(teams=teams, lots=lots)


A, J, B, C, U, S, K, Z = (
    "agaric",
    "jojoba",
    "bonzai",
    "cactus",
    "burdock",
    "sorgho",
    "baobab",
    "zamioculcas",
)

# TEAM SPIRIT, as printed, by number of people: the first is the default.
BOOK_CONFIGS: dict[int, list[Config]] = {
    2: [
        _c([[A, Z], [J, K]], False),
        _c([[B, S], [C, U]], False),
        _c([[A, B, K], [J, U, S]], False),
        _c([[A, B, U, Z], [J, C, S, K]], False),
    ],
    3: [_c([[A, K], [B, S], [C, U]], False)],
    4: [_c([[A, K], [C, S]], True), _c([[U, K], [J, Z]], True)],
    5: [_c([[A, J, B], [C, Z]], True)],
    6: [_c([[A, S], [J, U], [B, C]], True), _c([[A, B, K], [J, U, S]], True)],
    7: [_c([[A, B, C, K], [U, S, Z]], True)],
    8: [_c([[A, B, U, Z], [J, C, S, K]], True)],
}

FIGHTER = "fighter"
"""The seat choice of a fighter in the lobby (``SeatSpec.choices``)."""
TEAM_CHOICE = "team"
"""The seat choice of a team in the lobby, set by the host."""
LOBBY = "lobby"
"""Option value: the teams (``config``) or the fighters (``fighters``) come from the lobby."""

TEAM_IDS = ["1", "2", "3"]
"""The teams a host may compose in the lobby (6 people in pairs need three)."""

CONFIG_CHOICES: list[tuple[str, Text]] = [
    ("1", Text(fr="1re configuration du livret", en="1st configuration of the book")),
    (
        "2",
        Text(fr="2e configuration (2, 4 ou 6 joueurs)", en="2nd configuration (2, 4 or 6 people)"),
    ),
    (
        "3",
        Text(
            fr="3e configuration (2 joueurs : 3 contre 3)",
            en="3rd configuration (2 people: 3 vs 3)",
        ),
    ),
    (
        "4",
        Text(
            fr="4e configuration (2 joueurs : 4 contre 4)",
            en="4th configuration (2 people: 4 vs 4)",
        ),
    ),
    (
        LOBBY,
        Text(
            fr="Équipes composées avant la partie (4 à 8 joueurs)",
            en="Teams composed in the lobby (4 to 8 people)",
        ),
    ),
]


def parse_teams(text: str, people: int) -> Config:
    """Host-composed teams: ``agaric+baobab vs cactus+sorgho`` (one fighter per person when
    the fighters are as many as the people, else one team per person)."""
    sides = [s.strip() for s in text.lower().replace("/", " vs ").split(" vs ")]
    teams = [[f.strip() for f in s.split("+") if f.strip()] for s in sides if s]
    flat = [f for t in teams for f in t]
    bad = [f for f in flat if f not in FIGHTERS]
    if bad or len(set(flat)) != len(flat) or len(teams) < 2 or any(not t for t in teams):
        raise IllegalDecision(
            Text(
                fr=f"Équipes illisibles : « {text} » (ex. agaric+baobab vs cactus+sorgho).",
                en=f"Unreadable teams: '{text}' (e.g. agaric+baobab vs cactus+sorgho).",
            )
        )
    if len(flat) == people:
        return _c(teams, True)
    if len(teams) == people:
        return _c(teams, False)
    raise IllegalDecision(
        Text(
            fr=f"Ces équipes ne conviennent pas à {people} joueurs : un combattant ou une équipe par joueur.",
            en=f"These teams do not fit {people} people: one fighter or one team per person.",
        )
    )


def book_shapes(people: int) -> list[list[int]]:
    """Team sizes the book prints for ``people`` (one fighter each), largest first."""
    shapes: list[list[int]] = []
    for cfg in BOOK_CONFIGS.get(people, []):
        if all(len(lot) == 1 for lot in cfg.lots):
            shape = sorted((len(t) for t in cfg.teams), reverse=True)
            if shape not in shapes:
                shapes.append(shape)
    return shapes


def _shape_text(shape: list[int]) -> str:
    return "+".join(str(n) for n in shape)


def lobby_teams(people: int, teams: list[str | None]) -> list[list[int]]:
    """TEAM SPIRIT with the host's teams: seats grouped by the team each was given in the
    lobby (``teams[seat]``, None: not given), sized as one of the book's configurations
    for that many people. Seats without a team fill the teams with room, in seat order.
    Returns the seats of each team."""
    shapes = book_shapes(people)
    if not shapes:
        raise IllegalDecision(
            Text(
                fr="Les équipes composées avant la partie demandent 4 à 8 joueurs (un combattant chacun) ; "
                "à 2 ou 3 joueurs, choisissez une configuration du livret.",
                en="Teams composed in the lobby need 4 to 8 people (one fighter each); "
                "with 2 or 3 people, pick one of the book's configurations.",
            )
        )
    given = [t for t in TEAM_IDS if t in teams]
    counts = sorted(
        ((teams.count(t), t) for t in given), key=lambda x: (-x[0], TEAM_IDS.index(x[1]))
    )
    for shape in shapes:
        if len(counts) > len(shape) or any(
            n > size for (n, _), size in zip(counts, shape, strict=False)
        ):
            continue
        ids = [t for _, t in counts] + [t for t in TEAM_IDS if t not in given]
        sizes = dict(zip(ids, shape, strict=False))
        members: dict[str, list[int]] = {t: [] for t in ids[: len(shape)]}
        for seat, t in enumerate(teams):
            if t is not None:
                members[t].append(seat)
        for seat, t in enumerate(teams):
            if t is None:
                room = next(x for x in members if len(members[x]) < sizes[x])
                members[room].append(seat)
        return [members[t] for t in members]
    now = _shape_text(sorted((n for n, _ in counts), reverse=True))
    allowed = " / ".join(_shape_text(s) for s in shapes)
    raise IllegalDecision(
        Text(
            fr=f"À {people} joueurs, le livret fait des équipes de {allowed} ; "
            f"vous avez composé {now} (sans compter les places sans équipe).",
            en=f"With {people} people the book's teams are {allowed}; "
            f"the lobby has {now} (not counting seats without a team).",
        )
    )


def team_config(people: int, choice: str, custom: str | None) -> Config:
    """The Team Spirit configuration for ``people`` (host teams win over the book's)."""
    if custom:
        return parse_teams(custom, people)
    configs = BOOK_CONFIGS.get(people, [])
    index = int(choice) - 1 if choice.isdigit() else 0
    if not 0 <= index < len(configs):
        raise IllegalDecision(
            Text(
                fr=f"Le livret n'a pas de configuration {choice} à {people} joueurs "
                f"(il en a {len(configs)}).",
                en=f"The book has no configuration {choice} for {people} people "
                f"(it has {len(configs)}).",
            )
        )
    return configs[index]


def tribal_config() -> Config:
    """Tribal Rumble: every fighter is a lot of its own, each its own team."""
    return Config(teams=[[f] for f in FIGHTERS], lots=[[f] for f in FIGHTERS])
