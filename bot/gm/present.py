"""Public messages of a match: lobby, round board, steps, end. Pure functions.

Nothing here may reveal a secret: round boards say who has chosen, never
what; logs carry only public events (``visible_to is None``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.engine import Decision, GameInfo, Match, OptionSpec, SeatSpec
from bot.engine.events import AnyEvent
from bot.engine.registry import get_game
from bot.engine.seating import SeatChoice, active_choices
from bot.engine.vocabulary import LevelInfo
from bot.gm import timers as tm
from bot.gm.ids import Hand, lobby_id
from bot.gm.msg import Button, Embed, Msg, Row, Select, SelectOption, clip
from bot.i18n import t

COLOUR = 0xE0A030
AI_LEVEL_KEY = "_ai_level"
UPLOAD_NAME_KEY = "_upload_name"
"""The name of the file uploaded with ``/arena start`` (shown in the lobby)."""
SEAT_CHOICES_KEY = "_seat_choices"
"""Where the lobby keeps the seats' lobby choices, by seat (see :func:`seat_key`): the
store keeps a lobby's seats without them, and a seat's index moves when someone leaves."""
SEAT_FOCUS_KEY = "_seat_focus"
"""The seat the host's seat menu shows, when every seat's values do not fit in it."""
THREAD_KEY = "_thread"
"""The host's "play in a thread" toggle (present in a lobby opened where a thread may be
made): the match gets its own thread at Start, else it is played in the lobby's channel."""
LEVEL = "_level"
"""The host seat menu's entries that set an AI seat's level (not a game's choice id)."""


def game_options(options: dict[str, Any]) -> dict[str, Any]:
    """The options the game itself receives (ours start with ``_``)."""
    return {k: v for k, v in options.items() if not k.startswith("_")}


def ai_levels(info: GameInfo) -> list[LevelInfo]:
    """The game's AI levels as it declares them (``GameInfo.ai_levels``), the default first."""
    return list(info.ai_levels)


def level_option(info: GameInfo) -> OptionSpec | None:
    """A host option that holds the AI level: a choice over exactly the declared levels.

    The lobby offers the levels once (its "AI level" entries) and keeps this option
    in step, instead of offering the same choice twice.
    """
    ids = {lv.id for lv in info.ai_levels}
    for spec in info.options:
        if spec.type == "choice" and ids and {v for v, _ in spec.choices} == ids:
            return spec
    return None


def level_name(info: GameInfo | None, level: str | None, lang: str) -> str | None:
    """An AI level's name (the game's default level when ``level`` is None)."""
    if info is None or not info.ai_levels:
        return None
    for lv in info.ai_levels:
        if lv.id == level:
            return lv.names.get(lang)
    return info.ai_levels[0].names.get(lang) if level is None else level


def seat_line(
    i: int,
    seat: SeatSpec,
    lang: str,
    info: GameInfo | None = None,
    choices: list[tuple[SeatChoice, str | None]] | None = None,
) -> str:
    """``1. @Ann · Fighter: Agaric`` or ``2. 🤖 Robot 1 · Hard``: the AI level of an AI seat
    and the seat's lobby choices (``choices``: each with the value held, None: not yet)."""
    who = f"<@{seat.user_id}>" if seat.user_id is not None else f"🤖 {seat.name}"
    if seat.ai and seat.user_id is not None:
        who += " " + t(lang, "seat.autopilot")
    parts = [who]
    if seat.ai and seat.user_id is None:
        level = level_name(info, seat.ai_level, lang)
        if level is not None and len(info.ai_levels if info else []) > 1:
            parts.append(level)
    for choice, value in choices or []:
        held = choice.value(value)
        shown = held.names.get(lang) if held else t(lang, "seat.choice_open")
        parts.append(t(lang, "pair", name=choice.names.get(lang), value=shown))
    return f"{i + 1}. " + " · ".join(parts)


# --- per-seat lobby settings (AI level, the game's seat choices) -------------------------------
def seat_key(seat: SeatSpec) -> str:
    """A seat's lobby identity: its user, or its robot's name (indices move on a leave)."""
    return f"u{seat.user_id}" if seat.user_id is not None else f"ai:{seat.name}"


def seat_values(options: dict[str, Any], seats: list[SeatSpec]) -> list[dict[str, str]]:
    """Each seat's lobby choices as the lobby holds them."""
    held = options.get(SEAT_CHOICES_KEY) or {}
    return [dict(held.get(seat_key(s)) or {}) for s in seats]


