"""The rules engine: cards, variants, deals, moves, the game, its formats; imports nothing above it."""
