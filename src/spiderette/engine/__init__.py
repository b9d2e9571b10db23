"""The rules engine: cards, variants, numbered deals, moves and their notation, the game, the checks of a table,
the named move predicates, and the game's formats (dicts, position text, save files, the SVG picture).

Every rule of the game lives here, and the errors that refuse a move. The engine imports nothing from the
other wings and nothing outside the standard library (``tests/test_architecture.py``).
"""
