"""MAD's AI levels: the 40-turn tie-break, lost positions played out, determinism."""

from __future__ import annotations

import random

import pytest

from bot.engine import Match, SeatSpec
from bot.games.mad import ai
from bot.games.mad.core import BLUE, RED, board, turns
from bot.games.mad.game import AI_LEVELS, GAME
from bot.games.mad.search import MATE_ZONE, WIN, search
from bot.games.mad.state import TIEBREAK_TURNS, MadState

from .helpers import decision, place, play, state

TRADE = "R111@a1 B111@d6 R221@b3 B121@b4 B222@b5 R222@c1 R122@a2 R212@b1 B112@c6"
"""Red can expel blue's frigate 121 on b4 with its destroyer 221, which blue's cruiser
then expels: a losing trade, worth it only to win the tie-break (blue wins it now)."""


def test_levels_are_easy_medium_hard_default_first() -> None:
    assert ai.LEVELS == ("easy", "medium", "hard")
    assert [lv.id for lv in AI_LEVELS] == ["hard", "medium", "easy"]
    assert ai.level_id("hard") == "hard" and ai.level_id("grandmaster") is None


@pytest.mark.parametrize("level", ai.LEVELS)
def test_every_level_trades_rather_than_lose_the_tiebreak(level: str) -> None:
    """On the 40th turn (39 quiet turns played) the trade turns a half loss into a half win."""
    st = state("6x4", TRADE, streak=TIEBREAK_TURNS - 1, last_expeller=BLUE)
    assert GAME.ai_choose(st, decision(st), random.Random(0), level) == "b3xb4"


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_searching_levels_keep_material_while_the_tiebreak_is_far(level: str) -> None:
    st = state("6x4", TRADE, streak=0, last_expeller=BLUE)
    assert GAME.ai_choose(st, decision(st), random.Random(0), level) != "b3xb4"


def test_medium_trades_in_time_seeing_the_40th_turn() -> None:
    """Two turns before the tie-break, medium (3 turns deep) already takes the trade."""
    st = state("6x4", TRADE, streak=TIEBREAK_TURNS - 2, last_expeller=BLUE)
    assert GAME.ai_choose(st, decision(st), random.Random(0), "medium") == "b3xb4"


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_the_tiebreak_winner_does_not_trade_away_its_half_win(level: str) -> None:
    """Red expelled last: red wins the tie-break on the 40th turn, the trade would give it."""
    st = state("6x4", TRADE, streak=TIEBREAK_TURNS - 1, last_expeller=RED)
    assert GAME.ai_choose(st, decision(st), random.Random(0), level) != "b3xb4"


def play_until_expulsion(level: str, streak: int, limit: int) -> MadState:
    """Both sides at ``level`` from the trade position, ``streak`` quiet turns already
    played, red losing the tie-break: play until red expels a ship or the match ends."""
    st = state("6x4", TRADE, streak=streak, last_expeller=BLUE)
    rnd = random.Random(f"tb-{level}")
    for _ in range(limit):
        if st.result is not None or st.last_expeller == RED:
            break
        play(st, GAME.ai_choose(st, decision(st), rnd, level))
    return st


@pytest.mark.parametrize("level", ai.LEVELS)
def test_no_level_drifts_into_a_half_loss(level: str) -> None:
    """The tie-break loser, 30 quiet turns in, expels a ship before the 40th turn."""
    st = play_until_expulsion(level, 30, 12)
    assert st.last_expeller == RED or (st.result is not None and st.result.winner == RED)


DOOMED = "R111@b1 R112@a1 B111@d6 B222@c4 B212@a5"
"""Red's cruiser is in exile: the permutation 111=222 exiles red's own corvette (a loss at
once); every other turn loses too, some later than others."""


def loss_distance(board_id: str, pos: tuple[int, ...], side: int) -> int:
    """Plies to the loss of ``side``'s opponent after ``side`` has moved, searched deep."""
    res = search(board(board_id), pos, side, time_budget=None, node_budget=200_000)
    return WIN - res.score if res.score > MATE_ZONE else 0


@pytest.mark.parametrize("level", ai.LEVELS)
def test_a_lost_position_is_played_out_not_conceded(level: str) -> None:
    st = state("6x4", DOOMED)
    choice = GAME.ai_choose(st, decision(st), random.Random(0), level)
    assert choice != "111=222"  # no self-exile


def test_hard_prefers_the_longest_resistance() -> None:
    b = board("6x4")
    pos = place("6x4", DOOMED)
    lengths = {}
    for turn, child in turns(b, pos, RED, False):
        if child[0] >= 0:  # the self-exile is a loss at once
            lengths[turn] = loss_distance("6x4", child, BLUE)
    assert all(v > 0 for v in lengths.values())  # every move loses
    assert len(set(lengths.values())) > 1  # but not equally fast
    res = search(b, pos, RED, time_budget=None, node_budget=ai.HARD_NODES)
    assert res.score < -MATE_ZONE and res.turn is not None
    assert lengths[res.turn] == max(lengths.values())


@pytest.mark.parametrize("level", ai.LEVELS)
def test_each_level_is_deterministic_for_a_seed(level: str) -> None:
    def run() -> list[str]:
        seats = [SeatSpec(name=n, ai=True, ai_level=level) for n in "ab"]
        m = Match.create("mad", seats, seed=f"det-{level}")
        for _ in range(6):
            m.apply(m.ai_choice(m.pending()[0]))
        return [c.model_dump_json() for c in m.choices]

    assert run() == run()


def test_hard_beats_easy() -> None:
    """A quick strength check (the bench measures more): hard wins both colours."""
    for hard_red in (True, False):
        levels = ("hard", "easy") if hard_red else ("easy", "hard")
        seats = [SeatSpec(name=lv, ai=True, ai_level=lv) for lv in levels]
        m = Match.create("mad", seats, seed=f"strength-{hard_red}")
        for _ in range(200):
            if m.over:
                break
            m.apply(m.ai_choice(m.pending()[0]))
        outcome = m.outcome()
        assert outcome is not None
        assert outcome.winners == [0 if hard_red else 1]
