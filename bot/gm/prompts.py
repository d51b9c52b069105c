"""A decision's legal options as buttons or selects, generic over every game.

Layout rules (Discord: 5 rows of 5 buttons, 25 options per select):
- options carrying ``Option.group`` form a two-level menu: first the groups
  (a ship), then that group's options (its destinations) with a Back button;
- up to 20 entries are buttons (4 rows), keeping the last row for navigation;
  ``Option.row`` bands lay them out (a hex compass: NW NE / W E / SW SE; the
  tie-break offer apart from the moves), else five to a row;
- more become selects of 25 (up to 4 selects), then pages.
Labels show ``Option.stats`` (a card's initiative, move, melee...) so the
player never has to look a card up. Custom ids carry an option *index*.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine import Decision, Option
from bot.gm.ids import cid, key_tag
from bot.gm.msg import Button, Msg, Row, Select, SelectOption, clip
from bot.i18n import t, t_or

BUTTONS_MAX = 20
SELECTS_MAX = 4
PAGE = 25 * SELECTS_MAX


@dataclass
class Entry:
    label: str
    kind: str  # "o" option index, "g" group index
    index: int
    style: str = "secondary"
    emoji: str | None = None
    description: str | None = None
    row: int | None = None


STAT_SYMBOLS: dict[str, str] = {
    "initiative": "⚡",
    "move": "👣",
    "melee": "⚔️",
    "ranged": "🏹",
    "defence": "🛡️",
    "dice": "🎲",
    "hp": "❤️",
    "atk": "🗡️",
    "def": "🛡️",
    "dmg": "💥",
    "to": "➡️",
}
"""Compact symbols for the stat keys the games use, so button labels stay short (<= 80)."""


def stat_name(key: str, lang: str) -> str:
    """A stat key in the reader's language (``stat.<key>`` in the catalogues), else the key."""
    return t_or(lang, f"stat.{key}", key)


def stat_value(value: object, lang: str) -> str:
    """Word values (a card's ``gong`` initiative) through ``stat.v.<value>``; numbers as is."""
    if isinstance(value, str):
        return t_or(lang, f"stat.v.{value}", value)
    return str(value)


def shown_stats(opt: Option, lang: str) -> dict[str, int | str]:
    """The stats a button adds to its label: not one the label already names
    (Arena!'s ``↗ NE F5`` needs no ``➡️F5``)."""
    words = opt.label.get(lang).split()
    return {k: v for k, v in opt.stats.items() if not isinstance(v, str) or v not in words}


def stats_text(opt: Option, lang: str = "en", *, compact: bool = False) -> str:
    """``Option.stats`` for a player: words in their language, or symbols on buttons.

    A key no catalogue knows falls back to the raw key (a new game still shows
    its values, only untranslated).
    """
    parts = []
    for k, v in (shown_stats(opt, lang) if compact else opt.stats).items():
        value = stat_value(v, lang)
        sym = STAT_SYMBOLS.get(k) if compact else None
        parts.append(f"{sym}{value}" if sym else f"{stat_name(k, lang)} {value}")
    return " · ".join(parts)


def stats_legend(decision: Decision, lang: str) -> str:
    """The symbols used on this prompt's buttons, named in the reader's language."""
    keys: list[str] = []
    for opt in decision.options:
        keys += [k for k in shown_stats(opt, lang) if k in STAT_SYMBOLS and k not in keys]
    return " · ".join(f"{STAT_SYMBOLS[k]} {stat_name(k, lang)}" for k in keys)


def option_label(opt: Option, lang: str) -> str:
    stats = stats_text(opt, lang, compact=True)
    return opt.label.get(lang) + (f" · {stats}" if stats else "")


def groups_of(decision: Decision, lang: str) -> list[str]:
    """Distinct group labels in first-seen order."""
    seen: list[str] = []
    for opt in decision.options:
        if opt.group is not None and opt.group.get(lang) not in seen:
            seen.append(opt.group.get(lang))
    return seen


def entries(decision: Decision, lang: str, group: int | None) -> list[Entry]:
    groups = groups_of(decision, lang)
    out: list[Entry] = []
    if group is None and groups:
        added: set[str] = set()
        for i, opt in enumerate(decision.options):
            if opt.group is None:
                out.append(_opt_entry(opt, i, lang))
            else:
                g = opt.group.get(lang)
                if g not in added:
                    added.add(g)
                    out.append(_group_entry(decision, g, groups.index(g), lang))
        return out
    wanted = groups[group] if group is not None and 0 <= group < len(groups) else None
    for i, opt in enumerate(decision.options):
        if wanted is None or (opt.group is not None and opt.group.get(lang) == wanted):
            out.append(_opt_entry(opt, i, lang))
    return out


