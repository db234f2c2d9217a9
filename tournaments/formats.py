"""Event formats that plug into an ordinary event: the knockout stage and duplicate play say here
what they change of it, as games.tables.context lets an app name a table's place. The core rooms
(results, standings, rounds, draw) ask these hooks and never import a format; each format registers
its answers when the app is ready (tournaments.apps). With nothing registered an event is ordinary:
every table plays the event's deals and deals its own, the tallies count every deal played, the
standings rank by points, the final placement is the standings', and the round log has only its
own forms (docs/architecture.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from games.models import Match
    from tournaments.common.standings_rows import StandingsRow
    from tournaments.models import Event, Pairing, Round

#: a round log form: a detail's pattern and how the reader's language says it
LogForm = tuple[re.Pattern[str], Callable[[re.Match[str]], str]]


@dataclass(frozen=True, slots=True)
class Placement:
    """A place in an event's final placement as a format decides it (the knockout stage: its
    places first, then the group stage's order). ``final``: the place can no longer change."""

    place: int
    entrant: int  # a team's id, or a player's (individual events)
    stage: str  # "knockout" or "group"
    tied: bool
    final: bool
    seed: int | None = None


_table_deals: list[Callable[[int], int | None]] = []
_placements: list[Callable[[Event], list[Placement] | None]] = []
_log_forms: list[LogForm] = []


def table_deals_register(hook: Callable[[int], int | None]) -> None:
    """``hook(pairing_id)``: the deals that table plays, or None where the format has no say."""
    if hook not in _table_deals:
        _table_deals.append(hook)


def table_deals(pairing: int, default: int) -> int:
    """The deals table ``pairing``'s match is played for: a format's (a knockout match's own
    length, one for a tie-break table), else ``default`` (the event's)."""
    for hook in _table_deals:
        deals = hook(pairing)
        if deals is not None:
            return deals
    return default


def final_placement_register(hook: Callable[[Event], list[Placement] | None]) -> None:
    """``hook(event)``: the event's final placement, or None where the format has no say."""
    if hook not in _placements:
        _placements.append(hook)


def final_placement(event: Event) -> list[Placement] | None:
    """The event's final placement as a format decides it; None: the standings decide it."""
    for hook in _placements:
        placement = hook(event)
        if placement is not None:
            return placement
    return None


def round_log_forms_register(forms: Sequence[LogForm]) -> None:
    """A format's own round log details, said in the reader's language (tournaments.rounds.log)."""
    for form in forms:
        if form not in _log_forms:
            _log_forms.append(form)


def round_log_forms() -> tuple[LogForm, ...]:
    """The formats' round log forms, in the order they registered."""
    return tuple(_log_forms)


# --- a round's deals -----------------------------------------------------------------------------

_round_seeds_new: list[Callable[[Event], int | None]] = []
_round_seeds: list[Callable[[Round], int | None]] = []
_sheets_entered: list[Callable[[Pairing, Match], None]] = []
_rounds_watched: list[Callable[[Round], bool | None]] = []


def round_seed_new_register(hook: Callable[[Event], int | None]) -> None:
    """``hook(event)``: the deal seed a new round of the event is created with (duplicate play
    draws it then, so its deal sheets show before the round starts), or None where it has no
    say."""
    if hook not in _round_seeds_new:
        _round_seeds_new.append(hook)


def round_seed_new(event: Event) -> int | None:
    """The deal seed a new round of ``event`` is created with; None: each table deals its own."""
    for hook in _round_seeds_new:
        seed = hook(event)
        if seed is not None:
            return seed
    return None


def round_seed_register(hook: Callable[[Round], int | None]) -> None:
    """``hook(round)``: the seed every table of the round deals from, or None where the format
    has no say (the caller holds the round's row lock: a hook may record the seed it draws)."""
    if hook not in _round_seeds:
        _round_seeds.append(hook)


def round_seed(round: Round) -> int | None:
    """The seed every online table of ``round`` starts its match from; None: each its own."""
    for hook in _round_seeds:
        seed = hook(round)
        if seed is not None:
            return seed
    return None


def sheet_entered_register(hook: Callable[[Pairing, Match], None]) -> None:
    """``hook(pairing, match)``: an offline table's score sheet was entered as ``match`` (duplicate
    play records which of the round's deals each entered deal was)."""
    if hook not in _sheets_entered:
        _sheets_entered.append(hook)


def sheet_entered(pairing: Pairing, match: Match) -> None:
    """Tell every format that ``pairing``'s score sheet was entered as ``match``."""
    for hook in _sheets_entered:
        hook(pairing, match)


def round_watched_register(hook: Callable[[Round], bool | None]) -> None:
    """``hook(round)``: whether the public may watch the round's tables live, or None where the
    format has no say."""
    if hook not in _rounds_watched:
        _rounds_watched.append(hook)


def round_watched(round: Round) -> bool:
    """Whether the round's playing tables are shown as watchable live (duplicate play: not while
    the round runs, since a table's deals are those every other table still plays)."""
    for hook in _rounds_watched:
        found = hook(round)
        if found is not None:
            return found
    return True


