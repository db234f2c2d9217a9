"""The engine's errors: a small hierarchy under :class:`ValueError`."""

from __future__ import annotations


class EngineError(ValueError):
    """Base class of every error the engine raises for bad input."""


class InvalidNotationError(EngineError):
    """A card, rank or play written in a notation the engine cannot read."""


class InvalidPlayError(EngineError):
    """Cards that make no play (for example ``3H 4H``, or four cards)."""


class IllegalActionError(EngineError):
    """An action that the rules do not allow in the current state."""
