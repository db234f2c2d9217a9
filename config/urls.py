"""URL configuration."""

from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _
from drf_spectacular.views import SpectacularAPIView

from config.views import healthz, metrics_view

# JSON under /api/, the site's pages elsewhere (config/exceptions.py)
handler400 = "config.exceptions.bad_request"
handler403 = "config.exceptions.permission_denied"
handler404 = "config.exceptions.page_not_found"
handler500 = "config.exceptions.server_error"

admin.site.site_header = _("Luzi administration")
admin.site.site_title = _("Luzi")
admin.site.index_title = _("Tournaments and tables")

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("metrics", metrics_view, name="metrics"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("api/v1/", include("games.api_urls")),
    path("api/v1/", include("tournaments.api_urls")),
    path("api/v1/", include("ratings.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("accounts/", include("accounts.urls")),
    path("", include("games.urls")),
    path("", include("tournaments.urls")),
    path("", include("ratings.urls")),
]
