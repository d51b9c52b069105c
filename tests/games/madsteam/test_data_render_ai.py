"""Data validation (RULINGS: Madsteam), the image and the AI levels."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.engine import Match, SeatSpec
from bot.engine.autoplay import play_out
from bot.engine.errors import IllegalDecision
from bot.games.madsteam import GAME
from bot.games.madsteam.data import BOOK_OBJECTS, DEFAULT_DATA, load_data, parse_data

TEXT = DEFAULT_DATA.read_text("utf-8")


def test_default_data_holds_the_books_counts_and_named_objects() -> None:
    d = load_data()
    assert len(d.objects) == 40 and sum(g.count for g in d.gibier) == 36
    assert len(d.events) == 10 and len(d.shelters) == 4
    assert all(len(s.rooms) == 8 for s in d.shelters) and len(d.supermarket) == 4
    names = {o.name for o in d.objects}
    assert set(BOOK_OBJECTS) <= names
    pioche = next(o for o in d.objects if o.name == "Pioche")
    assert sorted(pioche.cost) == ["metal", "wood", "wood"]  # the book's repair example
    assert "water" in next(o for o in d.objects if o.name == "Décrypteur").cost


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ('name = "Pioche"', 'name = "Pelle"'),  # a named object missing
        ('symbol = "red-bolt"\nhalf = "right"', 'symbol = "red-bolt"\nhalf = "left"'),  # halves
        ("strength = 7\nfood = [5, 6, 7, 8]", "strength = 7\nfood = [8, 6, 7, 8]"),  # track
        ("cost = { ammo = 3 }", "cost = { food = 3 }"),  # food perished by step 4
        ('id = "ruche"', 'id = "forge"'),  # shelters distinct
    ],
)
def test_a_bad_data_file_is_refused_politely(old: str, new: str) -> None:
    assert old in TEXT
    with pytest.raises(IllegalDecision):
        parse_data(TEXT.replace(old, new, 1))


def test_uploaded_data_wins_and_is_kept_in_the_options() -> None:
    text = TEXT.replace('name = "Rat géant"', 'name = "Rat de labo"')
    seats = [SeatSpec(name="A"), SeatSpec(name="B"), SeatSpec(name="C")]
    m = Match.create("madsteam", seats, seed="upl", options={"data_text": text})
    assert any(g.name == "Rat de labo" for g in m.state.data.gibier)
    assert GAME.info.upload_option() is not None and GAME.info.upload_option().upload_for == "data"  # type: ignore[union-attr]


def test_render_board_and_shelter_are_pngs() -> None:
    m = Match.create("madsteam", [SeatSpec(name=f"S{i}", ai=True) for i in range(4)], seed="img")
    for _ in range(60):
        d = m.pending()[0]
        m.apply(m.ai_choice(d))
    public = Image.open(io.BytesIO(GAME.render(m.view(None), "fr")))
    mine = Image.open(io.BytesIO(GAME.render(m.view(0), "en")))
    assert 900 <= public.width <= 1024 and mine.height > public.height  # the seat sees its shelter


def test_views_hide_the_setup_draw_of_others() -> None:
    m = Match.create("madsteam", [SeatSpec(name="A"), SeatSpec(name="B")], seed="secret")
    mine, public = GAME.view(m.state, 0), GAME.view(m.state, None)
    assert mine.players[0].drawn and not mine.players[1].drawn
    assert not any(p.drawn for p in public.players)


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_ai_levels_play_a_whole_game(level: str) -> None:
    seats = [SeatSpec(name=f"{level}{i}", ai=True, ai_level=level) for i in range(3)]
    m = Match.create("madsteam", seats, seed=f"ai-{level}")
    play_out(m, max_decisions=3000)
    out = m.outcome()
    assert out is not None and out.winners
    # The AI feeds its shelter: some survivors are still alive at the end.
    assert sum(p.survivors for p in m.state.players) > 0
