"""Reads for the replay viewer: which finished deals a user may replay, and a deal's replay as
the page's script draws it (every step's public view and every hand, from the engine's replay of
the stored record through ``Game.replay_steps``: no rule of a game lives here).

A deal is replayed only when its hands may be public (``games.tables.access.deal_public``: finished,
and no registered rule keeps it hidden) and its table may be seen by the user
(``games.tables.access.table_viewable``); otherwise it does not exist for them (404).

A deal's record is more than its hands: it names the seeds it was dealt from, and the match's
seed deals every deal of the match (and of every match dealt from the same seed: a duplicate
round's tables). So the record is served only once every match dealt from that seed is over and
its last deal public (``deal_record_public``), and a challenge's record (dealt as its source
deal) only once its source deal's record is.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.db.models import Max

from config.versioned_cache import cached
from engine.errors import EngineError
from engine.game import Game
from games.models import Challenge, Deal, Match, TableSeat
from games.play import engine_state
from games.tables.access import deal_public, table_viewable

__all__ = [
    "DealReplay",
    "ReplayDealRef",
    "ReplayError",
    "ReplaySeat",
    "deal_for_replay",
    "deal_record",
    "deal_record_public",
    "deal_replay",
    "match_replay_deals",
    "table_replay_deal",
]

#: How long a deal's computed steps are kept (a finished deal's record never changes).
CACHE_SECONDS = 3600
#: The namespace of a deal's computed steps in the shared cache (config.versioned_cache).
REPLAY_CACHE = "replay"


class ReplayError(RuntimeError):
    """A stored record that does not replay: the audit (verify_records) names what is wrong."""


def _seated(user: Any, table_id: int) -> bool:
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return TableSeat.objects.filter(table_id=table_id, player__user=user).exists()


def deal_for_replay(*, deal_id: int, user: Any) -> Deal | None:
    """The deal ``deal_id`` when ``user`` (anonymous too) may replay it, else ``None``: its hands
    may be public and its table may be seen (a player seated at the table always may)."""
    deal = Deal.objects.select_related("match__table").filter(pk=deal_id).first()
    if deal is None or not deal.record or not deal_public(deal):
        return None
    table_id = deal.match.table_id
    if not table_viewable(table_id=table_id, user=user, seated=_seated(user, table_id)):
        return None
    return deal


def deal_record(deal: Deal) -> dict[str, Any]:
    """The deal's stored record (the engine's JSON: headers, actions, result)."""
    data: dict[str, Any] = json.loads(deal.record)
    return data


_OVER = (Match.Status.FINISHED, Match.Status.ABORTED)


def deal_record_public(deal: Deal, _depth: int = 0) -> bool:
    """Whether the record of ``deal`` (a deal ``deal_for_replay`` found) may be served: no deal
    still to be played, here or at a table dealt from the same seed, can be worked out from the
    seeds it names. A deal of a match still going on is replayed (its steps name no seed), but
    its record waits for the match's end."""
    if not deal_public(deal):
        return False
    source = Challenge.objects.filter(match_id=deal.match_id).values_list("source_id", flat=True)
    source_id = source.first()
    if source_id is not None:  # a challenge is dealt with its source deal's seeds
        original = Deal.objects.select_related("match").filter(pk=source_id).first()
        return original is not None and _depth < 8 and deal_record_public(original, _depth + 1)
    match = deal.match
    same_seed = Match.objects.filter(seed=match.seed, game=match.game)
    if same_seed.exclude(status__in=_OVER).exists():
        return False
    # each such match's last recorded deal (a score sheet's matches record none, and are skipped)
    lasts = (
        Deal.objects.filter(match__in=same_seed)
        .exclude(record="")
        .values("match_id")
        .annotate(last=Max("number"))
    )
    for row in lasts:
        last = Deal.objects.filter(match_id=row["match_id"], number=row["last"]).first()
        if last is not None and not deal_public(last):
            return False
    return True


