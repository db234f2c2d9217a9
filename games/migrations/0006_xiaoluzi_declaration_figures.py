"""小路子's figures gain the declarations made (``declared_won``, 宣牌成功) and the slams won
(``slams``, 全关) per seat (issue 16; docs/xiaoluzi.md, *Figures*). Stored matches and their
figure steps are given both, counted from the stored deals' results, so that ``verify_records``
(which replays every record to these figures) stays clean on rows made before; the silver is
kept as stored. Backwards the two figures are removed again.

The counting is written out here, frozen, as it was when this migration was made (a migration
never imports the engine, which may change): in a deal played to its end (``kind`` "deal"), the
declarer or counter-declarer who went out first made the declaration; in a slam deal every seat
whose multiplier is positive won the slam; escapes and leaving count neither.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

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


def figures_after(results: list[Any]) -> dict[str, dict[str, int]]:
    """``declared_won`` and ``slams`` per seat over ``results``."""
    made, slams = [0, 0, 0, 0], [0, 0, 0, 0]
    for result in results:
        seat, won = deal_counts(result)
        if seat is not None and seat in SEATS:
            made[seat] += 1
        for s in won:
            slams[s] += 1
    return {
        "declared_won": {str(s): v for s, v in enumerate(made)},
        "slams": {str(s): v for s, v in enumerate(slams)},
    }


def forward(apps: Any, schema_editor: Any) -> None:
    Match = apps.get_model("games", "Match")
    Deal = apps.get_model("games", "Deal")
    FigureStep = apps.get_model("games", "FigureStep")
    ids = list(Match.objects.filter(game=GAME).order_by("pk").values_list("pk", flat=True))
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start : start + CHUNK]
        deals: dict[int, list[tuple[int, Any]]] = {m: [] for m in chunk}
        for match_id, number, result in (
            Deal.objects.filter(match_id__in=chunk, status="finished")
            .order_by("match_id", "number")
            .values_list("match_id", "number", "result")
        ):
            deals[match_id].append((number, result))
        matches = list(Match.objects.filter(pk__in=chunk))
        for match in matches:
            match.figures = {
                **(match.figures or {}),
                **figures_after([r for _n, r in deals[match.pk]]),
            }
        Match.objects.bulk_update(matches, ["figures"])
        steps = list(FigureStep.objects.filter(match_id__in=chunk))
        for step in steps:
            before = [r for n, r in deals[step.match_id] if n <= step.deal_number]
            step.figures = {**(step.figures or {}), **figures_after(before)}
        FigureStep.objects.bulk_update(steps, ["figures"], batch_size=CHUNK)


def backward(apps: Any, schema_editor: Any) -> None:
    Match = apps.get_model("games", "Match")
    FigureStep = apps.get_model("games", "FigureStep")
    for model, rows in (
        (Match, Match.objects.filter(game=GAME)),
        (FigureStep, FigureStep.objects.filter(match__game=GAME)),
    ):
        changed = []
        for row in rows.iterator(chunk_size=CHUNK):
            figures = dict(row.figures or {})
            if any(key in figures for key in KEYS):
                for key in KEYS:
                    figures.pop(key, None)
                row.figures = figures
                changed.append(row)
        model.objects.bulk_update(changed, ["figures"], batch_size=CHUNK)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_challenge"),
    ]

    operations = [
        migrations.RunPython(forward, backward, elidable=False),
    ]
