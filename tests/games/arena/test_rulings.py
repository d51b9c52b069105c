"""The last three Arena! rulings (RULINGS.md, "Arena!"), one test each, and how old
logs recorded before them replay."""

from __future__ import annotations

from bot.engine import Choice
from bot.engine.events import RollEvent
from bot.games.arena.args import Attack, GetUp, PickUp, StayDown
from tests.games.arena.helpers import GAME, arrange, offered, play

FAR = (-3, 3)


def test_the_disarm_penalty_applies_to_dice_not_to_wound_values() -> None:
    """RULINGS: "Wounds use the values of the postures' table ... Being disarmed takes
    2 dice off the roll only, never off the wound, and its "minimum 1" keeps at least
    1 die only where the posture gives dice at all: a posture of 0 dice stays at 0"."""
    state = arrange(
        [(0, 0), (1, 0), FAR],
        f0={"disarmed": True, "weapon_at": FAR},
        f1={"posture": "agressive"},
    )
    ann = GAME.view(state, None).fighter(0)
    assert (ann.spaces["dechainee"].attack, ann.spaces["dechainee"].attack_value) == (2, 4)
    assert ann.spaces["garde"].attack == 0  # 0 dice stays 0
    assert ann.spaces["dechainee"].defence == 0  # 0 dice stays 0
    assert ann.spaces["defensive"].attack == 1  # 1 - 2, at least 1
    play(state, 0, "dechainee")
    atk = GAME.pending(state)[0].option("atk1")
    assert atk is not None and atk.stats["atk"] == 2 and atk.stats["dmg"] == 3
    events = play(state, 0, "atk1", dice=[6, 6, 1])
    assert [len(e.dice) for e in events if isinstance(e, RollEvent)] == [2, 1]
    assert state.turn is not None and state.turn.seat == 0  # its move is still to make
    rec = state.turn.attack
    assert rec is not None and rec.hit
    assert rec.damage == 3 and (rec.attack_value, rec.defence_value) == (4, 1)  # 4 - 1, not 2 - 1


def test_a_fighter_with_0_attack_dice_is_offered_no_attack() -> None:
    """RULINGS: "A fighter whose attack is 0 dice (en garde, or disarmed at 0) cannot
    attack: no attack is offered, so it can neither hit, be disarmed by it, nor cancel a
    neighbour's rest with it"."""
    state = arrange([(0, 0), (1, 0), FAR], f0={"hp": 5}, f1={"disarmed": True, "weapon_at": FAR})
    play(state, 0, "garde")  # next to Bob, yet resting is its only action: applied at once
    assert state.last is not None and state.last.action == "rest" and state.fighters[0].resting
    play(state, 1, "garde")  # Bob, disarmed and en garde: 0 dice, no attack either
    assert state.last.action == "rest" and state.last.attack is None
    assert GAME.view(state, None).fighter(1).can_attack == []
    events = play(state, 2, "garde")
    assert "attack" not in [e.type for e in events]
    assert state.turn is not None and state.turn.seat == 0
    assert state.fighters[0].hp == 6 and state.healed_now  # Ann's rest was not cancelled
    # Standing next to Bob with dice to roll, Ann is offered the attack again.
    play(state, 0, "defensive")
    assert "atk1" in offered(state)


def test_on_the_ground_no_rest_but_attack_or_pick_up_without_getting_up() -> None:
    """RULINGS: "A fighter on the ground cannot rest (its marker is on "au sol", not on
    "en garde"); it may attack with 1 die, or pick up a weapon lying on its own hex,
    without getting up first"."""
    down = {"down": True, "disarmed": True, "weapon_at": (0, 0), "hp": 4}
    state = arrange([(0, 0), (1, 0), FAR], f0=down, f1={"posture": "agressive"})
    options = GAME.pending(state)[0].options
    kinds = {type(o.args) for o in options}
    assert kinds == {GetUp, StayDown, PickUp}  # no rest among them
    # "garde" is getting up on guard: the whole turn, not a rest.
    play(state, 0, "garde")
    assert state.last is not None and state.last.action == "getup"
    assert not state.fighters[0].resting and not state.fighters[0].down
    # Attack with 1 die (disarmed too), staying down.
    state = arrange([(0, 0), (1, 0), FAR], f0=down, f1={"posture": "agressive"})
    play(state, 0, "sol")
    assert [o.args for o in GAME.pending(state)[0].options] == [Attack(target=1)]
    events = play(state, 0, "atk1", dice=[6, 1])
    assert [len(e.dice) for e in events if isinstance(e, RollEvent)] == [1, 1]
    assert state.fighters[0].down and state.fighters[1].hp == 6
    # Pick up the weapon on its own hex, staying down.
    state = arrange([(0, 0), (1, 0), FAR], f0=down, f1={"posture": "agressive"})
    play(state, 0, "solpick")
    ann = state.fighters[0]
    assert ann.down and not ann.disarmed and state.last.action == "pickup"


def test_an_old_log_drops_the_rest_that_is_now_applied_at_once() -> None:
    """Logs recorded before RULINGS (0 attack dice) asked an en-garde fighter next to an
    opponent for "fight" or "rest"; "rest" is now applied with the posture, so the
    logged "rest" is no longer awaited and is dropped. Any other stray choice is kept
    (the engine then refuses it: that log does not replay)."""
    state = arrange([(0, 0), (1, 0), FAR])
    play(state, 0, "garde")
    pending = GAME.pending(state)
    stale = Choice(seat=0, key="t1:action", option="rest")
    assert GAME.upgrade_choice(state, pending, [stale]) is None
    nxt = Choice(seat=1, key=pending[0].key, option="garde")
    assert GAME.upgrade_choice(state, pending, [stale, nxt]) == nxt
    fight = Choice(seat=0, key="t1:action", option="fight")
    assert GAME.upgrade_choice(state, pending, [fight]) == fight
