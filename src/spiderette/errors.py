"""The errors the package raises. Each is a ``ValueError`` that says what is wrong."""

from __future__ import annotations


class IllegalMoveError(ValueError):
    """A well-formed move that the rules do not allow now, such as a king onto a queen."""


class NotationError(ValueError):
    """Text that is not move notation (or not a position); the message quotes the bad token."""


class InvalidPositionError(ValueError):
    """A position (dict or text) that no game of the variant could reach."""


class SaveFileError(ValueError):
    """A save file that is corrupted, truncated, of another program, or inconsistent."""