def seat_choices(info: GameInfo, mode: str, options: dict[str, Any]) -> list[SeatChoice]:
    """The game's seat choices that apply in this mode with these options."""
    return active_choices(info.seat_choices, mode, game_options(options))


def seats_for_start(
    info: GameInfo, mode: str, options: dict[str, Any], seats: list[SeatSpec]
) -> list[SeatSpec]:
    """The seats as ``setup`` receives them: each with its applicable lobby choices."""
    active = {c.id for c in seat_choices(info, mode, options)}
    return [
        s.model_copy(update={"choices": {k: v for k, v in vals.items() if k in active}})
        for s, vals in zip(seats, seat_values(options, seats), strict=True)
    ]


def holder(seats: list[SeatSpec], values: list[dict[str, str]], choice: str, value: str) -> int:
    """The seat holding ``value`` of ``choice`` (-1: none)."""
    for i, v in enumerate(values):
        if v.get(choice) == value:
            return i
    return -1


@dataclass(frozen=True)
class SeatSetting:
    """Set seat ``seat``'s ``choice`` (a game's choice id, or :data:`LEVEL`) to ``value``."""

    seat: int
    choice: str
    value: str


@dataclass(frozen=True)
class FocusSetting:
    """Show seat ``seat``'s values in the host's seat menu."""

    seat: int


def _short(seat: SeatSpec, i: int) -> str:
    return seat.name if seat.user_id is None else f"{i + 1}. {seat.name}"


def _value_label(
    choice: SeatChoice,
    value_id: str,
    seats: list[SeatSpec],
    values: list[dict[str, str]],
    lang: str,
) -> tuple[str, str | None]:
    """A value's menu label, and who holds it already (a unique choice)."""
    v = choice.value(value_id)
    assert v is not None
    label = t(lang, "pair", name=choice.names.get(lang), value=v.names.get(lang))
    owner = holder(seats, values, choice.id, value_id) if choice.unique else -1
    note = t(lang, "seat.taken_by", who=seats[owner].name) if owner >= 0 else None
    return label, note


def host_seat_entries(
    info: GameInfo, mode: str, options: dict[str, Any], seats: list[SeatSpec], lang: str
) -> list[tuple[str, str, str | None, SeatSetting | FocusSetting]]:
    """(value, label, description, what it does) of the host's seat menu, as offered.

    Per seat: the AI level of an AI seat, and the game's choices the host may set for it
    (every choice of an AI seat; a host-only one, such as a team, of any seat). When all
    of them fit in one menu they are listed directly (one click); else the menu lists the
    seats, and the values of the one the host picked (:data:`SEAT_FOCUS_KEY`).
    """
    choices = seat_choices(info, mode, options)
    values = seat_values(options, seats)
    levels = info.ai_levels if len(info.ai_levels) > 1 else []
    per_seat: list[list[tuple[str, str, str | None, SeatSetting | FocusSetting]]] = []
    for i, s in enumerate(seats):
        robot = s.ai and s.user_id is None
        rows: list[tuple[str, str, str | None, SeatSetting | FocusSetting]] = []
        if robot:
            for lv in levels:
                mark = "✅ " if (s.ai_level or info.ai_levels[0].id) == lv.id else ""
                rows.append(
                    (
                        f"s{i}:lv:{lv.id}",
                        mark + t(lang, "lobby.seat_level", level=lv.names.get(lang)),
                        lv.summary.get(lang) if lv.summary else None,
                        SeatSetting(i, LEVEL, lv.id),
                    )
                )
        for ci, c in enumerate(choices):
            if not (robot or c.host_only):
                continue
            for vi, v in enumerate(c.values):
                label, note = _value_label(c, v.id, seats, values, lang)
                mark = "✅ " if values[i].get(c.id) == v.id else ""
                rows.append((f"s{i}:c{ci}:{vi}", mark + label, note, SeatSetting(i, c.id, v.id)))
        per_seat.append(rows)
    if sum(len(r) for r in per_seat) <= 25:
        return [
            (value, clip(f"{_short(seats[i], i)} — {label}", 100), note, setting)
            for i, rows in enumerate(per_seat)
            for value, label, note, setting in rows
        ]
    editable = [i for i, rows in enumerate(per_seat) if rows]
    focus = options.get(SEAT_FOCUS_KEY)
    focus = focus if focus in editable else (editable[0] if editable else None)
    out: list[tuple[str, str, str | None, SeatSetting | FocusSetting]] = [
        (
            f"f{i}",
            ("✏️ " if i == focus else "▶ ") + t(lang, "lobby.seat_focus", seat=_short(seats[i], i)),
            None,
            FocusSetting(i),
        )
        for i in editable
    ]
    if focus is not None:
        room = 25 - len(out)
        out += [
            (value, clip(f"{_short(seats[focus], focus)} — {label}", 100), note, setting)
            for value, label, note, setting in per_seat[focus][:room]
        ]
    return out


