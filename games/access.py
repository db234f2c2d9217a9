"""Who may look at a table. The card room knows nothing of events: an app that owns tables (such
as tournaments, for the tables of its rounds) registers a rule here, and a table is shown only
when no rule refuses it. A person seated at a table may always look at it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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
