"""Public pages, phone-friendly and without login unless the event is private: home, an event,
a team (its matches, deal by deal, and its level ladder) and a player."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from games.models import Deal, FigureStep, Match, TableSeat
from tournaments.common.sides import seat_side, side_figure, side_figure_start
from tournaments.common.sorting import natural_key
from tournaments.common.standings_rows import PlayerRow
from tournaments.duplicate import deals as duplicate
from tournaments.events.organizers import event_is_organizer, event_is_referee
from tournaments.events.selectors import (
    event_players,
    event_teams,
    meets_for_home,
)
from tournaments.events.services import can_create_events
from tournaments.models import (
    Pairing,
    PlayerTally,
    Registration,
    Round,
    Team,
    TeamMember,
    Unit,
)
from tournaments.results.deal_notes import levels_why
from tournaments.rounds.clock import round_clock_page
from tournaments.standings.apis import standings_rows_fresh
from tournaments.standings.selectors import (
    figure_label,
)
from tournaments.web.requests import visible_event


def home(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournaments/home.html",
        {"meets": meets_for_home(request.user), "can_create": can_create_events(request.user)},
    )


def event_detail(request: HttpRequest, pk: int) -> HttpResponse:
    event = visible_event(request, pk)
    if event.is_individual:  # players play for themselves: list them, not (no) teams
        teams: list[Team] = []
        players = event_players(event=event)
        player_count = sum(1 for _player, _unit, withdrawn in players if not withdrawn)
    else:
        teams = sorted(
            event_teams(event=event),
            key=lambda team: (
                natural_key(team.unit.name if team.unit else ""),
                natural_key(team.name),
            ),
        )
        players = []
        player_count = sum(len(t.members.all()) for t in teams)
    return render(
        request,
        "tournaments/event_detail.html",
        {
            "event": event,
            "teams": teams,
            "players": players,
            "rounds": list(event.rounds.exclude(status=Round.Status.DRAFT).order_by("number")),
            "player_count": player_count,
            "tie_breaks": event.tie_break_labels(),
            "is_organizer": event_is_organizer(event=event, user=request.user),
            "is_referee": event_is_referee(event=event, user=request.user),
            "clock": _running_clock(event),
        },
    )


def _running_clock(event: Any) -> dict[str, object] | None:
    """The clock of the event's running round, for its pages (None without one)."""
    running = event.rounds.filter(status=Round.Status.RUNNING).order_by("-number").first()
    return round_clock_page(running)


def _ladder_svg_points(steps: list[tuple[int, int]], width: int = 240, height: int = 120) -> str:
    """Return SVG polyline points for levels (2..14) after each deal (0 = the start)."""
    if not steps:
        return ""
    last = max(n for n, _ in steps) or 1
    pad = 8

    def x(n: int) -> float:
        return round(pad + (width - 2 * pad) * n / last, 1)

    def y(level: int) -> float:
        return round(height - pad - (height - 2 * pad) * (level - 2) / 12, 1)

    return " ".join(f"{x(n)},{y(level)}" for n, level in steps)


def _ladder_ticks(steps: list[tuple[int, int, int]], width: int = 240) -> list[tuple[float, int]]:
    """Where each deal's label goes under the ladder: (x, deal number) for deals 1..n."""
    last = max((n for n, _a, _b in steps), default=0)
    if not last:
        return []
    pad = 8
    return [(round(pad + (width - 2 * pad) * n / last, 1), n) for n in range(1, last + 1)]


