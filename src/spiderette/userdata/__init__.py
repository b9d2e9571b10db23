"""The player's data folder: the statistics (stats.json) and the unfinished game (resume.json)."""
