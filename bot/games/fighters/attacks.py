"""An attack: roll -> optional reaction window -> resolution.

Both books (Mad Arena §2.4 Combat/Tir, Ultimate Warriorz "Résolution d'un
combat"): each attack die, plus its modifier, that reaches the target's
defence wounds it by 1 HP. Ultimate Warriorz opens a window after the roll for
the defender's lucky charm (PORTE-BONHEUR), so its resolution waits for an
answer; Mad Arena has no reaction, its window is always closed and the attack
resolves at once. How wounds are applied (trophies, PP, eliminations) is the
game's, through a callback.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

T_contra = TypeVar("T_contra", contravariant=True)
T = TypeVar("T")
R = TypeVar("R")


def count_hits(dice: Sequence[int], defence: int, modifier: int = 0) -> int:
    """Each die plus ``modifier`` at least equal to ``defence`` is one hit."""
    return sum(1 for d in dice if d + modifier >= defence)


def wounds_taken(hp: int, hits: int) -> int:
    """The HP actually lost: one per hit, never more than the fighter has."""
    return max(0, min(hits, hp))


class ReactionWindow(Protocol[T_contra]):
    """Whether the target of a roll may react to it before it is resolved."""

    def opens(self, target: T_contra, dice: Sequence[int]) -> bool: ...


@dataclass(frozen=True)
class Closed(Generic[T]):
    """No reaction in this book (Mad Arena): every attack resolves at once."""

    def opens(self, target: T, dice: Sequence[int]) -> bool:
        return False


def resolve(dice: Sequence[int], defence: int, wound: Callable[[int], R], modifier: int = 0) -> R:
    """Count the hits against ``defence`` and apply them through ``wound(hits)``."""
    return wound(count_hits(dice, defence, modifier))


def attack(
    target: T,
    dice: Sequence[int],
    defence: int,
    window: ReactionWindow[T],
    wound: Callable[[int], R],
    modifier: int = 0,
) -> R | None:
    """After the roll: resolve now, or return None when the window opens for a reaction.

    A paused attack is resolved later with :func:`resolve`, on the dice as the
    reaction left them.
    """
    if window.opens(target, dice):
        return None
    return resolve(dice, defence, wound, modifier)