def match_replay_deals(match: Match) -> list[Deal]:
    """The deals of ``match`` that have a record and whose hands may be public, in order."""
    deals = Deal.objects.filter(match=match).exclude(record="").order_by("number")
    return [d for d in deals if deal_public(d)]


def table_replay_deal(*, table_id: int, user: Any) -> Deal | None:
    """The last replayable deal of the table's newest match (what a link "replay" opens)."""
    match = Match.objects.filter(table_id=table_id).order_by("-created_at", "-id").first()
    if match is None:
        return None
    for deal in reversed(match_replay_deals(match)):
        return deal_for_replay(deal_id=deal.pk, user=user)
    return None


def _steps(deal: Deal) -> list[dict[str, Any]]:
    """The deal's steps as JSON, computed once per deal and finishing time (config.versioned_cache:
    a deal that does not replay keeps nothing)."""

    def build() -> list[dict[str, Any]]:
        game = engine_state.game_of(deal.match)
        try:
            return [s.to_json() for s in game.replay_steps(deal.record)]
        except EngineError as exc:
            raise ReplayError(f"deal {deal.pk} does not replay: {exc}") from exc

    return cached(
        REPLAY_CACHE, (deal.pk,), version=deal.finished_at, build=build, timeout=CACHE_SECONDS
    )


class ReplayDealRef(NamedTuple):
    """One of a match's replayable deals, as the replay page links it."""

    id: int
    number: int


@dataclass(frozen=True, slots=True)
class ReplaySeat:
    """A seat as the replay page names it: its player (the record's name when the seat is gone),
    whether a bot played it, and its side."""

    seat: int
    player: str
    bot: bool
    side: str | None

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "player": self.player, "bot": self.bot, "side": self.side}


@dataclass(frozen=True, slots=True)
class DealReplay:
    """What the replay page draws of a deal (:func:`deal_replay`); :meth:`to_json` is the page's
    script's configuration."""

    deal: Deal
    match: Match
    deals: tuple[ReplayDealRef, ...]  # the match's replayable deals, in order
    game: Game
    seats: tuple[ReplaySeat, ...]
    steps: list[dict[str, Any]]  # every step: ``action``, ``view``, ``hands``, ``extra``

    def to_json(self) -> dict[str, Any]:
        deal, match, table = self.deal, self.match, self.match.table
        return {
            "deal": {
                "id": deal.pk,
                "number": deal.number,
                "dealer": deal.dealer_seat,
                "level_rank": deal.level_rank,
                "result": deal.result,
                "points": deal.points,
                "finish": deal.finishing_order,
            },
            "match": {
                "id": match.pk,
                "deals": [{"id": d.id, "number": d.number} for d in self.deals],
                "deals_per_match": match.deals_per_match,
            },
            "table": {"id": table.pk, "name": table.name},
            "game": self.game.key,
            "seatCount": self.game.seat_count,
            "seats": [s.to_json() for s in self.seats],
            "steps": self.steps,
        }


def deal_replay(deal: Deal) -> DealReplay:
    """What the replay page draws: the deal, its seats (names, bots, sides), its match's other
    replayable deals, and every step."""
    match = deal.match
    game = engine_state.game_of(match)
    rows = TableSeat.objects.filter(table_id=match.table_id).select_related("player")
    seats = {s.seat: s for s in rows.order_by("seat")}
    record = deal_record(deal)
    names = record.get("headers", {}).get("seats") or []
    return DealReplay(
        deal=deal,
        match=match,
        deals=tuple(ReplayDealRef(d.pk, d.number) for d in match_replay_deals(match)),
        game=game,
        seats=tuple(
            ReplaySeat(
                seat=s,
                player=seats[s].player.name
                if s in seats
                else (names[s] if s < len(names) else f"#{s + 1}"),
                bot=bool(seats[s].player.is_bot) if s in seats else False,
                side=game.side_of(s),
            )
            for s in range(game.seat_count)
        ),
        steps=_steps(deal),
    )