def _deal_notes(match_ids: list[int], pairings: list[Pairing]) -> dict[int, list[dict[str, Any]]]:
    """Each finished deal of the matches, said in words: who dealt, who won, the levels, and why
    the levels moved or did not (only the dealer team goes up); an escape says what it cost."""
    names: dict[int, dict[str, str]] = {}
    for p in pairings:
        tally = getattr(p, "tally", None)
        if tally is not None and tally.match_id and p.team_a and p.team_b:
            names[tally.match_id] = {"A": p.team_a.name, "B": p.team_b.name}
    seats = {
        (table_id, seat): name
        for table_id, seat, name in TableSeat.objects.filter(
            table__matches__id__in=match_ids
        ).values_list("table_id", "seat", "player__name")
    }
    notes: dict[int, list[dict[str, Any]]] = {}
    for deal in (
        Deal.objects.filter(match_id__in=match_ids, status=Deal.Status.FINISHED)
        .select_related("match")
        .order_by("match_id", "number")
    ):
        result = deal.result or {}
        team_names = names.get(deal.match_id, {"A": "A", "B": "B"})
        note: dict[str, Any] = {
            "number": deal.number,
            "points_a": (deal.side_points or {}).get("A", 0),
            "points_b": (deal.side_points or {}).get("B", 0),
        }
        if result.get("outcome") == "escape":
            seat = result.get("seat")
            escaper = seats.get(
                (deal.match.table_id, seat if isinstance(seat, int) else -1), str(seat)
            )
            side = seat_side(deal.match.game, seat) or "B"
            note["text"] = _(
                "%(player)s (%(team)s) escaped (逃跑): the match ended there, and an escape "
                "costs the escaping team %(points)s points (the rules' escape penalty)."
            ) % {
                "player": escaper,
                "team": team_names[side],
                "points": abs((deal.side_points or {}).get(side, 0)),
            }
            note["escape"] = True
        else:
            note["levels_before"] = result.get("levels_before") or {}
            note["levels_after"] = result.get("levels") or {}
            note["text"] = levels_why(result, team_names)
        notes.setdefault(deal.match_id, []).append(note)
    for match in Match.objects.filter(pk__in=match_ids, left_seat__isnull=False):
        team_names = names.get(match.pk, {"A": "A", "B": "B"})
        left = match.left_seat
        assert left is not None  # filtered above
        side = seat_side(match.game, left) or "B"
        played = notes.get(match.pk, [])
        points_a = (match.side_points or {}).get("A", 0) - sum(n["points_a"] for n in played)
        points_b = (match.side_points or {}).get("B", 0) - sum(n["points_b"] for n in played)
        text = _(
            "%(player)s (%(team)s) left the table between deals: the match ended there, and "
            "leaving costs the team %(points)s points, as an escape does."
        ) % {
            "player": seats.get((match.table_id, left), str(left)),
            "team": team_names[side],
            "points": abs(points_a if side == "A" else points_b),
        }
        notes.setdefault(match.pk, []).append(
            {
                "number": len(played) + 1,
                "points_a": points_a,
                "points_b": points_b,
                "text": text,
                "escape": True,
            }
        )
    return notes


def _team_note(note: dict[str, Any], side: str) -> dict[str, Any]:
    """A deal's note as the team page says it: the team's own points and level first, then the
    opponent's, as the match line above it does."""
    other = "B" if side == "A" else "A"
    mine = dict(note)
    mine["points"] = note["points_a"] if side == "A" else note["points_b"]
    mine["opponent_points"] = note["points_b"] if side == "A" else note["points_a"]
    if "levels_after" in note:
        before, after = note["levels_before"], note["levels_after"]
        mine["levels"] = (
            f"{before.get(side, '')} : {before.get(other, '')} → "
            f"{after.get(side, '')} : {after.get(other, '')}"
        )
    return mine


