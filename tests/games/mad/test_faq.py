"""One test per answer of the official FAQ ("Quelques précisions sur les règles")."""

from __future__ import annotations

from bot.engine import Match, SeatSpec
from bot.engine.autoplay import play_out
from bot.games.mad.core import BLUE, EXILE, RED, board
from bot.games.mad.game import DRAW, GAME
from tests.games.mad.helpers import decision, ids, play, state

BASE = "R111@a1 B111@d6"


def _moves_from(st, sq: str) -> set[str]:  # type: ignore[no-untyped-def]
    return {i[3:5] for i in ids(st) if i.startswith(sq) and i[2] in "-x"}


# Déplacement


def test_faq_no_diagonal_move() -> None:
    """Un vaisseau peut-il se déplacer en diagonale ? Non."""
    st = state("6x4", BASE + " R121@b3")
    assert not {"a2", "a4", "c2", "c4"} & _moves_from(st, "b3")


def test_faq_two_sails_may_move_one_square() -> None:
    """Un vaisseau avec 2 voiles peut-il se déplacer d'une seule case ? Oui."""
    st = state("6x4", BASE + " R211@b3")
    assert {"a3", "c3", "b2", "b4"} <= _moves_from(st, "b3")


def test_faq_expulsion_ends_the_move() -> None:
    """After expelling at one square, a 2-sail ship cannot go on: no destination behind the victim."""
    st = state("6x4", BASE + " R221@b3 B121@b4")
    got = _moves_from(st, "b3")
    assert "b4" in got and "b5" not in got and "a4" in got  # a4 via a3 only
    st2 = state("6x4", BASE + " R221@b3 B121@b4 R112@a3")
    assert "a4" not in _moves_from(st2, "b3")


def test_faq_cannot_jump_over_a_ship() -> None:
    """Passer au-dessus d'un autre vaisseau ? Non, la case intermédiaire doit être libre."""
    st = state("6x4", BASE + " R211@b2 B122@b3")  # 1 cannon cannot expel 122, nor pass
    assert "b4" not in _moves_from(st, "b2")


def test_faq_no_round_trip() -> None:
    """Aller-retour pour revenir sur sa case de départ ? Non: start and arrival differ."""
    st = state("6x4", BASE + " R211@b3")
    assert "b3" not in _moves_from(st, "b3")


def test_faq_never_onto_an_ally() -> None:
    """Aller sur une case occupée par un vaisseau allié ? Non. Jamais."""
    st = state("6x4", BASE + " R222@b3 R112@b4")
    assert "b4" not in _moves_from(st, "b3")


# Expulsion


def test_faq_attacker_is_not_expelled() -> None:
    """211 rouge onto 121 bleu: only the defender is expelled; the attacker takes its square."""
    st = state("6x4", BASE + " R211@b3 B121@b4")
    play(st, "b3xb4")
    b = board("6x4")
    assert st.pos[3] == b.square("b4") and st.pos[8 + 2] == EXILE


def test_faq_211_cannot_land_on_112() -> None:
    """211 rouge onto 112 bleu: impossible (1 cannon against 2 shields)."""
    st = state("6x4", BASE + " R211@b3 B112@b4")
    assert "b4" not in _moves_from(st, "b3")


# Permutation


def test_faq_the_four_permutations() -> None:
    """111⇄222, 112⇄221, 121⇄212, 211⇄122."""
    b = board("6x4")
    st = state("6x4", BASE, turn=0)
    st.pos = list(b.start)
    assert {i for i in ids(st) if "=" in i} == {"111=222", "112=221", "121=212", "211=122"}


def test_faq_exiled_cruiser_permuted_with_corvette_loses() -> None:
    """Si le croiseur 222 est exilé, peut-on le permuter avec la corvette ? Oui, mais perte immédiate."""
    st = state("6x4", "R111@a1 B111@d6 B112@c6", to_move=BLUE)
    play(st, "111=222")
    out = GAME.outcome(st)
    assert out is not None and out.winners == [RED]


# Rotation


def test_faq_the_four_rotations() -> None:
    """Two groups (frigates, destroyers), two directions each."""
    b = board("6x4")
    st = state("6x4", BASE, turn=0)
    st.pos = list(b.start)
    assert {i for i in ids(st) if ">" in i} == {
        "112>121>211",
        "112>211>121",
        "122>212>221",
        "122>221>212",
    }


