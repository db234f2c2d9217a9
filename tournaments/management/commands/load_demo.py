"""`manage.py load_demo`: load the demo meet idempotently and print how to log in."""

from __future__ import annotations

import os
from typing import Any

from django.core.management.base import CommandError, CommandParser

from config.exceptions import ApplicationError
from tournaments.events.demo import demo_load
from tournaments.management.commands._base import LuziCommand


class Command(LuziCommand):
    help = "Load the demo staff sports meet (units, players, teams, a 大怪路子 event) and accounts."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--admin-password",
            default=os.environ.get("DEMO_ADMIN_PASSWORD", "luzi-admin-demo"),
            help="password of the superuser 'admin' (default: luzi-admin-demo)",
        )
        parser.add_argument(
            "--organizer-password",
            default=os.environ.get("DEMO_ORGANIZER_PASSWORD", "luzi-organizer-demo"),
            help="password of the organizer 'organizer' (default: luzi-organizer-demo)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            summary = demo_load(
                admin_password=options["admin_password"],
                organizer_password=options["organizer_password"],
            )
        except ApplicationError as exc:
            raise CommandError(exc.message, returncode=2) from exc
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo meet ready: {summary.meet.name} · {summary.event.name}: "
                f"{summary.units} units, {summary.players} players, {summary.teams} teams."
            )
        )
        for account in summary.accounts:
            self.stdout.write(
                f"  {account.role}: username {account.username!r}, password {account.password!r}"
            )
