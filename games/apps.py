from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Card room")

    def ready(self) -> None:
        from games import challenge
        from games.access import table_rule_register

        challenge.connect()  # a challenge's points are stored when its deal ends
        # A challenge's table is no more public than the table of the deal it plays again.
        table_rule_register(challenge.table_rule)
