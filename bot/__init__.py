"""Arena Master: a Discord referee for five board games."""
