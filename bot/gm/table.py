"""The live table message and the round summaries it becomes: pure builders (issue 11.1-2).

One message per period of play shows the board, who is awaited and until when,
the last events, and the public button; it is edited in place while the period
lasts. When the round changes (or a player whose turn begins must be pinged),
that message is edited into the period's summary (its final image and complete
public log, no button) and a new table message is posted below it, so the
channel history reads as the match's story, one message per round or turn.

Nothing here may reveal a secret: the table says who is awaited, never what a
secret or structured decision asks; logs carry only public events.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine import Decision, Match
from bot.gm.ids import Hand
from bot.gm.msg import (
    V2_TEXT_MAX,
    Attachment,
    Block,
    Button,
    Gallery,
    Msg,
    Row,
    Rule,
    TextBlock,
    clip,
)
from bot.gm.present import who
from bot.i18n import t

COLOUR = 0xE0A030
DONE_COLOUR = 0x7A7A7A
TEXT_BLOCK_MAX = 3800
"""Text of one summary message at most (Discord's 4000 for all text displays, with room
for the title)."""
AWAITED_MAX = 1200
BOARD_TEXT_MAX = 1000
RECENT_MAX = 1200
RECENT_LINES = 8
"""The table shows the last events of the period, at most this many lines."""


@dataclass
class Image:
    """The board image a message shows: a new upload (``data``) or the one the message
    already has (``data`` None: an edit keeps its attachment)."""

    filename: str
    data: bytes | None


def board_name(mid: int) -> str:
    """The board's filename on a table message (the same on every edit, so an edit that
    keeps the attachment keeps the gallery's ``attachment://`` reference valid)."""
    return f"match{mid}-board.png"


def _with_image(msg: Msg, image: Image | None) -> Msg:
    if image is None:
        return msg
    msg.layout.insert(1, Gallery([image.filename]))
    if image.data is not None:
        msg.files.append(Attachment(image.filename, image.data))
    else:
        msg.keep_files = True
    return msg


def title(match: Match, label: int, lang: str) -> str:
    return t(lang, "table.title", game=match.game.info.names.get(lang), round=label)


def awaited_lines(
    match: Match,
    pending: list[Decision],
    answered: list[tuple[int, str | None]],
    deadlines: dict[str, float],
    lang: str,
) -> list[str]:
    """Who has chosen (never what) and who is awaited, with a relative deadline."""
    lines = ["✅ " + t(lang, "round.chosen", who=who(match, s, sub, lang)) for s, sub in answered]
    for d in pending:
        name = who(match, d.seat, d.subject, lang)
        if d.secret or d.structured:
            line = "⏳ " + t(lang, "round.waiting_private", who=name)
        else:
            line = "⏳ " + t(lang, "round.waiting", who=name, what=d.prompt.get(lang))
        if d.key in deadlines:
            line += " · " + t(lang, "table.until", ts=int(deadlines[d.key]))
        lines.append(line)
    return lines


def _tail(lines: list[str], limit: int, count: int) -> str:
    """The last ``count`` lines that fit in ``limit`` characters, oldest first."""
    out: list[str] = []
    used = 0
    for line in reversed(lines[-count:]):
        line = clip(line, limit)
        if used + len(line) + 1 > limit:
            break
        out.append(line)
        used += len(line) + 1
    return "\n".join(reversed(out))


def table_msg(
    mid: int,
    match: Match,
    label: int,
    pending: list[Decision],
    answered: list[tuple[int, str | None]],
    deadlines: dict[str, float],
    log: list[str],
    image: Image | None,
    lang: str,
    ping: list[int],
    board: list[str] | None = None,
) -> Msg:
    """The live table: board, who is awaited until when, the last events, the button.

    ``ping``: the users whose turn or pick begins with this message (a new post): they
    alone may be notified. An edit passes none (Discord notifies on posts only, and
    ``allowed_mentions`` stays explicit on every message). ``board``: the game's lines
    for what its image leaves to the text (``Game.board_text``).
    """
    secret = any(d.secret for d in pending)
    blocks: list[Block] = [TextBlock(f"## {clip(title(match, label, lang), 200)}")]
    if board:
        blocks.append(TextBlock(clip("\n".join(board), BOARD_TEXT_MAX)))
    awaited = awaited_lines(match, pending, answered, deadlines, lang)
    if awaited:
        blocks.append(TextBlock(clip("\n".join(awaited), AWAITED_MAX)))
    recent = _tail(log, RECENT_MAX, RECENT_LINES)
    if recent:
        blocks += [Rule(), TextBlock(t(lang, "table.recent") + "\n" + recent)]
    footer = "table.footer_secret" if secret else "table.footer"
    blocks.append(TextBlock("-# " + t(lang, footer, mid=mid)))
    rows: list[Row] = []
    if pending:
        button = Button(
            t(lang, "round.button"), Hand(mid, match.version).encode(), "primary", emoji="🃏"
        )
        rows.append([button])
    msg = Msg(layout=blocks, rows=list(rows), mentions=sorted(set(ping)), accent=COLOUR)
    return _with_image(msg, image)


def chunk(lines: list[str], limit: int) -> list[str]:
    """Log lines in chunks of at most ``limit`` characters (a longer line is cut)."""
    chunks: list[str] = []
    cur = ""
    for line in lines:
        line = clip(line, limit)
        if cur and len(cur) + 1 + len(line) > limit:
            chunks.append(cur)
            cur = ""
        cur = f"{cur}\n{line}" if cur else line
    if cur:
        chunks.append(cur)
    return chunks


def summary_msgs(
    mid: int, match: Match, label: int, log: list[str], image: Image | None, lang: str
) -> list[Msg]:
    """A period's story: its title, final image and complete public log, no button.

    The first message replaces the table (or is posted when the period had none); a
    log longer than one message's text continues in the next ones (titled "continued"),
    so nothing of the dice log is cut.
    """
    head = f"### {clip(title(match, label, lang), 200)}"
    chunks = chunk(log, TEXT_BLOCK_MAX) or [t(lang, "table.quiet")]
    out: list[Msg] = []
    for i, text in enumerate(chunks):
        top = head if i == 0 else "-# " + t(lang, "table.continued", mid=mid, round=label)
        blocks: list[Block] = [TextBlock(top), TextBlock(text)]
        assert sum(len(b.text) for b in blocks if isinstance(b, TextBlock)) <= V2_TEXT_MAX
        msg = Msg(layout=blocks, mentions=[], accent=DONE_COLOUR)
        out.append(_with_image(msg, image) if i == 0 else msg)
    return out
