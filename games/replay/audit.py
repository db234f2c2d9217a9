"""The operator's audit: replay every stored deal with engine/ and compare it with what is stored.

A deal record must replay (every action legal, in order) to the stored result, finishing order,
points and level step; the action log must be the record's actions; a match's deals must chain
(seeds, dealers, levels, tribute) to the stored match points and levels. Offline matches are
scored again from the score sheet the referee entered. Reads only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engine.errors import EngineError
from engine.game import Game, MatchState
from games.models import Deal, FigureStep, Match, Table
from games.play import engine_state

__all__ = ["Problem", "Audit", "matches_audit"]


@dataclass(frozen=True)
class Problem:
    """One mismatch: where (match, deal) and what."""

    match_id: int
    deal_number: int | None
    message: str

    def __str__(self) -> str:
        where = f"match {self.match_id}"
        if self.deal_number is not None:
            where += f" deal {self.deal_number}"
        return f"{where}: {self.message}"


@dataclass(frozen=True)
class Audit:
    """What was checked and what did not match."""

    matches: int
    deals: int
    actions: int
    problems: tuple[Problem, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


def matches_audit(matches: Iterable[Match]) -> Audit:
    """Check every deal of ``matches``; returns the counts and every problem found."""
    problems: list[Problem] = []
    counts = [0, 0, 0]
    for match in matches:
        counts[0] += 1
        deals = list(match.deals.order_by("number").prefetch_related("actions"))
        counts[1] += len(deals)
        counts[2] += sum(d.seq for d in deals)
        if match.table.mode == Table.Mode.OFFLINE:
            problems += _offline(match, deals)
        else:
            problems += _online(match, deals)
    return Audit(counts[0], counts[1], counts[2], tuple(problems))


def _online(match: Match, deals: list[Deal]) -> list[Problem]:
    problems: list[Problem] = []
    game = engine_state.game_of(match)
    steps = {s.deal_number: s.figures for s in FigureStep.objects.filter(match=match)}
    records: list[dict[str, Any]] = []
    running: dict[str, dict[str, int]] = {}
    for deal in deals:
        here = [
            Problem(match.pk, deal.number, m) for m in _deal(game, deal, steps, records, running)
        ]
        problems += here
    if problems:
        return problems
    finished = [r for r in records if r.get("result") is not None]
    if len(finished) != len(records):
        return problems
    try:
        if match.first_deal is not None:  # a challenge: its first deal stands alone
            replayed = _replay_from_first_deal(game, match, records)
        else:
            replayed = game.replay_match(records, left=match.left_seat) if records else None
    except EngineError as exc:
        return [Problem(match.pk, None, f"the deals do not chain: {exc}")]
    if replayed is not None:
        if list(replayed.points) != list(match.points):
            problems.append(
                Problem(
                    match.pk,
                    None,
                    f"points {match.points} stored, {list(replayed.points)} replayed",
                )
            )
        figures = replayed.figures()
        if figures != (match.figures or {}):
            problems.append(
                Problem(match.pk, None, f"figures {match.figures} stored, {figures} replayed")
            )
    if match.current_deal > len(finished):  # a deal being played: its log must replay
        try:
            engine_state.forget(match.pk)
            engine_state.engine_match(match, deals[-1] if deals else None)
        except engine_state.StateError as exc:
            problems.append(Problem(match.pk, match.current_deal, str(exc)))
    return problems


def _replay_from_first_deal(
    game: Game, match: Match, records: list[dict[str, Any]]
) -> MatchState | None:
    """A match whose first deal was dealt as another deal was (a challenge): its records name
    no match seed, so the match is dealt again from its seed and first deal, and every record's
    actions applied in order."""
    if not records:
        return None
    state = game.new_match(
        seed=match.seed,
        options=engine_state.rules_of(match),
        base=match.base_score,
        first_deal=match.first_deal,
    )
    for record in records:
        state.start_deal()
        for action in record.get("actions", []):
            state.apply_logged(game.action_from_json(action))
    if match.left_seat is not None:
        state.leave(match.left_seat)
    return state


def _deal(
    game: Game,
    deal: Deal,
    steps: dict[int, dict[str, Any]],
    records: list[dict[str, Any]],
    running: dict[str, dict[str, int]],
) -> list[str]:
    rows = sorted(deal.actions.all(), key=lambda a: a.seq)
    logged = [engine_state.to_engine(a, game).to_json() for a in rows]
    if deal.status != Deal.Status.FINISHED:
        return []
    try:
        record = game.read_record(deal.record)
    except EngineError as exc:
        return [f"the record does not read: {exc}"]
    records.append(record)
    actions = record.get("actions", [])
    if actions != logged:
        first = next(
            (i for i, (a, b) in enumerate(zip(actions, logged, strict=False), 1) if a != b),
            min(len(actions), len(logged)) + 1,
        )
        return [f"the action log differs from the record at action {first}"]
    try:
        replayed = game.replay_record(record)
    except EngineError as exc:
        return [f"the record does not replay: {exc}"]
    result, points = replayed["result"], replayed["points"]
    assert result is not None and points is not None
    problems = []
    if result != deal.result:
        problems.append("the stored result differs from the replay")
    if list(replayed["finish"]) != deal.finishing_order:
        problems.append(f"finishing order {deal.finishing_order}, replayed {replayed['finish']}")
    if list(points) != list(deal.points):
        problems.append(f"points {deal.points}, replayed {list(points)}")
    after = _figures_after(game, replayed["figures"] or {}, running)
    step = steps.get(deal.number)
    # every figure the record replays must be stored as it replays (a game may store more)
    if after and (step is None or any(step.get(key) != value for key, value in after.items())):
        problems.append(f"figures after the deal {step}, replayed {after}")
    return problems


def _figures_after(
    game: Game, figures: dict[str, dict[str, int]], running: dict[str, dict[str, int]]
) -> dict[str, dict[str, int]]:
    """The match's figures after a deal from the deal's replayed figures: a side's figure is a
    state (大怪路子's level after the deal), a seat's figure adds up over the match (rating,
    silver), from the game's start value."""
    specs = {spec.key: spec for spec in game.figure_specs}
    after: dict[str, dict[str, int]] = {}
    for key, by in figures.items():
        spec = specs.get(key)
        if spec is None or spec.holder != "seat":
            after[key] = dict(by)
            continue
        totals = running.setdefault(key, {})
        for holder, value in by.items():
            totals[holder] = totals.get(holder, spec.start) + value
        after[key] = dict(totals)
    return after


def _legacy_sheet(match: Match, deals: list[Deal]) -> dict[str, Any]:
    """The sheet of an offline 大怪路子 match recorded before sheets were stored: rebuilt from
    each deal's finishing order, escape and the seat that left."""
    entries: list[dict[str, Any]] = []
    for deal in deals:
        result = deal.result or {}
        if result.get("outcome") == "escape":
            entries.append({"finish": list(deal.finishing_order), "escape": result.get("seat")})
        else:
            entries.append({"finish": list(deal.finishing_order)})
    if match.left_seat is not None:
        entries.append({"leave": match.left_seat})
    first = deals[0].dealer_seat if deals else 0
    return {"first_dealer": first, "deals": entries}


def _offline(match: Match, deals: list[Deal]) -> list[Problem]:
    """Score the stored sheet again (the one the referee entered) and compare every deal's
    dealer, result, finishing order and points, the figures after each deal, and the match's
    points, figures, end and winner with what is stored."""
    sheet = match.sheet or _legacy_sheet(match, deals)
    try:
        scored = engine_state.game_of(match).score_sheet(
            sheet, options=engine_state.rules_of(match), base=match.base_score
        )
    except EngineError as exc:
        return [Problem(match.pk, None, f"the entered deals do not score: {exc}")]
    problems = []
    if len(scored.deals) != len(deals):
        problems.append(
            Problem(
                match.pk, None, f"{len(deals)} deals stored, the sheet scores {len(scored.deals)}"
            )
        )
    steps = {s.deal_number: s.figures for s in FigureStep.objects.filter(match=match)}
    for deal, scored_deal in zip(deals, scored.deals, strict=False):
        if scored_deal.result != deal.result:
            problems.append(Problem(match.pk, deal.number, "the stored result differs"))
        if list(scored_deal.points) != list(deal.points):
            problems.append(
                Problem(
                    match.pk,
                    deal.number,
                    f"points {deal.points}, scored {list(scored_deal.points)}",
                )
            )
        if list(scored_deal.finish) != list(deal.finishing_order):
            problems.append(
                Problem(
                    match.pk,
                    deal.number,
                    f"finishing order {deal.finishing_order}, scored {list(scored_deal.finish)}",
                )
            )
        if scored_deal.dealer != deal.dealer_seat:
            problems.append(
                Problem(
                    match.pk, deal.number, f"dealer {deal.dealer_seat}, scored {scored_deal.dealer}"
                )
            )
        after = scored.figures[deal.number] if deal.number < len(scored.figures) else None
        if match.sheet and steps.get(deal.number) != after:
            problems.append(
                Problem(
                    match.pk,
                    deal.number,
                    f"figures after the deal {steps.get(deal.number)}, scored {after}",
                )
            )
    if list(scored.points) != list(match.points):
        problems.append(Problem(match.pk, None, f"points {match.points} stored"))
    if match.sheet:
        figures = scored.figures[-1] if scored.figures else {}
        if figures != (match.figures or {}):
            problems.append(
                Problem(match.pk, None, f"figures {match.figures} stored, {figures} scored")
            )
        if (scored.end_reason or "") != match.end_reason or (scored.winner or "") != match.winner:
            problems.append(
                Problem(
                    match.pk,
                    None,
                    f"ended {match.end_reason!r} won by {match.winner!r} stored, "
                    f"scored {scored.end_reason!r} won by {scored.winner!r}",
                )
            )
    return problems
