import os

from django.apps import AppConfig


class ConfigConfig(AppConfig):
    """Project-wide pieces that are no domain app: system checks, management commands, templates."""

    name = "config"
    verbose_name = "Luzi"

    def ready(self) -> None:
        from config import checks  # noqa: F401  (registers the system checks)

        games_register_extra(os.environ.get("LUZI_EXTRA_GAMES", ""))


def games_register_extra(spec: str) -> list[str]:
    """Register the games named in ``spec`` ("key=module,key=module": a package's module with a
    ``GAME``) beside the built-in ones, in every process that reads the setting (web, workers);
    returns their keys. Raises ImproperlyConfigured for a malformed entry."""
    from django.core.exceptions import ImproperlyConfigured

    from engine.registry import register

    keys = []
    for item in filter(None, (part.strip() for part in spec.split(","))):
        key, _sep, module = (piece.strip() for piece in item.partition("="))
        if not key or not module:
            raise ImproperlyConfigured(
                f"LUZI_EXTRA_GAMES: {item!r} is not key=module (e.g. toy=tests.toygame)"
            )
        try:
            register(key, module)
        except ValueError as exc:
            raise ImproperlyConfigured(f"LUZI_EXTRA_GAMES: {exc}") from None
        keys.append(key)
    return keys
