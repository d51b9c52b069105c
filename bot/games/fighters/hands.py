"""Hands of action cards: the secret pick, the card in play, the refill rule.

Both books: each round a card is picked secretly from the hand and revealed
when its initiative is called; it then covers the card in play, which stays in
play until replaced and only then goes to the discard (Mad Arena §2.4,
Ultimate Warriorz §4.3). What happens to an empty hand is the book's rule
(:class:`RefillRule`): Mad Arena §2.2 takes the discard back (used secret moves
stay out of the game), Ultimate Warriorz plays every card once and never refills.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol


class Picker(Protocol):
    """A fighter with a hand and this round's secret pick."""

    hand: list[str]
    pick: str | None


def reveal(fighter: Picker, *, in_hand: bool) -> str:
    """The picked card is revealed and leaves the pick (and the hand, if it waited there)."""
    card = fighter.pick
    assert card is not None, "nothing was picked"
    fighter.pick = None
    if in_hand:
        fighter.hand.remove(card)
    return card


def replace(in_play: str | None, card: str, leave: Callable[[str], None]) -> str:
    """``card`` goes into play; the card it covers (if any) is handed to ``leave``.

    ``leave`` puts the replaced card where the book says: the discard, or out
    of the game for a used secret move (Mad Arena, Bottes secrètes).
    """
    if in_play is not None:
        leave(in_play)
    return card


class RefillRule(Protocol):
    """What an empty hand does at the start of a round."""

    def refill(self, hand: list[str], discard: list[str]) -> list[str] | None:
        """The cards the hand takes back now, or None when it takes nothing."""
        ...


@dataclass(frozen=True)
class TakeBackDiscard:
    """Mad Arena §2.2: a fighter with no card left takes its whole discard back in hand."""

    def refill(self, hand: list[str], discard: list[str]) -> list[str] | None:
        return list(discard) if not hand else None


@dataclass(frozen=True)
class NoRefill:
    """Ultimate Warriorz §4: each action card is played once in the match; no refill."""

    def refill(self, hand: list[str], discard: list[str]) -> list[str] | None:
        return None
