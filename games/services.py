"""Writes to the card room. The only module that will talk to engine/ (issue 5 adds the game
play)."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from config.exceptions import ApplicationError
from games.models import SEAT_COUNT, Player, Table, TableSeat


@transaction.atomic
def player_create(
    *,
    name: str,
    user: AbstractBaseUser | None = None,
    is_bot: bool = False,
    bot_kind: str = "",
) -> Player:
    """Create and return a player; raise ApplicationError for an empty name or a bot with an
    account."""
    name = name.strip()
    if not name:
        raise ApplicationError("A player needs a name.")
    if is_bot and user is not None:
        raise ApplicationError("A bot cannot have a login account.")
    if bot_kind and not is_bot:
        raise ApplicationError("Only a bot has a bot kind.")
    return Player.objects.create(name=name, user=user, is_bot=is_bot, bot_kind=bot_kind)


@transaction.atomic
def table_create(
    *, name: str, players: Sequence[Player], mode: Table.Mode = Table.Mode.ONLINE
) -> Table:
    """Create a table with ``players`` in seats 0..5 (play order; side A = seats 0, 2, 4) and return
    it.

    Raises ApplicationError unless exactly six distinct players are given.
    """
    if len(players) != SEAT_COUNT:
        raise ApplicationError(f"A table needs exactly {SEAT_COUNT} players, got {len(players)}.")
    if len({p.pk for p in players}) != SEAT_COUNT:
        raise ApplicationError("A player can take only one seat at a table.")
    table = Table.objects.create(name=name, mode=mode)
    TableSeat.objects.bulk_create(
        TableSeat(table=table, seat=seat, player=player) for seat, player in enumerate(players)
    )
    return table
