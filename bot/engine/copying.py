"""Cheap state copies and shared strings for pydantic match states (issue 16 item 5).

Every apply works on a copy of the state (:meth:`bot.engine.game.Game.copy`), so a
refused decision never leaves a half-applied state. ``copy.deepcopy`` of a pydantic
state was a top CPU cost per click: it keeps a memo of every object, and pydantic's
``__deepcopy__`` goes through it for each model. A match state is a tree of models,
lists, dicts and immutable leaves, so a copy only has to rebuild the mutable nodes:
:func:`copy_state` does that, and shares what cannot change (strings, numbers,
frozen models such as a game's data file or a :class:`~bot.engine.text.Text`).

Each pydantic instance also carries the set of its fields that were given, 2 kB for
a model of twenty fields. A state loaded from its snapshot was given every field, so
a copy and :func:`share_fields_sets` give each instance its class's one set of all
fields (pydantic only ever adds a field's name to it, which is already there).
"""

from __future__ import annotations

import copy
import sys
from types import UnionType
from typing import Any, Literal, TypeVar, Union, cast, get_args, get_origin

from pydantic import BaseModel

T = TypeVar("T")

_ATOMS: frozenset[type] = frozenset({str, int, float, bool, type(None), bytes})
"""Immutable leaves, shared by a copy (exact types: a subclass may carry state)."""

_FROZEN: dict[type, bool] = {}
"""Whether a model class is frozen (read once per class)."""

_ALL_FIELDS: dict[type, set[str]] = {}
"""Per model class, the one set of all its field names its instances share."""


def _all_fields(t: type[BaseModel]) -> set[str]:
    found = _ALL_FIELDS.get(t)
    if found is None:
        found = _ALL_FIELDS[t] = set(t.model_fields)
    return found


def copy_state(value: T) -> T:
    """A copy of a match state that no change to it can reach back from.

    Lists, dicts and unfrozen models are rebuilt; immutable leaves and frozen models
    are shared (a frozen model is one nothing mutates: a game's data, a text). As in
    a state loaded from its snapshot, two references to one mutable object in
    ``value`` become two objects and every field counts as given. Anything else is
    deep-copied.
    """
    return cast(T, _copy(value))


def _copy(v: Any) -> Any:
    t = type(v)
    if t in _ATOMS:
        return v
    if t is list:
        if _ATOMS.issuperset(map(type, v)):
            return v[:]
        return [x if type(x) in _ATOMS else _copy(x) for x in v]
    if t is dict:
        if _ATOMS.issuperset(map(type, v.values())):
            return v.copy()
        return {k: x if type(x) in _ATOMS else _copy(x) for k, x in v.items()}
    if isinstance(v, BaseModel):
        frozen = _FROZEN.get(t)
        if frozen is None:
            frozen = _FROZEN[t] = bool(t.model_config.get("frozen"))
        return v if frozen else _copy_model(v)
    if t is tuple:
        return tuple(_copy(x) for x in v)
    return copy.deepcopy(v)


_MAYBE_MUTABLE: dict[type, tuple[str, ...]] = {}
"""Per model class, the fields whose type allows a mutable value (the others are
shared as they are: a field typed ``int``, ``str``, a ``Literal`` or a frozen model)."""


def _maybe_mutable(t: type[BaseModel]) -> tuple[str, ...]:
    found = _MAYBE_MUTABLE.get(t)
    if found is None:
        found = _MAYBE_MUTABLE[t] = tuple(
            name for name, f in t.model_fields.items() if not _immutable_type(f.annotation)
        )
    return found


def _immutable_type(tp: Any) -> bool:
    """Whether every value of this type is immutable (mypy checks the fields' types)."""
    if tp in _ATOMS:
        return True
    origin = get_origin(tp)
    if origin is Literal:
        return all(type(a) in _ATOMS for a in get_args(tp))
    if origin is Union or origin is UnionType:
        return all(_immutable_type(a) for a in get_args(tp))
    return (
        isinstance(tp, type) and issubclass(tp, BaseModel) and bool(tp.model_config.get("frozen"))
    )


def _copy_model(v: BaseModel) -> BaseModel:
    """A new instance with copied fields, as pydantic's ``__deepcopy__`` builds one."""
    t = type(v)
    new = object.__new__(t)
    fields = v.__dict__.copy()
    for name in _maybe_mutable(t):
        x = fields[name]
        if type(x) not in _ATOMS:
            fields[name] = _copy(x)
    set_attr = object.__setattr__
    set_attr(new, "__dict__", fields)
    extra = v.__pydantic_extra__
    set_attr(
        new,
        "__pydantic_fields_set__",
        _all_fields(t) if extra is None else set(v.__pydantic_fields_set__),
    )
    set_attr(new, "__pydantic_extra__", None if extra is None else _copy(extra))
    private = v.__pydantic_private__
    set_attr(
        new,
        "__pydantic_private__",
        None if private is None else {k: _copy(x) for k, x in private.items()},
    )
    return new


def intern_strings(value: Any) -> Any:
    """JSON data with its strings (keys and values) interned.

    Why: a state loaded from JSON holds its own copy of every id and word ("water",
    "forest", a card's id...) while every other live match holds the same ones; the
    interned string is one object for all of them.
    """
    t = type(value)
    if t is str:
        return sys.intern(value)
    if t is list:
        return [intern_strings(x) for x in value]
    if t is dict:
        return {
            (sys.intern(k) if type(k) is str else k): intern_strings(x) for k, x in value.items()
        }
    return value


def share_fields_sets(value: Any) -> None:
    """Give every unfrozen model in a freshly loaded state (each given all its fields)
    its class's shared set of field names instead of a set of its own."""
    todo = [value]
    while todo:
        v = todo.pop()
        t = type(v)
        if t is list:
            todo.extend(x for x in v if type(x) not in _ATOMS)
        elif t is dict:
            todo.extend(x for x in v.values() if type(x) not in _ATOMS)
        elif isinstance(v, BaseModel) and not t.model_config.get("frozen"):
            full = _all_fields(t)
            if v.__pydantic_extra__ is None and v.__pydantic_fields_set__ == full:
                object.__setattr__(v, "__pydantic_fields_set__", full)
            todo.extend(x for x in v.__dict__.values() if type(x) not in _ATOMS)
