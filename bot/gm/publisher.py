"""The side effects the game master needs from Discord, and nothing more."""

from __future__ import annotations

from enum import Enum
from typing import Protocol

from bot.gm.msg import Msg


class DmResult(Enum):
    SENT = "sent"
    CLOSED = "closed"
    """The user does not accept DMs from the bot (HTTP 403): remembered."""
    FAILED = "failed"


class Publisher(Protocol):
    async def send(self, channel_id: int, msg: Msg) -> int | None:
        """Post in a channel or thread; the new message id, or None on failure."""
        ...

    async def edit(self, channel_id: int, message_id: int, msg: Msg) -> bool:
        """Edit a message; False when it is gone (then the caller posts anew)."""
        ...

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
