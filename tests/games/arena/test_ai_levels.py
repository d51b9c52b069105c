"""AI levels (issue 14): declared ids and names, deterministic play, hard beats easy,
each level beats a random player, and the mistakes players noticed never happen,
in seeded positions and audited over whole AI-played matches."""

from __future__ import annotations

import random

import pytest

from bot.engine.decisions import Choice
from bot.engine.game import SeatSpec
from bot.engine.match import Match
from bot.games.arena.ai import Planner, level_of
from bot.games.arena.ai_trials import RANDOM, Tally, duel, play_match
from bot.games.arena.args import Attack, Move, Rest, TakePosture
from bot.games.arena.board import distance
from bot.games.arena.rules import wound
from bot.games.arena.state import ArenaState
from tests.games.arena.helpers import GAME, arrange
from tests.support.dice import ScriptedCtx
from tests.support.play import answer

LEVEL_IDS = ["hard", "medium", "easy"]


def ai(state: ArenaState, level: str, seed: int = 0) -> str:
    d = GAME.pending(state)[0]
    return GAME.ai_choose(state, d, random.Random(seed), level)


def ai_turn(state: ArenaState, level: str, dice: list[int]) -> None:
    assert state.turn is not None
    seat = state.turn.seat
    ctx = ScriptedCtx(dice)
    while not state.finished and state.turn is not None and state.turn.seat == seat:
        d = GAME.pending(state)[0]
        answer(GAME, state, d, ctx, option=GAME.ai_choose(state, d, random.Random(1), level))


def test_levels_are_declared_with_names_and_summaries_in_both_languages() -> None:
    levels = GAME.info.ai_levels
    assert [lv.id for lv in levels] == LEVEL_IDS  # the default (hard) first
    for lv in levels:
        assert lv.names.fr and lv.names.en and lv.summary is not None
        assert lv.summary.fr and lv.summary.en
    assert level_of(None) == level_of("hard") and level_of("normal") == level_of("medium")


def test_a_seed_gives_the_same_match_at_every_level() -> None:
    for level in LEVEL_IDS:
        logs = []
        for _ in range(2):
            m = Match.create(
                "arena",
                [SeatSpec(name="A", ai=True, ai_level=level), SeatSpec(name="B", ai=True)],
                seed=f"same-{level}",
            )
            while m.pending():
                m.apply(m.ai_choice(m.pending()[0]))
            logs.append([(e.type, e.text.en) for e in m.events])
        assert logs[0] == logs[1]


@pytest.mark.parametrize("level", LEVEL_IDS)
def test_every_level_beats_a_random_player(level: str) -> None:
    tally = duel(level, RANDOM, 6, prefix=f"rnd-{level}")
    # A match nobody wins by round 10 is lost by both: a draw counts half.
    assert tally.losses == 0 and tally.score >= 0.75, (tally.wins, tally.losses, tally.draws)
    assert max(tally.times) < 1.0


def test_hard_clearly_beats_easy() -> None:
    tally = duel("hard", "easy", 20, prefix="hard-easy")
    assert tally.score >= 0.65, (tally.wins, tally.losses, tally.draws)


# --- the mistakes (issue 14), in seeded positions -------------------------------------


@pytest.mark.parametrize("level", LEVEL_IDS)
@pytest.mark.parametrize("hp", [2, 4, 7])
def test_never_attacks_an_en_garde_defender_while_unleashed(level: str, hp: int) -> None:
    """Already unleashed next to an en-garde fighter that a hit cannot knock out:
    it moves on rather than attack."""
    for seed in range(4):
        state = arrange([(0, 0), (1, 0), (-3, 3)], f1={"posture": "garde", "hp": hp + 1})
        answer(GAME, state, GAME.pending(state)[0], ScriptedCtx(), option="dechainee")
        choice = ai(state, level, seed)
        opt = GAME.pending(state)[0].option(choice)
        assert opt is not None and not isinstance(opt.args, Attack)
        assert not (isinstance(opt.args, Move) and opt.args.target == 1)


@pytest.mark.parametrize("level", LEVEL_IDS)
def test_an_unleashed_blow_on_an_en_garde_defender_when_it_is_decisive(level: str) -> None:
    """At 1 HP the en-garde defender falls to any hit: the blow is decisive."""
    state = arrange([(0, 0), (1, 0)], f1={"posture": "garde", "hp": 1})
    answer(GAME, state, GAME.pending(state)[0], ScriptedCtx(), option="dechainee")
    d = GAME.pending(state)[0]
    opts = {o.id for o in d.options if isinstance(o.args, Attack | Move) and o.args.target == 1}
    assert GAME.ai_choose(state, d, random.Random(0), "medium") in opts


@pytest.mark.parametrize("level", LEVEL_IDS)
@pytest.mark.parametrize("hp", [2, 4, 6])
def test_never_rests_where_an_opponent_can_reach_it(level: str, hp: int) -> None:
    """Hurt, with an opponent 3 to 5 hexes away (an unleashed move reaches it)."""
    for enemy in [(3, 0), (2, 1), (0, 3), (-1, -2)]:
        state = arrange([(0, 0), enemy], f0={"hp": hp}, f1={"hp": 7})
        assert ai(state, level) != "garde", enemy


