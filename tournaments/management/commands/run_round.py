"""`manage.py run_round EVENT ROUND`: start a round's tables and wait until all matches end."""

from __future__ import annotations

from typing import Any, TextIO, cast

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _

from config.exceptions import ApplicationError
from tournaments.management.commands._base import LuziCommand
from tournaments.management.commands._progress import ProgressBar
from tournaments.models import Round
from tournaments.rounds.running import round_run


class Command(LuziCommand):
    help = (
        "Start every online table of a confirmed round on the Celery workers and wait, with a "
        "progress bar, until all their matches finish; then complete the round."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event", type=int, help="the event's id")
        parser.add_argument("round", type=int, help="the round's number in the event")
        parser.add_argument(
            "--bots", action="store_true", help="let the system's bots play every seat"
        )
        parser.add_argument(
            "--timeout", type=float, default=3600.0, help="seconds to wait at most (default 3600)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            round = Round.objects.select_related("event").get(
                event_id=options["event"], number=options["round"]
            )
        except Round.DoesNotExist:
            raise CommandError(
                _("No round %(round)s in event %(event)s.")
                % {"round": options["round"], "event": options["event"]},
                returncode=2,
            ) from None
        if options["timeout"] <= 0:
            raise CommandError(_("--timeout must be more than 0 seconds."), returncode=2)
        bar = ProgressBar(
            f"{round.event.name} · round {round.number}", stream=cast(TextIO, self.stderr._out)
        )
        try:
            run = round_run(
                round=round, bots=options["bots"], timeout=options["timeout"], progress=bar.update
            )
        except ApplicationError as exc:
            raise CommandError(exc.message, returncode=2) from exc
        finally:
            bar.close()
        if not run.complete:
            raise CommandError(
                _(
                    "Timed out after %(seconds).0f s: %(finished)d of %(matches)d matches "
                    "finished. Are Celery workers running?"
                )
                % {"seconds": run.seconds, "finished": run.finished, "matches": run.matches},
                returncode=1,
            )
        self.stdout.write(
            self.style.SUCCESS(
                f"Round {round.number}: {run.matches} matches finished in {run.seconds:.1f} s."
            )
        )
