"""The fighters kit's ring of zones and its two movement rules.

Mad Arena §1/§2.4 « Mouvement »: « une zone de combat voisine, c'est à dire soit
située immédiatement à gauche ou à droite [...] ou au centre de l'arène [...], soit
sur n'importe quelle zone périphérique s'il se trouve sur la zone centrale »; « si
son combattant doit effectuer deux mouvements [...] il doit impérativement finir son
déplacement sur une zone de combat différente de celle où il se trouvait au début
de ce round ».
Ultimate Warriorz « ZONES DE COMBAT »: « 6 zones périphériques et une grande zone
centrale »; §4.3 « MOUVEMENT »: « Un combattant ne peut pas revenir sur une Zone où
il se trouvait déjà ce round. Un joueur est obligé d'effectuer le nombre exact de
mouvements indiqué sur sa carte. » Tir lointain: « une cible qui se trouve à 2 Zones ».
"""

from __future__ import annotations

from bot.games.fighters.zones import ExactNoRevisit, Ring, Steps, UpToTwoElsewhere, legal_steps


def test_a_peripheral_zone_touches_its_ring_neighbours_and_the_centre() -> None:
    ring = Ring(5)
    assert ring.centre == 5
    assert ring.adjacent(0) == [4, 1, 5]
    assert ring.adjacent(3) == [2, 4, 5]


def test_the_centre_touches_every_peripheral_zone() -> None:
    assert Ring(6).adjacent(6) == [0, 1, 2, 3, 4, 5]
    assert Ring(6).zones == [0, 1, 2, 3, 4, 5, 6]


def test_a_small_ring_lists_each_neighbour_once() -> None:
    assert Ring(2).adjacent(0) == [1, 2]
    assert Ring(1).adjacent(0) == [1]


def test_distance_is_zero_one_or_two_through_the_centre() -> None:
    ring = Ring(6)
    assert ring.distance(2, 2) == 0
    assert ring.distance(0, 5) == 1
    assert ring.distance(6, 3) == 1
    assert ring.distance(0, 3) == 2  # UW: a long shot (tir lointain)
    assert ring.distance(1, 3) == 2


def test_mad_arena_second_move_must_end_away_from_the_start() -> None:
    ring, rule = Ring(5), UpToTwoElsewhere()
    first = legal_steps(ring, rule, Steps(here=0, start=0, total=2, left=2))
    assert first == [4, 1, 5]
    second = legal_steps(ring, rule, Steps(here=5, start=0, total=2, left=1))
    assert 0 not in second and second == [1, 2, 3, 4]


def test_mad_arena_second_move_avoids_the_round_start_too() -> None:
    """A fighter the dragon kicked away (start 2) stood on 0 when the round began."""
    ring, rule = Ring(5), UpToTwoElsewhere()
    steps = Steps(here=5, start=2, total=2, left=1, round_start=0)
    assert legal_steps(ring, rule, steps) == [1, 3, 4]


def test_mad_arena_a_single_move_may_go_anywhere_adjacent() -> None:
    ring, rule = Ring(5), UpToTwoElsewhere()
    assert legal_steps(ring, rule, Steps(here=0, start=0, total=1, left=1)) == [4, 1, 5]
    assert not rule.exact


def test_ultimate_warriorz_never_reenters_a_zone_of_this_action() -> None:
    ring, rule = Ring(6), ExactNoRevisit()
    steps = Steps(here=6, start=0, total=3, left=2, visited=(0, 6))
    assert legal_steps(ring, rule, steps) == [1, 2, 3, 4, 5]
    steps = Steps(here=1, start=0, total=3, left=1, visited=(0, 6, 1))
    assert legal_steps(ring, rule, steps) == [2]
    assert rule.exact


def test_no_step_once_the_moves_are_spent() -> None:
    steps = Steps(here=0, start=0, total=1, left=0)
    assert legal_steps(Ring(6), ExactNoRevisit(), steps) == []
    assert legal_steps(Ring(6), UpToTwoElsewhere(), steps) == []
