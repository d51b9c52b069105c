"""Discord's documented limits, checked on every payload the bot sends.

Discord rejects an over-limit payload with a 400 "Invalid Form Body" in
production; here each check returns a precise message (where, what, limit,
actual) so a test fails at the offending call instead.  Sources: Discord API
docs, "Message Resource > Create Message", "Embed Limits", "Component
Reference", "Interactions > Modal", "Application Commands > Naming".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELDS_MAX = 25
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_MAX = 2048
EMBED_AUTHOR_MAX = 256
EMBED_TOTAL_MAX = 6000
ROWS_MAX = 5
BUTTONS_PER_ROW_MAX = 5
SELECT_OPTIONS_MAX = 25
SELECT_OPTION_TEXT_MAX = 100
PLACEHOLDER_MAX = 150
CUSTOM_ID_MAX = 100
BUTTON_LABEL_MAX = 80
FILES_MAX = 10
FILE_SIZE_MAX = 10 * 1024 * 1024
MODAL_TITLE_MAX = 45
MODAL_COMPONENTS_MAX = 5
TEXT_INPUT_LABEL_MAX = 45
TEXT_INPUT_VALUE_MAX = 4000
AUTOCOMPLETE_CHOICES_MAX = 25
COMMAND_NAME_RE = re.compile(r"^[-_\w]{1,32}$")
COMMAND_DESCRIPTION_MAX = 100
COMMAND_OPTIONS_MAX = 25
COMMAND_CHOICES_MAX = 25

EPHEMERAL = 1 << 6
IS_COMPONENTS_V2 = 1 << 15
V2_COMPONENTS_MAX = 40
V2_TEXT_MAX = 4000
GALLERY_ITEMS_MAX = 10
V2_TYPES = {1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17}
"""Components a v2 message may hold: action row, button, selects, section, text display,
thumbnail, media gallery, file, separator, container."""
LINK_STYLE, PREMIUM_STYLE = 5, 6
SELECT_TYPES = {3, 5, 6, 7, 8}


def _len(value: Any) -> int:
    return len(value) if isinstance(value, str) else 0


def check_embeds(embeds: Sequence[dict[str, Any]], where: str) -> list[str]:
    """Embed limits: per field and 6000 characters summed over the message."""
    errors: list[str] = []
    if len(embeds) > EMBEDS_MAX:
        errors.append(f"{where}: {len(embeds)} embeds > {EMBEDS_MAX}")
    total = 0
    for i, e in enumerate(embeds):
        w = f"{where}: embed[{i}]"
        for key, limit in (("title", EMBED_TITLE_MAX), ("description", EMBED_DESCRIPTION_MAX)):
            n = _len(e.get(key))
            total += n
            if n > limit:
                errors.append(f"{w}.{key} has {n} chars > {limit}")
        footer = (e.get("footer") or {}).get("text")
        total += _len(footer)
        if _len(footer) > EMBED_FOOTER_MAX:
            errors.append(f"{w}.footer.text has {_len(footer)} chars > {EMBED_FOOTER_MAX}")
        author = (e.get("author") or {}).get("name")
        total += _len(author)
        if _len(author) > EMBED_AUTHOR_MAX:
            errors.append(f"{w}.author.name has {_len(author)} chars > {EMBED_AUTHOR_MAX}")
        fields = e.get("fields") or []
        if len(fields) > EMBED_FIELDS_MAX:
            errors.append(f"{w} has {len(fields)} fields > {EMBED_FIELDS_MAX}")
        for j, f in enumerate(fields):
            name, value = f.get("name"), f.get("value")
            total += _len(name) + _len(value)
            if not name or not str(name).strip():
                errors.append(f"{w}.fields[{j}].name is empty (Discord requires it)")
            if not value or not str(value).strip():
                errors.append(f"{w}.fields[{j}].value is empty (Discord requires it)")
            if _len(name) > EMBED_FIELD_NAME_MAX:
                errors.append(
                    f"{w}.fields[{j}].name has {_len(name)} chars > {EMBED_FIELD_NAME_MAX}"
                )
            if _len(value) > EMBED_FIELD_VALUE_MAX:
                errors.append(
                    f"{w}.fields[{j}].value has {_len(value)} chars > {EMBED_FIELD_VALUE_MAX}"
                )
    if total > EMBED_TOTAL_MAX:
        errors.append(f"{where}: embeds total {total} chars > {EMBED_TOTAL_MAX}")
    return errors


def _check_button(b: dict[str, Any], w: str, errors: list[str]) -> None:
    style = b.get("style")
    label = b.get("label")
    if _len(label) > BUTTON_LABEL_MAX:
        errors.append(f"{w}: button label {label!r} has {_len(label)} chars > {BUTTON_LABEL_MAX}")
    if style == LINK_STYLE:
        if not b.get("url"):
            errors.append(f"{w}: link button without url")
        if "custom_id" in b:
            errors.append(f"{w}: link button must not have a custom_id")
    elif style == PREMIUM_STYLE:
        if not b.get("sku_id"):
            errors.append(f"{w}: premium button without sku_id")
    else:
        if "url" in b:
            errors.append(f"{w}: non-link button (style {style}) must not have a url")
        if not b.get("custom_id"):
            errors.append(f"{w}: non-link button (style {style}) needs a custom_id")
        if not label and not b.get("emoji"):
            errors.append(f"{w}: button needs a label or an emoji")


def _check_select(s: dict[str, Any], w: str, errors: list[str]) -> None:
    if _len(s.get("placeholder")) > PLACEHOLDER_MAX:
        errors.append(
            f"{w}: select placeholder has {_len(s.get('placeholder'))} chars > {PLACEHOLDER_MAX}"
        )
    min_v, max_v = s.get("min_values", 1), s.get("max_values", 1)
    if not 0 <= min_v <= 25 or not 1 <= max_v <= 25 or min_v > max_v:
        errors.append(
            f"{w}: select min_values={min_v} max_values={max_v} out of range (0..25, 1..25, min<=max)"
        )
    if s.get("type") == 3:
        options = s.get("options") or []
        if not 1 <= len(options) <= SELECT_OPTIONS_MAX:
            errors.append(
                f"{w}: select has {len(options)} options (must be 1..{SELECT_OPTIONS_MAX})"
            )
        if max_v > len(options) and options:
            errors.append(f"{w}: select max_values={max_v} > {len(options)} options")
        values = [o.get("value") for o in options]
        if len(set(values)) != len(values):
            errors.append(f"{w}: select option values are not unique: {values}")
        for k, o in enumerate(options):
            for key in ("label", "value", "description"):
                n = _len(o.get(key))
                if n > SELECT_OPTION_TEXT_MAX:
                    errors.append(
                        f"{w}: option[{k}].{key} has {n} chars > {SELECT_OPTION_TEXT_MAX}"
                    )
            for key in ("label", "value"):
                if not o.get(key):
                    errors.append(f"{w}: option[{k}].{key} is empty")


def _walk_v2(
    components: Sequence[dict[str, Any]], where: str, ids: list[str], errors: list[str]
) -> None:
    """Components v2 (containers, sections...): recurse, check leaves."""
    for i, c in enumerate(components):
        w = f"{where}[{i}]"
        t = c.get("type")
        if t == 2:
            _check_button(c, w, errors)
        elif t in SELECT_TYPES:
            _check_select(c, w, errors)
        if "custom_id" in c:
            ids.append(c["custom_id"])
        for key in ("components",):
            if isinstance(c.get(key), list):
                _walk_v2(c[key], f"{w}.{key}", ids, errors)
        for key in ("accessory", "component"):
            if isinstance(c.get(key), dict):
                _walk_v2([c[key]], f"{w}.{key}", ids, errors)


def _v2_all(components: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for c in components:
        out.append(c)
        out += _v2_all(c.get("components") or [])
        for key in ("accessory", "component"):
            if isinstance(c.get(key), dict):
                out += _v2_all([c[key]])
    return out


def media_urls(components: Sequence[dict[str, Any]]) -> list[str]:
    """Every media url of a v2 message (gallery items, thumbnails, files)."""
    urls: list[str] = []
    for c in _v2_all(components):
        if c.get("type") == 12:
            urls += [str((i.get("media") or {}).get("url")) for i in c.get("items") or []]
        elif c.get("type") in (11, 13):
            urls.append(str((c.get("media") or c.get("file") or {}).get("url")))
    return urls


def check_v2(payload: dict[str, Any], where: str) -> list[str]:
    """A components v2 message (flag 1<<15): no content, embeds, stickers or poll; at
    most 40 components in total (nested included); text displays 4000 characters summed;
    galleries of 1..10 items; action rows of 1..5 buttons or one select; media urls
    ``attachment://`` or http(s)."""
    errors: list[str] = []
    for key in ("content", "embeds", "sticker_ids", "poll"):
        if payload.get(key):
            errors.append(f"{where}: {key!r} is not allowed with IS_COMPONENTS_V2")
    comps = payload.get("components") or []
    if not comps:
        errors.append(f"{where}: a components v2 message needs components")
    every = _v2_all(comps)
    if len(every) > V2_COMPONENTS_MAX:
        errors.append(f"{where}: {len(every)} components > {V2_COMPONENTS_MAX} (v2 total)")
    text = sum(len(c.get("content") or "") for c in every if c.get("type") == 10)
    if text > V2_TEXT_MAX:
        errors.append(f"{where}: text displays have {text} chars > {V2_TEXT_MAX}")
    for c in every:
        t = c.get("type")
        if t not in V2_TYPES:
            errors.append(f"{where}: component type {t} not allowed in a v2 message")
        if t == 12 and not 1 <= len(c.get("items") or []) <= GALLERY_ITEMS_MAX:
            errors.append(f"{where}: media gallery with {len(c.get('items') or [])} items")
        if t == 10 and not (c.get("content") or "").strip():
            errors.append(f"{where}: empty text display")
        if t == 1:
            kids = c.get("components") or []
            selects = [k for k in kids if k.get("type") in SELECT_TYPES]
            if not kids or len(kids) > BUTTONS_PER_ROW_MAX or (selects and len(kids) > 1):
                errors.append(f"{where}: action row of {len(kids)} components")
        if t == 17:
            for k in c.get("components") or []:
                if k.get("type") in (17,):
                    errors.append(f"{where}: a container inside a container")
    for url in media_urls(comps):
        if not url.startswith(("attachment://", "https://", "http://")):
            errors.append(f"{where}: media url {url!r} is not attachment:// or http(s)")
    return errors


