"""Stored names as people read them: a practice table's and a practice bot's names are stored the
same in every language and shown in the reader's (the models ask here; nothing of games below)."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _

#: The stored name of a practice table (the same in every language; shown by :func:`table_title`)
PRACTICE_NAME = "Practice · {name}"


#: The stored name of a practice table's bot
BOT_NAME = "Bot {number}"


# also the names stored before they were language-neutral (in the creator's language)
_PRACTICE = re.compile(r"^(?:Practice|练习) · (?P<name>.+)$")


def table_title(name: str) -> str:
    """A table's stored name as its page shows it in the active language (a practice table's
    name is stored the same in every language)."""
    found = _PRACTICE.match(name)
    if found is None:
        return name
    return _("Practice · %(name)s") % {"name": found["name"]}
