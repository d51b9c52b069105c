"""The Discord token never reaches a log line."""

from __future__ import annotations

import io
import logging

import pytest

from bot.cli.logsetup import REDACTED, RedactToken, install_redaction, remove_redaction

TOKEN = "MTIz.secret-token.XYZ"


@pytest.fixture
def stream(restore_logging: None) -> io.StringIO:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logging.Formatter("%(name)s %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    return out


def test_filter_is_installed_on_the_root_logger(stream: io.StringIO) -> None:
    redactor = install_redaction(TOKEN)
    root = logging.getLogger()
    assert redactor in root.filters
    assert all(redactor in h.filters for h in root.handlers)
    remove_redaction(redactor)
    assert redactor not in root.filters


def test_token_in_message_and_args_of_child_loggers_is_redacted(stream: io.StringIO) -> None:
    install_redaction(TOKEN)
    logging.getLogger("discord.http").info("login with %s", TOKEN)
    logging.getLogger().warning(f"raw {TOKEN} here")
    text = stream.getvalue()
    assert TOKEN not in text
    assert text.count(REDACTED) == 2 and "discord.http login with" in text


def test_token_in_exception_text_is_redacted(stream: io.StringIO) -> None:
    install_redaction(TOKEN)
    try:
        raise RuntimeError(f"bad token {TOKEN}")
    except RuntimeError:
        logging.getLogger("bot.app").exception("failed")
    text = stream.getvalue()
    assert TOKEN not in text and "RuntimeError: bad token " + REDACTED in text


def test_handlers_added_later_are_covered(stream: io.StringIO) -> None:
    install_redaction(TOKEN)
    late = io.StringIO()
    handler = logging.StreamHandler(late)
    logging.getLogger("discord").addHandler(handler)
    try:
        logging.getLogger("discord.client").error("token=%r", TOKEN)
    finally:
        logging.getLogger("discord").removeHandler(handler)
    assert TOKEN not in late.getvalue() and REDACTED in late.getvalue()


def test_other_records_are_untouched(stream: io.StringIO) -> None:
    install_redaction(TOKEN)
    logging.getLogger("x").info("value %d of %s", 3, "seven")
    assert "x value 3 of seven" in stream.getvalue()


def test_empty_secret_redacts_nothing() -> None:
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "hello %s", ("you",), None)
    assert RedactToken("").filter(record) and record.getMessage() == "hello you"
