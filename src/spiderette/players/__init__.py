"""Whoever chooses the moves: the hint ranking, the solver, the planner, the search, the strategies."""
