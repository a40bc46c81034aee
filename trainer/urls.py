from django.urls import path

from trainer import views

app_name = "trainer"

urlpatterns = [
    path("", views.index, name="index"),
    path("deal/", views.deal, name="deal"),
    path("answer/", views.answer, name="answer"),
    path("s/<int:pk>/", views.situation, name="situation"),
    path("count/answer/", views.count_answer, name="count_answer"),
    path("c/<int:pk>/", views.count, name="count"),
    path("stats/", views.stats, name="stats"),
    path("chart/", views.chart, name="chart"),
    path("indices/", views.indices, name="indices"),
]
