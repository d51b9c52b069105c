"""The board picture: a PNG no larger than 1024 px, pure and deterministic."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.engine import Match, SeatSpec
from bot.engine.autoplay import play_out
from tests.games.arena.helpers import GAME, arrange, play


def image(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data))


def busy_state():
    """Every marker at once: down, disarmed with the weapon elsewhere, knocked out, a path."""
    state = arrange(
        [(0, 0), (2, 0), (-3, 3), (0, -3), (3, -3)],
        f1={"posture": "agressive"},
        f2={"down": True, "hp": 3},
        f3={"disarmed": True, "weapon_at": (1, -2), "hp": 2},
        f4={"out": True, "hp": 0},
    )
    play(state, 0, "balancee", "e", "atk1", "ne", dice=[6, 5, 1])
    return state


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_render_fits_discord_and_is_deterministic(lang: str) -> None:
    view = GAME.view(busy_state(), None)
    a = GAME.render(view, lang)
    b = GAME.render(view, lang)
    assert a == b
    img = image(a)
    assert max(img.size) <= 1024


def test_languages_differ_and_the_view_is_not_mutated() -> None:
    view = GAME.view(busy_state(), None)
    before = repr(view)
    assert GAME.render(view, "fr") != GAME.render(view, "en")
    assert repr(view) == before


def test_the_last_path_is_highlighted() -> None:
    state = busy_state()
    plain = GAME.view(state, None)
    no_path = plain.model_copy(update={"last": None})
    assert GAME.render(plain, "en") != GAME.render(no_path, "en")


@pytest.mark.parametrize("n", [2, 6])
def test_render_at_start_and_at_the_end(n: int) -> None:
    m = Match.create("arena", [SeatSpec(name=f"Fighter{i}", ai=True) for i in range(n)], seed="r")
    image(m.render(None, "fr"))
    play_out(m)
    image(m.render(None, "en"))
    image(m.render(0, "fr"))


@pytest.mark.parametrize(
    "marker",
    [
        {"down": True},
        {"disarmed": True, "weapon_at": (1, -2)},
        {"resting": True},
        {"out": True, "hp": 0},
        {"hp": 2},
        {"posture": "dechainee"},
    ],
)
def test_each_marker_changes_the_picture(marker: dict) -> None:
    """Ground, disarmed + dropped weapon, resting, knocked out, HP and posture all show."""
    base = arrange([(0, 0), (2, 0), (-3, 3)])
    marked = arrange([(0, 0), (2, 0), (-3, 3)], f1=marker)
    for lang in ("fr", "en"):
        assert GAME.render(GAME.view(base, None), lang) != GAME.render(
            GAME.view(marked, None), lang
        )


def test_posture_buttons_show_the_handicap_and_disarmed_values() -> None:
    state = arrange([(0, 0), (3, -3)], f0={"hp": 2, "disarmed": True, "weapon_at": (0, 0)})
    stats = {o.id: o.stats for o in GAME.pending(state)[0].options}
    assert stats["dechainee"] == {"move": 2, "atk": 2, "def": 0}
    assert stats["garde"] == {"move": 0, "atk": 0, "def": 2}
    assert stats["defensive"] == {"move": 1, "atk": 1, "def": 1}


def test_pawns_label_their_hp_with_a_heart_not_a_bare_number() -> None:
    """The roster lists fighters in turn order; a bare number on a pawn could be read
    as a seat or a rank, so the pawn's HP carries a heart (explained in the legend)."""
    from bot.games.arena.render import hp_label

    assert hp_label(3) == "3♥" and hp_label(7) == "7♥"


def test_the_picture_shows_the_wound_formula_and_reads_older_records() -> None:
    state = busy_state()
    view = GAME.view(state, None)
    assert view.last is not None and view.last.attack is not None
    atk = view.last.attack
    assert (atk.attack_value, atk.defence_value) == (2, 1)  # balancée vs agressive
    older = atk.model_copy(update={"attack_value": None, "defence_value": None})
    old = view.model_copy(update={"last": view.last.model_copy(update={"attack": older})})
    assert GAME.render(old, "fr") != GAME.render(view, "fr")
