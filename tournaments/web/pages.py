"""What the organizers' pages share: back to the dashboard, an id a form posted, a form this site
does not send (400), and a service's refusal shown as the page's message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render

from config.converters import MAX_ID
from config.exceptions import ApplicationError
from tournaments.models import (
    Event,
)


def dashboard_redirect(event: Event) -> HttpResponseRedirect:
    return redirect("tournaments:dashboard", event.pk)


def posted_id(request: HttpRequest, name: str) -> int | None:
    """The id a form posted in ``name`` (1 to 2**63 - 1), or None for anything else."""
    value = request.POST.get(name, "")
    if value.isascii() and value.isdigit() and 1 <= int(value) <= MAX_ID:
        return int(value)
    return None


def bad_form(request: HttpRequest, message: str) -> HttpResponse:
    """400: the form is not one this site sends; the page says which field, nothing changed."""
    return render(request, "400.html", {"message": message}, status=400)


def attempt(request: HttpRequest, action: Callable[[], Any], done: str) -> bool:
    try:
        action()
    except ApplicationError as error:
        messages.error(request, error.message)
        return False
    messages.success(request, done)
    return True
