"""Check-in before a round (issue 30): a player of an individual event, or a team of a team
event, is there for round ``round_number``. A team member checks themselves in (a row for the
player); an organizer may tick the whole team (a row for the team). Rows are per round: they
apply to the next round to be drawn."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.models import Player
from tournaments.models.events import Event, Team


class CheckIn(models.Model):
    """Someone is there for a round of an event: a player or a team (exactly one)."""

    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="check_ins"
    )
    round_number = models.PositiveIntegerField(_("round"))
    player = models.ForeignKey(
        Player,
        verbose_name=_("player"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="check_ins",
    )
    team = models.ForeignKey(
        Team,
        verbose_name=_("team"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="check_ins",
    )
    checked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("checked in by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    checked_at = models.DateTimeField(_("checked in at"), auto_now_add=True)

    class Meta:
        verbose_name = _("check-in")
        verbose_name_plural = _("check-ins")
        ordering = ["event", "round_number", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "round_number", "player"], name="checkin_player_once_per_round"
            ),
            models.UniqueConstraint(
                fields=["event", "round_number", "team"], name="checkin_team_once_per_round"
            ),
            models.CheckConstraint(
                condition=(Q(player__isnull=False) & Q(team__isnull=True))
                | (Q(player__isnull=True) & Q(team__isnull=False)),
                name="checkin_player_or_team",
            ),
            models.CheckConstraint(condition=Q(round_number__gte=1), name="checkin_round_min_1"),
        ]

    def __str__(self) -> str:
        who = self.player if self.player_id else self.team
        return f"{self.event} · {self.round_number} · {who}"
