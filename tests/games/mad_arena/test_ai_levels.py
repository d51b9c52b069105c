"""Mad Arena AI levels (issue 14): declared levels, the planned secret move, waste and strength.

The seeded series below are deterministic (fixed seeds, the AI uses only the
engine's ``rnd``); ``bench/bench_mad_arena_ai.py`` gives the same figures over
more matches.
"""

from __future__ import annotations

import random

import bot.games.mad_arena  # noqa: F401
from bot.engine.registry import get_game
from bot.games.mad_arena import rules
from bot.games.mad_arena.ai_levels import EASY, HARD, MEDIUM
from bot.games.mad_arena.ai_trials import SETUPS, SecretTally, duel, play
from bot.games.mad_arena.modes import BROTHERS, TEAM, ULTIMATE
from bot.games.mad_arena.state import MAState
from bot.gm.present import ai_levels
from tests.games.mad_arena.helpers import ScriptedCtx, begin, build, pick_decision

GAME = get_game("mad-arena")


def _first_hand_burdock(ring: list[str]) -> MAState:
    """Round 2: Burdock played one card, so its finishing is still in a 5-card hand."""
    st = build(ring)
    st.phase = "pick"
    st.round = 2
    b = st.f("burdock")
    b.hand.remove("burdock-1")
    b.discard = ["burdock-1"]
    b.in_play = None
    return st


def test_levels_are_declared_with_names_and_the_default_first() -> None:
    """GameInfo.ai_levels: easy, medium, hard with French and English names; hard is the default."""
    levels = ai_levels(GAME.info)
    assert [lv.id for lv in levels] == [HARD, MEDIUM, EASY]
    for lv in levels:
        assert lv.names.fr and lv.names.en and lv.summary is not None
    assert [lv.names.en for lv in levels] == ["Hard", "Medium", "Easy"]
    assert [lv.names.fr for lv in levels] == ["Difficile", "Moyen", "Facile"]


def test_each_level_plays_through_match_ai_choice_deterministically() -> None:
    """The seat's ai_level reaches the AI through Match.ai_choice; same seed, same match."""
    levels = [HARD, MEDIUM, EASY, HARD]
    a = play("levels-through-match", ULTIMATE, levels, through_match=True)
    b = play("levels-through-match", ULTIMATE, levels, through_match=True)
    assert a.winners == b.winners and a.secrets == b.secrets
    assert len(a.times) == len(b.times) > 20


def test_levels_differ_on_the_same_seed() -> None:
    """The level changes the play: three levels, three different matches from one seed."""
    results = {lv: play("levels-differ", TEAM, [lv, lv]) for lv in (EASY, MEDIUM, HARD)}
    assert (
        len({len(r.times) for r in results.values()}) > 1
        or len({tuple(r.winners) for r in results.values()}) > 1
    )


def test_secret_move_is_played_in_the_first_hand_when_its_target_cannot_escape() -> None:
    """The refill rule forces the secret card out by the end of the first hand, so the
    AI does not wait for round 10: a netted, weak adversary in its zone is a sure target."""
    st = _first_hand_burdock(["burdock", "sorgho", "bonzai", "cactus"])
    st.f("sorgho").zone = 0
    st.f("sorgho").hp = 3
    st.net_on = "sorgho"
    for level in (EASY, MEDIUM, HARD):
        d = pick_decision(st, "burdock")
        assert GAME.ai_choose(st, d, random.Random(1), level) == "burdock-finishing", level
    # And when Burdock acts with it, the finishing is fired at that adversary.
    begin(st, "burdock", "burdock-finishing", ScriptedCtx())
    (d,) = rules.pending(st)
    assert GAME.ai_choose(st, d, random.Random(1), HARD) == "melee-sorgho"


def test_secret_move_is_kept_when_the_target_will_likely_have_moved_away() -> None:
    """Sorgho, in reach now, can only play cards that act before Burdock's finishing
    (initiative 6 and 5) and move: it will likely be gone, so the secret card waits."""
    st = _first_hand_burdock(["burdock", "sorgho", "bonzai", "cactus", "agaric", "baobab"])
    st.f("sorgho").zone = 1
    st.f("sorgho").hp = 3
    st.f("sorgho").discard = ["sorgho-3", "sorgho-4", "sorgho-5"]
    st.f("sorgho").removed = ["sorgho-terminotaure"]
    for fid in ("bonzai", "cactus", "agaric", "baobab"):
        st.f(fid).zone = 3
    for level in (EASY, MEDIUM, HARD):
        d = pick_decision(st, "burdock")
        assert GAME.ai_choose(st, d, random.Random(1), level) != "burdock-finishing", level


def test_wasted_secret_moves_stay_under_3_percent() -> None:
    """Over seeded matches of every mode and player count (2-7), levels mixed, fewer than
    3% of the secret moves chosen freely end without their attack."""
    tally = SecretTally()
    cycle = [HARD, MEDIUM, EASY]
    for mode, people in SETUPS:
        for i in range(3):
            levels = [cycle[(i + k) % 3] for k in range(people)]
            tally.add(play(f"waste-{mode}-{people}-{i}", mode, levels).secrets)
    assert tally.free >= 40
    assert tally.waste_rate() < 0.03, tally


def test_hard_beats_easy_and_answers_fast() -> None:
    """Seats alternating hard and easy: hard holds clearly more than half of the wins,
    and its worst decision takes well under the 1 s budget."""
    d = duel(HARD, EASY, 8, [(TEAM, 2), (BROTHERS, 3), (ULTIMATE, 4)], tag="-test")
    assert d.rate() > 0.6, d.rate()
    assert max(d.times) < 1.0