def check_components(
    components: Sequence[dict[str, Any]], where: str, *, v2: bool = False
) -> list[str]:
    """Action rows: <= 5 rows, <= 5 buttons per row, a select alone in its
    row, custom_ids 1..100 chars and unique in the message."""
    errors: list[str] = []
    ids: list[str] = []
    if v2:
        _walk_v2(components, f"{where}: components", ids, errors)
    else:
        if len(components) > ROWS_MAX:
            errors.append(f"{where}: {len(components)} action rows > {ROWS_MAX}")
        for r, row in enumerate(components):
            w = f"{where}: row[{r}]"
            if row.get("type") != 1:
                errors.append(
                    f"{w}: top-level component of type {row.get('type')} is not an action row"
                )
                continue
            children = row.get("components") or []
            if not children:
                errors.append(f"{w}: empty action row")
            selects = [c for c in children if c.get("type") in SELECT_TYPES]
            buttons = [c for c in children if c.get("type") == 2]
            if selects and len(children) > 1:
                errors.append(
                    f"{w}: a select must be alone in its row (row has {len(children)} components)"
                )
            if len(buttons) > BUTTONS_PER_ROW_MAX:
                errors.append(f"{w}: {len(buttons)} buttons > {BUTTONS_PER_ROW_MAX}")
            for c, comp in enumerate(children):
                cw = f"{w}[{c}]"
                if comp.get("type") == 2:
                    _check_button(comp, cw, errors)
                elif comp.get("type") in SELECT_TYPES:
                    _check_select(comp, cw, errors)
                else:
                    errors.append(
                        f"{cw}: component type {comp.get('type')} not allowed in a message row"
                    )
                if "custom_id" in comp:
                    ids.append(comp["custom_id"])
    for cid in ids:
        if not isinstance(cid, str) or not 1 <= len(cid) <= CUSTOM_ID_MAX:
            n = len(cid) if isinstance(cid, str) else "non-string"
            errors.append(f"{where}: custom_id {cid!r} has {n} chars (must be 1..{CUSTOM_ID_MAX})")
    dupes = sorted({c for c in ids if ids.count(c) > 1})
    if dupes:
        errors.append(f"{where}: duplicate custom_ids in one message: {dupes}")
    return errors


