"""The project's own app configs are the ones Django installs: ConfigConfig's ready() registers
the system checks and the extra games (a second AppConfig in config/apps.py once made Django fall
back to a plain AppConfig, and Celery workers no longer knew LUZI_EXTRA_GAMES)."""

from __future__ import annotations

from django.apps import apps
from django.utils import translation

from config.apps import ConfigConfig


def test_the_config_app_is_configconfig_and_axes_is_named_in_the_pages_language() -> None:
    assert type(apps.get_app_config("config")) is ConfigConfig
    with translation.override("zh-hans"):
        assert str(apps.get_app_config("axes").verbose_name) == "登录保护"
    with translation.override("en"):
        assert str(apps.get_app_config("axes").verbose_name) == "Login protection"
