"""Site: article anatomy, navigation, snippet usage, structure lint and scaffolding."""
