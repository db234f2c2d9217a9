"""WSGI entry point (gunicorn config.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()

from config.checks import refuse_development_secret_key  # noqa: E402  (after Django's set-up)

refuse_development_secret_key()  # never serve with the public development key and DEBUG off
