"""Template tags of the ratings, for other apps' pages: a meet's strength."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import get_language

from ratings import selectors

register = template.Library()


@register.inclusion_tag("ratings/_meet_strength.html", takes_context=True)
def meet_strength(context: dict[str, Any], meet: Any) -> dict[str, Any]:
    """The average rating per game of the meet's players and units, as the visitor may see."""
    request = context.get("request")
    user = getattr(request, "user", None)
    scope = selectors.scope_for(user) if user is not None else "public"
    return {
        "strengths": selectors.meet_strength(
            meet_id=meet.pk, scope=scope, chinese=get_language() != "en"
        )
    }