def team_detail(request: HttpRequest, pk: int) -> HttpResponse:
    team = get_object_or_404(Team.objects.select_related("event__meet", "unit"), pk=pk)
    event = visible_event(request, team.event_id)
    members = list(team.members.select_related("player").order_by("order"))
    pairings = list(
        Pairing.objects.filter(round__event=event, round__status__in=["running", "completed"])
        .filter(pk__in=team.round_entries.values("pairing"))
        .select_related("round", "team_a", "team_b", "tally", "table")
        .order_by("round__number")
    )
    match_ids = [p.tally.match_id for p in pairings if hasattr(p, "tally") and p.tally.match_id]
    ladders: dict[int, list[tuple[int, int, int]]] = {}
    figure, start = side_figure(event.game) or "", side_figure_start(event.game)
    for match_id, number, figures in (
        FigureStep.objects.filter(match_id__in=match_ids)
        .order_by("match_id", "deal_number")
        .values_list("match_id", "deal_number", "figures")
    ):
        level = (figures or {}).get(figure)
        if level is not None:
            ladders.setdefault(match_id, []).append((number, level["A"], level["B"]))
    deals = _deal_notes(match_ids, pairings)
    # a duplicate round's deals show once every table has played them
    for match_id, last in duplicate.unpublished_cut(match_ids).items():
        ladders[match_id] = [step for step in ladders.get(match_id, []) if step[0] <= last]
        deals[match_id] = [n for n in deals.get(match_id, []) if n["number"] <= last]
    matches = []
    for p in pairings:
        side = "A" if p.team_a_id == team.pk else "B"
        tally = getattr(p, "tally", None)
        steps = ladders.get(tally.match_id, []) if tally and tally.match_id else []
        mine = [(n, a if side == "A" else b) for n, a, b in steps]
        theirs = [(n, b if side == "A" else a) for n, a, b in steps]
        matches.append(
            {
                "pairing": p,
                "round": p.round,
                "side": side,
                "opponent": p.team_b if side == "A" else p.team_a,
                "tally": tally,
                "points": (tally.points_a if side == "A" else tally.points_b) if tally else 0,
                "opponent_points": (tally.points_b if side == "A" else tally.points_a)
                if tally
                else 0,
                "level": figure_label(event.game, figure, mine[-1][1] if mine else start),
                "opponent_level": figure_label(
                    event.game, figure, theirs[-1][1] if theirs else start
                ),
                "won": bool(tally and tally.winner_side == side),
                "lost": bool(tally and tally.winner_side and tally.winner_side != side),
                "mine": _ladder_svg_points(mine),
                "theirs": _ladder_svg_points(theirs),
                "deals": len(steps) - 1 if steps else 0,
                "ticks": _ladder_ticks(steps),
                "notes": [
                    _team_note(note, side)
                    for note in (deals.get(tally.match_id, []) if tally and tally.match_id else [])
                ],
            }
        )
    byes = team.round_entries.filter(pairing__isnull=True).select_related("round")
    if not event_is_organizer(event=event, user=request.user):
        byes = byes.exclude(round__status=Round.Status.DRAFT)  # a draft is the organizers' alone
    return render(
        request,
        "tournaments/team_detail.html",
        {
            "event": event,
            "team": team,
            "members": members,
            "matches": matches,
            "byes": [e.round for e in byes],
            "levels": [
                (figure_label(event.game, figure, lv), round(112 - 104 * (lv - 2) / 12, 1))
                for lv in (2, 6, 10, 14)
            ],
        },
    )


def player_detail(request: HttpRequest, pk: int, player: int) -> HttpResponse:
    event = visible_event(request, pk)
    member = (
        TeamMember.objects.select_related("player", "team")
        .filter(event=event, player_id=player)
        .first()
    )
    if member is None:  # an individual event's player (or one not yet in a team)
        entry = get_object_or_404(
            Registration.objects.select_related("player"), event=event, player_id=player
        )
    rows = [
        r
        for r in standings_rows_fresh(event, "player")
        if isinstance(r, PlayerRow) and r.player_id == player
    ]
    tallies = (
        PlayerTally.objects.filter(event=event, player_id=player)
        .select_related("tally__pairing__round", "tally__pairing__table")
        .order_by("tally__pairing__round__number")
    )
    units = Unit.objects.filter(memberships__player_id=player)
    live = (
        Pairing.objects.filter(
            round__event=event,
            round__status="running",
            table__mode="online",
            table__seats__player_id=player,
            table__status="playing",
        )
        .select_related("round")
        .first()
    )
    return render(
        request,
        "tournaments/player_detail.html",
        {
            "event": event,
            "player": member.player if member is not None else entry.player,
            "team": member.team if member is not None else None,
            "row": rows[0] if rows else None,
            "tallies": tallies,
            "units": units,
            "live": live,
            "clock": _running_clock(event),
        },
    )
