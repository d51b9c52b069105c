"""Attacks, wounds and special results (book "Attaquer", "Blessures",
"Résultats spéciaux découlant d'une attaque", "Conséquences des cas spéciaux")."""

from __future__ import annotations

import pytest

from bot.engine.events import RollEvent
from bot.games.arena.args import Attack, Move
from bot.games.arena.postures import ATTACK, DEFENCE, POSTURES, damage, disarmed
from bot.games.arena.rules import resolve_attack
from tests.games.arena.helpers import GAME, arrange, offered, play, steps
from tests.support.dice import ScriptedCtx

FAR = (-3, 3)


def rolls(events) -> list[RollEvent]:
    return [e for e in events if isinstance(e, RollEvent)]


def throws(events) -> list[tuple[str, int, str]]:
    """(side, dice count, roller or "") of each side's throw; "no dice" counts as 0."""
    out = []
    for e in events:
        if isinstance(e, RollEvent):
            out.append((e.data["side"], len(e.dice), e.roller))
        elif e.type == "no_dice":
            out.append((e.data["side"], 0, ""))
    return out


def duel(att_posture: str, def_posture: str, **kw) -> object:
    """Ann (0,0) and Bob (1,0), adjacent; Bob's posture is from his last turn."""
    f0 = {"posture": att_posture, **kw.pop("f0", {})}
    f1 = {"posture": def_posture, **kw.pop("f1", {})}
    return arrange([(0, 0), (1, 0), FAR], f0=f0, f1=f1)


def attack(state, a_dice: list[int], d_dice: list[int]):
    ctx = ScriptedCtx(a_dice + d_dice)
    rec = resolve_attack(state, 0, 1, ctx)
    return rec, ctx.events


@pytest.mark.parametrize("a", POSTURES)
@pytest.mark.parametrize("d", POSTURES)
def test_dice_by_attacker_posture_against_defender_posture(a: str, d: str) -> None:
    """Attack dice 0-4 (en garde .. déchaînée); defence dice 4-0 by the defender's own posture."""
    state = duel(a, d)
    na, nd = ATTACK[a], DEFENCE[d]
    _, events = attack(state, [1] * na, [1] * nd)
    t = throws(events)
    assert [(side, n) for side, n, _ in t] == [("attack", na), ("defence", nd)]
    assert [who for _, n, who in t if n] == [w for w, n in (("Ann", na), ("Bob", nd)) if n]
    text = " ".join(e.text.en for e in events)
    assert "attack on Bob" in text and "defence against Ann" in text


def test_attack_table_values() -> None:
    assert [ATTACK[p] for p in POSTURES] == [0, 1, 2, 3, 4]
    assert [DEFENCE[p] for p in POSTURES] == [4, 3, 2, 1, 0]


def test_a_hit_needs_a_strictly_higher_total() -> None:
    """ "Si le total de l'attaquant est égal ou inférieur ... le défenseur évite ou pare le coup"."""
    state = duel("balancee", "balancee")
    rec, _ = attack(state, [3, 3], [4, 2])
    assert not rec.hit and state.fighters[1].hp == 7
    state = duel("balancee", "balancee")
    rec, _ = attack(state, [3, 4], [4, 2])
    assert rec.hit and state.fighters[1].hp == 6


@pytest.mark.parametrize(
    ("a", "d", "wound"),
    [
        ("dechainee", "dechainee", 4),
        ("dechainee", "agressive", 3),
        ("agressive", "agressive", 2),
        ("balancee", "balancee", 1),  # 0 -> at least 1
        ("defensive", "dechainee", 1),
        ("agressive", "defensive", 1),  # 0 -> 1
        ("agressive", "garde", 1),  # negative -> 1
    ],
)
def test_wound_is_attack_value_minus_defence_value_at_least_1(a: str, d: str, wound: int) -> None:
    """ "Blessures": the difference of the posture values, at least 1."""
    assert damage(ATTACK[a], DEFENCE[d]) == wound
    state = duel(a, d)
    rec, _ = attack(state, [6] * ATTACK[a], [1] * DEFENCE[d])
    assert rec.hit and rec.damage == wound and state.fighters[1].hp == 7 - wound


def test_only_adjacent_opponents_can_be_attacked() -> None:
    """ "le combattant doit se placer sur une case adjacente"."""
    state = arrange([(0, 0), (2, 0), FAR])
    play(state, 0, "defensive")
    assert not any(o.startswith("atk") for o in offered(state))
    play(state, 0, "e")
    assert "atk1" in offered(state) and "end" in offered(state)


