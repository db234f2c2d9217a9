"""How well ratings separate two kinds of bots (``simulate_event --bot-kinds``): the area under
the ROC curve of the rating order, after every rated match of an event."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ratings import formula
from ratings.models import RatedMatch, RatingChange, Scope
from tournaments.models import Event

__all__ = ["Separation", "auc", "event_separation"]

#: the AUC from which the order counts as separating the kinds
GOOD = 0.9


def auc(high: Sequence[float], low: Sequence[float]) -> float:
    """The chance that a random ``high`` scores above a random ``low`` (ties count half).

    >>> auc([3, 2], [1, 2])
    0.875
    """
    if not high or not low:
        return 0.5
    wins = sum((h > lo) + 0.5 * (h == lo) for h in high for lo in low)
    return wins / (len(high) * len(low))


@dataclass(frozen=True, slots=True)
class Separation:
    high: str
    low: str
    auc: float
    matches: int
    #: rated matches of the event after which the AUC stayed at or above GOOD (None: never)
    matches_to_separate: int | None


def event_separation(*, event: Event, high: str, low: str) -> Separation:
    """The AUC of the event's bots of kind ``high`` over those of kind ``low`` by rating, after
    every rated match of the event in order."""
    from games.models import Player

    kinds = dict(
        Player.objects.filter(is_bot=True, bot_kind__in=[high, low])
        .filter(pk__in=RatingChange.objects.filter(rated_match__event=event).values("player_id"))
        .values_list("pk", "bot_kind")
    )
    start = formula.display(formula.DEFAULT.mu, formula.DEFAULT.sigma)
    current = {p: float(start) for p in kinds}
    curve = []
    rows = (
        RatingChange.objects.filter(rated_match__event=event, scope=Scope.ALL)
        .order_by("seq")
        .values_list("seq", "player_id", "mu", "sigma")
    )
    last = None
    for seq, player, mu, sigma in rows:
        if last is not None and seq != last:
            curve.append(_auc(current, kinds, high, low))
        last = seq
        if player in current:
            current[player] = mu - 3 * sigma
    if last is not None:
        curve.append(_auc(current, kinds, high, low))
    to_separate = None
    for k in range(len(curve), 0, -1):
        if curve[k - 1] < GOOD:
            break
        to_separate = k
    return Separation(
        high=high,
        low=low,
        auc=curve[-1] if curve else 0.5,
        matches=RatedMatch.objects.filter(event=event).count(),
        matches_to_separate=to_separate,
    )


def _auc(current: dict[int, float], kinds: dict[int, str], high: str, low: str) -> float:
    return auc(
        [v for p, v in current.items() if kinds[p] == high],
        [v for p, v in current.items() if kinds[p] == low],
    )
