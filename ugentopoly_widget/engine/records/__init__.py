"""What happened in a game: events, checkpoints, save files and their checks, landing counts."""
