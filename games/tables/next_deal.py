"""Whether a table may deal its next deal. The card room knows nothing of events: an app that owns
tables (tournaments, for the tables of a round with a clock) registers a rule here, as it
registers its rules in :mod:`games.tables.access`, and a match deals its next deal only when no
rule refuses. A refused match ends after the deal just played (games.play.services), its result
recorded as any finished match's."""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["next_deal_allowed", "next_deal_rule_register"]

#: A rule: ``table_id -> False`` to refuse the table's next deal, ``None`` when it has nothing to
#: say (a table of none of its own, a round whose clock still runs).
NextDealRule = Callable[[int], "bool | None"]

_rules: list[NextDealRule] = []


def next_deal_rule_register(rule: NextDealRule) -> None:
    """Add a rule that may refuse a table's next deal (registered once, in an app's ``ready()``)."""
    if rule not in _rules:
        _rules.append(rule)


def next_deal_allowed(table_id: int) -> bool:
    """Whether the table's match may deal its next deal: no registered rule refuses it."""
    return all(rule(table_id) is not False for rule in _rules)
