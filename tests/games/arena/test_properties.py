"""Whole matches: AI and random players for 2-6 seats keep every invariant; replays match."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bot.games.arena  # noqa: F401
from bot.engine import Choice, Match, SeatSpec
from bot.engine.autoplay import play_out
from bot.engine.events import RollEvent
from bot.games.arena.board import adjacent, on_board
from bot.games.arena.postures import (
    MAX_HP,
    ROUNDS,
    attack_dice,
    attack_value,
    damage,
    defence_dice,
    defence_value,
)
from bot.games.arena.rules import required_length
from bot.games.arena.state import ArenaState


def seats(n: int) -> list[SeatSpec]:
    return [SeatSpec(name=f"P{i}", ai=True) for i in range(n)]


def check_invariants(match: Match) -> None:
    state: ArenaState = match.state
    alive = [f for f in state.fighters if not f.out]
    assert all(0 <= f.hp <= MAX_HP for f in state.fighters)
    assert all((f.hp == 0) == f.out for f in state.fighters)
    spots = [f.pos for f in state.fighters]
    assert len(set(spots)) == len(spots), "two fighters on one hex"
    assert all(on_board(p) for p in spots)
    assert 1 <= state.round <= ROUNDS
    for f in state.fighters:
        assert f.disarmed == (f.weapon_at is not None)
    if not state.finished:
        assert len(alive) >= 2
        assert state.turn is not None and not state.fighters[state.turn.seat].out
    for d in match.pending():
        assert d.subject == state.fighters[d.seat].name
        ids = [o.id for o in d.options]
        assert ids and len(set(ids)) == len(ids)
        assert all(len(i) <= 40 and i.isascii() and ":" not in i for i in ids)
        assert all(o.label.fr and o.label.en for o in d.options)


def check_turn_record(match: Match, blocked_before: set) -> None:
    last = match.state.last
    if last is None:
        return
    path = last.path
    assert len(set(path)) == len(path), "a hex visited twice"
    assert all(adjacent(a, b) for a, b in zip(path, path[1:], strict=False))
    assert not (set(path[1:]) & blocked_before), "moved through a blocked hex"
    if last.attack is not None:
        assert last.attack.at in path
        assert adjacent(last.attack.at, match.state.fighters[last.attack.defender].pos)


def check_attacks(before: ArenaState, events: list) -> None:
    """Each attack as a player checks it against the book, from the state before it:
    dice by posture ("Attaquer", "Au sol", "Désarmé"), a hit iff strictly higher,
    the wound from the posture table's values ("Blessures")."""
    for e in events:
        if e.type != "attack":
            continue
        rec = e.data
        a, d = before.fighters[rec["attacker"]], before.fighters[rec["defender"]]
        assert len(rec["attack_dice"]) == attack_dice(a.posture, a.down, a.disarmed)
        assert len(rec["defence_dice"]) == defence_dice(d.posture, d.down, d.disarmed)
        assert rec["attack_total"] == sum(rec["attack_dice"])
        assert rec["defence_total"] == sum(rec["defence_dice"])
        assert rec["hit"] == (rec["attack_total"] > rec["defence_total"])
        if rec["hit"]:
            wound = damage(attack_value(a.posture, a.down), defence_value(d.posture, d.down))
            assert rec["damage"] == wound
            assert rec["hp_after"] == max(0, d.hp - wound)
        else:
            assert rec["damage"] == 0 and rec["hp_after"] == d.hp
        garde = not d.down and d.posture == "garde"
        unleashed = not a.down and a.posture == "dechainee"
        assert rec["disarmed"] == (
            not rec["hit"] and garde and rec["defence_total"] % 2 == 0 and not a.disarmed
        )
        assert rec["attacker_fell"] == (
            not rec["hit"] and unleashed and rec["attack_total"] % 2 == 1
        )
        assert rec["defender_fell"] == (unleashed and garde and not rec["knocked_out"])


