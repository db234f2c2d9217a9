"""Where a table belongs, for its page. The card room knows nothing of events: an app that owns
tables (tournaments, for the tables of its rounds) registers a provider here, as it registers its
rules in :mod:`games.tables.access`, and the table page shows what the first provider that knows the
table says: a title, links back (the event, the round), the names of the sides (the teams) and,
when its owner keeps one, a clock (the round's time left, counted down in the browser and read
again from ``clock_url`` when a push says it changed)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

__all__ = [
    "TableContext",
    "clock_page",
    "clock_shown",
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
    #: the clock's state ("" without a clock; else "ready", "running", "paused" or "over")
    clock_state: str = ""
    #: whole seconds left on the clock (None without one)
    clock_seconds_left: int | None = None
    #: when the clock runs out, while it runs
    deadline: datetime | None = None
    #: a read-only JSON of the clock (``state``, ``seconds_left``), read again on a push
    clock_url: str = ""
    #: what happens at the table when the time is up, in words
    clock_rule: str = ""


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


def clock_shown(seconds: int | None) -> str:
    """Seconds left as a clock shows them (``39:59``, ``1:05:00``; empty for None)."""
    if seconds is None:
        return ""
    seconds = max(0, seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


def clock_page(
    *, state: str, seconds_left: int | None, url: str, rule: str = ""
) -> dict[str, object] | None:
    """What templates/_round_clock.html shows of a clock (None without one)."""
    if not state or state == "none":
        return None
    return {
        "state": state,
        "seconds_left": seconds_left,
        "shown": "00:00" if state == "over" else clock_shown(seconds_left),
        "url": url,
        "rule": rule,
    }
