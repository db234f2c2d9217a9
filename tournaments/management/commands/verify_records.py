"""`manage.py verify_records`: replay every stored deal with engine/ and report each mismatch."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import Match
from games.replay.audit import matches_audit
from tournaments.management.commands._base import LuziCommand
from tournaments.models import Event


class Command(LuziCommand):
    help = (
        "Replay every stored deal record with the rules engine and check it reproduces the stored "
        "result, finishing order, points and levels. Exit 1 if anything differs."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--event", type=int, help="only this event's matches")
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args: Any, **options: Any) -> None:
        matches = Match.objects.select_related("table").order_by("pk")
        if options["event"] is not None:
            if not Event.objects.filter(pk=options["event"]).exists():
                raise CommandError(
                    _("No event with id %(event)s.") % {"event": options["event"]}, returncode=2
                )
            matches = matches.filter(table__pairing__round__event_id=options["event"])
        audit = matches_audit(matches.iterator(chunk_size=200))
        if options["json"]:
            self.stdout.write(
                json.dumps(
                    {
                        "ok": audit.ok,
                        "matches": audit.matches,
                        "deals": audit.deals,
                        "actions": audit.actions,
                        "problems": [
                            {"match": p.match_id, "deal": p.deal_number, "message": p.message}
                            for p in audit.problems
                        ],
                    },
                    ensure_ascii=False,
                )
            )
        else:
            for problem in audit.problems:
                self.stdout.write(self.style.ERROR(str(problem)))
            self.stdout.write(
                f"{audit.matches} matches, {audit.deals} deals, {audit.actions} actions checked: "
                f"{len(audit.problems)} problems"
            )
        if not audit.ok:
            count = len(audit.problems)
            raise CommandError(
                ngettext(
                    "%(count)d record does not verify.", "%(count)d records do not verify.", count
                )
                % {"count": count},
                returncode=1,
            )
