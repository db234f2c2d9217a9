"""What leaving the table would cost a seat now, in the game's own terms (a read: nothing changes).

Each game settles an escape (逃跑) and a leaving between deals its own way: 大怪路子's escaper pays
18 × the base score, 小路子's three times the plain loss of their role, 上海斗地主's what the others
would win (×1.1 when leaving on purpose), and leaving between deals costs 大怪路子 and 小路子 3 ×
the base score while 上海斗地主 scores nothing for it. The site knows none of this: it asks the
game, by settling the leave on a copy of the match (:meth:`engine.game.MatchState.escape`, and
:meth:`~engine.game.MatchState.leave` on a fresh match of the same options for a leaving between
deals), and words the figures for the confirmation the player sees.
"""

from __future__ import annotations

import copy
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.errors import EngineError
from engine.game import MatchState
from games.models import Deal, Match, Table
from games.play import engine_state

__all__ = ["leave_terms"]


def _cost(before: MatchState, after: MatchState, seat: int) -> int:
    return int(before.points[seat]) - int(after.points[seat])


def _points(cost: int) -> str:
    return ngettext("%(n)s point", "%(n)s points", cost) % {"n": cost}


def _between(engine: MatchState, match: Match, seat: int) -> int | None:
    """What leaving between deals costs ``seat`` under the match's options (None: the game
    refuses it)."""
    game = engine_state.game_of(match)
    fresh = game.new_match(seed=0, options=engine.options, base=engine.base)
    try:
        fresh.leave(seat)
    except EngineError:
        return None
    return -int(fresh.points[seat])


def leave_terms(*, table: Table, seat: int) -> dict[str, Any]:
    """What the seat's confirmed leave would be now: ``kind`` ``escape`` (during a deal),
    ``noted`` (a seat that cannot escape this deal: it leaves between deals if still away when
    the next starts), ``left`` (between deals) or ``none`` (no match going on); ``points``: what it
    costs the seat (between deals for ``noted``); ``text``: the confirmation, in the active
    language."""
    match = Match.objects.filter(table=table, status=Match.Status.PLAYING).first()
    if match is None:
        return {"kind": "none", "points": 0, "text": _("Leave the table?")}
    deal = Deal.objects.filter(match=match, number=match.current_deal).first()
    engine = engine_state.engine_match(match, deal)
    try:
        trial = copy.deepcopy(engine)
    finally:
        engine_state.remember(match, deal, engine)  # unchanged: handed back for the next reader
    between = _between(trial, match, seat)
    if trial.in_deal:
        after = copy.deepcopy(trial)
        try:
            after.escape(seat)
        except EngineError:
            return _noted(between)
        cost = _cost(trial, after, seat)
        text = _(
            "Leave the table? During a deal this is an escape (逃跑): you lose %(points)s and the "
            "match ends. Closing the page is not leaving."
        ) % {"points": _points(cost)}
        return {"kind": "escape", "points": cost, "text": text}
    if between is None:
        return {"kind": "none", "points": 0, "text": _("Leave the table?")}
    if between:
        text = _(
            "Leave the table? Leaving between deals costs you %(points)s and ends the match."
        ) % {"points": _points(between)}
    else:
        text = _("Leave the table? Leaving between deals scores nothing, but it ends the match.")
    return {"kind": "left", "points": between, "text": text}


def _noted(between: int | None) -> dict[str, Any]:
    cost = between or 0
    if cost:
        what = _("you have left between deals (%(points)s) and the match ends") % {
            "points": _points(cost)
        }
    else:
        what = _("you have left between deals, which scores nothing but ends the match")
    text = _(
        "Leave the table? You cannot escape this deal (you have gone out of it, or you watch it), "
        "so it is no escape; if you are still away when the next deal starts, %(what)s."
    ) % {"what": what}
    return {"kind": "noted", "points": cost, "text": text}
