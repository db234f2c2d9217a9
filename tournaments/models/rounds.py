"""Rounds and what they seat: a round's tables (pairings), its individual entries, and the log
of what its organizers did."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from games.models import Player, Table
from tournaments.models.events import Event, Team


class RoundStatus(models.TextChoices):
    DRAFT = "draft", _("draft")
    CONFIRMED = "confirmed", _("confirmed")
    RUNNING = "running", _("running")
    COMPLETED = "completed", _("completed")


class Round(models.Model):
    """A round of an event: draft → confirmed → running → completed."""

    Status = RoundStatus

    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="rounds"
    )
    number = models.PositiveSmallIntegerField(_("number"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.DRAFT
    )
    #: a duplicate round's seed: every table's match is dealt from it (deal k the same everywhere)
    deal_seed = models.BigIntegerField(
        _("deal seed (duplicate)"), null=True, blank=True, editable=False
    )

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "number"], name="round_number_unique_per_event"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_min_1"),
            models.CheckConstraint(
                condition=Q(status__in=[s.value for s in RoundStatus]), name="round_status_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} · R{self.number}"


class Pairing(models.Model):
    """One games table of a round: two teams (team events: team A in seats 0/2/4, team B in
    seats 1/3/5), or the players seated there (individual events: no teams; the table's seats
    say who plays)."""

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="pairings"
    )
    number = models.PositiveSmallIntegerField(_("table number"))
    table = models.OneToOneField(
        Table, verbose_name=_("table"), on_delete=models.PROTECT, related_name="pairing"
    )
    team_a = models.ForeignKey(
        Team,
        verbose_name=_("team A (seats 0, 2, 4)"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="pairings_as_a",
    )
    team_b = models.ForeignKey(
        Team,
        verbose_name=_("team B (seats 1, 3, 5)"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="pairings_as_b",
    )

    class Meta:
        verbose_name = _("pairing")
        verbose_name_plural = _("pairings")
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="pairing_number_unique"),
            models.UniqueConstraint(fields=["round", "team_a"], name="pairing_team_a_once"),
            models.UniqueConstraint(fields=["round", "team_b"], name="pairing_team_b_once"),
            models.CheckConstraint(condition=~Q(team_a=F("team_b")), name="pairing_two_teams"),
            models.CheckConstraint(
                condition=Q(team_a__isnull=True, team_b__isnull=True)
                | Q(team_a__isnull=False, team_b__isnull=False),
                name="pairing_two_teams_or_none",
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="pairing_number_min_1"),
        ]

    def __str__(self) -> str:
        return f"{self.round} · {self.number}: {self.team_a} – {self.team_b}"


class RoundEntry(models.Model):
    """A team's one place in a round: at a pairing, or a bye (no pairing). Unique per (round, team),
    so a
    team can be in a round only once across both pairing columns."""

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="entries"
    )
    team = models.ForeignKey(
        Team,
        verbose_name=_("team"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="round_entries",
    )
    player = models.ForeignKey(
        Player,
        verbose_name=_("player"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="round_entries",
        help_text=_("Individual events: the player's place in the round."),
    )
    pairing = models.ForeignKey(
        Pairing,
        verbose_name=_("pairing"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="entries",
    )
    absent = models.BooleanField(
        _("absent"),
        default=False,
        help_text=_(
            "A team that was not checked in for the round: no table, and a bye of 0 points "
            "(not a win)."
        ),
    )

    class Meta:
        verbose_name = _("round entry")
        verbose_name_plural = _("round entries")
        constraints = [
            models.UniqueConstraint(
                fields=["round", "team"], name="roundentry_team_once_per_round"
            ),
            models.UniqueConstraint(
                fields=["round", "player"], name="roundentry_player_once_per_round"
            ),
            models.CheckConstraint(
                condition=Q(team__isnull=True, player__isnull=False)
                | Q(team__isnull=False, player__isnull=True),
                name="roundentry_team_or_player",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round}: {self.team}"


class RoundAction(models.TextChoices):
    PAIRED = "paired", _("paired")
    EDITED = "edited", _("edited")
    CONFIRMED = "confirmed", _("confirmed")
    STARTED = "started", _("started")
    COMPLETED = "completed", _("completed")
    RESULT_SUBMITTED = "result_submitted", _("result submitted")
    RESULT_CONFIRMED = "result_confirmed", _("result confirmed")
    RESULT_REJECTED = "result_rejected", _("result rejected")
    CLOCK = "clock", _("clock")


class RoundLog(models.Model):
    """Who did what to a round, and when: the organizers' audit trail."""

    Action = RoundAction

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="log"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    action = models.CharField(_("action"), max_length=20, choices=Action.choices)
    detail = models.CharField(_("detail"), max_length=500, blank=True)
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        verbose_name = _("round log entry")
        verbose_name_plural = _("round log")
        ordering = ["round", "at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(action__in=[a.value for a in RoundAction]), name="roundlog_action_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round}: {self.action}"


class RoundClock(models.Model):
    """A round's clock, once an organizer started it: its length, when it started, the pauses and
    the minutes added. The time left is computed from these (tournaments.rounds.clock), never
    stored as it runs."""

    round = models.OneToOneField(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="clock"
    )
    minutes = models.PositiveSmallIntegerField(_("length (minutes)"))
    started_at = models.DateTimeField(_("started"))
    #: set while the clock is paused: when the pause began
    paused_at = models.DateTimeField(_("paused since"), null=True, blank=True)
    #: the seconds of the pauses that ended
    paused_seconds = models.PositiveIntegerField(_("paused (seconds)"), default=0)
    extra_minutes = models.PositiveSmallIntegerField(_("minutes added"), default=0)

    class Meta:
        verbose_name = _("round clock")
        verbose_name_plural = _("round clocks")
        constraints = [
            models.CheckConstraint(condition=Q(minutes__gte=1), name="roundclock_minutes_min_1"),
        ]

    def __str__(self) -> str:
        return f"{self.round}: {self.minutes} min"
