"""A decision's legal options as buttons or selects, generic over every game.

Layout rules (Discord: 5 rows of 5 buttons, 25 options per select):
- every option is a direct button (one click) whenever they all fit: at most 20,
  each group on its own row band within 5 rows (issue 11 item 3);
- else options carrying ``Option.group`` form a two-level menu: first the groups
  (a ship), then that group's options (its destinations) with a Back button; a
  group holding one option shows that option itself;
- a group whose options are all ``danger`` (MAD's tie-break offer) always stays a
  group button: such an option takes two clicks, never one by mistake;
- up to 20 entries are buttons (4 rows), keeping the last row for navigation;
  ``Option.row`` bands lay them out (a hex compass: NW NE / W E / SW SE; the
  tie-break offer apart from the moves), else five to a row;
- more become selects of 25 (up to 4 selects, each saying which labels it holds),
  then pages; entries with a ``row`` hint and group buttons stay one row of direct
  buttons above them (Arena!'s attack and "step by step" beside its destinations).
Labels show ``Option.stats`` (a card's initiative, move, melee...) so the
player never has to look a card up; their symbols and names are the game's
own (``GameInfo.stats``). Custom ids carry an option *index*.

Structured decisions (Many, Order, Allocation) get a draft prompt instead
(:func:`draft_msg`): toggles, numbered placements or amounts, a live summary,
Back and Confirm.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from bot.engine import Decision, GameInfo, Option
from bot.engine.decisions import Allocation, Many, Order, Quantity
from bot.engine.drafts import Draft
from bot.gm import ids
from bot.gm.ids import key_tag
from bot.gm.msg import SELECT_OPTIONS_MAX, Button, Msg, Row, Select, SelectOption, clip
from bot.i18n import t

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


def stat_name(key: str, lang: str, info: GameInfo | None = None) -> str:
    """A stat key named by the game's declaration (``GameInfo.stats``), else the key itself."""
    stat = info.stat(key) if info is not None else None
    return stat.names.get(lang) if stat is not None else key


def stat_value(value: object, lang: str, info: GameInfo | None = None) -> str:
    """Word values (a card's ``gong`` initiative) from ``GameInfo.stat_values``; numbers as is."""
    if isinstance(value, str) and info is not None and value in info.stat_values:
        return info.stat_values[value].get(lang)
    return str(value)


def stat_symbol(key: str, info: GameInfo | None) -> str | None:
    stat = info.stat(key) if info is not None else None
    return stat.symbol if stat is not None else None


def shown_stats(opt: Option, lang: str) -> dict[str, int | str]:
    """The stats a button adds to its label: not one the label already names
    (Arena!'s ``↗ NE F5`` needs no ``➡️F5``)."""
    words = opt.label.get(lang).split()
    return {k: v for k, v in opt.stats.items() if not isinstance(v, str) or v not in words}


def stats_text(
    opt: Option, lang: str = "en", *, compact: bool = False, info: GameInfo | None = None
) -> str:
    """``Option.stats`` for a player: words in their language, or symbols on buttons.

    Symbols and names come from the game's declared stats; a stat it did not
    declare shows its raw key (a new game still shows its values, only unnamed).
    """
    parts = []
    for k, v in (shown_stats(opt, lang) if compact else opt.stats).items():
        value = stat_value(v, lang, info)
        sym = stat_symbol(k, info) if compact else None
        parts.append(f"{sym}{value}" if sym else f"{stat_name(k, lang, info)} {value}")
    return " · ".join(parts)


def stats_legend(decision: Decision, lang: str, info: GameInfo | None = None) -> str:
    """The symbols used on this prompt's buttons, named in the reader's language."""
    keys: list[str] = []
    for opt in decision.options:
        keys += [k for k in shown_stats(opt, lang) if stat_symbol(k, info) and k not in keys]
    return " · ".join(f"{stat_symbol(k, info)} {stat_name(k, lang, info)}" for k in keys)


