"""The side effects the game master needs from Discord, and nothing more."""

from __future__ import annotations

import base64
from collections import OrderedDict
from enum import Enum
from typing import Any, Protocol

from bot.gm.msg import (
    Attachment,
    Block,
    Button,
    Embed,
    FileBlock,
    Gallery,
    Msg,
    Row,
    Rule,
    Select,
    SelectOption,
    TextBlock,
)


class DmResult(Enum):
    SENT = "sent"
    CLOSED = "closed"
    """The user does not accept DMs from the bot (HTTP 403): remembered."""
    FAILED = "failed"


class RetryLater(Exception):
    """Discord did not take an edit for now (rate limited, a server error): the outbox
    keeps it and tries again later (an edit refused for good returns True instead)."""


class Publisher(Protocol):
    async def send(self, channel_id: int, msg: Msg) -> int | None:
        """Post in a channel or thread; the new message id, or None on failure."""
        ...

    # Optional: ``send_once(channel_id, msg, nonce) -> int | None``, a send Discord
    # deduplicates by ``nonce`` (``enforce_nonce``): a post the outbox repeats after a
    # restart is then not shown twice. A publisher without it gets ``send``.

    async def edit(self, channel_id: int, message_id: int, msg: Msg) -> bool:
        """Edit a message; False when it is gone (then the caller posts anew). May raise
        :class:`RetryLater` when Discord is only busy (the outbox tries again)."""
        ...

    # Optional: ``exempt(message_id) -> bool``, whether ``edit`` of that message can go
    # through an interaction's token now (Discord counts those calls neither in the bot's
    # global rate limit nor in the channel's: the pacing gives them a budget of their own).

    async def dm(self, user_id: int, msg: Msg) -> DmResult: ...

    async def retire(self, channel_id: int, message_id: int) -> bool:
        """Remove the buttons of a superseded message, keeping its text and image.

        False when that failed (message gone, rate limited): nothing to retry, the
        message's buttons answer "out of date" anyway. Optional for a publisher.
        """
        ...

    async def create_thread(self, channel_id: int, name: str) -> int | None:
        """A public thread in ``channel_id``; None when the bot may not create one."""
        ...


# --- messages as JSON (the outbox stores them rendered) --------------------------------
def msg_to_json(msg: Msg) -> dict[str, Any]:
    """A message as JSON, attachments base64-encoded: the outbox stores exactly what to
    post, so a restart delivers the same message even though the match moved on."""
    rows: list[Any] = []
    for row in msg.rows:
        if isinstance(row, Select):
            rows.append({"select": _select_json(row)})
        else:
            rows.append({"buttons": [_button_json(b) for b in row]})
    return {
        "content": msg.content,
        "embeds": [_embed_json(e) for e in msg.embeds],
        "rows": rows,
        "files": [{"filename": a.filename, "data": _encoded(a.data)} for a in msg.files],
        "mentions": list(msg.mentions),
        **({"layout": [_block_json(b) for b in msg.layout]} if msg.layout else {}),
        **({"accent": msg.accent} if msg.accent is not None else {}),
        **({"keep_files": True} if msg.keep_files else {}),
    }


DECODED_KEPT = 64
"""Images last encoded for the outbox, kept with their base64 text (a few MB; used on the
game master's event loop only, like the outbox)."""
_DECODED: OrderedDict[str, bytes] = OrderedDict()


def _encoded(data: bytes) -> str:
    """An attachment's base64 text, remembered with its bytes: the outbox row is usually
    delivered right after its commit, and decoding tens of kB took 0.1-0.2 ms on the
    event loop where looking the text up takes a tenth of that (issue 16)."""
    text = base64.b64encode(data).decode("ascii")
    _DECODED[text] = data
    _DECODED.move_to_end(text)
    while len(_DECODED) > DECODED_KEPT:
        _DECODED.popitem(last=False)
    return text


def _decoded(text: str) -> bytes:
    """The bytes of a stored attachment: remembered if this process encoded it lately
    (looked up by the whole text, so only the same text gives them), else decoded."""
    data = _DECODED.get(text)
    return data if data is not None else base64.b64decode(text)


# Field by field, as ``dataclasses.asdict`` gives them (a test holds them equal) at an
# eighth of its cost: asdict copies every value deeply, for plain strings and numbers.
def _button_json(b: Button) -> dict[str, Any]:
    return {
        "label": b.label,
        "custom_id": b.custom_id,
        "style": b.style,
        "emoji": b.emoji,
        "disabled": b.disabled,
    }


def _select_json(s: Select) -> dict[str, Any]:
    return {
        "custom_id": s.custom_id,
        "placeholder": s.placeholder,
        "options": [
            {"label": o.label, "value": o.value, "description": o.description, "emoji": o.emoji}
            for o in s.options
        ],
        "disabled": s.disabled,
    }


def _embed_json(e: Embed) -> dict[str, Any]:
    return {
        "title": e.title,
        "description": e.description,
        "colour": e.colour,
        "fields": [list(f) for f in e.fields],  # JSON's arrays: a read gives the same
        "image": e.image,
        "footer": e.footer,
    }


def _block_json(block: Block) -> dict[str, Any]:
    if isinstance(block, TextBlock):
        return {"text": block.text}
    if isinstance(block, Gallery):
        return {"gallery": list(block.images)}
    if isinstance(block, FileBlock):
        return {"file": block.filename}
    return {"rule": True}


def _block_from_json(data: dict[str, Any]) -> Block:
    if "text" in data:
        return TextBlock(str(data["text"]))
    if "gallery" in data:
        return Gallery([str(x) for x in data["gallery"]])
    if "file" in data:
        return FileBlock(str(data["file"]))
    return Rule()


def msg_from_json(data: dict[str, Any]) -> Msg:
    """The inverse of :func:`msg_to_json`."""
    rows: list[Row] = []
    for row in data.get("rows", []):
        if "select" in row:
            sel = dict(row["select"])
            sel["options"] = [SelectOption(**o) for o in sel["options"]]
            rows.append(Select(**sel))
        else:
            rows.append([Button(**b) for b in row["buttons"]])
    return Msg(
        content=data.get("content"),
        embeds=[
            Embed(**{**e, "fields": [tuple(f) for f in e.get("fields", [])]})
            for e in data.get("embeds", [])
        ],
        rows=rows,
        files=[Attachment(f["filename"], _decoded(f["data"])) for f in data.get("files", [])],
        mentions=list(data.get("mentions", [])),
        layout=[_block_from_json(b) for b in data.get("layout", [])],
        accent=data.get("accent"),
        keep_files=bool(data.get("keep_files", False)),
    )
