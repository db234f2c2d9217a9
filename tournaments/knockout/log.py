"""The knockout stage's round-log details in the reader's language (tournaments.rounds.log asks
these forms first). The services write each detail as a short English note."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.utils.translation import gettext as _


def _seeded(m: re.Match[str]) -> str:
    return _("knockout stage: the top %(count)s seeded") % {"count": m["count"]}


def _seeds(m: re.Match[str]) -> str:
    return _("knockout seeds: %(names)s") % {"names": m["names"]}


def _replaced(m: re.Match[str]) -> str:
    return _("knockout seed %(seed)s: %(out)s replaced by %(next)s") % {
        "seed": m["seed"],
        "out": m["out"],
        "next": m["next"],
    }


def _withdrawn(m: re.Match[str]) -> str:
    return _("knockout stage: the break withdrawn")


def _round(m: re.Match[str]) -> str:
    return _("knockout round %(number)s: %(count)s tables") % {
        "number": m["number"],
        "count": m["count"],
    }


def _tiebreaks(m: re.Match[str]) -> str:
    return _("knockout: tables %(tables)s tied, one more deal each") % {"tables": m["tables"]}


def _walkover(m: re.Match[str]) -> str:
    return _("knockout: table %(table)s awarded; reason: %(reason)s") % {
        "table": m["table"],
        "reason": m["reason"],
    }


FORMS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (re.compile(r"knockout: top (?P<count>\d+) seeded"), _seeded),
    (re.compile(r"knockout: break withdrawn"), _withdrawn),
    (re.compile(r"knockout seeds: (?P<names>.*)"), _seeds),
    (re.compile(r"knockout seed (?P<seed>\d+): (?P<out>.*) -> (?P<next>.*)"), _replaced),
    (re.compile(r"knockout round (?P<number>\d+): (?P<count>\d+) tables"), _round),
    (re.compile(r"knockout walkover: table (?P<table>\d+): (?P<reason>.*)"), _walkover),
    (re.compile(r"knockout tie-break deals: tables (?P<tables>.*)"), _tiebreaks),
)
