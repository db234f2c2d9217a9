from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from accounts.models import LoginCode


@admin.register(LoginCode)
class LoginCodeAdmin(admin.ModelAdmin):
    """Codes are issued from a team's page and stored only as digests: the admin shows, never
    makes or edits, them."""

    list_display = ["user", "event", "issued_by", "created_at", "expires_at", "used_at"]
    list_filter = ["used_at"]
    search_fields = ["user__username"]
    readonly_fields = ["user", "event", "issued_by", "created_at", "expires_at", "used_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: LoginCode | None = None) -> bool:
        return False
