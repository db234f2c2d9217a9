"""Manual draws of individual events, and withdrawing a player from an individual event.

An organizer sets a draft round's tables by hand: which registered players sit at which table and
in which seat (tables of the game's size), bots in the empty seats when the event fills its tables
with bots; every registered player who is not withdrawn and not at a table gets a bye.
:func:`tournaments.draw.services.round_pairings_set` calls :func:`individual_tables_set` for an
individual event, after it has locked the round and checked the organizer and the draft.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from config.exceptions import ApplicationError
from games.models import Player, Table
from tournaments.common.i18n import join_list
from tournaments.events import checkin
from tournaments.events.organizers import event_organizer_require, round_log_add
from tournaments.models import Event, Registration, Round, RoundEntry, RoundLog

__all__ = ["individual_tables_set", "registration_withdraw"]

#: A seat of a manual table: a player's id, or None for a bot.
Seat = int | None


def _names(ids: Sequence[int], known: dict[int, Player]) -> str:
    """The players' names (or, for an id that is nobody, the id), sorted, as one list."""
    return join_list(sorted(known[i].name if i in known else f"#{i}" for i in ids))


def _checked_tables(
    event: Event, tables: Sequence[Sequence[Seat]], modes: Sequence[str] | None
) -> tuple[dict[int, Player], list[int]]:
    """Check the tables against the event: return the players seated (by id) and the ids of
    the event's players who get a bye. Raises ApplicationError naming what is wrong."""
    size = event.table_size
    for number, seats in enumerate(tables, start=1):
        if len(seats) != size:
            raise ApplicationError(
                _(
                    "Table %(table)d has %(count)d seats; a table of this game has %(size)d "
                    "(give each seat a player, or null for a bot)."
                )
                % {"table": number, "count": len(seats), "size": size}
            )
        people = [p for p in seats if p is not None]
        if len(people) < size and not event.fill_with_bots:
            raise ApplicationError(
                _(
                    "Table %(table)d has an empty seat: this event gives byes instead of seating "
                    "bots (its settings say so), so every seat needs a player."
                )
                % {"table": number}
            )
        if not people:
            raise ApplicationError(
                _("Table %(table)d has no player, only bots.") % {"table": number}
            )
    if modes is not None and (
        len(modes) != len(tables) or any(m not in Table.Mode.values for m in modes)
    ):
        raise ApplicationError(
            _("Give one table mode per table, each one of: %(modes)s.")
            % {"modes": join_list(Table.Mode.values)}
        )
    seated = [p for seats in tables for p in seats if p is not None]
    # Only the event's own players are named: another event's player (a private one's too) is
    # not this organizer's to look up by id, and is named by the id given.
    players = {p.pk: p for p in Player.objects.filter(pk__in=seated, registrations__event=event)}
    twice = [p for p, count in Counter(seated).items() if count > 1]
    if twice:
        raise ApplicationError(
            _("A player can sit at only one table and seat in a round: %(names)s.")
            % {"names": _names(twice, players)}
        )
    registrations = dict(
        Registration.objects.filter(event=event).values_list("player_id", "withdrawn")
    )
    strangers = [p for p in seated if p not in registrations]
    if strangers:
        raise ApplicationError(
            _("Not registered in %(event)s: %(names)s.")
            % {"event": event.name, "names": _names(strangers, players)}
        )
    withdrawn = [p for p in seated if registrations[p]]
    if withdrawn:
        raise ApplicationError(
            _("Withdrawn from %(event)s (bring them back first): %(names)s.")
            % {"event": event.name, "names": _names(withdrawn, players)}
        )
    at_tables = set(seated)
    byes = sorted(p for p, out in registrations.items() if not out and p not in at_tables)
    return players, byes


def individual_tables_set(
    *,
    round: Round,
    tables: Sequence[Sequence[Seat]],
    user: User | None,
    modes: Sequence[str] | None = None,
) -> Round:
    """Replace the tables of ``round`` (a locked draft of an individual event whose organizer is
    ``user``) by ``tables``: each the player ids seat by seat from seat 0, None where a bot sits.

    Every registered player who is not withdrawn and not seated gets a bye (when the event draws
    only those checked in, every such player checked in for the round). ``modes`` gives each
    table's mode (default: the event's). Raises ApplicationError for a table of the wrong size, a
    bot where the event gives byes, a table of bots only, a player seated twice, not registered
    or withdrawn, changing nothing.
    """
    from tournaments.draw.seating import table_seat

    event = round.event
    players, byes = _checked_tables(event, tables, modes)
    if event.draw_checked_in_only:  # a player not checked in gets no table and no bye
        present = checkin.checked_in_player_ids(event, round.number)
        byes = [p for p in byes if p in present]
    old_tables = list(round.pairings.values_list("table_id", flat=True))
    old_bots = list(
        Player.objects.filter(is_bot=True, seats__table_id__in=old_tables).values_list(
            "pk", flat=True
        )
    )
    round.entries.all().delete()
    round.pairings.all().delete()
    Table.objects.filter(pk__in=old_tables, matches__isnull=True).delete()
    # The bots the replaced tables made for their empty seats go with them.
    Player.objects.filter(
        pk__in=old_bots, seats__isnull=True, registrations__isnull=True, user__isnull=True
    ).delete()
    with transaction.atomic():
        for number, seats in enumerate(tables, start=1):
            table_seat(
                round=round,
                players=[players[p] if p is not None else None for p in seats],
                number=number,
                mode=modes[number - 1] if modes is not None else event.table_mode,
            )
        RoundEntry.objects.bulk_create(
            RoundEntry(round=round, player_id=p, pairing=None) for p in byes
        )

    # The log's form of an edit (tournaments.rounds.log): each table's players seat by seat (a
    # bot by the name bots are given), then how many byes.
    names = ", ".join(
        "·".join(players[p].name if p is not None else "机器人" for p in seats) for seats in tables
    )
    round_log_add(round, user, RoundLog.Action.EDITED, f"tables: {names}; byes: {len(byes)}")
    return round


@transaction.atomic
def registration_withdraw(
    *, event: Event, player: Player, user: User | None = None, withdrawn: bool = True
) -> Registration:
    """Withdraw a registered player of an individual event from later rounds (a no-show; their
    results stay), or bring them back with ``withdrawn=False``. Raises NotAllowedError for a user
    who does not organize the event, ApplicationError for a player not registered in it."""

    event_organizer_require(event=event, user=user)
    registration = (
        Registration.objects.select_for_update().filter(event=event, player=player).first()
    )
    if registration is None:  # named by id: another event's player is not this organizer's
        raise ApplicationError(
            _("Not registered in %(event)s: %(names)s.")
            % {"event": event.name, "names": f"#{player.pk}"}
        )
    registration.withdrawn = withdrawn
    registration.save(update_fields=["withdrawn"])
    return registration
