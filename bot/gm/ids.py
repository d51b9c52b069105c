"""Restart-proof component ids, built and read by one typed codec.

A button must still work after the bot restarts, so everything it needs is in
its custom_id: ``am:<match>:<action>:<version>[:<arg>]``, the match id, the
action and the state version it was drawn for. Never a secret: private
prompts carry a short hash of the decision key and an option *index*, not the
option id. Discord caps custom_ids at 100 chars. A draft prompt's ids also
carry the draft's id and revision (:mod:`bot.gm.prompts`).

Each kind of component is a frozen dataclass below; :func:`parse` accepts a
string only if it is exactly what :meth:`ComponentId.encode` writes for some
value (plain ASCII digits, no sign, space, leading zero or other script), so
handlers never take a custom id apart themselves.
"""

from __future__ import annotations

import functools
import hashlib
import re
from dataclasses import dataclass
from typing import ClassVar, Literal

PREFIX = "am"
MAX_LEN = 100
Kind = Literal["button", "select"]

_NAT = r"(?:0|[1-9][0-9]{0,8})"
_INT = r"(?:0|-?[1-9][0-9]{0,8})"
_TAG = r"[0-9a-f]{8}"
_DID = r"(?:n|[0-9a-f]{6})"
_LONGEST = 102
"""The longest string :data:`_HEAD` can match."""
_HEAD = re.compile(
    r"am:(?P<mid>[1-9][0-9]{0,18}):(?P<action>[a-z]{1,8}):(?P<ver>" + _NAT + r")"
    r"(?::(?P<arg>[A-Za-z0-9._-]{1,60}))?"
)


@dataclass(frozen=True)
class ComponentId:
    """What every component id holds: the match and the version it was drawn for."""

    ACTION: ClassVar[str] = ""
    KIND: ClassVar[Kind] = "button"
    ARG: ClassVar[re.Pattern[str] | None] = None
    """The shape of the argument (named groups = the int/str fields after ``ver``)."""

    mid: int
    ver: int

    @property
    def action(self) -> str:
        return self.ACTION

    @property
    def arg(self) -> str | None:
        """The part after the version, as written (None: there is none)."""
        return self._arg()

    def _arg(self) -> str | None:
        return None

    def encode(self) -> str:
        """The custom id; raises if this value could not be read back as itself."""
        return _encode(self)

    @classmethod
    def build(cls, mid: int, ver: int, groups: dict[str, str]) -> ComponentId:
        return cls(mid, ver)


# --- the lobby --------------------------------------------------------------------------------
LobbyAction = Literal[
    "join", "leave", "addai", "start", "cancel", "mode", "opt", "rematch", "seat", "mine"
]


@dataclass(frozen=True)
class LobbyButton(ComponentId):
    """A lobby button (version 0: a lobby has no state version)."""

    action: LobbyAction = "join"


@dataclass(frozen=True)
class LobbySelect(LobbyButton):
    """The lobby's mode menu or options menu."""

    KIND: ClassVar[Kind] = "select"


LOBBY_BUTTONS: tuple[LobbyAction, ...] = ("join", "leave", "addai", "start", "cancel", "rematch")
LOBBY_SELECTS: tuple[LobbyAction, ...] = ("mode", "opt", "seat", "mine")
"""``seat``: the host sets one seat (its AI level, its lobby choices); ``mine``: a player
sets their own seat's lobby choices (a fighter)."""


def lobby_id(mid: int, action: LobbyAction) -> str:
    cls = LobbySelect if action in LOBBY_SELECTS else LobbyButton
    return cls(mid, 0, action).encode()


# --- the round board and private prompts -------------------------------------------------------
@dataclass(frozen=True)
class Hand(ComponentId):
    """The round board's "Make your choice": the clicking user's prompts."""

    ACTION: ClassVar[str] = "hand"


@dataclass(frozen=True)
class Resume(Hand):
    """The absence notice's "I'm back": the seat the AI took for absence goes back to its
    player (``ver``: the version the seat went away at; any other is refused)."""

    ACTION: ClassVar[str] = "resume"


@dataclass(frozen=True)
class Tagged(ComponentId):
    """A component of the prompt for one decision (``tag``: :func:`key_tag` of its key)."""

    ARG: ClassVar[re.Pattern[str] | None] = re.compile(f"(?P<tag>{_TAG})")
    tag: str = ""

    def _arg(self) -> str | None:
        return self.tag

    @classmethod
    def build(cls, mid: int, ver: int, groups: dict[str, str]) -> ComponentId:
        return cls(mid, ver, groups["tag"])


