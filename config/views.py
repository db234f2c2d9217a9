"""Project-level views: the health endpoint."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

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
