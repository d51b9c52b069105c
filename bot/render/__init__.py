"""Shared Pillow helpers for every game's renderer (pure: view in, PNG out)."""
