"""`manage.py demo_play`: bots play the demo meet's first rounds of every event, side by side, at
a pace people can watch."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _

from config.exceptions import ApplicationError
from tournaments.draw import services as draw_services
from tournaments.events.demo import EVENT_NAME, MEET_SLUG
from tournaments.management.commands._base import LuziCommand
from tournaments.models import Event, Round
from tournaments.rounds import services as rounds_services
from tournaments.rounds.running import round_run, round_tables_start


class Command(LuziCommand):
    help = (
        "Let the system's bots play the demo event's first rounds on the Celery workers, one "
        "after the other, so the demo's tables and standings fill in live. Needs `load_demo`."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--rounds", type=int, default=2, help="rounds to play (default 2)")
        parser.add_argument(
            "--bot-delay-ms",
            type=int,
            default=250,
            help="a bot's think time, so that the tables can be watched; 0 plays each deal "
            "at once (default 250)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["rounds"] < 1 or options["bot_delay_ms"] < 0:
            raise CommandError(
                _("--rounds must be 1 or more, --bot-delay-ms 0 or more."), returncode=2
            )
        events = list(Event.objects.filter(meet__slug=MEET_SLUG).order_by("pk"))
        if not any(e.name == EVENT_NAME for e in events):
            raise CommandError(_("No demo event: run `manage.py load_demo` first."), returncode=2)
        try:
            for number in range(1, options["rounds"] + 1):
                # every event's round starts at once, so the three games are played side by side
                started = []
                for event in events:
                    round = Round.objects.filter(event=event, number=number).first()
                    if round is None:
                        round = draw_services.round_create_paired(event=event, confirm=True)
                    elif round.status == Round.Status.DRAFT:
                        round = rounds_services.round_confirm(round=round)
                    if round.status == Round.Status.COMPLETED:
                        continue
                    self.stdout.write(f"demo: bots play {event.name}, round {round.number}")
                    round_tables_start(round=round, bots=True, bot_delay_ms=options["bot_delay_ms"])
                    started.append(round)
                for round in started:
                    run = round_run(round=round, bots=True, bot_delay_ms=options["bot_delay_ms"])
                    if not run.complete:
                        raise CommandError(
                            _("Round %(round)d did not finish.") % {"round": round.number},
                            returncode=1,
                        )
        except ApplicationError as exc:
            raise CommandError(exc.message, returncode=2) from exc
        self.stdout.write(self.style.SUCCESS(f"demo: {options['rounds']} rounds played."))
