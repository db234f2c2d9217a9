"""The tournaments API, mounted under /api/v1/."""

from django.urls import path

from config import converters  # noqa: F401  (registers <id:...>)
from tournaments.duplicate import views as duplicate_views
from tournaments.events import apis as events_apis
from tournaments.knockout import apis as knockout_apis
from tournaments.results import apis as results_apis
from tournaments.results import deals_api
from tournaments.results import pages as results_pages
from tournaments.rounds import apis as rounds_apis
from tournaments.standings import apis as standings_apis

app_name = "tournaments-api"

urlpatterns = [
    path("events/", events_apis.EventListApi.as_view(), name="events"),
    path("events/<id:pk>/", events_apis.EventDetailApi.as_view(), name="event"),
    path("events/<id:pk>/standings/", standings_apis.StandingsApi.as_view(), name="standings"),
    path(
        "events/<id:pk>/standings.csv",
        standings_apis.StandingsCsvApi.as_view(),
        name="standings-csv",
    ),
    path("events/<id:pk>/rounds/", rounds_apis.EventRoundsApi.as_view(), name="event-rounds"),
    path("events/<id:pk>/deals/", deals_api.EventDealsApi.as_view(), name="event-deals"),
    path(
        "events/<id:pk>/duplicate/",
        duplicate_views.EventDuplicateApi.as_view(),
        name="event-duplicate",
    ),
    path("events/<id:pk>/import/", events_apis.EventImportApi.as_view(), name="event-import"),
    path("events/<id:pk>/bracket/", knockout_apis.BracketApi.as_view(), name="bracket"),
    path("events/<id:pk>/bracket.csv", knockout_apis.BracketCsvApi.as_view(), name="bracket-csv"),
    *[
        path(
            f"events/<id:pk>/bracket/{action}/",
            knockout_apis.BracketActionApi.as_view(action=action),
            name=f"bracket-{action}",
        )
        for action in ("break", "seeds", "replace", "cancel", "confirm", "start", "complete")
    ],
    path(
        "events/<id:pk>/bracket/matches/<str:key>/walkover/",
        knockout_apis.BracketMatchWalkoverApi.as_view(),
        name="bracket-match-walkover",
    ),
    path(
        "events/<id:pk>/bracket/matches/<str:key>/length/",
        knockout_apis.BracketMatchLengthApi.as_view(),
        name="bracket-match-length",
    ),
    path(
        "events/<id:pk>/players/<id:player>/withdraw/",
        events_apis.RegistrationWithdrawApi.as_view(),
        name="player-withdraw",
    ),
    path(
        "meets/<id:pk>/standings/", standings_apis.MeetStandingsApi.as_view(), name="meet-standings"
    ),
    path("rounds/<id:pk>/", rounds_apis.RoundDetailApi.as_view(), name="round"),
    path("rounds/<id:pk>/tables/", rounds_apis.RoundTablesApi.as_view(), name="round-tables"),
    path(
        "rounds/<id:pk>/confirm/",
        rounds_apis.RoundActionApi.as_view(action="confirm"),
        name="round-confirm",
    ),
    path(
        "rounds/<id:pk>/start/",
        rounds_apis.RoundActionApi.as_view(action="start"),
        name="round-start",
    ),
    path(
        "rounds/<id:pk>/complete/",
        rounds_apis.RoundActionApi.as_view(action="complete"),
        name="round-complete",
    ),
    path("tables/<id:pk>/sheet/", results_pages.TableSheetApi.as_view(), name="table-sheet"),
    path("rounds/<id:pk>/clock/", rounds_apis.RoundClockApi.as_view(), name="round-clock"),
    *(
        path(
            f"rounds/<id:pk>/clock/{action}/",
            rounds_apis.RoundClockActionApi.as_view(action=action),
            name=f"round-clock-{action}",
        )
        for action in ("start", "pause", "resume", "extend")
    ),
    path("tables/<id:pk>/results/", results_apis.PairingResultsApi.as_view(), name="table-results"),
    path(
        "results/<id:pk>/confirm/",
        results_apis.ResultReviewApi.as_view(action="confirm"),
        name="result-confirm",
    ),
    path(
        "results/<id:pk>/reject/",
        results_apis.ResultReviewApi.as_view(action="reject"),
        name="result-reject",
    ),
]
