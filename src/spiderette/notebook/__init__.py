"""The notebook widgets: the card table (``widget``) and the replay viewer (``replay``), the view they send
to the browser (``view``), the intents they take from it, their words, buttons, indicators and clock.

Uses the players and the player's files (``userdata``); the built front end is ``spiderette/static/``.
"""
