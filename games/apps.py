from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Card room")

    def ready(self) -> None:
        from games import challenge

        challenge.connect()  # a challenge's points are stored when its deal ends