def check_files(files: Sequence[tuple[str, int, bytes]], where: str) -> list[str]:
    """At most 10 attachments, each at most 10 MiB (the default upload limit)."""
    errors: list[str] = []
    if len(files) > FILES_MAX:
        errors.append(f"{where}: {len(files)} files > {FILES_MAX}")
    for name, size, _ in files:
        if size > FILE_SIZE_MAX:
            errors.append(f"{where}: file {name!r} is {size} bytes > {FILE_SIZE_MAX}")
    return errors


def check_message(
    payload: dict[str, Any] | None,
    files: Sequence[tuple[str, int, bytes]],
    where: str,
    *,
    ephemeral_allowed: bool,
) -> list[str]:
    """Every limit that applies to a message create/edit payload."""
    errors = check_files(files, where)
    if not payload:
        return errors
    content = payload.get("content")
    if isinstance(content, str) and len(content) > CONTENT_MAX:
        errors.append(f"{where}: content has {len(content)} chars > {CONTENT_MAX}")
    embeds = payload.get("embeds") or []
    errors += check_embeds(embeds, where)
    flags = payload.get("flags") or 0
    components = payload.get("components") or []
    errors += check_components(components, where, v2=bool(flags & IS_COMPONENTS_V2))
    if flags & IS_COMPONENTS_V2:
        errors += check_v2(payload, where)
    if flags & EPHEMERAL and not ephemeral_allowed:
        errors.append(
            f"{where}: the EPHEMERAL flag (64) is only valid on interaction responses and followups"
        )
    return errors


