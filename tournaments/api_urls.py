"""The tournaments API, mounted under /api/v1/."""

from django.urls import path

from config import converters  # noqa: F401  (registers <id:...>)
from tournaments import apis
from tournaments.duplicate import views as duplicate_views
from tournaments.knockout import views as bracket_views
from tournaments.results import deals_api

app_name = "tournaments-api"

urlpatterns = [
    path("events/", apis.EventListApi.as_view(), name="events"),
    path("events/<id:pk>/", apis.EventDetailApi.as_view(), name="event"),
    path("events/<id:pk>/standings/", apis.StandingsApi.as_view(), name="standings"),
    path("events/<id:pk>/standings.csv", apis.StandingsCsvApi.as_view(), name="standings-csv"),
    path("events/<id:pk>/rounds/", apis.EventRoundsApi.as_view(), name="event-rounds"),
    path("events/<id:pk>/deals/", deals_api.EventDealsApi.as_view(), name="event-deals"),
    path(
        "events/<id:pk>/duplicate/",
        duplicate_views.EventDuplicateApi.as_view(),
        name="event-duplicate",
    ),
    path("events/<id:pk>/import/", apis.EventImportApi.as_view(), name="event-import"),
    path("events/<id:pk>/bracket/", bracket_views.BracketApi.as_view(), name="bracket"),
    path("events/<id:pk>/bracket.csv", bracket_views.BracketCsvApi.as_view(), name="bracket-csv"),
    *[
        path(
            f"events/<id:pk>/bracket/{action}/",
            bracket_views.BracketActionApi.as_view(action=action),
            name=f"bracket-{action}",
        )
        for action in ("break", "seeds", "replace", "cancel", "confirm", "start", "complete")
    ],
    path(
        "events/<id:pk>/bracket/matches/<str:key>/walkover/",
        bracket_views.BracketMatchWalkoverApi.as_view(),
        name="bracket-match-walkover",
    ),
    path(
        "events/<id:pk>/bracket/matches/<str:key>/length/",
        bracket_views.BracketMatchLengthApi.as_view(),
        name="bracket-match-length",
    ),
    path(
        "events/<id:pk>/players/<id:player>/withdraw/",
        apis.RegistrationWithdrawApi.as_view(),
        name="player-withdraw",
    ),
    path("meets/<id:pk>/standings/", apis.MeetStandingsApi.as_view(), name="meet-standings"),
    path("rounds/<id:pk>/", apis.RoundDetailApi.as_view(), name="round"),
    path("rounds/<id:pk>/tables/", apis.RoundTablesApi.as_view(), name="round-tables"),
    path(
        "rounds/<id:pk>/confirm/",
        apis.RoundActionApi.as_view(action="confirm"),
        name="round-confirm",
    ),
    path("rounds/<id:pk>/start/", apis.RoundActionApi.as_view(action="start"), name="round-start"),
    path(
        "rounds/<id:pk>/complete/",
        apis.RoundActionApi.as_view(action="complete"),
        name="round-complete",
    ),
    path("tables/<id:pk>/results/", apis.PairingResultsApi.as_view(), name="table-results"),
    path(
        "results/<id:pk>/confirm/",
        apis.ResultReviewApi.as_view(action="confirm"),
        name="result-confirm",
    ),
    path(
        "results/<id:pk>/reject/",
        apis.ResultReviewApi.as_view(action="reject"),
        name="result-reject",
    ),
]
