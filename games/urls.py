from django.urls import path

from config import converters  # noqa: F401  (registers <id:...>)
from games.replay import views as replay_views
from games.tables import views

app_name = "games"

urlpatterns = [
    path("tables/<id:pk>/", views.table_detail, name="table"),
    path("practice/", views.practice, name="practice"),
    path("tables/<id:pk>/replay/", replay_views.table_replay, name="table_replay"),
    path("deals/<id:pk>/replay/", replay_views.deal_replay_page, name="deal_replay"),
    path("deals/<id:pk>/challenge/", replay_views.deal_challenge, name="deal_challenge"),
]