def check_modal(data: dict[str, Any], where: str) -> list[str]:
    """Modal: title 45, 1..5 components, text input label 45, custom_id 100."""
    errors: list[str] = []
    title = data.get("title")
    if not title or len(title) > MODAL_TITLE_MAX:
        errors.append(f"{where}: modal title {title!r} must be 1..{MODAL_TITLE_MAX} chars")
    cid = data.get("custom_id")
    if not cid or len(cid) > CUSTOM_ID_MAX:
        errors.append(f"{where}: modal custom_id {cid!r} must be 1..{CUSTOM_ID_MAX} chars")
    comps = data.get("components") or []
    if not 1 <= len(comps) <= MODAL_COMPONENTS_MAX:
        errors.append(
            f"{where}: modal has {len(comps)} components (must be 1..{MODAL_COMPONENTS_MAX})"
        )
    ids: list[str] = []
    for i, top in enumerate(comps):
        inner = top.get("components") or ([top["component"]] if "component" in top else [])
        label_text = top.get("label") if top.get("type") == 18 else None
        if label_text is not None and len(label_text) > TEXT_INPUT_LABEL_MAX:
            errors.append(
                f"{where}: modal label[{i}] {label_text!r} > {TEXT_INPUT_LABEL_MAX} chars"
            )
        for c in inner:
            if "custom_id" in c:
                ids.append(c["custom_id"])
            if c.get("type") == 4:
                label = c.get("label")
                if label is not None and len(label) > TEXT_INPUT_LABEL_MAX:
                    errors.append(
                        f"{where}: text input label {label!r} > {TEXT_INPUT_LABEL_MAX} chars"
                    )
                if _len(c.get("placeholder")) > 100:
                    errors.append(f"{where}: text input placeholder > 100 chars")
                if _len(c.get("value")) > TEXT_INPUT_VALUE_MAX:
                    errors.append(f"{where}: text input value > {TEXT_INPUT_VALUE_MAX} chars")
    for cid in ids:
        if not 1 <= len(cid) <= CUSTOM_ID_MAX:
            errors.append(
                f"{where}: modal component custom_id {cid!r} must be 1..{CUSTOM_ID_MAX} chars"
            )
    if len(set(ids)) != len(ids):
        errors.append(f"{where}: duplicate custom_ids in modal: {ids}")
    return errors


