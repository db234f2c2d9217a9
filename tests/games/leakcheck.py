"""A scanner for hidden information: does a payload shown to one viewer carry cards it must not?

A viewer (a seat, or None for a spectator) may see: the cards played in the deal so far (public),
and, when seated, their own hand and the tribute cards they gave or received. Every string in a
payload that reads as cards must be a sub-multiset of that; anything more is a leak of another
seat's hand. The truth comes from the engine (the state the services committed).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from engine.cards import Card, parse_cards
from engine.errors import EngineError
from games import engine_state
from games.models import Match, Table

NON_CARD_KEYS = {"player", "name", "detail", "message", "type", "kind", "phase", "status"}


_truth: dict[tuple[object, ...], Any] = {}


def _deal(table: Table) -> Any:
    """The engine's current (or last) deal of the table, cached by what names its state."""
    match = Match.objects.filter(table=table).order_by("-created_at", "-id").first()
    if match is None or not match.current_deal:
        return None
    deal_row = match.deals.get(number=match.current_deal)
    # the seed and creation time tell apart matches that got the same id in different tests
    key = (
        table.pk,
        match.pk,
        match.seed,
        match.created_at,
        deal_row.number,
        deal_row.seq,
        match.status,
    )
    if key not in _truth:
        if len(_truth) > 1000:
            _truth.clear()
        engine = engine_state.engine_match(match, deal_row)
        engine_state.remember(match, deal_row, engine)
        _truth[key] = engine.deals[-1]
    return _truth[key]


def allowed_cards(table: Table, viewer: int | None) -> Counter[Card]:
    """What ``viewer`` may see of the cards of the table's current (or last) deal."""
    deal = _deal(table)
    if deal is None:
        return Counter()
    allowed: Counter[Card] = Counter(deal.pile)
    if viewer is not None:
        allowed.update(deal.hand(viewer))
        for t in deal.tributes:
            if viewer in (t.payer, t.receiver):
                allowed[t.card] += 1
                if t.receiver in deal.returns:
                    allowed[deal.returns[t.receiver]] += 1
    return allowed


def other_hands(table: Table, viewer: int | None) -> list[str]:
    """The other seats' hands, written as the engine writes them (never to appear anywhere)."""
    deal = _deal(table)
    if deal is None:
        return []
    return [
        " ".join(str(c) for c in deal.hand(s))
        for s in range(6)
        if s != viewer and len(deal.hand(s)) >= 2
    ]


def _strings(value: Any, key: str = "") -> list[tuple[str, str]]:
    if isinstance(value, dict):
        return [item for k, v in value.items() for item in _strings(v, str(k))]
    if isinstance(value, list):
        return [item for v in value for item in _strings(v, key)]
    if isinstance(value, str):
        return [(key, value)]
    return []


def assert_no_leak(payload: Any, table: Table, viewer: int | None) -> int:
    """Fail when ``payload`` (JSON-able or a JSON string) shows ``viewer`` a card they may not
    see; returns how many card strings it checked."""
    if isinstance(payload, (str, bytes)):
        payload = json.loads(payload)
    allowed = allowed_cards(table, viewer)
    text = json.dumps(payload, ensure_ascii=False)
    for hand in other_hands(table, viewer):
        assert hand not in text, f"another seat's hand {hand!r} shown to viewer {viewer}"
    if viewer is None:
        assert not (payload.get("you") if isinstance(payload, dict) else None)
    checked = 0
    for key, value in _strings(payload):
        if key in NON_CARD_KEYS or not value.strip():
            continue
        try:
            cards = parse_cards(value)
        except EngineError:
            continue
        checked += 1
        extra = Counter(cards) - allowed
        assert not extra, (
            f"viewer {viewer} was shown {sorted(map(str, extra.elements()))} in {key!r}: {value!r}"
        )
    return checked
