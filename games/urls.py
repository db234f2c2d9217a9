from django.urls import path

from config import converters  # noqa: F401  (registers <id:...>)
from games import views

app_name = "games"

urlpatterns = [
    path("tables/<id:pk>/", views.table_detail, name="table"),
    path("practice/", views.practice, name="practice"),
]