def check_autocomplete(data: dict[str, Any], where: str) -> list[str]:
    """Autocomplete result: at most 25 choices, name 1..100, value 100."""
    errors: list[str] = []
    choices = data.get("choices") or []
    if len(choices) > AUTOCOMPLETE_CHOICES_MAX:
        errors.append(f"{where}: {len(choices)} autocomplete choices > {AUTOCOMPLETE_CHOICES_MAX}")
    for i, c in enumerate(choices):
        if not 1 <= _len(c.get("name")) <= 100:
            errors.append(f"{where}: choice[{i}].name must be 1..100 chars")
        if isinstance(c.get("value"), str) and len(c["value"]) > 100:
            errors.append(f"{where}: choice[{i}].value > 100 chars")
    return errors


def _check_localized(
    text: Any, locs: dict[str, str] | None, where: str, *, name: bool, errors: list[str]
) -> None:
    limit = 32 if name else COMMAND_DESCRIPTION_MAX
    variants = [("default", text)] + list((locs or {}).items())
    for locale, value in variants:
        if not isinstance(value, str) or not 1 <= len(value) <= limit:
            errors.append(f"{where} ({locale}): {value!r} must be 1..{limit} chars")
        elif name and (not COMMAND_NAME_RE.match(value) or value.lower() != value):
            errors.append(f"{where} ({locale}): {value!r} is not a valid lowercase command name")


def _check_options(options: Sequence[dict[str, Any]], where: str, errors: list[str]) -> None:
    if len(options) > COMMAND_OPTIONS_MAX:
        errors.append(f"{where}: {len(options)} options > {COMMAND_OPTIONS_MAX}")
    seen_optional = False
    for o in options:
        w = f"{where}.{o.get('name')}"
        _check_localized(
            o.get("name"), o.get("name_localizations"), f"{w} name", name=True, errors=errors
        )
        _check_localized(
            o.get("description"),
            o.get("description_localizations"),
            f"{w} description",
            name=False,
            errors=errors,
        )
        choices = o.get("choices") or []
        if len(choices) > COMMAND_CHOICES_MAX:
            errors.append(f"{w}: {len(choices)} choices > {COMMAND_CHOICES_MAX}")
        for c in choices:
            if not 1 <= _len(c.get("name")) <= 100:
                errors.append(f"{w}: choice name {c.get('name')!r} must be 1..100 chars")
            for loc, val in (c.get("name_localizations") or {}).items():
                if not 1 <= _len(val) <= 100:
                    errors.append(f"{w}: choice name ({loc}) {val!r} must be 1..100 chars")
        if o.get("type") in (1, 2):
            _check_options(o.get("options") or [], w, errors)
        else:
            if o.get("required"):
                if seen_optional:
                    errors.append(f"{w}: required option after an optional one")
            else:
                seen_optional = True


def check_commands(commands: Sequence[dict[str, Any]], where: str) -> list[str]:
    """Application command sync payload: names, descriptions, localisations."""
    errors: list[str] = []
    if len(commands) > 100:
        errors.append(f"{where}: {len(commands)} chat commands > 100")
    names = [(c.get("name"), c.get("type", 1)) for c in commands]
    if len(set(names)) != len(names):
        errors.append(f"{where}: duplicate command names {names}")
    for c in commands:
        w = f"{where}: /{c.get('name')}"
        if c.get("type", 1) == 1:
            _check_localized(
                c.get("name"), c.get("name_localizations"), f"{w} name", name=True, errors=errors
            )
            _check_localized(
                c.get("description"),
                c.get("description_localizations"),
                f"{w} description",
                name=False,
                errors=errors,
            )
            _check_options(c.get("options") or [], w, errors)
    return errors
