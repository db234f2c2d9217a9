from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from games.signals import match_scored
        from games.tables.access import deal_rule_register, table_rule_register
        from games.tables.context import table_context_register
        from tournaments.duplicate import deals as duplicate
        from tournaments.events.selectors import table_rule
        from tournaments.results.tallies import match_scored_follow
        from tournaments.rounds.table_context import table_context

        # The tables of a private event, or of a draft round, follow the event's visibility.
        table_rule_register(table_rule)
        # A table of a round links back to its event and round, and names its teams.
        table_context_register(table_context)
        # A round's clock: once its time is up, its online tables deal no new deal.
        from games.tables.next_deal import next_deal_rule_register
        from tournaments.rounds.clock import next_deal_rule

        next_deal_rule_register(next_deal_rule)

        # The knockout stage plugs into ordinary rounds: its tables' lengths, the event's final
        # placement, its round log details (tournaments.formats).
        from tournaments import formats
        from tournaments.knockout import log as knockout_log
        from tournaments.knockout import selectors as knockout_selectors

        formats.table_deals_register(knockout_selectors.table_deals)
        formats.final_placement_register(knockout_selectors.final_placement)
        formats.round_log_forms_register(knockout_log.FORMS)

        # The tallies follow every scored row as it is written (no page request rebuilds them).
        match_scored.connect(match_scored_follow, dispatch_uid="tournaments.results.tallies.follow")

        # Duplicate rounds: no table, deal or record shows a deal before every table played it.
        table_rule_register(duplicate.table_rule)
        deal_rule_register(duplicate.deal_rule)
        # Duplicate play plugs into ordinary events: a round's seed, the deals the tallies count,
        # the standings' score and order, the Swiss draw and the meet by it (tournaments.formats).
        from tournaments.duplicate import standings as duplicate_standings

        formats.round_seed_new_register(duplicate.event_deal_seed_new)
        formats.round_seed_register(duplicate.round_deal_seed)
        formats.sheet_entered_register(duplicate.sheet_entered)
        formats.round_watched_register(duplicate.round_watched)
        formats.tally_round_wide_register(duplicate.tally_round_wide)
        formats.tally_matches_publish_register(duplicate.tally_matches_publish)
        formats.tally_deals_publish_register(duplicate.deals_published)
        formats.standings_columns_register(duplicate_standings.standings_columns)
        formats.standings_rows_register(duplicate_standings.standings_rows)
        formats.standings_rank_register(duplicate_standings.standings_rank)

        # What those rules read: a change makes the open sockets check their viewer again.
        from games.tables.access import access_watch
        from tournaments.models import Event, Pairing, Registration, Round, TeamMember

        access_watch(Event, Event.organizers.through, Round, Pairing, Registration, TeamMember)
