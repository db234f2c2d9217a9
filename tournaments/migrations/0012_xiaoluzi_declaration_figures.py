"""The tallies of 小路子 matches gain the declarations made (``declared_won``, 宣牌成功) and the
slams won (``slams``, 全关) per player (issue 16; docs/xiaoluzi.md, *Figures*), as
games.0006_xiaoluzi_declaration_figures gave them to the matches: each player tally counts the
deals its tally counted (the match's first ``deals`` finished deals: all of them, or a duplicate
round's published ones), each player total adds up the player's tallies, and a tally whose
fingerprint named the match's old figures names the new ones (so the next refresh finds nothing
to do); the events' results version moves on, so standings cached before are not served.
Backwards the two figures are removed again.

The counting is the one of games.0006, written out here frozen (a migration never imports the
engine or another migration's module, which may change).
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from django.db import migrations
from django.db.models import F

GAME = "xiaoluzi"
KEYS = ("declared_won", "slams")
SEATS = range(4)
CHUNK = 500


def deal_counts(result: Any) -> tuple[int | None, tuple[int, ...]]:
    """The seat that made its declaration in a deal (or None) and the seats that won its slam."""
    if not isinstance(result, dict) or result.get("kind") != "deal":
        return None, ()
    finish = result.get("finish") or []
    first = finish[0] if finish else None
    made = None
    declaring = result.get("mode") in ("declared", "countered")
    if declaring and first is not None and first in (result.get("declarer"), result.get("counter")):
        made = first
    slams: tuple[int, ...] = ()
    if result.get("slam"):
        signs = result.get("multipliers") or result.get("points") or []
        slams = tuple(s for s, m in enumerate(signs) if s in SEATS and m > 0)
    return made, slams


def seat_counts(results: list[Any]) -> dict[int, dict[str, int]]:
    """Each seat's ``declared_won`` and ``slams`` over ``results``."""
    counts = {s: {key: 0 for key in KEYS} for s in SEATS}
    for result in results:
        seat, won = deal_counts(result)
        if seat is not None and seat in SEATS:
            counts[seat]["declared_won"] += 1
        for s in won:
            counts[s]["slams"] += 1
    return counts


def fingerprint(match: Any, figures: dict[str, Any]) -> str:
    """A tally's fingerprint of a match (tournaments.tallies) with ``figures``."""
    points = ",".join(str(p) for p in match.points or [])
    text = json.dumps(figures or {}, sort_keys=True, separators=(",", ":"))
    return (f"{match.pk}:{match.status}:{match.current_deal}:{points}:{text}:{match.winner}")[:200]


def forward(apps: Any, schema_editor: Any) -> None:
    Match = apps.get_model("games", "Match")
    Deal = apps.get_model("games", "Deal")
    PairingTally = apps.get_model("tournaments", "PairingTally")
    PlayerTally = apps.get_model("tournaments", "PlayerTally")
    tally_ids = list(
        PairingTally.objects.filter(match__game=GAME).order_by("pk").values_list("pk", flat=True)
    )
    touched: set[tuple[int, int]] = set()
    for start in range(0, len(tally_ids), CHUNK):
        tallies = list(PairingTally.objects.filter(pk__in=tally_ids[start : start + CHUNK]))
        matches = {m.pk: m for m in Match.objects.filter(pk__in={t.match_id for t in tallies})}
        results: dict[int, list[Any]] = defaultdict(list)
        for match_id, result in (
            Deal.objects.filter(match_id__in=list(matches), status="finished")
            .order_by("match_id", "number")
            .values_list("match_id", "result")
        ):
            results[match_id].append(result)
        counts = {t.pk: seat_counts(results[t.match_id][: t.deals]) for t in tallies}
        players = list(PlayerTally.objects.filter(tally_id__in=list(counts)))
        for p in players:
            p.figures = {**(p.figures or {}), **counts[p.tally_id][p.seat]}
            touched.add((p.event_id, p.player_id))
        PlayerTally.objects.bulk_update(players, ["figures"], batch_size=CHUNK)
        renamed = []
        for tally in tallies:
            match = matches[tally.match_id]
            old = {k: v for k, v in (match.figures or {}).items() if k not in KEYS}
            if tally.fingerprint and tally.fingerprint == fingerprint(match, old):
                tally.fingerprint = fingerprint(match, match.figures)
                renamed.append(tally)
        PairingTally.objects.bulk_update(renamed, ["fingerprint"], batch_size=CHUNK)
    totals_rebuild(apps, touched, keep=True)


def totals_rebuild(apps: Any, touched: set[tuple[int, int]], *, keep: bool) -> None:
    """Each touched (event, player)'s total of the two figures: the sum over the player's tallies
    of the event (``keep``), or none (backwards)."""
    PlayerTally = apps.get_model("tournaments", "PlayerTally")
    PlayerTotal = apps.get_model("tournaments", "PlayerTotal")
    events = {e for e, _p in touched}
    sums: dict[tuple[int, int], dict[str, int]] = defaultdict(lambda: {k: 0 for k in KEYS})
    if keep:
        for event_id, player_id, figures in PlayerTally.objects.filter(
            event_id__in=events
        ).values_list("event_id", "player_id", "figures"):
            if (event_id, player_id) in touched:
                for key in KEYS:
                    sums[(event_id, player_id)][key] += int((figures or {}).get(key, 0))
    changed = []
    for total in PlayerTotal.objects.filter(event_id__in=events):
        if (total.event_id, total.player_id) not in touched:
            continue
        figures = {k: v for k, v in (total.figures or {}).items() if k not in KEYS}
        if keep:
            figures.update(sums[(total.event_id, total.player_id)])
        total.figures = figures
        changed.append(total)
    PlayerTotal.objects.bulk_update(changed, ["figures"], batch_size=CHUNK)
    # the standings' cached rows are keyed by the results version: show the change now
    apps.get_model("tournaments", "Event").objects.filter(pk__in=events).update(
        results_version=F("results_version") + 1
    )


def backward(apps: Any, schema_editor: Any) -> None:
    Match = apps.get_model("games", "Match")
    PairingTally = apps.get_model("tournaments", "PairingTally")
    PlayerTally = apps.get_model("tournaments", "PlayerTally")
    touched: set[tuple[int, int]] = set()
    players = []
    for p in PlayerTally.objects.filter(tally__match__game=GAME).iterator(chunk_size=CHUNK):
        p.figures = {k: v for k, v in (p.figures or {}).items() if k not in KEYS}
        players.append(p)
        touched.add((p.event_id, p.player_id))
    PlayerTally.objects.bulk_update(players, ["figures"], batch_size=CHUNK)
    renamed = []
    tallies = list(PairingTally.objects.filter(match__game=GAME))
    matches = {m.pk: m for m in Match.objects.filter(pk__in={t.match_id for t in tallies})}
    for tally in tallies:
        match = matches[tally.match_id]
        old = {k: v for k, v in (match.figures or {}).items() if k not in KEYS}
        if tally.fingerprint and tally.fingerprint == fingerprint(match, match.figures):
            tally.fingerprint = fingerprint(match, old)
            renamed.append(tally)
    PairingTally.objects.bulk_update(renamed, ["fingerprint"], batch_size=CHUNK)
    totals_rebuild(apps, touched, keep=False)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0011_draws_registration_withdrawn"),
        ("games", "0006_xiaoluzi_declaration_figures"),
    ]

    operations = [
        migrations.RunPython(forward, backward, elidable=False),
    ]
