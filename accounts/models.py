"""Accounts: one-time login codes that an organizer issues to a team's players.

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
