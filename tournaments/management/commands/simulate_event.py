"""`manage.py simulate_event`: a throw-away event of bot teams, every round played on Celery."""

from __future__ import annotations

import json
from typing import Any, TextIO, cast

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _

from config.exceptions import ApplicationError
from engine.registry import DEFAULT_GAME
from tournaments.management.commands._base import LuziCommand
from tournaments.management.commands._progress import ProgressBar
from tournaments.rounds.running import event_simulate


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise ValueError(text)
    return value


def _separation(event: Any, high: str, low: str) -> dict[str, Any]:
    """Rate the event's matches now (the task queued on commit may still be on its way: rating
    twice changes nothing), then how well the ratings order ``high`` bots over ``low`` ones."""
    from ratings.separation import event_separation
    from ratings.services import rated_matches_sync
    from tournaments.models import Pairing

    rated_matches_sync(
        pairing_ids=Pairing.objects.filter(round__event=event).values_list("pk", flat=True)
    )
    s = event_separation(event=event, high=high, low=low)
    return {
        "high": s.high,
        "low": s.low,
        "auc": round(s.auc, 4),
        "matches": s.matches,
        "matches_to_separate": s.matches_to_separate,
    }


class Command(LuziCommand):
    help = (
        "Create a throw-away event with bot teams, pair and run every round on the Celery "
        "workers, and print a summary (matches, deals, actions, escapes, wall time)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--game",
            default=DEFAULT_GAME,
            help=f"the game's key (luzi games lists them; {DEFAULT_GAME})",
        )
        parser.add_argument("--teams", type=_positive, default=8, help="bot teams (default 8)")
        parser.add_argument(
            "--players", type=_positive, default=16, help="bot players, individual games (16)"
        )
        parser.add_argument("--rounds", type=_positive, default=3, help="rounds (default 3)")
        parser.add_argument("--deals", type=_positive, default=3, help="deals per match (3)")
        parser.add_argument("--seed", type=int, default=0, help="seed for the bots' kinds")
        parser.add_argument("--timeout", type=float, default=3600.0, help="seconds at most")
        parser.add_argument("--json", action="store_true", help="print one JSON object")
        parser.add_argument(
            "--duplicate",
            action="store_true",
            help="a duplicate event: every table of a round plays the same deals",
        )
        parser.add_argument(
            "--bot-kinds",
            default="",
            help="the bots' kinds, given in turn to the players (to the teams of a team game), "
            "e.g. search,random; then prints how well the ratings separate the first two kinds",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["teams"] < 2:
            raise CommandError(_("--teams must be at least 2."), returncode=2)
        kinds = tuple(k for k in options["bot_kinds"].split(",") if k)
        bar = ProgressBar("simulate_event", stream=cast(TextIO, self.stderr._out))
        try:
            summary = event_simulate(
                game=options["game"],
                teams=options["teams"],
                players=options["players"],
                rounds=options["rounds"],
                deals=options["deals"],
                seed=options["seed"],
                timeout=options["timeout"],
                duplicate=options["duplicate"],
                bot_kinds=kinds,
                progress=lambda r, done, total: bar.update(done, total, f"round {r}"),
            )
        except ApplicationError as exc:
            raise CommandError(exc.message, returncode=2) from exc
        finally:
            bar.close()
        data = summary.to_json()
        if len(set(kinds)) >= 2 and summary.complete:
            data["ratings"] = _separation(summary.event, kinds[0], kinds[1])
        if options["json"]:
            self.stdout.write(json.dumps(data, ensure_ascii=False))
        else:
            self.stdout.write(
                f"event {data['event']} ({summary.event.name}): {data['rounds']} rounds, "
                f"{data['matches']} matches, {data['deals']} deals, {data['actions']} actions, "
                f"{data['escapes']} escapes in {data['seconds']} s"
            )
            if "ratings" in data:
                r = cast(dict[str, Any], data["ratings"])
                self.stdout.write(
                    f"ratings: AUC {r['high']} over {r['low']} = {r['auc']:.3f} after "
                    f"{r['matches']} rated matches (stays >= 0.9 from match "
                    f"{r['matches_to_separate']})"
                )
        if not summary.complete:
            raise CommandError(_("Timed out before every round finished."), returncode=1)
