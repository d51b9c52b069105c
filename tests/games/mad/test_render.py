"""MAD's picture for a phone: a prompt's destinations named as on its buttons, the
numbers the picture no longer prints in the message text (issue 11 items 4, 5)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.engine import Match, SeatSpec
from bot.games.mad import render
from bot.games.mad.args import Displacement
from bot.games.mad.core import board
from bot.render.common import HIGHLIGHT


def played(board_id: str, turns: int, seed: int = 5) -> Match:
    seats = [
        SeatSpec(name="Ann", ai=True, ai_level="easy"),
        SeatSpec(name="Bob", ai=True, ai_level="easy"),
    ]
    m = Match.create("mad", seats, seed=seed, options={"board": board_id})
    for _ in range(turns):
        m.apply(m.ai_choice(m.pending()[0]))
    return m


@pytest.mark.parametrize("board_id", ["6x4", "5x5"])
def test_a_prompt_names_each_destination_as_its_buttons_do(
    board_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every displacement's destination carries a yellow tag with its square's name,
    the words its buttons end with (``111 b6 → b5``); nothing else is tagged."""
    m = played(board_id, 6)
    (decision,) = m.pending()
    moves = [o for o in decision.options if isinstance(o.args, Displacement)]
    assert moves
    geometry = board(board_id)
    names = {geometry.name(o.args.dst) for o in moves if isinstance(o.args, Displacement)}
    for o in moves:
        assert isinstance(o.args, Displacement)
        assert o.label.en.endswith(geometry.name(o.args.dst))
    tags: list[str] = []
    real = render._tag

    def spy(d, cx, cy, text, *args, **kw):  # type: ignore[no-untyped-def]
        tags.append(text)
        real(d, cx, cy, text, *args, **kw)

    monkeypatch.setattr(render, "_tag", spy)
    view = m.view(decision.seat)
    marked = Image.open(io.BytesIO(m.game.render(view, "en", decision))).convert("RGB")
    assert set(tags) == names and len(tags) == len(names)
    for name in names:
        cx, cy = render.square_centre(view, name)
        cell = render.cell_size(view.cols)
        # The square's yellow frame, just inside its edge.
        px = marked.getpixel((int(cx), int(cy - cell / 2 + 5)))
        assert (
            isinstance(px, tuple)
            and max(abs(a - b) for a, b in zip(px, HIGHLIGHT, strict=True)) <= 4
        )
    tags.clear()
    plain = m.game.render(view, "en")
    assert tags == [] and plain != m.game.render(view, "en", decision)


def test_the_message_text_has_the_last_move_the_counter_and_the_result() -> None:
    m = played("6x4", 10)
    lines = m.game.board_text(m.view(None), "fr")
    text = "\n".join(lines)
    view = m.view(None)
    assert view.last is not None and view.last.text in text
    assert f"Sans expulsion : {view.streak}/40 tours" in text
    assert "Mouvement · Attaque · Défense" in text
    en = "\n".join(m.game.board_text(m.view(None), "en"))
    assert "tie-break:" in en and "Sans" not in en


def test_the_end_names_the_winner_in_the_picture_and_the_reason_in_the_text() -> None:
    from bot.engine.autoplay import play_out

    m = play_out(played("5x5", 0, seed=9))
    view = m.view(None)
    assert view.result is not None
    assert view.result.reason.en in m.game.board_text(view, "en")
    img = Image.open(io.BytesIO(m.render(None, "en")))
    assert img.width == 1024
