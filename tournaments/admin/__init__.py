"""Admin for tournaments, one module per room: the organizer's reach (scope), meets and events,
rounds and results, players, and the knockout stage (read-only). Django's admin discovers this
package; importing it registers every admin."""

from tournaments.admin import events, knockout, players, rounds, scope

__all__ = ["events", "knockout", "players", "rounds", "scope"]
