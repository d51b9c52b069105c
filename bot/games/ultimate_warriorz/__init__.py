"""Ultimate Warriorz (game id ``ultimate-warriorz``); registers itself once its rules are complete."""
