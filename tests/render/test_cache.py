"""The image cache (issue 16 item 3): an identical view is drawn once, anything that changes
the picture changes the key, and the cache stays within its bounds."""

from __future__ import annotations

import pytest

from bot.engine import Match, SeatSpec
from bot.render import cache
from bot.render.cache import ImageCache, image_key


def arena(seed: str = "cache") -> Match:
    return Match.create("arena", [SeatSpec(name=f"P{i}", ai=True) for i in range(3)], seed=seed)


def test_identical_views_are_drawn_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "IMAGES", ImageCache())
    monkeypatch.setattr("bot.engine.match.IMAGES", cache.IMAGES)
    m = arena()
    drawn: list[str] = []
    real = type(m.game).render

    def counting(self, view, lang="en", decision=None):  # type: ignore[no-untyped-def]
        drawn.append(lang)
        return real(self, view, lang, decision)

    monkeypatch.setattr(type(m.game), "render", counting)
    first = m.render(None, "fr")
    assert m.render(None, "fr") == first and drawn == ["fr"]
    # Another match showing the very same view shares the drawing.
    assert arena().render(None, "fr") == first and drawn == ["fr"]
    # The language, the seat's prompt marks and a move all draw anew.
    m.render(None, "en")
    (d,) = m.pending()
    m.render(d.seat, "fr", d)
    assert drawn == ["fr", "en", "fr"]
    m.apply(m.ai_choice(d))
    assert m.render(None, "fr") != first and len(drawn) == 4
    assert cache.IMAGES.hits == 2


def test_keys_separate_games_languages_views_and_marks() -> None:
    m = arena()
    (d,) = m.pending()
    v = m.view(None)
    base = image_key("arena", v, "fr")
    assert base == image_key("arena", m.view(None), "fr")
    assert base != image_key("mad", v, "fr")
    assert base != image_key("arena", v, "en")
    assert base != image_key("arena", v, "fr", d)
    other = arena("other").view(None)
    assert other == v or base != image_key("arena", other, "fr")


def test_the_cache_is_bounded_in_entries_and_bytes() -> None:
    c = ImageCache(max_entries=3, max_bytes=100)
    for k in range(5):
        c.put(bytes([k]), b"x" * 10)
    assert len(c) == 3 and c.get(b"\x00") is None and c.get(b"\x04") == b"x" * 10
    c.get(b"\x02")  # used last: kept, the least recently used go first
    c.put(b"big", b"y" * 85)
    assert c.get(b"\x03") is None and c.get(b"\x04") is None
    assert c.get(b"\x02") == b"x" * 10 and c.get(b"big") == b"y" * 85 and c.size == 95
    c.put(b"huge", b"z" * 101)  # larger than the whole cache: not kept
    assert c.get(b"huge") is None and c.size <= 100
    # An empty drawing (a game that draws nothing) is not kept.
    assert c.get_or_render(b"none", lambda: b"") == b"" and c.get(b"none") is None


def test_a_view_is_serialised_once_and_keyed_by_what_it_says() -> None:
    """The table's view key and the image key hash the same view: serialised once per view
    object (:func:`view_json`), and a view equal in content gives the same bytes."""
    m = arena()
    v = m.view(None)
    assert m.view(None) is v  # one object per state and seat
    once = cache.view_json(v)
    assert once == v.model_dump_json().encode()
    assert cache.view_json(v) is once  # not serialised again
    twin = v.model_copy(deep=True)
    assert twin is not v and cache.view_json(twin) == once
    m.apply(m.ai_choice(m.pending()[0]))
    assert cache.view_json(m.view(None)) != once  # a move shows something else
    for i in range(cache.JSON_KEPT + 1):  # bounded
        cache.view_json(arena(f"bound{i}").view(None))
    assert len(cache._JSON) <= cache.JSON_KEPT


def test_a_serialised_view_is_not_kept_alive() -> None:
    """:func:`view_json` holds the view weakly: a view of a state the match left is
    freed by reference counting, not kept until the collector scans it."""
    import gc
    import weakref

    m = arena("weak")
    v = m.view(None)
    data = cache.view_json(v)
    ref = weakref.ref(v)
    gc.disable()
    try:
        m.apply(m.ai_choice(m.pending()[0]))  # the match's own view of that state goes
        del v
        assert ref() is None
    finally:
        gc.enable()
    fresh = m.view(None)
    assert cache.view_json(fresh) != data