def test_move_then_attack() -> None:
    state = arrange([(0, 0), (2, 0), FAR], f1={"posture": "agressive"})
    events = play(state, 0, "defensive", "e", "atk1", dice=[6, 2])
    assert state.last.attack is not None and state.last.attack.hit
    assert state.fighters[1].hp == 7 - 1
    assert state.turn.seat == 1
    assert [e.type for e in events].count("turn_end") == 1


def test_attack_then_move() -> None:
    state = arrange([(0, 0), (1, 0), FAR], f1={"posture": "agressive"})
    play(state, 0, "balancee", "atk1", dice=[1, 1, 6])
    assert state.turn.seat == 0 and set(steps(state)) <= {"ne", "nw", "w", "sw", "se"}
    attacks = [
        o
        for o in GAME.pending(state)[0].options
        if isinstance(o.args, Attack) or (isinstance(o.args, Move) and o.args.target is not None)
    ]
    assert attacks == []  # one attack a turn
    play(state, 0, "w", "w")
    assert state.fighters[0].pos == (-2, 0) and state.turn.seat == 1
    assert state.last.path == [(0, 0), (-1, 0), (-2, 0)]


def test_move_attack_then_finish_the_move() -> None:
    state = arrange([(0, 0), (2, 0), FAR], f1={"posture": "agressive"})
    play(state, 0, "agressive", "e", "atk1", dice=[6, 6, 6, 1])
    assert state.turn.seat == 0 and not any(o.startswith("atk") for o in offered(state))
    assert "end" not in offered(state)
    play(state, 0, "nw", "w")
    assert state.turn.seat == 1 and len(state.last.path) == 4
    assert state.last.attack.at == (1, 0)


def test_one_attack_per_turn() -> None:
    state = arrange([(0, 0), (1, 0), (0, 1)], f1={"posture": "garde"}, f2={"posture": "garde"})
    play(state, 0, "balancee", "atk1", dice=[1, 1, 1, 2, 2, 1])
    assert not any(o.startswith("atk") for o in offered(state))


def test_moving_without_attacking_may_end_only_once_the_move_is_complete() -> None:
    state = arrange([(0, 0), (2, 0), FAR])
    play(state, 0, "balancee", "e")
    assert "end" not in offered(state) and "atk1" in offered(state)
    play(state, 0, "ne")  # (2,-1): still next to Bob at (2,0)
    assert "end" in offered(state)
    play(state, 0, "end")
    assert state.last.attack is None and state.turn.seat == 1


# --- special results ---------------------------------------------------------------


def test_attacker_missing_an_en_garde_defender_on_an_even_defence_total_is_disarmed() -> None:
    """ "sur un résultat de défense pair, l'attaquant est désarmé"; the weapon stays on its hex."""
    state = duel("agressive", "garde")
    rec, events = attack(state, [1, 1, 1], [1, 1, 2, 2])
    ann = state.fighters[0]
    assert not rec.hit and rec.defence_total == 6 and rec.disarmed
    assert ann.disarmed and ann.weapon_at == (0, 0)
    assert "disarmed" in [e.type for e in events]


def test_no_disarm_on_an_odd_defence_total_or_a_hit_or_another_posture() -> None:
    state = duel("agressive", "garde")
    rec, _ = attack(state, [1, 1, 1], [1, 1, 2, 3])
    assert not rec.hit and rec.defence_total == 7 and not state.fighters[0].disarmed
    state = duel("agressive", "garde")
    rec, _ = attack(state, [6, 6, 6], [1, 1, 2, 2])
    assert rec.hit and not state.fighters[0].disarmed
    state = duel("agressive", "defensive")
    rec, _ = attack(state, [1, 1, 1], [2, 2, 2])
    assert not rec.hit and not state.fighters[0].disarmed


def test_unleashed_attacker_falls_on_an_odd_attack_total_when_it_misses() -> None:
    """ "Si la posture de l'attaquant est déchaînée et qu'il rate son coup, sur un résultat d'attaque impair, celui-ci tombe au sol"."""
    state = duel("dechainee", "defensive")
    rec, _ = attack(state, [1, 1, 1, 2], [6, 6, 6])
    assert not rec.hit and rec.attack_total == 5 and rec.attacker_fell
    assert state.fighters[0].down