def option_label(opt: Option, lang: str, info: GameInfo | None = None) -> str:
    stats = stats_text(opt, lang, compact=True, info=info)
    return opt.label.get(lang) + (f" · {stats}" if stats else "")


def groups_of(decision: Decision, lang: str) -> list[str]:
    """Distinct group labels in first-seen order."""
    return _grouping(decision, lang).groups


@dataclass
class _Grouping:
    """Each option's group label in one language, read once per prompt (a prompt with
    many options and groups would otherwise read every label once per group)."""

    labels: list[str | None]
    """The group label of each option (None: no group)."""
    groups: list[str]
    """Distinct labels, first seen first."""
    index: dict[str, int]
    """A label's position in ``groups``."""


def _grouping(decision: Decision, lang: str) -> _Grouping:
    labels = [opt.group.get(lang) if opt.group is not None else None for opt in decision.options]
    index: dict[str, int] = {}
    for g in labels:
        if g is not None and g not in index:
            index[g] = len(index)
    return _Grouping(labels, list(index), index)


GROUP_BAND = 10
"""Row keys of the groups' bands in a flat layout (after options without a group)."""


def _band(opt: Option, group: str | None, gr: _Grouping) -> int | None:
    """The row band of an option laid out flat: its own ``row``, else its group's."""
    if opt.row is not None:
        return opt.row
    if group is not None:
        return GROUP_BAND + gr.index[group]
    return None


def _guarded(decision: Decision, gr: _Grouping) -> set[str]:
    """Groups every option of which is ``danger``: they stay behind their group button."""
    styles: dict[str, set[str]] = {}
    for opt, g in zip(decision.options, gr.labels, strict=True):
        if g is not None:
            styles.setdefault(g, set()).add(opt.style)
    return {g for g, st in styles.items() if st == {"danger"}}


def flat(decision: Decision, lang: str) -> bool:
    """Whether every option is shown as a direct button: at most :data:`BUTTONS_MAX`,
    and the bands (each group, each ``row``) fit in five rows."""
    return _flat(decision, _grouping(decision, lang))


