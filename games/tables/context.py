"""Where a table belongs, for its page. The card room knows nothing of events: an app that owns
tables (tournaments, for the tables of its rounds) registers a provider here, as it registers its
rules in :mod:`games.tables.access`, and the table page shows what the first provider that knows the
table says: a title, links back (the event, the round) and the names of the sides (the teams)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

__all__ = [
    "TableContext",
    "player_title",
    "table_context",
    "table_context_register",
    "table_title",
]


@dataclass(frozen=True, slots=True)
class TableContext:
    """What a table's owner says of it, in the active language."""

    title: str
    #: (label, url) of the pages the table belongs to, outermost first
    links: tuple[tuple[str, str], ...] = ()
    #: side -> name (大怪路子's sides A and B: the teams)
    side_names: dict[str, str] = field(default_factory=dict)


#: A provider: ``table_id -> TableContext``, or ``None`` when the table is none of its own.
TableContextProvider = Callable[[int], "TableContext | None"]

_providers: list[TableContextProvider] = []


def table_context_register(provider: TableContextProvider) -> None:
    """Add a provider (registered once, in an app's ``ready()``)."""
    if provider not in _providers:
        _providers.append(provider)


def table_context(table_id: int) -> TableContext | None:
    """What the first provider that knows the table says of it (None: a table of no event, such as
    a practice table)."""
    for provider in _providers:
        found = provider(table_id)
        if found is not None:
            return found
    return None


#: The stored name of a practice table (the same in every language; shown by :func:`table_title`)
PRACTICE_NAME = "Practice · {name}"
#: The stored name of a practice table's bot
BOT_NAME = "Bot {number}"

# also the names stored before they were language-neutral (in the creator's language)
_PRACTICE = re.compile(r"^(?:Practice|练习) · (?P<name>.+)$")
_BOT = re.compile(r"^(?:Bot|机器人) (?P<number>\d+)$")


def table_title(name: str) -> str:
    """A table's stored name as its page shows it in the active language (a practice table's
    name is stored the same in every language)."""
    found = _PRACTICE.match(name)
    if found is None:
        return name
    return _("Practice · %(name)s") % {"name": found["name"]}


def player_title(name: str, is_bot: bool) -> str:
    """A player's stored name in the active language (a practice bot's is stored the same in
    every language)."""
    found = _BOT.match(name) if is_bot else None
    if found is None:
        return name
    return _("Bot %(number)d") % {"number": int(found["number"])}
