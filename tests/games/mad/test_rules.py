"""One test per rule of rules/mad.fr.txt ("Règles de MAD") and per RULINGS MAD line.

FAQ answers ("Quelques précisions sur les règles") are in test_faq.py.
"""

from __future__ import annotations

import pytest

from bot.games.mad.core import BLUE, EXILE, KINDS, RED, board, corvette_exiled
from bot.games.mad.game import DRAW, GAME
from bot.games.mad.state import TIEBREAK_TURNS
from tests.games.mad.helpers import decision, ids, place, play, state


def _layout(board_id: str) -> dict[str, str]:
    b = board(board_id)
    return {b.name(sq): ("R" if s < 8 else "B") + KINDS[s & 7] for s, sq in enumerate(b.start)}


# --- Description du jeu / Position initiale --------------------------------------------------


def test_initial_position_6x4_as_printed() -> None:
    """Position initiale 6 × 4: 6 rows of 4, red rows 1-2, blue rows 5-6 (RULINGS: red at the bottom)."""
    lay = _layout("6x4")
    assert [lay[f"{c}1"] for c in "abcd"] == ["R221", "R111", "R222", "R212"]
    assert [lay[f"{c}2"] for c in "abcd"] == ["R121", "R122", "R211", "R112"]
    assert [lay[f"{c}5"] for c in "abcd"] == ["B121", "B122", "B211", "B112"]
    assert [lay[f"{c}6"] for c in "abcd"] == ["B221", "B111", "B222", "B212"]
    assert len(lay) == 16


def test_initial_position_5x5_as_printed() -> None:
    """Position initiale 5 × 5: the second row has ships on a, c, e only."""
    lay = _layout("5x5")
    assert [lay[f"{c}1"] for c in "abcde"] == ["R221", "R111", "R211", "R222", "R212"]
    assert [lay.get(f"{c}2") for c in "abcde"] == ["R121", None, "R122", None, "R112"]
    assert [lay.get(f"{c}4") for c in "abcde"] == ["B121", None, "B122", None, "B112"]
    assert [lay[f"{c}5"] for c in "abcde"] == ["B221", "B111", "B211", "B222", "B212"]
    assert not any(k.endswith("3") for k in lay)


def test_each_fleet_has_the_eight_ships() -> None:
    """Huit vaisseaux par joueur: corvette, 3 frégates, 3 destroyers, croiseur."""
    assert sorted(KINDS) == ["111", "112", "121", "122", "211", "212", "221", "222"]


def test_red_starts() -> None:
    """Les rouges commencent."""
    st = GAME.setup(
        _seats(), "duel", {"board": "6x4", "positioning": True, "ai_level": "easy"}, _ctx()
    )
    assert decision(st).seat == RED


def _seats():  # type: ignore[no-untyped-def]
    from bot.engine import SeatSpec

    return [SeatSpec(name="A"), SeatSpec(name="B")]


def _ctx():  # type: ignore[no-untyped-def]
    from bot.engine.dice import DiceState, FairRng
    from bot.engine.game import Ctx

    return Ctx(FairRng(DiceState(seed="x")))


# --- Le déplacement -------------------------------------------------------------------------

BASE = "R111@a1 B111@d6"


def test_one_sail_moves_one_square() -> None:
    """1 voile: 1 case, horizontally or vertically."""
    st = state("6x4", BASE + " R121@b3")
    moves = {i for i in ids(st) if i.startswith("b3")}
    assert moves == {"b3-a3", "b3-c3", "b3-b2", "b3-b4"}


def test_two_sails_move_one_or_two_squares_with_a_turn_allowed() -> None:
    """2 voiles: 1 or 2 squares; change of direction allowed, no half-turn."""
    st = state("6x4", BASE + " R211@b3")
    moves = {i[3:] for i in ids(st) if i.startswith("b3-")}
    assert moves == {"a3", "c3", "b2", "b4", "d3", "b5", "b1", "a4", "a2", "c4", "c2"}
    assert "b3" not in moves


def test_intermediate_square_must_be_free() -> None:
    """La case intermédiaire doit être libre: with b4 and a3 blocked, a4 is reached via a3 only if free."""
    st = state("6x4", BASE + " R211@b3 R121@b4 R112@a3")
    moves = {i[3:] for i in ids(st) if i.startswith("b3-")}
    assert "b5" not in moves and "a4" not in moves
    assert "c4" in moves  # via c3


