"""Results kept beside the matches: each table's tally for the standings, each player's, their
running totals, and offline results as referees submit them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from games.models import MAX_SEATS, Match, Player
from tournaments.models.events import Event, Team
from tournaments.models.rounds import Pairing


class TallyStatus(models.TextChoices):
    PENDING = "pending", _("not started")
    PLAYING = "playing", _("playing")
    FINISHED = "finished", _("finished")


class PairingTally(models.Model):
    """What a pairing's match means for the standings, refreshed from games' rows whenever a deal is
    recorded or a result corrected (see services.tallies_refresh). Standings read only these rows,
    so their cost does not grow with the number of deals."""

    Status = TallyStatus

    pairing = models.OneToOneField(
        Pairing, verbose_name=_("pairing"), on_delete=models.CASCADE, related_name="tally"
    )
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+", editable=False)
    # The pairing's teams, repeated so that standings read tallies without a join.
    team_a = models.ForeignKey(Team, null=True, on_delete=models.CASCADE, related_name="+")
    team_b = models.ForeignKey(Team, null=True, on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    fingerprint = models.CharField(max_length=200, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    points_a = models.IntegerField(default=0)
    points_b = models.IntegerField(default=0)
    level_a = models.PositiveSmallIntegerField(default=2)
    level_b = models.PositiveSmallIntegerField(default=2)
    winner_side = models.CharField(max_length=1, blank=True)
    deals = models.PositiveSmallIntegerField(default=0)
    escapes = models.PositiveSmallIntegerField(default=0)

    class Meta:
        verbose_name = _("pairing tally")
        verbose_name_plural = _("pairing tallies")
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=[s.value for s in TallyStatus]), name="tally_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(winner_side__in=["", "A", "B"]), name="tally_winner_side_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.pairing}: {self.points_a}:{self.points_b}"


class PlayerTally(models.Model):
    """One seated player's figures in one pairing's match (points, deals, finishing places,
    tributes)."""

    tally = models.ForeignKey(PairingTally, on_delete=models.CASCADE, related_name="players")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    team = models.ForeignKey(Team, null=True, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    points = models.IntegerField(default=0)
    deals = models.PositiveSmallIntegerField(default=0)
    places = models.FloatField(default=0, help_text=_("Finishing places summed over the deals."))
    tributes_paid = models.PositiveSmallIntegerField(default=0)
    tributes_received = models.PositiveSmallIntegerField(default=0)
    #: the game's own figures held by this seat ({"rating": 3, ...}), summed into PlayerTotal
    figures = models.JSONField(default=dict)

    class Meta:
        verbose_name = _("player tally")
        verbose_name_plural = _("player tallies")
        constraints = [
            models.UniqueConstraint(fields=["tally", "seat"], name="playertally_seat_once"),
            models.CheckConstraint(
                condition=Q(seat__gte=0, seat__lt=MAX_SEATS), name="playertally_seat_in_range"
            ),
        ]
        indexes = [models.Index(fields=["event", "player"])]


class PlayerTotal(models.Model):
    """A player's figures summed over the event's tallies, kept up to date by the tally refresh
    (it adds each changed tally's difference), so player standings read one row per player."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    points = models.IntegerField(default=0)
    deals = models.IntegerField(default=0)
    places = models.FloatField(default=0)
    tributes_paid = models.IntegerField(default=0)
    tributes_received = models.IntegerField(default=0)
    figures = models.JSONField(default=dict)

    class Meta:
        verbose_name = _("player total")
        verbose_name_plural = _("player totals")
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="playertotal_once_per_event"),
        ]


class ResultStatus(models.TextChoices):
    PENDING = "pending", _("waiting for confirmation")
    CONFIRMED = "confirmed", _("confirmed")
    REJECTED = "rejected", _("rejected")
    SUPERSEDED = "superseded", _("superseded by a later confirmed version")


class ResultSubmission(models.Model):
    """One version of an offline table's result as a referee entered it: the first dealer and each
    deal's finishing order (or escape, or leaving). A second person confirms it (then games records
    the match) or rejects it; every version is kept."""

    Status = ResultStatus

    pairing = models.ForeignKey(
        Pairing, verbose_name=_("pairing"), on_delete=models.CASCADE, related_name="results"
    )
    version = models.PositiveSmallIntegerField(_("version"))
    #: the sheet's ``first_dealer`` (none when a sheet of four seats leaves it out)
    first_dealer = models.PositiveSmallIntegerField(_("first dealer seat"), null=True, blank=True)
    deals = models.JSONField(_("deals"), default=list)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("entered by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    submitted_at = models.DateTimeField(_("entered at"), auto_now_add=True)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("reviewed by"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    reviewed_at = models.DateTimeField(_("reviewed at"), null=True, blank=True)
    note = models.CharField(_("note"), max_length=500, blank=True)

    class Meta:
        verbose_name = _("result submission")
        verbose_name_plural = _("result submissions")
        ordering = ["pairing", "version"]
        constraints = [
            models.UniqueConstraint(fields=["pairing", "version"], name="result_version_unique"),
            models.UniqueConstraint(
                fields=["pairing"],
                condition=Q(status="pending"),
                name="result_one_pending_per_pairing",
            ),
            models.CheckConstraint(condition=Q(version__gte=1), name="result_version_min_1"),
            models.CheckConstraint(
                condition=Q(first_dealer__gte=0, first_dealer__lte=5),
                name="result_first_dealer_0_to_5",
            ),
            models.CheckConstraint(
                condition=Q(status__in=[s.value for s in ResultStatus]), name="result_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(reviewed_by__isnull=True) | ~Q(reviewed_by=F("submitted_by")),
                name="result_reviewer_is_not_submitter",
            ),
            models.CheckConstraint(
                condition=Q(status="pending")
                | Q(reviewed_by__isnull=False)
                | Q(status="superseded"),
                name="result_reviewed_unless_pending",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.pairing} v{self.version} ({self.status})"
