"""The game master: everything the Discord layer decides, without discord.

``bot.gm`` turns clicks and commands into engine decisions (one lock per
match, the engine's version check, one store transaction per decision), runs
AI seats and deadlines, and says what to post as plain data (:mod:`bot.gm.msg`).
``cogs/`` only translate those plans to discord.py calls, so every rule of the
table lives here and can be tested without a network.
"""

from bot.gm.clock import Clock, ManualClock, SystemClock
from bot.gm.msg import (
    Actor,
    Attachment,
    Button,
    Embed,
    Msg,
    Reply,
    Select,
    SelectOption,
    Upload,
)
from bot.gm.publisher import DmResult, Publisher
from bot.gm.service import GameMaster

__all__ = [
    "Actor",
    "Attachment",
    "Button",
    "Clock",
    "DmResult",
    "Embed",
    "GameMaster",
    "ManualClock",
    "Msg",
    "Publisher",
    "Reply",
    "Select",
    "SelectOption",
    "SystemClock",
    "Upload",
]
