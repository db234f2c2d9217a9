"""The score sheets of 小路子 and 上海斗地主 and their shared fields, until they move into their
games' packages (each game's adapter now lives in its package: ``engine/<game>/game.py``)."""

import engine.adapters.messages  # noqa: F401  (registers the sheets' error codes first)
