"""The knockout stage of an event (semi-finals, a final, a third-place match ...), on top of its
rounds: each knockout match is a pairing of an ordinary round (so online tables are played by the
workers and offline tables are entered by referees with a second person's confirmation, as in the
group stage), and these rows say which match of the bracket it is.

Imported by ``tournaments.models`` (Django finds the models there).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.models import Player


class KnockoutStatus(models.TextChoices):
    DRAFT = "draft", _("seeded, not confirmed")
    RUNNING = "running", _("running")
    COMPLETED = "completed", _("completed")


class KnockoutStage(models.Model):
    """An event's knockout stage: its size, the places played for, each match's length, and the
    group stage's order as it stood at the break (the placement after the knockout places)."""

    Status = KnockoutStatus

    event = models.OneToOneField(
        "tournaments.Event",
        verbose_name=_("event"),
        on_delete=models.CASCADE,
        related_name="knockout",
    )
    size = models.PositiveSmallIntegerField(_("entrants"))
    places_played = models.PositiveSmallIntegerField(
        _("places played for"),
        default=4,
        help_text=_("2: a final only; 4: with a third-place match; 8: the 5th to 8th places too."),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.DRAFT
    )
    deals_per_match = models.PositiveSmallIntegerField(_("deals per knockout match"), default=3)
    final_deals = models.PositiveSmallIntegerField(_("deals in the final"), default=3)
    to_a = models.BooleanField(
        _("to A"),
        default=False,
        help_text=_(
            "大怪路子: a match is played until a team passes A; the deals are then its cap."
        ),
    )
    #: the group stage's order at the break: [[rank, team or player id], ...] best first
    group_ranking = models.JSONField(_("group-stage order"), default=list, blank=True)
    #: who was replaced by the next one (withdrawn, unable to play): not moved up again
    passed_over = models.JSONField(_("passed over"), default=list, blank=True)
    #: a note for the bracket page when the cut fell inside a tie the tie-breaks did not part
    note = models.CharField(_("note"), max_length=500, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        verbose_name = _("knockout stage")
        verbose_name_plural = _("knockout stages")
        constraints = [
            models.CheckConstraint(condition=Q(size__in=[2, 4, 8, 16]), name="knockout_size_valid"),
            models.CheckConstraint(
                condition=Q(places_played__in=[2, 4, 8, 16]), name="knockout_places_valid"
            ),
            models.CheckConstraint(
                condition=Q(deals_per_match__gte=1, final_deals__gte=1),
                name="knockout_deals_min_1",
            ),
            models.CheckConstraint(
                condition=Q(status__in=[s.value for s in KnockoutStatus]),
                name="knockout_status_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} · {self.size}"


class KnockoutEntrant(models.Model):
    """A seed of the bracket: a team (team events) or a player (individual events)."""

    stage = models.ForeignKey(
        KnockoutStage,
        verbose_name=_("knockout stage"),
        on_delete=models.CASCADE,
        related_name="entrants",
    )
    seed = models.PositiveSmallIntegerField(_("seed number"))
    team = models.ForeignKey(
        "tournaments.Team",
        verbose_name=_("team"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    player = models.ForeignKey(
        Player,
        verbose_name=_("player"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )

    class Meta:
        verbose_name = _("knockout entrant")
        verbose_name_plural = _("knockout entrants")
        ordering = ["stage", "seed"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "seed"], name="knockout_seed_once"),
            models.UniqueConstraint(fields=["stage", "team"], name="knockout_team_once"),
            models.UniqueConstraint(fields=["stage", "player"], name="knockout_player_once"),
            models.CheckConstraint(condition=Q(seed__gte=1), name="knockout_seed_min_1"),
            models.CheckConstraint(
                condition=Q(team__isnull=True, player__isnull=False)
                | Q(team__isnull=False, player__isnull=True),
                name="knockout_team_or_player",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.seed}: {self.team or self.player}"


class KnockoutMatch(models.Model):
    """A match of the bracket (its ``key`` in tournaments.knockout.bracket's plan), its pairing in a
    round, its length, the tie-break deal's pairing when one was needed, and its result."""

    stage = models.ForeignKey(
        KnockoutStage,
        verbose_name=_("knockout stage"),
        on_delete=models.CASCADE,
        related_name="matches",
    )
    key = models.CharField(_("bracket match"), max_length=20)
    bracket_round = models.PositiveSmallIntegerField(_("knockout round"))
    lo = models.PositiveSmallIntegerField(_("best place decided"))
    hi = models.PositiveSmallIntegerField(_("last place decided"))
    #: the seeds in seat order (teams: A, B)
    entrants = models.JSONField(_("seeds"), default=list)
    pairing = models.OneToOneField(
        "tournaments.Pairing",
        verbose_name=_("table"),
        on_delete=models.PROTECT,
        related_name="knockout_match",
    )
    tiebreak = models.OneToOneField(
        "tournaments.Pairing",
        verbose_name=_("tie-break deal's table"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="knockout_tiebreak",
    )
    deals = models.PositiveSmallIntegerField(_("deals (the cap when to A)"))
    to_a = models.BooleanField(_("to A"), default=False)
    #: the seeds best first, once decided
    result = models.JSONField(_("result"), default=list, blank=True)
    decided_by = models.CharField(_("decided by"), max_length=20, blank=True)

    class Meta:
        verbose_name = _("knockout match")
        verbose_name_plural = _("knockout matches")
        ordering = ["stage", "bracket_round", "lo", "key"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "key"], name="knockout_match_key_once"),
            models.CheckConstraint(condition=Q(deals__gte=1), name="knockout_match_deals_min_1"),
        ]

    def __str__(self) -> str:
        return f"{self.stage} · {self.key}"
