"""What to post, as plain data: the cogs turn these into discord.py objects.

Limits are Discord's (content 2000, embed description 4096, 25 select
options, labels 80); :func:`clip` keeps every string inside them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Style = Literal["primary", "secondary", "success", "danger"]

CONTENT_MAX = 2000
DESCRIPTION_MAX = 4096
LABEL_MAX = 80
SELECT_LABEL_MAX = 100
SELECT_OPTIONS_MAX = 25


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass
class Button:
    label: str
    custom_id: str
    style: Style = "secondary"
    emoji: str | None = None
    disabled: bool = False

    def __post_init__(self) -> None:
        self.label = clip(self.label, LABEL_MAX)


@dataclass
class SelectOption:
    label: str
    value: str
    description: str | None = None
    emoji: str | None = None

    def __post_init__(self) -> None:
        self.label = clip(self.label, SELECT_LABEL_MAX)
        if self.description is not None:
            self.description = clip(self.description, SELECT_LABEL_MAX)


@dataclass
class Select:
    custom_id: str
    placeholder: str
    options: list[SelectOption]
    disabled: bool = False

    def __post_init__(self) -> None:
        self.placeholder = clip(self.placeholder, 150)
        self.options = self.options[:SELECT_OPTIONS_MAX]


Row = list[Button] | Select


@dataclass
class Embed:
    title: str | None = None
    description: str | None = None
    colour: int | None = None
    fields: list[tuple[str, str, bool]] = field(default_factory=list)
    image: str | None = None
    """Filename of an attachment of the same message shown as the embed image."""
    footer: str | None = None


@dataclass
class TextBlock:
    """A components v2 text display (Markdown; mentions in it may ping)."""

    text: str


@dataclass
class Gallery:
    """A components v2 media gallery of attachments of the same message, by filename."""

    images: list[str]


@dataclass
class FileBlock:
    """A components v2 file: an attachment of the same message shown as a download."""

    filename: str


@dataclass
class Rule:
    """A components v2 separator (a thin line)."""


Block = TextBlock | Gallery | FileBlock | Rule
V2_COMPONENTS_MAX = 40
V2_TEXT_MAX = 4000
"""Discord's limits for a components v2 message: 40 components in all (nested ones
included), 4000 characters of text displays summed over the message."""


@dataclass
class Attachment:
    filename: str
    data: bytes


@dataclass
class Msg:
    content: str | None = None
    embeds: list[Embed] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    files: list[Attachment] = field(default_factory=list)
    mentions: list[int] = field(default_factory=list)
    """User ids this message may ping (nobody else, never @everyone)."""
    keep_files: bool = False
    """An edit keeps the attachments the message already has (a private prompt redrawn
    after a click keeps its board image instead of uploading it again)."""
    secret: bool = False
    """Carries one seat's own view (its board image): only ever an ephemeral message or a
    DM, never a public one."""
    layout: list[Block] = field(default_factory=list)
    """A components v2 message (``IS_COMPONENTS_V2``): these blocks in one container,
    then ``rows`` as action rows; ``content`` and ``embeds`` stay empty (Discord refuses
    them together)."""
    accent: int | None = None
    """The container's accent colour (v2 only)."""

    @property
    def v2(self) -> bool:
        return bool(self.layout)

    def text(self) -> str:
        """Everything the message says (content, embeds, text displays): for checks."""
        parts = [self.content or ""]
        for e in self.embeds:
            parts += [e.title or "", e.description or "", e.footer or ""]
            parts += [f"{n}\n{v}" for n, v, _ in e.fields]
        parts += [b.text for b in self.layout if isinstance(b, TextBlock)]
        return "\n".join(p for p in parts if p)

    def offers(self, custom_id: str, values: list[str] | None) -> bool:
        """Whether this message offers exactly that: an enabled button ``custom_id`` (no
        values), or an enabled select ``custom_id`` with one of its values, byte for byte.

        What a modified client sends is only ever compared with what we drew, never parsed.
        """
        for row in self.rows:
            if isinstance(row, Select):
                if row.custom_id == custom_id and not row.disabled:
                    return (
                        values is not None
                        and len(values) == 1
                        and any(o.value == values[0] for o in row.options)
                    )
                continue
            for b in row:
                if b.custom_id == custom_id and not b.disabled:
                    return not values
        return False


@dataclass
class Reply:
    """The answer to one interaction.

    ``update`` replaces the message the clicked component is on; ``private``
    are ephemeral messages for the clicking user only, in order.
    """

    update: Msg | None = None
    private: list[Msg] = field(default_factory=list)
    strip: bool = False
    """Remove the components of the clicked message, keeping its text (a stale prompt)."""

    @classmethod
    def say(cls, text: str) -> Reply:
        return cls(private=[Msg(content=clip(text, CONTENT_MAX))])


@dataclass
class Upload:
    """A file attached to a command (``/arena start cards:``), already downloaded.

    ``data`` is None when it was not downloaded (too large, or the download failed).
    """

    filename: str
    size: int
    data: bytes | None


@dataclass
class Actor:
    """Who clicked or typed, in the language of their client."""

    user_id: int
    name: str
    lang: str = "en"
    manager: bool = False
    """Has Manage Server here (may cancel anybody's match, change settings)."""
