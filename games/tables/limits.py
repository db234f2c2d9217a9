"""Limits on the tables a person opens against bots: practice tables and same-deal challenges
(issue 25: one account opened 30 challenge tables in 1.4 s, ten concurrent 练习 made ten).

- Opening is serialized per person: :func:`person_lock` locks the account's player row, so
  concurrent requests of one person open one table (the others go back to it).
- At most ``LUZI_PRACTICE_OPEN_MAX`` practice matches (one per game: opening again goes back to
  it) and ``LUZI_CHALLENGES_OPEN_MAX`` challenges still being played at once; one more is refused
  with :class:`OpenTablesError` (409), which names the open tables and links to them.
- Rapid openings are throttled per person by DRF's throttles (:class:`TableOpenBurstThrottle`,
  :class:`TableOpenSustainedThrottle`; rates in ``LUZI_TABLE_OPEN_RATES``), in the default cache:
  a 429 with Retry-After, from the API and from the pages' forms alike.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, cast

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import get_language, ngettext
from rest_framework.throttling import UserRateThrottle

from config.exceptions import ConflictError
from engine.registry import get_game
from games.models import Player, Table
from games.tables import services

__all__ = [
    "OpenTablesError",
    "TableOpenBurstThrottle",
    "TableOpenSustainedThrottle",
    "challenges_open_max",
    "open_tables_refusal",
    "person_lock",
    "practice_open_max",
    "table_open_throttled",
    "throttled_message",
    "user_player_ensure",
]

#: the defaults of the settings (config/settings.py sets them)
PRACTICE_OPEN_MAX = 3
CHALLENGES_OPEN_MAX = 3
TABLE_OPEN_RATES: dict[str, str | None] = {"burst": "20/min", "sustained": "300/day"}


def practice_open_max() -> int:
    return int(getattr(settings, "LUZI_PRACTICE_OPEN_MAX", PRACTICE_OPEN_MAX))


def challenges_open_max() -> int:
    return int(getattr(settings, "LUZI_CHALLENGES_OPEN_MAX", CHALLENGES_OPEN_MAX))


def user_player_ensure(*, user: User) -> Player:
    """Return the user's player, creating it (named after the user) when they have none.

    Concurrent first requests of one account race to create it: the loser's insert fails on the
    unique ``user`` column (in a savepoint, so the caller's transaction goes on) and it reads the
    winner's row instead."""
    player = Player.objects.filter(user=user).first()
    if player is not None:
        return player
    name = user.get_full_name() or user.get_username()
    try:
        with transaction.atomic():
            return services.player_create(name=name, user=user)
    except IntegrityError:
        return Player.objects.get(user=user)


def person_lock(player: Player) -> None:
    """Lock ``player``'s row until the transaction ends: one person's openings of tables take
    turns, and each sees the tables the one before opened (PostgreSQL; SQLite's transactions
    take the database's write lock when they begin, which serializes them anyway)."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("person_lock() needs a transaction")
    Player.objects.select_for_update().filter(pk=player.pk).values_list("pk", flat=True).first()


def _where(tables: Sequence[Table]) -> tuple[str, list[dict[str, Any]]]:
    """The open tables in words (each game's name and the table's address) and as data."""
    english = not (get_language() or "").startswith("zh")
    rows = []
    words = []
    for table in tables:
        game = get_game(table.game)
        url = reverse("games:table", args=[table.pk])
        name = game.name_en if english else game.name_zh
        words.append(f"{name} {url}")
        rows.append({"table": table.pk, "url": url, "game": table.game, "title": table.title})
    return (", " if english else "、").join(words), rows


class OpenTablesError(ConflictError):
    """One more table against bots than a person may have open at once (HTTP 409); ``extra``
    lists the open ones (``open``: table, url, game, title)."""


def open_tables_refusal(*, kind: str, tables: Sequence[Table]) -> OpenTablesError:
    """The refusal of one more ``kind`` ("practice" or "challenge") table while ``tables`` are
    open, in the active language, naming where they are."""
    where, rows = _where(tables)
    n = len(tables)
    if kind == "practice":
        message = ngettext(
            "You already have %(n)d practice match going on (%(where)s): finish it, or leave "
            "it, before you open a practice table of another game.",
            "You already have %(n)d practice matches going on (%(where)s): finish one, or leave "
            "it, before you open a practice table of another game.",
            n,
        )
    else:
        message = ngettext(
            "You already have %(n)d challenge being played (%(where)s): finish it, or leave it, "
            "before you start another.",
            "You already have %(n)d challenges being played (%(where)s): finish one, or leave "
            "it, before you start another.",
            n,
        )
    return OpenTablesError(message % {"n": n, "where": where}, extra={"open": rows})


class _TableOpenThrottle(UserRateThrottle):
    """DRF's per-user throttle of opening tables against bots; the rate is read from
    ``LUZI_TABLE_OPEN_RATES[scope]`` when the throttle is made (None: no limit)."""

    scope = "table_open"
    rate_key = ""

    def get_rate(self) -> str | None:
        rates = getattr(settings, "LUZI_TABLE_OPEN_RATES", TABLE_OPEN_RATES)
        return rates.get(self.rate_key)

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        if not request.user.is_authenticated:
            return None  # refused anyway: only a logged-in person opens a table
        return super().get_cache_key(request, view)


class TableOpenBurstThrottle(_TableOpenThrottle):
    scope = "table_open_burst"
    rate_key = "burst"


class TableOpenSustainedThrottle(_TableOpenThrottle):
    scope = "table_open_sustained"
    rate_key = "sustained"


TABLE_OPEN_THROTTLES = (TableOpenBurstThrottle, TableOpenSustainedThrottle)


def throttled_message(wait: float | None) -> str:
    seconds = max(1, math.ceil(wait or 1))
    return ngettext(
        "You opened too many tables in a short time: wait %(n)d second and try again.",
        "You opened too many tables in a short time: wait %(n)d seconds and try again.",
        seconds,
    ) % {"n": seconds}


def table_open_throttled(request: HttpRequest) -> HttpResponse | None:
    """For a page's form (no DRF view): a 429 in words when the request's user opened too many
    tables lately, else None (and the request is counted). Anonymous requests are not counted:
    they open nothing."""
    waits = []
    for throttle_class in TABLE_OPEN_THROTTLES:
        throttle = throttle_class()
        # DRF's user throttles read only the request's user, headers and META, which a page's
        # request has as a DRF request does; they never look at the view
        if not throttle.allow_request(cast(Any, request), cast(Any, None)):
            waits.append(throttle.wait())
    if not waits:
        return None
    wait = max((w for w in waits if w is not None), default=None)
    response = HttpResponse(
        throttled_message(wait), status=429, content_type="text/plain; charset=utf-8"
    )
    response["Retry-After"] = str(max(1, math.ceil(wait or 1)))
    return response
