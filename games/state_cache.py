"""One cache per process of what is built from a table's committed rows, keyed by its version.

A table's state is read on every change by every connection at the table, by each action's answer
and by each task of its match; building it means replaying the match (the engine's state), reading
its seats and its ladder, and building the public and private views. Each process keeps what it
built here, in one bounded LRU per kind of thing, under one lock:

- every entry is held for an owner (a match, or for :data:`VERSIONS` a table) together with the
  :class:`Version` of the rows it was built from;
- a :class:`Version` is derived in one place (:func:`version_of`) from the committed rows: the
  match row (its id, seed and creation time, which tell apart two matches that got the same row id,
  its status, current deal, leaver, save time) and its current deal row (id, number of actions,
  status, turn deadline), and for a page the table row;
- each kind depends on a part of the version (:class:`Kind`): the seats on the match alone, the
  engine's state on the play (deal and number of actions), the ladder on the match row's saves, a
  page on all of it. An entry is only ever handed out for the exact part it was built from: any
  committed change moves the version, so a stale entry is never used, only replaced.

A process only puts what has been committed (games.services after commit; readers what they read).
``cachetools`` would give the LRU, but it is not among the project's packages: the LRU is an
``OrderedDict``.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from datetime import datetime
from operator import attrgetter
from typing import Any, NamedTuple

from games.models import Deal, Match, Table

__all__ = [
    "ENGINE",
    "FIGURES",
    "KINDS",
    "PAGE",
    "SEATS",
    "VERSIONS",
    "Kind",
    "StateCache",
    "Version",
    "cache",
    "version_of",
]


class Version(NamedTuple):
    """What names one committed state of a match at its table (see :func:`version_of`); a
    named tuple, as it is made for every read of a table and every action."""

    match: int
    seed: int
    created: datetime
    updated: datetime | None
    status: str
    deal: int  # the current deal's number (0 before the first)
    left: int | None
    turn_seconds: int
    deal_id: int | None
    seq: int  # actions in the current deal (append-only: a deal's log only grows)
    deal_status: str | None
    deadline: datetime | None
    table: tuple[object, ...] | None = None  # id, name, mode, status (a page shows them)

    @property
    def identity(self) -> tuple[object, ...]:
        """The match itself: its id, and its seed and creation time (a reused row id is another
        match)."""
        return (self.match, self.seed, self.created)

    @property
    def play(self) -> tuple[object, ...]:
        """What the engine's state is replayed from: the match, its deals and actions, a leaver."""
        return (*self.identity, self.deal, self.seq, self.status, self.left)

    @property
    def saved(self) -> tuple[object, ...]:
        """The match row as last saved (points, figures and the ladder are written with it)."""
        return (*self.identity, self.updated, self.deal)

    @property
    def shown(self) -> tuple[object, ...]:
        """Everything a table's page shows that comes from its rows."""
        return (
            *self.play,
            self.updated,
            self.turn_seconds,
            self.deal_id,
            self.deal_status,
            self.deadline,
            self.table,
        )


def version_of(match: Match, deal: Deal | None, table: Table | None = None) -> Version:
    """The version of the committed rows ``match``, its current deal row ``deal`` (None before
    the first deal) and, for what a page shows, its ``table``."""
    return Version(
        match=match.pk,
        seed=match.seed,
        created=match.created_at,
        updated=match.updated_at,
        status=match.status,
        deal=match.current_deal,
        left=match.left_seat,
        turn_seconds=match.turn_seconds,
        deal_id=deal.pk if deal is not None else None,
        seq=deal.seq if deal is not None else 0,
        deal_status=deal.status if deal is not None else None,
        deadline=deal.turn_deadline if deal is not None else None,
        table=None if table is None else (table.pk, table.name, table.mode, table.status),
    )


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of cached thing: its name, how many entries a process keeps, and the part of the
    version it is built from (an entry serves a version whose part is the same)."""

    name: str
    size: int
    part: Callable[[Any], Hashable]


#: A match's engine state (mutable: taken out while it is used, put back once committed).
ENGINE = Kind("engine", 512, attrgetter("play"))
#: A match's seats with their players (they do not change during a match).
SEATS = Kind("seats", 1024, attrgetter("identity"))
#: A match's figures after each deal (the ladder).
FIGURES = Kind("figures", 1024, attrgetter("saved"))
#: A table's page: the public part and the private parts by seat.
PAGE = Kind("page", 1024, attrgetter("shown"))
#: A table's latest version as read (by table id), versioned by the moment its read began
#: (``time.monotonic()``): it serves a reader that asks for a read begun after a given moment.
VERSIONS = Kind("versions", 1024, lambda moment: moment)

KINDS = (ENGINE, SEATS, FIGURES, PAGE, VERSIONS)


class StateCache:
    """Bounded LRU maps, one per kind, of owner -> (version, value), behind one lock."""

    def __init__(self, kinds: tuple[Kind, ...] = KINDS) -> None:
        self._lock = threading.Lock()
        self._maps: dict[str, OrderedDict[int, tuple[Any, Any]]] = {
            kind.name: OrderedDict() for kind in kinds
        }

    def get(self, kind: Kind, owner: int, version: Any) -> Any | None:
        """The value held for ``owner`` if it was built from ``version``'s part, else None."""
        with self._lock:
            entries = self._maps[kind.name]
            hit = entries.get(owner)
            if hit is None or kind.part(hit[0]) != kind.part(version):
                return None
            entries.move_to_end(owner)
            return hit[1]

    def peek(self, kind: Kind, owner: int) -> tuple[Any, Any] | None:
        """The (version, value) held for ``owner``, whatever its version."""
        with self._lock:
            return self._maps[kind.name].get(owner)

    def take(self, kind: Kind, owner: int) -> tuple[Any, Any] | None:
        """Remove and return the (version, value) held for ``owner``: a mutable value (an engine
        state) then belongs to the caller alone until it is put back."""
        with self._lock:
            return self._maps[kind.name].pop(owner, None)

    def put(
        self,
        kind: Kind,
        owner: int,
        version: Any,
        value: Any,
        *,
        unless: Callable[[Any], bool] | None = None,
    ) -> None:
        """Hold ``value`` as built from ``version`` for ``owner`` (the least recently used entry
        of the kind goes when the kind is full); not when ``unless`` says so of the version held
        now."""
        with self._lock:
            entries = self._maps[kind.name]
            held = entries.get(owner)
            if held is not None and unless is not None and unless(held[0]):
                return
            entries[owner] = (version, value)
            entries.move_to_end(owner)
            while len(entries) > kind.size:
                entries.popitem(last=False)

    def forget(self, kind: Kind | None = None, owner: int | None = None) -> None:
        """Drop what is held for ``owner`` (every owner when None) of ``kind`` (every kind when
        None)."""
        with self._lock:
            for name, entries in self._maps.items():
                if kind is not None and name != kind.name:
                    continue
                if owner is None:
                    entries.clear()
                else:
                    entries.pop(owner, None)

    def size(self, kind: Kind) -> int:
        """How many entries of ``kind`` are held."""
        with self._lock:
            return len(self._maps[kind.name])


#: The process's cache.
cache = StateCache()