def test_unleashed_attacker_does_not_fall_on_an_even_miss_or_a_hit() -> None:
    state = duel("dechainee", "defensive")
    rec, _ = attack(state, [1, 1, 1, 1], [6, 6, 6])
    assert not rec.hit and not state.fighters[0].down
    state = duel("dechainee", "defensive")
    rec, _ = attack(state, [6, 6, 6, 1], [1, 1, 1])
    assert rec.hit and rec.attack_total % 2 == 1 and not state.fighters[0].down


def test_a_falling_attacker_cannot_finish_its_move() -> None:
    state = arrange([(0, 0), (1, 0), FAR], f1={"posture": "defensive"})
    play(state, 0, "dechainee", "atk1", dice=[1, 1, 1, 2, 6, 6, 6])
    assert state.fighters[0].down and state.turn.seat == 1
    assert state.last.path == [(0, 0)]


@pytest.mark.parametrize("hit", [True, False])
def test_unleashed_against_en_garde_always_knocks_the_defender_down(hit: bool) -> None:
    """ "Un attaquant déchaîné qui attaque un défenseur en garde, quel que soit le résultat ... fera tomber le défenseur au sol"."""
    state = duel("dechainee", "garde")
    a = [6, 6, 6, 6] if hit else [1, 1, 1, 2]
    rec, _ = attack(state, a, [1, 1, 1, 2] if hit else [6, 6, 6, 6])
    assert rec.hit is hit and rec.defender_fell and state.fighters[1].down
    if not hit:
        # All three results at once: disarmed (even 24), fell (odd 5), defender down.
        assert rec.disarmed and rec.attacker_fell and state.fighters[0].down


def test_on_the_ground_defends_and_attacks_with_one_die() -> None:
    """ "Au sol": Bouger 0, Attaque 1, Défense 1."""
    state = duel("dechainee", "garde", f1={"down": True})
    rec, events = attack(state, [1, 1, 1, 1], [2])
    assert [len(r.dice) for r in rolls(events)] == [4, 1]
    assert rec.hit and rec.damage == 3  # 4 - 1
    assert not rec.defender_fell  # already on the ground: not "en garde"
    state = duel("agressive", "agressive", f0={"down": True})
    rec, events = attack(state, [6], [1])
    assert [len(r.dice) for r in rolls(events)] == [1, 1]
    assert rec.damage == 1


def test_a_fighter_on_the_ground_may_attack_without_getting_up() -> None:
    state = arrange([(0, 0), (1, 0), FAR], f0={"down": True}, f1={"posture": "dechainee"})
    assert "sol" in offered(state)
    play(state, 0, "sol")
    assert offered(state) == ["atk1"]
    play(state, 0, "atk1", dice=[3])
    assert state.fighters[0].down and state.fighters[1].hp == 6


def test_stay_down_is_offered_only_next_to_an_opponent() -> None:
    state = arrange([(0, 0), (2, 0)], f0={"down": True})
    assert "sol" not in offered(state)


def test_a_knocked_down_defender_gets_up_on_its_turn() -> None:
    state = arrange([(0, 0), (1, 0)], f1={"posture": "garde"})
    play(state, 0, "dechainee", "atk1", dice=[6, 6, 6, 6, 1, 1, 1, 1])
    assert state.fighters[1].down
    play(state, 0, "w", "w", "se", "w")
    play(state, 1, "defensive")
    assert not state.fighters[1].down and state.last.action == "getup"


# --- disarmed ----------------------------------------------------------------------


@pytest.mark.parametrize(("value", "penalised"), [(4, 2), (3, 1), (2, 1), (1, 1), (0, 0)])
def test_disarmed_is_minus_two_dice_minimum_one(value: int, penalised: int) -> None:
    """ "Désarmé": -2 dice (minimum 1); a value of 0 stays 0 (RULES.md)."""
    assert disarmed(value) == penalised


def test_disarmed_dice_apply_in_attack_and_defence() -> None:
    state = duel(
        "dechainee",
        "garde",
        f0={"disarmed": True, "weapon_at": FAR},
        f1={"disarmed": True, "weapon_at": FAR},
    )
    rec, events = attack(state, [6, 6], [1, 1])
    assert [len(r.dice) for r in rolls(events)] == [2, 2]
    assert rec.damage == 1  # posture values 4 - 4 -> 1 (the dice were 2 and 2)


