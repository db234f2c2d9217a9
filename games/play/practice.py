"""Practice tables: a logged-in user and bots in the other seats (five at a table of 大怪路子,
three at a table of 小路子 or 上海斗地主), opened from the player's page at a level: 简单 (random
bots), 普通 (the heuristic bots) or 困难 (the search bots of ``engine/search.py``, at most
twice their budget per move: 500 ms)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.exceptions import ApplicationError
from engine.game import UnknownGameError
from engine.registry import DEFAULT_GAME, get_game, registered_keys
from games.models import Match, Player, Table, TableSeat
from games.names import BOT_NAME, PRACTICE_NAME
from games.play import services as play_services
from games.tables import services as tables_services
from games.tables.limits import (
    open_tables_refusal,
    person_lock,
    practice_open_max,
    user_player_ensure,
)

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

PRACTICE_BOTS = 5  # at a table of six (大怪路子)
PRACTICE_BOT_KIND = "heuristic"

#: The levels of a practice table: the form's value, its label, and the bots' kind.
PRACTICE_LEVELS: dict[str, tuple[StrOrPromise, str]] = {
    "easy": (gettext_lazy("Easy"), "random"),
    "normal": (gettext_lazy("Normal"), PRACTICE_BOT_KIND),
    "hard": (gettext_lazy("Hard"), "search"),
}
DEFAULT_PRACTICE_LEVEL = "normal"


def practice_level_kind(level: str | None) -> str:
    """The bots' kind of a practice level (普通 when empty); raises ApplicationError naming
    the levels for a value that names none."""
    found = PRACTICE_LEVELS.get(level or DEFAULT_PRACTICE_LEVEL)
    if found is None:
        raise ApplicationError(
            _("Unknown level %(level)s: choose one of %(known)s.")
            % {"level": level, "known": ", ".join(PRACTICE_LEVELS)}
        )
    return found[1]


def practice_tables_live(*, player: Player) -> list[Table]:
    """The player's practice tables whose match is still going on, newest first, one per game
    (the newest of each).

    A practice table is one where the player is the only person (the others are bots) that is no
    challenge's (games.replay.challenge: those are counted apart).
    """
    live = [Match.Status.PENDING, Match.Status.PLAYING]
    other_person = TableSeat.objects.filter(table=OuterRef("pk"), player__is_bot=False).exclude(
        player=player
    )
    tables = (
        Table.objects.filter(seats__player=player, matches__status__in=live)
        .exclude(matches__challenge__isnull=False)
        .exclude(Exists(other_person))
        .distinct()
        .order_by("-created_at", "-id")
    )
    found: dict[str, Table] = {}
    for table in tables[:50]:
        found.setdefault(table.game, table)
    return list(found.values())


def practice_game(key: str | None) -> str:
    """The game of a practice table asked for by ``key`` (大怪路子 when empty); raises
    ApplicationError naming the games for a key that names none."""
    try:
        return get_game(key or DEFAULT_GAME).key
    except UnknownGameError:
        raise ApplicationError(
            _("Unknown game %(game)s: choose one of %(known)s.")
            % {"game": key, "known": ", ".join(registered_keys())}
        ) from None


@transaction.atomic
def practice_table_open(
    *,
    user: User,
    game: str = DEFAULT_GAME,
    deals_per_match: int = 3,
    seed: int | None = None,
    level: str = DEFAULT_PRACTICE_LEVEL,
) -> Table:
    """Seat ``user`` at seat 0 of a new table of ``game`` with bots of ``level`` (easy, normal,
    hard) in the other seats and start a match there.

    When the user already has a practice match of that game going on, return that table instead:
    a second one would leave the first to the timers (and count as an escape there); concurrent
    requests of one user take turns (games.tables.limits.person_lock), so they open one table.
    Raises OpenTablesError (409) when the user has ``LUZI_PRACTICE_OPEN_MAX`` practice matches of
    other games going on.
    """
    game = practice_game(game)
    kind = practice_level_kind(level)
    if kind not in get_game(game).bot_kinds:
        raise ApplicationError(_("This game has no bots of that level."))
    player = user_player_ensure(user=user)
    person_lock(player)
    open_tables = practice_tables_live(player=player)
    table = next((t for t in open_tables if t.game == game), None)
    if table is not None:
        return table
    if len(open_tables) >= practice_open_max():
        raise open_tables_refusal(kind="practice", tables=open_tables)
    bots = [
        tables_services.player_create(name=BOT_NAME.format(number=n), is_bot=True, bot_kind=kind)
        for n in range(1, get_game(game).seat_count)
    ]
    table = tables_services.table_create(
        name=PRACTICE_NAME.format(name=player.name),  # shown in the reader's language
        players=[player, *bots],
        game=game,
    )
    play_services.match_start(
        table=table,
        deals_per_match=deals_per_match,
        seed=seed,
        # how long a bot "thinks" (so a person can follow the plays); tests set 0
        bot_delay_ms=getattr(settings, "LUZI_PRACTICE_BOT_DELAY_MS", 600),
        turn_seconds=getattr(settings, "LUZI_PRACTICE_TURN_SECONDS", 30),
    )
    return table
