"""copy_state rebuilds what an apply may change and shares what cannot change;
share_fields_sets and intern_strings share what every loaded state repeats (issue 16 item 5)."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.engine.copying import copy_state, intern_strings, share_fields_sets
from bot.engine.text import Text


class Leaf(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    values: list[int]


class Node(BaseModel):
    count: int = 0
    tags: list[str] = Field(default_factory=list)
    scores: dict[int, list[int]] = Field(default_factory=dict)
    leaf: Leaf | None = None
    label: Text | None = None
    pair: tuple[list[int], int] = ([], 0)
    seen: set[int] = Field(default_factory=set)
    children: list[Node] = Field(default_factory=list)
    kind: Literal["a", "b"] | None = None
    anything: Any = None
    maybe: list[int] | None = None


class Loose(BaseModel):
    model_config = ConfigDict(extra="allow")

    a: int = 0


def sample() -> Node:
    leaf = Leaf(name="rat", values=[1, 2])
    return Node(
        count=3,
        tags=["x", "y"],
        scores={1: [4, 5]},
        leaf=leaf,
        label=Text(fr="bonjour", en="hello"),
        pair=([7], 8),
        seen={9},
        children=[Node(count=1, leaf=leaf, tags=["z"])],
    )


def test_a_copy_is_equal_and_changing_it_never_reaches_the_original() -> None:
    original = sample()
    before = original.model_dump()
    c = copy_state(original)
    assert c.model_dump() == before and c == original
    c.count = 4
    c.tags.append("w")
    c.scores[1].append(6)
    c.pair[0].append(0)
    c.seen.add(10)
    c.children[0].tags.append("q")
    c.children.append(Node())
    assert original.model_dump() == before


def test_a_copy_shares_frozen_models_and_leaves_only() -> None:
    original = sample()
    c = copy_state(original)
    assert c.leaf is original.leaf and c.children[0].leaf is original.leaf
    assert c.label is original.label
    assert c.tags[0] is original.tags[0]
    for mine, theirs in [
        (c.tags, original.tags),
        (c.scores, original.scores),
        (c.scores[1], original.scores[1]),
        (c.pair[0], original.pair[0]),
        (c.seen, original.seen),
        (c.children, original.children),
        (c.children[0], original.children[0]),
    ]:
        assert mine is not theirs


def test_two_references_to_one_list_become_two_lists_as_after_a_reload() -> None:
    shared: list[str] = ["a"]
    original = Node(tags=shared, children=[Node(tags=shared)])
    c = copy_state(original)
    assert c.tags is not c.children[0].tags
    c.tags.append("b")
    assert c.children[0].tags == ["a"]


def test_every_field_counts_as_given_in_a_copy_and_in_a_loaded_state() -> None:
    built = Node(count=2)  # built by hand: only ``count`` was given
    assert built.model_fields_set == {"count"}
    c = copy_state(built)
    assert c.model_fields_set == set(Node.model_fields)
    assert c.model_dump() == built.model_dump()
    c.count = 5  # pydantic adds the name to the set: it is there already
    assert copy_state(Node()).model_fields_set == set(Node.model_fields)
    loaded = [Node.model_validate(json.loads(sample().model_dump_json())) for _ in range(2)]
    assert loaded[0].model_fields_set is not loaded[1].model_fields_set
    for node in loaded:
        share_fields_sets(node)
    assert loaded[0].model_fields_set is loaded[1].model_fields_set
    assert loaded[0].children[0].model_fields_set is loaded[0].model_fields_set
    # A set missing some field stays the instance's own.
    partial = Node(count=1)
    share_fields_sets(partial)
    assert partial.model_fields_set == {"count"}


def test_a_model_with_extra_fields_keeps_its_own_set() -> None:
    loose = Loose(a=1, b=2)  # type: ignore[call-arg]
    c = copy_state(loose)
    assert c.model_dump() == {"a": 1, "b": 2}
    assert c.model_fields_set == loose.model_fields_set
    assert c.model_fields_set is not loose.model_fields_set
    assert c.__pydantic_extra__ is not loose.__pydantic_extra__


def test_interned_json_shares_each_string() -> None:
    word = "".join(["fo", "rest"])  # built at run time: not the constant "forest"
    other = "".join(["for", "est"])
    assert word is not other
    a = intern_strings({"place": word, "stack": [{word: 1}]})
    b = intern_strings({"place": other, "stack": [{other: 2}]})
    assert a["place"] is b["place"]
    assert next(iter(a["stack"][0])) is next(iter(b["stack"][0]))
    assert a == {"place": "forest", "stack": [{"forest": 1}]}


def test_fields_typed_loosely_are_copied_by_what_they_hold() -> None:
    original = Node(kind="a", anything=[1, [2]], maybe=[3])
    c = copy_state(original)
    assert c.kind == "a"
    assert c.anything == [1, [2]] and c.anything is not original.anything
    assert c.anything[1] is not original.anything[1]
    assert c.maybe == [3] and c.maybe is not original.maybe
    c.anything[1].append(4)
    assert original.anything == [1, [2]]