def check_move_length(start: ArenaState, match: Match) -> None:
    """ "On doit bouger du nombre exact de cases" (handicap and RULINGS' longest path):
    a finished fight crossed exactly the required hexes, unless the fighter fell or
    the match ended on the attack; other actions do not move."""
    last = match.state.last
    assert last is not None
    moved = len(last.path) - 1
    if last.action != "fight":
        assert moved == 0
        return
    if start.fighters[last.seat].down:  # stayed down to attack
        assert moved == 0
        return
    # The posture chosen this turn (the record says "sol" if the fighter fell).
    posture = match.state.fighters[last.seat].posture
    required = required_length(start, last.seat, posture)
    cut = last.attack is not None and (last.attack.attacker_fell or match.state.finished)
    assert moved == required or (cut and moved < required)


def run(match: Match, rnd: random.Random | None = None) -> Match:
    turns = 0
    blocked = {f.pos for f in match.state.fighters}
    while not match.over:
        d = match.pending()[0]
        if rnd is None:
            choice = match.ai_choice(d)
        else:
            choice = Choice(seat=d.seat, key=d.key, option=rnd.choice(d.options).id)
        before = match.game.copy(match.state)
        if before.turn is not None and before.turn.step == "posture":
            start = before
        events = match.apply(choice)
        check_attacks(before, events)
        if any(e.type == "turn_end" for e in events):
            check_move_length(start, match)
            turns += 1
            # Hexes of others when the turn started (nobody else moves during it).
            check_turn_record(match, blocked - {match.state.last.path[0]})
            blocked = {f.pos for f in match.state.fighters}
        for e in events:
            if isinstance(e, RollEvent):
                assert e.roller in {f.name for f in match.state.fighters}
                assert len(e.dice) <= 4
        check_invariants(match)
    assert turns <= ROUNDS * len(match.seats)
    return match


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 6), seed=st.text(min_size=1, max_size=8))
def test_ai_matches_end_within_10_rounds_and_keep_invariants(n: int, seed: str) -> None:
    m = run(Match.create("arena", seats(n), seed=seed))
    out = m.outcome()
    assert out is not None
    alive = [f.seat for f in m.state.fighters if not f.out]
    if out.winners:
        assert out.winners == alive
    else:
        assert len(alive) >= 2 and m.state.round == ROUNDS


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 6), seed=st.integers(0, 10**6))
def test_random_legal_players_keep_invariants(n: int, seed: int) -> None:
    run(Match.create("arena", seats(n), seed=seed), random.Random(seed))


def test_replay_and_snapshot_reproduce_the_match() -> None:
    for n in (2, 4, 6):
        m = play_out(Match.create("arena", seats(n), seed=f"replay{n}"))
        again = Match.replay("arena", seats(n), f"replay{n}", None, None, m.choices)
        assert again.snapshot() == m.snapshot()
        restored = Match.from_snapshot(json.loads(json.dumps(m.snapshot())))
        assert restored.snapshot() == m.snapshot()
        assert restored.outcome() == m.outcome()


def test_mid_match_snapshot_resumes_identically() -> None:
    m = Match.create("arena", seats(3), seed="mid")
    for _ in range(25):
        d = m.pending()[0]
        m.apply(m.ai_choice(d))
    copy = Match.from_snapshot(json.loads(json.dumps(m.snapshot())), choices=list(m.choices))
    play_out(m)
    play_out(copy)
    assert copy.snapshot() == m.snapshot()


def test_ai_is_deterministic_for_a_seed() -> None:
    a = play_out(Match.create("arena", seats(5), seed="det"))
    b = play_out(Match.create("arena", seats(5), seed="det"))
    assert a.choices == b.choices


def test_ai_matches_produce_champions_and_draws() -> None:
    """The AI fights: over a batch of matches some end with a champion."""
    winners = 0
    for k in range(12):
        m = play_out(Match.create("arena", seats(2 + k % 5), seed=f"batch{k}"))
        winners += bool(m.outcome().winners)
    assert winners >= 4
