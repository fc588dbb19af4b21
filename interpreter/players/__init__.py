"""Players: anything that picks one of the legal actions of a hand state."""
