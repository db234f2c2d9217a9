"""The card room's API, mounted under ``api/v1/``."""

from django.urls import path

from games import apis

app_name = "api"

urlpatterns = [
    path("tables/<int:table_id>/state/", apis.TableStateApi.as_view(), name="table_state"),
    path("tables/<int:table_id>/actions/", apis.TableActionApi.as_view(), name="table_actions"),
    path("tables/<int:table_id>/check/", apis.TableCheckApi.as_view(), name="table_check"),
    path("tables/<int:table_id>/leave/", apis.TableLeaveApi.as_view(), name="table_leave"),
]