def test_faq_rotation_moves_all_three() -> None:
    """Peut-on faire une rotation en bougeant seulement deux des trois vaisseaux ? Non."""
    st = state("6x4", BASE + " R112@a2 R121@b2 R211@c2")
    for rot in ("112>121>211", "112>211>121"):
        s2 = st.model_copy(deep=True)
        play(s2, rot)
        assert all(s2.pos[k] != st.pos[k] for k in (1, 2, 3))


def test_faq_no_frigate_rotation_with_two_exiled() -> None:
    st = state("6x4", BASE + " R112@a2")
    assert not {"112>121>211", "112>211>121"} & ids(st)


# Tour de jeu


def test_faq_expulsion_is_not_a_move() -> None:
    """The expulsion is part of the displacement: the turn then passes."""
    st = state("6x4", BASE + " R211@b3 B121@b4")
    play(st, "b3xb4")
    assert decision(st).seat == BLUE and st.turn == 11


def test_faq_one_move_per_turn() -> None:
    st = state("6x4", BASE + " R211@b3 R121@c3")
    play(st, "b3-b4")
    assert decision(st).seat == BLUE


def test_faq_no_pass_after_positioning() -> None:
    st = state("6x4", BASE + " R211@b3")
    assert "pass" not in ids(st)


def test_faq_no_play_after_a_corvette_is_exiled() -> None:
    st = state("6x4", "R111@a1 B111@a3 R121@a2")
    play(st, "a2xa3")
    assert GAME.pending(st) == []
    assert GAME.outcome(st).winners == [RED]  # type: ignore[union-attr]


# Coup bonus


def test_faq_bonus_is_optional() -> None:
    st = state("6x4", BASE + " R112@b5")
    play(st, "b5-b6")
    assert st.pos[1] == board("6x4").square("b6") and st.pos[6] == EXILE


def test_faq_bonus_after_an_expulsion() -> None:
    st = state("6x4", BASE + " R121@b5 B121@b6")
    assert "b5xb6+121=212" in ids(st)


def test_faq_bonus_must_involve_that_ship() -> None:
    st = state("6x4", BASE + " R112@b5 R122@c2 R212@d2")
    got = {i for i in ids(st) if i.startswith("b5-b6+")}
    assert "122>212>221" in ids(st) and "211=122" in ids(st)  # legal, but not as this bonus
    assert got == {"b5-b6+112=221"}


def test_faq_bonus_with_two_sails_moving_one_square() -> None:
    st = state("6x4", BASE + " R211@b5")
    assert "b5-b6+211=122" in ids(st)


def test_faq_bonus_after_a_lateral_move_on_the_last_row() -> None:
    st = state("6x4", BASE + " R112@b6")
    assert "b6-a6+112=221" in ids(st) and "b6-c6+112=221" in ids(st)


# Tour de positionnement


def test_faq_positioning_also_for_blue() -> None:
    b = board("6x4")
    st = state("6x4", BASE, turn=1, to_move=BLUE)
    st.pos = list(b.start)
    got = ids(st)
    assert "pass" in got and not any(i[2:3] in "-x" and len(i) == 5 for i in got)


# Départage


def test_faq_no_drawn_games() -> None:
    """Y a-t-il des parties nulles ? Non: every finished match has exactly one winner."""
    for seed in range(4):
        m = Match.create(
            "mad",
            [
                SeatSpec(name="a", ai=True, ai_level="easy"),
                SeatSpec(name="b", ai=True, ai_level="easy"),
            ],
            seed=seed,
        )
        play_out(m, max_decisions=500)
        out = m.outcome()
        assert out is not None and len(out.winners) == 1 and not out.shared


def test_faq_tiebreak_is_only_a_half_victory() -> None:
    st = state("6x4", BASE + " R211@b3")
    play(st, DRAW)
    play(st, "accept")
    out = GAME.outcome(st)
    assert out is not None and out.half and out.scores == {BLUE: 0.5, RED: 0.0}


def test_faq_tiebreak_counted_automatically() -> None:
    """Faut-il noter les coups ? The bot counts the 40 turns itself (state.streak)."""
    st = state("6x4", BASE + " R211@b3 B211@b4", to_move=RED)
    play(st, "b3-c3")
    assert st.streak == 1
