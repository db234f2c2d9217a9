from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Card room")

    def ready(self) -> None:
        from games.models import Challenge, Match, Player, TableSeat
        from games.replay import challenge
        from games.tables.access import access_watch, table_rule_register

        challenge.connect()  # a challenge's points are stored when its deal ends
        # A challenge's table is no more public than the table of the deal it plays again.
        table_rule_register(challenge.table_rule)
        # Open sockets check their viewer again after a change of who sits where (a player's
        # account too), of a challenge, or a new match (a duplicate round's tables close while
        # one plays); a match's other saves are its moves.
        access_watch(TableSeat, Player, Challenge)
        access_watch(Match, created_only=True)
