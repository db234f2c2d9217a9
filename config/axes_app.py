"""django-axes as the site installs it: named in the admin in the page's language (its own name
is "Axes"). A module of its own: a second AppConfig in config/apps.py would stop Django from
choosing ConfigConfig for the "config" app, and its ready() (system checks, extra games) would
not run."""

from axes.apps import AppConfig as AxesAppConfig
from django.utils.translation import gettext_lazy as _


class AxesConfig(AxesAppConfig):
    verbose_name = _("Login protection")
