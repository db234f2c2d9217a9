from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views
from config import converters  # noqa: F401  (registers <id:...>)

app_name = "accounts"

urlpatterns = [
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("code/", views.code_login, name="code_login"),
    path("me/", views.me, name="me"),
    path("me/codes/", views.code_consent, name="code_consent"),
    path("teams/<id:team_id>/codes/", views.team_codes, name="team_codes"),
]
