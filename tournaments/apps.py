from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from games.access import table_rule_register
        from tournaments.selectors import table_rule

        # The tables of a private event, or of a draft round, follow the event's visibility.
        table_rule_register(table_rule)
