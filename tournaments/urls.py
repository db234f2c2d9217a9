from django.urls import path

from tournaments import manage_views, views

app_name = "tournaments"

urlpatterns = [
    path("", views.home, name="home"),
    path("meets/<slug:slug>/", views.meet_detail, name="meet_detail"),
    path("meets/<slug:slug>/standings.csv", views.meet_standings_csv, name="meet_standings_csv"),
    path("events/<int:pk>/", views.event_detail, name="event_detail"),
    path("events/<int:pk>/rounds/<int:number>/", views.round_detail, name="round_detail"),
    path("events/<int:pk>/standings/", views.standings, name="standings"),
    path("events/<int:pk>/standings.csv", views.standings_download, name="standings_csv"),
    path("events/<int:pk>/projector/", views.projector, name="projector"),
    path("events/<int:pk>/players/<int:player>/", views.player_detail, name="player_detail"),
    path("teams/<int:pk>/", views.team_detail, name="team_detail"),
    # Organizers
    path("events/<int:pk>/manage/", manage_views.dashboard, name="dashboard"),
    path("events/<int:pk>/manage/import/", manage_views.import_players, name="import"),
    path(
        "events/<int:pk>/manage/rounds/<str:action>/",
        manage_views.round_action,
        name="round_action",
    ),
    path(
        "events/<int:pk>/manage/rounds/<int:number>/sheets/",
        manage_views.score_sheets,
        name="score_sheets",
    ),
    path(
        "events/<int:pk>/manage/tables/<int:pairing>/result/",
        manage_views.table_result,
        name="table_result",
    ),
    path(
        "events/<int:pk>/manage/tables/<int:pairing>/sheet/",
        manage_views.score_sheet,
        name="score_sheet",
    ),
]
