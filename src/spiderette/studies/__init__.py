"""Studies: strategies played on many numbered deals (``runner``: ``simulate``, ``compare``), what they give
back (``results``: ``Simulation``, ``Comparison``) and the statistics to read them (``intervals``).

The top wing but one: a study uses the players, and shows a deal in the notebook's replay viewer.
"""
