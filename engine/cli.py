"""The ``luzi`` referee command line (also ``python -m engine``): one command line over the
registry, ``luzi VERB [--game KEY] ...``.

Every game registers its verbs from its own package (``Game.add_cli_verbs``: the game's
``cli.py`` adds subcommands with ``register(subparsers)``); ``games`` and ``arena`` are every
game's. ``--game KEY`` chooses the game (default 大怪路子); ``luzi replay FILE`` without it reads
the game from the record's headers.

Exit status: 0 on success, 1 when the answer is "no" in a way the command reports (cards that
make no play: a handler returns 1, or raises :class:`Refused`), 2 for malformed input (an unknown
token, a bad level), always with one line on stderr and never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from engine import registry
from engine.cards import Card, format_cards, parse_cards
from engine.errors import EngineError, RecordError

__all__ = [
    "CommandError",
    "Refused",
    "add_play_verbs",
    "add_replay_verb",
    "add_simulate_verb",
    "build_parser",
    "cards_arg",
    "emit",
    "json_flag",
    "main",
    "match_deals",
    "positive_arg",
    "read_json",
    "rejected",
    "seat_arg",
]

#: The default game (the registry's): the one whose verbs ``luzi`` offers without ``--game``.
DEFAULT_GAME = registry.DEFAULT_GAME

Handler = Callable[[argparse.Namespace], int]


class CommandError(Exception):
    """Malformed input found by a handler: exit status 2 with this message."""


class Refused(Exception):
    """A "no" the command reports: exit status 1, the message printed (as ``{"error": ...}``
    with ``--json``) and on stderr."""


class _Exit(Exception):
    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class _Parser(argparse.ArgumentParser):
    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            sys.stderr.write(message)
        raise _Exit(status)

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


def positive_arg(text: str) -> int:
    """An argparse ``type``: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more: {text!r}")
    return value