# --- the tallies ---------------------------------------------------------------------------------

#: ``hook(pairings, latest, full)``: see :func:`tally_matches_publish`
TallyPublish = Callable[[Sequence[Mapping[str, Any]], dict[int, dict[str, Any]], bool], None]
#: ``hook(deals, latest)``: see :func:`tally_deals_publish`
TallyDeals = Callable[[Mapping[int, list[dict[str, Any]]], Mapping[int, dict[str, Any]]], None]

_tally_matches: list[TallyPublish] = []
_tally_deals: list[TallyDeals] = []
_tally_rounds: list[Callable[[Mapping[str, Any]], bool | None]] = []


def tally_round_wide_register(hook: Callable[[Mapping[str, Any]], bool | None]) -> None:
    """``hook(pairing)``: whether a deal scored at the pairing's table may change the tally of
    every table of its round, or None where the format has no say."""
    if hook not in _tally_rounds:
        _tally_rounds.append(hook)


def tally_round_wide(pairing: Mapping[str, Any]) -> bool:
    """Whether a deal scored at ``pairing``'s table (a row with ``round_id`` and
    ``round__event__duplicate``) refreshes every tally of its round (duplicate play: the deal may
    be the last one every table had to play, which publishes it everywhere) or its own alone."""
    for hook in _tally_rounds:
        found = hook(pairing)
        if found is not None:
            return found
    return False


def tally_matches_publish_register(hook: TallyPublish) -> None:
    """A format that shows a table's match only as far as it is published (duplicate play: a deal
    counts once every table of the round has played it)."""
    if hook not in _tally_matches:
        _tally_matches.append(hook)


def tally_matches_publish(
    pairings: Sequence[Mapping[str, Any]], latest: dict[int, dict[str, Any]], *, full: bool
) -> None:
    """tournaments.results.tallies: let each format replace, in ``latest`` (each table's counted
    match, by table), the matches of ``pairings`` by what the tallies may count of them (a match
    given a ``fingerprint`` is tallied by it; ``published`` names its last deal counted). Without
    ``full`` a format only says whether a tally is stale."""
    for hook in _tally_matches:
        hook(pairings, latest, full)


def tally_deals_publish_register(hook: TallyDeals) -> None:
    """A format that cuts the deals a tally counts (see :func:`tally_matches_publish`)."""
    if hook not in _tally_deals:
        _tally_deals.append(hook)


def tally_deals_publish(
    deals: Mapping[int, list[dict[str, Any]]], latest: Mapping[int, dict[str, Any]]
) -> None:
    """tournaments.results.tallies: let each format drop from ``deals`` (by match) those the
    tallies may not count yet."""
    for hook in _tally_deals:
        hook(deals, latest)


# --- the standings -------------------------------------------------------------------------------

_standings_columns: list[Callable[[Event, str, tuple[str, ...]], tuple[str, ...] | None]] = []
_standings_rows: list[Callable[[Event, str, list[StandingsRow]], list[StandingsRow] | None]] = []
_standings_rank: list[Callable[[Event], bool | None]] = []


def standings_columns_register(
    hook: Callable[[Event, str, tuple[str, ...]], tuple[str, ...] | None],
) -> None:
    """``hook(event, kind, columns)``: the columns of the event's ``kind`` standings with the
    format's own, or None where the format has no say."""
    if hook not in _standings_columns:
        _standings_columns.append(hook)


def standings_columns(event: Event, kind: str, columns: tuple[str, ...]) -> tuple[str, ...]:
    """The columns of the event's ``kind`` standings: a format's, else ``columns``."""
    for hook in _standings_columns:
        found = hook(event, kind, columns)
        if found is not None:
            return found
    return columns


def standings_rows_register(
    hook: Callable[[Event, str, list[StandingsRow]], list[StandingsRow] | None],
) -> None:
    """``hook(event, kind, rows)``: the event's ``kind`` standings as the format ranks them (from
    the ordinary ``rows``), or None where the format has no say."""
    if hook not in _standings_rows:
        _standings_rows.append(hook)


def standings_rows(event: Event, kind: str, rows: list[StandingsRow]) -> list[StandingsRow]:
    """The event's ``kind`` standings rows: a format's (duplicate play: with the duplicate score,
    ranked by it), else the ordinary ``rows``."""
    for hook in _standings_rows:
        found = hook(event, kind, rows)
        if found is not None:
            return found
    return rows


def standings_rank_register(hook: Callable[[Event], bool | None]) -> None:
    """``hook(event)``: whether the format ranks the event by its own standings rows (see
    :func:`standings_rank`), or None where it has no say."""
    if hook not in _standings_rank:
        _standings_rank.append(hook)


def standings_rank(event: Event) -> bool:
    """Whether the event is ranked by its standings rows as a format ranks them (duplicate play:
    by the duplicate score): then the Swiss draw takes its entrants in that order and the meet
    places its teams (units) so. False: the ordinary standings rank it."""
    for hook in _standings_rank:
        found = hook(event)
        if found is not None:
            return found
    return False
