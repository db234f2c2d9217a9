"""A rating history drawn as SVG on the server (no script, no CDN): the polyline's points and
the axis marks, scaled into a fixed view box."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIDTH, HEIGHT, PAD = 320, 120, 24


@dataclass(frozen=True, slots=True)
class Chart:
    points: str  # "x,y x,y ..." for <polyline points>
    low: int
    high: int
    matches: int
    width: int = WIDTH
    height: int = HEIGHT
    pad: int = PAD


def history_chart(values: Sequence[int]) -> Chart | None:
    """The chart of ``values`` (a rating after each match, in order), None with fewer than two.

    >>> history_chart([1500, 1520, 1510]).points
    '24.0,96.0 160.0,24.0 296.0,60.0'
    """
    if len(values) < 2:
        return None
    low, high = min(values), max(values)
    span = (high - low) or 1
    step = (WIDTH - 2 * PAD) / (len(values) - 1)
    coords = []
    for i, value in enumerate(values):
        x = PAD + i * step
        y = HEIGHT - PAD - (value - low) / span * (HEIGHT - 2 * PAD)
        coords.append(f"{x:.1f},{y:.1f}")
    return Chart(points=" ".join(coords), low=low, high=high, matches=len(values))
