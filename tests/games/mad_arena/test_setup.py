"""Modes, seating and the arena (§1 Préparation, Modes 1-3, RULINGS "Arena")."""

from __future__ import annotations

import pytest

import bot.games.mad_arena  # noqa: F401
from bot.engine import IllegalDecision, Match, SeatSpec
from bot.games.mad_arena.arena import adjacent, legal_steps
from bot.games.mad_arena.args import ForFighter
from bot.games.mad_arena.cards import DRAGON
from bot.games.mad_arena.modes import BROTHERS_PAIRS, TEAM_SPIRIT_TEAMS


def seats(n: int) -> list[SeatSpec]:
    return [SeatSpec(name=f"P{i}") for i in range(n)]


@pytest.mark.parametrize(
    ("mode", "ok", "bad"),
    [
        ("ultimate-warrior", [4, 5, 6, 7], [2, 3, 8]),
        ("team-spirit", [2, 6], [3, 4, 5]),
        ("brothers-in-arms", [3, 4, 6], [2, 5, 7]),
    ],
)
def test_player_counts_are_people(mode: str, ok: list[int], bad: list[int]) -> None:
    for n in ok:
        Match.create("mad-arena", seats(n), seed=1, mode=mode)
    for n in bad:
        with pytest.raises(IllegalDecision):
            Match.create("mad-arena", seats(n), seed=1, mode=mode)


def test_ultimate_warrior_deals_distinct_fighters_at_random() -> None:
    """Mode 1 §1: the fighter cards are shuffled and one is dealt to each player."""
    deals = set()
    for seed in range(12):
        m = Match.create("mad-arena", seats(4), seed=seed, mode="ultimate-warrior")
        ids = [f.id for f in m.state.fighters]
        assert len(set(ids)) == 4 and [f.seat for f in m.state.fighters] == [0, 1, 2, 3]
        deals.add(tuple(ids))
    assert len(deals) > 3


def test_dragon_is_in_the_centre_only_when_dealt() -> None:
    """§1: the dragon's card is the centre; without it the centre is its zone face."""
    for seed in range(20):
        st = Match.create("mad-arena", seats(5), seed=seed, mode="ultimate-warrior").state
        ids = [f.id for f in st.fighters]
        assert len(st.zones) == len([i for i in ids if i != DRAGON])
        assert DRAGON not in st.zones
        if DRAGON in ids:
            assert st.f(DRAGON).zone == st.centre
    st = Match.create("mad-arena", seats(7), seed=3, mode="ultimate-warrior").state
    assert st.f(DRAGON).zone == st.centre and len(st.zones) == 6


def test_each_fighter_starts_on_its_own_zone_in_seating_order() -> None:
    st = Match.create("mad-arena", seats(6), seed=2, mode="ultimate-warrior").state
    ring = [f.id for f in sorted(st.fighters, key=lambda f: f.seat) if f.id != DRAGON]
    assert st.zones == ring
    for f in st.fighters:
        if f.id != DRAGON:
            assert st.zones[f.zone] == f.id and f.hp == st.data(f.id).size


def test_five_player_example_without_cactus_or_dragon() -> None:
    """§1 example: 5 players, no Cactus nor Zamioculcas: 5 peripheral zones around the centre."""
    n = 5
    assert adjacent(0, n) == [4, 1, 5]
    assert adjacent(5, n) == [0, 1, 2, 3, 4]
    for z in range(n):
        assert len(adjacent(z, n)) == 3 and n in adjacent(z, n)


def test_team_spirit_two_players_each_run_a_whole_team_side_by_side() -> None:
    m = Match.create("mad-arena", seats(2), seed=4, mode="team-spirit")
    st = m.state
    for seat in (0, 1):
        mine = sorted(f.id for f in st.fighters if f.seat == seat)
        assert mine in [sorted(t) for t in TEAM_SPIRIT_TEAMS]
        zones = sorted(st.f(f).zone for f in mine)
        assert zones == list(range(zones[0], zones[0] + 3))
    # One seat has three pending decisions at once, each naming its fighter.
    ds = m.pending_for(0)
    assert len(ds) == 3 and all(d.secret and d.timing == "pick" for d in ds)
    assert {d.subject for d in ds} == {st.name(f.id) for f in st.fighters if f.seat == 0}
    assert {d.args for d in ds} == {ForFighter(fighter=f.id) for f in st.fighters if f.seat == 0}


def test_team_spirit_six_players_printed_teams() -> None:
    st = Match.create("mad-arena", seats(6), seed=5, mode="team-spirit").state
    assert sorted(sorted(t) for t in st.teams) == sorted(sorted(t) for t in TEAM_SPIRIT_TEAMS)
    assert len({f.seat for f in st.fighters}) == 6


def test_brothers_in_arms_pairs() -> None:
    st = Match.create("mad-arena", seats(3), seed=1, mode="brothers-in-arms").state
    for seat in range(3):
        assert sorted(f.id for f in st.fighters if f.seat == seat) in [
            sorted(p) for p in BROTHERS_PAIRS
        ]
    drawn = set()
    for seed in range(10):
        st = Match.create("mad-arena", seats(4), seed=seed, mode="brothers-in-arms").state
        assert len(st.teams) == 2 and all(
            sorted(t) in [sorted(p) for p in BROTHERS_PAIRS] for t in st.teams
        )
        drawn.add(tuple(sorted(tuple(sorted(t)) for t in st.teams)))
    assert len(drawn) > 1
    st = Match.create("mad-arena", seats(6), seed=1, mode="brothers-in-arms").state
    assert len(st.teams) == 3


def test_two_moves_never_end_on_the_start_zone() -> None:
    """§2.4 Mouvement: pris dans son élan, no going back after the first move."""
    n = 5
    for start in range(n + 1):
        for mid in legal_steps(start, start, 2, 2, n):
            assert start not in legal_steps(mid, start, 2, 1, n)
    assert legal_steps(0, 0, 1, 1, 5) == adjacent(0, 5)


def test_ring_follows_seating_with_each_persons_fighters_side_by_side() -> None:
    """RULINGS "Arena": one zone per fighter, in seating order, a player's own
    fighters side by side; each fighter starts on its own zone."""
    for mode, n in [
        ("team-spirit", 2),
        ("team-spirit", 6),
        ("brothers-in-arms", 3),
        ("brothers-in-arms", 4),
        ("brothers-in-arms", 6),
    ]:
        for seed in range(4):
            st = Match.create("mad-arena", seats(n), seed=seed, mode=mode).state
            by_seat = sorted(st.fighters, key=lambda f: (f.seat, st.zones.index(f.id)))
            assert st.zones == [f.id for f in by_seat]
            for f in st.fighters:
                assert st.zones[f.zone] == f.id
            assert DRAGON not in [f.id for f in st.fighters]
