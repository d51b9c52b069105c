"""Restart-proof component ids: ``am:<match>:<action>:<version>[:<arg>]``.

A button must still work after the bot restarts, so everything it needs is in
its custom_id: the match id, the action and the state version it was drawn
for. Never a secret: private prompts carry a short hash of the decision key
and an option *index*, not the option id. Discord caps custom_ids at 100 chars.
A draft prompt's ids also carry the draft's id and revision (:mod:`bot.gm.prompts`).
"""

from __future__ import annotations

import hashlib
import re
from typing import NamedTuple

PREFIX = "am"
MAX_LEN = 100
_TAIL = r":(?P<ver>[0-9]{1,9})(?::(?P<arg>[A-Za-z0-9._-]{1,40}))?"
BUTTON_ACTIONS = (
    "join",
    "leave",
    "addai",
    "start",
    "cancel",
    "hand",
    "pick",
    "grp",
    "back",
    "page",
    "dopt",
    "damt",
    "dback",
    "dok",
)
SELECT_ACTIONS = ("mode", "opt", "sel", "dsel")
DRAFT_ACTIONS = ("dopt", "damt", "dback", "dok", "dsel")
"""A draft prompt's components: toggle/place an option, set an amount, undo, confirm, select."""
LOBBY_ACTIONS = ("join", "leave", "addai", "start", "cancel", "mode", "opt")
BUTTON_TEMPLATE = r"am:(?P<mid>[0-9]{1,19}):(?P<action>" + "|".join(BUTTON_ACTIONS) + ")" + _TAIL
"""What :class:`cogs.components.ArenaButton` answers to."""
SELECT_TEMPLATE = r"am:(?P<mid>[0-9]{1,19}):(?P<action>" + "|".join(SELECT_ACTIONS) + ")" + _TAIL
PATTERN = re.compile(r"am:(?P<mid>[0-9]{1,19}):(?P<action>[a-z]{1,8})" + _TAIL)


class Cid(NamedTuple):
    mid: int
    action: str
    ver: int
    arg: str | None = None


def cid(mid: int, action: str, ver: int, arg: str | None = None) -> str:
    out = f"{PREFIX}:{mid}:{action}:{ver}" + (f":{arg}" if arg is not None else "")
    if len(out) > MAX_LEN or not PATTERN.fullmatch(out):
        raise ValueError(f"bad custom_id {out!r}")
    return out


def parse(custom_id: str) -> Cid | None:
    m = PATTERN.fullmatch(custom_id)
    if m is None:
        return None
    return Cid(int(m["mid"]), m["action"], int(m["ver"]), m["arg"])


def key_tag(key: str) -> str:
    """A short stable tag for a decision key (keys may hold ':' and be long)."""
    return hashlib.sha256(key.encode()).hexdigest()[:8]