def _flat(decision: Decision, gr: _Grouping) -> bool:
    if len(decision.options) > BUTTONS_MAX:
        return False
    bands: dict[int | None, int] = {}
    for opt, g in zip(decision.options, gr.labels, strict=True):
        key = _band(opt, g, gr)
        bands[key] = bands.get(key, 0) + 1
    return sum(-(-n // 5) for n in bands.values()) <= 5


def entries(
    decision: Decision, lang: str, group: int | None, info: GameInfo | None = None
) -> list[Entry]:
    return _entries(decision, lang, group, info, _grouping(decision, lang))


def _entries(
    decision: Decision, lang: str, group: int | None, info: GameInfo | None, gr: _Grouping
) -> list[Entry]:
    groups = gr.groups
    out: list[Entry] = []
    if group is None and groups:
        direct = _flat(decision, gr)
        guarded = _guarded(decision, gr)
        added: set[str] = set()
        sizes: dict[str, int] = {}
        for g in gr.labels:
            if g is not None:
                sizes[g] = sizes.get(g, 0) + 1
        for i, (opt, g) in enumerate(zip(decision.options, gr.labels, strict=True)):
            if g is None or (g not in guarded and (direct or sizes[g] == 1)):
                e = _opt_entry(opt, i, lang, info)  # direct: flat, or a one-option group
                if direct:
                    e.row = _band(opt, g, gr)
                out.append(e)
            elif g not in added:
                added.add(g)
                out.append(_group_entry(decision, g, gr, lang))
        return out
    wanted = groups[group] if group is not None and 0 <= group < len(groups) else None
    for i, (opt, g) in enumerate(zip(decision.options, gr.labels, strict=True)):
        if wanted is None or g == wanted:
            out.append(_opt_entry(opt, i, lang, info))
    return out


def _group_entry(decision: Decision, label: str, gr: _Grouping, lang: str) -> Entry:
    """A group button: on its options' row; red when every option in it is (a tie-break offer)."""
    members = [o for o, g in zip(decision.options, gr.labels, strict=True) if g == label]
    danger = all(o.style == "danger" for o in members)
    return Entry(
        label=label,
        kind="g",
        index=gr.index[label],
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


def _opt_entry(opt: Option, i: int, lang: str, info: GameInfo | None = None) -> Entry:
    detail = opt.detail.get(lang) if opt.detail else None
    stats = stats_text(opt, lang, info=info)
    desc = " — ".join(x for x in (stats, detail) if x) or None
    return Entry(
        label=option_label(opt, lang, info),
        kind="o",
        index=i,
        style=opt.style,
        emoji=opt.emoji,
        description=desc,
        row=opt.row,
    )


def subject_name(subject: str, lang: str, info: GameInfo | None = None) -> str:
    """A subject id the game declares (MAD's ``red``) in the reader's language, else as is."""
    if info is not None and subject in info.subjects:
        return info.subjects[subject].get(lang)
    return subject


def header(
    decision: Decision,
    seat_name: str,
    lang: str,
    due_at: float | None,
    info: GameInfo | None = None,
) -> str:
    who = subject_name(decision.subject, lang, info) if decision.subject else seat_name
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
    info: GameInfo | None = None,
) -> Msg:
    """The private prompt for one decision (ephemeral or DM).

    ``info`` (the game's declarations) names its stats and subjects; without
    it they show as their raw keys.
    """
    gr = _grouping(decision, lang)
    items = _entries(decision, lang, group, info, gr)
    return _prompt(mid, version, decision, seat_name, lang, group, page, due_at, info, gr, items)


def _prompt(
    mid: int,
    version: int,
    decision: Decision,
    seat_name: str,
    lang: str,
    group: int | None,
    page: int,
    due_at: float | None,
    info: GameInfo | None,
    gr: _Grouping,
    items: list[Entry],
) -> Msg:
    content = header(decision, seat_name, lang, due_at, info)
    legend = stats_legend(decision, lang, info)
    if legend:
        content += "\n-# " + legend
    if group is not None and 0 <= group < len(gr.groups):
        content += "\n" + t(lang, "prompt.group", group=gr.groups[group])
    rows = _rows(mid, version, key_tag(decision.key), items, group, page, lang)
    return Msg(content=clip(content, 2000), rows=rows)


def _rows(
    mid: int, version: int, tag: str, items: list[Entry], group: int | None, page: int, lang: str
) -> list[Row]:
    """The components of a prompt showing ``items`` (group ``group`` opened, page ``page``)."""
    rows: list[Row] = []
    nav: list[Button] = []
    pinned, listed, page_size = split(items)
    if pinned:
        rows.append([_button(mid, version, tag, e) for e in pinned])
    if len(items) <= BUTTONS_MAX:
        for line in button_rows(items, 5 if group is None else 4):
            rows.append([_button(mid, version, tag, e) for e in line])
    else:
        pages = (len(listed) + page_size - 1) // page_size
        page = max(0, min(page, pages - 1))
        chunk = listed[page * page_size : (page + 1) * page_size]
        for n in range(0, len(chunk), 25):
            part = chunk[n : n + 25]
            rows.append(
                Select(
                    custom_id=ids.Menu(mid, version, tag, page, n // 25).encode(),
                    placeholder=clip(
                        t(
                            lang,
                            "prompt.select_labels",
                            first=_plain(part[0].label),
                            last=_plain(part[-1].label),
                        ),
                        150,
                    ),
                    options=[
                        SelectOption(
                            label=e.label if e.kind == "o" else "▶ " + e.label,
                            value=ids.MenuValue("o" if e.kind == "o" else "g", e.index).encode(),
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
                    Button(t(lang, "prompt.prev"), ids.Page(mid, version, tag, page - 1).encode())
                )
            if page < pages - 1:
                nav.append(
                    Button(t(lang, "prompt.next"), ids.Page(mid, version, tag, page + 1).encode())
                )
    if group is not None:
        nav.insert(
            0, Button(t(lang, "prompt.back"), ids.Back(mid, version, tag).encode(), emoji="↩")
        )
    if nav:
        rows.append(nav)
    return rows


def _button(mid: int, version: int, tag: str, e: Entry) -> Button:
    return Button(
        label=e.label,
        custom_id=(ids.Pick if e.kind == "o" else ids.Group)(mid, version, tag, e.index).encode(),
        style=e.style,  # type: ignore[arg-type]
        emoji=e.emoji,
    )


def _plain(label: str) -> str:
    """A label without its stats, to name a select's range (``A3 ⚔ Bob``, not its dice)."""
    return label.split(" · ")[0]


def split(items: list[Entry]) -> tuple[list[Entry], list[Entry], int]:
    """Entries too many for buttons: the pinned ones (a ``row`` hint, a group) as one row of
    direct buttons, the others in selects; and how many a page of selects holds."""
    if len(items) <= BUTTONS_MAX:
        return [], items, PAGE
    pinned = [e for e in items if e.row is not None or e.kind == "g"][:5]
    if not pinned:
        return [], items, PAGE
    listed = [e for e in items if e not in pinned]
    return pinned, listed, 25 * (SELECTS_MAX - 1)


Layout = tuple[str, _Grouping, int | None, list[Entry], int]
"""One prompt a decision can show: language, its grouping, group opened, entries, page."""


def _layouts(
    decision: Decision,
    langs: tuple[str, ...],
    info: GameInfo | None,
    option: int | None = None,
    page: int | None = None,
) -> Iterator[Layout]:
    """Every prompt :func:`decision_msg` can draw for ``decision``: each group opened or
    not, each page, in each language (groups are named per language); lazily, so a
    search stops at the first that fits. ``option``/``page``: the group holding that
    option, and that page, come first (where a click on them was drawn)."""
    for lang in langs:
        gr = _grouping(decision, lang)
        order: list[int | None] = [None, *range(len(gr.groups))]
        if option is not None and 0 <= option < len(gr.labels):
            label = gr.labels[option]
            if label is not None:
                order.remove(gr.index[label])
                order.insert(1, gr.index[label])
        for group in order:
            items = _entries(decision, lang, group, info, gr)
            _, listed, size = split(items)
            pages = 1 if len(items) <= BUTTONS_MAX else (len(listed) + size - 1) // size
            shown = list(range(pages))
            if page is not None and 0 <= page < pages:
                shown.remove(page)
                shown.insert(0, page)
            for p in shown:
                yield lang, gr, group, items, p


def decision_views(
    mid: int, version: int, decision: Decision, langs: tuple[str, ...], info: GameInfo | None
) -> list[Msg]:
    """Every prompt :func:`decision_msg` can draw for ``decision`` at ``version``: each
    group opened or not, each page, in each language (groups are named per language).

    A click is accepted only if one of these offered exactly that component and value
    (:func:`offered`).
    """
    return [
        _prompt(mid, version, decision, "", lang, group, p, None, info, gr, items)
        for lang, gr, group, items, p in _layouts(decision, langs, info)
    ]


def offered(
    mid: int,
    version: int,
    decision: Decision,
    langs: tuple[str, ...],
    info: GameInfo | None,
    custom_id: str,
    values: list[str] | None,
    *,
    option: int | None = None,
    page: int | None = None,
) -> bool:
    """Whether one of :func:`decision_views` offers exactly ``custom_id`` (and ``values``).

    Only the components are drawn (a prompt's text offers nothing), view by view until
    one offers it: those most likely to (``option``'s group, ``page``) first, so a
    click usually costs one view instead of every group's in every language.
    """
    tag = key_tag(decision.key)
    for lang, _gr, group, items, p in _layouts(decision, langs, info, option, page):
        if Msg(rows=_rows(mid, version, tag, items, group, p, lang)).offers(custom_id, values):
            return True
    return False


# --- drafts: a structured answer built click by click ------------------------------------------
QTY_ROWS = 4
"""Quantities an allocation prompt shows one per row (more: pick one, then its amount)."""
STEPS = (-5, -1, 1, 5)
"""The -/+ buttons of a quantity with more amounts than a select holds."""


DraftBase = tuple[int, int, str, str, int]
"""What every component of one draft prompt carries: match, version, tag, draft id, revision."""


@dataclass
class DraftRef:
    """Which draft a prompt was drawn for: its id in this process and its revision.

    Both travel in the custom ids: a click on a prompt of a draft this process
    does not know (a restart) or of an older revision (another copy of the
    prompt) is recognised instead of being applied blindly.
    """

    did: str = "n"
    rev: int = 0


def amounts_offered(q: Quantity) -> list[int]:
    """Every amount a quantity may take, in order."""
    return list(range(q.min, q.max + 1))


def bounds_text(lo: int | None, hi: int | None, lang: str) -> str:
    if lo is not None and hi is not None:
        if lo == hi:
            return t(lang, "draft.exactly", n=lo)
        return t(lang, "draft.between", lo=lo, hi=hi)
    if lo is not None:
        return t(lang, "draft.at_least", n=lo)
    if hi is not None:
        return t(lang, "draft.at_most", n=hi)
    return t(lang, "draft.any")


def draft_msg(
    mid: int,
    version: int,
    decision: Decision,
    draft: Draft,
    ref: DraftRef,
    seat_name: str,
    lang: str,
    *,
    info: GameInfo | None = None,
    due_at: float | None = None,
    focus: int = 0,
    notice: str | None = None,
) -> Msg:
    """The private prompt of a structured decision (Many, Order, Allocation) with its draft.

    It shows what is chosen so far and the constraints; each click edits this
    same message; only Confirm sends the answer, once, as one decision.
    """
    tag = key_tag(decision.key)
    base: DraftBase = (mid, version, tag, ref.did, ref.rev)
    ask = decision.ask
    lines = [header(decision, seat_name, lang, due_at, info)]
    if notice:
        lines.insert(0, "⚠️ " + notice)
    legend = stats_legend(decision, lang, info)
    if legend:
        lines.append("-# " + legend)
    rows: list[Row] = []
    if isinstance(ask, Allocation):
        lines.append(t(lang, "draft.allocation"))
        amounts = draft.amounts(decision)
        for total in ask.totals:
            members = total.of or [q.id for q in ask.quantities]
            what = total.label.get(lang) if total.label else t(lang, "draft.total_all")
            lines.append(
                t(
                    lang,
                    "draft.total",
                    what=what,
                    rule=bounds_text(total.min, total.max, lang),
                    now=sum(amounts.get(i, 0) for i in members),
                )
            )
        rows += _allocation_rows(mid, version, base, ask, amounts, lang, focus)
    else:
        if isinstance(ask, Many):
            hi = len(decision.options) if ask.max is None else ask.max
            lo = ask.min if ask.min > 0 else None
            lines.append(t(lang, "draft.many", rule=bounds_text(lo, hi, lang)))
        else:
            lines.append(t(lang, "draft.order"))
        rows += _option_rows(mid, version, base, decision, draft, lang, info)
    lines.append(t(lang, "draft.so_far", summary=draft.summary(decision).get(lang)))
    rows.append(
        [
            Button(
                t(lang, "prompt.back"),
                ids.DraftBack(*base).encode(),
                emoji="↩",
                disabled=not draft.steps,
            ),
            Button(
                t(lang, "draft.confirm"), ids.DraftConfirm(*base).encode(), "success", emoji="✔"
            ),
        ]
    )
    return Msg(content=clip("\n".join(lines), 2000), rows=rows)


def _option_rows(
    mid: int,
    version: int,
    base: DraftBase,
    decision: Decision,
    draft: Draft,
    lang: str,
    info: GameInfo | None,
) -> list[Row]:
    """Many: toggle buttons (chosen ones green); Order: placed ones numbered and disabled."""
    order = isinstance(decision.ask, Order)
    chosen = draft.options()
    items = [_opt_entry(opt, i, lang, info) for i, opt in enumerate(decision.options)]
    rows: list[Row] = []
    if len(items) <= BUTTONS_MAX:
        for line in button_rows(items, QTY_ROWS):
            row: list[Button] = []
            for e in line:
                oid = decision.options[e.index].id
                placed = oid in chosen
                label = f"{chosen.index(oid) + 1}. {e.label}" if order and placed else e.label
                row.append(
                    Button(
                        label=label,
                        custom_id=ids.DraftToggle(*base, e.index).encode(),
                        style="success" if placed else e.style,  # type: ignore[arg-type]
                        emoji=e.emoji,
                        disabled=order and placed,
                    )
                )
            rows.append(row)
        return rows
    # More options than buttons: selects of 25 (a click toggles or places one).
    for n in range(0, min(len(items), 25 * SELECTS_MAX), 25):
        part = items[n : n + 25]
        opts = []
        for e in part:
            placed = decision.options[e.index].id in chosen
            if order and placed:
                continue
            opts.append(
                SelectOption(
                    label=("✅ " if placed else "") + e.label,
                    value=str(e.index),
                    description=e.description,
                    emoji=e.emoji,
                )
            )
        if opts:
            rows.append(
                Select(
                    custom_id=ids.DraftMenu(*base, "o", n // 25).encode(),
                    placeholder=t(lang, "prompt.select", first=n + 1, last=n + len(part)),
                    options=opts,
                )
            )
    return rows


def _allocation_rows(
    mid: int,
    version: int,
    base: DraftBase,
    ask: Allocation,
    amounts: dict[str, int],
    lang: str,
    focus: int,
) -> list[Row]:
    """One row per quantity: a select of its amounts, or -/+ buttons when it has too many."""
    qs = ask.quantities
    rows: list[Row] = []
    shown = list(range(len(qs)))
    if len(qs) > QTY_ROWS:
        focus = focus if 0 <= focus < len(qs) else 0
        rows.append(
            Select(
                custom_id=ids.DraftMenu(*base, "f").encode(),
                placeholder=t(lang, "draft.quantity_pick", what=qs[focus].label.get(lang)),
                options=[
                    SelectOption(
                        label=f"{q.label.get(lang)}: {amounts[q.id]}",
                        value=str(i),
                        emoji="✅" if i == focus else q.emoji,
                    )
                    for i, q in enumerate(qs)
                ],
            )
        )
        shown = [focus]
    for qi in shown:
        q = qs[qi]
        cur = amounts[q.id]
        offered = amounts_offered(q)
        if len(offered) <= SELECT_OPTIONS_MAX:
            rows.append(
                Select(
                    custom_id=ids.DraftMenu(*base, "q", qi).encode(),
                    placeholder=t(lang, "draft.amount_pick", what=q.label.get(lang), now=cur),
                    options=[
                        SelectOption(label=str(v), value=str(v), emoji="✅" if v == cur else None)
                        for v in offered
                    ],
                )
            )
            continue
        targets: list[int] = []
        for step in STEPS:
            target = max(q.min, min(q.max, cur + step))
            if target != cur and target not in targets:
                targets.append(target)
        low = [v for v in targets if v < cur]
        high = [v for v in targets if v > cur]
        row = [Button(f"{v - cur:+d}", ids.DraftAmount(*base, qi, v).encode()) for v in low]
        row.append(
            Button(
                f"{q.label.get(lang)}: {cur}",
                ids.DraftAmount(*base, qi, cur).encode(),
                "primary",
                emoji=q.emoji,
                disabled=True,
            )
        )
        row += [Button(f"{v - cur:+d}", ids.DraftAmount(*base, qi, v).encode()) for v in high]
        rows.append(row)
    return rows
