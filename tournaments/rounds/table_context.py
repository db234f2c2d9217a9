"""The tournaments' word on a table of one of its rounds (registered with games.tables.context):
its title (round and table number), links back to the event and the round, and the teams' names
for the sides of a team event's table."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from games.tables.context import TableContext
from tournaments.models import Pairing, RoundClock
from tournaments.rounds.clock import ClockState, clock_rule_text, clock_view


def table_context(table_id: int) -> TableContext | None:
    """The context of a table of a round, or None for any other table."""
    pairing = (
        Pairing.objects.filter(table_id=table_id)
        .select_related("round__event", "round__clock", "team_a", "team_b")
        .first()
    )
    if pairing is None:
        return None
    round_, event = pairing.round, pairing.round.event
    try:
        clock: RoundClock | None = round_.clock
    except RoundClock.DoesNotExist:
        clock = None
    view = clock_view(round_, clock)
    shown = view.state != ClockState.NONE
    sides = {}
    if pairing.team_a is not None and pairing.team_b is not None:
        sides = {"A": pairing.team_a.name, "B": pairing.team_b.name}
    return TableContext(
        title=_("Round %(round)s, table %(table)s")
        % {"round": round_.number, "table": pairing.number},
        links=(
            (event.name, reverse("tournaments:event_detail", args=[event.pk])),
            (
                _("Round %(number)s") % {"number": round_.number},
                reverse("tournaments:round_detail", args=[event.pk, round_.number]),
            ),
        ),
        side_names=sides,
        clock_state=view.state if shown else "",
        clock_seconds_left=view.seconds_left if shown else None,
        deadline=view.deadline,
        clock_url=reverse("tournaments-api:round-clock", args=[round_.pk]) if shown else "",
        clock_rule=clock_rule_text() if shown else "",
    )
