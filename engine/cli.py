"""The ``luzi`` referee command line (also ``python -m engine``).

Exit status: 0 on success, 1 when the answer is "no" in a way the command reports (cards that
make no play), 2 for malformed input (an unknown token, a bad level), always with one line on
stderr and never a traceback. Each game module adds its subcommands through ``register``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from engine.cards import Card, format_cards, parse_cards
from engine.errors import EngineError

__all__ = ["CommandError", "cards_arg", "emit", "main"]

#: Modules that add subcommands: each has ``register(subparsers) -> None``.
_COMMAND_MODULES: tuple[str, ...] = ("engine.daguai.cli_plays", "engine.daguai.cli_match")

Handler = Callable[[argparse.Namespace], int]


class CommandError(Exception):
    """Malformed input found by a handler: exit status 2 with this message."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def cards_arg(text: str, *, most: int | None = None, what: str = "cards") -> list[Card]:
    """Parse a list of cards given on the command line, with the checks every command shares.

    At most three copies of a card exist (three decks); ``most`` bounds how many cards.
    """
    cards = parse_cards(text)
    if not cards:
        raise CommandError(f"no {what} given")
    if most is not None and len(cards) > most:
        raise CommandError(f"{what}: {len(cards)} cards, at most {most} allowed")
    for card, count in Counter(cards).items():
        if count > 3:
            raise CommandError(f"{what}: {count} copies of {card}, the pack has three")
    return cards


def emit(args: argparse.Namespace, data: dict[str, Any], text: str) -> None:
    """Print ``data`` as one JSON object with ``--json``, else ``text``."""
    if getattr(args, "json", False):
        print(json.dumps(data, ensure_ascii=False))
    else:
        print(text)


def build_parser() -> argparse.ArgumentParser:
    """The ``luzi`` parser with every game's subcommands."""
    parser = _Parser(
        prog="luzi",
        description="Luzi referee tools for 大怪路子: classify, compare and list plays.",
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name in _COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args)
    except (EngineError, CommandError) as exc:
        print(f"luzi {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. piped into head
        return 0


def run() -> NoReturn:
    """Entry point of the console script."""
    sys.exit(main())


__all__ += ["format_cards", "run"]
