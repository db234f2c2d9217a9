"""Writes of the card room's furniture: players (people and bots) and tables of any registered
game, with their seats; the names a table's seats go by."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from config.exceptions import ApplicationError
from engine.errors import EngineError
from engine.registry import DEFAULT_GAME, get_game
from games.models import Player, Table, TableMode, TableSeat
from games.tables.access import access_changed
from games.tables.messages import engine_message
from games.tables.seats import seat_number

#: the bots a seat may have (validated here; the commands and tests choose among them by name)
BOT_KINDS = ("heuristic", "random", "search")


@transaction.atomic
def player_create(
    *,
    name: str,
    user: User | None = None,
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
    if is_bot and not bot_kind:
        bot_kind = BOT_KINDS[0]
    if is_bot and bot_kind not in BOT_KINDS:
        raise ApplicationError(f"Unknown bot kind {bot_kind!r}: use {' or '.join(BOT_KINDS)}.")
    return Player.objects.create(name=name, user=user, is_bot=is_bot, bot_kind=bot_kind)


@transaction.atomic
def table_create(
    *,
    name: str,
    players: Sequence[Player],
    mode: TableMode = TableMode.ONLINE,
    game: str = DEFAULT_GAME,
) -> Table:
    """Create a table of ``game`` with ``players`` in seats 0, 1, ... (play order) and return it.

    Raises ApplicationError for an unknown game, or unless the game's seat count of distinct
    players is given.
    """
    try:
        seat_count = get_game(game).seat_count
    except EngineError as exc:
        raise ApplicationError(engine_message(exc)) from None
    if len(players) != seat_count:
        raise ApplicationError(
            f"A table of this game needs exactly {seat_count} players, got {len(players)}."
        )
    if len({p.pk for p in players}) != seat_count:
        raise ApplicationError("A player can take only one seat at a table.")
    table = Table.objects.create(name=name, mode=mode, game=game, seat_count=seat_count)
    TableSeat.objects.bulk_create(
        TableSeat(table=table, seat=seat, player=player) for seat, player in enumerate(players)
    )
    access_changed()  # bulk_create sends no signal: a seat may close a duplicate round's table
    return table


def seat_names(table: Table) -> list[str]:
    """The names of the table's players by seat (for messages that name seats)."""
    names = [_("seat %(n)s") % {"n": seat_number(seat)} for seat in range(table.seat_count)]
    for seat, name in TableSeat.objects.filter(table=table).values_list("seat", "player__name"):
        if 0 <= seat < len(names):
            names[seat] = name
    return names
