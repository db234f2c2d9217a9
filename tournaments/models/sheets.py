"""A table that scores itself: each deal of an offline table as its players enter it on their
phones, one deal at a time, and another side confirms or disputes it. Every version is kept
(who entered it, who confirmed or disputed it, when): the deal's history."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.rounds import Pairing


class SheetDealStatus(models.TextChoices):
    PENDING = "pending", _("waiting for another side")
    CONFIRMED = "confirmed", _("confirmed")
    DISPUTED = "disputed", _("disputed: a referee is called")
    SUPERSEDED = "superseded", _("superseded by a later version")


class SheetDeal(models.Model):
    """One version of one deal of an offline table's sheet: the deal in the game's own format
    (one deal of its ``score_sheet``; deal 1 carries the sheet's first dealer). The version of a
    deal that is not superseded is its current one; ``client_id`` is the phone's own id of the
    entry, so that a resend after a lost connection records nothing twice."""

    Status = SheetDealStatus

    pairing = models.ForeignKey(
        Pairing, verbose_name=_("pairing"), on_delete=models.CASCADE, related_name="sheet_deals"
    )
    number = models.PositiveSmallIntegerField(_("deal"))
    version = models.PositiveSmallIntegerField(_("version"))
    first_dealer = models.PositiveSmallIntegerField(_("first dealer seat"), null=True, blank=True)
    deal = models.JSONField(_("deal"), default=dict)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    client_id = models.UUIDField(_("client id"), unique=True, null=True, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("entered by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    entered_at = models.DateTimeField(_("entered at"), auto_now_add=True)
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
        verbose_name = _("deal entered at the table")
        verbose_name_plural = _("deals entered at the table")
        ordering = ["pairing", "number", "version"]
        constraints = [
            models.UniqueConstraint(
                fields=["pairing", "number", "version"], name="sheet_deal_version_unique"
            ),
            models.UniqueConstraint(
                fields=["pairing", "number"],
                condition=~Q(status="superseded"),
                name="sheet_deal_one_current",
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="sheet_deal_number_min_1"),
            models.CheckConstraint(condition=Q(version__gte=1), name="sheet_deal_version_min_1"),
            models.CheckConstraint(
                condition=Q(status__in=[s.value for s in SheetDealStatus]),
                name="sheet_deal_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(reviewed_by__isnull=True) | ~Q(reviewed_by=F("entered_by")),
                name="sheet_deal_reviewer_is_not_enterer",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.pairing} deal {self.number} v{self.version} ({self.status})"
