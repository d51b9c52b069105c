"""Where the other fighters are likely to stand when this fighter acts, and what they threaten.

At the pick nobody knows the others' cards, but which cards each may play is
public: its fighter's cards (the card file, shared by every seat) minus its
discard, its used secret move and its card in play. Each candidate is taken as
equally likely. A fighter whose candidate card has a higher initiative
(§2.3; a tie goes to the smaller size) acts first and may move: one movement
point to any adjacent zone, two to any zone the two-move rule allows (§2.4),
uniformly; a netted fighter stays put (its moves only free it), and so does
the dragon. A fighter acting later, or that already acted, is where it stands.
"""

from __future__ import annotations

from collections import defaultdict

from bot.games.mad_arena.arena import adjacent, legal_steps
from bot.games.mad_arena.cards import Card, CardSet
from bot.games.mad_arena.view import FighterView

Spots = list[tuple[int, float]]
"""Zones and the probability of standing there when the fighter acts."""


def candidates(cards: CardSet, f: FighterView) -> list[Card]:
    """The cards ``f`` may play this round (or is playing, once it has picked)."""
    data = cards.fighter(f.id)
    if f.dragon:
        return list(data.cards)
    gone = set(f.discard) | set(f.removed)
    if f.in_play is not None:
        gone.add(f.in_play.id)
    left = [c for c in data.cards if c.id not in gone]
    return left or list(data.cards)


def card_initiative(card: Card, netted: bool, gong: int) -> int:
    """A card's initiative as the countdown calls it (§2.3: the net's -1, the dragon's gong)."""
    base = card.initiative if card.initiative is not None else gong
    return max(1, base - (1 if netted else 0))


def acts_before(other: FighterView, other_init: int, me: FighterView, my_init: int) -> bool:
    """§2.3: higher initiative first; on a tie the smaller fighter first (then the id)."""
    if other_init != my_init:
        return other_init > my_init
    return (other.size, other.id) < (me.size, me.id)


def destinations(zone: int, moves: int, n: int) -> list[int]:
    """Zones a fighter may end on with exactly ``moves`` movement points (§2.4)."""
    ends = {zone}
    for spent in range(moves):
        ends = {z2 for z in ends for z2 in legal_steps(z, zone, moves, moves - spent, n, zone)}
    return sorted(ends)


def spots(
    cards: CardSet,
    f: FighterView,
    me: FighterView,
    my_init: int,
    n: int,
    gong: int,
    phase: str,
) -> Spots:
    """Where ``f`` is likely to stand when ``me`` acts with initiative ``my_init``."""
    if f.acted or f.dragon or f.netted or phase != "pick":
        return [(f.zone, 1.0)]
    cands = candidates(cards, f)
    share = 1.0 / len(cands)
    out: dict[int, float] = defaultdict(float)
    for c in cands:
        if not acts_before(f, card_initiative(c, f.netted, gong), me, my_init) or c.move == 0:
            out[f.zone] += share
            continue
        ends = destinations(f.zone, c.move, n)
        for z in ends:
            out[z] += share / len(ends)
    return sorted(out.items())


def threat(
    cards: CardSet, f: FighterView, target_zone: int, defence: int, n: int, after: float
) -> float:
    """Expected wounds ``f`` deals to a fighter of ``defence`` on ``target_zone`` this round.

    ``after``: the chance ``f`` acts after that fighter settles there. Each
    candidate card's melee reaches the zones it can walk to, its ranged the
    zones next to those; a secret card counts as 3 dice (its computed dice vary).
    """
    cands = candidates(cards, f)
    total = 0.0
    p = max(0.0, min(1.0, (7 - max(1, defence)) / 6))
    for c in cands:
        moves = 0 if f.netted or f.dragon else c.move
        walk = {f.zone}
        for m in range(1, moves + 1):
            walk |= set(destinations(f.zone, m, n))
        melee = 3 if c.secret in ("kamikaze", "terminotaure") else c.melee
        ranged = c.ranged
        if f.dragon:
            melee = c.melee if target_zone == f.zone else 0
            ranged = c.ranged if target_zone != f.zone else 0
        hit = 0.0
        if target_zone in walk:
            hit += melee
        if any(target_zone in adjacent(z, n) for z in walk):
            hit += ranged
        total += hit * p
    return after * total / len(cands)
