"""Turns, resting, knock-outs, the round track and the end (book "Le tour de jeu",
"Reprendre des forces", "Zéro points de vie", "Fin du jeu"; RULINGS "Arena!")."""

from __future__ import annotations

import json

import pytest

from bot.engine import Choice, IllegalDecision, Match, SeatSpec
from bot.engine.decisions import Answer, Option
from bot.engine.events import Event
from bot.engine.text import Text
from bot.games.arena.args import Attack, EndTurn, Rest, Step
from bot.games.arena.postures import ROUNDS
from tests.games.arena.helpers import GAME, arrange, offered, play
from tests.support.dice import ScriptedCtx

FAR = (-3, 3)


def test_resting_is_en_garde_and_nothing_else_and_heals_one_hp_next_turn() -> None:
    """ "Reprendre des forces": +1 HP at its next turn if nobody attacked it."""
    state = arrange([(0, 0), (3, -3)], f0={"hp": 5})
    play(state, 0, "garde")
    ann = state.fighters[0]
    assert ann.resting and ann.hp == 5 and state.last.action == "rest"
    events = play(state, 1, "garde")
    assert ann.hp == 6 and not ann.resting
    assert "rested" in [e.type for e in events]
    assert state.healed_now


def test_resting_never_goes_above_7() -> None:
    state = arrange([(0, 0), (3, -3)])
    play(state, 0, "garde")
    play(state, 1, "garde")
    assert state.fighters[0].hp == 7


def test_an_attack_cancels_the_rest_even_when_parried() -> None:
    state = arrange([(0, 0), (1, 0)], f0={"hp": 4}, f1={"posture": "garde"})
    play(state, 0, "garde")  # en garde, 0 attack dice: resting is its only action
    assert state.last.action == "rest"
    # Bob attacks Ann (en garde, 4 dice) with 1 die and misses; his rest is irrelevant.
    play(state, 1, "defensive", "atk0", dice=[1, 1, 1, 2, 3])
    # The parry's total 7 is odd: Bob keeps his weapon. Bob still has a step to make.
    assert not state.fighters[1].disarmed
    play(state, 1, offered(state)[0])
    assert state.last.attack is not None and not state.last.attack.hit
    assert state.fighters[0].hp == 4 and not state.healed_now


def test_a_turn_with_nothing_possible_passes() -> None:
    """Walled in by knocked-out fighters, not en garde: no legal action, the turn passes."""
    ko = {"out": True, "hp": 0}
    positions = [(3, -3), (2, -3), (3, -2), (2, -2), FAR]
    state = arrange(positions, f1=ko, f2=ko, f3=ko)
    play(state, 0, "defensive")
    assert state.last.action == "pass" and state.turn.seat == 4


def test_walled_in_by_opponents_the_fight_is_attack_only() -> None:
    positions = [(3, -3), (2, -3), (3, -2), (2, -2)]
    state = arrange(positions)
    play(state, 0, "defensive")
    assert set(offered(state)) == {"atk1", "atk2", "atk3"}


def test_a_knocked_out_fighter_blocks_its_hex_and_never_plays_again() -> None:
    """ "Zéro points de vie": hors-combat; its hex is blocked."""
    state = arrange([(0, 0), (1, 0), FAR], f1={"hp": 1, "posture": "dechainee"})
    events = play(state, 0, "defensive", "atk1", dice=[2])
    bob = state.fighters[1]
    assert bob.out and bob.hp == 0 and bob.pos == (1, 0)
    assert "knocked_out" in [e.type for e in events]
    play(state, 0, offered(state)[0])
    assert state.turn.seat == 2  # Bob is skipped
    assert state.round == 1


def test_last_fighter_standing_wins_at_once() -> None:
    """ "Fin du jeu": one who knocked out all opponents before the end of round 10 wins."""
    state = arrange([(0, 0), (1, 0)], f1={"hp": 1, "posture": "dechainee"})
    events = play(state, 0, "agressive", "atk1", dice=[1, 1, 1])
    assert state.finished and state.winner == 0
    assert GAME.pending(state) == []
    out = GAME.outcome(state)
    assert out is not None and out.winners == [0]
    assert "match_end" in [e.type for e in events]
    assert GAME.checkpoint(events)


def test_round_track_advances_after_a_full_round() -> None:
    state = arrange([(0, 0), (3, -3), FAR], acting=1)
    assert state.order == [1, 2, 0]
    for seat in (1, 2, 0):
        assert state.round == 1
        play(state, seat, "garde")
    assert state.round == 2 and state.turn.seat == 1


def test_after_round_10_with_several_survivors_everyone_loses() -> None:
    """ "Si, à la fin du 10e tour, il reste encore plus d'un combattant vivant ... tous seront déclarés perdants"."""
    state = arrange([(0, 0), (3, -3)])
    for _ in range(ROUNDS):
        assert not state.finished
        play(state, 0, "garde")
        play(state, 1, "garde")
    assert state.finished and state.winner is None and state.round == ROUNDS
    out = GAME.outcome(state)
    assert out is not None and out.winners == []
    assert GAME.pending(state) == []


