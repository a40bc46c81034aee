from django.urls import path

from game import views

app_name = "game"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("variants/", views.variant, name="variant"),
    path("top-up/", views.top_up, name="top_up"),
    path("history/", views.history, name="history"),
    path("history/<int:round_id>/", views.history_round, name="history_round"),
    path("table/<slug:slug>/", views.table, name="table"),
    path("table/<slug:slug>/deal/", views.deal, name="deal"),
    path("table/<slug:slug>/hints/", views.hints, name="hints"),
    path("table/<slug:slug>/coach/", views.coach, name="coach"),
    path("table/<slug:slug>/count-mode/", views.count_mode, name="count_mode"),
    path("table/<slug:slug>/count/", views.count, name="count"),
    path("round/<int:round_id>/move/", views.move, name="move"),
]
