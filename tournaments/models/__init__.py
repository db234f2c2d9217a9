"""Tournament data, one module per room (Django finds every model through this package, and the
rest of the site imports models from here):

* :mod:`~tournaments.models.events`: units, memberships, meets, events, teams, registrations;
* :mod:`~tournaments.models.rounds`: rounds, their tables (pairings), entries and log;
* :mod:`~tournaments.models.results`: tallies, running totals, offline results;
* :mod:`~tournaments.models.knockout`: the knockout stage;
* :mod:`~tournaments.models.staff`: an event's referees;
* :mod:`~tournaments.models.sheets`: deals entered at the table by its players;
* :mod:`~tournaments.models.checkin`: check-ins before a round.
"""

from tournaments.models.checkin import CheckIn
from tournaments.models.events import (
    DuplicateScoring,
    Event,
    EventStatus,
    Meet,
    Membership,
    PairingFormat,
    Registration,
    Team,
    TeamMember,
    TieBreak,
    Unit,
    UnitKind,
    default_placement_points,
    default_tie_break_order,
    game_choices,
)
from tournaments.models.knockout import KnockoutEntrant, KnockoutMatch, KnockoutStage
from tournaments.models.results import (
    PairingTally,
    PlayerTally,
    PlayerTotal,
    ResultStatus,
    ResultSubmission,
    TallyStatus,
)
from tournaments.models.rounds import (
    Pairing,
    Round,
    RoundAction,
    RoundClock,
    RoundEntry,
    RoundLog,
    RoundStatus,
)
from tournaments.models.sheets import SheetDeal, SheetDealStatus
from tournaments.models.staff import EventReferee

__all__ = [
    "CheckIn",
    "DuplicateScoring",
    "Event",
    "EventReferee",
    "EventStatus",
    "KnockoutEntrant",
    "KnockoutMatch",
    "KnockoutStage",
    "Meet",
    "Membership",
    "Pairing",
    "PairingFormat",
    "PairingTally",
    "PlayerTally",
    "PlayerTotal",
    "Registration",
    "ResultStatus",
    "ResultSubmission",
    "Round",
    "RoundAction",
    "RoundClock",
    "RoundEntry",
    "RoundLog",
    "RoundStatus",
    "SheetDeal",
    "SheetDealStatus",
    "TallyStatus",
    "Team",
    "TeamMember",
    "TieBreak",
    "Unit",
    "UnitKind",
    "default_placement_points",
    "default_tie_break_order",
    "game_choices",
]
