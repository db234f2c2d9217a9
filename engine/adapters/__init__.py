"""Adapters of games whose packages are kept by others: each module's ``GAME`` puts one game
behind the interface of :mod:`engine.game` (see :mod:`engine.registry`)."""

import engine.adapters.messages  # noqa: F401  (registers the package's error codes first)
