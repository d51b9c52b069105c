"""A decision sent to another process as its JSON and the classes of its typed arguments.

Why: the drawing and AI workers are processes (issue 16), and pickling a
:class:`Decision` walks every option's pydantic models in Python on the event loop,
30-200 µs a decision (a tenth of a millisecond per click, under the interpreter lock
the loop needs). Its JSON is made by pydantic's compiled serialiser, and the image
cache already makes it for its key (:func:`bot.render.cache.decision_json`). JSON alone
loses which game's :class:`Args` subclass each ``args`` was (the field is typed with
the base class), so the classes travel beside it, in order: the decision's own, then
each option's. A class pickles as its name.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import orjson

from bot.engine.decisions import Args, Decision
from bot.render.cache import decision_json


class DecisionWire(NamedTuple):
    """A :class:`Decision` ready to pickle cheaply; :meth:`decision` rebuilds it equal."""

    json: bytes
    classes: tuple[type[Args] | None, ...]
    """The class of ``args``: the decision's, then each option's (None: no args)."""

    @classmethod
    def of(cls, decision: Decision) -> DecisionWire:
        """The JSON is the one the image cache keeps for this decision object (its image
        key hashed it): serialised once."""
        classes = (_class(decision.args), *(_class(o.args) for o in decision.options))
        return cls(decision_json(decision), classes)

    def decision(self) -> Decision:
        data: dict[str, Any] = orjson.loads(self.json)
        classes = iter(self.classes)
        _typed(data, next(classes))
        for option in data["options"]:
            _typed(option, next(classes))
        return Decision.model_validate(data)


def _class(args: Args | None) -> type[Args] | None:
    return None if args is None else type(args)


def _typed(data: dict[str, Any], cls: type[Args] | None) -> None:
    """``data["args"]`` validated as the game's own class: a model instance passes the
    base-typed field as it is."""
    if cls is not None:
        data["args"] = cls.model_validate(data["args"])
