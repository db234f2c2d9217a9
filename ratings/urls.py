"""The ratings' pages."""

from django.urls import path

from config import converters  # noqa: F401  (registers <id:...>)
from ratings import views

app_name = "ratings"

urlpatterns = [
    path("ratings/<slug:game>/", views.leaderboard, name="leaderboard"),
    path("players/<id:player_id>/", views.profile, name="profile"),
]
