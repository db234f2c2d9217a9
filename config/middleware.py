"""Request hygiene before any view: the visitor's language, and the refusal of NUL characters."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse, UnreadablePostError
from django.http.multipartparser import MultiPartParserError
from django.http.response import HttpResponseBase
from django.middleware.locale import LocaleMiddleware
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext as _


def request_language(request: HttpRequest) -> str:
    """The language a request is answered in: the one its visitor chose (set_language's cookie),
    else LANGUAGE_CODE (zh-hans), never the browser's Accept-Language."""
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    if chosen:
        try:
            return translation.get_supported_language_variant(chosen)
        except LookupError:
            pass
    return settings.LANGUAGE_CODE


class ChineseFirstLocaleMiddleware(LocaleMiddleware):
    """Like Django's LocaleMiddleware, but without consulting the browser's Accept-Language: the
    site speaks LANGUAGE_CODE (zh-hans) until the user switches (set_language's cookie).
    """

    def process_request(self, request: HttpRequest) -> None:
        setattr(request, "_language_before", translation.get_language())  # noqa: B010
        translation.activate(request_language(request))
        request.LANGUAGE_CODE = translation.get_language()

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        """Django's headers, then the thread's language as it was before the request: a request in
        English no longer leaves English active for what the thread does next (a task run in
        place, a test's next call)."""
        response = super().process_response(request, response)
        before = getattr(request, "_language_before", None)
        if before:
            translation.activate(before)
        else:
            translation.deactivate()
        return response


#: ``\u0000`` inside a JSON string: an odd run of backslashes before ``u0000`` (an even run is
#: escaped backslashes followed by the plain text "u0000"), or a raw NUL byte.
_JSON_NUL = re.compile(rb"(?<!\\)(?:\\\\)*\\u0000|\x00")
_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _is_json(content_type: str) -> bool:
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or media.endswith("+json")


def _has_nul(request: HttpRequest) -> bool:
    """Whether any text of ``request`` that reaches the site's code holds a NUL character: the
    path, the query string, a cookie, a form field or a JSON body."""
    if "\x00" in request.path or "\x00" in request.META.get("QUERY_STRING", ""):
        return True
    if any("\x00" in k or "\x00" in v for k, v in request.COOKIES.items()):
        return True
    if any("\x00" in k or any("\x00" in v for v in vs) for k, vs in request.GET.lists()):
        return True
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return False
    content_type = request.META.get("CONTENT_TYPE", "")
    if _is_json(content_type):
        return bool(_JSON_NUL.search(request.body))
    if content_type.split(";", 1)[0].strip().lower() in _FORM_TYPES:
        return any("\x00" in k or any("\x00" in v for v in vs) for k, vs in request.POST.lists())
    return False


class RefuseNulMiddleware:
    """Answer 400, with a message, a request whose path, query string, cookies, form fields or
    JSON body hold a NUL character (``%00``, ``"\\u0000"``).

    No text on the site may hold one, and PostgreSQL refuses to store or even compare it (a
    DataError, which was a 500 at every place a text reached a query: a path parameter, an
    admin filter, a form's reason). Refused here, before any view, it never reaches one.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # A body over DATA_UPLOAD_MAX_MEMORY_SIZE (RequestDataTooBig) or of too many fields is
        # raised on: the handler400 of config/exceptions.py answers it (413 in JSON under /api/).
        try:
            refused = _has_nul(request)
        except UnreadablePostError:
            refused = False  # the client went away: left to the view, as before
        except MultiPartParserError:
            return self._refuse(request, nul=False)
        if not refused:
            return self.get_response(request)
        return self._refuse(request, nul=True)

    @staticmethod
    def _refuse(request: HttpRequest, *, nul: bool) -> HttpResponse:
        with translation.override(request_language(request)):
            if nul:
                message = _("The request holds a NUL character, which no text here may hold.")
            else:
                message = _("The request could not be understood.")
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": message}, status=400)
            return render(request, "400.html", {"message": message}, status=400)


#: The site's pages load only their own scripts, styles and images (no inline script, style or
#: handler anywhere: templates/ and static/ keep them in files), talk only to their own origin
#: (fetch and the table's WebSocket), and are framed by nobody.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
#: Paths whose answers are private even to an anonymous visitor: the API (a table's state holds
#: the viewer's hand) and the accounts pages (a login code, prefilled from its link).
PRIVATE_PREFIXES = ("/api/", "/accounts/")


class SecurityHeadersMiddleware:
    """A Content-Security-Policy on every answer, and ``Cache-Control: no-store`` on every
    answer that may carry private data (to a logged-in user, under /api/ or /accounts/), so
    that neither a shared cache nor the browser's history keeps a hand or a login code."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        user = getattr(request, "user", None)
        if (user is not None and user.is_authenticated) or request.path.startswith(
            PRIVATE_PREFIXES
        ):
            response["Cache-Control"] = "no-store"
            response.headers.pop("Expires", None)
        return response
