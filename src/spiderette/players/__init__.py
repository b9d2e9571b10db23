"""Whoever chooses the moves, on the engine: the hint ranking (``ranking``), the perfect-information solver,
the honest planner and search, ``hint()``/``hints()`` (``advice``), the strategies, the analysis of a played
game, and the background work they run in.

Imports the engine only, and the standard library (an optional extra through ``extras``, when asked for).
"""
