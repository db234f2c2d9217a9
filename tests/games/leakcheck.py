"""A scanner for hidden information: does a payload shown to one viewer carry cards it must not?

A viewer (a seat, or None for a spectator) may see: the cards played in the deal so far (public),
and, when seated, their own hand and the tribute cards they gave or received. Every string in a
payload that reads as cards must be a sub-multiset of that; anything more is a leak of another
seat's hand. The truth comes from the engine (the state the services committed).

Across the tables of a duplicate round what is hidden is more than cards (a result, a sheet, a
total that moved): :func:`assert_surfaces_unchanged` compares what a viewer fetched before and
after another table finished (or entered) a deal, which must be the same until it is published.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from engine.cards import Card, parse_cards
from engine.errors import EngineError
from games.models import Match, Table
from games.play import engine_state

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
        deals = engine.deals if table.game == "daguai" else engine.match.deals
        _truth[key] = deals[-1]
    return _truth[key]


def _played(deal: Any) -> Counter[Card]:
    """The cards played (and, in 斗地主, declared 报到) in the deal so far: public."""
    shown: Counter[Card] = Counter()
    for action in deal.actions:
        cards = getattr(action, "cards", None) or ()
        shown.update(cards.cards if hasattr(cards, "cards") else cards)
    return shown


def _allowed_xiaoluzi(deal: Any, viewer: int | None) -> Counter[Card]:
    """小路子: the cards played; the viewer's own hand (a bystander's too: theirs alone); the
    bystanders' hands once the deal is over."""
    allowed = _played(deal)
    if viewer is not None:
        allowed.update(deal.hand(viewer))
    if deal.over:
        for s in deal.bystanders:
            if s != viewer:
                allowed.update(deal.hand(s))
    return allowed


def _allowed_doudizhu(deal: Any, viewer: int | None) -> Counter[Card]:
    """上海斗地主: the cards played and declared (报到); the marked card (标记牌); the landlord's
    hand and kitty when he plays 摊打; the kitty for the landlord; the viewer's own hand."""
    allowed = _played(deal)
    allowed[deal.marked_card] += 1
    landlord = deal.landlord
    if viewer is not None:
        allowed.update(deal.hand(viewer))
    if landlord is not None and (viewer == landlord or deal.open_hand):
        allowed.update(deal.kitty)
    if landlord is not None and deal.open_hand and viewer != landlord:
        allowed.update(deal.hand(landlord))
    return allowed


def allowed_cards(table: Table, viewer: int | None) -> Counter[Card]:
    """What ``viewer`` may see of the cards of the table's current (or last) deal."""
    deal = _deal(table)
    if deal is None:
        return Counter()
    if table.game == "xiaoluzi":
        return _allowed_xiaoluzi(deal, viewer)
    if table.game == "shanghai_doudizhu":
        return _allowed_doudizhu(deal, viewer)
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
    shown: set[int] = set()
    if table.game == "xiaoluzi" and deal.over:
        shown = set(deal.bystanders)
    if table.game == "shanghai_doudizhu" and deal.landlord is not None and deal.open_hand:
        shown = {deal.landlord}
    return [
        " ".join(str(c) for c in deal.hand(s))
        for s in range(table.seat_count)
        if s != viewer and s not in shown and len(deal.hand(s)) >= 2
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


def assert_surfaces_unchanged(
    before: dict[str, tuple[int, bytes]], after: dict[str, tuple[int, bytes]], who: str
) -> None:
    """Fail, naming the first lines that differ, when any page or answer (by URL: its status and
    body) fetched by ``who`` changed between ``before`` and ``after``."""
    import difflib

    changed = [url for url in before if after.get(url) != before[url]]
    lines: list[str] = []
    for url in changed[:3]:
        a = before[url][1].decode(errors="replace").splitlines()
        b = after[url][1].decode(errors="replace").splitlines()
        lines += [url, *list(difflib.unified_diff(a, b, lineterm="", n=0))[:12]]
    assert not changed, f"{who} sees a change in {changed}:\n" + "\n".join(lines)
