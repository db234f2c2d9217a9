"""``python -m engine``: the ``luzi`` referee command line."""

from engine.cli import run

run()