def test_arrival_on_weaker_enemy_expels_it() -> None:
    """Expulsion: arrival on an enemy whose shields <= the mover's cannons; the mover takes its place."""
    st = state("6x4", BASE + " R121@b3 B122@b4")  # 121 has 2 cannons, 122 has 2 shields
    evs = play(st, "b3xb4")
    b = board("6x4")
    assert st.pos[2] == b.square("b4") and st.pos[8 + 4] == EXILE
    assert st.last_expeller == RED
    assert any(e.type == "turn" and e.data["expelled"] == [12] for e in evs)


def test_one_cannon_cannot_attack_two_shields() -> None:
    """Un vaisseau qui a 1 seul canon ne pourra pas aller sur une case occupée par 2 boucliers."""
    st = state("6x4", BASE + " R112@b3 B212@b4 B121@a3")
    assert "b3xb4" not in ids(st)
    assert "b3xa3" in ids(st)  # 121 has 1 shield


def test_two_step_move_can_expel_at_its_end() -> None:
    """Expulsion at the end of a two-square move (the book's figure: 211 expels 121 bleu)."""
    spec = (
        "B122@a6 B111@c6 B221@d6 B212@a5 B222@b5 B211@c5 B112@d5 B121@b3 "
        "R212@a4 R211@c4 R121@a3 R112@d2 R122@a1 R111@b1 R222@c1 R221@d1"
    )
    st = state("6x4", spec)
    play(st, "c4xb3")
    b = board("6x4")
    assert st.pos[3] == b.square("b3") and st.pos[8 + 2] == EXILE


# --- La permutation -------------------------------------------------------------------------


def test_permutation_of_two_ships_on_board() -> None:
    """Permutation: two complementary ships swap places."""
    st = state("6x4", BASE + " R112@b2 R221@c3")
    play(st, "112=221")
    b = board("6x4")
    assert st.pos[1] == b.square("c3") and st.pos[6] == b.square("b2")


def test_permutation_with_an_exiled_ship() -> None:
    """Only one on board: it goes to exile and the exiled one takes its place."""
    st = state("6x4", BASE + " R121@b2")  # R212 exiled
    play(st, "121=212")
    b = board("6x4")
    assert st.pos[2] == EXILE and st.pos[5] == b.square("b2")


def test_no_permutation_when_both_exiled() -> None:
    st = state("6x4", BASE + " R121@b2")
    assert "112=221" not in ids(st)
    assert "121=212" in ids(st)


def test_own_corvette_exiled_by_permutation_loses_at_once() -> None:
    """RULINGS: exiling one's own corvette by permutation is legal and loses at once."""
    st = state("6x4", BASE)  # the cruiser 222 is exiled
    assert "111=222" in ids(st)
    play(st, "111=222")
    assert corvette_exiled(tuple(st.pos)) == RED
    out = GAME.outcome(st)
    assert out is not None and out.winners == [BLUE] and not out.half


# --- La rotation ----------------------------------------------------------------------------


def test_rotation_of_three_on_board_has_two_directions() -> None:
    """Rotation: each ship takes the next one's place; both cyclic directions are legal (RULINGS)."""
    st = state("6x4", BASE + " R112@a2 R121@b2 R211@c2")
    assert {"112>121>211", "112>211>121"} <= ids(st)
    play(st, "112>121>211")
    b = board("6x4")
    # 112 takes 121's place, 121 takes 211's, 211 takes 112's.
    assert (st.pos[1], st.pos[2], st.pos[3]) == (b.square("b2"), b.square("c2"), b.square("a2"))


def test_rotation_with_one_exiled_has_two_variants() -> None:
    """Two on board: the exiled one comes in, one of the two goes out; RULINGS: both variants."""
    st = state("6x4", BASE + " R122@a2 R212@b2")  # R221 exiled
    b = board("6x4")
    results = set()
    for rot in ("122>212>221", "122>221>212"):
        s2 = st.model_copy(deep=True)
        play(s2, rot)
        results.add((s2.pos[4], s2.pos[5], s2.pos[6]))
    a2, b2 = b.square("a2"), b.square("b2")
    assert results == {(b2, EXILE, a2), (EXILE, a2, b2)}


def test_no_rotation_with_two_exiled() -> None:
    st = state("6x4", BASE + " R122@a2")
    assert not any(">" in i for i in ids(st))


# --- Tour de positionnement -----------------------------------------------------------------


