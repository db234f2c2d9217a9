"""Language selection: Simplified Chinese for everyone until they pick another language."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.middleware.locale import LocaleMiddleware
from django.utils import translation


class ChineseFirstLocaleMiddleware(LocaleMiddleware):
    """Like Django's LocaleMiddleware, but without consulting the browser's Accept-Language: the
    site speaks LANGUAGE_CODE (zh-hans) until the user switches (set_language's cookie).
    """

    def process_request(self, request: HttpRequest) -> None:
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        language = settings.LANGUAGE_CODE
        if chosen:
            try:
                language = translation.get_supported_language_variant(chosen)
            except LookupError:
                language = settings.LANGUAGE_CODE
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()