def own_seat_entries(
    info: GameInfo, mode: str, options: dict[str, Any], seats: list[SeatSpec], lang: str
) -> list[tuple[str, str, str | None, str, str]]:
    """(value, label, description, choice id, value id) of the players' own-seat menu: the
    values of every choice a player makes for their own seat (not a host-only one)."""
    values = seat_values(options, seats)
    out: list[tuple[str, str, str | None, str, str]] = []
    for ci, c in enumerate(seat_choices(info, mode, options)):
        if c.host_only:
            continue
        for vi, v in enumerate(c.values):
            label, note = _value_label(c, v.id, seats, values, lang)
            out.append((f"c{ci}:{vi}", label, note, c.id, v.id))
    return out[:25]


def _option_value_text(spec: OptionSpec, value: Any, lang: str) -> str:
    if spec.type == "bool":
        return t(lang, "on") if value else t(lang, "off")
    if spec.type == "choice":
        for v, txt in spec.choices:
            if v == value:
                return txt.get(lang)
    return str(value)


def _int_values(spec: OptionSpec) -> list[int]:
    lo = spec.min if spec.min is not None else int(spec.default)
    hi = spec.max if spec.max is not None else int(spec.default)
    if hi - lo <= 7:
        return list(range(lo, hi + 1))
    return sorted({lo, int(spec.default), (lo + hi) // 2, hi})


@dataclass(frozen=True)
class TimerSetting:
    """Set deadlines (``timers`` keys) to ``seconds``."""

    timers: tuple[str, ...]
    seconds: int


@dataclass(frozen=True)
class LevelSetting:
    """Set the AI level (of the table and of every AI seat)."""

    level: str


@dataclass(frozen=True)
class OptionSetting:
    """Set the game's option ``spec_id`` to ``value``."""

    spec_id: str
    value: bool | int | str


Setting = TimerSetting | LevelSetting | OptionSetting


def lobby_settings(
    info: GameInfo, lang: str, *, thread: bool = False
) -> list[tuple[str, str, Setting]]:
    """(value, label, what it does) for each entry of the lobby's options menu, as offered.

    A value the host sends is looked up here exactly; nothing else is ever read from it.
    ``thread``: the lobby offers the "play in a thread" toggle (first, never cut).
    """
    out: list[tuple[str, str, Setting]] = []
    if thread:
        out += [
            ("th:1", t(lang, "watch.thread_on"), OptionSetting(THREAD_KEY, True)),
            ("th:0", t(lang, "watch.thread_off"), OptionSetting(THREAD_KEY, False)),
        ]
    level_spec = level_option(info)
    for i, spec in enumerate(info.options):
        name = spec.names.get(lang)
        if spec.type == "bool":
            out += [
                (
                    f"o{i}:1",
                    t(lang, "pair", name=name, value=t(lang, "on")),
                    OptionSetting(spec.id, True),
                ),
                (
                    f"o{i}:0",
                    t(lang, "pair", name=name, value=t(lang, "off")),
                    OptionSetting(spec.id, False),
                ),
            ]
        elif spec.type == "choice":
            if spec is level_spec:
                continue
            out += [
                (
                    f"o{i}:{j}",
                    t(lang, "pair", name=name, value=txt.get(lang)),
                    OptionSetting(spec.id, v),
                )
                for j, (v, txt) in enumerate(spec.choices)
            ]
        elif spec.type == "int":
            out += [
                (f"o{i}:{v}", t(lang, "pair", name=name, value=v), OptionSetting(spec.id, v))
                for v in _int_values(spec)
            ]
    for lv in ai_levels(info):
        out.append(
            (
                f"lv:{lv.id}",
                t(lang, "lobby.ai_level", level=lv.names.get(lang)),
                LevelSetting(lv.id),
            )
        )
    for s in tm.PICK_CHOICES:
        out.append(
            (
                f"tp:{s}",
                t(lang, "lobby.timer_pick", d=tm.human(s, lang)),
                TimerSetting(("pick", "turn"), s),
            )
        )
    for s in tm.ACTION_CHOICES:
        out.append(
            (
                f"ta:{s}",
                t(lang, "lobby.timer_action", d=tm.human(s, lang)),
                TimerSetting(("action",), s),
            )
        )
    for s in tm.REACTION_CHOICES:
        out.append(
            (
                f"tr:{s}",
                t(lang, "lobby.timer_reaction", d=tm.human(s, lang)),
                TimerSetting(("reaction",), s),
            )
        )
    return out[:25]


def lobby_option_entries(
    info: GameInfo, lang: str, *, thread: bool = False
) -> list[tuple[str, str]]:
    """(value, label) pairs the host can pick in the lobby's options menu."""
    return [(value, label) for value, label, _ in lobby_settings(info, lang, thread=thread)]


def lobby_msg(
    mid: int,
    game_id: str,
    mode: str,
    options: dict[str, Any],
    seats: list[SeatSpec],
    host_id: int,
    lang: str,
    *,
    closed: str | None = None,
) -> Msg:
    info = get_game(game_id).info
    mode_info = info.mode(mode)
    counts = mode_info.player_counts
    choices = seat_choices(info, mode_info.id, options)
    held = seat_values(options, seats)
    lines = [
        seat_line(i, s, lang, info, [(c, held[i].get(c.id)) for c in choices])
        for i, s in enumerate(seats)
    ] or ["—"]
    opts = []
    for spec in info.options:
        if spec.type in ("path", "text") or spec.id not in options:
            continue
        value = _option_value_text(spec, options[spec.id], lang)
        opts.append(t(lang, "pair", name=spec.names.get(lang), value=value))
    upload = info.upload_option()
    if upload is not None and options.get(UPLOAD_NAME_KEY):
        name = upload.names.get(lang)
        opts.append(t(lang, "pair", name=name, value=f"`{options[UPLOAD_NAME_KEY]}`"))
    if options.get(AI_LEVEL_KEY) and level_option(info) is None:
        level = next((lv for lv in info.ai_levels if lv.id == options[AI_LEVEL_KEY]), None)
        shown = level.names.get(lang) if level else str(options[AI_LEVEL_KEY])
        opts.append(t(lang, "lobby.ai_level", level=shown))
    if THREAD_KEY in options:
        opts.append(t(lang, "watch.thread_yes" if options[THREAD_KEY] else "watch.thread_no"))
    tmr = tm.timers(options)
    opts.append(
        t(
            lang,
            "lobby.timers",
            pick=tm.human(tmr["pick"], lang),
            action=tm.human(tmr["action"], lang),
            reaction=tm.human(tmr["reaction"], lang),
        )
    )
    embed = Embed(
        title=t(lang, "lobby.title", game=info.names.get(lang)),
        description=mode_info.summary.get(lang) if mode_info.summary else None,
        colour=COLOUR,
        fields=[
            (t(lang, "lobby.mode"), mode_info.names.get(lang), True),
            (t(lang, "lobby.host"), f"<@{host_id}>", True),
            (
                t(lang, "lobby.players", n=len(seats), counts=_counts(counts, lang)),
                "\n".join(lines),
                False,
            ),
            (t(lang, "lobby.options"), clip("\n".join(opts), 1024), False),
        ],
        footer=t(lang, "lobby.footer", mid=mid),
    )
    if closed is not None:
        return Msg(content=closed, embeds=[embed])
    full = len(seats) >= max(counts)
    rows: list[Row] = [
        [
            Button(t(lang, "lobby.join"), lobby_id(mid, "join"), "success", disabled=full),
            Button(t(lang, "lobby.leave"), lobby_id(mid, "leave"), "secondary"),
            Button(
                t(lang, "lobby.addai"),
                lobby_id(mid, "addai"),
                "secondary",
                emoji="🤖",
                disabled=full,
            ),
            Button(
                t(lang, "lobby.start"),
                lobby_id(mid, "start"),
                "primary",
                disabled=len(seats) not in counts,
            ),
            Button(t(lang, "lobby.cancel"), lobby_id(mid, "cancel"), "danger"),
        ]
    ]
    if len(info.modes) > 1:
        rows.append(
            Select(
                custom_id=lobby_id(mid, "mode"),
                placeholder=t(lang, "lobby.mode_pick"),
                options=[
                    SelectOption(
                        label=m.names.get(lang),
                        value=m.id,
                        description=t(lang, "lobby.counts", counts=_counts(m.player_counts, lang)),
                        emoji="✅" if m.id == mode else None,
                    )
                    for m in info.modes
                ],
            )
        )
    entries = lobby_option_entries(info, lang, thread=THREAD_KEY in options)
    if entries:
        rows.append(
            Select(
                custom_id=lobby_id(mid, "opt"),
                placeholder=t(lang, "lobby.option_pick"),
                options=[SelectOption(label=label, value=value) for value, label in entries],
            )
        )
    own = own_seat_entries(info, mode_info.id, options, seats, lang)
    if own:
        what = ", ".join(c.names.get(lang) for c in choices if not c.host_only)
        rows.append(
            Select(
                custom_id=lobby_id(mid, "mine"),
                placeholder=clip(t(lang, "lobby.mine_pick", what=what), 150),
                options=[
                    SelectOption(label=clip(label, 100), value=value, description=note)
                    for value, label, note, _, _ in own
                ],
            )
        )
    host = host_seat_entries(info, mode_info.id, options, seats, lang)
    if host:
        rows.append(
            Select(
                custom_id=lobby_id(mid, "seat"),
                placeholder=t(lang, "lobby.seat_pick"),
                options=[
                    SelectOption(label=label, value=value, description=note)
                    for value, label, note, _ in host
                ],
            )
        )
    return Msg(embeds=[embed], rows=rows[:5])


def _counts(counts: list[int], lang: str) -> str:
    if len(counts) > 1 and counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}-{counts[-1]}"
    return (" " + t(lang, "or") + " ").join(str(c) for c in counts)


def who(match: Match, seat: int, subject: str | None, lang: str = "en") -> str:
    s = match.seats[seat]
    name = f"<@{s.user_id}>" if s.user_id is not None and not s.ai else s.name
    if not subject or subject == s.name:
        return name
    named = match.game.info.subjects.get(subject)
    return f"{name} ({named.get(lang) if named else subject})"


def round_msg(
    mid: int,
    match: Match,
    pending: list[Decision],
    answered: list[tuple[int, str | None]],
    deadlines: dict[str, float],
    lang: str,
) -> Msg:
    """The public board of what is awaited: who must decide, who already has (never what).

    A secret decision's question, or a structured one's (amounts of one's own resources,
    cards to give), is the player's own business: the board only says who is awaited.
    """
    info = match.game.info
    lines: list[str] = []
    for seat, subject in answered:
        lines.append("✅ " + t(lang, "round.chosen", who=who(match, seat, subject, lang)))
    for d in pending:
        name = who(match, d.seat, d.subject, lang)
        if d.secret or d.structured:
            line = "⏳ " + t(lang, "round.waiting_private", who=name)
        else:
            line = "⏳ " + t(lang, "round.waiting", who=name, what=d.prompt.get(lang))
        if d.key in deadlines:
            line += " · " + t(lang, "round.until", ts=int(deadlines[d.key]))
        lines.append(line)
    mentions = sorted({u for d in pending if (u := match.seats[d.seat].user_id) is not None})
    title = t(lang, "round.title", game=info.names.get(lang), round=match.round_label())
    secret = any(d.secret for d in pending)
    embed = Embed(
        title=title,
        description=clip("\n".join(lines), 4000),
        colour=COLOUR,
        footer=t(
            lang,
            "round.footer_done"
            if not pending
            else "round.footer_secret"
            if secret
            else "round.footer",
            mid=mid,
        ),
    )
    rows: list[Row] = []
    if pending:
        rows.append(
            [
                Button(
                    t(lang, "round.button"),
                    Hand(mid, match.version).encode(),
                    "primary",
                    emoji="🃏",
                )
            ]
        )
    return Msg(
        content=" ".join(f"<@{u}>" for u in mentions) or None,
        embeds=[embed],
        rows=rows,
        mentions=mentions,
    )


def log_lines(events: list[AnyEvent], lang: str) -> list[str]:
    return [e.text.get(lang) for e in events if e.visible_to is None]
