"""Who is at a table: each seat's open pages, counted in Django's ``presence`` cache.

Each WebSocket of a seated person counts +1 while it is open (games.live.consumers). A seat with no
open page is *away* (离线): its turns are played by the system when its time runs out, as for anyone
who does not act in time, and the others see it. Being away is never an escape: only the confirmed
"leave the table" or the rules' limit of consecutive system plays is (docs/rules.md). At a table
whose bots play every seat (``Match.autoplay``: the demo, rehearsals) a person who is present plays
their own seat, and the bots play it only while they are away.

The cache is strict (config/cache.py): with several web processes it must be shared (Redis). The
count expires ``PRESENCE_SECONDS`` after the last renewal, and every open page renews it with each
resync (``LUZI_PUSH_RESYNC_SECONDS``, a fraction of it). So a count left too high, by a web process
that died with pages open or by a close that Redis refused to count out (issue 31: the pool out of
connections), lasts only while the seat really has a page open, and at most ``PRESENCE_SECONDS``
after its last one closed; and a count that expired or fell to 0 while a page is open is counted up
again by that page's next renewal. A per-connection key would need a scan or a set per seat; the
dashboard and the table states read one count key per seat in one ``get_many``, so the count stays
and its errors are bounded by these two rules instead.

A person who has gone out of a deal cannot escape it: their confirmed leave during that deal is
noted here and becomes leaving between deals when the next deal is about to be dealt, unless they
are back at the table by then (nothing happens when the match is over).
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from django.core.cache import caches

from config.versioned_cache import versioned_key

__all__ = [
    "PRESENCE_SECONDS",
    "leave_cancel",
    "leave_note",
    "leaves_noted",
    "presence",
    "presence_keys",
    "seats_online",
]

#: Presence keys expire unless a connection renews them: every resync, at least three times within
#: it (tests/games/live/test_realtime_pool.py checks it against LUZI_PUSH_RESYNC_SECONDS). It was
#: 300 s: a close that Redis refused kept the seat online for five minutes (issue 31).
PRESENCE_SECONDS = 40

#: How long a finished player's leave is kept for the next deal (a day: a match is shorter).
LEAVE_SECONDS = 24 * 3600


def presence_keys(table_id: int, seat: int) -> tuple[str, str]:
    """The cache keys of ``seat``'s count of open pages at the table and of when it was seen
    (config.versioned_cache; no version: the count is kept in the cache itself)."""
    return (
        versioned_key("presence", table_id, seat, "count", version=None),
        versioned_key("presence", table_id, seat, "seen", version=None),
    )


def presence(table_id: int, seat: int, change: int) -> bool:
    """Count a seat's open pages (+1 on connect, -1 on close, 0 to just say "still here").

    Returns whether the seat came to the table or left it (its count went from 0 or to 0), so that
    the others can be told. "Still here" from a page whose count expired or fell to 0 (a renewal
    or a count lost while Redis refused) counts it again, and says that it came.
    """
    count_key, seen_key = presence_keys(table_id, seat)
    store = caches["presence"]
    moved = False
    if change:
        store.add(count_key, 0, timeout=PRESENCE_SECONDS)
        try:
            count = int(store.incr(count_key, change))
        except ValueError:  # expired between add and incr
            count = max(change, 0)
            store.set(count_key, count, timeout=PRESENCE_SECONDS)
        if count < 0:  # a close counted after the key expired
            count = 0
            store.set(count_key, 0, timeout=PRESENCE_SECONDS)
        moved = (count - change <= 0) != (count <= 0)
        store.touch(count_key, PRESENCE_SECONDS)
    elif not store.touch(count_key, PRESENCE_SECONDS) or int(store.get(count_key) or 0) < 1:
        # this page is open, yet the seat counts as away: count it (another page's renewal at the
        # same moment may count it twice; that lasts until PRESENCE_SECONDS after they close)
        if not store.add(count_key, 1, timeout=PRESENCE_SECONDS):
            try:
                store.incr(count_key, 1)
            except ValueError:  # expired between add and incr
                store.set(count_key, 1, timeout=PRESENCE_SECONDS)
        moved = True
    store.set(seen_key, time.time(), timeout=PRESENCE_SECONDS)
    return moved


def seats_online(table_id: int, seats: Iterable[int]) -> dict[int, bool]:
    """Whether each of ``seats`` has a page open at the table (one cache read)."""
    wanted = {seat: presence_keys(table_id, seat)[0] for seat in seats}
    if not wanted:
        return {}
    counts = caches["presence"].get_many(list(wanted.values()))
    return {seat: int(counts.get(key) or 0) > 0 for seat, key in wanted.items()}


def _leave_key(match_id: int) -> str:
    return versioned_key("leaving", match_id, version=None)


def leave_note(match_id: int, seat: int) -> None:
    """Note that ``seat``, already out of the current deal, confirmed leaving the table."""
    store = caches["presence"]
    noted = set(store.get(_leave_key(match_id)) or ())
    store.set(_leave_key(match_id), sorted(noted | {seat}), timeout=LEAVE_SECONDS)


def leaves_noted(match_id: int) -> list[int]:
    """The seats whose leave is noted for the match's next deal, in seat order."""
    return list(caches["presence"].get(_leave_key(match_id)) or ())


def leave_cancel(match_id: int, seat: int | None = None) -> None:
    """Forget the noted leave of ``seat`` (of every seat when None)."""
    store = caches["presence"]
    if seat is None:
        store.delete(_leave_key(match_id))
        return
    rest = [s for s in leaves_noted(match_id) if s != seat]
    if rest:
        store.set(_leave_key(match_id), rest, timeout=LEAVE_SECONDS)
    else:
        store.delete(_leave_key(match_id))
