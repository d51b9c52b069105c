"""Rendered images kept by what they show, so an identical view is drawn once (issue 16 item 3).

About one render in eight draws a view already drawn (the public board after a secret
pick, a seat's board asked for twice, a second language shown the same step). A key is a
digest of the game's class, the language, the view's content and the prompt's marks: two
matches showing the same thing share one drawing, and anything that changes the
picture changes the key. The cache is bounded in entries and in bytes (least recently
used first out) and safe to use from the rendering worker threads.
"""

from __future__ import annotations

import hashlib
import json
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable

from pydantic import BaseModel

from bot.engine.decisions import Decision

MAX_ENTRIES = 512
MAX_BYTES = 48 * 1024 * 1024
"""About 600 phone-sized images: the boards of the matches being played right now."""

Key = bytes

JSON_KEPT = 512
"""Views and decisions whose JSON is kept (:func:`view_json`, :func:`decision_json`):
those of the matches moving right now (256 when only views were kept; a prompt's
decision is looked up as often as its seat's view). A few MB at most."""
_JSON: OrderedDict[int, tuple[weakref.ref[BaseModel], bytes]] = OrderedDict()
_JSON_LOCK = threading.Lock()


def view_json(view: BaseModel) -> bytes:
    """``view`` as JSON, serialised once per view object: :meth:`Match.view` hands out one
    object per state and seat, and the table's view key, the image key and the summary
    all hash that same view (views are never changed once built)."""
    return _model_json(view)


def decision_json(decision: Decision) -> bytes:
    """``decision`` as JSON, serialised once per decision object (:meth:`Match.pending`
    hands out the same objects until the state moves): the image key and the drawing
    worker's copy (:class:`bot.engine.wire.DecisionWire`) share it."""
    return _model_json(decision)


def _model_json(model: BaseModel) -> bytes:
    """The model is held weakly: a view or decision of a state the match left is freed
    at once, not kept alive here until young garbage collections have scanned it
    (issue 16 item 5). Models are never changed once built."""
    with _JSON_LOCK:
        hit = _JSON.get(id(model))
        if hit is not None and hit[0]() is model:
            _JSON.move_to_end(id(model))
            return hit[1]
    data = model.__pydantic_serializer__.to_json(model)  # model_dump_json's bytes, not decoded
    with _JSON_LOCK:
        _JSON[id(model)] = (weakref.ref(model), data)
        while len(_JSON) > JSON_KEPT:
            _JSON.popitem(last=False)
    return data


def image_key(drawer: str, view: object, lang: str, decision: Decision | None = None) -> Key:
    """A digest of everything a picture depends on: a renderer is a pure function of these
    (``drawer`` names the game's class, so two games never share a picture; a view is a
    pydantic model, a plain JSON-able value is accepted too)."""
    h = hashlib.blake2b(digest_size=20)
    h.update(drawer.encode())
    h.update(b"\0")
    h.update(lang.encode())
    h.update(b"\0")
    h.update(type(view).__qualname__.encode())
    h.update(b"\0")
    if isinstance(view, BaseModel):
        h.update(view_json(view))
    else:
        h.update(json.dumps(view, sort_keys=True, default=str).encode())
    if decision is not None:
        h.update(b"\0decision\0")
        h.update(decision_json(decision))
    return h.digest()


class ImageCache:
    """A bounded, thread-safe LRU of PNG bytes by :func:`image_key`."""

    def __init__(self, max_entries: int = MAX_ENTRIES, max_bytes: int = MAX_BYTES) -> None:
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self._items: OrderedDict[Key, bytes] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._items)

    @property
    def size(self) -> int:
        """Bytes held."""
        return self._bytes

    def get(self, key: Key) -> bytes | None:
        with self._lock:
            data = self._items.get(key)
            if data is None:
                self.misses += 1
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return data

    def put(self, key: Key, data: bytes) -> None:
        if len(data) > self.max_bytes:
            return
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._bytes -= len(old)
            self._items[key] = data
            self._bytes += len(data)
            while len(self._items) > self.max_entries or self._bytes > self.max_bytes:
                _, dropped = self._items.popitem(last=False)
                self._bytes -= len(dropped)

    def get_or_render(self, key: Key, draw: Callable[[], bytes]) -> bytes:
        """The cached image for ``key``, drawing (outside the lock) and keeping it on a miss.
        An empty drawing (a game that draws nothing) is not kept."""
        data = self.get(key)
        if data is None:
            data = draw()
            if data:
                self.put(key, data)
        return data

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._bytes = 0
            self.hits = self.misses = 0


IMAGES = ImageCache()
"""The process's image cache (rendering is pure, so one cache serves every match)."""
