"""What the players of a deal of 上海斗地主 see of it: the public view and a seat's private view
(:meth:`engine.shanghai_doudizhu.deal.Deal.public_view` and ``private_view`` answer with these).

The public view holds counts, bids, the marked card, a 摊打 hand, the declared sets and the trick,
never a hidden card; a seat's private view adds its hand, its legal actions, and the kitty for the
landlord.

>>> from engine.shanghai_doudizhu.deal import Deal
>>> view = private_view(Deal(seed=7), 0)
>>> view["phase"], view["counts"], len(view["hand"].split()), view["kitty"] is None
('bid', [25, 25, 25, 25], 25, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.cards import format_cards
from engine.errors import EngineError
from engine.shanghai_doudizhu.result import SEATS

if TYPE_CHECKING:
    from engine.shanghai_doudizhu.deal import Deal

__all__ = ["private_view", "public_view"]


def public_view(deal: Deal) -> dict[str, Any]:
    """What every player may see: counts, bids, the marked card, 摊打 hand, declared sets,
    the trick; never a hidden card."""
    landlord = deal.landlord
    shown = landlord is not None and deal.open_hand
    return {
        "phase": deal.phase.value,
        "turn": deal.turn,
        "awaiting": list(deal.awaiting()),
        "base": deal.base,
        "first_bidder": deal.first_bidder,
        "marked": {"seat": deal.marked_seat, "card": str(deal.marked_card)},
        "bids": [{"seat": s, "bid": v} for s, v in deal.bids.items()],
        "highest": deal.highest,
        "landlord": landlord,
        "bid": deal.bid,
        "head_bid": deal.head,
        "huangfan": deal.huangfan,
        "open_hand": deal.open_hand,
        "landlord_hand": format_cards(deal.hand(landlord))
        if shown and landlord is not None
        else None,
        "kitty": format_cards(deal.kitty) if shown else None,
        "declared": [str(p) for p in deal.declared],
        "declared_in_hand": [str(p) for p in deal.locked],
        "fight": deal.fight,
        "counts": [len(h) for h in deal.hands],
        "bombs": list(deal.bombs),
        "bomb_limits": list(deal.bomb_limits),
        "trick": {
            "actions": [a.to_json() for a in deal.trick],
            "current": None if deal.current is None else str(deal.current),
            "current_type": None if deal.current is None else deal.current.type.value,
            "current_seat": deal.current_seat,
            "passes": deal.passes,
        },
        "last_trick": None
        if deal.last_trick is None
        else {
            "winner": deal.last_trick[0],
            "actions": [a.to_json() for a in deal.last_trick[1]],
        },
        "moves": len(deal.actions),
        "timeouts": list(deal.timeouts),
        "result": None if deal.result is None else deal.result.to_json(),
    }


def private_view(deal: Deal, seat: int) -> dict[str, Any]:
    """The public view plus what ``seat`` alone sees: his hand, his legal actions, and the
    kitty for the landlord."""
    if seat not in SEATS:
        raise EngineError.of("common.seat_range", seat=seat, high=3)
    view = deal.public_view()
    view["seat"] = seat
    view["hand"] = format_cards(deal.hand(seat))
    view["legal"] = [a.to_json() for a in deal.legal_actions(seat)]
    if seat == deal.landlord:
        view["kitty"] = format_cards(deal.kitty)
    return view
