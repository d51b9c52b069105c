"""discord.py adapters: commands, components and presentation; no rules here."""
