"""The tournaments' word on a table of one of its rounds (registered with games.tables.context):
its title (round and table number), links back to the event and the round, and the teams' names
for the sides of a team event's table."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from games.tables.context import TableContext
from tournaments.models import Pairing


def table_context(table_id: int) -> TableContext | None:
    """The context of a table of a round, or None for any other table."""
    pairing = (
        Pairing.objects.filter(table_id=table_id)
        .select_related("round__event", "team_a", "team_b")
        .only(
            "number",
            "round__number",
            "round__event__name",
            "team_a__name",
            "team_b__name",
        )
        .first()
    )
    if pairing is None:
        return None
    round_, event = pairing.round, pairing.round.event
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
    )
