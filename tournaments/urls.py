from django.urls import path

from config import converters  # noqa: F401  (registers <id:...>)
from tournaments.duplicate import views as duplicate_views
from tournaments.events import manage as events_manage
from tournaments.events import pages as events_pages
from tournaments.events import views as event_views
from tournaments.knockout import views as knockout_views
from tournaments.results import pages as results_pages
from tournaments.results import views as results_views
from tournaments.rounds import dashboard as rounds_dashboard
from tournaments.rounds import views as rounds_views
from tournaments.standings import views as standings_views
from tournaments.web import checkin as checkin_views

app_name = "tournaments"

urlpatterns = [
    path("", events_pages.home, name="home"),
    path("meets/<slug:slug>/", standings_views.meet_detail, name="meet_detail"),
    path(
        "meets/<slug:slug>/standings.csv",
        standings_views.meet_standings_csv,
        name="meet_standings_csv",
    ),
    path("events/new/", event_views.event_new, name="event_new"),
    path("events/<id:pk>/", events_pages.event_detail, name="event_detail"),
    path("events/<id:pk>/rounds/<id:number>/", rounds_views.round_detail, name="round_detail"),
    path("events/<id:pk>/standings/", standings_views.standings, name="standings"),
    path("events/<id:pk>/standings.csv", standings_views.standings_download, name="standings_csv"),
    path("events/<id:pk>/projector/", rounds_views.projector, name="projector"),
    path("events/<id:pk>/players/<id:player>/", events_pages.player_detail, name="player_detail"),
    path("teams/<id:pk>/", events_pages.team_detail, name="team_detail"),
    # A table scored by its players on their phones (tournaments.results.pages)
    path("tables/<id:pk>/sheet/", results_pages.table_sheet, name="table_sheet"),
    path("sw.js", results_pages.service_worker, name="service_worker"),
    path("manifest.webmanifest", results_pages.manifest, name="manifest"),
    # Check-in before a round (tournaments.web.checkin)
    path("events/<id:pk>/check-in/", checkin_views.check_in_page, name="check_in"),
    path("events/<id:pk>/manage/check-in/", checkin_views.check_in_manage, name="check_in_manage"),
    path(
        "events/<id:pk>/manage/check-in/action/",
        checkin_views.check_in_action,
        name="check_in_action",
    ),
    # The knockout stage (tournaments.knockout.views)
    path("events/<id:pk>/bracket/", knockout_views.bracket, name="bracket"),
    path("events/<id:pk>/bracket.csv", knockout_views.bracket_download, name="bracket_csv"),
    path("events/<id:pk>/manage/knockout/", knockout_views.manage, name="knockout_manage"),
    path(
        "events/<id:pk>/manage/knockout/<str:action>/",
        knockout_views.manage_action,
        name="knockout_action",
    ),
    # Organizers
    path("events/<id:pk>/manage/", rounds_dashboard.dashboard, name="dashboard"),
    path("events/<id:pk>/manage/settings/", event_views.event_settings, name="event_settings"),
    path("events/<id:pk>/manage/staff/", event_views.staff_add, name="staff_add"),
    path("events/<id:pk>/referee/", event_views.referee_tables, name="referee_tables"),
    path("events/<id:pk>/manage/import/", events_manage.import_players, name="import"),
    path("events/<id:pk>/manage/codes/", events_manage.login_codes, name="login_codes"),
    path(
        "events/<id:pk>/manage/players/withdraw/",
        events_manage.player_withdraw,
        name="player_withdraw",
    ),
    path(
        "events/<id:pk>/manage/teams/withdraw/",
        events_manage.team_withdraw,
        name="team_withdraw",
    ),
    path(
        "events/<id:pk>/manage/rounds/<str:action>/",
        rounds_dashboard.round_action,
        name="round_action",
    ),
    path(
        "events/<id:pk>/manage/rounds/<id:number>/sheets/",
        results_views.score_sheets,
        name="score_sheets",
    ),
    path(
        "events/<id:pk>/manage/rounds/<id:number>/deal-sheets/",
        duplicate_views.deal_sheets,
        name="deal_sheets",
    ),
    path("events/<id:pk>/manage/duplicate/", duplicate_views.duplicate_set, name="duplicate_set"),
    path(
        "events/<id:pk>/manage/tables/<id:pairing>/result/",
        results_views.table_result,
        name="table_result",
    ),
    path(
        "events/<id:pk>/manage/tables/<id:pairing>/sheet/",
        results_views.score_sheet,
        name="score_sheet",
    ),
]