def seat_arg(seat_count: int) -> Callable[[str], int]:
    """An argparse ``type``: a seat ``0 .. seat_count - 1``."""

    def seat(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a seat: {text!r} (use 0-{high})") from None
        if not 0 <= value <= high:
            raise argparse.ArgumentTypeError(f"not a seat: {text!r} (use 0-{high})")
        return value

    high = seat_count - 1
    return seat


# -- what every game's verbs share (each game's cli.py) ------------------------------------------


def json_flag(parser: argparse.ArgumentParser) -> None:
    """``--json``, which every verb has: print one JSON object (:func:`emit`)."""
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def add_play_verbs(
    sub: Any,
    handlers: tuple[Handler, Handler, Handler],
    *,
    example: str,
    hand: str,
    options: Callable[[argparse.ArgumentParser], None] = json_flag,
) -> argparse.ArgumentParser:
    """Add the verbs that settle a dispute over plays, answered by ``handlers``: ``hand CARDS``
    (the play the cards make; ``example`` in its help), ``beats PLAY OVER`` and
    ``plays [--over CARDS] HAND`` (every legal play of a hand, ``hand`` its help). ``options``
    adds the game's own options to each (``--json`` at least); returns the ``plays`` parser, for
    options of its own."""
    on_hand, on_beats, on_plays = handlers
    verb: argparse.ArgumentParser = sub.add_parser(
        "hand", help="the play that cards make 这些牌是什么牌型"
    )
    verb.add_argument("cards", help=f'cards, e.g. "{example}"')
    options(verb)
    verb.set_defaults(handler=on_hand)

    verb = sub.add_parser("beats", help="whether PLAY beats OVER 能否压过")
    verb.add_argument("play", help="the play made")
    verb.add_argument("over", help="the play it is played on")
    options(verb)
    verb.set_defaults(handler=on_beats)

    verb = sub.add_parser("plays", help="every legal play of a hand 所有可出的牌")
    verb.add_argument("--over", metavar="PLAY", help="the play to beat (default: leading)")
    verb.add_argument("hand", help=hand)
    options(verb)
    verb.set_defaults(handler=on_plays)
    return verb


def add_simulate_verb(
    sub: Any,
    handler: Handler,
    *,
    bots: Sequence[str],
    bots_help: str | None = None,
    seed: Callable[[str], Any] = int,
    what: str = "bots play whole matches, checking every invariant",
) -> argparse.ArgumentParser:
    """Add ``simulate`` (``what`` its help): bots (one of ``bots``) play from a seed (read by
    ``seed``), and ``--verify-records`` replays every record too."""
    verb: argparse.ArgumentParser = sub.add_parser("simulate", help=what)
    verb.add_argument("--deals", type=positive_arg, default=100, metavar="N", help="deals (100)")
    verb.add_argument("--seed", type=seed, default=seed("0"), metavar="S", help="seed (0)")
    verb.add_argument("--bots", choices=bots, default=bots[0], help=bots_help)
    verb.add_argument(
        "--verify-records", action="store_true", help="also write, read and replay every record"
    )
    json_flag(verb)
    verb.set_defaults(handler=handler)
    return verb


def add_replay_verb(sub: Any, handler: Handler) -> argparse.ArgumentParser:
    """Add ``replay FILE``: verify a deal's or a match's record (:func:`read_json`)."""
    verb: argparse.ArgumentParser = sub.add_parser(
        "replay", help="verify a deal or match record 复盘"
    )
    verb.add_argument("file", metavar="FILE", help="a record (JSON), '-' for standard input")
    json_flag(verb)
    verb.set_defaults(handler=handler)
    return verb


def read_json(path: str) -> Any:
    """The JSON of the file named on the command line (``-``: standard input); a file that
    cannot be read or is not JSON is malformed input (exit status 2)."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise CommandError(f"cannot read {path}: {exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path} is not JSON: {exc}") from None
    except RecursionError:  # the decoder recurses once per level of nesting
        raise RecordError(f"{path}: JSON nested too deeply to be a record") from None


def match_deals(data: Any) -> list[Any] | None:
    """The deal records of a match's record (a list of them, or ``{"deals": [...], ...}``);
    ``None`` when ``data`` is one deal's record."""
    if not (isinstance(data, list) or (isinstance(data, dict) and "deals" in data)):
        return None
    deals = data if isinstance(data, list) else data["deals"]
    if not isinstance(deals, list):
        raise RecordError("a match record's deals must be a list")
    return deals


def rejected(args: argparse.Namespace, error: Exception, index: int | None) -> int:
    """A record that breaks the rules (``index``: the first bad action's, if known): reported
    on stdout and stderr, exit status 1."""
    emit(args, {"ok": False, "error": str(error), "index": index}, f"rejected 不合规: {error}")
    print(f"luzi {args.command}: rejected: {error}", file=sys.stderr)
    return 1


def emit(args: argparse.Namespace, data: dict[str, Any], text: str) -> None:
    """Print ``data`` as one JSON object with ``--json``, else ``text``."""
    if getattr(args, "json", False):
        print(json.dumps(data, ensure_ascii=False))
    else:
        print(text)


def build_parser(game: str = DEFAULT_GAME) -> argparse.ArgumentParser:
    """The ``luzi`` parser with the verbs every game shares and ``game``'s own."""
    from engine.registry import get_game

    chosen = get_game(game)
    parser = _Parser(prog="luzi", description=chosen.cli_description)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    games = sub.add_parser("games", help="list the registered games, their seats and options")
    json_flag(games)
    games.set_defaults(handler=_games)
    # listed for --help only: ``luzi arena ...`` is run by engine.arena before this parser
    sub.add_parser(
        "arena", help="two bot kinds play duplicated deals of any game (luzi arena --help)"
    )
    chosen.add_cli_verbs(sub)
    return parser


def _games(args: argparse.Namespace) -> int:
    """``luzi games``: every registered game with its seat count, sides or roles, and options."""
    from engine.registry import registered_games

    games = registered_games()
    lines = []
    for game in games:
        if game.fixed_sides:
            sides = ", ".join(
                f"{side}: seats {' '.join(map(str, game.side_seats(side)))}" for side in game.sides
            )
        else:
            sides = "roles change from deal to deal"
        options = ", ".join(f"{o.name}={json.dumps(o.default)}" for o in game.option_specs())
        lines.append(
            f"{game.key}: {game.name_zh} ({game.name_en}), {game.seat_count} seats; {sides}; "
            f"options {options}; bots {', '.join(game.bot_kinds)}"
        )
    emit(args, {"games": [game.to_json() for game in games]}, "\n".join(lines))
    return 0


def _game_of(argv: Sequence[str]) -> str | None:
    """The value of ``--game`` in ``argv`` (``--game KEY`` or ``--game=KEY``), if given."""
    for i, arg in enumerate(argv):
        if arg == "--game" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--game="):
            return arg.partition("=")[2]
    return None


def _strip_game(argv: Sequence[str]) -> list[str]:
    out: list[str] = []
    skip = False
    for i, arg in enumerate(argv):
        if skip:
            skip = False
            continue
        if arg == "--game" and i + 1 < len(argv):
            skip = True
            continue
        if arg.startswith("--game="):
            continue
        out.append(arg)
    return out


def _record_game(argv: Sequence[str]) -> str | None:
    """For ``luzi replay FILE``: the game its record names in its headers, if it reads as one."""
    from engine.registry import registered_keys

    if not argv or argv[0] != "replay":
        return None
    files = [a for a in argv[1:] if not a.startswith("-")]
    if len(files) != 1:
        return None
    try:
        with open(files[0], encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return None  # the game's own replay reports it
    if isinstance(data, dict) and isinstance(data.get("deals"), list) and data["deals"]:
        data = data["deals"][0]
    elif isinstance(data, list) and data:
        data = data[0]
    headers = data.get("headers") if isinstance(data, dict) else None
    game = headers.get("game") if isinstance(headers, dict) else None
    return game if isinstance(game, str) and game in registered_keys() else None


def stdout_closed_by_reader() -> int:
    """What a command does when its reader went away (``luzi arena | head``: a BrokenPipeError):
    stdout is sent nowhere, so Python's own flush at exit prints no second error, and the
    status is 1, as the Python documentation advises. Shared by ``luzi`` and the site's
    management commands."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 1


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (the console script's entry point).

    ``--game KEY`` chooses the game (default 大怪路子), whose verbs the command line offers.
    Output cut off by its reader ends the command quietly with status 1.
    """
    try:
        status = _main(argv)
        sys.stdout.flush()  # inside the try: a closed pipe shows at the last write
    except BrokenPipeError:
        return stdout_closed_by_reader()
    return status


def _main(argv: Sequence[str] | None) -> int:
    from engine.registry import registered_keys

    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["arena"]:  # every game's: ``--game`` chooses the game, not the command line
        from engine.arena import main as arena_main

        return arena_main(argv[1:])
    game = _game_of(argv)
    if game is None:
        game = _record_game(argv) or DEFAULT_GAME
    if game not in registered_keys():
        known = ", ".join(registered_keys())
        print(f"luzi: error: unknown game {game!r} (known: {known})", file=sys.stderr)
        return 2
    try:
        parser = build_parser(game)
    except ModuleNotFoundError:
        print(f"luzi: error: the game {game!r} is not available in this build", file=sys.stderr)
        return 2
    try:
        args = parser.parse_args(_strip_game(argv))
    except _Exit as stop:  # --help (0) or a usage error (2, its one line printed)
        return stop.status
    handler: Handler = args.handler
    try:
        return handler(args)
    except Refused as exc:
        emit(args, {"error": str(exc)}, f"no: {exc}")
        print(f"luzi {args.command}: {exc}", file=sys.stderr)
        return 1
    except (EngineError, CommandError) as exc:
        message = " ".join(str(exc).split())  # one line on stderr, whatever the message holds
        print(f"luzi {args.command}: error: {message}", file=sys.stderr)
        return 2


def run() -> NoReturn:
    """Entry point of ``python -m engine``."""
    sys.exit(main())


__all__ += ["format_cards", "run", "stdout_closed_by_reader"]
