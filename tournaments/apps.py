from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from games.access import deal_rule_register, table_rule_register
        from tournaments import duplicate
        from tournaments.selectors import table_rule

        # The tables of a private event, or of a draft round, follow the event's visibility.
        table_rule_register(table_rule)
        # Duplicate rounds: no table, deal or record shows a deal before every table played it.
        table_rule_register(duplicate.table_rule)
        deal_rule_register(duplicate.deal_rule)