@pytest.mark.parametrize("level", LEVEL_IDS)
def test_never_rests_at_2_hp_two_hexes_from_a_fresh_unleashed_opponent(level: str) -> None:
    """Round 3 of a 6-player match (seed ``a6-5``), where the single-level AI rested:
    Fay at 2 HP in a corner, Eve unleashed at 7 HP two hexes away round a
    knocked-out pawn."""
    out = {"out": True, "hp": 0, "posture": "dechainee"}
    state = arrange(
        [(-3, 2), (3, 0), (3, -2), (3, -1), (-3, 1), (-3, 3)],
        acting=5,
        f0=out,
        f1={"hp": 5, "posture": "agressive"},
        f2={"posture": "dechainee"},
        f3=out,
        f4={"posture": "dechainee"},
        f5={"hp": 2, "posture": "dechainee"},
    )
    state.round = 3
    assert ai(state, level) != "garde"


def test_rests_when_no_opponent_can_reach_it_even_nearby_but_walled_off() -> None:
    """Reach is a path, not a distance: an opponent walled in by knocked-out
    fighters cannot come, so resting is safe."""
    positions = [(0, -3), (3, 0), (2, 0), (3, -1), (2, 1)]
    out = {"out": True, "hp": 0}
    state = arrange(positions, f0={"hp": 3}, f2=out, f3=out, f4=out, f1={"down": False})
    # Seat 1 in the corner (3,0): its free neighbours are knocked-out hexes... all of them.
    assert ai(state, "hard") == "garde"


@pytest.mark.parametrize("level", LEVEL_IDS)
@pytest.mark.parametrize("hp", [1, 2, 3])
def test_never_ends_unleashed_at_3_hp_next_to_an_opponent(level: str, hp: int) -> None:
    for seed in range(3):
        state = arrange([(0, 0), (2, 0), (-3, 3)], f0={"hp": hp}, f1={"posture": "agressive"})
        ai_turn(state, level, [1, 1, 1, 1, 6, 6, 6] * 4)
        me = state.fighters[0]
        exposed = me.posture == "dechainee" and not me.down
        near = [f for f in state.fighters[1:] if not f.out and distance(f.pos, me.pos) == 1]
        assert not (exposed and near), (seed, me.pos)


def test_hard_expects_the_opponent_to_answer_in_its_own_interest() -> None:
    """Against a defensive fighter (3 defence dice), unleashed is the most damaging
    answer, but the opponent would risk falling and stand with no defence dice
    against the counter-attack: ``hard`` expects the milder answer it would rather
    play, ``medium`` the most damaging one."""
    state = arrange([(0, 0), (3, -1)])
    view = GAME.view(state, 0)
    assert view.turn is not None
    hard = Planner(view, view.turn, level_of("hard"))
    medium = Planner(view, view.turn, level_of("medium"))
    enemy = view.fighter(1)
    assert hard.threat(enemy, (0, 0), "defensive") < medium.threat(enemy, (0, 0), "defensive")
    # Against an en-garde fighter the unleashed answer also knocks it down: both expect it.
    assert hard.threat(enemy, (0, 0), "garde") == medium.threat(enemy, (0, 0), "garde")


# --- the mistakes, audited over whole matches ----------------------------------------


def _audit(players: list[str], seed: str) -> list[str]:
    """Every AI answer of one match checked against the three mistakes."""
    seats = [SeatSpec(name=f"P{i}", ai=True, ai_level=p) for i, p in enumerate(players)]
    m = Match.create("arena", seats, seed=seed)
    problems: list[str] = []
    decisive = False  # the acting fighter's planned blow this turn could knock out
    while m.pending():
        d = m.pending()[0]
        opt = d.option(m.ai_choice(d).option or "")
        assert opt is not None
        state: ArenaState = m.state
        me = state.fighters[d.seat]
        if d.kind == "posture":
            decisive = False
        target = opt.args.target if isinstance(opt.args, Attack | Move) else None
        if target is not None:
            t = state.fighters[target]
            decisive = wound(me, t) >= t.hp
            unleashed = me.posture == "dechainee" and not me.down
            if unleashed and t.posture == "garde" and not t.down and not decisive:
                problems.append(f"{seed} {d.key}: unleashed into en garde")
        rest = isinstance(opt.args, Rest) or (
            isinstance(opt.args, TakePosture)
            and opt.args.posture == "garde"
            and not (me.disarmed and me.weapon_at == me.pos)
        )
        if rest:
            view = GAME.view(state, d.seat)
            assert view.turn is not None
            if Planner(view, view.turn, level_of(players[d.seat])).reachable(me.pos):
                problems.append(f"{seed} {d.key}: rests within reach")
        m.apply(Choice(seat=d.seat, key=d.key, option=opt.id))
        turn = m.state.turn
        if turn is None or turn.seat != d.seat:  # its turn is over
            after = m.state.fighters[d.seat]
            near = any(
                distance(f.pos, after.pos) == 1
                for f in m.state.fighters
                if f.seat != d.seat and not f.out
            )
            exposed = after.posture == "dechainee" and not after.down and after.hp <= 3
            if exposed and near and not decisive and not after.out:
                problems.append(f"{seed} {d.key}: unleashed at {after.hp} HP next to an opponent")
    return problems


@pytest.mark.parametrize("level", LEVEL_IDS)
def test_no_mistake_in_whole_matches(level: str) -> None:
    tally = Tally()
    problems: list[str] = []
    for n in range(4):
        problems += _audit([level, level], f"audit2-{level}-{n}")
        problems += _audit([level] * 4, f"audit4-{level}-{n}")
    assert problems == []
    play_match([level, RANDOM, level], f"three-{level}", tally)
    assert tally.times and max(tally.times) < 1.0