@dataclass(frozen=True)
class Back(Tagged):
    """Back from a group of options to the groups."""

    ACTION: ClassVar[str] = "back"


@dataclass(frozen=True)
class Indexed(Tagged):
    """A prompt component with one number: an option, a group or a page."""

    ARG: ClassVar[re.Pattern[str] | None] = re.compile(f"(?P<tag>{_TAG})\\.(?P<n>{_NAT})")
    n: int = 0

    def _arg(self) -> str | None:
        return f"{self.tag}.{self.n}"

    @classmethod
    def build(cls, mid: int, ver: int, groups: dict[str, str]) -> ComponentId:
        return cls(mid, ver, groups["tag"], int(groups["n"]))


@dataclass(frozen=True)
class Pick(Indexed):
    """The button of option ``n`` of the decision."""

    ACTION: ClassVar[str] = "pick"


@dataclass(frozen=True)
class Group(Indexed):
    """The button opening group ``n`` of the decision's options."""

    ACTION: ClassVar[str] = "grp"


@dataclass(frozen=True)
class Page(Indexed):
    """The Previous/Next button showing page ``n`` of a long prompt."""

    ACTION: ClassVar[str] = "page"


@dataclass(frozen=True)
class Menu(Tagged):
    """Select ``n`` of page ``page`` of a long prompt; values from :func:`menu_value`."""

    ACTION: ClassVar[str] = "sel"
    KIND: ClassVar[Kind] = "select"
    ARG: ClassVar[re.Pattern[str] | None] = re.compile(
        f"(?P<tag>{_TAG})\\.(?P<page>{_NAT})\\.(?P<n>{_NAT})"
    )
    page: int = 0
    n: int = 0

    def _arg(self) -> str | None:
        return f"{self.tag}.{self.page}.{self.n}"

    @classmethod
    def build(cls, mid: int, ver: int, groups: dict[str, str]) -> ComponentId:
        return cls(mid, ver, groups["tag"], int(groups["page"]), int(groups["n"]))


@dataclass(frozen=True)
class MenuValue:
    """What a :class:`Menu` value stands for: option ``index`` or group ``index``."""

    kind: Literal["o", "g"]
    index: int

    def encode(self) -> str:
        return f"{self.kind}{self.index}"


_MENU_VALUE = re.compile(f"(?P<kind>[og])(?P<n>{_NAT})")


def parse_menu_value(value: str) -> MenuValue | None:
    """Only exactly what :meth:`MenuValue.encode` writes."""
    m = _MENU_VALUE.fullmatch(value)
    if m is None:
        return None
    out = MenuValue("o" if m["kind"] == "o" else "g", int(m["n"]))
    return out if out.encode() == value else None


# --- drafts (Many, Order, Allocation) ----------------------------------------------------------
_DRAFT = f"(?P<tag>{_TAG})\\.(?P<did>{_DID})\\.(?P<rev>{_NAT})"


@dataclass(frozen=True)
class Draft(Tagged):
    """A draft prompt's component: which draft (``did``) at which revision it was drawn for."""

    ARG: ClassVar[re.Pattern[str] | None] = re.compile(_DRAFT)
    did: str = "n"
    rev: int = 0

    def base(self) -> str:
        return f"{self.tag}.{self.did}.{self.rev}"

    def _arg(self) -> str | None:
        return self.base()

    @classmethod
    def build(cls, mid: int, ver: int, groups: dict[str, str]) -> ComponentId:
        return cls(mid, ver, groups["tag"], groups["did"], int(groups["rev"]))


@dataclass(frozen=True)
class DraftBack(Draft):
    """Undo the draft's last step."""

    ACTION: ClassVar[str] = "dback"


@dataclass(frozen=True)
class DraftConfirm(Draft):
    """Send the draft as the answer."""

    ACTION: ClassVar[str] = "dok"


@dataclass(frozen=True)
class DraftToggle(Draft):
    """Toggle (Many) or place (Order) option ``index``."""

    ACTION: ClassVar[str] = "dopt"
    ARG: ClassVar[re.Pattern[str] | None] = re.compile(f"{_DRAFT}\\.(?P<index>{_NAT})")
    index: int = 0

    def _arg(self) -> str | None:
        return f"{self.base()}.{self.index}"

    @classmethod
    def build(cls, mid: int, ver: int, groups: dict[str, str]) -> ComponentId:
        return cls(mid, ver, groups["tag"], groups["did"], int(groups["rev"]), int(groups["index"]))


