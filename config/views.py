"""Project-level views: the health endpoint, the operators' figures."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseForbidden, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from config import metrics
from config.health import check_broker, check_database, check_worker


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 with each check when the database and the broker are reachable and no live match has
    stalled (the worker makes progress), else 503 naming what failed."""
    database = check_database()
    results = [database, check_broker()]
    if database.ok:
        results.append(check_worker())
    failed = [r.name for r in results if not r.ok]
    body = {
        "status": "fail" if failed else "ok",
        "failed": failed,
        "checks": {r.name: r.as_dict() for r in results},
    }
    return JsonResponse(body, status=503 if failed else 200)


def metrics_allowed(request: HttpRequest) -> bool:
    """Whether ``request`` may read /metrics: a staff user's session, or ``Authorization: Bearer
    <LUZI_METRICS_TOKEN>`` (compared in constant time; no token is accepted when it is unset)."""
    header = request.headers.get("Authorization", "")
    if header.partition(" ")[0].lower() == "bearer":  # a scraper's: the token or nothing
        return metrics.token_matches(header)
    user = getattr(request, "user", None)
    return bool(user is not None and user.is_active and user.is_staff)


@never_cache
@require_GET
def metrics_view(request: HttpRequest) -> HttpResponse:
    """The Prometheus text format of config/metrics.py; 403 for anyone else. Reads only.

    403, not 404: the path is the one every Prometheus server scrapes, so hiding it tells nobody
    anything, and a scrape misconfigured (a wrong token) should say "refused", not "moved"."""
    if not metrics_allowed(request):
        return HttpResponseForbidden(
            b"Staff only, or Authorization: Bearer <LUZI_METRICS_TOKEN>.\n",
            content_type="text/plain; charset=utf-8",
        )
    return HttpResponse(metrics.exposition(), content_type=metrics.CONTENT_TYPE_LATEST)
