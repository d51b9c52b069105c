"""An attack: roll -> optional reaction window -> resolution.

Mad Arena §2.4 Combat: « Pour chaque résultat de dé supérieur ou égal à ce chiffre, la
cible perd 1 point de vie. »
Ultimate Warriorz « Résolution d'un combat »: « Chaque résultat de dé supérieur ou égal à
cette valeur occasionne 1 blessure à la cible »; Tir lointain: « il enlève 1 au résultat
de chacun de ses dés »; PORTE-BONHEUR: « lorsqu'il subit une attaque : soit « retourner »
[...] un dé d'attaque adverse [...] soit faire relancer jusqu'à 3 dés ».
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.fighters.attacks import Closed, attack, count_hits, resolve, wounds_taken


def test_each_die_reaching_the_defence_is_a_hit() -> None:
    assert count_hits([6, 4, 3, 1], 4) == 2
    assert count_hits([], 1) == 0


def test_a_modifier_applies_to_every_die() -> None:
    assert count_hits([5, 4, 3], 4, modifier=-1) == 1  # UW: long shot
    assert count_hits([5, 4, 3], 4, modifier=+1) == 3


def test_wounds_never_exceed_the_hp_left() -> None:
    assert wounds_taken(5, 2) == 2
    assert wounds_taken(1, 3) == 1
    assert wounds_taken(4, 0) == 0


def test_a_closed_window_resolves_at_once_through_the_callback() -> None:
    wounded: list[int] = []

    def wound(hits: int) -> int:
        wounded.append(hits)
        return hits

    closed: Closed[str] = Closed()
    assert attack("cactus", [6, 2, 5], 5, closed, wound) == 2
    assert wounded == [2]


@dataclass
class Target:
    charm: bool


@dataclass(frozen=True)
class Charm:
    def opens(self, target: Target, dice: Sequence[int]) -> bool:
        return target.charm and bool(dice)


def test_an_open_window_pauses_until_the_reaction_then_resolves_on_the_new_dice() -> None:
    wounded: list[int] = []
    dice = [6, 6, 2]
    assert attack(Target(charm=True), dice, 4, Charm(), wounded.append) is None
    assert wounded == []
    dice[0] = 7 - dice[0]  # the defender flips a 6 into a 1
    resolve(dice, 4, wounded.append)
    assert wounded == [1]


def test_the_window_stays_closed_without_the_charm() -> None:
    wounded: list[int] = []
    attack(Target(charm=False), [6, 6, 2], 4, Charm(), wounded.append)
    assert wounded == [2]
