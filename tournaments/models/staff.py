"""An event's referees: people who enter and confirm its offline tables' results without
organizing it (no staff status, no admin, no round controls). Organizers add them from the
dashboard (:func:`tournaments.events.services.event_staff_add`).

Imported by ``tournaments.models`` (Django finds the models there).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class EventReferee(models.Model):
    """A referee of an event."""

    event = models.ForeignKey(
        "tournaments.Event",
        verbose_name=_("event"),
        on_delete=models.CASCADE,
        related_name="referees",
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="refereed",
    )
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("added by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    added_at = models.DateTimeField(_("added"), auto_now_add=True)

    class Meta:
        verbose_name = _("referee")
        verbose_name_plural = _("referees")
        ordering = ["event", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["event", "user"], name="event_referee_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.event}"