def test_weapon_is_picked_up_on_its_hex_as_a_whole_turn() -> None:
    """ "Ramasser son arme (obligatoirement sur la case où il l'a échappée)"."""
    state = arrange([(0, 0), (3, -3)], f0={"disarmed": True, "weapon_at": (0, 0)})
    play(state, 0, "balancee")
    assert set(offered(state)) == {"fight", "pickup"}
    play(state, 0, "pickup")
    ann = state.fighters[0]
    assert not ann.disarmed and ann.weapon_at is None and ann.pos == (0, 0)
    assert state.last.action == "pickup" and state.turn.seat == 1


def test_weapon_must_be_reached_by_movement_first() -> None:
    state = arrange([(0, 0), (3, -3)], f0={"disarmed": True, "weapon_at": (1, 0)})
    play(state, 0, "defensive")  # no pickup here: "fight" starts at once
    assert "e" in offered(state)
    play(state, 0, "e")
    play(state, 1, "garde")  # Bob rests
    play(state, 0, "garde")
    assert GAME.pending(state)[0].kind == "action"
    assert set(offered(state)) == {"pickup", "rest"}
    play(state, 0, "pickup")
    assert not state.fighters[0].disarmed


# --- wounds of disarmed fighters ---------------------------------------------------


@pytest.mark.parametrize(
    ("a", "d", "a_disarmed", "d_disarmed", "wound"),
    [
        ("dechainee", "dechainee", True, False, 4),  # 2 dice, but the value stays 4
        ("agressive", "balancee", True, False, 1),  # 3 - 2
        ("dechainee", "defensive", False, True, 1),  # 4 - 3 (defends with 1 die)
        ("dechainee", "garde", False, True, 1),  # 4 - 4 -> 1 (defends with 2 dice)
        ("agressive", "agressive", True, True, 2),  # 3 - 1
    ],
)
def test_a_disarmed_fighter_keeps_its_posture_values_for_the_wound(
    a: str, d: str, a_disarmed: bool, d_disarmed: bool, wound: int
) -> None:
    """ "Blessures": "on consulte les postures des adversaires sur le tableau" and
    subtracts the defence VALUE from the attack VALUE; "Désarmé" is "-2 dés de
    pénalité": it changes the dice rolled, not the posture's values (RULES.md)."""
    f0 = {"disarmed": True, "weapon_at": FAR} if a_disarmed else {}
    f1 = {"disarmed": True, "weapon_at": FAR} if d_disarmed else {}
    state = duel(a, d, f0=f0, f1=f1)
    a_n = disarmed(ATTACK[a]) if a_disarmed else ATTACK[a]
    d_n = disarmed(DEFENCE[d]) if d_disarmed else DEFENCE[d]
    rec, events = attack(state, [6] * a_n, [1] * d_n)
    assert [n for _, n, _ in throws(events)] == [a_n, d_n]
    assert rec.hit and rec.damage == wound and state.fighters[1].hp == 7 - wound


def test_on_the_ground_the_values_are_those_of_the_au_sol_space() -> None:
    """ "Au sol": the pawn sits on the "au sol" space of the posture table, whose
    values (attack 1, defence 1) are the ones "Blessures" subtracts."""
    state = duel("agressive", "garde", f1={"down": True})
    rec, _ = attack(state, [6, 6, 6], [1])
    assert rec.damage == 2  # 3 - 1
    state = duel("garde", "dechainee", f0={"down": True})
    rec, _ = attack(state, [6], [])
    assert rec.damage == 1  # 1 - 0


# --- the dice log, as a player checks it -------------------------------------------


def test_the_log_shows_the_wound_as_attack_value_minus_defence_value() -> None:
    """ "Blessures": a reader can check the wound from the log line alone."""
    state = duel("dechainee", "defensive")
    _, events = attack(state, [6, 6, 6, 6], [1, 1, 1])
    text = " ".join(e.text.fr for e in events) + " ".join(e.text.en for e in events)
    assert "4 - 3 = 1" in text
    state = duel("agressive", "garde")
    _, events = attack(state, [6, 6, 6], [1, 1, 1, 1])
    text = " ".join(e.text.en for e in events)
    assert "3 - 4 = -1, at least 1" in text
    assert "7 -> 6" in text


def test_the_log_counts_dice_in_good_grammar_and_names_the_penalties() -> None:
    state = duel("defensive", "balancee", f0={"disarmed": True, "weapon_at": FAR})
    _, events = attack(state, [6], [1, 1])
    r = rolls(events)
    assert "1 die" in r[0].purpose.en and "1 dé" in r[0].purpose.fr
    assert "disarmed" in r[0].purpose.en and "désarmé" in r[0].purpose.fr
    assert "2 dice" in r[1].purpose.en and "2 dés" in r[1].purpose.fr
    assert "dé(s)" not in r[0].purpose.fr and "1 dice" not in r[0].purpose.en


