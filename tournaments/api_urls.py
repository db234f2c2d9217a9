"""The tournaments API, mounted under /api/v1/."""

from django.urls import path

from tournaments import apis

app_name = "tournaments-api"

urlpatterns = [
    path("events/", apis.EventListApi.as_view(), name="events"),
    path("events/<int:pk>/", apis.EventDetailApi.as_view(), name="event"),
    path("events/<int:pk>/standings/", apis.StandingsApi.as_view(), name="standings"),
    path("events/<int:pk>/standings.csv", apis.StandingsCsvApi.as_view(), name="standings-csv"),
    path("events/<int:pk>/rounds/", apis.EventRoundsApi.as_view(), name="event-rounds"),
    path("events/<int:pk>/import/", apis.EventImportApi.as_view(), name="event-import"),
    path("meets/<int:pk>/standings/", apis.MeetStandingsApi.as_view(), name="meet-standings"),
    path("rounds/<int:pk>/", apis.RoundDetailApi.as_view(), name="round"),
    path("rounds/<int:pk>/tables/", apis.RoundTablesApi.as_view(), name="round-tables"),
    path(
        "rounds/<int:pk>/confirm/",
        apis.RoundActionApi.as_view(action="confirm"),
        name="round-confirm",
    ),
    path("rounds/<int:pk>/start/", apis.RoundActionApi.as_view(action="start"), name="round-start"),
    path(
        "rounds/<int:pk>/complete/",
        apis.RoundActionApi.as_view(action="complete"),
        name="round-complete",
    ),
    path("tables/<int:pk>/results/", apis.PairingResultsApi.as_view(), name="table-results"),
    path(
        "results/<int:pk>/confirm/",
        apis.ResultReviewApi.as_view(action="confirm"),
        name="result-confirm",
    ),
    path(
        "results/<int:pk>/reject/",
        apis.ResultReviewApi.as_view(action="reject"),
        name="result-reject",
    ),
]
