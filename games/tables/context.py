"""Where a table belongs, for its page. The card room knows nothing of events: an app that owns
tables (tournaments, for the tables of its rounds) registers a provider here, as it registers its
rules in :mod:`games.tables.access`, and the table page shows what the first provider that knows the
table says: a title, links back (the event, the round) and the names of the sides (the teams)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = [
    "TableContext",
    "table_context",
    "table_context_register",
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
