"""The player's files in the data folder: the statistics (``statistics``: ``stats.json``) and the unfinished
game (``resumefile``: ``resume.json``), read and set aside by ``datafolder``.

Imports the engine only (a game and its save-file format).
"""