def test_positioning_turn_offers_teleports_and_pass_only() -> None:
    """First turn: permutation, rotation or pass; no displacement."""
    b = board("6x4")
    st = state("6x4", "", turn=0)
    st.pos = list(b.start)
    got = ids(st) - {DRAW}
    assert got == {"pass", "111=222", "112=221", "121=212", "211=122"} | {
        "112>121>211",
        "112>211>121",
        "122>212>221",
        "122>221>212",
    }


def test_positioning_turn_is_for_both_sides_and_only_once() -> None:
    b = board("6x4")
    st = state("6x4", "", turn=0)
    st.pos = list(b.start)
    play(st, "pass")
    assert decision(st).seat == BLUE and "pass" in ids(st)
    play(st, "121=212")
    assert "pass" not in ids(st) and any("-" in i for i in ids(st))
    assert tuple(st.pos) != b.start


def test_positioning_can_be_switched_off() -> None:
    """Les joueurs peuvent s'entendre pour ne pas appliquer cette règle (host option)."""
    st = GAME.setup(
        _seats(), "duel", {"board": "5x5", "positioning": False, "ai_level": "easy"}, _ctx()
    )
    got = ids(st)
    assert "pass" not in got and "b1-b2" in got


# --- Coup bonus -----------------------------------------------------------------------------


def test_bonus_after_one_square_onto_last_row() -> None:
    """The book's figure: 221 rouge moves one square, then rotates with 122 and 212."""
    st = state("6x4", BASE + " R221@b5 R122@a2 R212@c2")
    got = ids(st)
    assert {"b5-b6", "b5-b6+122>212>221", "b5-b6+122>221>212", "b5-b6+112=221"} <= got
    play(st, "b5-b6+122>221>212")
    b = board("6x4")
    # 122 takes 221's place (b6), 221 takes 212's (c2), 212 takes 122's (a2).
    assert (st.pos[4], st.pos[6], st.pos[5]) == (b.square("b6"), b.square("c2"), b.square("a2"))
    assert decision(st).seat == BLUE


def test_bonus_permutation_recalls_an_exiled_ship() -> None:
    """Permutation as a bonus: the ship on the last row goes to exile, its complement takes its place."""
    st = state("6x4", BASE + " R112@b5")
    play(st, "b5-b6+112=221")
    b = board("6x4")
    assert st.pos[1] == EXILE and st.pos[6] == b.square("b6")


def test_no_bonus_elsewhere_or_after_two_squares() -> None:
    st = state("6x4", BASE + " R211@b4 R122@a2")
    got = ids(st)
    assert "b4-b6" in got and not any(i.startswith("b4-b6+") for i in got)
    assert "b4-b5" in got and not any(i.startswith("b4-b5+") for i in got)


def test_blue_last_row_is_row_one() -> None:
    """RULINGS: each side's last row is the far edge; blue's is row 1."""
    st = state("6x4", "R111@d6 B111@a6 B112@b2", to_move=BLUE)
    assert "b2-b1+112=221" in ids(st)


# --- Fin de partie et départage -------------------------------------------------------------


def test_exiling_the_enemy_corvette_wins() -> None:
    st = state("6x4", "R111@a1 B111@a3 R121@a2")
    play(st, "a2xa3")
    out = GAME.outcome(st)
    assert (
        out is not None and out.winners == [RED] and not out.half and out.scores == {0: 1.0, 1: 0.0}
    )
    assert GAME.pending(st) == []


def test_tiebreak_after_40_turns_without_expulsion_last_expeller_wins_half() -> None:
    """Départage: 40 consecutive turns with the same ship count; last expeller wins ½."""
    st = state(
        "6x4", "R111@a1 B111@d6 R211@b1 B211@c6", streak=TIEBREAK_TURNS - 1, last_expeller=RED
    )
    play(st, "b1-b2")
    out = GAME.outcome(st)
    assert out is not None and out.half and out.winners == [RED] and out.scores[0] == 0.5


def test_tiebreak_without_any_expulsion_blue_wins_half() -> None:
    st = state("6x4", "R111@a1 B111@d6 R211@b1 B211@c6", streak=TIEBREAK_TURNS - 1)
    play(st, "b1-b2")
    out = GAME.outcome(st)
    assert out is not None and out.half and out.winners == [BLUE]


def test_expulsion_resets_the_tiebreak_count() -> None:
    st = state("6x4", "R111@a1 B111@d6 R121@b2 B211@b3", streak=TIEBREAK_TURNS - 1)
    play(st, "b2xb3")
    assert st.streak == 0 and GAME.outcome(st) is None


def test_turn_count_counts_teleports_and_moves() -> None:
    st = state("6x4", "R111@a1 B111@d6 R211@b1 B211@c6")
    play(st, "b1-b2")
    play(st, "c6-c5")
    play(st, "211=122")
    assert st.streak == 3


