"""The engine's guarantees: versions, staleness, no half-applied state, replay, fair dice."""

from __future__ import annotations

import json

import pytest

import tests.engine.fixture_game  # noqa: F401  (registers test-pick)
from bot.engine import Choice, IllegalDecision, Match, SeatSpec, StaleDecision
from bot.engine.autoplay import play_out
from bot.engine.dice import DiceState, FairRng, draw_value, seed_commitment
from bot.engine.log import markdown_log, parse_log, verify_log

SEATS = [SeatSpec(name="Ann"), SeatSpec(name="Bob")]


def new() -> Match:
    return Match.create("test-pick", SEATS, seed="s1")


def test_simultaneous_picks_are_pending_together_and_not_stale_for_each_other() -> None:
    m = new()
    assert [d.seat for d in m.pending()] == [0, 1]
    v0 = m.version
    m.apply(Choice(seat=0, key="r1:s0", option="2"), expected_version=v0)
    # Bob's button was made at v0; his decision was pending since then: still valid.
    m.apply(Choice(seat=1, key="r1:s1", option="1"), expected_version=v0)
    assert m.version == 2


def test_answered_decision_is_stale() -> None:
    m = new()
    m.apply(Choice(seat=0, key="r1:s0", option="2"), expected_version=0)
    with pytest.raises(StaleDecision):
        m.apply(Choice(seat=0, key="r1:s0", option="1"), expected_version=0)


def test_new_decision_with_old_version_is_stale() -> None:
    m = new()
    m.apply(Choice(seat=0, key="r1:s0", option="2"))
    m.apply(Choice(seat=1, key="r1:s1", option="1"))
    with pytest.raises(StaleDecision):
        m.apply(Choice(seat=0, key="r2:s0", option="1"), expected_version=1)


def test_wrong_seat_and_illegal_option_are_refused_with_reason() -> None:
    m = new()
    with pytest.raises(IllegalDecision) as e:
        m.apply(Choice(seat=1, key="r1:s0", option="2"))
    assert "seat" in e.value.reason.en and "place" in e.value.reason.fr
    with pytest.raises(IllegalDecision):
        m.apply(Choice(seat=0, key="r1:s0", option="9"))
    assert m.version == 0 and m.choices == []


def test_refusal_inside_apply_leaves_state_untouched() -> None:
    m = new()
    for r in (1, 2):
        m.apply(Choice(seat=0, key=f"r{r}:s0", option="1"))
        m.apply(Choice(seat=1, key=f"r{r}:s1", option="1"))
    before = json.dumps(m.snapshot(), sort_keys=True)
    with pytest.raises(IllegalDecision):
        m.apply(Choice(seat=0, key="r3:s0", option="3"))
    assert json.dumps(m.snapshot(), sort_keys=True) == before


def test_replay_reproduces_snapshot_exactly() -> None:
    m = play_out(new())
    again = Match.replay("test-pick", SEATS, "s1", None, None, m.choices)
    assert again.snapshot() == m.snapshot()
    restored = Match.from_snapshot(json.loads(json.dumps(m.snapshot())))
    assert restored.snapshot() == m.snapshot()


def test_bad_seat_count_is_refused() -> None:
    with pytest.raises(IllegalDecision):
        Match.create("test-pick", [SeatSpec(name="solo")], seed=1)


def test_dice_are_a_pure_function_of_seed_and_index() -> None:
    rng = FairRng(DiceState(seed="abc"))
    values, idx = rng.dice(100)
    assert idx == list(range(100))
    assert values == [draw_value("abc", i, 6) for i in range(100)]
    assert set(values) == {1, 2, 3, 4, 5, 6}
    assert rng.state.counter == 100


def test_log_verifies_and_detects_tampering() -> None:
    m = play_out(new())
    data = parse_log(markdown_log(m))
    assert data["seed_sha256"] == seed_commitment("s1")
    ok, msg = verify_log(data)
    assert ok, msg
    rolls = [e for e in data["events"] if e["kind"] == "roll"]
    assert rolls
    rolls[0]["dice"][0] = rolls[0]["dice"][0] % 6 + 1
    ok, _ = verify_log(data)
    assert not ok


def test_seed_hidden_until_the_end() -> None:
    m = new()
    assert "Seed: `" not in markdown_log(m)


def test_mid_match_log_carries_no_choice_and_no_private_event() -> None:
    m = new()
    m.apply(Choice(seat=0, key="r1:s0", option="3"))
    data = parse_log(markdown_log(m))
    assert data["choices"] == [] and data["seed"] is None
    assert all(e.get("visible_to") is None for e in data["events"])
