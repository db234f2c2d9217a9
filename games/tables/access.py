"""Who may look at a table. The card room knows nothing of events: an app that owns tables (such
as tournaments, for the tables of its rounds) registers a rule here, and a table is shown only
when no rule refuses it. A person seated at a table may always look at it."""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

from django.core.cache import caches
from django.db import transaction
from django.db.models import Model
from django.db.models.signals import m2m_changed, post_delete, post_save

from config.versioned_cache import versioned_key

logger = logging.getLogger(__name__)

#: A rule: ``(table_id, user) -> False`` to refuse, ``None`` when it has nothing to say.
TableRule = Callable[[int, Any], "bool | None"]

_rules: list[TableRule] = []


def table_rule_register(rule: TableRule) -> None:
    """Add a rule that may refuse to show a table (registered once, in an app's ``ready()``)."""
    if rule not in _rules:
        _rules.append(rule)


def table_viewable(*, table_id: int, user: Any, seated: bool = False) -> bool:
    """Whether ``user`` (anonymous too) may see the table: its page, its state, its pushes.

    ``seated``: the user plays at this table, and so always may.
    """
    if seated or getattr(user, "is_superuser", False):
        return True
    return all(rule(table_id, user) is not False for rule in _rules)


#: A deal rule: ``(deal) -> False`` to keep a finished deal's hands hidden, ``None`` when it has
#: nothing to say. Tournaments registers one for duplicate rounds (deal k of a duplicate round stays
#: hidden until every table of the round has finished deal k).
DealRule = Callable[[Any], "bool | None"]

_deal_rules: list[DealRule] = []


def deal_rule_register(rule: DealRule) -> None:
    """Add a rule that may keep a finished deal's hands hidden (registered once, in ``ready()``)."""
    if rule not in _deal_rules:
        _deal_rules.append(rule)


def deal_public(deal: Any) -> bool:
    """Whether every hand of ``deal`` (a ``games.models.Deal``) may be shown to anyone: the deal is
    finished (or aborted) and no registered rule keeps it hidden. Replays, records and deal lists
    ask this; live tables show their own views as before."""
    if deal.status not in ("finished", "aborted"):
        return False
    return all(rule(deal) is not False for rule in _deal_rules)


# --- when who may see a table may have changed ---------------------------------------------------
#
# A live table's WebSocket checks its viewer at connect; a later change of who may see the table
# (an event turned private or duplicate, a round started, a seat, a registration or an organizer
# changed) must reach the sockets already open. Every such change replaces one token, the *access
# epoch*, in the shared cache (on commit); a socket compares it with the token it last checked
# against before each push, and checks its viewer again only when it moved. One token for every
# table: those changes are rare, and a check costs a few queries, so each socket pays one cache
# read per push (shared by the sockets of a process, see :func:`access_epoch`) and seldom more.

_EPOCH_KEY = versioned_key("access", "epoch", version=None)
_epoch_lock = threading.Lock()
_epoch_read: tuple[float, str] | None = None  # (when the read began, the token), this process


def access_changed(**_signal: Any) -> None:
    """Note that who may see a table may have changed: once the current transaction commits (at
    once outside one), every open socket checks its viewer again before its next push. Also a
    signal receiver (see :func:`access_watch`)."""
    transaction.on_commit(_bump, robust=True)


def _bump() -> None:
    global _epoch_read
    try:
        caches["presence"].set(_EPOCH_KEY, uuid.uuid4().hex, timeout=None)
    except Exception:  # the sockets then check again at each push until it is readable
        logger.warning("access epoch not bumped: the cache is unavailable", exc_info=True)
    with _epoch_lock:
        _epoch_read = None  # this process reads it again


def access_epoch(fresh_since: float | None = None) -> str | None:
    """The access epoch's token ("" before any change), or None when the cache cannot be read
    (then a socket checks its viewer again).

    ``fresh_since`` (a ``time.monotonic()`` moment): a read of this process that began after it
    serves too, so the sockets that push one change share one read; None reads it now.
    """
    global _epoch_read
    with _epoch_lock:
        kept = _epoch_read
    if fresh_since is not None and kept is not None and kept[0] >= fresh_since:
        return kept[1]
    began = time.monotonic()
    try:
        token = str(caches["presence"].get(_EPOCH_KEY) or "")
    except Exception:
        logger.warning("access epoch unreadable: the cache is unavailable", exc_info=True)
        return None
    with _epoch_lock:
        if _epoch_read is None or _epoch_read[0] < began:
            _epoch_read = (began, token)
    return token


def _created(**signal: Any) -> None:
    if signal.get("created"):
        access_changed()


def _related(**signal: Any) -> None:
    if str(signal.get("action", "")).startswith("post_"):
        access_changed()


def access_watch(*models: type[Model], created_only: bool = False) -> None:
    """Bump the access epoch whenever a row of ``models`` is saved or deleted (only created or
    deleted with ``created_only``: for rows saved on every move, whose other saves never change
    who may see a table). Many-to-many ``through`` models count their changes too. Bulk writes
    send no signals: their callers call :func:`access_changed` themselves."""
    for model in models:
        uid = f"luzi-access:{model._meta.label}"
        saved = _created if created_only else access_changed
        post_save.connect(saved, sender=model, weak=False, dispatch_uid=uid)
        post_delete.connect(access_changed, sender=model, weak=False, dispatch_uid=uid)
        if model._meta.auto_created:  # a many-to-many field's table: add() and remove()
            m2m_changed.connect(_related, sender=model, weak=False, dispatch_uid=uid)