def test_checkpoint_after_each_turn_not_after_each_step() -> None:
    state = arrange([(0, 0), (3, -3)])
    assert not GAME.checkpoint(play(state, 0, "balancee"))
    assert not GAME.checkpoint(play(state, 0, "e"))
    assert GAME.checkpoint(play(state, 0, "e"))


def test_view_carries_the_last_path_dice_and_damage() -> None:
    state = arrange([(0, 0), (2, 0), FAR], f1={"posture": "agressive"})
    play(state, 0, "defensive", "e", "atk1", dice=[5, 2])
    view = GAME.view(state, None)
    json.loads(view.model_dump_json())
    last = view.last
    assert last is not None and last.attack is not None
    assert last.path == [(0, 0), (1, 0)]
    assert last.attack.attack_dice == [5] and last.attack.defence_dice == [2]
    assert last.attack.damage == 1 and last.attack.hp_after == 6
    assert GAME.view(state, 0) == GAME.view(state, 1) == view  # nothing is secret


def test_decision_keys_are_unique_and_name_the_fighter() -> None:
    state = arrange([(0, 0), (3, -3)])
    keys = []
    for opt in ["dechainee", "e", "e", "ne", "nw"]:
        d = GAME.pending(state)[0]
        keys.append(d.key)
        assert d.subject == "Ann" and "Ann" in d.prompt.en and "Ann" in d.prompt.fr
        play(state, 0, opt)
    assert len(set(keys)) == len(keys)


def test_direction_buttons_are_labelled_in_both_languages() -> None:
    state = arrange([(0, 0), (3, -3)])
    play(state, 0, "defensive")
    labels = {o.id: o.label for o in GAME.pending(state)[0].options}
    assert labels["ne"].fr.startswith("↗ NE") and labels["nw"].fr.startswith("↖ NO")
    assert labels["nw"].en.startswith("↖ NW") and labels["e"].en.endswith("D5")


SEATS = [SeatSpec(name="Ann"), SeatSpec(name="Bob")]


def test_bad_input_is_refused_politely_and_changes_nothing() -> None:
    m = Match.create("arena", SEATS, seed="bad")
    d = m.pending()[0]
    before = json.dumps(m.snapshot(), sort_keys=True)
    with pytest.raises(IllegalDecision) as e:
        m.apply(Choice(seat=d.seat, key=d.key, option="flying"))
    assert e.value.reason.fr and e.value.reason.en
    with pytest.raises(IllegalDecision):
        m.apply(Choice(seat=1 - d.seat, key=d.key, option="garde"))
    assert json.dumps(m.snapshot(), sort_keys=True) == before


def test_game_apply_refuses_options_it_did_not_offer() -> None:
    """Defence in depth: the game itself re-checks, beyond the engine's option check,
    by the options' typed args (an answer forged past the engine changes nothing)."""
    state = arrange([(0, 0), (3, -3)])
    ctx = ScriptedCtx()
    play(state, 0, "defensive")
    decision = GAME.pending(state)[0]
    before = GAME.dump(state)
    forged = [
        Option(id="atk1", label=Text(fr="x", en="x"), args=Attack(target=1)),
        Option(id="end", label=Text(fr="x", en="x"), args=EndTurn()),
        Option(id="rest", label=Text(fr="x", en="x"), args=Rest()),
        Option(id="e", label=Text(fr="x", en="x"), args=Step(to=(3, 3))),
        Option(id="e", label=Text(fr="x", en="x")),
    ]
    for opt in forged:
        choice = Choice(seat=0, key=decision.key, option=opt.id)
        with pytest.raises(IllegalDecision):
            GAME.apply(state, Answer(choice, decision, [opt], {}), ctx)
    step = decision.option("e")
    assert step is not None
    with pytest.raises(IllegalDecision):
        choice = Choice(seat=1, key=decision.key, option="e")
        GAME.apply(state, Answer(choice, decision, [step], {}), ctx)
    assert GAME.dump(state) == before


def test_events_are_bilingual() -> None:
    state = arrange([(0, 0), (1, 0)], f1={"posture": "garde"})
    events = play(state, 0, "dechainee", "atk1", dice=[1, 1, 1, 2, 3, 3, 3, 3])
    for e in events:
        assert e.text.fr and e.text.en
        if isinstance(e, Event):
            json.dumps(e.data)


def test_typed_hex_names_and_ids_map_to_options() -> None:
    state = arrange([(0, 0), (3, -3)])
    d = GAME.pending(state)[0]
    assert GAME.parse_option(state, d, "Balancée") == "balancee"
    play(state, 0, "defensive")
    d = GAME.pending(state)[0]
    assert GAME.parse_option(state, d, "d5") == "mD5"  # the destination D5, whole
    assert GAME.parse_option(state, d, "ne") == "ne"
    assert GAME.parse_option(state, d, "Z9") is None
