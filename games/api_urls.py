"""The card room's API, mounted under ``api/v1/``."""

from django.urls import path

from config import converters  # noqa: F401  (registers <id:...>)
from games.play import apis
from games.replay import views as replay_views

app_name = "api"

urlpatterns = [
    path("tables/<id:table_id>/state/", apis.TableStateApi.as_view(), name="table_state"),
    path("tables/<id:table_id>/actions/", apis.TableActionApi.as_view(), name="table_actions"),
    path("tables/<id:table_id>/check/", apis.TableCheckApi.as_view(), name="table_check"),
    path("tables/<id:table_id>/leave/", apis.TableLeaveApi.as_view(), name="table_leave"),
    path(
        "tables/<id:table_id>/replays/",
        replay_views.TableReplaysApi.as_view(),
        name="table_replays",
    ),
    path("deals/<id:deal_id>/record/", replay_views.DealRecordApi.as_view(), name="deal_record"),
    path(
        "deals/<id:deal_id>/challenges/",
        replay_views.DealChallengesApi.as_view(),
        name="deal_challenges",
    ),
]