def test_no_dice_means_no_empty_roll_but_a_plain_total_of_0() -> None:
    """A déchaîné defender rolls 0 dice: the log says so instead of an empty roll."""
    state = duel("agressive", "dechainee")
    rec, events = attack(state, [2, 2, 2], [])
    assert [len(r.dice) for r in rolls(events)] == [3]
    nod = [e for e in events if e.type == "no_dice"]
    assert len(nod) == 1 and "Bob" in nod[0].text.en and "0" in nod[0].text.en
    assert rec.hit and rec.defence_total == 0


def test_on_the_ground_and_disarmed_on_the_weapon_hex_may_pick_it_up_without_getting_up() -> None:
    """Book "Le tour de jeu": "Ramasser son arme (si désarmé)" is one of the actions,
    with no condition of standing; it needs no movement ("Au sol": Bouger 0)."""
    state = arrange([(0, 0), (3, -3)], f0={"down": True, "disarmed": True, "weapon_at": (0, 0)})
    assert "solpick" in offered(state)
    play(state, 0, "solpick")
    ann = state.fighters[0]
    assert not ann.disarmed and ann.weapon_at is None and ann.down
    assert state.last.action == "pickup" and state.last.posture == "sol"
    assert state.turn.seat == 1


def test_on_the_ground_away_from_the_weapon_there_is_no_pickup() -> None:
    state = arrange([(0, 0), (3, -3)], f0={"down": True, "disarmed": True, "weapon_at": (1, 0)})
    assert "solpick" not in offered(state)
    state = arrange([(0, 0), (3, -3)], f0={"down": True})
    assert "solpick" not in offered(state)


# --- special results: the corners of the book's wording ------------------------------


def test_an_attacker_already_disarmed_drops_nothing_more() -> None:
    """RULES.md choice: a disarmed attacker has no weapon to drop; its weapon stays put."""
    state = duel("agressive", "garde", f0={"disarmed": True, "weapon_at": FAR})
    rec, _ = attack(state, [1], [1, 1, 1, 1])
    assert not rec.hit and rec.defence_total == 4 and not rec.disarmed
    assert state.fighters[0].weapon_at == FAR


def test_a_disarmed_en_garde_defender_is_still_en_garde_for_the_special_results() -> None:
    """RULES.md choice: "en garde" is the posture, whatever the dice it rolls."""
    state = duel("dechainee", "garde", f1={"disarmed": True, "weapon_at": FAR})
    rec, events = attack(state, [1, 1, 1, 2], [3, 3])  # 4 dice vs 2 dice
    assert [n for _, n, _ in throws(events)] == [4, 2]
    assert not rec.hit and rec.disarmed and rec.attacker_fell and rec.defender_fell


def test_a_knocked_out_defender_does_not_also_fall() -> None:
    """ "Zéro points de vie": out of the fight; the knock-down result no longer applies."""
    state = duel("dechainee", "garde", f1={"hp": 1})
    rec, events = attack(state, [6, 6, 6, 6], [1, 1, 1, 1])
    bob = state.fighters[1]
    assert rec.knocked_out and not rec.defender_fell and bob.out and not bob.down
    assert "fell" not in [e.type for e in events]


def test_the_weapon_stays_on_the_attack_hex_while_the_attacker_moves_on() -> None:
    """ "Désarmé": no move penalty; the weapon lies "sur la case où il l'a échappée"."""
    state = arrange([(0, 0), (2, 0), FAR], f1={"posture": "garde"})
    play(state, 0, "agressive", "e", "atk1", dice=[1, 1, 1, 1, 1, 2, 2])
    ann = state.fighters[0]
    assert ann.disarmed and ann.weapon_at == (1, 0)
    play(state, 0, "nw", "w")
    assert ann.pos == (0, -1) and ann.weapon_at == (1, 0) and ann.disarmed


def test_a_fighter_on_the_ground_attacking_an_en_garde_defender_can_be_disarmed() -> None:
    """The disarm result depends on the defender's posture and the defence total only."""
    state = duel("agressive", "garde", f0={"down": True})
    rec, _ = attack(state, [1], [1, 1, 2, 2])
    assert not rec.hit and rec.disarmed and state.fighters[0].down