def _group_entry(decision: Decision, label: str, index: int, lang: str) -> Entry:
    """A group button: on its options' row; red when every option in it is (a tie-break offer)."""
    members = [o for o in decision.options if o.group is not None and o.group.get(lang) == label]
    danger = all(o.style == "danger" for o in members)
    return Entry(
        label=label,
        kind="g",
        index=index,
        style="danger" if danger else "primary",
        row=members[0].row,
    )


def button_rows(items: list[Entry], max_rows: int) -> list[list[Entry]]:
    """Entries as button rows: options without a row first (five a row), then each
    ``row`` band on its own line(s); plain packing when the bands would not fit."""
    bands: dict[int | None, list[Entry]] = {}
    for e in items:
        bands.setdefault(e.row, []).append(e)
    order = sorted(bands, key=lambda r: -1 if r is None else r)
    rows = [band[n : n + 5] for r in order for band in [bands[r]] for n in range(0, len(band), 5)]
    if len(rows) > max_rows:
        rows = [items[n : n + 5] for n in range(0, len(items), 5)]
    return rows


def _opt_entry(opt: Option, i: int, lang: str) -> Entry:
    detail = opt.detail.get(lang) if opt.detail else None
    stats = stats_text(opt, lang)
    desc = " — ".join(x for x in (stats, detail) if x) or None
    return Entry(
        label=option_label(opt, lang),
        kind="o",
        index=i,
        style=opt.style,
        emoji=opt.emoji,
        description=desc,
        row=opt.row,
    )


def subject_name(subject: str, lang: str) -> str:
    """A subject word a game names in English (MAD's ``red``) in the reader's language."""
    return t_or(lang, f"subject.{subject}", subject)


def header(decision: Decision, seat_name: str, lang: str, due_at: float | None) -> str:
    who = subject_name(decision.subject, lang) if decision.subject else seat_name
    prompt = decision.prompt.get(lang)
    if prompt.startswith(who + " ") or prompt.startswith(who + ","):
        line = f"**{who}**{prompt[len(who) :]}"  # "**Ann** en D4 : ...", not "**Ann** — Ann en D4"
    else:
        line = t(lang, "prompt.header", who=who, prompt=prompt)
    if decision.hint is not None:
        line += "\n-# " + decision.hint.get(lang)
    if due_at is not None:
        line += "\n" + t(lang, "prompt.deadline", ts=int(due_at))
    return line


def decision_msg(
    mid: int,
    version: int,
    decision: Decision,
    seat_name: str,
    lang: str,
    *,
    group: int | None = None,
    page: int = 0,
    due_at: float | None = None,
) -> Msg:
    """The private prompt for one decision (ephemeral or DM)."""
    tag = key_tag(decision.key)
    items = entries(decision, lang, group)
    content = header(decision, seat_name, lang, due_at)
    legend = stats_legend(decision, lang)
    if legend:
        content += "\n-# " + legend
    if group is not None:
        groups = groups_of(decision, lang)
        if 0 <= group < len(groups):
            content += "\n" + t(lang, "prompt.group", group=groups[group])
    rows: list[Row] = []
    nav: list[Button] = []
    if len(items) <= BUTTONS_MAX:
        for line in button_rows(items, 5 if group is None else 4):
            rows.append(
                [
                    Button(
                        label=e.label,
                        custom_id=cid(
                            mid, "pick" if e.kind == "o" else "grp", version, f"{tag}.{e.index}"
                        ),
                        style=e.style,  # type: ignore[arg-type]
                        emoji=e.emoji,
                    )
                    for e in line
                ]
            )
    else:
        pages = (len(items) + PAGE - 1) // PAGE
        page = max(0, min(page, pages - 1))
        chunk = items[page * PAGE : (page + 1) * PAGE]
        for n in range(0, len(chunk), 25):
            part = chunk[n : n + 25]
            first, last = n + 1 + page * PAGE, n + len(part) + page * PAGE
            rows.append(
                Select(
                    custom_id=cid(mid, "sel", version, f"{tag}.{page}.{n // 25}"),
                    placeholder=t(lang, "prompt.select", first=first, last=last),
                    options=[
                        SelectOption(
                            label=e.label if e.kind == "o" else "▶ " + e.label,
                            value=f"{e.kind}{e.index}",
                            description=e.description,
                            emoji=e.emoji,
                        )
                        for e in part
                    ],
                )
            )
        if pages > 1:
            if page > 0:
                nav.append(
                    Button(t(lang, "prompt.prev"), cid(mid, "page", version, f"{tag}.{page - 1}"))
                )
            if page < pages - 1:
                nav.append(
                    Button(t(lang, "prompt.next"), cid(mid, "page", version, f"{tag}.{page + 1}"))
                )
    if group is not None:
        nav.insert(0, Button(t(lang, "prompt.back"), cid(mid, "back", version, tag), emoji="↩"))
    if nav:
        rows.append(nav)
    return Msg(content=clip(content, 2000), rows=rows)
