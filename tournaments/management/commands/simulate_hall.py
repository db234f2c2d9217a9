"""`manage.py simulate_hall`: a hall of offline tables on the day (issue 30), scored from the
players' phones while the round's clock runs (tournaments.events.hall)."""

from __future__ import annotations

from typing import Any, TextIO, cast

from django.core.management.base import CommandError, CommandParser

from config.exceptions import ApplicationError
from engine.registry import DEFAULT_GAME
from tournaments.events.hall import hall_simulate
from tournaments.management.commands._base import LuziCommand
from tournaments.management.commands._progress import ProgressBar


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise ValueError(text)
    return value


class Command(LuziCommand):
    help = (
        "Simulate a hall on the day: an event of offline tables whose players check in (some "
        "do not come), a round drawn from those present with its clock started, every table "
        "scored deal by deal from its players' phones (one deal disputed and settled by a "
        "referee); print a summary and the top of the standings."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--game",
            default=DEFAULT_GAME,
            help=f"the game's key (luzi games lists them; {DEFAULT_GAME})",
        )
        parser.add_argument("--tables", type=_count, default=12, help="tables (default 12)")
        parser.add_argument(
            "--absent", type=_count, default=2, help="teams (players) who do not check in (2)"
        )
        parser.add_argument("--seed", type=int, default=0, help="seed of the deals (0)")

    def handle(self, *args: Any, **options: Any) -> None:
        bar = ProgressBar("simulate_hall", stream=cast(TextIO, self.stderr._out))
        try:
            summary = hall_simulate(
                game=options["game"],
                tables=options["tables"],
                absent=options["absent"],
                seed=options["seed"],
                progress=lambda done, total: bar.update(done, total, "tables scored"),
            )
        except ApplicationError as exc:
            raise CommandError(exc.message, returncode=2) from exc
        finally:
            bar.close()
        for line in summary.lines():
            self.stdout.write(line)
