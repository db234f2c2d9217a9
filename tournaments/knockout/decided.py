"""How a knockout match was decided (the bracket page says it in words)."""

from __future__ import annotations

#: how a match was decided (the bracket page says it in words)
DECIDED_PASSED_A = "passed_a"


DECIDED_LEVELS = "levels"


DECIDED_POINTS = "points"


DECIDED_TIEBREAK = "tiebreak_deal"


DECIDED_LAST_FINISH = "last_deal_finish"


DECIDED_SEED = "seed"


DECIDED_WALKOVER = "walkover"
