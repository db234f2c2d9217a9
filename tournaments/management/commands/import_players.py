"""`manage.py import_players EVENT FILE [--dry-run] [--as USERNAME] [--others new|refuse]`:
register players and teams from a file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from config.exceptions import ApplicationError
from tournaments.events.importing import OTHERS_CHOICES, OTHERS_NEW, ImportPlan
from tournaments.events.organizers import event_organizer_require
from tournaments.events.registration_import import event_import, event_import_plan
from tournaments.management.commands._base import LuziCommand
from tournaments.models import Event


def _row_problem(row: int, message: str) -> str:
    return _("row %(row)d: %(message)s") % {"row": row, "message": message}


class Command(LuziCommand):
    help = (
        "Import players and teams into an event from a .csv or .xlsx file (columns: name/姓名, "
        "unit/部门, optional team/队伍 and employee number/工号). Nothing is written unless the "
        "whole file is valid; exit code 2 lists the bad rows."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event", type=int, help="the event's id")
        parser.add_argument("file", type=Path, help="a .csv or .xlsx file")
        parser.add_argument("--dry-run", action="store_true", help="check and preview only")
        parser.add_argument(
            "--no-create-units",
            action="store_true",
            help="treat units missing from the event's meet as errors instead of creating them",
        )
        parser.add_argument(
            "--balanced",
            action="store_true",
            help="form the teams within each unit balanced by rating instead of in file order",
        )
        parser.add_argument(
            "--as",
            dest="as_user",
            metavar="USERNAME",
            help="import as this organizer of the event: a player is taken again only when they "
            "reach them (a player of one of their events); without it, any player of the meet",
        )
        parser.add_argument(
            "--others",
            choices=OTHERS_CHOICES,
            default=OTHERS_NEW,
            help="a row naming a player out of reach: import them as a new player (new, the "
            "default) or refuse the row (refuse)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        event = Event.objects.filter(pk=options["event"]).first()
        if event is None:
            raise CommandError(
                _("No event with id %(event)s.") % {"event": options["event"]}, returncode=2
            )
        path: Path = options["file"]
        try:
            content = path.read_bytes()
        except OSError as exc:
            raise CommandError(
                _("Cannot read %(path)s: %(reason)s.") % {"path": path, "reason": exc.strerror},
                returncode=2,
            ) from None
        create_units = not options["no_create_units"]
        user = None
        if options["as_user"]:
            user = get_user_model().objects.filter(username=options["as_user"]).first()
            if user is None:
                raise CommandError(
                    _("No user called %(name)s.") % {"name": options["as_user"]}, returncode=2
                )
        arguments: dict[str, Any] = {
            "event": event,
            "filename": path.name,
            "content": content,
            "create_units": create_units,
            "user": user,
            "others": options["others"],
            "balanced": options["balanced"],
        }
        try:
            if options["dry_run"]:
                event_organizer_require(event=event, user=user)
                plan = event_import_plan(**arguments)
            else:
                plan = event_import(**arguments)
        except ApplicationError as exc:  # NotAllowedError and ConflictError too
            lines = [exc.message] + [
                "  " + _row_problem(p["row"], p["message"]) for p in exc.extra.get("problems", [])
            ]
            raise CommandError("\n".join(lines), returncode=2) from None
        self._report(plan, dry_run=options["dry_run"])
        if not plan.ok:
            count = len(plan.problems)
            raise CommandError(
                ngettext(
                    "%(count)d bad row; nothing imported.",
                    "%(count)d bad rows; nothing imported.",
                    count,
                )
                % {"count": count},
                returncode=2,
            )

    def _report(self, plan: ImportPlan, *, dry_run: bool) -> None:
        for problem in plan.problems:
            self.stderr.write(_row_problem(problem.row, problem.message))
        for warning in plan.warnings:
            self.stdout.write(self.style.WARNING(warning))
        if plan.closed:
            self.stdout.write(self.style.WARNING(plan.closed))
        if plan.new_units:
            self.stdout.write(f"new units: {', '.join(plan.new_units)}")
        for player in plan.players:
            kind = "existing player" if player.reuses is not None else "new player"
            self.stdout.write(f"row {player.row}: {player.name} [{player.unit}] {kind}")
        for team in plan.teams:
            names = "、".join(p.name for p in team.players)
            formed = " (formed)" if team.formed else ""
            self.stdout.write(f"{team.name} [{team.unit}]{formed}: {names}")
        verb = "would import" if dry_run else "imported"
        if plan.ok:
            self.stdout.write(
                self.style.SUCCESS(
                    f"{verb} {plan.player_count} players in {len(plan.teams)} teams."
                )
            )
