"""The round log's details in the reader's language.

The services write each detail once, as a short English note with figures ("online matches
started: 8", "Swiss: 8 tables, bye: 研发一队", "Swiss: 4 tables, unavoidable repeated tablemates:
2", "table 3 v2: wrong order"); the dashboard shows it
in the language of the page. A note of another form is shown as written.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournaments.formats import round_log_forms
from tournaments.models import Event

_STARTED = re.compile(r"online matches started: (\d+)")
_PAIRED = re.compile(
    r"(?P<format>[^:]+): (?P<tables>\d+) tables"
    r"(?:, bye: (?P<bye>.+?))?"
    r"(?:, byes: (?P<byes>.+?))?"
    r"(?:, bots: (?P<bots>\d+))?"
    r"(?:, unavoidable rematches: (?P<rematches>\d+))?"
    r"(?:, unavoidable repeated tablemates: (?P<repeats>\d+))?"
    r"(?:, same-unit tables: (?P<same>\d+))?"
    r"(?:, same-unit tablemates: (?P<mates>\d+))?"
)
_MANUAL = "manual: an organizer sets the tables"
_EDITED = re.compile(r"tables: (?P<tables>.*); byes: (?P<byes>\d+)")
_FORCED = re.compile(r"forced; unfinished tables: \[(?P<tables>[\d, ]*)\](?:; (?P<reason>.*))?")
_CLOCK = re.compile(
    r"clock: (?:started, (?P<length>\d+) min|(?P<paused>paused)|(?P<resumed>resumed)"
    r"|\+(?P<added>\d+) min)"
)
_VERSION = re.compile(r"table (?P<table>\d+) v(?P<version>\d+)(?:: (?P<reason>.*))?")


def _pairing_format(name: str) -> str:
    """The pairing format's name in the current language, whichever language it was written in."""
    for value, label in Event.PairingFormat.choices:
        for language in ("zh-hans", "en"):
            with translation.override(language):
                written = str(label)
            if written == name:
                return str(Event.PairingFormat(value).label)
    return name


def _started(m: re.Match[str]) -> str:
    return _("online matches started: %(count)s") % {"count": m.group(1)}


def _paired(m: re.Match[str]) -> str:
    parts = [
        _("%(format)s: %(count)s tables")
        % {"format": _pairing_format(m["format"]), "count": m["tables"]}
    ]
    if m["bye"]:
        parts.append(_("bye: %(team)s") % {"team": m["bye"]})
    if m["byes"]:
        parts.append(_("byes: %(players)s") % {"players": m["byes"]})
    if m["bots"]:
        parts.append(_("seats filled with bots: %(count)s") % {"count": m["bots"]})
    if m["rematches"]:
        parts.append(_("unavoidable rematches: %(count)s") % {"count": m["rematches"]})
    if m["repeats"]:
        parts.append(_("unavoidable repeated tablemates: %(count)s") % {"count": m["repeats"]})
    if m["same"]:
        parts.append(_("tables of one unit: %(count)s") % {"count": m["same"]})
    if m["mates"]:
        parts.append(_("tablemates of one unit: %(count)s") % {"count": m["mates"]})
    return _("; ").join(parts)


def _listed(text: str) -> str:
    """A list the note wrote with ", ", with the page's language's separator (、 in Chinese)."""
    return text.replace(", ", pgettext("list separator", ", "))


def _edited(m: re.Match[str]) -> str:
    return _("tables: %(tables)s; byes: %(byes)s") % {
        "tables": _listed(m["tables"]),
        "byes": m["byes"],
    }


def _forced(m: re.Match[str]) -> str:
    text = _("completed with unfinished tables: %(tables)s") % {"tables": _listed(m["tables"])}
    if m["reason"]:
        text += _("; reason: %(reason)s") % {"reason": m["reason"]}
    return text


def _version(m: re.Match[str]) -> str:
    text = _("table %(table)s, version %(version)s") % {
        "table": m["table"],
        "version": m["version"],
    }
    if m["reason"]:
        text += _("; reason: %(reason)s") % {"reason": m["reason"]}
    return text


def _clock(m: re.Match[str]) -> str:
    if m["length"]:
        return _("clock started: %(minutes)s min") % {"minutes": m["length"]}
    if m["paused"]:
        return _("clock paused")
    if m["resumed"]:
        return _("clock resumed")
    return _("clock extended: +%(minutes)s min") % {"minutes": m["added"]}


_FORMS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (_STARTED, _started),
    (_CLOCK, _clock),
    (_FORCED, _forced),
    (_VERSION, _version),
    (_EDITED, _edited),
    (_PAIRED, _paired),
)


def log_detail(detail: str) -> str:
    """``detail`` as the reader's language says it (unknown forms unchanged)."""
    if detail == _MANUAL:
        return _("manual: an organizer sets the tables")
    for pattern, say in (*round_log_forms(), *_FORMS):
        match = pattern.fullmatch(detail)
        if match is not None:
            return say(match)
    return detail
