"""Checks on a game's state copies: what an apply on the copy changes never reaches the
original (issue 16 item 5: ``Game.copy`` shares only what cannot change)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from bot.engine import Match
from bot.engine.dice import FairRng
from bot.engine.game import Ctx


def mutable_nodes(value: Any) -> dict[int, Any]:
    """Every list, dict, set and unfrozen model in a state, by id (kept alive with it).

    A model's set of given fields counts unless it holds every field (then pydantic
    can only add names it already has: instances may share it)."""
    out: dict[int, Any] = {}
    todo = [value]
    while todo:
        v = todo.pop()
        if isinstance(v, BaseModel):
            if v.model_config.get("frozen"):
                continue
            out[id(v)] = v
            todo.extend(v.__dict__.values())
            given = v.__pydantic_fields_set__
            if given != set(type(v).model_fields):
                out[id(given)] = given
        elif isinstance(v, (list, set)):
            out[id(v)] = v
            todo.extend(v)
        elif isinstance(v, dict):
            out[id(v)] = v
            todo.extend(v.values())
        elif isinstance(v, tuple):
            todo.extend(v)
    return out


def check_copies_through(match: Match, moves: int) -> int:
    """Play ``moves`` AI moves; before each, copy the state and apply the move to the copy
    by hand: the copy dumps like the original, shares none of its mutable parts, and the
    original is unchanged by the apply; the copy then equals the match's own result.
    Returns how many moves were checked."""
    game = match.game
    done = 0
    while done < moves and not match.over:
        original = match.state
        before = game.dump(original)
        copied = game.copy(original)
        assert game.dump(copied) == before
        shared = mutable_nodes(original).keys() & mutable_nodes(copied).keys()
        assert not shared, f"the copy shares {len(shared)} mutable objects with the original"
        choice = match.ai_choice(match.pending()[0])
        answer = match.check(choice)
        game.apply(copied, answer, Ctx(FairRng(match.dice.model_copy())))
        assert game.dump(original) == before, "an apply on the copy changed the original"
        match.apply(choice)
        assert game.dump(match.state) == game.dump(copied)
        done += 1
    return done
