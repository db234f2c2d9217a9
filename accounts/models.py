"""Accounts: one-time login codes that an organizer issues to a team's players, and whether an
account with a password takes them.

A code is stored only as its SHA-256 digest; the plain code is shown once, to the organizer who
issues it. It logs its user in once, before it expires.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


class LoginCode(models.Model):
    """A one-time login code (or link) for one user."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="login_codes",
    )
    digest = models.CharField(_("digest"), max_length=64, unique=True, editable=False)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("issued by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    #: The event whose sheet issued the code: a new sheet of that event revokes the player's
    #: earlier codes of that event only (another event's organizers keep theirs).
    event = models.ForeignKey(
        "tournaments.Event",
        verbose_name=_("event"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"))
    used_at = models.DateTimeField(_("used"), null=True, blank=True)

    class Meta:
        verbose_name = _("login code")
        verbose_name_plural = _("login codes")
        ordering = ["-created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(expires_at__gt=F("created_at")), name="logincode_expires_after_created"
            ),
            models.CheckConstraint(
                condition=Q(used_at__isnull=True) | Q(used_at__gte=F("created_at")),
                name="logincode_used_after_created",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.created_at:%Y-%m-%d %H:%M}"


class CodeConsent(models.Model):
    """Whether an account that has a password lets organizers' login codes in (its owner's choice,
    on their own page; off until they turn it on). An account without a password logs in only by
    codes and needs none."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="code_consent",
    )
    allows_codes = models.BooleanField(_("allows login codes"), default=False)
    updated_at = models.DateTimeField(_("changed"), auto_now=True)

    class Meta:
        verbose_name = _("login code consent")
        verbose_name_plural = _("login code consents")

    def __str__(self) -> str:
        return f"{self.user}: {self.allows_codes}"