def test_tiebreak_by_agreement_is_a_reaction_decision() -> None:
    """Both players agree: the proposer's button asks the opponent; acceptance ends with ½."""
    st = state("6x4", "R111@a1 B111@d6 R211@b1 B211@c6", last_expeller=RED)
    play(st, DRAW)
    d = decision(st)
    assert (
        d.seat == BLUE
        and d.kind == "tiebreak"
        and {o.id for o in d.options} == {"accept", "refuse"}
    )
    play(st, "accept")
    out = GAME.outcome(st)
    assert out is not None and out.half and out.winners == [RED]


def test_refused_tiebreak_returns_the_turn_without_a_second_offer() -> None:
    st = state("6x4", "R111@a1 B111@d6 R211@b1 B211@c6")
    key0 = decision(st).key
    play(st, DRAW)
    play(st, "refuse")
    d = decision(st)
    assert d.seat == RED and DRAW not in {o.id for o in d.options} and d.key != key0
    play(st, "b1-b2")
    assert DRAW in ids(st)  # blue may propose on its own turn
    assert GAME.outcome(st) is None


@pytest.mark.parametrize("board_id", ["6x4", "5x5"])
def test_positions_are_consistent(board_id: str) -> None:
    p = place(board_id, "R111@a1 B111@b2")
    assert p.count(EXILE) == 14


def test_tiebreak_counts_exactly_40_turns_after_the_last_expulsion() -> None:
    """Départage: "resté constant pendant 40 tours consécutifs (20 pour chaque joueur)".

    Played turn by turn: after red's expulsion, 39 quiet turns (a teleport
    through exile among them: one out, one in, same count) leave the match
    running; the 40th ends it, half victory to red, the last to expel.
    """
    st = state("6x4", "R111@a1 B111@d6 R121@b2 B211@b3 B212@c6")
    play(st, "b2xb3")
    assert st.streak == 0 and st.last_expeller == RED
    blue = ["c6-c5", "c5-c6"]
    b = board("6x4")
    for i in range(TIEBREAK_TURNS):
        assert GAME.outcome(st) is None, f"over after {i} quiet turns"
        if st.to_move == BLUE:
            play(st, blue[(i // 2) % 2])
        elif i == 21:
            play(st, "121=212")  # 121 to exile, 212 in: the count stays the same
            assert st.pos[2] == EXILE and st.pos[5] != EXILE
        else:
            src = b.name(st.pos[5] if st.pos[2] == EXILE else st.pos[2])
            play(st, f"{src}-{'c3' if src == 'b3' else 'b3'}")
    assert st.streak == TIEBREAK_TURNS
    out = GAME.outcome(st)
    assert out is not None and out.half and out.winners == [RED]
    assert out.scores == {RED: 0.5, BLUE: 0.0}


def test_last_row_on_the_5x5_board() -> None:
    """Coup bonus on 5 x 5: red's last row is row 5, blue's is row 1; row 4/2 give no bonus."""
    st = state("5x5", "R111@a1 B111@e5 R112@b4 R121@c3")
    got = ids(st)
    assert "b4-b5+112=221" in got
    assert not any(i.startswith("c3-c4+") for i in got)
    st_b = state("5x5", "R111@a1 B111@e5 B112@d2 B121@c3", to_move=BLUE)
    got_b = ids(st_b)
    assert "d2-d1+112=221" in got_b
    assert not any(i.startswith("c3-c2+") for i in got_b)


def test_positioning_turn_is_on_by_default() -> None:
    """RULINGS: the positioning turn is on unless the host switches it off."""
    st = GAME.setup(_seats(), "duel", {}, _ctx())
    assert st.positioning and "pass" in ids(st)
    assert not any("-" in i or "x" in i[2:3] for i in ids(st))


@pytest.mark.parametrize("board_id", ["6x4", "5x5"])
def test_squares_are_named_by_column_letter_and_row_number(board_id: str) -> None:
    """The notation (RULES.md "Notation": a column letter and a row number) names every
    square once, and reads each name back to its square."""
    b = board(board_id)
    names = [b.name(sq) for sq in range(b.size)]
    assert names[0] == "a1" and names[b.cols - 1] == "abcdef"[b.cols - 1] + "1"
    assert names[-1] == "abcdef"[b.cols - 1] + str(b.rows)
    assert len(set(names)) == b.size
    assert [b.square(n) for n in names] == list(range(b.size))
