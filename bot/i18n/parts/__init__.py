"""Catalogue parts: each module adds the strings of one area of the table.

A module here defines ``EN: dict[str, str]`` and ``FR: dict[str, str]`` with
the same keys; :mod:`bot.i18n` merges them into the catalogues, so features
developed side by side never edit one shared dictionary. A key may be defined
once only (checked at import).
"""
