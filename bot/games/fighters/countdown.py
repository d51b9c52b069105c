"""The initiative countdown: cards are revealed from the highest initiative down.

Mad Arena §2.3 counts down from 6 to 1 (its dragon's initiative follows the
gong, which Mad Arena computes); Ultimate Warriorz §4.2 calls 8 to 1 (its
Electroshock tokens, which push an initiative beyond 8 or below 1, are its
own). In both, fighters called on the same number act by ascending size.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

F = TypeVar("F")


def next_to_act(
    fighters: Iterable[F],
    initiative: Callable[[F], int],
    size: Callable[[F], int],
    *,
    called: int | None = None,
    tiebreak: Callable[[F], str] | None = None,
) -> F | None:
    """Of the fighters still to act, the one with the highest initiative; ties by ascending size.

    ``called`` (the number the countdown has reached) leaves out the fighters
    whose number is not called yet; ``tiebreak`` orders fighters of one size
    (otherwise the first listed acts first).
    """
    ready = [(initiative(f), f) for f in fighters]
    if called is not None:
        ready = [(i, f) for i, f in ready if i >= called]
    if not ready:
        return None
    return min(ready, key=lambda t: (-t[0], size(t[1]), tiebreak(t[1]) if tiebreak else ""))[1]


def count_down(
    count: int, lowest: int, actor_at: Callable[[int], F | None]
) -> tuple[int, F | None]:
    """Call numbers from ``count`` down to ``lowest`` until someone acts.

    Returns the number reached and who acts on it, or ``(lowest, None)`` once
    the count is over and nobody is left: the round ends.
    """
    while True:
        actor = actor_at(count)
        if actor is not None or count <= lowest:
            return count, actor
        count -= 1
