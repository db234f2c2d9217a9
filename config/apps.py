from django.apps import AppConfig


class ConfigConfig(AppConfig):
    """Project-wide pieces that are no domain app: system checks, management commands, templates."""

    name = "config"
    verbose_name = "Luzi"

    def ready(self) -> None:
        from config import checks  # noqa: F401  (registers the system checks)
