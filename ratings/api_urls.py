"""The ratings API, mounted under /api/v1/."""

from django.urls import path

from config import converters  # noqa: F401  (registers <id:...>)
from ratings import apis

app_name = "ratings-api"

urlpatterns = [
    path("ratings/", apis.RatingsApi.as_view(), name="ratings"),
    path("players/<id:player_id>/", apis.PlayerApi.as_view(), name="player"),
]
