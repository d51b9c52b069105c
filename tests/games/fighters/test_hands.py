"""Hands: the secret pick, the card in play replaced, the refill rule.

Mad Arena §2.4: « cela revient à défausser sa carte déjà en jeu et à placer sa nouvelle
carte »; §2.2: « Si un joueur n'a plus de carte « Action » [...] il récupère en main
toutes ses cartes défaussées (à l'exception de sa botte secrète) ».
Ultimate Warriorz §4.3: « recouvrir sa précédente carte Action [...] par celle choisie
pour ce round, qui devient sa nouvelle carte active »; §4.4: « celles empilées devant
lui ne peuvent plus être utilisées ».
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from bot.games.fighters.hands import NoRefill, TakeBackDiscard, replace, reveal


@dataclass
class Holder:
    hand: list[str] = field(default_factory=list)
    pick: str | None = None


def test_reveal_takes_the_pick_out_of_the_hand_when_it_waited_there() -> None:
    h = Holder(hand=["a", "b"], pick="b")
    assert reveal(h, in_hand=True) == "b"
    assert h.hand == ["a"] and h.pick is None


def test_reveal_of_a_pick_already_out_of_the_hand() -> None:
    h = Holder(hand=["a"], pick="b")
    assert reveal(h, in_hand=False) == "b"
    assert h.hand == ["a"] and h.pick is None


def test_reveal_needs_a_pick() -> None:
    with pytest.raises(AssertionError):
        reveal(Holder(hand=["a"]), in_hand=True)


def test_the_covered_card_leaves_only_when_replaced() -> None:
    discard: list[str] = []
    in_play = replace(None, "a", discard.append)
    assert in_play == "a" and discard == []
    in_play = replace(in_play, "b", discard.append)
    assert in_play == "b" and discard == ["a"]


def test_mad_arena_an_empty_hand_takes_its_discard_back() -> None:
    rule = TakeBackDiscard()
    assert rule.refill([], ["a", "b"]) == ["a", "b"]
    assert rule.refill(["c"], ["a", "b"]) is None


def test_ultimate_warriorz_never_refills() -> None:
    assert NoRefill().refill([], ["a", "b"]) is None
