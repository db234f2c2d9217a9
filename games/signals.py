"""What the games tell the apps that build on them, without knowing those apps.

``match_scored`` is sent inside the writing transaction, once a match's scored rows are all
written: a deal finished, the match ended (or a seat left it), an offline sheet entered or
replaced. ``match`` is the Match. A tournament listens and brings its tallies up to date in the
same transaction, so no page has to (issue 28: reads never write).
"""

from __future__ import annotations

from django.dispatch import Signal

__all__ = ["match_scored"]

match_scored = Signal()
