"""The five games; each package registers its Game on import."""
