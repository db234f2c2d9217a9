from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("tables/<int:pk>/", views.table_detail, name="table"),
    path("practice/", views.practice, name="practice"),
]
