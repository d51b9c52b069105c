"""The initiative countdown, ties by ascending size.

Mad Arena §2.3: « Si plusieurs joueurs ont la même initiative, leurs combattants passent
à l'action l'un après l'autre par ordre croissant de taille. »
Ultimate Warriorz §4.2: « un compte à rebours allant de 8 à 1 [...] Si plusieurs joueurs
ont la même initiative, ils passent à l'action dans l'ordre croissant de leur taille »
(« Cactus et Jojoba ont la même initiative, mais Jojoba agit avant car il est le plus
petit avec une taille de 6 contre 8 pour Cactus »).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.fighters.countdown import count_down, next_to_act


@dataclass
class F:
    id: str
    ini: int
    size: int


def first(fs: list[F], called: int | None = None, by_id: bool = False) -> F | None:
    return next_to_act(
        fs,
        lambda f: f.ini,
        lambda f: f.size,
        called=called,
        tiebreak=(lambda f: f.id) if by_id else None,
    )


def test_highest_initiative_acts_first() -> None:
    fs = [F("a", 3, 6), F("b", 5, 12), F("c", 4, 6)]
    assert first(fs) is fs[1]


def test_jojoba_acts_before_cactus_on_the_same_initiative() -> None:
    cactus, jojoba = F("cactus", 5, 8), F("jojoba", 5, 6)
    assert first([cactus, jojoba]) is jojoba


def test_same_size_ties_follow_the_tiebreak_or_the_listing() -> None:
    a, b = F("b", 4, 8), F("a", 4, 8)
    assert first([a, b]) is a
    assert first([a, b], by_id=True) is b


def test_only_called_numbers_act() -> None:
    fs = [F("a", 3, 6), F("b", 2, 6)]
    assert first(fs, called=4) is None
    assert first(fs, called=3) is fs[0]
    assert first([], called=1) is None


def test_the_count_goes_down_until_someone_acts() -> None:
    fs = [F("a", 3, 6)]
    assert count_down(6, 1, lambda n: first(fs, called=n)) == (3, fs[0])


def test_the_count_ends_at_the_lowest_number_when_nobody_is_left() -> None:
    seen: list[int] = []

    def at(n: int) -> F | None:
        seen.append(n)
        return None

    assert count_down(8, 1, at) == (1, None)
    assert seen == [8, 7, 6, 5, 4, 3, 2, 1]
