"""`manage.py ratings_rebuild [--game G]`: compute every rating again from the recorded matches."""

from __future__ import annotations

from typing import Any, TextIO, cast

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _

from engine.registry import registered_keys
from ratings.services import ratings_rebuild
from tournaments.management.commands._base import LuziCommand
from tournaments.management.commands._progress import ProgressBar


class Command(LuziCommand):
    help = (
        "Compute the ratings of one game (or of every game) again from the recorded matches, in "
        "the order their results came in; gives the ratings kept after every match."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--game", help="the game's key (luzi games lists them); all if left out"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        keys = registered_keys()
        game = options["game"]
        if game is not None and game not in keys:
            raise CommandError(
                _("Unknown game %(game)r: use one of %(games)s.")
                % {"game": game, "games": ", ".join(keys)},
                returncode=2,
            )
        for key in [game] if game else keys:
            bar = ProgressBar(f"ratings {key}", stream=cast(TextIO, self.stderr._out))
            try:
                count = ratings_rebuild(game=key, progress=bar.update)
            finally:
                bar.close()
            self.stdout.write(f"{key}: {count} rated matches")