@dataclass(frozen=True)
class DraftAmount(Draft):
    """Set quantity ``quantity`` to ``amount`` (the -/+ buttons)."""

    ACTION: ClassVar[str] = "damt"
    ARG: ClassVar[re.Pattern[str] | None] = re.compile(
        f"{_DRAFT}\\.(?P<quantity>{_NAT})\\.(?P<amount>{_INT})"
    )
    quantity: int = 0
    amount: int = 0

    def _arg(self) -> str | None:
        return f"{self.base()}.{self.quantity}.{self.amount}"

    @classmethod
    def build(cls, mid: int, ver: int, groups: dict[str, str]) -> ComponentId:
        return cls(
            mid,
            ver,
            groups["tag"],
            groups["did"],
            int(groups["rev"]),
            int(groups["quantity"]),
            int(groups["amount"]),
        )


@dataclass(frozen=True)
class DraftMenu(Draft):
    """A draft's select: ``part`` ``f`` picks the quantity shown, ``o<n>`` is the n-th
    select of options, ``q<i>`` the amounts of quantity i."""

    ACTION: ClassVar[str] = "dsel"
    KIND: ClassVar[Kind] = "select"
    ARG: ClassVar[re.Pattern[str] | None] = re.compile(f"{_DRAFT}\\.(?P<part>f|[oq])(?P<n>{_NAT})?")
    part: Literal["f", "o", "q"] = "f"
    n: int = 0

    def _arg(self) -> str | None:
        return f"{self.base()}.f" if self.part == "f" else f"{self.base()}.{self.part}{self.n}"

    @classmethod
    def build(cls, mid: int, ver: int, groups: dict[str, str]) -> ComponentId:
        part = groups["part"]
        n = groups.get("n")
        if (part == "f") != (n is None):
            raise ValueError(part)
        kind: Literal["f", "o", "q"] = "f" if part == "f" else "o" if part == "o" else "q"
        return cls(mid, ver, groups["tag"], groups["did"], int(groups["rev"]), kind, int(n or 0))


_KINDS: dict[str, type[ComponentId]] = {
    c.ACTION: c
    for c in (Hand, Resume, Back, Pick, Group, Page, Menu, DraftBack, DraftConfirm, DraftToggle)
}
_KINDS.update({DraftAmount.ACTION: DraftAmount, DraftMenu.ACTION: DraftMenu})
DRAFT_ACTIONS = ("dopt", "damt", "dback", "dok", "dsel")


CACHED = 2048
"""Ids encoded and parsed kept in memory: a prompt draws the same buttons in each
language and view, and a click reads back an id just drawn (values are frozen)."""


@functools.lru_cache(maxsize=CACHED)
def _encode(c: ComponentId) -> str:
    out = _write(c)
    if len(out) > MAX_LEN or _parse(out) != c:
        raise ValueError(f"bad custom_id {out!r}")
    return out


def parse(custom_id: str) -> ComponentId | None:
    """The typed id ``custom_id`` stands for, or None for anything we never write."""
    if len(custom_id) > _LONGEST:
        return None  # nothing that long matches: not worth a place in the cache
    return _parse(custom_id)


@functools.lru_cache(maxsize=CACHED)
def _parse(custom_id: str) -> ComponentId | None:
    m = _HEAD.fullmatch(custom_id)
    if m is None:
        return None
    mid, action, ver, arg = int(m["mid"]), m["action"], int(m["ver"]), m["arg"]
    out: ComponentId
    if action in LOBBY_BUTTONS or action in LOBBY_SELECTS:
        if arg is not None or ver != 0:
            return None
        lobby = LobbySelect if action in LOBBY_SELECTS else LobbyButton
        out = lobby(mid, 0, action)
    else:
        cls = _KINDS.get(action)
        if cls is None or (cls.ARG is None) != (arg is None):
            return None
        groups: dict[str, str] = {}
        if cls.ARG is not None:
            am = cls.ARG.fullmatch(arg or "")
            if am is None:
                return None
            groups = {k: v for k, v in am.groupdict().items() if v is not None}
        try:
            out = cls.build(mid, ver, groups)
        except ValueError:
            return None
    # Canonical form only: what encode() writes for this value, byte for byte.
    return out if _write(out) == custom_id else None


def _write(c: ComponentId) -> str:
    if isinstance(c, LobbyButton):
        return f"{PREFIX}:{c.mid}:{c.action}:0"
    arg = c._arg()
    return f"{PREFIX}:{c.mid}:{c.ACTION}:{c.ver}" + (f":{arg}" if arg is not None else "")


@functools.lru_cache(maxsize=CACHED)
def key_tag(key: str) -> str:
    """A short stable tag for a decision key (keys may hold ':' and be long)."""
    return hashlib.sha256(key.encode()).hexdigest()[:8]
